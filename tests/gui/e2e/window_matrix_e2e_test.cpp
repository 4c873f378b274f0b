// End to end: a run of tests/apps/fence on 4 processes (late puts), recorded
// with waitscope-run and analyzed with `mpiexec waitscope-analyze`, restricted
// to a time window by the real `waitscope REPORT --time-window T0:T1` under
// Xvfb (PNG at 1024x700 and 1600x1000, the call tree as CSV equal to the
// window computation of analysis/timeline/time_window_profile.h), and by an
// in-process window on Xvfb's X server: View > Filter to Timeline Window on
// the zoomed timeline, the status-bar indicator, the trees' values, headers not
// cut, and Esc back to the whole run. The communication matrix of the same run
// likewise: `--view matrix` (PNG at both sizes, CSV equal to the matrix
// computation of analysis/timeline/communication_matrix.h) and its dock in the
// window on Xvfb.
#include <algorithm>
#include <cmath>

#include <QAction>
#include <QDockWidget>
#include <QTableView>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "analysis/report/report_io.h"
#include "analysis/timeline/communication_matrix.h"
#include "analysis/timeline/time_window_profile.h"
#include "app/main_window.h"
#include "tests/gui/e2e/e2e_process.h"
#include "tests/gui/support/xvfb_screenshots.h"
#include "views/model/communication_matrix_model.h"
#include "views/model/selection.h"
#include "views/model/time_window_filter.h"
#include "views/model/value_tree_model.h"
#include "views/widgets/communication_matrix_pane.h"
#include "views/widgets/header_fit.h"
#include "views/widgets/report_browser.h"
#include "views/widgets/time_filter_bar.h"
#include "views/widgets/tree_pane.h"

using waitscope::test::binary;
using waitscope::test::colourCount;
using waitscope::test::kScreenSizes;
using waitscope::test::sizeText;

namespace {

constexpr char kInner[] = "WAITSCOPE_WINDOW_MATRIX_E2E_INNER";  // set in the run under xvfb-run: the folder
constexpr char kMetric[] = "mpi_rma_wait_at_fence";

struct Expected {
  double from = 0.0, to = 0.0;
  double whole = 0.0;   // the metric (inclusive) over the whole run
  double window = 0.0;  // the same in [from, to]
  bool available = false;
};

// The metric's inclusive total in a report: every row of it and of the metrics below it.
double inclusiveTotal(const waitscope::report::Report& r, std::uint32_t metric) {
  double sum = 0.0;
  for (const auto& row : r.severities) {
    std::uint32_t m = row.metric;
    while (m != waitscope::report::kNoId && m != metric) m = r.metrics[m].parent;
    if (m != metric) continue;
    for (double v : row.values) sum += v;
  }
  return sum;
}

// The window computation on the report and its trace. The window holds part of the metric's wait
// states by construction: from the first one's start to the middle of the span they cover (a
// fixed share of the run can fall between them when a loaded machine stretches MPI_Init or
// MPI_Finalize).
Expected expected(const QString& reportPath) {
  const waitscope::report::Report r = waitscope::report::readReport(reportPath.toStdString());
  const waitscope::timeline::TimelineIndex index =
      waitscope::timeline::buildTimelineIndex(r.metaValue("trace"), r);
  const std::uint32_t m = r.findMetric(kMetric);
  double first = index.end, last = index.begin;
  for (const waitscope::report::Instance& i : r.instances) {
    std::uint32_t under = i.metric;
    while (under != waitscope::report::kNoId && under != m) under = r.metrics[under].parent;
    if (under != m || !(i.end > i.start)) continue;
    first = std::min(first, i.start);
    last = std::max(last, i.end);
  }
  Expected e;
  e.from = first < last ? first : index.begin + (index.end - index.begin) / 4;
  e.to = first < last ? first + (last - first) / 2 : index.begin + (index.end - index.begin) / 2;
  const waitscope::timeline::TimeWindowProfiler profiler(r, index);
  e.available = profiler.available()[m] && profiler.available()[r.findMetric("time")];
  e.whole = inclusiveTotal(r, m);
  e.window = inclusiveTotal(profiler.restrict(e.from, e.to).report, m);
  return e;
}

// The bytes matrix of the whole run, computed here from the report and its trace.
waitscope::timeline::CommunicationMatrix expectedMatrix(const QString& reportPath) {
  const waitscope::report::Report r = waitscope::report::readReport(reportPath.toStdString());
  const waitscope::timeline::TimelineIndex index = waitscope::timeline::buildTimelineIndex(r.metaValue("trace"), r);
  return waitscope::timeline::communicationMatrix(index, r, {});
}

bool near(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

// The real binary on `report` with `arguments` on Xvfb: its window at `size`, exported to `png`.
bool exportOnXvfb(const QString& report, const QStringList& arguments, const QSize& size, const QString& png) {
  return waitscope::test::exportOnXvfb(binary(QStringLiteral("app/waitscope")), QStringList{report} + arguments, size,
                                       png);
}

}  // namespace

class WindowMatrixE2eTest : public QObject {
  Q_OBJECT

  QTemporaryDir tmp_;
  QString dir_;
  QString report() const { return dir_ + QStringLiteral("/fence.waitscope"); }
  static bool inner() { return qEnvironmentVariableIsSet(kInner); }

  // Shows `window` at `size` with the report open and its timeline loaded.
  bool openWithTimeline(waitscope::app::MainWindow& window, const QSize& size) const {
    if (!waitscope::test::showOnScreen(window, size)) return false;
    QSignalSpy timeline(&window, &waitscope::app::MainWindow::timelineReady);
    window.openReport(report());
    return timeline.wait(60000);
  }

 private slots:
  void initTestCase() {
    if (inner()) {
      dir_ = qEnvironmentVariable(kInner);
      return;
    }
    if (QStandardPaths::findExecutable(QStringLiteral("xvfb-run")).isEmpty())
      QFAIL("xvfb-run is missing: run scripts/setup.sh (it installs xvfb and xauth)");
    QVERIFY(tmp_.isValid());
    dir_ = tmp_.path();
    QString output;
    QVERIFY2(waitscope::test::recordReport({binary(QStringLiteral("tests/apps/fence")), QStringLiteral("8"),
                                            QStringLiteral("0.02"), QStringLiteral("--late-put")},
                                           4, dir_ + QStringLiteral("/trace"), report(), &output),
             qPrintable(output));
  }

  void wholeTraceCheckAcceptsTheAnalyzersReport() {
    if (inner()) QSKIP("run by the outer test");
    const Expected e = expected(report());
    QVERIFY(e.available);           // the analyzer's values are what the index reproduces
    QVERIFY(e.whole > 0.05);        // 8 fences after late puts on 4 ranks
    QVERIFY(e.window > 0.0 && e.window < e.whole);
  }

  void timeWindowFromTheRealBinary() {
    if (inner()) QSKIP("run by the outer test");
    const Expected e = expected(report());
    const QString window = QStringLiteral("%1:%2").arg(e.from, 0, 'g', 17).arg(e.to, 0, 'g', 17);
    for (const QSize& size : kScreenSizes) {
      const QString png = QStringLiteral("%1/cli-window-%2.png").arg(dir_, sizeText(size));
      const QString csv = dir_ + QStringLiteral("/window-calls.csv");
      QVERIFY(exportOnXvfb(report(),
                           {QStringLiteral("--time-window"), window, QStringLiteral("--select-metric"),
                            QLatin1String(kMetric), QStringLiteral("--export-csv"), csv},
                           size, png));
      const QImage image(png);
      QCOMPARE(image.size(), size);
      QVERIFY(colourCount(image) > 100);
      QFile file(csv);
      QVERIFY(file.open(QIODevice::ReadOnly));
      const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
      QVERIFY(lines.size() >= 3);
      QVERIFY2(lines[0].startsWith(QStringLiteral("# metric: Wait at Fence (seconds)")), qPrintable(lines[0]));
      // The call tree's roots (collapsed): the metric over every call path in the window.
      double roots = 0.0;
      for (const QString& line : lines.mid(2))
        if (line.startsWith(QStringLiteral("0,"))) roots += line.section(QLatin1Char(','), 2, 2).toDouble();
      QVERIFY2(near(roots, e.window), qPrintable(QStringLiteral("%1 against %2").arg(roots).arg(e.window)));
    }
    // Without the timeline (a report whose trace is gone) the window is refused in one line.
    QString output;
    int exitCode = 0;
    const QString copy = dir_ + QStringLiteral("/copy/fence.waitscope");
    QVERIFY(QDir().mkpath(dir_ + QStringLiteral("/copy")));
    waitscope::report::Report r = waitscope::report::readReport(report().toStdString());
    for (auto& [key, value] : r.meta)
      if (key == "trace") value = "/nonexistent/traces.otf2";
    waitscope::report::writeReport(r, copy.toStdString());
    QVERIFY(!waitscope::test::runProcess(binary(QStringLiteral("app/waitscope")),
                 {copy, QStringLiteral("--time-window"), window, QStringLiteral("--export-csv"),
                  dir_ + QStringLiteral("/none.csv"), QStringLiteral("--quit")},
                 QProcessEnvironment::systemEnvironment(), &output, &exitCode));
    QCOMPARE(exitCode, 1);
    QVERIFY2(output.startsWith(QStringLiteral("waitscope: --time-window needs the report's timeline")), qPrintable(output));
    QVERIFY(!QFileInfo::exists(dir_ + QStringLiteral("/none.csv")));
  }

  void filterInTheWindowOnXvfb() {
    if (!inner()) {
      QVERIFY(waitscope::test::runSelfOnXvfb(QStringLiteral("filterInTheWindowOnXvfb"), kInner, dir_));
      for (const QSize& size : kScreenSizes)
        QVERIFY(QFileInfo::exists(QStringLiteral("%1/window-filter-%2.png").arg(dir_, sizeText(size))));
      return;
    }
    QCOMPARE(QGuiApplication::platformName(), QStringLiteral("xcb"));
    const Expected e = expected(report());
    for (const QSize& size : kScreenSizes) {
      waitscope::app::MainWindow window;
      QVERIFY(openWithTimeline(window, size));
      waitscope::views::ReportBrowser* browser = window.browser();
      QVERIFY(browser->selectMetric(QLatin1String(kMetric)));
      const waitscope::views::ValueTreeModel* calls = browser->callModel();
      const auto rootsValue = [calls] {
        double sum = 0.0;
        for (const std::uint32_t root : calls->tree()->roots) sum += calls->inclusiveValue(root);
        return sum;
      };
      QVERIFY(near(rootsValue(), e.whole));

      // Zoom the timeline to the window, then View > Filter to Timeline Window.
      waitscope::views::Selection* selection = window.selection();
      selection->setTimeWindow(e.from, e.to);
      auto* bar = window.findChild<waitscope::views::TimeFilterBar*>();
      QVERIFY(bar && bar->isHidden());
      QVERIFY(bar->filterAction()->isEnabled());
      QSignalSpy applied(window.findChild<waitscope::views::TimeWindowFilter*>(),
                         &waitscope::views::TimeWindowFilter::applied);
      bar->filterAction()->trigger();
      QVERIFY(applied.wait(30000));
      QTest::qWait(200);
      QCOMPARE(selection->filterStart(), e.from);
      QVERIFY(selection->report()->timeWindow());
      QVERIFY2(near(rootsValue(), e.window), qPrintable(QStringLiteral("%1 against %2").arg(rootsValue()).arg(e.window)));
      QVERIFY(bar->isVisible());
      QVERIFY2(bar->text().contains(QStringLiteral("values of this window only")), qPrintable(bar->text()));
      auto* label = bar->findChild<QLabel*>(QStringLiteral("timeFilterLabel"));
      QVERIFY2(label->width() >= label->sizeHint().width(), "the indicator is cut");
      for (waitscope::views::TreePane* pane : {browser->metricPane(), browser->callPane(), browser->systemPane()})
        QCOMPARE(waitscope::views::elidedHeaderTexts(pane->view()->header()), QStringList());
      const QImage picture = window.grab().toImage();
      QCOMPARE(picture.size(), size * window.devicePixelRatio());
      QVERIFY(colourCount(picture) > 100);
      QVERIFY(picture.save(QStringLiteral("%1/window-filter-%2.png").arg(dir_, sizeText(size))));

      // Esc: the whole run again.
      window.activateWindow();
      QVERIFY(QTest::qWaitForWindowActive(&window));
      browser->callPane()->view()->setFocus();
      QTest::keyClick(browser->callPane()->view(), Qt::Key_Escape);
      QVERIFY(!selection->hasTimeFilter());
      QVERIFY(!selection->report()->timeWindow());
      QVERIFY(near(rootsValue(), e.whole));
      QVERIFY(bar->isHidden());
    }
  }

  void matrixFromTheRealBinary() {
    if (inner()) QSKIP("run by the outer test");
    const waitscope::timeline::CommunicationMatrix expected = expectedMatrix(report());
    using waitscope::timeline::MatrixQuantity;
    QCOMPARE(expected.size(), 4u);
    QVERIFY(expected.total(MatrixQuantity::Bytes) > 0.0);  // the fences' puts
    for (const QSize& size : kScreenSizes) {
      const QString png = QStringLiteral("%1/cli-matrix-%2.png").arg(dir_, sizeText(size));
      const QString csv = dir_ + QStringLiteral("/matrix");  // ".csv" is added
      QVERIFY(exportOnXvfb(report(),
                           {QStringLiteral("--view"), QStringLiteral("matrix"), QStringLiteral("--matrix"),
                            QStringLiteral("bytes"), QStringLiteral("--export-csv"), csv},
                           size, png));
      const QImage image(png);
      QCOMPARE(image.size(), size);
      QVERIFY(colourCount(image) > 20);
      QFile file(csv + QStringLiteral(".csv"));
      QVERIFY(file.open(QIODevice::ReadOnly));
      const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
      QCOMPARE(lines.size(), 6);
      QVERIFY2(lines[0].startsWith(QStringLiteral("# quantity: Bytes (bytes); kinds: point-to-point, RMA")),
               qPrintable(lines[0]));
      QCOMPARE(lines[1], QStringLiteral("sender\\receiver,Rank 0,Rank 1,Rank 2,Rank 3"));
      for (std::uint32_t row = 0; row < 4; ++row) {
        const QStringList cells = lines[2 + row].split(QLatin1Char(','));
        QCOMPARE(cells.size(), 5);
        for (std::uint32_t col = 0; col < 4; ++col)
          QCOMPARE(cells[1 + col].toDouble(), expected.value(MatrixQuantity::Bytes, row, col));
      }
    }
  }

  void matrixDockOnXvfb() {
    if (!inner()) {
      QVERIFY(waitscope::test::runSelfOnXvfb(QStringLiteral("matrixDockOnXvfb"), kInner, dir_));
      for (const QSize& size : kScreenSizes)
        QVERIFY(QFileInfo::exists(QStringLiteral("%1/window-matrix-%2.png").arg(dir_, sizeText(size))));
      return;
    }
    const waitscope::timeline::CommunicationMatrix expected = expectedMatrix(report());
    for (const QSize& size : kScreenSizes) {
      waitscope::app::MainWindow window;
      QVERIFY(openWithTimeline(window, size));
      auto* dock = window.findChild<QDockWidget*>(QStringLiteral("communicationMatrixDock"));
      QVERIFY(dock);
      dock->show();
      dock->raise();
      QTest::qWait(200);
      auto* pane = window.findChild<waitscope::views::CommunicationMatrixPane*>();
      QVERIFY(pane->isVisible());
      const waitscope::views::CommunicationMatrixModel* model = pane->model();
      QCOMPARE(model->rowCount(), 4);
      QCOMPARE(model->index(0, 1).data(waitscope::views::CommunicationMatrixModel::ValueRole).toDouble(),
               expected.value(waitscope::timeline::MatrixQuantity::Bytes, 0, 1));
      QCOMPARE(waitscope::views::elidedHeaderTexts(pane->table()->horizontalHeader()), QStringList());
      QVERIFY(pane->descriptionLabel()->text().startsWith(QStringLiteral("quantity: Bytes (bytes)")));
      const QImage picture = window.grab().toImage();
      QVERIFY(colourCount(picture) > 100);
      QVERIFY(picture.save(QStringLiteral("%1/window-matrix-%2.png").arg(dir_, sizeText(size))));
    }
  }
};

QTEST_MAIN(WindowMatrixE2eTest)
#include "window_matrix_e2e_test.moc"
