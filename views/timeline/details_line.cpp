#include "views/timeline/details_line.h"

#include <algorithm>

#include <QFontMetrics>
#include <QResizeEvent>

namespace waitscope::views {

DetailsLine::DetailsLine(QWidget* parent) : QLabel(parent) {
  setObjectName(QStringLiteral("timelineDetails"));
  setWordWrap(false);
  setTextFormat(Qt::PlainText);
  setTextInteractionFlags(Qt::TextSelectableByMouse);
  // One line whatever it shows; the width follows the layout, never the text.
  setFixedHeight(fontMetrics().height() + 4);
  setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
  setContentsMargins(4, 0, 4, 0);
}

void DetailsLine::setDetails(const QString& text) {
  details_ = text;
  details_.replace(QLatin1Char('\n'), QStringLiteral(" · "));
  setToolTip(text);
  elide();
}

void DetailsLine::resizeEvent(QResizeEvent* event) {
  QLabel::resizeEvent(event);
  elide();
}

void DetailsLine::elide() {
  const int room = std::max(0, contentsRect().width());
  setText(fontMetrics().elidedText(details_, Qt::ElideRight, room));
}

}  // namespace waitscope::views
