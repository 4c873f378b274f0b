// End to end: tests/apps/fence recorded with waitscope-run and analyzed with
// `mpiexec waitscope-analyze`, shown by the real `waitscope` under Xvfb (the
// call tree and the flat profile, exported as PNG and CSV) and by an in-process
// window on Xvfb's real X server at 1024x700 and 1600x1000: pictures not blank,
// no tree header cut, the flat profile without zero rows and sorted, the hot
// path of the metric tree inside Time, and the description of the selected
// pattern. The in-process part is this test run again under xvfb-run.
// WAITSCOPE_KEEP_PICTURES=1 keeps the folder of the pictures (it is printed).
#include <limits>

#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "app/main_window.h"
#include "app/report_loader.h"
#include "tests/gui/e2e/e2e_process.h"
#include "tests/gui/support/xvfb_screenshots.h"
#include "views/model/selection.h"
#include "views/model/value_tree_model.h"
#include "views/widgets/header_fit.h"
#include "views/widgets/metric_description_pane.h"
#include "views/widgets/report_browser.h"
#include "views/widgets/tree_pane.h"

using waitscope::test::binary;
using waitscope::test::colourCount;
using waitscope::test::kScreenSizes;
using waitscope::test::sizeText;
using namespace waitscope::views;

namespace {

constexpr char kInner[] = "WAITSCOPE_TREE_E2E_INNER";  // set in the run under xvfb-run: the folder of the report

}  // namespace

class TreeViewsE2eTest : public QObject {
  Q_OBJECT

  QTemporaryDir tmp_;
  QString dir_;

  QString report() const { return dir_ + QStringLiteral("/fence.waitscope"); }
  static bool inner() { return qEnvironmentVariableIsSet(kInner); }

 private slots:
  void initTestCase() {
    if (inner()) {
      dir_ = qEnvironmentVariable(kInner);
      return;
    }
    if (QStandardPaths::findExecutable(QStringLiteral("xvfb-run")).isEmpty())
      QFAIL("xvfb-run is missing: run scripts/setup.sh (it installs xvfb and xauth)");
    QVERIFY(tmp_.isValid());
    tmp_.setAutoRemove(!qEnvironmentVariableIsSet("WAITSCOPE_KEEP_PICTURES"));
    dir_ = tmp_.path();
    qInfo() << "pictures in" << dir_;
    QString output;
    QVERIFY2(waitscope::test::recordReport({binary(QStringLiteral("tests/apps/fence")), QStringLiteral("5"),
                                            QStringLiteral("0.02"), QStringLiteral("--late-put")},
                                           4, dir_ + QStringLiteral("/trace"), report(), &output),
             qPrintable(output));
  }

  void flatProfileFromTheRealBinary() {
    if (inner()) QSKIP("run by the outer test");
    for (const QSize& size : kScreenSizes) {
      const QString png = QStringLiteral("%1/cli-flat-%2.png").arg(dir_, sizeText(size));
      const QString csv = dir_ + QStringLiteral("/flat.csv");
      QVERIFY(waitscope::test::exportOnXvfb(binary(QStringLiteral("app/waitscope")),
                                            {report(), QStringLiteral("--flat"), QStringLiteral("--export-csv"), csv},
                                            size, png));
      const QImage image(png);
      QCOMPARE(image.size(), size);
      QVERIFY(colourCount(image) > 100);
      // The flat profile of Time: no zero rows, largest first; the file names its unit.
      QFile file(csv);
      QVERIFY(file.open(QIODevice::ReadOnly));
      const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
      QVERIFY(lines.size() >= 4);
      QCOMPARE(lines[1], QStringLiteral("depth,name,Value (s)"));
      double previous = std::numeric_limits<double>::infinity();
      for (int i = 2; i < lines.size(); ++i) {
        const double value = lines[i].section(QLatin1Char(','), 2).toDouble();
        QVERIFY2(value > 0.0, qPrintable(lines[i]));
        QVERIFY2(value <= previous, qPrintable(lines[i]));
        previous = value;
      }
    }
  }

  void treesOnXvfb() {
    if (!inner()) {
      QVERIFY(waitscope::test::runSelfOnXvfb(QStringLiteral("treesOnXvfb"), kInner, dir_));
      for (const QSize& size : kScreenSizes)
        for (const char* what : {"trees", "flat"})
          QVERIFY(QFileInfo::exists(QStringLiteral("%1/%2-%3.png").arg(dir_, QLatin1String(what), sizeText(size))));
      return;
    }
    QCOMPARE(QGuiApplication::platformName(), QStringLiteral("xcb"));
    for (const QSize& size : kScreenSizes) {
      waitscope::app::MainWindow window;
      QVERIFY(waitscope::test::showOnScreen(window, size));
      const waitscope::app::LoadResult loaded = waitscope::app::ReportLoader::loadNow(report());
      QVERIFY2(loaded.report, qPrintable(loaded.error));
      window.showReport(loaded.report);
      ReportBrowser* browser = window.browser();
      const auto& r = loaded.report->report();

      // The hot path of the metric tree stays in Time (Visits and Bytes are larger numbers).
      browser->metricPane()->selectNode(r.findMetric("time"));
      browser->metricPane()->expandHotPath();
      const std::uint32_t hot = window.selection()->metrics().front().node;
      QCOMPARE(loaded.report->metricTree().rootOf[hot], r.findMetric("time"));
      QCOMPARE(r.metrics[hot].unit, waitscope::report::MetricUnit::Seconds);
      // Wait at Fence: its description, the call tree, the system tree.
      QVERIFY(browser->selectMetric(QStringLiteral("mpi_rma_wait_at_fence")));
      QVERIFY(browser->descriptionPane()->isVisible());
      QVERIFY(browser->descriptionPane()->toPlainText().contains(QStringLiteral("What to change")));
      QTest::qWait(200);
      for (TreePane* pane : {browser->metricPane(), browser->callPane(), browser->systemPane()})
        QCOMPARE(elidedHeaderTexts(pane->view()->header()), QStringList());
      QImage picture = window.grab().toImage();
      QVERIFY(colourCount(picture) > 100);
      QVERIFY(picture.save(QStringLiteral("%1/trees-%2.png").arg(dir_, sizeText(size))));

      // The flat profile: only regions that wait at fences, the largest first, the pick kept.
      browser->callPane()->expandHotPath();  // a call of MPI_Win_fence: its region has a value
      const std::uint32_t fenceRegion = r.callPaths[window.selection()->callPaths().front().node].region;
      browser->setFlatProfile(true);
      QCOMPARE(window.selection()->callPaths(), (TreePicks{{fenceRegion, true}}));
      const QAbstractItemModel* rows = browser->callPane()->view()->model();
      QVERIFY(rows->rowCount() > 0);
      for (int i = 0; i < rows->rowCount(); ++i) {
        QVERIFY(rows->index(i, 0).data(ValueTreeModel::InclusiveValueRole).toDouble() > 0.0);
        if (i > 0)
          QVERIFY(rows->index(i - 1, 0).data(ValueTreeModel::InclusiveValueRole).toDouble() >=
                  rows->index(i, 0).data(ValueTreeModel::InclusiveValueRole).toDouble());
      }
      QVERIFY(!window.selection()->callPaths().empty());
      browser->callPane()->selectNode(
          ValueTreeModel::nodeOf(static_cast<const QSortFilterProxyModel*>(rows)->mapToSource(rows->index(0, 0))));
      QTest::qWait(200);
      for (TreePane* pane : {browser->metricPane(), browser->callPane(), browser->systemPane()})
        QCOMPARE(elidedHeaderTexts(pane->view()->header()), QStringList());
      picture = window.grab().toImage();
      QVERIFY(colourCount(picture) > 100);
      QVERIFY(picture.save(QStringLiteral("%1/flat-%2.png").arg(dir_, sizeText(size))));
    }
  }
};

QTEST_MAIN(TreeViewsE2eTest)
#include "tree_views_e2e_test.moc"
