// The critical-path view: the profile rows of a hand-made report shown through
// its Selection, sorting by any column, the chart's bars, and callPathSelected
// when a row is picked; the Selection's report followed and a picked row written there.
#include <QChart>
#include <QHorizontalBarSeries>
#include <QBarSet>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTableView>
#include <QtTest>

#include "views/model/selection.h"
#include "views/timeline/critical_path_pane.h"

using namespace waitscope;
using waitscope::views::CriticalPathPane;

namespace {

std::shared_ptr<report::Report> sampleReport() {
  auto r = std::make_shared<report::Report>();
  r->metrics.push_back({"critical_path", "Critical Path", "", report::MetricUnit::Seconds, report::kNoId});
  r->metrics.push_back({"critical_path_imbalance", "Imbalance", "", report::MetricUnit::Seconds, 0});
  r->regions = {{"main", "", 0, 0, "user"}, {"MPI_Recv", "", 0, 0, "mpi"}, {"work", "", 0, 0, "user"}};
  r->callPaths = {{report::kNoId, 0, "", 0}, {0, 1, "", 0}, {0, 2, "", 0}};
  r->systemNodes.push_back({"node0", "node", report::kNoId});
  r->locations = {{"MPI Rank 0", 0, 0}, {"MPI Rank 1", 1, 0}};
  // One segment per visit, named by its last call path; the time per call path is in the severities.
  r->criticalPath = {{0, 2, 0.0, 1.5}, {1, 2, 1.5, 3.0}, {0, 0, 3.0, 3.5}};
  r->severities.push_back({0, 0, {0.5, 0.0}});    // critical_path of main
  r->severities.push_back({0, 1, {0.0, 0.25}});   // ... of main/MPI_Recv, without its imbalance
  r->severities.push_back({0, 2, {1.5, 0.75}});   // ... of main/work
  r->severities.push_back({1, 1, {0.0, 0.5}});    // imbalance of main/MPI_Recv on rank 1
  return r;
}

}  // namespace

class CriticalPathPaneTest : public QObject {
  Q_OBJECT

 private slots:
  void rowsSortAndSelect() {
    views::Selection selection;
    CriticalPathPane pane(&selection);
    selection.setReport(std::make_shared<views::ReportData>(*sampleReport(), QStringLiteral("sample.waitscope")));
    QTableView* table = pane.table();
    QAbstractItemModel* shown = table->model();
    QCOMPARE(shown->rowCount(), 3);
    // Largest time on the path first: work 2.25 s, MPI_Recv 0.75 s, main 0.5 s of 3.5 s.
    QCOMPARE(shown->index(0, CriticalPathPane::CallPathColumn).data().toString(), QStringLiteral("main/work"));
    QCOMPARE(shown->index(0, CriticalPathPane::OnPathColumn).data().toDouble(), 2.25);
    QCOMPARE(shown->index(0, CriticalPathPane::ShareColumn).data().toDouble(), 2.25 / 3.5 * 100.0);
    QCOMPARE(shown->index(1, CriticalPathPane::CallPathColumn).data().toString(), QStringLiteral("main/MPI_Recv"));
    QCOMPARE(shown->index(1, CriticalPathPane::ImbalanceColumn).data().toDouble(), 0.5);
    QCOMPARE(shown->index(2, CriticalPathPane::CallPathColumn).data().toString(), QStringLiteral("main"));

    table->sortByColumn(CriticalPathPane::ImbalanceColumn, Qt::DescendingOrder);
    QCOMPARE(shown->index(0, CriticalPathPane::CallPathColumn).data().toString(), QStringLiteral("main/MPI_Recv"));

    QSignalSpy spy(&pane, &CriticalPathPane::callPathSelected);
    table->setCurrentIndex(shown->index(0, CriticalPathPane::CallPathColumn));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.takeFirst().at(0).value<std::uint32_t>(), 1u);  // main/MPI_Recv

    // The chart: one bar per call path, the largest last (drawn at the top).
    const auto series = pane.chart()->series();
    QCOMPARE(series.size(), 1);
    auto* bars = qobject_cast<QHorizontalBarSeries*>(series.first());
    QVERIFY(bars);
    QCOMPARE(bars->barSets().first()->count(), 3);
    QCOMPARE(bars->barSets().first()->at(2), 2.25);

    selection.setReport(nullptr);
    QCOMPARE(shown->rowCount(), 0);
  }

  void followsTheSelectionAndWritesToIt() {
    views::Selection selection;
    CriticalPathPane pane(&selection);
    QAbstractItemModel* shown = pane.table()->model();
    auto data = std::make_shared<views::ReportData>(*sampleReport(), QStringLiteral("sample.waitscope"));
    selection.setReport(data);
    QCOMPARE(shown->rowCount(), 3);
    selection.updateReport(std::make_shared<views::ReportData>(*sampleReport(), QStringLiteral("sample.waitscope")));
    QCOMPARE(shown->rowCount(), 3);
    pane.table()->setCurrentIndex(shown->index(1, CriticalPathPane::CallPathColumn));  // main/MPI_Recv
    QCOMPARE(selection.highlightedCallPath(), 1u);
    QCOMPARE(selection.callPaths(), (views::TreePicks{{1, true}}));
    QVERIFY(!selection.flatProfile());
    selection.setReport(nullptr);
    QCOMPARE(shown->rowCount(), 0);
  }
};

QTEST_MAIN(CriticalPathPaneTest)
#include "critical_path_pane_test.moc"
