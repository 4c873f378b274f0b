// The critical-path view: the profile rows of a hand-made report shown through
// its Selection, sorting by any column, the chart's bars, and callPathSelected
// when a row is picked; the Selection's report followed and a picked row written there;
// two calls of one function told apart with one bar each; a layout without elided
// headers or axis labels; a chart in the palette's colours.
#include <map>

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QHorizontalBarSeries>
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

// The fence demo's shape: main calls MPI_Win_fence at fence.c:42 and at fence.c:50, and
// foo and bar each call MPI_Barrier (one name under two callers).
enum FenceCallPath : std::uint32_t { kMain, kFence42, kFence50, kFoo, kBar, kFooBarrier, kBarBarrier };
constexpr double kFence42Rank0 = 0.2, kFence42Rank1 = 0.149, kFence50Rank0 = 0.005;

std::shared_ptr<report::Report> fenceReport() {
  auto r = std::make_shared<report::Report>();
  r->metrics.push_back({"critical_path", "Critical Path", "", report::MetricUnit::Seconds, report::kNoId});
  r->regions = {{"main", "fence.c", 1, 90, "user"}, {"MPI_Win_fence", "", 0, 0, "mpi"}, {"foo", "", 0, 0, "user"},
                {"bar", "", 0, 0, "user"}, {"MPI_Barrier", "", 0, 0, "mpi"}};
  r->callPaths = {{report::kNoId, 0, "", 0}, {kMain, 1, "/home/u/fence.c", 42}, {kMain, 1, "/home/u/fence.c", 50},
                  {kMain, 2, "fence.c", 60}, {kMain, 3, "fence.c", 61}, {kFoo, 4, "fence.c", 70}, {kBar, 4, "fence.c", 80}};
  r->systemNodes.push_back({"node0", "node", report::kNoId});
  r->locations = {{"MPI Rank 0", 0, 0}, {"MPI Rank 1", 1, 0}};
  r->severities.push_back({0, kMain, {0.5, 0.25}});
  r->severities.push_back({0, kFence42, {kFence42Rank0, kFence42Rank1}});
  r->severities.push_back({0, kFence50, {kFence50Rank0, 0.0}});
  r->severities.push_back({0, kFooBarrier, {0.125, 0.0}});
  r->severities.push_back({0, kBarBarrier, {0.0, 0.0625}});
  return r;
}

// The chart's bars by their axis label.
std::map<QString, double> barsByLabel(QChart* chart) {
  std::map<QString, double> bars;
  auto* series = qobject_cast<QHorizontalBarSeries*>(chart->series().value(0));
  if (!series) return bars;
  auto* axis = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Vertical).value(0));
  if (!axis) return bars;
  const QStringList names = axis->categories();
  QBarSet* set = series->barSets().first();
  for (int i = 0; i < set->count(); ++i) bars[names.value(i)] = set->at(i);
  return bars;
}

// The texts the chart draws (title, axis labels and titles), as drawn: Qt Charts ends a label
// that does not fit with "...".
QStringList drawnTexts(QChart* chart) {
  QStringList texts;
  for (QGraphicsItem* item : chart->scene()->items())
    if (auto* text = dynamic_cast<QGraphicsTextItem*>(item); text && text->isVisible()) texts << text->toPlainText();
  return texts;
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

  // Each call path its own row and bar, with the call site where siblings share a name; every
  // bar exactly its row's time on the path.
  void callSitesAreToldApart() {
    views::Selection selection;
    CriticalPathPane pane(&selection);
    selection.setReport(std::make_shared<views::ReportData>(*fenceReport(), QStringLiteral("fence.waitscope")));
    QAbstractItemModel* shown = pane.table()->model();
    QCOMPARE(shown->rowCount(), 5);  // foo and bar are not on the path themselves
    std::map<QString, double> table;
    for (int r = 0; r < shown->rowCount(); ++r)
      table[shown->index(r, CriticalPathPane::CallPathColumn).data().toString()] =
          shown->index(r, CriticalPathPane::OnPathColumn).data().toDouble();
    QCOMPARE(table.size(), 5u);  // no two rows share a name
    QCOMPARE(table.at(QStringLiteral("main/MPI_Win_fence (fence.c:42)")), kFence42Rank0 + kFence42Rank1);
    QCOMPARE(table.at(QStringLiteral("main/MPI_Win_fence (fence.c:50)")), kFence50Rank0);
    QCOMPARE(table.at(QStringLiteral("main/foo/MPI_Barrier")), 0.125);  // one call from foo: no call site
    QVERIFY(pane.toCsv().contains(QStringLiteral("\"main/MPI_Win_fence (fence.c:42)\",")));

    const std::map<QString, double> bars = barsByLabel(pane.chart());
    const std::map<QString, double> expected = {
        {QStringLiteral("main"), 0.75},
        {QStringLiteral("MPI_Win_fence (fence.c:42)"), kFence42Rank0 + kFence42Rank1},
        {QStringLiteral("MPI_Win_fence (fence.c:50)"), kFence50Rank0},
        {QStringLiteral("foo/MPI_Barrier"), 0.125},
        {QStringLiteral("bar/MPI_Barrier"), 0.0625}};
    QCOMPARE(bars, expected);
  }

  // Shown at a wide, low size (the dock below the trees) and a narrow, tall one: the chart is
  // not squashed, no header and no chart text is elided.
  void nothingIsElided() {
    for (const QSize size : {QSize(1024, 300), QSize(520, 700)}) {
      views::Selection selection;
      CriticalPathPane pane(&selection);
      selection.setReport(std::make_shared<views::ReportData>(*fenceReport(), QStringLiteral("fence.waitscope")));
      pane.resize(size);
      pane.show();
      QVERIFY(QTest::qWaitForWindowExposed(&pane));
      QCoreApplication::processEvents();
      QHeaderView* header = pane.table()->horizontalHeader();
      const int margins = 2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
      for (int c = 0; c < header->count(); ++c) {
        const QString text = pane.table()->model()->headerData(c, Qt::Horizontal).toString();
        QVERIFY2(header->fontMetrics().horizontalAdvance(text) + margins <= header->sectionSize(c), qPrintable(text));
      }
      QVERIFY2(pane.chartView()->height() >= 12 * pane.fontMetrics().lineSpacing(),
               qPrintable(QString::number(pane.chartView()->height())));
      QVERIFY(pane.chart()->plotArea().height() >= 7 * pane.fontMetrics().lineSpacing());
      const QStringList texts = drawnTexts(pane.chart());
      for (const QString& text : texts) QVERIFY2(!text.endsWith(QStringLiteral("...")), qPrintable(text));
      const std::map<QString, double> bars = barsByLabel(pane.chart());
      QVERIFY(bars.size() >= 3);  // the largest rows, as many as there is room for
      for (const auto& [label, value] : bars) QVERIFY2(texts.contains(label), qPrintable(label));
      QVERIFY(texts.contains(QStringLiteral("Time on the critical path")));
    }
  }

  // A dark palette gets a dark chart with light labels.
  void followsThePalette() {
    views::Selection selection;
    CriticalPathPane pane(&selection);
    selection.setReport(std::make_shared<views::ReportData>(*fenceReport(), QStringLiteral("fence.waitscope")));
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x20));
    dark.setColor(QPalette::Base, QColor(0x18, 0x18, 0x18));
    dark.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
    dark.setColor(QPalette::WindowText, QColor(0xf0, 0xf0, 0xf0));
    pane.setPalette(dark);
    QVERIFY(pane.chart()->backgroundBrush().color().lightness() < 64);
    QVERIFY(pane.chart()->titleBrush().color().lightness() > 192);
    for (QAbstractAxis* axis : pane.chart()->axes()) QVERIFY(axis->labelsBrush().color().lightness() > 192);
    // A new report keeps the colours.
    selection.setReport(std::make_shared<views::ReportData>(*sampleReport(), QStringLiteral("sample.waitscope")));
    for (QAbstractAxis* axis : pane.chart()->axes()) QVERIFY(axis->labelsBrush().color().lightness() > 192);
    QVERIFY(pane.chart()->backgroundBrush().color().lightness() < 64);
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
