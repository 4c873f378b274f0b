#include "views/timeline/timeline_view.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <QFileInfo>
#include <QSaveFile>
#include <QHelpEvent>
#include <QImage>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QSvgGenerator>
#include <QToolTip>
#include <QWheelEvent>

#include "analysis/report/report_queries.h"

namespace waitscope::views {

namespace {

constexpr int kLabelWidth = 130;
constexpr int kRulerHeight = 24;
constexpr int kLegendHeight = 22;
// Inside a location row (TimelineRows::kLocationHeight = 22 px):
constexpr int kBandTop = 2;       // region band
constexpr int kBandHeight = 12;
constexpr int kEpochTop = 15;     // epoch band under it
constexpr int kEpochHeight = 5;
constexpr double kMinSpan = 1e-9;  // the smallest window: one nanosecond
constexpr int kClickSlop = 3;      // pixels a press may move and still be a click
constexpr qint64 kWheelStepMs = 600;
constexpr int kLineSpacing = 3;
constexpr std::size_t kMaxArrowHeads = 4096;  // transfers in view above which arrows lose their heads   // pixels between drawn lines of one sender and peer  // wheel events closer than this are one undo step

using timeline::kNoId;

// "1.5 ms", "250 µs", "3.25 s": the unit that keeps the number readable.
QString formatTime(double seconds) {
  const double a = std::fabs(seconds);
  if (a >= 1.0 || a == 0.0) return QStringLiteral("%1 s").arg(seconds, 0, 'g', 7);
  if (a >= 1e-3) return QStringLiteral("%1 ms").arg(seconds * 1e3, 0, 'g', 7);
  if (a >= 1e-6) return QStringLiteral("%1 µs").arg(seconds * 1e6, 0, 'g', 7);
  return QStringLiteral("%1 ns").arg(seconds * 1e9, 0, 'g', 7);
}

QString formatBytes(std::uint64_t bytes) { return QStringLiteral("%1 bytes").arg(bytes); }

// The pixel column of x, clamped so far-away items stay within int range.
// A quarter-pixel grid shifted by an eighth: hatch and outline edges (at
// +-0, 0.75 or 1.5 from it) then never pass near a pixel centre, where the
// layer would leave them to QPainter (raster_layer.h); invisible otherwise.
double offGrid(double x) { return std::floor(std::clamp(x, -1e6, 1e6) * 4.0) / 4.0 + 0.125; }

int pixelOf(double x) { return static_cast<int>(std::floor(std::clamp(x, -1e6, 1e6))); }

double distanceToSegment(const QPointF& p, const QPointF& a, const QPointF& b) {
  const QPointF ab = b - a;
  const double len2 = QPointF::dotProduct(ab, ab);
  const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / len2, 0.0, 1.0) : 0.0;
  const QPointF d = p - (a + t * ab);
  return std::hypot(d.x(), d.y());
}

}  // namespace

struct TimelineView::Hit {
  enum class Kind { None, Region, Message, Transfer, Epoch, Instance, Path, NodeHeader };
  Kind kind = Kind::None;
  std::size_t slot = 0;   // index into slice_.locations
  std::size_t index = 0;  // index into that slice's list of `kind`
  std::uint32_t node = 0;
};

TimelineView::TimelineView(QWidget* parent) : QWidget(parent), scroll_(new QScrollBar(Qt::Vertical, this)) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  setMinimumSize(320, 160);
  setAttribute(Qt::WA_OpaquePaintEvent);
  connect(scroll_, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
  rebuildStyles();
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
  rows_.setReport(report_.get());
  callPathNames_.clear();
  locationNames_.clear();
  nodeNames_.clear();
  if (report_) {
    for (const report::CallPath& c : report_->callPaths)
      callPathNames_.push_back(c.region < report_->regions.size() ? QString::fromStdString(report_->regions[c.region].name)
                                                                 : QStringLiteral("?"));
    for (const report::Location& l : report_->locations) locationNames_.push_back(QString::fromStdString(l.name));
    for (std::uint32_t node : rows_.nodes())
      nodeNames_.push_back(node < report_->systemNodes.size() ? QString::fromStdString(report_->systemNodes[node].name)
                                                               : tr("(no node)"));
  }
  rebuildStyles();
  history_.clear();
  window_ = source_ ? clamped({source_->begin(), source_->end()}) : TimeWindow{0.0, 1.0};
  highlightedMetric_ = highlightedCallPath_ = kNoId;
  metricHighlighted_.clear();
  updateScrollBar();
  emit timeWindowChanged(window_.from, window_.to);
  emit zoomHistoryChanged();
  update();
}

void TimelineView::rebuildStyles() {
  const QFontMetrics fm(font());
  callPathNameWidths_.resize(callPathNames_.size());
  callPathTexts_.clear();
  for (std::size_t i = 0; i < callPathNames_.size(); ++i) {
    callPathNameWidths_[i] = fm.horizontalAdvance(callPathNames_[i]);
    callPathTexts_.emplace_back(callPathNames_[i]);
    callPathTexts_.back().setTextFormat(Qt::PlainText);
    callPathTexts_.back().prepare(QTransform(), font());
  }
  textHeight_ = fm.height();
  textAscent_ = fm.ascent();
  // Labels and legend are the same every frame: laid out here, not per paint.
  const auto prepared = [&](const QString& text) {
    QStaticText t(text);
    t.setTextFormat(Qt::PlainText);
    t.prepare(QTransform(), font());
    return t;
  };
  locationTexts_.clear();
  for (const QString& n : locationNames_) locationTexts_.push_back(prepared(n));
  nodeTexts_.clear();
  for (const QString& n : nodeNames_) nodeTexts_.push_back(prepared(n));
  legendTexts_.clear();
  legendWidths_.clear();
  const auto legend = [&](const QString& label) {
    legendTexts_.push_back(prepared(label));
    legendWidths_.push_back(fm.horizontalAdvance(label));
  };
  for (std::size_t g = 0; g < timeline::kRegionGroupCount; ++g) legend(groupLabel(static_cast<timeline::RegionGroup>(g)));
  for (std::size_t k = 0; k < colors_.epochs.size(); ++k) legend(epochLabel(static_cast<timeline::EpochKind>(k)));
  legend(tr("wait state"));
  legend(tr("critical path"));
  groupBrushes_.clear();
  for (const QColor& c : colors_.groups) groupBrushes_.emplace_back(c);
  epochBrushes_.clear();
  for (QColor c : colors_.epochs) {
    c.setAlpha(170);  // overlapping epochs (a fence shared by two) stay visible
    epochBrushes_.emplace_back(c);
  }
  const std::size_t metrics = report_ ? report_->metrics.size() : 0;
  patternPens_.clear();
  patternStrongPens_.clear();
  patternBrushes_.clear();
  for (std::uint32_t m = 0; m < metrics; ++m) {
    const QColor c = TimelineColors::pattern(m);
    // Mitred corners: an outline is then exactly four square-capped lines,
    // which the raster engine fills without its general stroker (paintRows).
    patternPens_.emplace_back(c, 1.5, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin);
    patternStrongPens_.emplace_back(c, 3.0, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin);
    patternBrushes_.emplace_back(c, Qt::BDiagPattern);
  }
  hatch_ = RasterLayer::patternOf(Qt::BDiagPattern);
  messagePen_ = QPen(colors_.message, 1.0);
  transferPen_ = QPen(colors_.transfer, 1.5);
  transferBrush_ = QBrush(colors_.transfer);
  pathPen_ = QPen(colors_.criticalPath, 3.0, Qt::SolidLine, Qt::FlatCap);
  pathBrush_ = QBrush(colors_.criticalPath);
  highlightBrush_ = QBrush(colors_.highlight);
  pathLinkPen_ = QPen(colors_.criticalPath.lighter(140), 1.0);
  highlightPen_ = QPen(colors_.highlight, 2.5, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin);
  const auto opaque = [](const QColor& c) { return c.alpha() == 255; };
  opaqueRegions_ = std::all_of(colors_.groups.begin(), colors_.groups.end(), opaque);
  opaqueMarks_ = std::all_of(patternPens_.begin(), patternPens_.end(), [&](const QPen& pen) { return opaque(pen.color()); });
  opaqueLines_ = opaque(colors_.message);
  opaquePath_ = opaque(colors_.criticalPath) && opaque(colors_.highlight) && opaque(pathLinkPen_.color());
  QColor pale(0x80, 0x80, 0x80, 110);
  paleInstancePen_ = QPen(pale, 1.0);
  paleInstanceBrush_ = QBrush(pale, Qt::BDiagPattern);
}

void TimelineView::setGroupColor(timeline::RegionGroup group, const QColor& color) {
  colors_.groups[static_cast<std::size_t>(group)] = color;
  rebuildStyles();
  update();
}

void TimelineView::setLegendVisible(bool visible) {
  legendVisible_ = visible;
  updateScrollBar();
  update();
}

void TimelineView::setCollapsed(std::uint32_t nodeGroup, bool collapsed) {
  rows_.setCollapsed(nodeGroup, collapsed);
  updateScrollBar();
  update();
}

// ---------------------------------------------------------------- geometry

QRect TimelineView::plotRect(const QSize& size) const {
  const int scrollWidth = scroll_->sizeHint().width();
  const int legend = legendVisible_ ? kLegendHeight : 0;
  return QRect(kLabelWidth, kRulerHeight, std::max(1, size.width() - kLabelWidth - scrollWidth),
               std::max(1, size.height() - kRulerHeight - legend));
}

double TimelineView::xOf(double time, const QRect& plot) const {
  return plot.left() + (time - window_.from) / (window_.to - window_.from) * plot.width();
}

double TimelineView::timeAt(double x) const {
  const QRect plot = plotRect(size());
  return window_.from + (x - plot.left()) / plot.width() * (window_.to - window_.from);
}

int TimelineView::contentTop(const QRect& plot) const { return plot.top() - scroll_->value(); }

QPointF TimelineView::positionOf(std::uint32_t location, double time) const {
  const QRect plot = plotRect(size());
  const int row = rows_.rowOfLocation(location);
  if (row < 0) return {xOf(time, plot), -1.0};
  return {xOf(time, plot), static_cast<double>(contentTop(plot) + rows_.rows()[row].top + kBandTop + kBandHeight / 2)};
}

void TimelineView::updateScrollBar() {
  const QRect plot = plotRect(size());
  scroll_->setGeometry(plot.right() + 1, plot.top(), scroll_->sizeHint().width(), plot.height());
  scroll_->setRange(0, std::max(0, rows_.contentHeight() - plot.height()));
  scroll_->setPageStep(plot.height());
  scroll_->setSingleStep(TimelineRows::kLocationHeight);
}

void TimelineView::resizeEvent(QResizeEvent*) { updateScrollBar(); }

// ---------------------------------------------------------------- zoom steps

TimeWindow TimelineView::clamped(TimeWindow w) const {
  double lo = 0.0, hi = 1.0;
  if (source_ && source_->end() > source_->begin()) {
    lo = source_->begin();
    hi = source_->end();
  }
  const double span = std::clamp(w.to - w.from, kMinSpan, hi - lo);
  if (w.from < lo) w.from = lo;
  if (w.from + span > hi) w.from = hi - span;
  w.to = w.from + span;
  return w;
}

void TimelineView::applyWindow(TimeWindow w, bool recordStep) {
  w = clamped(w);
  if (w == window_) return;
  if (recordStep) history_.push(window_);
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
  if (source_) applyWindow({source_->begin(), source_->end()}, true);
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
  if (!history_.canUndo()) return;
  window_ = history_.undo(window_);
  emit timeWindowChanged(window_.from, window_.to);
  emit zoomHistoryChanged();
  update();
}

void TimelineView::redoZoom() {
  if (!history_.canRedo()) return;
  window_ = history_.redo(window_);
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

void TimelineView::invalidateSlice() { sliceFresh_ = false; }

void TimelineView::setDirectRaster(bool on) {
  directRaster_ = on;
  update();
}

QString TimelineView::statusText() const {
  switch (status_) {
    case timeline::SliceStatus::Exact: return {};
    case timeline::SliceStatus::Nearest:
    case timeline::SliceStatus::Loading: return tr("loading…");
    case timeline::SliceStatus::Failed: return problem_;
  }
  return {};
}

void TimelineView::querySlice(const QRect& plot) {
  lastPlot_ = plot;
  const std::uint32_t n = source_ ? source_->locationCount() : 0;
  rowCenter_.assign(n, -1.0);
  visible_.clear();
  const int top = contentTop(plot);
  for (const TimelineRow& r : rows_.rows()) {
    if (r.isNode || r.location >= n) continue;
    rowCenter_[r.location] = top + r.top + kBandTop + kBandHeight / 2.0;
    if (top + r.top + r.height > plot.top() && top + r.top < plot.bottom()) visible_.push_back(r.location);
  }
  const auto width = static_cast<std::uint32_t>(plot.width());
  // The same window, width and rows as the slice we have: a repaint needs no query.
  if (sliceFresh_ && request_.from == window_.from && request_.to == window_.to && request_.width == width &&
      request_.locations == visible_)
    return;
  request_.locations = visible_;  // keeps its capacity
  request_.from = window_.from;
  request_.to = window_.to;
  request_.width = width;
  request_.kinds = timeline::kSliceAll & ~timeline::kSliceCollectives;  // collectives show as regions
  status_ = timeline::SliceStatus::Exact;
  if (source_ && !request_.locations.empty()) {
    status_ = source_->query(request_, slice_);
    if (status_ == timeline::SliceStatus::Failed) problem_ = QString::fromStdString(source_->problem());
  } else {
    slice_.from = window_.from;
    slice_.to = window_.to;
    slice_.locations.clear();
  }
  sliceFresh_ = true;  // until the window, width or rows change, or the source says its data did
}

void TimelineView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  paintAll(p, size());
}

void TimelineView::paintTo(QPainter& painter, const QSize& size) { paintAll(painter, size); }

void TimelineView::paintAll(QPainter& p, const QSize& size) {
  const QRect plot = plotRect(size);
  p.fillRect(QRect(QPoint(0, 0), size), palette().base());
  querySlice(plot);
  p.save();
  p.setClipRect(plot);
  paintRows(p, plot);
  paintLines(p, plot);
  paintCriticalPath(p, plot);
  if (drag_ == Drag::RubberBand) {
    const int x0 = std::min(pressPos_.x(), dragPos_.x()), x1 = std::max(pressPos_.x(), dragPos_.x());
    p.fillRect(QRect(x0, plot.top(), x1 - x0, plot.height()), QColor(0x30, 0x60, 0xc0, 50));
  }
  paintStatus(p, plot);
  p.restore();
  paintLabels(p, plot);
  paintRuler(p, plot);
  if (legendVisible_) paintLegend(p, size);
}

void TimelineView::paintRows(QPainter& p, const QRect& plot) {
  // Regions and epochs are collected per colour and drawn with one drawRects
  // call each: far cheaper than a fillRect per item when there are thousands.
  for (auto& v : regionRects_) v.clear();
  bandSpans_.clear();
  for (auto& v : epochRects_) v.clear();
  for (auto& v : instanceRects_) v.clear();
  for (const timeline::LocationSlice& ls : slice_.locations) {
    const double top = rowCenter_[ls.location] - kBandTop - kBandHeight / 2.0;
    // Whole pixels: the raster engine fills integer rectangles on its fastest path.
    const int y = static_cast<int>(top);
    for (const timeline::RegionSpan& s : ls.regions) {
      const int x0 = pixelOf(xOf(s.start, plot)), x1 = pixelOf(xOf(s.end, plot));
      const int w = std::max(x1 - x0, 1);
      regionRects_[static_cast<std::size_t>(s.group)].emplace_back(x0, y + kBandTop, w, kBandHeight);
      // Spans come in time order: a rectangle starting inside the last run extends it.
      if (!bandSpans_.empty() && bandSpans_.back().y() == y + kBandTop && x0 <= bandSpans_.back().right() + 1)
        bandSpans_.back().setRight(std::max(bandSpans_.back().right(), x0 + w - 1));
      else
        bandSpans_.emplace_back(x0, y + kBandTop, w, kBandHeight);
    }
    for (const timeline::Epoch& e : ls.epochs) {
      const int x0 = pixelOf(xOf(e.start, plot)), x1 = pixelOf(xOf(e.end, plot));
      epochRects_[static_cast<std::size_t>(e.kind)].emplace_back(x0, y + kEpochTop, std::max(x1 - x0, 1), kEpochHeight);
    }
  }
  // On raster devices the rectangles go straight into one image (in the same
  // order: a later group wins a shared pixel, as with drawRects).
  const bool direct = directRaster_ && RasterLayer::usableOn(p);
  p.setPen(Qt::NoPen);
  if (direct && opaqueRegions_) {
    layer_.begin(p, plot);
    // All rectangles of a row have its band's height: written into the band's
    // first writable row only, which is then copied down (the same pixels).
    const QRect writable = layer_.writable();
    for (std::size_t g = 0; g < regionRects_.size(); ++g) {
      const QRgb c = groupBrushes_[g].color().rgba64().toArgb32();
      for (const QRect& r : regionRects_[g]) {
        const int first = std::max(r.y(), writable.top());
        if (first <= r.bottom()) layer_.fillRect(r.x(), first, r.width(), 1, c);
      }
    }
    for (const QRect& b : bandSpans_) {
      const int first = std::max(b.y(), writable.top());
      if (first <= b.bottom()) layer_.copyRow(b.x(), b.right() + 1, first, first + 1, b.bottom() + 1);
    }
    layer_.drawTo(p);
  } else {
    for (std::size_t g = 0; g < regionRects_.size(); ++g) {
      p.setBrush(groupBrushes_[g]);
      p.drawRects(regionRects_[g].data(), static_cast<int>(regionRects_[g].size()));
    }
  }
  for (std::size_t k = 0; k < epochRects_.size(); ++k) {
    p.setBrush(epochBrushes_[k]);
    p.drawRects(epochRects_[k].data(), static_cast<int>(epochRects_[k].size()));
  }

  const QPen textPen(palette().text().color());
  // Outlines of wide pens (wider than a pixel go through QPainter's general
  // stroker, several microseconds each): on raster devices a run of outlines in
  // one colour is drawn as square-capped lines in one call, the same pixels as
  // the mitred rectangles.
  const bool lineOutlines = direct;
  // The hatch goes into a layer where the brush origin is a whole pixel (the pattern's phase).
  const QPointF brushOrigin = p.brushOrigin();
  const QPoint wholeOrigin = brushOrigin.toPoint();
  const std::optional<QPoint> hatchOrigin =
      direct && QPointF(wholeOrigin) == brushOrigin ? std::optional<QPoint>(wholeOrigin) : std::nullopt;
  for (const timeline::LocationSlice& ls : slice_.locations) {
    const double top = rowCenter_[ls.location] - kBandTop - kBandHeight / 2.0;
    const double span = window_.to - window_.from;
    // The highlighted call path's outline, then names where they fit.
    if (highlightedCallPath_ != kNoId) {
      outlineLines_.clear();
      p.setPen(highlightPen_);
      p.setBrush(Qt::NoBrush);
      for (const timeline::RegionSpan& s : ls.regions) {
        if (s.callPath != highlightedCallPath_) continue;
        const double w = (s.end - s.start) / span * plot.width();
        const QRectF r(xOf(s.start, plot), top + kBandTop, std::max(w, 1.0), kBandHeight);
        if (lineOutlines)
          addOutline(r);
        else
          p.drawRect(r);
      }
      drawWideLines(p, plot, highlightPen_);
    }
    p.setPen(textPen);
    for (const timeline::RegionSpan& s : ls.regions) {
      const double w = (s.end - s.start) / span * plot.width();
      if (!(s.callPath < callPathNameWidths_.size() && w > callPathNameWidths_[s.callPath] + 6)) continue;
      const QRectF r(xOf(s.start, plot), top + kBandTop, std::max(w, 1.0), kBandHeight);
      p.drawStaticText(QPointF(r.center().x() - callPathNameWidths_[s.callPath] / 2.0,
                               r.top() + (r.height() - textHeight_) / 2.0),
                       callPathTexts_[s.callPath]);
    }
    // Wait states: hatched and outlined, consecutive ones of one style in one batch.
    const QPen* runPen = nullptr;
    const QBrush* runBrush = nullptr;
    const auto flushRun = [&] {
      if (!runPen) return;
      outlineLines_.clear();
      // Hatch and outline of one colour: on raster devices both go into a
      // layer (their union does not depend on the order); what it refuses is
      // left to QPainter.
      if (runBrush->color() == runPen->color() && runBrush->style() == Qt::BDiagPattern && hatchOrigin) {
        layer_.begin(p, plot);
        const QRgb c = runPen->color().rgba64().toArgb32();
        std::size_t kept = 0;
        for (const QRectF& r : outlineRects_) {
          if (!layer_.patternRect(r, hatch_, *hatchOrigin, c)) outlineRects_[kept++] = r;
          if (!layer_.outline(r, runPen->widthF(), c)) addOutline(r);
        }
        outlineRects_.resize(kept);
        layer_.drawTo(p);
      } else {
        for (const QRectF& r : outlineRects_) addOutline(r);
      }
      p.setPen(Qt::NoPen);
      p.setBrush(*runBrush);
      p.drawRects(outlineRects_.data(), static_cast<int>(outlineRects_.size()));
      drawWideLines(p, plot, *runPen);
      runPen = nullptr;
    };
    for (const timeline::InstanceMark& i : ls.instances) {
      const double x0 = offGrid(xOf(i.start, plot)), x1 = offGrid(xOf(i.end, plot));
      const QRectF r(x0, offGrid(top + kBandTop - 1), std::max(x1 - x0, 2.0), kBandHeight + 2);
      const bool known = i.metric < patternPens_.size();
      if (x1 - x0 < 3.0 && known && highlightedMetric_ == kNoId) {
        // Too narrow for hatching: a solid mark in the pattern's colour (drawn batched below).
        if (i.metric >= instanceRects_.size()) instanceRects_.resize(i.metric + 1);
        instanceRects_[i.metric].push_back(r.toAlignedRect());
        continue;
      }
      const QPen* pen = &paleInstancePen_;
      const QBrush* brush = &paleInstanceBrush_;
      if (known && !(highlightedMetric_ != kNoId && !(i.metric < metricHighlighted_.size() && metricHighlighted_[i.metric]))) {
        pen = highlightedMetric_ != kNoId ? &patternStrongPens_[i.metric] : &patternPens_[i.metric];
        brush = &patternBrushes_[i.metric];
      }
      if (lineOutlines && pen != &paleInstancePen_) {  // the pale pen is thin and translucent: drawn as it comes
        if (pen != runPen) {
          flushRun();
          runPen = pen;
          runBrush = brush;
          outlineRects_.clear();
        }
        outlineRects_.push_back(r);
        continue;
      }
      flushRun();
      p.setPen(*pen);
      p.setBrush(*brush);
      p.drawRect(r);
    }
    flushRun();
  }
  p.setPen(Qt::NoPen);
  if (direct && opaqueMarks_) {
    layer_.begin(p, plot);
    for (std::size_t m = 0; m < instanceRects_.size() && m < patternPens_.size(); ++m) {
      const QRgb c = patternPens_[m].color().rgba64().toArgb32();
      for (const QRect& r : instanceRects_[m]) layer_.fillRect(r.x(), r.y(), r.width(), r.height(), c);
    }
    layer_.drawTo(p);
    return;
  }
  for (std::size_t m = 0; m < instanceRects_.size() && m < patternPens_.size(); ++m) {
    p.setBrush(patternPens_[m].brush());
    p.drawRects(instanceRects_[m].data(), static_cast<int>(instanceRects_[m].size()));
  }
}

void TimelineView::paintLines(QPainter& p, const QRect& plot) {
  // Messages are many at low zoom: aliased 1-pixel lines are several times
  // cheaper than antialiased ones. Transfers (few) get smooth arrows.
  // Where lines crowd (a line per pixel column and peer when zoomed out), one
  // per kLineSpacing pixels and peer is drawn: the same grey area, a fraction of the pixels.
  // On raster devices they go straight into pixel memory (raster_layer.h), the
  // same pixels; a line reaching beyond the device is left to QPainter.
  const bool direct = directRaster_ && opaqueLines_ && RasterLayer::usableOn(p);
  const QRgb messageColor = messagePen_.color().rgba64().toArgb32();
  if (direct) {
    layer_.begin(p, plot);
    columnSpans_.begin(plot.left(), plot.width());
  }
  lines_.clear();
  for (const timeline::LocationSlice& ls : slice_.locations) {
    lastLineX_.clear();
    for (const timeline::Message& m : ls.messages) {
      if (m.sender >= rowCenter_.size() || m.receiver >= rowCenter_.size()) continue;
      const double ys = rowCenter_[m.sender], yr = rowCenter_[m.receiver];
      if (ys < 0 || yr < 0) continue;
      const int x0 = pixelOf(xOf(m.start, plot));
      if (crowded(m.sender ^ (m.receiver << 16), x0)) continue;
      const int x1 = pixelOf(xOf(m.end, plot));
      const int y0 = static_cast<int>(ys), y1 = static_cast<int>(yr);
      if (direct && x1 == x0)
        columnSpans_.add(x0, std::min(y0, y1), std::max(y0, y1));
      else if (!(direct && layer_.line(x0, y0, x1, y1, messageColor, &columnSpans_)))
        lines_.emplace_back(x0, y0, x1, y1);
    }
  }
  p.setPen(messagePen_);
  p.drawLines(lines_.data(), static_cast<int>(lines_.size()));
  if (direct) {
    columnSpans_.flushTo(layer_, messageColor);
    layer_.drawTo(p);
  }
  // Transfers: the shaft and a two-stroke arrowhead at the target, all in one
  // drawLines call; where thousands crowd the view, heads would only blot it.
  std::size_t transfers = 0;
  for (const timeline::LocationSlice& ls : slice_.locations) transfers += ls.transfers.size();
  const bool heads = transfers <= kMaxArrowHeads;
  const bool directShafts = directRaster_ && transferPen_.color().alpha() == 255 && RasterLayer::usableOn(p);
  const QRgb transferColor = transferPen_.color().rgba64().toArgb32();
  if (directShafts) {
    layer_.begin(p, plot);
    columnSpans_.begin(plot.left(), plot.width());
  }
  lines_.clear();
  for (const timeline::LocationSlice& ls : slice_.locations) {
    lastLineX_.clear();
    for (const timeline::Transfer& t : ls.transfers) {
      if (t.origin >= rowCenter_.size() || t.target >= rowCenter_.size()) continue;
      const double yo = rowCenter_[t.origin], yt = rowCenter_[t.target];
      if (yo < 0 || yt < 0) continue;
      const QPointF a(xOf(t.start, plot), yo), b(xOf(t.end, plot), yt);
      if (crowded(t.origin ^ (t.target << 16) ^ (std::uint32_t(t.kind) << 30), pixelOf(a.x()))) continue;
      const QPoint pa = a.toPoint(), pb = b.toPoint();
      // Vertical: a rectangle of the pen's width, one run per column of it, when the layer can.
      QRect shaft;
      if (directShafts && pa.x() == pb.x() && RasterLayer::penRect(pa.x(), pa.y(), pb.x(), pb.y(), transferPen_.widthF(), shaft)) {
        for (int x = shaft.left(); x <= shaft.right(); ++x) columnSpans_.add(x, shaft.top(), shaft.bottom());
      } else {
        lines_.emplace_back(pa, pb);
      }
      if (!heads) continue;
      const QPointF d = b - a;
      const double len = std::hypot(d.x(), d.y());
      if (len < 1.0) continue;
      const QPointF u = d / len, n(-u.y(), u.x());
      lines_.emplace_back(b.toPoint(), (b - 7.0 * u + 3.5 * n).toPoint());
      lines_.emplace_back(b.toPoint(), (b - 7.0 * u - 3.5 * n).toPoint());
    }
  }
  p.setPen(transferPen_);
  p.drawLines(lines_.data(), static_cast<int>(lines_.size()));
  if (directShafts) {
    columnSpans_.flushTo(layer_, transferColor);
    layer_.drawTo(p);
  }
}

void TimelineView::drawWideLines(QPainter& p, const QRect& plot, const QPen& pen) {
  // Axis-aligned square-capped lines are rectangles: on raster devices they go
  // into a layer (the pixels whose centres they cover, as the raster engine fills them).
  if (directRaster_ && pen.color().alpha() == 255 && RasterLayer::usableOn(p)) {
    layer_.begin(p, plot);
    const QRgb c = pen.color().rgba64().toArgb32();
    std::size_t kept = 0;  // the few lines the layer leaves to QPainter
    for (const QLineF& l : outlineLines_)
      if (!layer_.wideLine(l.x1(), l.y1(), l.x2(), l.y2(), pen.widthF(), c)) outlineLines_[kept++] = l;
    outlineLines_.resize(kept);
    layer_.drawTo(p);
    if (kept == 0) return;
  }
  p.setPen(pen);
  p.drawLines(outlineLines_.data(), static_cast<int>(outlineLines_.size()));
}

void TimelineView::addOutline(const QRectF& r) {
  outlineLines_.emplace_back(r.topLeft(), r.topRight());
  outlineLines_.emplace_back(r.topRight(), r.bottomRight());
  outlineLines_.emplace_back(r.bottomRight(), r.bottomLeft());
  outlineLines_.emplace_back(r.bottomLeft(), r.topLeft());
}

// A segment is one visit of the path to a location, through many call paths:
// what lights up is where it overlaps a region of the highlighted call path on
// its row (both lists are sorted by start and do not overlap themselves).
void TimelineView::collectHighlightedPath(const QRect& plot) {
  highlightedPath_.clear();
  if (highlightedCallPath_ == kNoId) return;
  for (const timeline::LocationSlice& ls : slice_.locations) {
    std::size_t first = 0;
    for (const timeline::PathMark& m : ls.path) {
      while (first < ls.regions.size() && ls.regions[first].end <= m.start) ++first;
      for (std::size_t k = first; k < ls.regions.size() && ls.regions[k].start < m.end; ++k) {
        const timeline::RegionSpan& s = ls.regions[k];
        if (s.callPath == highlightedCallPath_)
          highlightedPath_.push_back({m.order, xOf(std::max(s.start, m.start), plot),
                                      xOf(std::min(s.end, m.end), plot), rowCenter_[ls.location]});
      }
    }
  }
}

bool TimelineView::crowded(std::uint32_t key, int x) {
  for (auto& [k, last] : lastLineX_)
    if (k == key) {
      if (x - last < kLineSpacing) return true;
      last = x;
      return false;
    }
  lastLineX_.emplace_back(key, x);
  return false;
}

void TimelineView::paintCriticalPath(QPainter& p, const QRect& plot) {
  pathPoints_.clear();
  for (const timeline::LocationSlice& ls : slice_.locations)
    for (const timeline::PathMark& m : ls.path)
      pathPoints_.push_back({m.order, xOf(m.start, plot), xOf(m.end, plot), rowCenter_[ls.location]});
  if (pathPoints_.empty()) return;
  collectHighlightedPath(plot);
  std::sort(pathPoints_.begin(), pathPoints_.end(),
            [](const PathPoint& a, const PathPoint& b) { return a.order < b.order; });
  // Links between consecutive segments; links less than a pixel wide in one
  // pixel column are drawn as one vertical line (a path hopping between rows
  // many times within a pixel stays one line per column).
  bool column = false;
  double columnX = 0, columnTop = 0, columnBottom = 0;
  const auto flushColumn = [&] {
    if (column) lines_.emplace_back(int(columnX), int(columnTop), int(columnX), int(columnBottom));
    column = false;
  };
  lines_.clear();
  for (std::size_t i = 1; i < pathPoints_.size(); ++i) {
    const PathPoint& a = pathPoints_[i - 1];
    const PathPoint& b = pathPoints_[i];
    if (a.y == b.y) continue;
    if (std::abs(b.x0 - a.x1) < 1.0) {
      const double x = std::floor(b.x0) + 0.5;
      if (column && x == columnX) {
        columnTop = std::min({columnTop, a.y, b.y});
        columnBottom = std::max({columnBottom, a.y, b.y});
        continue;
      }
      flushColumn();
      column = true;
      columnX = x;
      columnTop = std::min(a.y, b.y);
      columnBottom = std::max(a.y, b.y);
    } else {
      lines_.emplace_back(pixelOf(a.x1), int(a.y), pixelOf(b.x0), int(b.y));
    }
  }
  flushColumn();
  p.setPen(pathLinkPen_);
  if (directRaster_ && opaquePath_ && RasterLayer::usableOn(p)) {
    // The vertical links and the bars straight into an image, in the same order.
    layer_.begin(p, plot);
    const QRgb link = pathLinkPen_.color().rgba64().toArgb32();
    std::size_t kept = 0;
    for (const QLine& l : lines_)
      if (l.x1() == l.x2())
        layer_.verticalLine(l.x1(), l.y1(), l.y2(), link);
      else
        lines_[kept++] = l;
    lines_.resize(kept);
    p.drawLines(lines_.data(), static_cast<int>(lines_.size()));
    for (int pass = 0; pass < 2; ++pass) {
      const QRgb c = (pass == 0 ? pathBrush_ : highlightBrush_).color().rgba64().toArgb32();
      for (const PathPoint& pt : pass == 0 ? pathPoints_ : highlightedPath_) {
        const int x0 = pixelOf(pt.x0);
        layer_.fillRect(x0, int(pt.y) - 1, std::max(pixelOf(pt.x1) - x0, 1), 3, c);
      }
    }
    layer_.drawTo(p);
    return;
  }
  p.drawLines(lines_.data(), static_cast<int>(lines_.size()));
  // Segments as filled bars (wide pens go through the stroker, rectangles do
  // not), batched; the highlighted call path's parts on top.
  for (int pass = 0; pass < 2; ++pass) {
    pathRects_.clear();
    for (const PathPoint& pt : pass == 0 ? pathPoints_ : highlightedPath_) {
      const int x0 = pixelOf(pt.x0);
      pathRects_.emplace_back(x0, int(pt.y) - 1, std::max(pixelOf(pt.x1) - x0, 1), 3);
    }
    p.setPen(Qt::NoPen);
    p.setBrush(pass == 0 ? pathBrush_ : highlightBrush_);
    p.drawRects(pathRects_.data(), static_cast<int>(pathRects_.size()));
  }
}

void TimelineView::paintStatus(QPainter& p, const QRect& plot) {
  const QString text = statusText();
  if (text.isEmpty()) return;
  const QFontMetrics fm(font());
  if (status_ == timeline::SliceStatus::Loading) {
    p.setPen(palette().placeholderText().color());
    p.drawText(plot, Qt::AlignCenter, text);
    return;
  }
  // One line at the top of the plot: "loading…" at the right while a better
  // slice is on its way, a failure across the plot.
  const QString line = fm.elidedText(text, Qt::ElideRight, plot.width() - 12);
  const int w = fm.horizontalAdvance(line) + 12;
  const QRect box = status_ == timeline::SliceStatus::Failed ? QRect(plot.left(), plot.top(), w, fm.height() + 6)
                                                              : QRect(plot.right() + 1 - w, plot.top(), w, fm.height() + 6);
  p.fillRect(box, status_ == timeline::SliceStatus::Failed ? QColor(0xfd, 0xec, 0xea) : palette().window().color());
  p.setPen(status_ == timeline::SliceStatus::Failed ? QColor(0xa0, 0x10, 0x10) : palette().text().color());
  p.drawText(box, Qt::AlignCenter, line);
}

void TimelineView::paintLabels(QPainter& p, const QRect& plot) {
  p.save();
  p.setClipRect(QRect(0, plot.top(), kLabelWidth, plot.height()));
  p.fillRect(QRect(0, plot.top(), kLabelWidth, plot.height()), palette().window());
  p.setPen(palette().text().color());
  const int top = contentTop(plot);
  for (const TimelineRow& r : rows_.rows()) {
    const int y = top + r.top;
    if (y + r.height < plot.top() || y > plot.bottom()) continue;
    if (r.isNode) {
      const bool closed = rows_.collapsed(r.node);
      QPointF tri[3] = {QPointF(3, y + 5), QPointF(11, y + 5), QPointF(7, y + 11)};  // expanded: pointing down
      if (closed) {
        tri[0] = QPointF(4, y + 3);
        tri[1] = QPointF(10, y + 8);
        tri[2] = QPointF(4, y + 13);
      }
      p.setBrush(palette().text());
      p.drawPolygon(tri, 3);
      if (r.node < nodeTexts_.size()) p.drawStaticText(QPointF(14, y + (r.height - textHeight_) / 2), nodeTexts_[r.node]);
    } else if (r.location < locationTexts_.size()) {
      p.drawStaticText(QPointF(18, y + (r.height - textHeight_) / 2), locationTexts_[r.location]);
    }
  }
  p.restore();
}

void TimelineView::paintRuler(QPainter& p, const QRect& plot) {
  p.fillRect(QRect(0, 0, plot.right() + 1, kRulerHeight), palette().window());
  p.setPen(palette().text().color());
  p.drawLine(plot.left(), kRulerHeight - 1, plot.right(), kRulerHeight - 1);
  const double span = window_.to - window_.from;
  // A tick about every 100 pixels, at 1, 2 or 5 times a power of ten.
  const double raw = span / std::max(1.0, plot.width() / 100.0);
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  const double step = raw / decade < 2 ? 2 * decade : raw / decade < 5 ? 5 * decade : 10 * decade;
  for (double t = std::ceil(window_.from / step) * step; t <= window_.to; t += step) {
    const double x = xOf(t, plot);
    p.drawLine(QLineF(x, kRulerHeight - 6, x, kRulerHeight - 1));
    p.drawText(QRectF(x + 2, 0, 90, kRulerHeight - 6), Qt::AlignLeft | Qt::AlignVCenter, formatTime(t));
  }
}

void TimelineView::paintLegend(QPainter& p, const QSize& size) {
  const int y = size.height() - kLegendHeight;
  p.fillRect(QRect(0, y, size.width(), kLegendHeight), palette().window());
  p.setPen(palette().text().color());
  int x = 6;
  std::size_t n = 0;  // the entry's laid-out label (rebuildStyles, same order)
  const auto entry = [&](const QBrush& brush, const QPen& pen) {
    p.setPen(pen);
    p.setBrush(brush);
    p.drawRect(QRect(x, y + 5, 12, 12));
    if (n >= legendTexts_.size()) return;
    p.setPen(palette().text().color());
    p.drawStaticText(QPointF(x + 16, y + 15 - textAscent_), legendTexts_[n]);  // baseline at y + 15
    x += 16 + legendWidths_[n] + 12;
    ++n;
  };
  for (std::size_t g = 0; g < timeline::kRegionGroupCount; ++g) entry(groupBrushes_[g], QPen(Qt::NoPen));
  for (std::size_t k = 0; k < colors_.epochs.size(); ++k) entry(epochBrushes_[k], QPen(Qt::NoPen));
  entry(QBrush(Qt::black, Qt::BDiagPattern), QPen(Qt::black));
  entry(QBrush(colors_.criticalPath), QPen(Qt::NoPen));
}

// ---------------------------------------------------------------- hit testing and tooltips

TimelineView::Hit TimelineView::hitTest(const QPoint& pos) const {
  Hit hit;
  const QRect plot = lastPlot_.isValid() ? lastPlot_ : plotRect(size());
  const int top = contentTop(plot);
  if (pos.x() < kLabelWidth && pos.y() >= plot.top() && pos.y() <= plot.bottom()) {
    const int row = rows_.rowAt(pos.y() - top);
    if (row >= 0 && rows_.rows()[row].isNode) {
      hit.kind = Hit::Kind::NodeHeader;
      hit.node = rows_.rows()[row].node;
    }
    return hit;
  }
  if (!plot.contains(pos)) return hit;
  const double t = window_.from + (pos.x() - plot.left()) / double(plot.width()) * (window_.to - window_.from);
  const double slop = 2.0 * (window_.to - window_.from) / plot.width();
  const QPointF pf(pos);
  const int row = rows_.rowAt(pos.y() - top);
  for (std::size_t s = 0; s < slice_.locations.size(); ++s) {
    const timeline::LocationSlice& ls = slice_.locations[s];
    const bool onRow = row >= 0 && !rows_.rows()[row].isNode && rows_.rows()[row].location == ls.location;
    if (onRow) {
      const int y = pos.y() - (top + rows_.rows()[row].top);
      const auto within = [&](double a, double b) { return t >= a - slop && t <= b + slop; };
      if (y >= kBandTop - 1 && y < kBandTop + kBandHeight + 1)
        for (std::size_t i = 0; i < ls.instances.size(); ++i)
          if (within(ls.instances[i].start, ls.instances[i].end)) return {Hit::Kind::Instance, s, i, 0};
      if (std::abs(y - (kBandTop + kBandHeight / 2)) <= 2)
        for (std::size_t i = 0; i < ls.path.size(); ++i)
          if (within(ls.path[i].start, ls.path[i].end)) return {Hit::Kind::Path, s, i, 0};
      if (y >= kEpochTop && y < kEpochTop + kEpochHeight)
        for (std::size_t i = ls.epochs.size(); i-- > 0;)
          if (within(ls.epochs[i].start, ls.epochs[i].end)) return {Hit::Kind::Epoch, s, i, 0};
    }
    for (std::size_t i = 0; i < ls.messages.size(); ++i) {
      const timeline::Message& m = ls.messages[i];
      if (m.sender >= rowCenter_.size() || m.receiver >= rowCenter_.size() || rowCenter_[m.sender] < 0 ||
          rowCenter_[m.receiver] < 0)
        continue;
      if (distanceToSegment(pf, {xOf(m.start, plot), rowCenter_[m.sender]}, {xOf(m.end, plot), rowCenter_[m.receiver]}) <= 2.5)
        return {Hit::Kind::Message, s, i, 0};
    }
    for (std::size_t i = 0; i < ls.transfers.size(); ++i) {
      const timeline::Transfer& m = ls.transfers[i];
      if (m.origin >= rowCenter_.size() || m.target >= rowCenter_.size() || rowCenter_[m.origin] < 0 ||
          rowCenter_[m.target] < 0)
        continue;
      if (distanceToSegment(pf, {xOf(m.start, plot), rowCenter_[m.origin]}, {xOf(m.end, plot), rowCenter_[m.target]}) <= 2.5)
        return {Hit::Kind::Transfer, s, i, 0};
    }
  }
  if (row >= 0 && !rows_.rows()[row].isNode) {
    const int y = pos.y() - (top + rows_.rows()[row].top);
    for (std::size_t s = 0; s < slice_.locations.size(); ++s) {
      const timeline::LocationSlice& ls = slice_.locations[s];
      if (ls.location != rows_.rows()[row].location || y < kBandTop || y >= kBandTop + kBandHeight) continue;
      for (std::size_t i = 0; i < ls.regions.size(); ++i)
        if (t >= ls.regions[i].start && t < ls.regions[i].end) return {Hit::Kind::Region, s, i, 0};
    }
  }
  return hit;
}

QString TimelineView::describeAt(const QPoint& pos) {
  querySlice(plotRect(size()));  // hit-test what is shown now, even before the first paint
  const Hit hit = hitTest(pos);
  if (hit.kind == Hit::Kind::None || hit.kind == Hit::Kind::NodeHeader) return {};
  const timeline::LocationSlice& ls = slice_.locations[hit.slot];
  const auto locationName = [&](std::uint32_t l) {
    return l < locationNames_.size() ? locationNames_[l] : tr("location %1").arg(l);
  };
  const auto pathName = [&](std::uint32_t c) {
    return report_ && c < report_->callPaths.size() ? QString::fromStdString(report::callPathString(*report_, c))
                                                    : tr("(unknown call path)");
  };
  const auto metricName = [&](std::uint32_t m) {
    return report_ && m < report_->metrics.size() ? QString::fromStdString(report_->metrics[m].displayName)
                                                  : tr("metric %1").arg(m);
  };
  switch (hit.kind) {
    case Hit::Kind::Region: {
      const timeline::RegionSpan& s = ls.regions[hit.index];
      QString text = tr("%1\n%2 on %3\nstart %4, duration %5")
                         .arg(s.callPath < callPathNames_.size() ? callPathNames_[s.callPath] : tr("(unknown region)"),
                              pathName(s.callPath), locationName(ls.location), formatTime(s.start),
                              formatTime(s.end - s.start));
      if (s.merged > 1) text += tr("\n(dominant region of %1 intervals in this pixel range)").arg(s.merged);
      return text;
    }
    case Hit::Kind::Message: {
      const timeline::Message& m = ls.messages[hit.index];
      QString text = tr("Message %1 → %2\n%3, tag %4\nsent %5, received %6 (%7)")
                         .arg(locationName(m.sender), locationName(m.receiver), formatBytes(m.bytes))
                         .arg(m.tag)
                         .arg(formatTime(m.start), formatTime(m.end), formatTime(m.end - m.start));
      if (m.count > 1) text += tr("\n(%1 messages in this pixel)").arg(m.count);
      return text;
    }
    case Hit::Kind::Transfer: {
      const timeline::Transfer& t = ls.transfers[hit.index];
      return tr("RMA %1 %2 → %3 on window %4\n%5\nissued %6, completed %7")
          .arg(QString::fromUtf8(timeline::name(t.kind).data(), qsizetype(timeline::name(t.kind).size())),
               locationName(t.origin), locationName(t.target))
          .arg(t.window)
          .arg(formatBytes(t.bytes), formatTime(t.start), formatTime(t.end));
    }
    case Hit::Kind::Epoch: {
      const timeline::Epoch& e = ls.epochs[hit.index];
      QString text = tr("%1 on window %2\n%3 to %4 (%5)")
                         .arg(epochLabel(e.kind))
                         .arg(e.window)
                         .arg(formatTime(e.start), formatTime(e.end), formatTime(e.end - e.start));
      if (e.kind == timeline::EpochKind::Lock)
        text += tr("\n%1 lock on %2").arg(e.lockType == 0 ? tr("exclusive") : tr("shared"), locationName(e.peer));
      return text;
    }
    case Hit::Kind::Instance: {
      const timeline::InstanceMark& i = ls.instances[hit.index];
      QString text = tr("%1 on %2\nin %3\nwaiting %4 (from %5)")
                         .arg(metricName(i.metric), locationName(ls.location), pathName(i.callPath),
                              formatTime(i.end - i.start), formatTime(i.start));
      if (i.cause != kNoId) text += tr("\ncaused by %1").arg(locationName(i.cause));
      if (i.count > 1) text += tr("\n(%1 instances in this pixel)").arg(i.count);
      return text;
    }
    case Hit::Kind::Path: {
      const timeline::PathMark& m = ls.path[hit.index];
      return tr("Critical path on %1\n%2 to %3 (%4)\nat its end in %5")
          .arg(locationName(ls.location), formatTime(m.start), formatTime(m.end), formatTime(m.end - m.start),
               pathName(m.callPath));
    }
    default:
      return {};
  }
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
    scroll_->setValue(scroll_->value() - static_cast<int>(steps * TimelineRows::kLocationHeight));
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
    history_.push(window_);
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
  const Hit hit = hitTest(pos);
  if (hit.kind == Hit::Kind::NodeHeader) {
    setCollapsed(hit.node, !rows_.collapsed(hit.node));
  } else if (hit.kind == Hit::Kind::Instance) {
    const timeline::InstanceMark& i = slice_.locations[hit.slot].instances[hit.index];
    emit instanceClicked(i.metric, i.callPath, slice_.locations[hit.slot].location);
  }
}

void TimelineView::keyPressEvent(QKeyEvent* e) {
  const bool ctrl = e->modifiers() & Qt::ControlModifier;
  const bool shift = e->modifiers() & Qt::ShiftModifier;
  switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomIn(); return;
    case Qt::Key_Minus: zoomOut(); return;
    case Qt::Key_Left: panLeft(); return;
    case Qt::Key_Right: panRight(); return;
    case Qt::Key_Home: zoomToAll(); return;
    case Qt::Key_Up: scroll_->setValue(scroll_->value() - TimelineRows::kLocationHeight); return;
    case Qt::Key_Down: scroll_->setValue(scroll_->value() + TimelineRows::kLocationHeight); return;
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
  for (const timeline::LocationSlice& ls : slice_.locations)
    for (const timeline::InstanceMark& i : ls.instances) {
      const bool knownMetric = report_ && i.metric < report_->metrics.size();
      const QString cause = i.cause != kNoId && i.cause < locationNames_.size() ? locationNames_[i.cause] : QString();
      csv += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9\n")
                 .arg(quoted(knownMetric ? QString::fromStdString(report_->metrics[i.metric].displayName) : QString()),
                      knownMetric ? QString::fromStdString(report_->metrics[i.metric].uniqueName) : QString(),
                      quoted(ls.location < locationNames_.size() ? locationNames_[ls.location] : QString()),
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
