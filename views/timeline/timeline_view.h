#pragma once
// The process timeline (Vampir-like): one row per location, grouped by node
// (click a node header to collapse it); regions coloured by group with a
// legend; messages as lines, RMA transfers as arrows, RMA epochs as bands under
// each row; wait-state instances hatched and outlined in their pattern's
// colour; the critical path as one connected line across rows; a time ruler.
//
// Everything it paints comes from one slice query (visible_slice.h), made
// again only when the window, the width, the rows or the source's data changed;
// it is painted by a list of render passes, one per kind of item (passes/),
// which reuse their buffers (no allocation per item) and, on raster devices,
// write the dense items straight into pixel memory (raster_layer.h), pixel for
// pixel what QPainter would draw. Hit testing (timeline_hit.h) and tooltips
// (timeline_tooltip.h) search the same slice.
//
// Asynchronous sources (a remote trace) are never waited for: the view draws
// the best slice the source has, "loading…" while it has none, and the
// source's one-line problem when a request failed; it repaints when an answer
// arrives.
//
// Constructed with a Selection (the app's, or a test's own), it follows it (the
// first picked metric and the highlighted call path stand out, a picked location
// is scrolled to, a time window set there is shown) and writes to it what the
// user does (its time window; a click on a wait state picks its metric, call path
// and location).
//
// Rows: by default they are fitted so that every row fills the plot, as long as
// each keeps a readable height (kMinFitHeight); else they have the default
// height and scroll. Ctrl+wheel, Ctrl++ / Ctrl+- set a height of their own,
// Ctrl+0 fits again. Locations can be hidden and the node headers left out
// (the context menu of the row labels); a process's threads and GPU streams
// are rows under it, indented, folded by a click on its label; the layers of messages, transfers,
// epochs, wait states and the critical path can be switched off.
//
// Mouse: wheel zooms around the pointer, Shift+wheel scrolls the rows; drag
// with the left button selects a time range to zoom to (rubber band); drag with
// the middle button or Shift+left pans; a click on an instance emits
// instanceClicked. Keys: + / - zoom, Left / Right pan, Up / Down scroll, Home
// the whole trace, Ctrl+Z / Ctrl+Shift+Z (or Backspace / Ctrl+Y) undo and redo zoom steps.
//
// Stacked views of two runs (stacked_timelines.h) share one time axis: each
// counts its ruler from its own time origin, may show a window beyond its own
// trace (time bounds), follows the other's window without a zoom step and
// shares its zoom history, kept relative to the origin.
#include <cstdint>
#include <memory>
#include <vector>

#include <QElapsedTimer>
#include <QPoint>
#include <QRect>
#include <QString>
#include <QWidget>

#include "analysis/report/report.h"
#include "analysis/timeline/timeline_query.h"
#include "views/timeline/raster_layer.h"
#include "views/timeline/timeline_colors.h"
#include "views/timeline/timeline_hit.h"
#include "views/timeline/timeline_legend.h"
#include "views/timeline/timeline_rows.h"
#include "views/timeline/timeline_scene.h"
#include "views/timeline/timeline_style.h"
#include "views/timeline/visible_slice.h"
#include "views/timeline/zoom_history.h"

class QMenu;
class QScrollBar;

namespace waitscope::views {

class RenderPass;
class Selection;

class TimelineView : public QWidget {
  Q_OBJECT

 public:
  // Follows `selection` and writes the user's actions to it (see above).
  explicit TimelineView(Selection* selection, QWidget* parent = nullptr);
  ~TimelineView() override;

  // The slices to draw and the report they belong to (names, nodes, metrics).
  // Shows the whole trace and clears the zoom history.
  void setData(std::shared_ptr<timeline::SliceSource> source, std::shared_ptr<const report::Report> report);

  TimeWindow timeWindow() const { return window_; }
  bool canUndoZoom() const { return history_->canUndo(); }
  bool canRedoZoom() const { return history_->canRedo(); }

  // The trace time the ruler counts from (t = 0 there, marked on the ruler
  // unless it is 0); zoom history entries are relative to it.
  void setTimeOrigin(double origin);
  double timeOrigin() const { return origin_; }
  // The times the window may cover (trace time); from >= to: the source's span.
  void setTimeBounds(double from, double to);
  TimeWindow timeBounds() const;
  // Zoom steps go to `history` (shared with other views); it is not cleared here.
  void shareZoomHistory(std::shared_ptr<ZoomHistory> history);

  const TimelineColors& colors() const { return colors_; }
  void setGroupColor(timeline::RegionGroup group, const QColor& color);
  void setCollapsed(std::uint32_t nodeGroup, bool collapsed);
  const TimelineRows& rows() const { return rows_; }
  // The legend strip at the bottom (shown by default; exports may leave it out).
  void setLegendVisible(bool visible);
  bool legendVisible() const { return legendVisible_; }

  // Row height: fitted to the plot (the default), or one of the user's.
  static constexpr int kMinFitHeight = 12;  // readable: below it rows scroll at the default height
  static constexpr int kMaxFitHeight = TimelineRows::kMaxLocationHeight;  // fitted rows fill the plot up to it
  static constexpr int kRowHeightStep = 2;
  void setFitRows(bool fit);
  bool fitRows() const { return fitRows_; }
  void setRowHeight(int height);  // stops fitting
  int rowHeight() const { return rows_.locationHeight(); }
  // Every row is in view (no scrolling needed).
  bool allRowsVisible() const;
  // Which locations have rows (per location, nonzero: hidden), and whether rows are grouped by node.
  void setHiddenLocations(std::vector<char> hidden);
  void setGroupedByNode(bool grouped);
  // The parent of each location (a thread's or a stream's process; kNoId: none): it follows it,
  // indented. setData sets them from the report's location kinds (processParents).
  void setLocationParents(std::vector<std::uint32_t> parents);
  // Folds a parent's child rows (a click on its label does too), or every parent's.
  void setChildrenCollapsed(std::uint32_t location, bool collapsed);
  void setAllChildrenCollapsed(bool collapsed);
  // Layers (SliceKind bits: kSliceMessages, kSliceTransfers, kSliceEpochs, kSliceInstances, kSlicePath).
  static constexpr std::uint32_t kToggleableLayers = timeline::kSliceMessages | timeline::kSliceTransfers |
                                                     timeline::kSliceEpochs | timeline::kSliceInstances |
                                                     timeline::kSlicePath;
  void setLayerVisible(std::uint32_t layer, bool visible);
  bool layerVisible(std::uint32_t layer) const { return (layers_ & layer) == layer; }
  std::uint32_t layers() const { return layers_; }
  const TimelineLegend& legend() const { return legend_; }
  // Height of the legend at the view's width (0 when hidden).
  int legendHeight() const { return legendHeight(width()); }
  // The plot (right of the labels, between ruler and legend) in widget coordinates.
  QRect plotRect() const { return plotRect(size()); }
  // The row labels' context menu at widget position `pos` (hide, show, group, row height); the caller owns it.
  QMenu* createRowMenu(const QPoint& pos);

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
  std::size_t lastSliceItems() const { return slice_.slice().itemCount(); }
  // The window of the slice last drawn (an asynchronous source's may differ from timeWindow()).
  TimeWindow lastSliceWindow() const { return {slice_.slice().from, slice_.slice().to}; }
  // What the source answered for the last query, and the line shown for it
  // ("" when the slice is exact; "loading…"; or the source's problem).
  timeline::SliceStatus sliceStatus() const { return slice_.status(); }
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
  // Shows this window (clamped to the bounds) without a zoom step: another view leads.
  void followTimeWindow(double from, double to);

 signals:
  void instanceClicked(std::uint32_t metric, std::uint32_t callPath, std::uint32_t location);
  void timeWindowChanged(double from, double to);
  void zoomHistoryChanged();
  void rowsChanged();    // height, fitting, hidden locations or grouping
  void layersChanged();

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;
  bool event(QEvent* event) override;

 private:
  void followSelection();
  // What the selection stands for here: a metric's instances (with its sub-metrics')
  // and a call path's regions and critical-path segments stand out; kNoId clears.
  void setHighlightedMetric(std::uint32_t metric);
  void setHighlightedCallPath(std::uint32_t callPath);
  void scrollToLocation(std::uint32_t location);
  QRect plotRect(const QSize& size) const;
  int legendHeight(int width) const;
  // Rows changed (fit them again, scroll bar, repaint).
  void relayoutRows();
  void fitRowHeight();
  int contentTop(const QRect& plot) const;  // widget y of content y 0
  void applyWindow(TimeWindow w, bool recordStep);
  TimeWindow clamped(TimeWindow w) const;
  void zoomAround(double time, double factor, bool recordStep);
  void updateScrollBar();
  void querySlice(const QRect& plot);
  // What the last slice shows and where, across `plot`.
  TimelineScene scene(const QRect& plot) const;
  // What is under `pos` in the last slice.
  TimelineHit hitAt(const QPoint& pos) const;
  void rebuildStyle();
  void paintAll(QPainter& p, const QSize& size);

  Selection* selection_ = nullptr;
  std::shared_ptr<timeline::SliceSource> source_;
  std::shared_ptr<const report::Report> report_;
  TimelineRows rows_;
  TimelineColors colors_;
  TimelineStyle style_;  // pens, brushes and laid-out names: made per report and colour change
  TimeWindow window_;
  double origin_ = 0.0;
  TimeWindow bounds_;  // empty: the source's span
  std::shared_ptr<ZoomHistory> history_ = std::make_shared<ZoomHistory>();
  QElapsedTimer lastWheelStep_;
  QScrollBar* scroll_ = nullptr;
  bool legendVisible_ = true;
  TimelineLegend legend_;
  std::uint32_t layers_ = timeline::kSliceAll;
  bool fitRows_ = true;

  std::uint32_t highlightedMetric_ = timeline::kNoId;
  std::vector<char> metricHighlighted_;  // per metric: it or an ancestor is highlighted
  std::uint32_t highlightedCallPath_ = timeline::kNoId;

  VisibleSlice slice_;
  std::vector<std::unique_ptr<RenderPass>> passes_;  // in drawing order
  RasterLayer layer_;  // scratch the passes share
  bool directRaster_ = true;

  // Mouse gestures.
  enum class Drag { None, Pending, RubberBand, Pan };
  Drag drag_ = Drag::None;
  QPoint pressPos_;
  QPoint dragPos_;
  TimeWindow panStart_;
};

}  // namespace waitscope::views
