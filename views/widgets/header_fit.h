#pragma once
// Whether a table's column titles are shown whole: Qt elides a title that does
// not fit its section without telling anyone, so screenshots and tests ask.
#include <QStringList>

class QHeaderView;

namespace waitscope::views {

// The titles (each line of a multi-line one) of the header's visible sections
// that are wider than their section.
QStringList elidedHeaderTexts(const QHeaderView* header);

}  // namespace waitscope::views
