#include "views/timeline/zoom_buttons.h"

namespace waitscope::views {

QToolButton* toolButton(QWidget* parent, const QString& text, const QString& tip) {
  auto* b = new QToolButton(parent);
  b->setText(text);
  b->setToolTip(tip);
  return b;
}

ZoomButtons::ZoomButtons(QWidget* parent, QHBoxLayout* bar)
    : in(toolButton(parent, QObject::tr("+"), QObject::tr("Zoom in (+)"))),
      out(toolButton(parent, QObject::tr("−"), QObject::tr("Zoom out (-)"))),
      all(toolButton(parent, QObject::tr("All"), QObject::tr("The whole trace (Home)"))),
      undo(toolButton(parent, QObject::tr("Undo zoom"), QObject::tr("Back to the previous time window (Ctrl+Z)"))),
      redo(toolButton(parent, QObject::tr("Redo zoom"), QObject::tr("Forward again (Ctrl+Shift+Z)"))) {
  for (QToolButton* b : {in, out, all, undo, redo}) bar->addWidget(b);
}

}  // namespace waitscope::views
