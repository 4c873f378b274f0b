#include "views/timeline/timeline_pane.h"

#include <QAction>
#include <QCoreApplication>
#include <QDoubleValidator>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMouseEvent>
#include <QSettings>
#include <QToolButton>
#include <QVBoxLayout>

#include "analysis/timeline/timeline_slice.h"
#include "views/timeline/details_line.h"
#include "views/timeline/timeline_view.h"
#include "views/timeline/zoom_buttons.h"

namespace waitscope::views {

namespace {

struct LayerChoice {
  std::uint32_t kind;
  const char* key;    // QSettings key under timeline/layers/ and the action's object name suffix
  const char* label;
};

constexpr LayerChoice kLayers[] = {
    {timeline::kSliceMessages, "messages", QT_TRANSLATE_NOOP("Timeline", "&Messages")},
    {timeline::kSliceTransfers, "transfers", QT_TRANSLATE_NOOP("Timeline", "RMA &Transfers")},
    {timeline::kSliceEpochs, "epochs", QT_TRANSLATE_NOOP("Timeline", "RMA &Epochs")},
    {timeline::kSliceInstances, "waitStates", QT_TRANSLATE_NOOP("Timeline", "&Wait States")},
    {timeline::kSlicePath, "criticalPath", QT_TRANSLATE_NOOP("Timeline", "&Critical Path")},
};

}  // namespace

TimelinePane::TimelinePane(Selection* selection, QWidget* parent)
    : QWidget(parent),
      view_(new TimelineView(selection, this)),
      from_(new QLineEdit(this)),
      to_(new QLineEdit(this)),
      details_(new DetailsLine(this)) {
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
  auto* layers = toolButton(this, tr("Layers"), tr("What the timeline draws besides the regions"));
  layers->setObjectName(QStringLiteral("timelineLayers"));
  addLayerActions(layers);
  bar->addWidget(layers);
  rows_ = toolButton(this, tr("Rows"), tr("Row height, which ranks are shown, grouping by node (also the row labels' context menu)"));
  rows_->setObjectName(QStringLiteral("timelineRows"));
  connect(rows_, &QToolButton::clicked, this, [this] {
    QMenu* menu = view_->createRowMenu(QPoint(-1, -1));
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(rows_->mapToGlobal(QPoint(0, rows_->height())));
  });
  bar->addWidget(rows_);
  bar->addStretch(1);
  connect(apply, &QToolButton::clicked, this, &TimelinePane::applyTypedWindow);
  zoom.connectTo(view_);
  connect(view_, &TimelineView::timeWindowChanged, this, &TimelinePane::showWindow);
  connect(view_, &TimelineView::zoomHistoryChanged, this, &TimelinePane::updateButtons);

  // The user's row height, or fitting, as last chosen.
  const QSettings settings;
  const int height = settings.value(QStringLiteral("timeline/rowHeight"), 0).toInt();
  if (!settings.value(QStringLiteral("timeline/fitRows"), true).toBool() && height > 0) view_->setRowHeight(height);
  connect(view_, &TimelineView::rowsChanged, this, &TimelinePane::saveRows);

  // The details of what the pointer is over (the tooltip's text, kept).
  view_->installEventFilter(this);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(bar);
  layout->addWidget(view_, 1);
  layout->addWidget(details_);
  updateButtons();
}

void TimelinePane::addLayerActions(QToolButton* button) {
  auto* menu = new QMenu(button);
  const QSettings settings;
  for (const LayerChoice& choice : kLayers) {
    auto* action = new QAction(QCoreApplication::translate("Timeline", choice.label), this);
    action->setObjectName(QStringLiteral("layer_%1").arg(QLatin1String(choice.key)));
    action->setCheckable(true);
    const QString key = QStringLiteral("timeline/layers/%1").arg(QLatin1String(choice.key));
    action->setChecked(settings.value(key, true).toBool());
    view_->setLayerVisible(choice.kind, action->isChecked());
    const std::uint32_t kind = choice.kind;
    connect(action, &QAction::toggled, this, [this, kind, key](bool on) {
      view_->setLayerVisible(kind, on);
      QSettings().setValue(key, on);
    });
    menu->addAction(action);
    layerActions_.push_back(action);
  }
  button->setMenu(menu);
  button->setPopupMode(QToolButton::InstantPopup);
}

void TimelinePane::saveRows() const {
  QSettings settings;
  settings.setValue(QStringLiteral("timeline/fitRows"), view_->fitRows());
  if (!view_->fitRows()) settings.setValue(QStringLiteral("timeline/rowHeight"), view_->rowHeight());
}

bool TimelinePane::eventFilter(QObject* watched, QEvent* event) {
  if (watched == view_ && event->type() == QEvent::MouseMove) {
    const QString text = view_->describeAt(static_cast<QMouseEvent*>(event)->position().toPoint());
    if (!text.isEmpty()) details_->setDetails(text);
  }
  return QWidget::eventFilter(watched, event);
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
