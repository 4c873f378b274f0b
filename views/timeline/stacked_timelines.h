#pragma once
// Two runs' timelines stacked on one time axis (as Vampir compares traces):
// run A's rows above run B's, each under a labelled header ("A: fence.waitscope"),
// drawn by two TimelineViews that share the window and the zoom history, so
// zooming or panning either one moves both. Each run is shifted so that the
// chosen alignment point (timeline_alignment.h) is at the same x; the rulers
// count from it (t = 0 there). A run without a timeline shows its one-line
// notice in its place; the other run is still shown.
//
// Tool bar: the alignment ("Align at": trace start, end of MPI_Init, first
// call of a region — typed —, or an offset in seconds — typed —; Enter
// applies) with where t = 0 falls in each run, and zoom in / out / both runs
// whole / undo / redo. The views' own keys and mouse work as in the main
// timeline.
#include <array>
#include <memory>

#include <QString>
#include <QWidget>

#include "analysis/report/report.h"
#include "analysis/timeline/timeline_query.h"
#include "views/timeline/timeline_alignment.h"
#include "views/timeline/zoom_history.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QToolButton;

namespace waitscope::views {

class Selection;
class TimelineView;

// One run of a comparison: its timeline, or why there is none.
struct ComparedRun {
  QString label;  // "A: fence.waitscope"
  std::shared_ptr<timeline::SliceSource> source;
  std::shared_ptr<const report::Report> report;
  QString notice;  // no source: one line naming the file and what to do
};

class StackedTimelines : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kRuns = 2;  // 0: A, drawn above; 1: B

  explicit StackedTimelines(QWidget* parent = nullptr);

  // Shows the two runs, aligned as chosen, each whole.
  void setRuns(ComparedRun a, ComparedRun b);
  // Aligns the runs again and shows both whole (clears the zoom history).
  void setAlignment(const TimelineAlignment& alignment);
  const TimelineAlignment& alignment() const { return alignment_; }
  // The wait-state pattern that stands out in both runs (its metric's unique name, e.g.
  // "mpi_rma_wait_at_fence"; "": none), as the metric picked in the trees does in the main timeline.
  void setHighlightedMetric(const QString& uniqueName);
  const QString& highlightedMetric() const { return highlightedMetric_; }

  TimelineView* view(int run) const { return views_[run]; }
  bool shown(int run) const { return static_cast<bool>(runs_[run].source); }
  // The run's trace time at t = 0 of the shared axis.
  double origin(int run) const { return origins_[run]; }
  // Why the run has no timeline ("" when it is shown).
  QString notice(int run) const;
  // Where t = 0 is in each run, and any alignment point a run lacks.
  QString alignmentText() const;
  // The shared window, in seconds from the alignment point.
  TimeWindow sharedWindow() const;
  QString headerText(int run) const;

  QComboBox* alignmentChoice() const { return choice_; }
  QLineEdit* alignmentValue() const { return value_; }

 public slots:
  void zoomIn();
  void zoomOut();
  void zoomToAll();
  void undoZoom();
  void redoZoom();

 signals:
  void alignmentChanged();

 private:
  void applyAlignment();
  void applyHighlight();
  void applyTypedAlignment();
  void follow(int leader, double from, double to);
  int leadingRun() const;  // a shown run to forward the tool bar's zoom steps to, or -1
  void updateControls();

  std::array<ComparedRun, kRuns> runs_;
  std::array<Selection*, kRuns> selections_{};  // each view's own: the runs' ids differ
  std::array<TimelineView*, kRuns> views_{};
  std::array<QLabel*, kRuns> headers_{};
  std::array<QLabel*, kRuns> notices_{};
  std::array<QStackedWidget*, kRuns> stacks_{};
  std::array<double, kRuns> origins_{};
  std::shared_ptr<ZoomHistory> history_ = std::make_shared<ZoomHistory>();
  TimelineAlignment alignment_;
  QString highlightedMetric_;
  QString alignmentText_;
  bool following_ = false;  // a view follows another: no echo back

  QComboBox* choice_;
  QLineEdit* value_;
  QLabel* alignmentLabel_;
  QToolButton* undo_;
  QToolButton* redo_;
};

}  // namespace waitscope::views
