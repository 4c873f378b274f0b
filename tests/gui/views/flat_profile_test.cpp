// The flat profile (View > Flat Profile, Ctrl+L) as Cube's flat view: only the
// regions the selected metric has a value in, largest first; the picks go along
// when toggling, and the chart says what it shows. sampleReport() plus a region
// nothing calls (MPI_Send), with Visits selected: MPI_Recv 6, main 3, foo 0.
#include <QAbstractItemModelTester>
#include <QChart>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "analysis/report/report_io.h"
#include "app/main_window.h"
#include "tests/gui/support/opened_window.h"
#include "tests/gui/views/sample_report.h"
#include "views/model/selection.h"
#include "views/widgets/chart_pane.h"
#include "views/widgets/report_browser.h"
#include "views/widgets/tree_pane.h"

using namespace waitscope;
using namespace waitscope::views;
using namespace waitscope::test;
using waitscope::app::MainWindow;

namespace {
constexpr std::uint32_t kRegionMain = 0, kRegionRecv = 1, kRegionFoo = 2;
}

class FlatProfileTest : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString reportPath_;

  std::unique_ptr<MainWindow> openedWindow() { return test::openedWindow(reportPath_); }

  static std::vector<QString> shownRows(TreePane* pane) {
    std::vector<QString> out;
    const QAbstractItemModel* model = pane->view()->model();
    for (int r = 0; r < model->rowCount(); ++r) out.push_back(model->index(r, 0).data().toString());
    return out;
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    report::Report r = sampleReport();
    r.regions.push_back({"MPI_Send", "", 0, 0, "mpi"});  // defined, never called
    reportPath_ = dir_.filePath(QStringLiteral("flat.waitscope"));
    report::writeReport(r, reportPath_.toStdString());
  }

  void listsTheRegionsWithAValueLargestFirst() {
    auto window = openedWindow();
    ReportBrowser* browser = window->browser();
    QAbstractItemModelTester tester(browser->callPane()->view()->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(browser->selectMetric(QStringLiteral("visits")));
    browser->setFlatProfile(true);
    // Visits: MPI_Recv 3 x 2 = 6, main 3 x 1 = 3; foo and MPI_Send have none.
    QCOMPARE(shownRows(browser->callPane()),
             (std::vector<QString>{QStringLiteral("MPI_Recv"), QStringLiteral("main")}));
    // Another metric: the rows follow. MPI: only MPI_Recv has a value.
    QVERIFY(browser->selectMetric(QStringLiteral("mpi")));
    QCOMPARE(shownRows(browser->callPane()), (std::vector<QString>{QStringLiteral("MPI_Recv")}));
    // Back to the call tree: every call path, in the tree's order.
    browser->setFlatProfile(false);
    QCOMPARE(shownRows(browser->callPane()), (std::vector<QString>{QStringLiteral("main")}));
    QCOMPARE(browser->callPane()->view()->model()->rowCount(browser->callPane()->view()->model()->index(0, 0)), 2);
  }

  void keepsTheSelectionWhenToggling() {
    auto window = openedWindow();
    ReportBrowser* browser = window->browser();
    QVERIFY(browser->selectMetric(QStringLiteral("visits")));
    QVERIFY(browser->selectCallPath(QStringLiteral("main/MPI_Recv")));
    browser->setFlatProfile(true);
    // The call path's region is picked, and the chart names it.
    QCOMPARE(window->selection()->callPaths(), (TreePicks{{kRegionRecv, true}}));
    QVERIFY(window->selection()->flatProfile());
    QCOMPARE(browser->chartPane()->barChart()->title(), QStringLiteral("Visits in MPI_Recv"));
    QCOMPARE(browser->chartPane()->barValues(), (std::vector<double>{2, 2, 2}));
    // Back: every call path of the region (their sum is what the flat profile showed).
    browser->setFlatProfile(false);
    QCOMPARE(window->selection()->callPaths(), (TreePicks{{kMainRecv, true}, {kFooRecv, true}}));
    QVERIFY(!window->selection()->flatProfile());
    QCOMPARE(browser->chartPane()->barValues(), (std::vector<double>{2, 2, 2}));  // foo/MPI_Recv has no visits
    // Two call paths of two regions become both regions.
    browser->callPane()->selectNodes({kMain, kFoo});
    browser->setFlatProfile(true);
    QCOMPARE(window->selection()->callPaths(), (TreePicks{{kRegionMain, true}}));  // foo has no visits: hidden
    Q_UNUSED(kRegionFoo);
  }

  void chartTitleWithoutACallPath() {
    auto window = openedWindow();
    ReportBrowser* browser = window->browser();
    QVERIFY(browser->selectMetric(QStringLiteral("mpi")));
    browser->callPane()->selectNodes({});
    QCOMPARE(window->selection()->callPaths(), TreePicks{});
    QCOMPARE(browser->chartPane()->barChart()->title(), QStringLiteral("MPI (select a call path)"));
  }

  void theMenuActionTogglesIt() {
    auto window = openedWindow();
    QAction* flat = nullptr;
    for (QAction* a : window->findChildren<QAction*>())
      if (a->shortcut() == QKeySequence(QStringLiteral("Ctrl+L"))) flat = a;
    QVERIFY(flat);
    QVERIFY(window->browser()->selectMetric(QStringLiteral("visits")));
    flat->trigger();
    QVERIFY(window->browser()->flatProfile());
    QCOMPARE(shownRows(window->browser()->callPane()),
             (std::vector<QString>{QStringLiteral("MPI_Recv"), QStringLiteral("main")}));
    // The call tree's root was selected: its region stays selected.
    QCOMPARE(window->selection()->callPaths(), (TreePicks{{kRegionMain, true}}));
  }
};

QTEST_MAIN(FlatProfileTest)
#include "flat_profile_test.moc"
