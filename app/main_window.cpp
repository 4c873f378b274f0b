#include "app/main_window.h"

#include <algorithm>
#include <functional>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QColorDialog>
#include <QCryptographicHash>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableWidget>
#include <QTimer>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

#include "analysis/report/source_location.h"
#include "app/compare_dialog.h"
#include "app/comparison_timeline_loader.h"
#include "app/editor_launcher.h"
#include "app/launch/analyze_dialog.h"
#include "app/launch/profile_editor.h"
#include "app/live/live_run_controller.h"
#include "app/report_loader.h"
#include "app/scaling_series_opener.h"
#include "app/time_correction_status.h"
#include "app/timeline_loader.h"
#include "app/user_guide.h"
#include "views/model/selection.h"
#include "views/model/time_window_filter.h"
#include "views/model/value_tree_model.h"
#include "views/source/source_pane.h"
#include "views/timeline/critical_path_pane.h"
#include "views/timeline/details_line.h"
#include "views/timeline/stacked_timelines.h"
#include "views/timeline/timeline_colors.h"
#include "views/timeline/timeline_pane.h"
#include "views/timeline/timeline_view.h"
#include "views/widgets/assessment_pane.h"
#include "views/widgets/chart_pane.h"
#include "views/widgets/communication_matrix_pane.h"
#include "views/widgets/report_browser.h"
#include "views/widgets/scaling_series_window.h"
#include "views/widgets/time_filter_bar.h"
#include "views/widgets/tree_pane.h"
#include "views/widgets/widget_export.h"

namespace waitscope::app {
namespace {
constexpr int kMaxRecent = 10;

// The bottom docks are tabbed together, and the tab group is as tall as the
// tallest minimum among them: a pane with a tall minimum (a table above a
// chart, two stacked timelines) would leave the trees a few rows at 1024x700.
// In a scroll area the pane keeps its own minimum and scrolls when the dock is lower.
QWidget* scrolledWhenLow(QWidget* pane) {
  auto* area = new QScrollArea;
  area->setWidget(pane);
  area->setWidgetResizable(true);
  area->setFrameShape(QFrame::NoFrame);
  area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  area->setMinimumHeight(area->fontMetrics().lineSpacing() * 4);
  return area;
}
}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      selection_(new views::Selection(this)),
      browser_(new views::ReportBrowser(selection_, this)),
      sourcePane_(new views::SourcePane(selection_, this)),
      timelinePane_(new views::TimelinePane(selection_, this)),
      criticalPathPane_(new views::CriticalPathPane(selection_, this)),
      assessmentPane_(new views::AssessmentPane(selection_, this)),
      timelineStack_(new QStackedWidget(this)),
      timelineLoader_(new TimelineLoader(this)),
      loader_(new ReportLoader(this)) {
  setObjectName(QStringLiteral("mainWindow"));
  setWindowTitle(QStringLiteral("Waitscope"));
  setAcceptDrops(true);
  setCentralWidget(browser_);
  resize(1280, kStartHeight);
  auto* sourceDock = new QDockWidget(tr("Source"), this);
  sourceDock->setObjectName(QStringLiteral("sourceDock"));  // saveState() needs a name
  sourceDock->setWidget(sourcePane_);
  addDockWidget(Qt::BottomDockWidgetArea, sourceDock);
  // The timeline beside the source, as a tab: both follow the selection.
  auto* timelineNotice = new QLabel(this);
  timelineNotice->setObjectName(QStringLiteral("timelineNotice"));
  timelineNotice->setWordWrap(true);
  timelineNotice->setAlignment(Qt::AlignCenter);
  timelineStack_->addWidget(timelineNotice);
  timelineStack_->addWidget(timelinePane_);  // with its line of details under the plot
  auto* timelineDock = new QDockWidget(tr("Timeline"), this);
  timelineDock->setObjectName(QStringLiteral("timelineDock"));
  timelineDock->setWidget(timelineStack_);
  addDockWidget(Qt::BottomDockWidgetArea, timelineDock);
  tabifyDockWidget(sourceDock, timelineDock);
  auto* criticalPathDock = new QDockWidget(tr("Critical Path"), this);
  criticalPathDock->setObjectName(QStringLiteral("criticalPathDock"));
  criticalPathDock->setWidget(scrolledWhenLow(criticalPathPane_));
  addDockWidget(Qt::BottomDockWidgetArea, criticalPathDock);
  tabifyDockWidget(timelineDock, criticalPathDock);
  auto* assessmentDock = new QDockWidget(tr("Assessment"), this);
  assessmentDock->setObjectName(QStringLiteral("assessmentDock"));
  assessmentDock->setWidget(assessmentPane_);
  addDockWidget(Qt::BottomDockWidgetArea, assessmentDock);
  tabifyDockWidget(criticalPathDock, assessmentDock);
  auto* matrixDock = new QDockWidget(tr("Communication Matrix"), this);
  matrixDock->setObjectName(QStringLiteral("communicationMatrixDock"));
  matrixDock->setWidget(new views::CommunicationMatrixPane(selection_, this));
  addDockWidget(Qt::BottomDockWidgetArea, matrixDock);
  tabifyDockWidget(assessmentDock, matrixDock);
  connect(assessmentPane_, &views::AssessmentPane::referenceRequested, this, &MainWindow::chooseAssessmentReference);
  // A comparison's two runs, stacked on one time axis: shown when a comparison opens.
  comparedTimelines_ = new views::StackedTimelines(this);
  comparedTimelinesLoader_ = new ComparisonTimelineLoader(this);
  auto* comparedTimelinesDock = new QDockWidget(tr("Compare Timelines"), this);
  comparedTimelinesDock->setObjectName(QStringLiteral("compareTimelinesDock"));
  comparedTimelinesDock->setWidget(scrolledWhenLow(comparedTimelines_));
  addDockWidget(Qt::BottomDockWidgetArea, comparedTimelinesDock);
  tabifyDockWidget(timelineDock, comparedTimelinesDock);
  comparedTimelinesDock->hide();
  connect(this, &MainWindow::comparisonOpened, this, &MainWindow::showComparedTimelines);
  connect(comparedTimelinesLoader_, &ComparisonTimelineLoader::loaded, this, [this](const ComparedRuns& runs) {
    comparedTimelines_->setRuns(runs.a, runs.b);
    emit comparedTimelinesReady();
  });
  // The metric picked in the trees stands out in both stacked runs, as in the timeline.
  connect(selection_, &views::Selection::metricsChanged, this, [this] {
    const views::ReportDataPtr& shown = selection_->report();
    const views::TreePicks& picks = selection_->metrics();
    const bool known = shown && !picks.empty() && picks.front().node < shown->report().metrics.size();
    comparedTimelines_->setHighlightedMetric(
        known ? QString::fromStdString(shown->report().metrics[picks.front().node].uniqueName) : QString());
  });
  timelineDock->raise();
  // The docks start at two fifths of the height: the trees and their charts keep the rest.
  resizeDocks({timelineDock}, {height() * 2 / 5}, Qt::Vertical);
  setTimelineNotice(tr("Open a report to see its timeline."));
  connectTimeline();
  connect(sourcePane_, &views::SourcePane::findSourceRootRequested, this, &MainWindow::findSourceRoot);

  summary_ = new QLabel(this);
  timeCorrection_ = new QLabel(this);
  timeCorrection_->setObjectName(QStringLiteral("timeCorrectionStatus"));
  timeCorrection_->setToolTip(tr("The analysis found clock-condition violations (a message received before it was "
                                 "sent, a collective left before it was entered) and moved events to later times "
                                 "with the controlled logical clock; the trees and the timeline show the corrected "
                                 "times. waitscope-analyze --no-time-correct keeps the recorded ones."));
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 0);  // a report is read in one step: a busy indicator
  progress_->setMaximumWidth(160);
  cancel_ = new QPushButton(tr("Cancel"), this);
  unanalyzed_ = new QLabel(this);
  unanalyzed_->setObjectName(QStringLiteral("unanalyzedParadigms"));
  statusBar()->addPermanentWidget(unanalyzed_);
  statusBar()->addPermanentWidget(timeCorrection_);
  statusBar()->addPermanentWidget(summary_);
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(cancel_);
  // The time filter: its indicator leftmost among the permanent widgets, its actions in View.
  auto* timeFilter = new views::TimeWindowFilter(selection_, this);
  statusBar()->insertPermanentWidget(0, new views::TimeFilterBar(selection_, timeFilter, this));
  setLoadingUi(false);
  live_ = new LiveRunController(this);

  connect(cancel_, &QPushButton::clicked, loader_, &ReportLoader::cancel);
  connect(loader_, &ReportLoader::loaded, this, &MainWindow::onLoaded);
  connect(loader_, &ReportLoader::failed, this, &MainWindow::onFailed);
  connect(loader_, &ReportLoader::comparisonLoaded, this, [this](views::ComparisonDataPtr comparison) {
    setLoadingUi(false);
    statusBar()->clearMessage();
    showComparison(std::move(comparison));
  });
  connect(loader_, &ReportLoader::cancelled, this, [this] {
    setLoadingUi(false);
    statusBar()->showMessage(tr("Loading cancelled"), 5000);
  });
  connect(selection_, &views::Selection::callPathsChanged, this, &MainWindow::updateStatus);
  connect(selection_, &views::Selection::metricsChanged, this, &MainWindow::updateStatus);
  connect(selection_, &views::Selection::compareViewChanged, this, &MainWindow::updateTitle);

  createActions();
  updateTitle();
  updateStatus();
  defaultState_ = saveState();  // for View > Reset Layout
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open Report…"), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Waitscope report"), QString(),
                                                      tr("Reports (*.waitscope *.wsr *.cubex);;Waitscope reports (*.waitscope *.wsr);;"
                                                         "Cube 4 profiles (*.cubex);;All files (*)"));
    if (!path.isEmpty()) openReport(path);
  });
  open->setShortcut(QKeySequence(tr("Ctrl+O")));
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  file->addSeparator();
  file->addAction(tr("&Analyze Trace…"), this, &MainWindow::showAnalyzeDialog)
      ->setShortcut(QKeySequence(tr("Ctrl+Shift+A")));
  file->addAction(live_->followAction());
  file->addAction(live_->stopAction());
  compareAction_ = file->addAction(tr("Compare &With…"), this, [this] {
    const QString pathB = QFileDialog::getOpenFileName(this, tr("Run B, to compare with the shown report (run A)"),
                                                       QString(), tr("Reports (*.waitscope *.wsr *.cubex);;All files (*)"));
    if (!pathB.isEmpty()) openComparison(pathB);
  });
  compareAction_->setShortcut(QKeySequence(tr("Ctrl+Shift+D")));
  closeComparisonAction_ = file->addAction(tr("Close Co&mparison"), this, &MainWindow::closeComparison);
  file->addAction(tr("Compare Profile with &Trace Analysis…"), this, [this] {
    const QString trace = QFileDialog::getOpenFileName(this, tr("The trace analysis of the same program"), QString(),
                                                       tr("Waitscope reports (*.waitscope *.wsr);;All files (*)"));
    if (trace.isEmpty()) return;
    const QString error = compareWithTraceAnalysis(trace);
    if (!error.isEmpty()) QMessageBox::warning(this, tr("Compare"), error);
  });
  file->addAction(tr("Open &Scaling Series…"), this, [this] {
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Runs of one program on different process counts"), QString(),
        tr("Reports (*.waitscope *.wsr *.cubex);;All files (*)"));
    if (!paths.isEmpty()) openScalingSeries(paths)->show();
  });
  file->addAction(tr("Connection &Profiles…"), this, [this] {
    launch::ProfileEditor editor(launch::ProfileStore(), this);
    editor.exec();
  });
  file->addSeparator();
  QMenu* exportMenu = file->addMenu(tr("&Export"));
  exportMenu->addAction(tr("Window as &PNG…"), this, [this] { exportInteractively(QStringLiteral("window-png")); })
      ->setShortcut(QKeySequence(tr("Ctrl+Shift+P")));
  exportMenu->addAction(tr("Window as &SVG…"), this, [this] { exportInteractively(QStringLiteral("window-svg")); })
      ->setShortcut(QKeySequence(tr("Ctrl+Shift+G")));
  exportMenu->addAction(tr("Current tree as P&NG…"), this, [this] { exportInteractively(QStringLiteral("tree-png")); });
  exportMenu->addAction(tr("Current tree as S&VG…"), this, [this] { exportInteractively(QStringLiteral("tree-svg")); });
  exportMenu->addAction(tr("Current tree as &CSV…"), this, [this] { exportInteractively(QStringLiteral("tree-csv")); })
      ->setShortcut(QKeySequence(tr("Ctrl+Shift+C")));
  exportMenu->addSeparator();
  exportMenu->addAction(tr("Timeline as PNG…"), this, [this] { exportInteractively(QStringLiteral("timeline-png")); });
  exportMenu->addAction(tr("Timeline as SVG…"), this, [this] { exportInteractively(QStringLiteral("timeline-svg")); });
  exportMenu->addAction(tr("Visible wait states as CSV…"), this,
                        [this] { exportInteractively(QStringLiteral("timeline-csv")); });
  exportMenu->addAction(tr("Critical-path profile as CSV…"), this,
                        [this] { exportInteractively(QStringLiteral("critical-path-csv")); });
  file->addSeparator();
  file->addAction(tr("&Close Report"), this, [this] {
    live_->stop();
    showReport(nullptr);
  })->setShortcut(QKeySequence(tr("Ctrl+W")));
  file->addAction(tr("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence(tr("Ctrl+Q")));

  QMenu* view = menuBar()->addMenu(tr("&View"));
  QMenu* modes = view->addMenu(tr("Value &Mode"));
  modeGroup_ = new QActionGroup(this);
  int key = Qt::Key_1;
  for (const views::ValueMode mode : {views::ValueMode::Absolute, views::ValueMode::PercentOfTotal,
                                      views::ValueMode::PercentOfSelection, views::ValueMode::PeerPercent}) {
    QAction* action = modes->addAction(views::modeName(mode), this, [this, mode] { selection_->setMode(mode); });
    action->setCheckable(true);
    action->setChecked(mode == selection_->mode());
    action->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(key++)));
    action->setData(static_cast<int>(mode));
    modeGroup_->addAction(action);
  }
  connect(selection_, &views::Selection::modeChanged, this, [this] {
    for (QAction* a : modeGroup_->actions()) a->setChecked(a->data().toInt() == static_cast<int>(selection_->mode()));
  });
  // While comparing: which run the colour boxes, sorting and charts show (Ctrl+Alt+1..3).
  QMenu* compareMenu = view->addMenu(tr("&Compared Run"));
  compareGroup_ = new QActionGroup(this);
  int compareKey = Qt::Key_1;
  for (const views::CompareView run : views::kCompareViews) {
    QAction* action =
        compareMenu->addAction(views::compareViewName(run), this, [this, run] { selection_->setCompareView(run); });
    action->setCheckable(true);
    action->setChecked(run == selection_->compareView());
    action->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | static_cast<Qt::Key>(compareKey++)));
    action->setData(static_cast<int>(run));
    compareGroup_->addAction(action);
  }
  connect(selection_, &views::Selection::compareViewChanged, this, [this] {
    for (QAction* a : compareGroup_->actions())
      a->setChecked(a->data().toInt() == static_cast<int>(selection_->compareView()));
  });
  flatAction_ = view->addAction(tr("&Flat Profile (by Region)"), this, [this](bool on) { browser_->setFlatProfile(on); });
  flatAction_->setCheckable(true);
  flatAction_->setShortcut(QKeySequence(tr("Ctrl+L")));
  connect(browser_, &views::ReportBrowser::flatProfileChanged, flatAction_, &QAction::setChecked);
  sortAction_ = view->addAction(tr("&Sort by Value"), this, [this](bool on) {
    for (views::TreePane* pane : {browser_->metricPane(), browser_->callPane(), browser_->systemPane()})
      pane->setSortByValue(on);
  });
  sortAction_->setCheckable(true);
  sortAction_->setShortcut(QKeySequence(tr("Ctrl+Shift+S")));
  view->addAction(tr("&Hide Small Values…"), this, [this] {
    bool ok = false;
    const double percent = QInputDialog::getDouble(this, tr("Hide small values"),
                                                   tr("Hide items below this share of the largest value (%):"),
                                                   selection_->threshold(), 0.0, 100.0, 2, &ok);
    if (ok) selection_->setThreshold(percent);
  })->setShortcut(QKeySequence(tr("Ctrl+T")));
  QAction* chartsSorted = view->addAction(tr("Charts Sorted by &Value"), this,
                                          [this](bool on) { browser_->chartPane()->setSorted(on); });
  chartsSorted->setCheckable(true);
  view->addSeparator();
  view->addAction(tr("&Find…"), this, [this] {
    browser_->activePane()->searchField()->setFocus();
    browser_->activePane()->searchField()->selectAll();
  })->setShortcut(QKeySequence(tr("Ctrl+F")));
  view->addAction(tr("Find &Next"), this, [this] {
    views::TreePane* pane = browser_->activePane();
    pane->find(pane->searchField()->text());
  })->setShortcut(QKeySequence(tr("F3")));
  view->addAction(tr("Find &Previous"), this, [this] {
    views::TreePane* pane = browser_->activePane();
    pane->find(pane->searchField()->text(), true);
  })->setShortcut(QKeySequence(tr("Shift+F3")));
  view->addAction(tr("Expand &Hot Path"), this, [this] { browser_->activePane()->expandHotPath(); })
      ->setShortcut(QKeySequence(tr("Ctrl+H")));

  view->addSeparator();
  QAction* editor = view->addAction(tr("Open in &Editor"), this, [this] {
    const QString error = openSelectionInEditor();
    if (!error.isEmpty() && interactive_) QMessageBox::warning(this, tr("Open in editor"), error);
  });
  editor->setShortcut(QKeySequence(tr("Ctrl+E")));
  browser_->callPane()->view()->addAction(editor);  // in the pane's context menu
  view->addAction(tr("Choose E&ditor…"), this, &MainWindow::chooseEditor);
  view->addAction(findChild<QDockWidget*>(QStringLiteral("sourceDock"))->toggleViewAction());
  view->addAction(findChild<QDockWidget*>(QStringLiteral("timelineDock"))->toggleViewAction());
  view->addAction(findChild<QDockWidget*>(QStringLiteral("compareTimelinesDock"))->toggleViewAction());
  view->addAction(findChild<QDockWidget*>(QStringLiteral("criticalPathDock"))->toggleViewAction());
  view->addAction(findChild<QDockWidget*>(QStringLiteral("assessmentDock"))->toggleViewAction());
  view->addAction(findChild<QDockWidget*>(QStringLiteral("communicationMatrixDock"))->toggleViewAction());
  view->addAction(tr("Timeline &Colours…"), this, &MainWindow::editTimelineColors);
  QMenu* layers = view->addMenu(tr("Timeline &Layers"));
  layers->setObjectName(QStringLiteral("timelineLayersMenu"));
  for (QAction* layer : timelinePane_->layerActions()) layers->addAction(layer);
  view->addAction(findChild<views::TimeFilterBar*>()->filterAction());
  view->addAction(findChild<views::TimeFilterBar*>()->clearAction());
  view->addSeparator();
  view->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&User Guide"), this, [this] {
    const QString error = openUserGuide();
    if (!error.isEmpty()) QMessageBox::warning(this, tr("User Guide"), error);
  })->setShortcut(QKeySequence(tr("F1")));
  help->addAction(tr("&Keyboard Shortcuts"), this, [this] { showKeyboardShortcuts()->show(); });
  help->addAction(tr("&About Waitscope"), this, [this] {
    QMessageBox::about(this, tr("About Waitscope"),
                       tr("<b>Waitscope %1</b><p>Finds, explains and shows wait states in MPI programs, "
                          "including MPI one-sided communication.</p>")
                           .arg(QApplication::applicationVersion()));
  });
  updateRecentMenu();
}

launch::AnalyzeDialog* MainWindow::showAnalyzeDialog() {
  // One dialog, kept while the window lives: a running analysis survives closing it.
  if (!analyzeDialog_) {
    analyzeDialog_ = new launch::AnalyzeDialog(launch::ProfileStore(), this);
    connect(analyzeDialog_, &launch::AnalyzeDialog::reportReady, this, &MainWindow::openReport);
  }
  analyzeDialog_->show();
  analyzeDialog_->raise();
  return analyzeDialog_;
}

void MainWindow::openReport(const QString& path) {
  live_->stop();  // another report replaces the live run's
  setLoadingUi(true);
  statusBar()->showMessage(tr("Loading %1…").arg(path));
  loader_->load(path);
}

void MainWindow::showReport(views::ReportDataPtr report) {
  flatAction_->setChecked(false);
  browser_->setFlatProfile(false);
  selection_->setReport(std::move(report));
  timelinePane_->details()->clearDetails();
  if (selection_->report()) {
    setTimelineNotice(tr("Opening the timeline (the first time, its index is built from the trace)…"));
    timelineLoader_->load(selection_->report());
  } else {
    setTimelineNotice(tr("Open a report to see its timeline."));
  }
  updateTitle();
  updateStatus();
}

void MainWindow::openComparison(const QString& pathB) {
  const views::ComparisonDataPtr& comparing = selection_->comparison();
  const views::ReportDataPtr a = comparing ? comparing->originalA() : selection_->report();
  if (!a) {
    onFailed(tr("%1: open the report to compare it with first (File > Open); it becomes run A").arg(pathB));
    return;
  }
  live_->stop();  // a comparison holds still
  setLoadingUi(true);
  statusBar()->showMessage(tr("Comparing with %1…").arg(pathB));
  loader_->compare(a, pathB);
}

void MainWindow::showComparison(views::ComparisonDataPtr comparison) {
  if (!comparison) return closeComparison();
  flatAction_->setChecked(false);
  browser_->setFlatProfile(false);
  // The trees show aligned runs whose numbering is not the trace's: the timeline shows none.
  timelinePane_->details()->clearDetails();
  timelinePane_->view()->setData(nullptr, nullptr);
  setTimelineNotice(tr("Comparing two runs: the timeline shows one run. File > Close Comparison shows run A's; "
                       "View > Compare Timelines shows both, stacked."));
  const QString pathA = comparison->pathA(), pathB = comparison->pathB();
  selection_->setComparison(std::move(comparison));
  updateTitle();
  updateStatus();
  emit comparisonOpened(pathA, pathB);
}

void MainWindow::showComparedTimelines(const QString& pathA, const QString& pathB) {
  const QString opening = tr("opening the timeline (the first time, its index is built from the trace)…");
  comparedTimelines_->setRuns({ComparisonTimelineLoader::runLabel(QStringLiteral("A"), pathA), nullptr, nullptr, opening},
                              {ComparisonTimelineLoader::runLabel(QStringLiteral("B"), pathB), nullptr, nullptr, opening});
  comparedTimelinesLoader_->load(pathA, pathB);
  auto* dock = findChild<QDockWidget*>(QStringLiteral("compareTimelinesDock"));
  dock->show();
  dock->raise();
  resizeDocks({dock}, {height() * 2 / 5}, Qt::Vertical);  // the trees keep the rest
}

void MainWindow::closeComparison() {
  if (const views::ComparisonDataPtr comparison = selection_->comparison()) showReport(comparison->originalA());
}

void MainWindow::updateTitle() {
  const views::ComparisonDataPtr& comparison = selection_->comparison();
  if (comparison) {
    setWindowTitle(QStringLiteral("%1 vs %2 (%3) — Waitscope")
                       .arg(QFileInfo(comparison->pathA()).fileName(), QFileInfo(comparison->pathB()).fileName(),
                            views::compareViewName(selection_->compareView())));
  } else {
    // The report's name and where its trace is (else the report's folder): reports of
    // different runs often share a name (traces.waitscope).
    const views::ReportDataPtr& report = selection_->report();
    QString where;
    if (report) {
      const QString trace = TimelineLoader::tracePathOf(*report);
      where = QDir::toNativeSeparators(QFileInfo(trace.isEmpty() ? report->path() : trace).absolutePath());
      const QString home = QDir::toNativeSeparators(QDir::homePath());
      if (where == home || where.startsWith(home + QDir::separator())) where = QStringLiteral("~") + where.mid(home.size());
    }
    setWindowTitle(report ? QStringLiteral("%1 (%2) — Waitscope").arg(QFileInfo(report->path()).fileName(), where)
                          : QStringLiteral("Waitscope"));
  }
  compareAction_->setEnabled(selection_->report() != nullptr);
  closeComparisonAction_->setEnabled(comparison != nullptr);
  for (QAction* a : compareGroup_->actions()) a->setEnabled(comparison != nullptr);
}

void MainWindow::updateReportInPlace(views::ReportDataPtr report) {
  if (!selection_->report() || !report || selection_->comparison()) return showReport(std::move(report));
  browser_->updateReport(std::move(report));
  updateStatus();
}

void MainWindow::onLoaded(views::ReportDataPtr report) {
  setLoadingUi(false);
  statusBar()->clearMessage();
  addRecentFile(report->path());
  showReport(std::move(report));
  emit reportLoaded();
}

void MainWindow::onFailed(const QString& message) {
  setLoadingUi(false);
  statusBar()->showMessage(message, 10000);
  if (interactive_) QMessageBox::critical(this, tr("Cannot open report"), message);
  emit loadFailed(message);
}

void MainWindow::setLoadingUi(bool loading) {
  progress_->setVisible(loading);
  cancel_->setVisible(loading);
}

void MainWindow::updateStatus() {
  const views::ReportDataPtr& report = selection_->report();
  if (!report) {
    summary_->setText(tr("No report — File > Open or drop a .waitscope file here"));
    timeCorrection_->clear();
    timeCorrection_->hide();
    unanalyzed_->clear();
    unanalyzed_->hide();
    return;
  }
  const report::Report& r = report->report();
  // The ranks are the processes; a hybrid run's threads and GPU streams belong to them.
  const std::size_t ranks = r.processCount(), others = r.locations.size() - ranks;
  QString locations = ranks == 1 ? tr("1 rank") : tr("%1 ranks").arg(ranks);
  if (others > 0) locations += others == 1 ? tr(" (+1 thread or stream)") : tr(" (+%1 threads and streams)").arg(others);
  summary_->setText(tr("%1 · %2 call paths · %3 metrics").arg(locations).arg(r.callPaths.size()).arg(r.metrics.size()));
  // Hybrid runs: which paradigms' locations carry time metrics only (no wait-state analysis).
  const QString unanalyzed = QString::fromStdString(r.metaValue("unanalyzed_paradigms"));
  unanalyzed_->setText(unanalyzed);
  unanalyzed_->setVisible(!unanalyzed.isEmpty());
  // A comparison's aligned runs keep A's meta: the line is about the report shown.
  const QString correction = selection_->comparison() ? QString() : timeCorrectionStatus(r);
  timeCorrection_->setText(correction);
  timeCorrection_->setVisible(!correction.isEmpty());
}

void MainWindow::addRecentFile(const QString& path) {
  recent_.removeAll(path);
  recent_.prepend(path);
  while (recent_.size() > kMaxRecent) recent_.removeLast();
  updateRecentMenu();
  QSettings().setValue(QStringLiteral("recentFiles"), recent_);
}

QStringList MainWindow::recentFiles() const { return recent_; }

void MainWindow::updateRecentMenu() {
  recentMenu_->clear();
  for (int i = 0; i < recent_.size(); ++i) {
    const QString path = recent_[i];
    QAction* action = recentMenu_->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(path),
                                             this, [this, path] { openReport(path); });
    action->setToolTip(path);
  }
  recentMenu_->setEnabled(!recent_.isEmpty());
}

void MainWindow::restoreSettings() {
  QSettings settings;
  restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
  // The saved docks are as the user left them.
  if (restoreState(settings.value(QStringLiteral("window/state")).toByteArray())) sharedHeight_ = height();
  browser_->treeSplitter()->restoreState(settings.value(QStringLiteral("window/treeSplitter")).toByteArray());
  browser_->chartSplitter()->restoreState(settings.value(QStringLiteral("window/chartSplitter")).toByteArray());
  views::ValueMode mode = views::ValueMode::Absolute;
  if (views::modeFromKey(settings.value(QStringLiteral("view/mode")).toString(), &mode)) selection_->setMode(mode);
  recent_ = settings.value(QStringLiteral("recentFiles")).toStringList();
  updateRecentMenu();
}

void MainWindow::saveSettings() const {
  QSettings settings;
  settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("window/state"), saveState());
  settings.setValue(QStringLiteral("window/treeSplitter"), browser_->treeSplitter()->saveState());
  settings.setValue(QStringLiteral("window/chartSplitter"), browser_->chartSplitter()->saveState());
  settings.setValue(QStringLiteral("view/mode"), views::modeKey(selection_->mode()));
  settings.setValue(QStringLiteral("recentFiles"), recent_);
}

void MainWindow::resetLayout() {
  restoreState(defaultState_);
  sharedHeight_ = 0;  // the default state's docks are for a new window: share this one's height
  QTimer::singleShot(0, this, &MainWindow::shareHeightWithDocks);
  // Proportions as the browser starts: three equal trees, the charts a quarter of the height.
  browser_->treeSplitter()->setSizes({1, 1, 1});
  browser_->chartSplitter()->setSizes({540, 260});
  QSettings settings;
  for (const char* key : {"window/state", "window/treeSplitter", "window/chartSplitter"})
    settings.remove(QLatin1String(key));
}

QList<QPair<QString, QKeySequence>> MainWindow::keyboardShortcuts() const {
  // Read from the menus, so the list is never out of date.
  QList<QPair<QString, QKeySequence>> out;
  std::function<void(const QMenu*, const QString&)> walk = [&](const QMenu* menu, const QString& prefix) {
    for (QAction* action : menu->actions()) {
      const QString text = prefix + action->text().remove(QLatin1Char('&'));
      if (action->menu()) walk(action->menu(), text + QStringLiteral(" > "));
      else if (!action->shortcut().isEmpty()) out.push_back({text, action->shortcut()});
    }
  };
  for (QAction* top : menuBar()->actions())
    if (top->menu()) walk(top->menu(), top->text().remove(QLatin1Char('&')) + QStringLiteral(" > "));
  return out;
}

QDialog* MainWindow::showKeyboardShortcuts() {
  auto* dialog = new QDialog(this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setObjectName(QStringLiteral("keyboardShortcutsDialog"));
  dialog->setWindowTitle(tr("Keyboard Shortcuts"));
  const QList<QPair<QString, QKeySequence>> shortcuts = keyboardShortcuts();
  auto* table = new QTableWidget(static_cast<int>(shortcuts.size()), 2, dialog);
  table->setHorizontalHeaderLabels({tr("Action"), tr("Shortcut")});
  table->verticalHeader()->hide();
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  for (int row = 0; row < shortcuts.size(); ++row) {
    table->setItem(row, 0, new QTableWidgetItem(shortcuts[row].first));
    table->setItem(row, 1, new QTableWidgetItem(shortcuts[row].second.toString(QKeySequence::NativeText)));
  }
  table->resizeColumnsToContents();
  table->horizontalHeader()->setStretchLastSection(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
  connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
  auto* layout = new QVBoxLayout(dialog);
  layout->addWidget(table);
  layout->addWidget(buttons);
  dialog->resize(table->horizontalHeader()->length() + 60, 480);
  return dialog;
}

QString MainWindow::openUserGuide() {
  const QString path = findUserGuide();
  if (path.isEmpty()) return userGuideMissingMessage();
  if (!QDesktopServices::openUrl(QUrl::fromLocalFile(path)))
    return tr("%1: no application opens it here; open it in an editor or a Markdown viewer").arg(path);
  return {};
}

void MainWindow::closeEvent(QCloseEvent* event) {
  saveSettings();
  QMainWindow::closeEvent(event);
}

// Both once the layout has placed the docks and the status bar at the new size; the resize
// before the first show comes while the window is hidden.
void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  QTimer::singleShot(0, this, &MainWindow::shareHeightWithDocks);
}

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  QTimer::singleShot(0, this, &MainWindow::shareHeightWithDocks);
}

void MainWindow::shareHeightWithDocks() {
  if (height() == sharedHeight_ || !isVisible()) return;
  sharedHeight_ = height();
  const int share = std::max(height(), kStartHeight) * 2 / 5;
  for (QDockWidget* dock : findChildren<QDockWidget*>()) {
    // A tab behind another is moved out of the window: its visible region is empty.
    if (dockWidgetArea(dock) != Qt::BottomDockWidgetArea || dock->isFloating() || dock->visibleRegion().isEmpty())
      continue;
    // From the dock's top to the status bar: with the tabs below it, as resizeDocks counts.
    if (statusBar()->y() - dock->y() < share) resizeDocks({dock}, {share}, Qt::Vertical);
    return;
  }
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (urls.size() == 1 && urls.front().isLocalFile()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (urls.size() != 1 || !urls.front().isLocalFile()) return;
  openReport(urls.front().toLocalFile());
  event->acceptProposedAction();
}

QString MainWindow::exportWindowPng(const QString& path) { return views::exportPng(this, path); }
QString MainWindow::exportWindowSvg(const QString& path) { return views::exportSvg(this, path, windowTitle()); }

void MainWindow::exportInteractively(const QString& what) {
  const bool png = what.endsWith(QLatin1String("png"));
  const bool svg = what.endsWith(QLatin1String("svg"));
  const QString filter = png ? tr("PNG images (*.png)") : svg ? tr("SVG drawings (*.svg)") : tr("CSV tables (*.csv)");
  const QString path = QFileDialog::getSaveFileName(this, tr("Export"), QString(), filter);
  if (path.isEmpty()) return;
  views::TreePane* pane = browser_->activePane();
  QString error;
  if (what == QLatin1String("window-png")) error = exportWindowPng(path);
  else if (what == QLatin1String("window-svg")) error = exportWindowSvg(path);
  else if (what == QLatin1String("tree-png")) error = pane->exportPng(path);
  else if (what == QLatin1String("tree-svg")) error = pane->exportSvg(path);
  else if (what == QLatin1String("timeline-png")) error = timelineView()->exportPng(path);
  else if (what == QLatin1String("timeline-svg")) error = timelineView()->exportSvg(path);
  else if (what == QLatin1String("timeline-csv")) error = timelineView()->exportInstancesCsv(path);
  else if (what == QLatin1String("critical-path-csv")) error = exportCriticalPathCsv(path);
  else error = pane->exportCsv(path);
  if (error.isEmpty())
    statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
  else
    QMessageBox::warning(this, tr("Export failed"), error);
}

views::TimelineView* MainWindow::timelineView() const { return timelinePane_->view(); }

QString MainWindow::timelineNotice() const {
  return timelineStack_->currentIndex() == 0 ? findChild<QLabel*>(QStringLiteral("timelineNotice"))->text() : QString();
}

void MainWindow::setTimelineNotice(const QString& text) {
  findChild<QLabel*>(QStringLiteral("timelineNotice"))->setText(text);
  timelineStack_->setCurrentIndex(0);
}

bool MainWindow::loadTimelineNow() {
  const TimelineLoad result = TimelineLoader::loadNow(selection_->report());
  if (!result.source) {
    setTimelineNotice(result.error);
    return false;
  }
  if (!result.warning.isEmpty()) statusBar()->showMessage(result.warning);
  const views::ReportDataPtr& shown = selection_->report();
  timelinePane_->view()->setData(result.source, std::shared_ptr<const report::Report>(shown, &shown->report()));
  timelineStack_->setCurrentIndex(1);
  findChild<views::TimeWindowFilter*>()->setSource(result.source);
  findChild<views::CommunicationMatrixPane*>()->model()->setSource(result.source);
  return true;
}

void MainWindow::connectTimeline() {
  views::TimelineView* timeline = timelinePane_->view();
  connect(timelineLoader_, &TimelineLoader::loaded, this, [this](std::shared_ptr<timeline::SliceSource> source) {
    const views::ReportDataPtr& shown = selection_->report();
    if (!shown || selection_->comparison()) return;  // a comparison shows no timeline
    findChild<views::TimeWindowFilter*>()->setSource(source);
    findChild<views::CommunicationMatrixPane*>()->model()->setSource(source);
    timelinePane_->view()->setData(std::move(source), std::shared_ptr<const report::Report>(shown, &shown->report()));
    timelineStack_->setCurrentIndex(1);
    emit timelineReady();
  });
  connect(timelineLoader_, &TimelineLoader::failed, this, &MainWindow::setTimelineNotice);
  // The report was corrected but its clock-correction file cannot be used: one line, until the next message.
  connect(timelineLoader_, &TimelineLoader::warned, this, [this](const QString& line) { statusBar()->showMessage(line); });
  // Colours chosen by the user (View > Timeline Colours…).
  QSettings settings;
  for (int g = 0; g < static_cast<int>(timeline::kRegionGroupCount); ++g) {
    const QColor color(settings.value(QStringLiteral("timeline/color%1").arg(g)).toString());
    if (color.isValid()) timeline->setGroupColor(static_cast<timeline::RegionGroup>(g), color);
  }
}

void MainWindow::editTimelineColors() {
  QStringList names;
  for (int g = 0; g < static_cast<int>(timeline::kRegionGroupCount); ++g)
    names << views::groupLabel(static_cast<timeline::RegionGroup>(g));  // as the legend names them
  bool ok = false;
  const QString picked = QInputDialog::getItem(this, tr("Timeline colours"), tr("Colour of:"), names, 0, false, &ok);
  if (!ok) return;
  const int group = static_cast<int>(names.indexOf(picked));
  const QColor color = QColorDialog::getColor(
      timelinePane_->view()->colors().group(static_cast<timeline::RegionGroup>(group)), this, picked);
  if (!color.isValid()) return;
  timelinePane_->view()->setGroupColor(static_cast<timeline::RegionGroup>(group), color);
  QSettings().setValue(QStringLiteral("timeline/color%1").arg(group), color.name());
}

QString MainWindow::compareWithTraceAnalysis(const QString& traceReport) {
  const views::ReportDataPtr& shown = selection_->report();
  if (!shown) return tr("Open a wait-state profile (waitscope-run --profile) first.");
  const LoadResult trace = ReportLoader::loadNow(traceReport);
  if (!trace.report) return trace.error;
  std::vector<report::ComparisonRow> rows;
  try {
    rows = report::compareReports(shown->report(), trace.report->report(), 0.5);
  } catch (const std::exception& e) {
    return tr("%1 against %2: %3").arg(shown->path(), traceReport, QString::fromStdString(e.what()));
  }
  delete compareDialog_;
  compareDialog_ = new CompareDialog(rows, shown->path(), traceReport, this);
  compareDialog_->show();
  return {};
}

QString MainWindow::exportCriticalPathCsv(const QString& path) const {
  return views::writeTextFile(criticalPathPane_->toCsv(), path);
}

void MainWindow::findSourceRoot(const QString& recordedFile) {
  const QString found = QFileDialog::getOpenFileName(
      this, tr("Where is %1 on this machine?").arg(QFileInfo(recordedFile).fileName()), QString(),
      QFileInfo(recordedFile).fileName());
  if (found.isEmpty()) return;
  const auto root = report::sourceRootFor(recordedFile.toStdString(), found.toStdString());
  if (!root) {
    QMessageBox::warning(this, tr("Find source root"),
                         tr("%1 is not %2: pick the file with the same name.").arg(found, recordedFile));
    return;
  }
  sourcePane_->addSourceRoot(QString::fromStdString(root->from + "=" + root->to));
}

QString MainWindow::openSelectionInEditor() {
  QString recorded, local;
  int line = 0;
  QString error;
  if (!sourcePane_->selectedSource(&recorded, &local, &line))
    error = tr("Select one call path with a source location first.");
  else if (!QFileInfo::exists(local))
    error = tr("%1: not found on this machine; use \"Find Source Root…\" in the source pane").arg(recorded);
  else
    error = app::openInEditor(configuredEditorCommand(), local, line);
  statusBar()->showMessage(error.isEmpty() ? tr("Opened %1:%2").arg(local).arg(line) : error, 8000);
  return error;
}

void MainWindow::chooseEditor() {
  QStringList names;
  const QString current = configuredEditorCommand();
  int currentIndex = static_cast<int>(editorTemplates().size()) - 1;
  for (int i = 0; i < editorTemplates().size(); ++i) {
    const EditorTemplate& t = editorTemplates()[i];
    names << (t.command.isEmpty() ? t.name : QStringLiteral("%1 (%2)").arg(t.name, t.command));
    if (t.command == current) currentIndex = i;
  }
  // Say what was found here, so an unset choice is no surprise.
  const EditorTemplate* detected = detectedEditor();
  const QString found = detected ? tr("Installed here, and the default: %1.").arg(detected->name)
                                 : tr("No known editor was found on PATH.");
  bool ok = false;
  const QString picked = QInputDialog::getItem(this, tr("Editor"), tr("%1\nOpen source lines with:").arg(found), names,
                                               currentIndex, false, &ok);
  if (!ok) return;
  const EditorTemplate& chosen = editorTemplates()[names.indexOf(picked)];
  QString command = chosen.command;
  if (command.isEmpty()) {
    command = QInputDialog::getText(this, tr("Custom editor"),
                                    tr("Command (%f file, %l line, %c column; no shell):"), QLineEdit::Normal,
                                    current, &ok);
    if (!ok || command.trimmed().isEmpty()) return;
  }
  setConfiguredEditorCommand(command);
}

views::ScalingSeriesWindow* MainWindow::openScalingSeries(const QStringList& paths) {
  return app::openScalingSeries(paths, this);
}

void MainWindow::chooseAssessmentReference() {
  const QString path = QFileDialog::getOpenFileName(this, tr("The reference run (fewer processes)"), QString(),
                                                    tr("Reports (*.waitscope *.wsr *.cubex);;All files (*)"));
  if (path.isEmpty()) return;
  LoadResult loaded = ReportLoader::loadNow(path);
  if (!loaded.report) {
    QMessageBox::warning(this, tr("Reference run"), loaded.error);
    return;
  }
  assessmentPane_->setReference(std::move(loaded.report));
}

}  // namespace waitscope::app
