#pragma once
// The process timeline (Vampir-like): one row per location, grouped by node
// (click a node header to collapse it); regions coloured by group with a
// legend; messages as lines, RMA transfers as arrows, RMA epochs as bands under
// each row; wait-state instances hatched and outlined in their pattern's
// colour; the critical path as one connected line across rows; a time ruler.
//
// Everything it paints comes from one slice query (the visible rows at the
// view's width in pixels), made again only when the window, the width, the rows
// or the source's data changed; painting reuses its buffers (no allocation per
// item) and, on raster devices, writes the dense layers (regions, narrow wait
// states, vertical lines, critical-path bars) straight into one image each
// (raster_layer.h), pixel for pixel what QPainter would draw.
//
// Asynchronous sources (a remote trace) are never waited for: the view draws
// the best slice the source has, "loading…" while it has none, and the
// source's one-line problem when a request failed; it repaints when an answer
// arrives.
//
// Mouse: wheel zooms around the pointer, Shift+wheel scrolls the rows; drag
// with the left button selects a time range to zoom to (rubber band); drag with
// the middle button or Shift+left pans; a click on an instance emits
// instanceClicked. Keys: + / - zoom, Left / Right pan, Up / Down scroll, Home
// the whole trace, Ctrl+Z / Ctrl+Shift+Z (or Backspace / Ctrl+Y) undo and redo zoom steps.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include <QBrush>
#include <QElapsedTimer>
#include <QLine>
#include <QRect>
#include <QPen>
#include <QStaticText>
#include <QString>
#include <QWidget>

#include "analysis/report/report.h"
#include "analysis/timeline/timeline_query.h"
#include "views/timeline/column_spans.h"
#include "views/timeline/raster_layer.h"
#include "views/timeline/timeline_colors.h"
#include "views/timeline/timeline_rows.h"
#include "views/timeline/zoom_history.h"

class QScrollBar;

namespace waitscope::views {

class TimelineView : public QWidget {
  Q_OBJECT

 public:
  explicit TimelineView(QWidget* parent = nullptr);
  ~TimelineView() override;

  // The slices to draw and the report they belong to (names, nodes, metrics).
  // Shows the whole trace and clears the zoom history.
  void setData(std::shared_ptr<timeline::SliceSource> source, std::shared_ptr<const report::Report> report);

  TimeWindow timeWindow() const { return window_; }
  bool canUndoZoom() const { return history_.canUndo(); }
  bool canRedoZoom() const { return history_.canRedo(); }

  const TimelineColors& colors() const { return colors_; }
  void setGroupColor(timeline::RegionGroup group, const QColor& color);
  void setCollapsed(std::uint32_t nodeGroup, bool collapsed);
  const TimelineRows& rows() const { return rows_; }
  // The legend strip at the bottom (shown by default; exports may leave it out).
  void setLegendVisible(bool visible);
  bool legendVisible() const { return legendVisible_; }

  // Widget coordinates of `time` on the middle of `location`'s region band
  // (y < 0 if the row is collapsed); and the time at widget x.
  QPointF positionOf(std::uint32_t location, double time) const;
  double timeAt(double x) const;
  // The tooltip text for widget position `pos` (empty: nothing there).
  QString describeAt(const QPoint& pos);

  // Pictures of the view as it is; each returns an empty string on success,
  // else one line naming the file and what went wrong.
  QString exportPng(const QString& path);
  QString exportSvg(const QString& path);
  // The wait-state instances of the visible rows and window as CSV (one row per
  // drawn mark: a mark standing for several instances says how many).
  QString exportInstancesCsv(const QString& path);
  // Paints the whole view into `painter` at `size` (exports, benchmarks).
  void paintTo(QPainter& painter, const QSize& size);
  // Items of the last slice painted (for benchmarks and tests).
  std::size_t lastSliceItems() const { return slice_.itemCount(); }
  // The window of the slice last drawn (an asynchronous source's may differ from timeWindow()).
  TimeWindow lastSliceWindow() const { return {slice_.from, slice_.to}; }
  // What the source answered for the last query, and the line shown for it
  // ("" when the slice is exact; "loading…"; or the source's problem).
  timeline::SliceStatus sliceStatus() const { return status_; }
  QString statusText() const;
  // The next paint queries the source again (its data changed).
  void invalidateSlice();
  // Off: paint everything with QPainter even on raster devices (tests compare both).
  void setDirectRaster(bool on);

 public slots:
  // One zoom step each (undoable).
  void setTimeWindow(double from, double to);
  void zoomIn();
  void zoomOut();
  void zoomToAll();
  void panLeft();
  void panRight();
  void undoZoom();
  void redoZoom();
  // Coupling with the trees: a metric's instances (with its sub-metrics') and a
  // call path's regions and critical-path segments stand out; kNoId clears.
  void setHighlightedMetric(std::uint32_t metric);
  void setHighlightedCallPath(std::uint32_t callPath);
  void scrollToLocation(std::uint32_t location);

 signals:
  void instanceClicked(std::uint32_t metric, std::uint32_t callPath, std::uint32_t location);
  void timeWindowChanged(double from, double to);
  void zoomHistoryChanged();

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  bool event(QEvent* event) override;

 private:
  struct Hit;
  struct PathPoint {
    std::uint32_t order;
    double x0, x1, y;
  };

  QRect plotRect(const QSize& size) const;
  double xOf(double time, const QRect& plot) const;
  int contentTop(const QRect& plot) const;  // widget y of content y 0
  void applyWindow(TimeWindow w, bool recordStep);
  TimeWindow clamped(TimeWindow w) const;
  void zoomAround(double time, double factor, bool recordStep);
  void updateScrollBar();
  void querySlice(const QRect& plot);
  Hit hitTest(const QPoint& pos) const;
  void rebuildStyles();
  // Whether a line of `key` starting at pixel x is too close to the last one drawn (else records it).
  bool crowded(std::uint32_t key, int x);
  // Draws outlineLines_ (axis-aligned) with `pen`.
  void drawWideLines(QPainter& p, const QRect& plot, const QPen& pen);
  // Appends the four sides of `r` to outlineLines_.
  void addOutline(const QRectF& r);

  void paintAll(QPainter& p, const QSize& size);
  void paintRows(QPainter& p, const QRect& plot);
  void paintLines(QPainter& p, const QRect& plot);
  void paintCriticalPath(QPainter& p, const QRect& plot);
  void collectHighlightedPath(const QRect& plot);
  void paintLabels(QPainter& p, const QRect& plot);
  void paintRuler(QPainter& p, const QRect& plot);
  void paintLegend(QPainter& p, const QSize& size);
  void paintStatus(QPainter& p, const QRect& plot);

  std::shared_ptr<timeline::SliceSource> source_;
  std::shared_ptr<const report::Report> report_;
  TimelineRows rows_;
  TimelineColors colors_;
  TimeWindow window_;
  ZoomHistory history_;
  QElapsedTimer lastWheelStep_;
  QScrollBar* scroll_ = nullptr;

  std::uint32_t highlightedMetric_ = timeline::kNoId;
  std::vector<char> metricHighlighted_;  // per metric: it or an ancestor is highlighted
  std::uint32_t highlightedCallPath_ = timeline::kNoId;

  // Precomputed once per report: names and their widths, pens and brushes.
  std::vector<QString> callPathNames_;
  std::vector<int> callPathNameWidths_;
  std::vector<QStaticText> callPathTexts_;  // laid out once: drawing them allocates nothing
  double textHeight_ = 0.0;
  std::vector<QString> locationNames_;
  std::vector<QString> nodeNames_;
  std::vector<QStaticText> locationTexts_, nodeTexts_;  // row labels, laid out once
  std::vector<QStaticText> legendTexts_;                // legend entries, in drawing order
  std::vector<int> legendWidths_;
  double textAscent_ = 0.0;
  std::vector<QBrush> groupBrushes_;
  std::vector<QBrush> epochBrushes_;
  std::vector<QPen> patternPens_, patternStrongPens_;
  std::vector<QBrush> patternBrushes_;
  QPen messagePen_, transferPen_, pathPen_, pathLinkPen_, highlightPen_, paleInstancePen_;
  QBrush transferBrush_, paleInstanceBrush_, pathBrush_, highlightBrush_;

  // Reused by every frame.
  timeline::SliceRequest request_;
  timeline::Slice slice_;
  std::vector<std::uint32_t> visible_;  // locations of the visible rows, this frame
  bool sliceFresh_ = false;             // slice_ answers request_ and the source has not changed since
  timeline::SliceStatus status_ = timeline::SliceStatus::Exact;
  QString problem_;
  bool directRaster_ = true;
  bool opaqueRegions_ = true, opaqueMarks_ = true, opaqueLines_ = true, opaquePath_ = true;  // colours a layer may write
  RasterLayer layer_;
  RasterLayer::Pattern hatch_;  // the wait states' BDiagPattern, as QPainter tiles it
  ColumnSpans columnSpans_;  // vertical message lines and transfer shafts, merged per column
  std::vector<double> rowCenter_;  // per location: widget y of its region band's middle, or -1
  std::vector<PathPoint> pathPoints_;
  std::vector<PathPoint> highlightedPath_;  // the path's bars inside the highlighted call path's regions
  std::array<std::vector<QRect>, timeline::kRegionGroupCount> regionRects_;  // batched per colour
  std::vector<QRect> bandSpans_;  // per row, the runs of pixels its region rectangles cover
  std::array<std::vector<QRect>, 5> epochRects_;
  std::vector<QLine> lines_;
  std::vector<QRect> pathRects_;
  std::vector<QRectF> outlineRects_;
  std::vector<QLineF> outlineLines_;
  std::vector<std::pair<std::uint32_t, int>> lastLineX_;  // (line key, x of its last drawn line) of one row
  std::vector<std::vector<QRect>> instanceRects_;  // narrow instances, per pattern
  QRect lastPlot_;
  bool legendVisible_ = true;

  // Mouse gestures.
  enum class Drag { None, Pending, RubberBand, Pan };
  Drag drag_ = Drag::None;
  QPoint pressPos_;
  QPoint dragPos_;
  TimeWindow panStart_;
};

}  // namespace waitscope::views
