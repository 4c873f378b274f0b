#include "views/timeline/timeline_view.h"

#include <algorithm>
#include <cmath>

#include <QContextMenuEvent>
#include <QFileInfo>
#include <QHelpEvent>
#include <QImage>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QSaveFile>
#include <QScrollBar>
#include <QSvgGenerator>
#include <QToolTip>
#include <QWheelEvent>

#include "analysis/report/report_queries.h"
#include "views/model/selection.h"
#include "views/timeline/passes/critical_path_pass.h"
#include "views/timeline/passes/epoch_pass.h"
#include "views/timeline/passes/legend_pass.h"
#include "views/timeline/passes/message_pass.h"
#include "views/timeline/passes/region_label_pass.h"
#include "views/timeline/passes/region_pass.h"
#include "views/timeline/passes/render_pass.h"
#include "views/timeline/passes/row_label_pass.h"
#include "views/timeline/passes/row_passes.h"
#include "views/timeline/passes/rubber_band_pass.h"
#include "views/timeline/passes/ruler_pass.h"
#include "views/timeline/passes/status_pass.h"
#include "views/timeline/passes/wait_state_pass.h"
#include "views/timeline/rank_ranges.h"
#include "views/timeline/timeline_format.h"
#include "views/timeline/timeline_geometry.h"
#include "views/timeline/timeline_hit.h"
#include "views/timeline/timeline_tooltip.h"

namespace waitscope::views {

namespace {

constexpr double kMinSpan = 1e-9;     // the smallest window: one nanosecond
constexpr int kClickSlop = 3;         // pixels a press may move and still be a click
constexpr qint64 kWheelStepMs = 600;  // wheel events closer than this are one undo step

using timeline::kNoId;

}  // namespace

TimelineView::TimelineView(Selection* selection, QWidget* parent)
    : QWidget(parent), selection_(selection), scroll_(new QScrollBar(Qt::Vertical, this)) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  setMinimumSize(320, 160);
  setAttribute(Qt::WA_OpaquePaintEvent);
  connect(scroll_, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
  // Drawing order: the plot's passes (clipped to it), then the margins'.
  passes_.push_back(std::make_unique<RegionPass>());
  passes_.push_back(std::make_unique<EpochPass>());
  auto rowItems = std::make_unique<RowPasses>();  // stacked on each row's band, row by row
  rowItems->add(std::make_unique<RegionLabelPass>());
  rowItems->add(std::make_unique<WaitStatePass>());
  passes_.push_back(std::move(rowItems));
  passes_.push_back(std::make_unique<MessagePass>());
  passes_.push_back(std::make_unique<CriticalPathPass>());
  passes_.push_back(std::make_unique<RubberBandPass>());
  passes_.push_back(std::make_unique<StatusPass>());
  passes_.push_back(std::make_unique<RowLabelPass>());
  passes_.push_back(std::make_unique<RulerPass>());
  passes_.push_back(std::make_unique<LegendPass>());
  rebuildStyle();
  followSelection();
}

void TimelineView::followSelection() {
  connect(selection_, &Selection::metricsChanged, this, [this] {
    const TreePicks& picks = selection_->metrics();
    setHighlightedMetric(picks.empty() ? kNoId : picks.front().node);
  });
  connect(selection_, &Selection::highlightedCallPathChanged, this, &TimelineView::setHighlightedCallPath);
  connect(selection_, &Selection::systemItemsChanged, this, [this] {
    const std::vector<std::uint32_t> locations = selection_->selectedLocations();
    if (!locations.empty()) scrollToLocation(locations.front());
  });
  connect(selection_, &Selection::timeWindowChanged, this, [this](double from, double to) {
    if (source_ && !(TimeWindow{from, to} == window_)) setTimeWindow(from, to);  // one zoom step
  });
  // What the user does goes to the selection (and from there to the other views).
  connect(this, &TimelineView::timeWindowChanged, selection_, &Selection::setTimeWindow);
  connect(this, &TimelineView::instanceClicked, selection_,
          [this](std::uint32_t metric, std::uint32_t callPath, std::uint32_t location) {
            const ReportDataPtr& shown = selection_->report();
            if (!shown) return;
            selection_->setMetrics({{metric, true}});
            selection_->setCallPaths({{callPath, true}}, false);
            selection_->setSystemItems({{shown->systemNodeOfLocation(location), true}});
          });
}

TimelineView::~TimelineView() {
  if (source_) source_->setChangeCallback({});
}

void TimelineView::setData(std::shared_ptr<timeline::SliceSource> source, std::shared_ptr<const report::Report> report) {
  if (source_) source_->setChangeCallback({});
  source_ = std::move(source);
  // An asynchronous source's answer arrived: query again and repaint.
  if (source_) source_->setChangeCallback([this] {
      invalidateSlice();
      update();
    });
  invalidateSlice();
  report_ = std::move(report);
  origin_ = 0.0;  // another trace: its own times
  bounds_ = {};
  rows_.setReport(report_.get());
  colors_.setPatterns(report_ ? patternsWithInstances(*report_) : std::vector<std::uint32_t>());
  style_.setNames(report_.get(), rows_);
  rebuildStyle();
  fitRowHeight();
  history_->clear();
  window_ = source_ ? clamped(timeBounds()) : TimeWindow{0.0, 1.0};
  highlightedMetric_ = highlightedCallPath_ = kNoId;
  metricHighlighted_.clear();
  updateScrollBar();
  emit timeWindowChanged(window_.from, window_.to);
  emit zoomHistoryChanged();
  update();
}

void TimelineView::rebuildStyle() {
  style_.rebuild(colors_, font(), report_ ? report_->metrics.size() : 0);
  legend_.rebuild(report_.get(), colors_, font());
}

void TimelineView::setGroupColor(timeline::RegionGroup group, const QColor& color) {
  colors_.groups[static_cast<std::size_t>(group)] = color;
  rebuildStyle();
  update();
}

void TimelineView::setLegendVisible(bool visible) {
  legendVisible_ = visible;
  relayoutRows();
}

void TimelineView::setCollapsed(std::uint32_t nodeGroup, bool collapsed) {
  rows_.setCollapsed(nodeGroup, collapsed);
  relayoutRows();
}

// ---------------------------------------------------------------- rows and layers

void TimelineView::relayoutRows() {
  fitRowHeight();
  updateScrollBar();
  emit rowsChanged();
  update();
}

void TimelineView::fitRowHeight() {
  if (!fitRows_) return;
  const QRect plot = plotRect(size());
  const int locations = rows_.locationRowCount();
  int height = TimelineRows::kLocationHeight;
  if (locations > 0) {
    const int fit = (plot.height() - rows_.nodeRowCount() * TimelineRows::kNodeHeight) / locations;
    if (fit >= kMinFitHeight) height = std::min(fit, kMaxFitHeight);  // few rows: they fill the plot
  }
  if (height != rows_.locationHeight()) rows_.setLocationHeight(height);
}

void TimelineView::setFitRows(bool fit) {
  fitRows_ = fit;
  relayoutRows();
}

void TimelineView::setRowHeight(int height) {
  fitRows_ = false;
  rows_.setLocationHeight(height);
  relayoutRows();
}

bool TimelineView::allRowsVisible() const { return rows_.contentHeight() <= plotRect(size()).height(); }

void TimelineView::setHiddenLocations(std::vector<char> hidden) {
  rows_.setHidden(std::move(hidden));
  relayoutRows();
}

void TimelineView::setGroupedByNode(bool grouped) {
  rows_.setGroupedByNode(grouped);
  relayoutRows();
}

void TimelineView::setLocationParents(std::vector<std::uint32_t> parents) {
  rows_.setParents(std::move(parents));
  style_.setNames(report_.get(), rows_);
  rebuildStyle();
  relayoutRows();
}

void TimelineView::setChildrenCollapsed(std::uint32_t location, bool collapsed) {
  rows_.setChildrenCollapsed(location, collapsed);
  relayoutRows();
}

void TimelineView::setAllChildrenCollapsed(bool collapsed) {
  rows_.setAllChildrenCollapsed(collapsed);
  relayoutRows();
}

void TimelineView::setLayerVisible(std::uint32_t layer, bool visible) {
  layer &= kToggleableLayers;
  const std::uint32_t layers = visible ? (layers_ | layer) : (layers_ & ~layer);
  if (layers == layers_) return;
  layers_ = layers;
  emit layersChanged();
  relayoutRows();  // the legend may need fewer or more lines
}

QMenu* TimelineView::createRowMenu(const QPoint& pos) {
  auto* menu = new QMenu(this);
  const int row = rows_.rowAt(pos.y() - contentTop(plotRect(size())));
  if (row >= 0 && !rows_.rows()[row].isNode && pos.y() >= plotRect(size()).top()) {
    const std::uint32_t location = rows_.rows()[row].location;
    const QString name = location < style_.locationNames.size() ? style_.locationNames[location] : QString();
    QAction* hide = menu->addAction(tr("&Hide %1").arg(name), this, [this, location] {
      std::vector<char> hidden(rows_.locationCount(), 0);
      for (std::uint32_t l = 0; l < hidden.size(); ++l) hidden[l] = rows_.hidden(l);
      hidden[location] = 1;
      setHiddenLocations(std::move(hidden));
    });
    hide->setObjectName(QStringLiteral("hideRow"));
    hide->setEnabled(rows_.locationRowCount() > 1);  // the last row stays
    menu->addAction(tr("Show &Only %1").arg(name), this, [this, location] {
      std::vector<char> hidden(rows_.locationCount(), 1);
      hidden[location] = 0;
      setHiddenLocations(std::move(hidden));
    })->setObjectName(QStringLiteral("showOnlyRow"));
  }
  menu->addAction(tr("Show &Ranks…"), this, [this] {
    if (!report_) return;
    bool ok = false;
    const QString typed = QInputDialog::getText(this, tr("Show ranks"), tr("Ranks to show (e.g. 0-3, 6):"),
                                                QLineEdit::Normal, QString(), &ok);
    if (!ok) return;
    QString error;
    std::vector<char> hidden = hiddenOutsideRanks(typed, *report_, &error);
    if (!error.isEmpty()) {
      QMessageBox::warning(this, tr("Show ranks"), error);
      return;
    }
    setHiddenLocations(std::move(hidden));
  })->setObjectName(QStringLiteral("showRanks"));
  menu->addAction(tr("Show &All Rows"), this, [this] { setHiddenLocations({}); })
      ->setObjectName(QStringLiteral("showAllRows"));
  menu->addSeparator();
  QAction* group = menu->addAction(tr("&Group by Node"), this, [this](bool on) { setGroupedByNode(on); });
  group->setObjectName(QStringLiteral("groupByNode"));
  group->setCheckable(true);
  group->setChecked(rows_.groupedByNode());
  if (rows_.anyChildren()) {
    menu->addAction(tr("&Fold Threads and Streams"), this, [this] { setAllChildrenCollapsed(true); })
        ->setObjectName(QStringLiteral("foldChildRows"));
    menu->addAction(tr("&Unfold Threads and Streams"), this, [this] { setAllChildrenCollapsed(false); })
        ->setObjectName(QStringLiteral("unfoldChildRows"));
  }
  menu->addSeparator();
  QAction* fit = menu->addAction(tr("&Fit All Rows"), this, [this] { setFitRows(true); });
  fit->setObjectName(QStringLiteral("fitRows"));
  fit->setShortcut(QKeySequence(tr("Ctrl+0")));
  fit->setCheckable(true);
  fit->setChecked(fitRows_);
  QAction* taller = menu->addAction(tr("&Taller Rows"), this, [this] { setRowHeight(rowHeight() + kRowHeightStep); });
  taller->setObjectName(QStringLiteral("tallerRows"));
  taller->setShortcut(QKeySequence(tr("Ctrl++")));
  QAction* shorter = menu->addAction(tr("&Shorter Rows"), this, [this] { setRowHeight(rowHeight() - kRowHeightStep); });
  shorter->setObjectName(QStringLiteral("shorterRows"));
  shorter->setShortcut(QKeySequence(tr("Ctrl+-")));
  return menu;
}

void TimelineView::contextMenuEvent(QContextMenuEvent* e) {
  if (e->pos().x() >= kLabelWidth) return QWidget::contextMenuEvent(e);
  QMenu* menu = createRowMenu(e->pos());
  menu->setAttribute(Qt::WA_DeleteOnClose);
  menu->popup(e->globalPos());
}

// ---------------------------------------------------------------- geometry

QRect TimelineView::plotRect(const QSize& size) const {
  const int scrollWidth = scroll_->sizeHint().width();
  const int legend = legendHeight(size.width());
  return QRect(kLabelWidth, kRulerHeight, std::max(1, size.width() - kLabelWidth - scrollWidth),
               std::max(1, size.height() - kRulerHeight - legend));
}

int TimelineView::legendHeight(int width) const {
  return legendVisible_ ? legend_.lines(width, layers_) * kLegendHeight : 0;
}

double TimelineView::timeAt(double x) const {
  const QRect plot = plotRect(size());
  return window_.from + (x - plot.left()) / plot.width() * (window_.to - window_.from);
}

int TimelineView::contentTop(const QRect& plot) const { return plot.top() - scroll_->value(); }

TimelineScene TimelineView::scene(const QRect& plot) const {
  TimelineScene s;
  s.plot = plot;
  s.window = window_;
  s.timeOrigin = origin_;
  s.contentTop = contentTop(plot);
  s.rows = &rows_;
  s.slice = &slice_.slice();
  s.rowCenter = &slice_.rowCenter();
  s.layers = layers_;
  return s;
}

QPointF TimelineView::positionOf(std::uint32_t location, double time) const {
  const QRect plot = plotRect(size());
  const double x = scene(plot).xOf(time);
  const int row = rows_.rowOfLocation(location);
  if (row < 0) return {x, -1.0};
  return {x, static_cast<double>(contentTop(plot) + rows_.rows()[row].top + rows_.bands().bandMiddle())};
}

void TimelineView::updateScrollBar() {
  const QRect plot = plotRect(size());
  scroll_->setGeometry(plot.right() + 1, plot.top(), scroll_->sizeHint().width(), plot.height());
  scroll_->setRange(0, std::max(0, rows_.contentHeight() - plot.height()));
  scroll_->setPageStep(plot.height());
  scroll_->setSingleStep(rows_.locationHeight());
}

void TimelineView::resizeEvent(QResizeEvent*) {
  const int before = rows_.locationHeight();
  fitRowHeight();
  updateScrollBar();
  if (rows_.locationHeight() != before) emit rowsChanged();
}

// ---------------------------------------------------------------- zoom steps

void TimelineView::setTimeOrigin(double origin) {
  origin_ = origin;
  update();
}

void TimelineView::setTimeBounds(double from, double to) {
  bounds_ = {from, to};
  applyWindow(window_, false);  // still within them
}

TimeWindow TimelineView::timeBounds() const {
  if (bounds_.to > bounds_.from) return bounds_;
  if (source_ && source_->end() > source_->begin()) return {source_->begin(), source_->end()};
  return {0.0, 1.0};
}

void TimelineView::shareZoomHistory(std::shared_ptr<ZoomHistory> history) {
  history_ = std::move(history);
  emit zoomHistoryChanged();
}

TimeWindow TimelineView::clamped(TimeWindow w) const {
  const TimeWindow bounds = timeBounds();
  const double lo = bounds.from, hi = bounds.to;
  const double span = std::clamp(w.to - w.from, kMinSpan, hi - lo);
  if (w.from < lo) w.from = lo;
  if (w.from + span > hi) w.from = hi - span;
  w.to = w.from + span;
  return w;
}

void TimelineView::applyWindow(TimeWindow w, bool recordStep) {
  w = clamped(w);
  if (w == window_) return;
  if (recordStep) history_->push({window_.from - origin_, window_.to - origin_});
  window_ = w;
  emit timeWindowChanged(window_.from, window_.to);
  emit zoomHistoryChanged();
  update();
}

void TimelineView::setTimeWindow(double from, double to) {
  if (!(to > from)) return;
  applyWindow({from, to}, true);
}

void TimelineView::zoomAround(double time, double factor, bool recordStep) {
  applyWindow({time - (time - window_.from) * factor, time + (window_.to - time) * factor}, recordStep);
}

void TimelineView::zoomIn() { zoomAround((window_.from + window_.to) / 2, 0.5, true); }
void TimelineView::zoomOut() { zoomAround((window_.from + window_.to) / 2, 2.0, true); }
void TimelineView::zoomToAll() {
  if (source_) applyWindow(timeBounds(), true);
}
void TimelineView::followTimeWindow(double from, double to) {
  if (to > from) applyWindow({from, to}, false);
}
void TimelineView::panLeft() {
  const double d = (window_.to - window_.from) / 4;
  applyWindow({window_.from - d, window_.to - d}, true);
}
void TimelineView::panRight() {
  const double d = (window_.to - window_.from) / 4;
  applyWindow({window_.from + d, window_.to + d}, true);
}

void TimelineView::undoZoom() {
  if (!history_->canUndo()) return;
  const TimeWindow w = history_->undo({window_.from - origin_, window_.to - origin_});
  window_ = {w.from + origin_, w.to + origin_};
  emit timeWindowChanged(window_.from, window_.to);
  emit zoomHistoryChanged();
  update();
}

void TimelineView::redoZoom() {
  if (!history_->canRedo()) return;
  const TimeWindow w = history_->redo({window_.from - origin_, window_.to - origin_});
  window_ = {w.from + origin_, w.to + origin_};
  emit timeWindowChanged(window_.from, window_.to);
  emit zoomHistoryChanged();
  update();
}

// ---------------------------------------------------------------- coupling

void TimelineView::setHighlightedMetric(std::uint32_t metric) {
  highlightedMetric_ = metric;
  metricHighlighted_.clear();
  if (report_ && metric < report_->metrics.size()) {
    metricHighlighted_.assign(report_->metrics.size(), 0);
    for (std::size_t m = 0; m < report_->metrics.size(); ++m)
      for (std::uint32_t a = static_cast<std::uint32_t>(m); a != report::kNoId; a = report_->metrics[a].parent)
        if (a == metric) {
          metricHighlighted_[m] = 1;
          break;
        }
  } else {
    highlightedMetric_ = kNoId;
  }
  update();
}

void TimelineView::setHighlightedCallPath(std::uint32_t callPath) {
  highlightedCallPath_ = callPath;
  update();
}

void TimelineView::scrollToLocation(std::uint32_t location) {
  const std::uint32_t node = rows_.nodeOfLocation(location);
  if (node == report::kNoId) return;
  if (rows_.collapsed(node)) setCollapsed(node, false);
  if (const std::uint32_t parent = rows_.parentOf(location); parent != kNoId && rows_.childrenCollapsed(parent))
    setChildrenCollapsed(parent, false);
  const int row = rows_.rowOfLocation(location);
  if (row < 0) return;
  const TimelineRow& r = rows_.rows()[row];
  const int page = scroll_->pageStep();
  if (r.top < scroll_->value())
    scroll_->setValue(r.top);
  else if (r.top + r.height > scroll_->value() + page)
    scroll_->setValue(r.top + r.height - page);
}

// ---------------------------------------------------------------- painting

void TimelineView::invalidateSlice() { slice_.invalidate(); }

void TimelineView::setDirectRaster(bool on) {
  directRaster_ = on;
  update();
}

QString TimelineView::statusText() const {
  switch (slice_.status()) {
    case timeline::SliceStatus::Exact: return {};
    case timeline::SliceStatus::Nearest:
    case timeline::SliceStatus::Loading: return tr("loading…");
    case timeline::SliceStatus::Failed: return slice_.problem();
  }
  return {};
}

void TimelineView::querySlice(const QRect& plot) { slice_.update(source_.get(), rows_, window_, plot, contentTop(plot), layers_); }

void TimelineView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  paintAll(p, size());
}

void TimelineView::paintTo(QPainter& painter, const QSize& size) { paintAll(painter, size); }

void TimelineView::paintAll(QPainter& p, const QSize& size) {
  const QRect plot = plotRect(size);
  p.fillRect(QRect(QPoint(0, 0), size), palette().base());
  querySlice(plot);
  TimelineFrame frame;
  frame.scene = scene(plot);
  frame.size = size;
  frame.style = &style_;
  frame.palette = &palette();
  frame.font = &font();
  frame.layer = &layer_;
  frame.directRaster = directRaster_;
  frame.highlightedMetric = highlightedMetric_;
  frame.metricHighlighted = &metricHighlighted_;
  frame.highlightedCallPath = highlightedCallPath_;
  if (drag_ == Drag::RubberBand) {
    const int x0 = std::min(pressPos_.x(), dragPos_.x()), x1 = std::max(pressPos_.x(), dragPos_.x());
    frame.rubberBand = QRect(x0, plot.top(), x1 - x0, plot.height());
  }
  frame.status = slice_.status();
  frame.statusText = statusText();
  frame.legendVisible = legendVisible_;
  frame.legend = &legend_;
  p.save();
  p.setClipRect(plot);
  for (const auto& pass : passes_)
    if (pass->area() == RenderPass::Area::Plot) pass->paint(p, frame);
  p.restore();
  for (const auto& pass : passes_)
    if (pass->area() == RenderPass::Area::Margins) pass->paint(p, frame);
}

// ---------------------------------------------------------------- hit testing and tooltips

QString TimelineView::describeAt(const QPoint& pos) {
  querySlice(plotRect(size()));  // hit-test what is shown now, even before the first paint
  return describeHit(hitAt(pos), slice_.slice(), report_.get(), style_);
}

TimelineHit TimelineView::hitAt(const QPoint& pos) const {
  return hitTest(scene(slice_.plot().isValid() ? slice_.plot() : plotRect(size())), pos);
}

bool TimelineView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    const auto* help = static_cast<QHelpEvent*>(e);
    const QString text = describeAt(help->pos());
    if (text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(help->globalPos(), text, this);
    return true;
  }
  return QWidget::event(e);
}

// ---------------------------------------------------------------- input

void TimelineView::wheelEvent(QWheelEvent* e) {
  const double steps = e->angleDelta().y() / 120.0;
  if (steps == 0) return;
  if (e->modifiers() & Qt::ShiftModifier) {
    scroll_->setValue(scroll_->value() - static_cast<int>(steps * rows_.locationHeight()));
    return;
  }
  if (e->modifiers() & Qt::ControlModifier) {  // rows taller or shorter, as Vampir's vertical zoom
    setRowHeight(rowHeight() + static_cast<int>(std::lround(steps)) * kRowHeightStep);
    e->accept();
    return;
  }
  const bool newStep = !lastWheelStep_.isValid() || lastWheelStep_.elapsed() > kWheelStepMs;
  lastWheelStep_.restart();
  zoomAround(timeAt(e->position().x()), std::pow(0.8, steps), newStep);
  e->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* e) {
  pressPos_ = dragPos_ = e->position().toPoint();
  if (e->button() == Qt::MiddleButton || (e->button() == Qt::LeftButton && (e->modifiers() & Qt::ShiftModifier))) {
    drag_ = Drag::Pan;
    panStart_ = window_;
    history_->push({window_.from - origin_, window_.to - origin_});
    emit zoomHistoryChanged();
  } else if (e->button() == Qt::LeftButton) {
    drag_ = Drag::Pending;
  }
}

void TimelineView::mouseMoveEvent(QMouseEvent* e) {
  dragPos_ = e->position().toPoint();
  if (drag_ == Drag::Pending && std::abs(dragPos_.x() - pressPos_.x()) > kClickSlop && pressPos_.x() >= kLabelWidth)
    drag_ = Drag::RubberBand;
  if (drag_ == Drag::RubberBand) {
    update();
  } else if (drag_ == Drag::Pan) {
    const double dt = (dragPos_.x() - pressPos_.x()) / double(plotRect(size()).width()) * (panStart_.to - panStart_.from);
    applyWindow({panStart_.from - dt, panStart_.to - dt}, false);
  }
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e) {
  const QPoint pos = e->position().toPoint();
  const Drag drag = drag_;
  drag_ = Drag::None;
  if (drag == Drag::RubberBand) {
    const double a = timeAt(std::min(pressPos_.x(), pos.x())), b = timeAt(std::max(pressPos_.x(), pos.x()));
    setTimeWindow(a, b);
    update();
    return;
  }
  if (drag != Drag::Pending) return;
  querySlice(plotRect(size()));
  const TimelineHit hit = hitAt(pos);
  if (hit.kind == TimelineHit::Kind::NodeHeader) {
    setCollapsed(hit.node, !rows_.collapsed(hit.node));
  } else if (hit.kind == TimelineHit::Kind::ParentLabel) {
    setChildrenCollapsed(hit.node, !rows_.childrenCollapsed(hit.node));
  } else if (hit.kind == TimelineHit::Kind::Instance) {
    const timeline::LocationSlice& ls = slice_.slice().locations[hit.slot];
    const timeline::InstanceMark& i = ls.instances[hit.index];
    emit instanceClicked(i.metric, i.callPath, ls.location);
  }
}

void TimelineView::keyPressEvent(QKeyEvent* e) {
  const bool ctrl = e->modifiers() & Qt::ControlModifier;
  const bool shift = e->modifiers() & Qt::ShiftModifier;
  if (ctrl && (e->key() == Qt::Key_Plus || e->key() == Qt::Key_Equal)) return setRowHeight(rowHeight() + kRowHeightStep);
  if (ctrl && e->key() == Qt::Key_Minus) return setRowHeight(rowHeight() - kRowHeightStep);
  if (ctrl && e->key() == Qt::Key_0) return setFitRows(true);
  switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomIn(); return;
    case Qt::Key_Minus: zoomOut(); return;
    case Qt::Key_Left: panLeft(); return;
    case Qt::Key_Right: panRight(); return;
    case Qt::Key_Home: zoomToAll(); return;
    case Qt::Key_Up: scroll_->setValue(scroll_->value() - rows_.locationHeight()); return;
    case Qt::Key_Down: scroll_->setValue(scroll_->value() + rows_.locationHeight()); return;
    case Qt::Key_Backspace: undoZoom(); return;
    case Qt::Key_Z:
      if (ctrl) {
        shift ? redoZoom() : undoZoom();
        return;
      }
      break;
    case Qt::Key_Y:
      if (ctrl) {
        redoZoom();
        return;
      }
      break;
    default:
      break;
  }
  QWidget::keyPressEvent(e);
}

// ---------------------------------------------------------------- export

QString TimelineView::exportPng(const QString& path) {
  QImage image(size(), QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  {
    QPainter p(&image);
    paintAll(p, size());
  }
  if (!image.save(path, "PNG"))
    return tr("%1: cannot write the PNG (check that the folder exists and is writable)").arg(path);
  return {};
}

QString TimelineView::exportSvg(const QString& path) {
  QSvgGenerator generator;
  generator.setFileName(path);
  generator.setSize(size());
  generator.setViewBox(rect());
  generator.setTitle(tr("Waitscope timeline %1 to %2").arg(formatTime(window_.from), formatTime(window_.to)));
  generator.setDescription(tr("Exported by Waitscope"));
  QPainter p;
  if (!p.begin(&generator))
    return tr("%1: cannot write the SVG (check that the folder exists and is writable)").arg(path);
  paintAll(p, size());
  p.end();
  if (!QFileInfo(path).exists() || QFileInfo(path).size() == 0)
    return tr("%1: cannot write the SVG (check that the folder exists and is writable)").arg(path);
  return {};
}

QString TimelineView::exportInstancesCsv(const QString& path) {
  querySlice(plotRect(size()));
  const auto quoted = [](QString text) { return QLatin1Char('"') + text.replace(QLatin1Char('"'), QLatin1String("\"\"")) + QLatin1Char('"'); };
  QString csv = QStringLiteral("pattern,metric,location,call_path,start_s,end_s,waiting_s,caused_by,instances\n");
  const std::vector<QString>& locationNames = style_.locationNames;
  for (const timeline::LocationSlice& ls : slice_.slice().locations)
    for (const timeline::InstanceMark& i : ls.instances) {
      const bool knownMetric = report_ && i.metric < report_->metrics.size();
      const QString cause = i.cause != kNoId && i.cause < locationNames.size() ? locationNames[i.cause] : QString();
      csv += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9\n")
                 .arg(quoted(knownMetric ? QString::fromStdString(report_->metrics[i.metric].displayName) : QString()),
                      knownMetric ? QString::fromStdString(report_->metrics[i.metric].uniqueName) : QString(),
                      quoted(ls.location < locationNames.size() ? locationNames[ls.location] : QString()),
                      quoted(report_ && i.callPath < report_->callPaths.size()
                                 ? QString::fromStdString(report::callPathString(*report_, i.callPath))
                                 : QString()),
                      QString::number(i.start, 'g', 17), QString::number(i.end, 'g', 17),
                      QString::number(i.end - i.start, 'g', 17), quoted(cause))
                 .arg(i.count);
    }
  QSaveFile file(path);  // complete or not at all
  if (!file.open(QIODevice::WriteOnly | QIODevice::Text) || file.write(csv.toUtf8()) < 0 || !file.commit())
    return tr("%1: cannot write the CSV (%2)").arg(path, file.errorString());
  return {};
}

}  // namespace waitscope::views
