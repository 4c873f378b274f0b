#include "main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTreeView>

#include "model/selection.h"
#include "model/value_tree_model.h"
#include "report_loader.h"
#include "widgets/chart_pane.h"
#include "widgets/report_browser.h"
#include "widgets/tree_pane.h"
#include "widgets/widget_export.h"

namespace waitscope::app {
namespace {
constexpr int kMaxRecent = 10;
}

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      selection_(new views::Selection(this)),
      browser_(new views::ReportBrowser(selection_, this)),
      loader_(new ReportLoader(this)) {
  setObjectName(QStringLiteral("mainWindow"));
  setWindowTitle(QStringLiteral("Waitscope"));
  setAcceptDrops(true);
  setCentralWidget(browser_);
  resize(1280, 800);

  summary_ = new QLabel(this);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 0);  // a report is read in one step: a busy indicator
  progress_->setMaximumWidth(160);
  cancel_ = new QPushButton(tr("Cancel"), this);
  statusBar()->addPermanentWidget(summary_);
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(cancel_);
  setLoadingUi(false);

  connect(cancel_, &QPushButton::clicked, loader_, &ReportLoader::cancel);
  connect(loader_, &ReportLoader::loaded, this, &MainWindow::onLoaded);
  connect(loader_, &ReportLoader::failed, this, &MainWindow::onFailed);
  connect(loader_, &ReportLoader::cancelled, this, [this] {
    setLoadingUi(false);
    statusBar()->showMessage(tr("Loading cancelled"), 5000);
  });
  connect(selection_, &views::Selection::callPathsChanged, this, &MainWindow::updateStatus);
  connect(selection_, &views::Selection::metricsChanged, this, &MainWindow::updateStatus);

  createActions();
  updateStatus();
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
  open->setShortcut(QKeySequence::Open);
  recentMenu_ = file->addMenu(tr("Open &Recent"));
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
  file->addSeparator();
  file->addAction(tr("&Close Report"), this, [this] { showReport(nullptr); })->setShortcut(QKeySequence::Close);
  file->addAction(tr("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence::Quit);

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
  flatAction_ = view->addAction(tr("&Flat Profile (by Region)"), this, [this](bool on) { browser_->setFlatProfile(on); });
  flatAction_->setCheckable(true);
  flatAction_->setShortcut(QKeySequence(tr("Ctrl+L")));
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
  })->setShortcut(QKeySequence::Find);
  view->addAction(tr("Find &Next"), this, [this] {
    views::TreePane* pane = browser_->activePane();
    pane->find(pane->searchField()->text());
  })->setShortcut(QKeySequence::FindNext);
  view->addAction(tr("Find &Previous"), this, [this] {
    views::TreePane* pane = browser_->activePane();
    pane->find(pane->searchField()->text(), true);
  })->setShortcut(QKeySequence::FindPrevious);
  view->addAction(tr("Expand &Hot Path"), this, [this] { browser_->activePane()->expandHotPath(); })
      ->setShortcut(QKeySequence(tr("Ctrl+H")));

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About Waitscope"), this, [this] {
    QMessageBox::about(this, tr("About Waitscope"),
                       tr("<b>Waitscope %1</b><p>Finds, explains and shows wait states in MPI programs, "
                          "including MPI one-sided communication.</p>")
                           .arg(QApplication::applicationVersion()));
  });
  updateRecentMenu();
}

void MainWindow::openReport(const QString& path) {
  setLoadingUi(true);
  statusBar()->showMessage(tr("Loading %1…").arg(path));
  loader_->load(path);
}

void MainWindow::showReport(views::ReportDataPtr report) {
  flatAction_->setChecked(false);
  browser_->setFlatProfile(false);
  selection_->setReport(std::move(report));
  setWindowTitle(selection_->report()
                     ? QStringLiteral("%1 — Waitscope").arg(QFileInfo(selection_->report()->path()).fileName())
                     : QStringLiteral("Waitscope"));
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
    return;
  }
  const report::Report& r = report->report();
  summary_->setText(tr("%1 locations · %2 call paths · %3 metrics")
                        .arg(r.locations.size())
                        .arg(r.callPaths.size())
                        .arg(r.metrics.size()));
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
  restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
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

void MainWindow::closeEvent(QCloseEvent* event) {
  saveSettings();
  QMainWindow::closeEvent(event);
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

QString MainWindow::exportTreeCsv(views::TreePane* pane, const QString& path) {
  return views::writeTextFile(pane->toCsv(), path);
}
QString MainWindow::exportTreePng(views::TreePane* pane, const QString& path) { return views::exportPng(pane, path); }
QString MainWindow::exportTreeSvg(views::TreePane* pane, const QString& path) {
  return views::exportSvg(pane, path, windowTitle());
}

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
  else if (what == QLatin1String("tree-png")) error = exportTreePng(pane, path);
  else if (what == QLatin1String("tree-svg")) error = exportTreeSvg(pane, path);
  else error = exportTreeCsv(pane, path);
  if (error.isEmpty())
    statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
  else
    QMessageBox::warning(this, tr("Export failed"), error);
}

}  // namespace waitscope::app
