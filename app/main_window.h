#pragma once
// The Waitscope main window: the report browser (three coupled trees and the
// charts), File/View/Help menus with shortcuts, recent files, drag and drop,
// remembered window state, loading off the GUI thread with Cancel, export, and
// two runs compared side by side.
#include <QKeySequence>
#include <QMainWindow>

#include "views/model/comparison_data.h"
#include "views/model/report_data.h"

class QAction;
class QActionGroup;
class QDialog;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;

class QStackedWidget;

namespace waitscope::views {
class AssessmentPane;
class CriticalPathPane;
class ReportBrowser;
class ScalingSeriesWindow;
class Selection;
class SourcePane;
class StackedTimelines;
class TimelinePane;
class TimelineView;
}  // namespace waitscope::views

namespace waitscope::launch {
class AnalyzeDialog;
}

namespace waitscope::app {

class CompareDialog;
class ComparisonTimelineLoader;
class LiveRunController;
class ReportLoader;
class TimelineLoader;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  views::Selection* selection() const { return selection_; }
  views::ReportBrowser* browser() const { return browser_; }
  views::SourcePane* sourcePane() const { return sourcePane_; }
  views::TimelineView* timelineView() const;
  views::CriticalPathPane* criticalPathPane() const { return criticalPathPane_; }
  views::AssessmentPane* assessmentPane() const { return assessmentPane_; }
  // The critical-path profile (call path, time on the path, share, imbalance) as CSV.
  QString exportCriticalPathCsv(const QString& path) const;
  // Why there is no timeline (empty while it is shown or loading).
  QString timelineNotice() const;
  // Opens the report's timeline now, on this thread (command-line export, tests).
  bool loadTimelineNow();
  ReportLoader* loader() const { return loader_; }

  // Starts loading `path` off the GUI thread; reportLoaded or loadFailed follows.
  void openReport(const QString& path);
  // File > Analyze Trace…: runs waitscope-analyze locally or on a cluster and opens the report.
  launch::AnalyzeDialog* showAnalyzeDialog();
  // Shows an already loaded report.
  void showReport(views::ReportDataPtr report);

  // File > Compare With…: the shown report is run A; reads run B off the GUI thread and shows
  // both (comparisonOpened), or leaves A as it is with one line naming B (loadFailed).
  void openComparison(const QString& pathB);
  // Shows an already aligned comparison (command-line export, tests).
  void showComparison(views::ComparisonDataPtr comparison);
  // File > Close Comparison: run A alone again.
  void closeComparison();
  // Both runs' timelines stacked on one time axis (View > Compare Timelines; docs/timeline.md),
  // opened off the GUI thread when a comparison is shown (comparedTimelinesReady follows).
  views::StackedTimelines* comparedTimelines() const { return comparedTimelines_; }
  void showComparedTimelines(const QString& pathA, const QString& pathB);
  // Shows a newer version of the shown report in place (a live run's next snapshot): the
  // trees keep selection, expansion and scroll position, values change.
  void updateReportInPlace(views::ReportDataPtr report);
  // File > Follow Live Run…
  LiveRunController* liveRun() const { return live_; }
  // Message boxes on errors (off for scripted runs and tests, which use loadFailed).
  void setInteractive(bool interactive) { interactive_ = interactive; }
  // Restores / saves geometry, window state, splitter sizes, mode and recent files.
  void restoreSettings();
  void saveSettings() const;
  QStringList recentFiles() const;
  // View > Reset Layout: the docks and splitters as a new window has them; the saved
  // arrangement is forgotten.
  void resetLayout();
  // Every menu action with a shortcut ("File > Quit", Ctrl+Q), in menu order.
  QList<QPair<QString, QKeySequence>> keyboardShortcuts() const;
  // Help > Keyboard Shortcuts: a table of keyboardShortcuts() (deleted when closed).
  QDialog* showKeyboardShortcuts();
  // Help > User Guide: opens docs/user-guide.md; empty on success, else one line.
  QString openUserGuide();

  // Opens the selected call path's source line in the configured editor; empty
  // on success, else one line (also shown in the status bar).
  QString openSelectionInEditor();

  // The shown wait-state profile against the trace analysis in `traceReport` (Mao et al.,
  // EuroMPI/ASIA 2014, Fig. 3; docs/profiling.md); empty on success, else one line. The
  // dialog stays open.
  QString compareWithTraceAnalysis(const QString& traceReport);
  CompareDialog* compareDialog() const { return compareDialog_; }

  // File > Open Scaling Series…: the runs in a new window (one line per unreadable file in it).
  views::ScalingSeriesWindow* openScalingSeries(const QStringList& paths);

  // Export; each returns an empty string on success, else a one-line error.
  QString exportWindowPng(const QString& path);
  QString exportWindowSvg(const QString& path);

 signals:
  void reportLoaded();
  // A comparison is shown: `pathA` (run A) against `pathB` (run B).
  void comparisonOpened(const QString& pathA, const QString& pathB);
  void comparedTimelinesReady();
  void timelineReady();
  void loadFailed(const QString& message);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void closeEvent(QCloseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;

 private:
  static constexpr int kStartHeight = 800;  // a new window's height before any --size or saved geometry
  // Whenever the window's height changes, the bottom docks get at least two fifths of it (of
  // kStartHeight in a lower window, where the trees give way first), so a tall window gives
  // them room too (the timeline's rows, the POP table's wrapped sentences) and the trees keep
  // the rest; docks the user made higher stay so.
  void shareHeightWithDocks();
  int sharedHeight_ = kStartHeight;
  void createActions();
  void addRecentFile(const QString& path);
  void updateRecentMenu();
  void onLoaded(views::ReportDataPtr report);
  void onFailed(const QString& message);
  void updateTitle();
  void setLoadingUi(bool loading);
  void updateStatus();
  void exportInteractively(const QString& what);
  void setTimelineNotice(const QString& text);
  void connectTimeline();
  void editTimelineColors();
  void findSourceRoot(const QString& recordedFile);
  void chooseEditor();
  void chooseAssessmentReference();

  views::Selection* selection_;
  views::ReportBrowser* browser_;
  views::SourcePane* sourcePane_;
  views::TimelinePane* timelinePane_;
  views::CriticalPathPane* criticalPathPane_;
  views::AssessmentPane* assessmentPane_;
  QStackedWidget* timelineStack_;
  TimelineLoader* timelineLoader_;
  ReportLoader* loader_;
  QMenu* recentMenu_ = nullptr;
  QActionGroup* modeGroup_ = nullptr;
  QAction* flatAction_ = nullptr;
  QAction* sortAction_ = nullptr;
  QAction* compareAction_ = nullptr;
  QAction* closeComparisonAction_ = nullptr;
  QActionGroup* compareGroup_ = nullptr;
  QLabel* summary_ = nullptr;
  QLabel* timeCorrection_ = nullptr;  // the report's clock correction, hidden when there is none
  QLabel* unanalyzed_ = nullptr;      // a hybrid run's paradigms without wait-state analysis
  QProgressBar* progress_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QStringList recent_;
  launch::AnalyzeDialog* analyzeDialog_ = nullptr;
  CompareDialog* compareDialog_ = nullptr;
  views::StackedTimelines* comparedTimelines_ = nullptr;
  ComparisonTimelineLoader* comparedTimelinesLoader_ = nullptr;
  LiveRunController* live_ = nullptr;
  bool interactive_ = true;
  QByteArray defaultState_;
};

}  // namespace waitscope::app
