#include "views/timeline/stacked_timelines.h"

#include <algorithm>
#include <limits>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "views/model/selection.h"
#include "views/timeline/timeline_format.h"
#include "views/timeline/timeline_geometry.h"
#include "views/timeline/timeline_rows.h"
#include "views/timeline/timeline_view.h"
#include "views/timeline/zoom_buttons.h"

namespace waitscope::views {

namespace {

// The combo box's entries, in TimelineAlignment::Kind order.
constexpr TimelineAlignment::Kind kKinds[] = {TimelineAlignment::Kind::TraceStart,
                                             TimelineAlignment::Kind::EndOfMpiInit,
                                             TimelineAlignment::Kind::FirstCallOfRegion,
                                             TimelineAlignment::Kind::Offset};

}  // namespace

StackedTimelines::StackedTimelines(QWidget* parent)
    : QWidget(parent),
      choice_(new QComboBox(this)),
      value_(new QLineEdit(this)),
      alignmentLabel_(new QLabel(this)) {
  choice_->setObjectName(QStringLiteral("alignmentChoice"));
  choice_->addItems({tr("Trace start"), tr("End of MPI_Init"), tr("First call of a region…"), tr("Offset (s)…")});
  choice_->setToolTip(tr("The point of each run drawn at t = 0"));
  value_->setObjectName(QStringLiteral("alignmentValue"));
  value_->setMaximumWidth(200);
  alignmentLabel_->setObjectName(QStringLiteral("alignmentText"));
  alignmentLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // A long line must not widen the window: cut off, in full in its tool tip.
  alignmentLabel_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  connect(choice_, &QComboBox::activated, this, [this](int index) {
    const TimelineAlignment::Kind kind = kKinds[index];
    if (kind == TimelineAlignment::Kind::FirstCallOfRegion || kind == TimelineAlignment::Kind::Offset) {
      value_->clear();
      updateControls();
      value_->setFocus();  // typed, then Enter applies
      return;
    }
    TimelineAlignment a;
    a.kind = kind;
    setAlignment(a);
  });
  connect(value_, &QLineEdit::returnPressed, this, &StackedTimelines::applyTypedAlignment);

  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(0, 0, 0, 0);
  bar->addWidget(new QLabel(tr("Align at"), this));
  bar->addWidget(choice_);
  bar->addWidget(value_);
  const ZoomButtons zoom(this, bar);
  zoom.all->setToolTip(tr("Both runs whole (Home)"));
  zoom.connectTo(this);
  undo_ = zoom.undo;
  redo_ = zoom.redo;
  bar->addWidget(alignmentLabel_, 1);

  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->setChildrenCollapsible(false);
  for (int run = 0; run < kRuns; ++run) {
    selections_[run] = new Selection(this);
    views_[run] = new TimelineView(selections_[run], this);
    views_[run]->shareZoomHistory(history_);
    // Two of them, with their headers, fit where one timeline does (the dock is tabbed with
    // it, and must not make the window taller): a ruler and two rows each.
    views_[run]->setMinimumHeight(kRulerHeight + 2 * TimelineRows::kLocationHeight);
    headers_[run] = new QLabel(this);
    headers_[run]->setObjectName(run == 0 ? QStringLiteral("runHeaderA") : QStringLiteral("runHeaderB"));
    QFont bold = headers_[run]->font();
    bold.setBold(true);
    headers_[run]->setFont(bold);
    headers_[run]->setContentsMargins(4, 2, 4, 2);
    headers_[run]->setAutoFillBackground(true);
    headers_[run]->setWordWrap(true);  // a long notice must not widen the window
    headers_[run]->setBackgroundRole(QPalette::AlternateBase);
    notices_[run] = new QLabel(this);
    notices_[run]->setWordWrap(true);
    notices_[run]->setAlignment(Qt::AlignCenter);
    notices_[run]->setTextInteractionFlags(Qt::TextSelectableByMouse);
    stacks_[run] = new QStackedWidget(this);
    stacks_[run]->addWidget(notices_[run]);
    stacks_[run]->addWidget(views_[run]);
    auto* pane = new QWidget(this);
    auto* layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(headers_[run]);
    layout->addWidget(stacks_[run], 1);
    splitter->addWidget(pane);
    connect(views_[run], &TimelineView::timeWindowChanged, this,
            [this, run](double from, double to) { follow(run, from, to); });
    connect(views_[run], &TimelineView::zoomHistoryChanged, this, &StackedTimelines::updateControls);
  }

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(splitter, 1);
  setRuns({tr("A"), nullptr, nullptr, tr("No runs to compare.")}, {tr("B"), nullptr, nullptr, {}});
}

void StackedTimelines::setRuns(ComparedRun a, ComparedRun b) {
  runs_ = {std::move(a), std::move(b)};
  for (int run = 0; run < kRuns; ++run) {
    const ComparedRun& r = runs_[run];
    views_[run]->setData(r.source, r.report);
    headers_[run]->setText(headerText(run));
    notices_[run]->setText(r.notice);
    stacks_[run]->setCurrentIndex(r.source ? 1 : 0);
  }
  applyHighlight();  // new data clears a view's highlight
  // One legend, at the bottom of the lower shown run.
  views_[0]->setLegendVisible(!shown(1));
  views_[1]->setLegendVisible(true);
  applyAlignment();
}

void StackedTimelines::setHighlightedMetric(const QString& uniqueName) {
  highlightedMetric_ = uniqueName;
  applyHighlight();
}

void StackedTimelines::applyHighlight() {
  for (int run = 0; run < kRuns; ++run) {
    const ComparedRun& r = runs_[run];
    const std::uint32_t metric = r.report && !highlightedMetric_.isEmpty()
                                     ? r.report->findMetric(highlightedMetric_.toStdString())
                                     : report::kNoId;
    selections_[run]->setMetrics({});  // the view follows a change only
    if (metric != report::kNoId) selections_[run]->setMetrics({{metric, true}});
  }
}

QString StackedTimelines::headerText(int run) const {
  const ComparedRun& r = runs_[run];
  if (r.source || r.notice.isEmpty()) return r.label;
  return tr("%1 — %2").arg(r.label, r.notice);
}

QString StackedTimelines::notice(int run) const { return shown(run) ? QString() : runs_[run].notice; }

QString StackedTimelines::alignmentText() const { return alignmentText_; }

void StackedTimelines::setAlignment(const TimelineAlignment& alignment) {
  alignment_ = alignment;
  choice_->setCurrentIndex(static_cast<int>(alignment.kind));
  if (alignment.kind == TimelineAlignment::Kind::FirstCallOfRegion) value_->setText(alignment.region);
  else if (alignment.kind == TimelineAlignment::Kind::Offset) value_->setText(QLocale().toString(alignment.offset, 'g', 12));
  applyAlignment();
  emit alignmentChanged();
}

void StackedTimelines::applyAlignment() {
  // Each run's t = 0, and the shared axis spanning both runs.
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  QStringList where, problems;
  for (int run = 0; run < kRuns; ++run) {
    origins_[run] = 0.0;
    const ComparedRun& r = runs_[run];
    if (!r.source || !r.report) continue;
    const AlignmentPoint point = alignmentPoint(*r.source, *r.report, alignment_, run == 1);
    origins_[run] = point.time;
    lo = std::min(lo, r.source->begin() - point.time);
    hi = std::max(hi, r.source->end() - point.time);
    where << tr("%1 at %2").arg(r.label.section(QLatin1Char(':'), 0, 0), formatTime(point.time));
    if (!point.found) problems << tr("%1: %2").arg(r.label, point.problem);
  }
  alignmentText_ = where.isEmpty() ? QString() : tr("t = 0: %1 of its trace").arg(where.join(QStringLiteral(", ")));
  if (!problems.isEmpty()) alignmentText_ += QStringLiteral(" — ") + problems.join(QStringLiteral("; "));
  alignmentLabel_->setText(alignmentText_);
  alignmentLabel_->setToolTip(alignmentText_);
  following_ = true;  // the views are set one by one, none leads
  for (int run = 0; run < kRuns; ++run) {
    if (!shown(run)) continue;
    TimelineView* v = views_[run];
    v->setTimeOrigin(origins_[run]);
    v->setTimeBounds(lo + origins_[run], hi + origins_[run]);
    v->followTimeWindow(lo + origins_[run], hi + origins_[run]);
  }
  following_ = false;
  history_->clear();  // its entries were relative to the old alignment points
  updateControls();
}

void StackedTimelines::applyTypedAlignment() {
  TimelineAlignment a;
  a.kind = kKinds[std::max(0, choice_->currentIndex())];
  const QString text = value_->text().trimmed();
  if (a.kind == TimelineAlignment::Kind::FirstCallOfRegion) {
    if (text.isEmpty()) return;
    a.region = text;
  } else if (a.kind == TimelineAlignment::Kind::Offset) {
    bool ok = false;
    a.offset = QLocale().toDouble(text, &ok);
    if (!ok) a.offset = QLocale::c().toDouble(text, &ok);
    if (!ok) {
      alignmentLabel_->setText(tr("\"%1\" is not a number of seconds (e.g. 0.25, or -1.5e-3)").arg(text.left(40)));
      return;
    }
  }
  setAlignment(a);
}

void StackedTimelines::follow(int leader, double from, double to) {
  if (following_) return;
  following_ = true;
  for (int run = 0; run < kRuns; ++run)
    if (run != leader && shown(run))
      views_[run]->followTimeWindow(from - origins_[leader] + origins_[run], to - origins_[leader] + origins_[run]);
  following_ = false;
}

TimeWindow StackedTimelines::sharedWindow() const {
  const int run = leadingRun();
  if (run < 0) return {};
  const TimeWindow w = views_[run]->timeWindow();
  return {w.from - origins_[run], w.to - origins_[run]};
}

int StackedTimelines::leadingRun() const {
  for (int run = 0; run < kRuns; ++run)
    if (shown(run)) return run;
  return -1;
}

void StackedTimelines::zoomIn() {
  if (const int run = leadingRun(); run >= 0) views_[run]->zoomIn();
}
void StackedTimelines::zoomOut() {
  if (const int run = leadingRun(); run >= 0) views_[run]->zoomOut();
}
void StackedTimelines::zoomToAll() {
  if (const int run = leadingRun(); run >= 0) views_[run]->zoomToAll();
}
void StackedTimelines::undoZoom() {
  if (const int run = leadingRun(); run >= 0) views_[run]->undoZoom();
}
void StackedTimelines::redoZoom() {
  if (const int run = leadingRun(); run >= 0) views_[run]->redoZoom();
}

void StackedTimelines::updateControls() {
  const int index = choice_->currentIndex();
  const bool typed = index == 2 || index == 3;
  value_->setVisible(typed);
  value_->setPlaceholderText(index == 2 ? tr("region name, Enter") : tr("seconds B is drawn later, Enter"));
  value_->setToolTip(index == 2 ? tr("Both runs at the first call of this region (its name as in the call tree)")
                                : tr("The trace starts aligned, B drawn this many seconds later (negative: earlier)"));
  undo_->setEnabled(history_->canUndo());
  redo_->setEnabled(history_->canRedo());
}

}  // namespace waitscope::views
