#include "views/timeline/timeline_pane.h"

#include <QDoubleValidator>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QVBoxLayout>

#include "views/timeline/timeline_view.h"
#include "views/timeline/zoom_buttons.h"

namespace waitscope::views {

TimelinePane::TimelinePane(Selection* selection, QWidget* parent)
    : QWidget(parent),
      view_(new TimelineView(selection, this)),
      from_(new QLineEdit(this)),
      to_(new QLineEdit(this)) {
  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(0, 0, 0, 0);
  for (QLineEdit* e : {from_, to_}) {
    auto* v = new QDoubleValidator(e);
    v->setNotation(QDoubleValidator::ScientificNotation);
    e->setValidator(v);
    e->setMaximumWidth(140);
    connect(e, &QLineEdit::returnPressed, this, &TimelinePane::applyTypedWindow);
  }
  from_->setObjectName(QStringLiteral("timelineFrom"));
  to_->setObjectName(QStringLiteral("timelineTo"));
  bar->addWidget(new QLabel(tr("From"), this));
  bar->addWidget(from_);
  bar->addWidget(new QLabel(tr("to"), this));
  bar->addWidget(to_);
  bar->addWidget(new QLabel(tr("s"), this));
  QToolButton* apply = toolButton(this, tr("Show"), tr("Show exactly this time window"));
  bar->addWidget(apply);
  const ZoomButtons zoom(this, bar);
  undo_ = zoom.undo;
  redo_ = zoom.redo;
  bar->addStretch(1);
  connect(apply, &QToolButton::clicked, this, &TimelinePane::applyTypedWindow);
  zoom.connectTo(view_);
  connect(view_, &TimelineView::timeWindowChanged, this, &TimelinePane::showWindow);
  connect(view_, &TimelineView::zoomHistoryChanged, this, &TimelinePane::updateButtons);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(view_, 1);
  updateButtons();
}

void TimelinePane::applyTypedWindow() {
  bool okFrom = false, okTo = false;
  const double from = QLocale().toDouble(from_->text(), &okFrom);
  const double to = QLocale().toDouble(to_->text(), &okTo);
  if (okFrom && okTo && to > from) view_->setTimeWindow(from, to);
  else showWindow(view_->timeWindow().from, view_->timeWindow().to);  // back to what is shown
}

void TimelinePane::showWindow(double from, double to) {
  from_->setText(QLocale().toString(from, 'g', 12));
  to_->setText(QLocale().toString(to, 'g', 12));
}

void TimelinePane::updateButtons() {
  undo_->setEnabled(view_->canUndoZoom());
  redo_->setEnabled(view_->canRedoZoom());
}

}  // namespace waitscope::views
