#pragma once
// Where Help > User Guide finds docs/user-guide.md: the installed copy (beside the
// app's own prefix, then the configured install prefix), then the source tree the app
// was built from, so it works installed and from the build tree alike.
#include <QString>
#include <QStringList>

namespace waitscope::app {

// The places looked at, in order.
QStringList userGuideCandidates();

// The first candidate that exists; empty when none does.
QString findUserGuide();

// One line naming the file that is missing and the places looked at.
QString userGuideMissingMessage();

}  // namespace waitscope::app
