#include "views/widgets/header_fit.h"

#include <QAbstractItemModel>
#include <QHeaderView>
#include <QStyle>

namespace waitscope::views {

QStringList elidedHeaderTexts(const QHeaderView* header) {
  QStringList elided;
  const QAbstractItemModel* model = header->model();
  if (!model) return elided;
  // The style's margin on both sides of a section's text.
  const int margins = 2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
  const QFontMetrics metrics = header->fontMetrics();
  for (int section = 0; section < header->count(); ++section) {
    if (header->isSectionHidden(section)) continue;
    const QString title = model->headerData(section, header->orientation(), Qt::DisplayRole).toString();
    for (const QString& line : title.split(QLatin1Char('\n')))
      if (metrics.horizontalAdvance(line) + margins > header->sectionSize(section)) elided << line;
  }
  return elided;
}

}  // namespace waitscope::views
