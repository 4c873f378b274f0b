// The POP assessment (model and pane) on reports whose efficiencies are known
// by construction (tests/gui/views/pop_report.h): every value, POP's colours at
// the threshold edges, the sentence's pointers, the link into the Selection
// (also by a click) and the line shown when a report cannot be assessed.
#include <cmath>

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QHeaderView>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include "tests/gui/views/pop_report.h"
#include "views/model/assessment_model.h"
#include "views/model/pop_rating.h"
#include "views/model/selection.h"
#include "views/widgets/assessment_pane.h"
#include "views/widgets/header_fit.h"

using namespace waitscope;
using namespace waitscope::views;
using namespace waitscope::test;

namespace {

ReportDataPtr data(const PopRanks& ranks, const QString& path, bool withComp = true) {
  return std::make_shared<ReportData>(popReport(ranks, withComp), path);
}

QColor background(const AssessmentModel& model, int row) {
  return model.data(model.index(row, AssessmentModel::ValueColumn), Qt::BackgroundRole).value<QBrush>().color();
}

}  // namespace

class AssessmentTest : public QObject {
  Q_OBJECT

 private slots:
  void ratingsAtTheThresholdEdges() {
    QCOMPARE(popRating(0.8), PopRating::Good);
    QCOMPARE(popRating(1.2), PopRating::Good);
    QCOMPARE(popRating(std::nextafter(0.8, 0.0)), PopRating::Fair);
    QCOMPARE(popRating(0.6), PopRating::Fair);
    QCOMPARE(popRating(std::nextafter(0.6, 0.0)), PopRating::Poor);
    QCOMPARE(popRating(0.0), PopRating::Poor);
    QVERIFY(popRatingColor(PopRating::Good) != popRatingColor(PopRating::Fair));
    QVERIFY(popRatingColor(PopRating::Fair) != popRatingColor(PopRating::Poor));
    QVERIFY(popRatingLegendHtml().contains(QStringLiteral("80 %")));
    QVERIFY(popRatingLegendHtml().contains(QStringLiteral("60 %")));
  }

  void valuesColoursAndLinksOfOneRun() {
    AssessmentModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setReports(data(fourRanks(), QStringLiteral("/runs/four.waitscope")));
    QCOMPARE(model.unavailableReason(), QString());
    QCOMPARE(model.rowCount(), 5);
    const int pe = model.rowOf(QStringLiteral("Parallel Efficiency"));
    const int lb = model.rowOf(QStringLiteral("Load Balance"));
    const int comm = model.rowOf(QStringLiteral("Communication Efficiency"));
    const int ser = model.rowOf(QStringLiteral("Serialisation Efficiency"));
    const int trans = model.rowOf(QStringLiteral("Transfer Efficiency"));
    QCOMPARE(pe, 0);  // the product first, its factors below it
    QVERIFY(lb > pe && comm > lb && ser > comm && trans > ser);
    QCOMPARE(model.rowOf(QStringLiteral("Global Efficiency")), -1);

    const auto& rows = model.rows();
    QCOMPARE(rows[lb].value, 8.0 / 10.0);
    QCOMPARE(rows[comm].value, 10.0 / 12.5);
    QCOMPARE(rows[ser].value, 10.0 / 12.0);
    QCOMPARE(rows[trans].value, 12.0 / 12.5);
    QCOMPARE(rows[pe].value, (8.0 / 10.0) * (10.0 / 12.5));
    QCOMPARE(rows[pe].depth, 0);
    QCOMPARE(rows[lb].depth, 1);
    QCOMPARE(rows[ser].depth, 2);
    QCOMPARE(model.data(model.index(lb, AssessmentModel::ValueColumn)).toString(), QStringLiteral("80.0 %"));
    QCOMPARE(model.data(model.index(lb, AssessmentModel::ValueColumn), AssessmentModel::ValueRole).toDouble(), 0.8);
    QCOMPARE(model.data(model.index(ser, AssessmentModel::NameColumn)).toString(),
             QStringLiteral("        Serialisation Efficiency"));

    // Exactly 0.8 is good; 0.64 is worth a look.
    QCOMPARE(background(model, lb), popRatingColor(PopRating::Good));
    QCOMPARE(background(model, comm), popRatingColor(PopRating::Good));
    QCOMPARE(background(model, pe), popRatingColor(PopRating::Fair));

    // Where to look: computation for the balance, the largest wait state (Late Sender, 5 s against
    // Wait at Fence's 3.5 s) for serialisation, communication for transfer; a product points to
    // its weaker factor (a tie to the first).
    QCOMPARE(rows[lb].linkMetric, std::uint32_t{kPopComp});
    QCOMPARE(rows[ser].linkMetric, std::uint32_t{kPopLateSender});
    QVERIFY(rows[ser].meaning.contains(QStringLiteral("Late Sender")));
    QCOMPARE(rows[trans].linkMetric, std::uint32_t{kPopCommunication});
    QCOMPARE(rows[comm].linkMetric, std::uint32_t{kPopLateSender});
    QCOMPARE(rows[pe].linkMetric, std::uint32_t{kPopComp});
    QVERIFY(rows[lb].meaning.contains(QStringLiteral("80.0 %")));
    QCOMPARE(model.data(model.index(ser, AssessmentModel::LinkColumn)).toString(), QStringLiteral("Show Late Sender"));
  }

  void aLargerFenceWaitMovesTheSerialisationLink() {
    PopRanks ranks = fourRanks();
    ranks.fence = {3, 0.5, 1, 3};  // Wait at Fence 7.5 s now, more than Late Sender's 5 s
    ranks.sync = {0, 1, 1.5, 0};
    AssessmentModel model;
    model.setReports(data(ranks, QStringLiteral("fence.waitscope")));
    const int ser = model.rowOf(QStringLiteral("Serialisation Efficiency"));
    QCOMPARE(model.rows()[ser].linkMetric, std::uint32_t{kPopWaitAtFence});
    QVERIFY(model.rows()[ser].meaning.contains(QStringLiteral("Wait at Fence")));
  }

  void aReferenceRunAddsScalingAndGlobalEfficiency() {
    AssessmentModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setReports(data(fourRanks(), QStringLiteral("four.waitscope")), data(twoRanks(), QStringLiteral("two.waitscope")));
    QCOMPARE(model.rowCount(), 7);
    const int ge = model.rowOf(QStringLiteral("Global Efficiency"));
    const int cs = model.rowOf(QStringLiteral("Computation Scaling"));
    QCOMPARE(ge, 0);
    const double parallel = (8.0 / 10.0) * (10.0 / 12.5);
    QCOMPARE(model.rows()[cs].value, 24.0 / 32.0);
    QCOMPARE(model.rows()[ge].value, parallel * 24.0 / 32.0);
    QCOMPARE(background(model, cs), popRatingColor(PopRating::Fair));  // 0.75
    QCOMPARE(background(model, ge), popRatingColor(PopRating::Poor));  // 0.48
    QCOMPARE(model.rows()[model.rowOf(QStringLiteral("Parallel Efficiency"))].depth, 1);
    // Parallel Efficiency (0.64) is the weaker factor: Global Efficiency points where it points.
    QCOMPARE(model.rows()[ge].linkMetric, std::uint32_t{kPopComp});
  }

  void aReportWithoutComputationIsNotAssessed() {
    AssessmentModel model;
    model.setReports(data(fourRanks(), QStringLiteral("/x/profile.cubex"), false));
    QCOMPARE(model.rowCount(), 0);
    QVERIFY2(model.unavailableReason().contains(QStringLiteral("profile.cubex")), qPrintable(model.unavailableReason()));
    QVERIFY(model.unavailableReason().contains(QStringLiteral("\"comp\"")));
    model.setReports(nullptr);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.unavailableReason(), QString());
    // A reference that cannot be used is named.
    model.setReports(data(fourRanks(), QStringLiteral("four.waitscope")),
                     data(twoRanks(), QStringLiteral("/x/old.waitscope"), false));
    QCOMPARE(model.rowCount(), 0);
    QVERIFY2(model.unavailableReason().contains(QStringLiteral("old.waitscope")), qPrintable(model.unavailableReason()));
  }

  void paneFollowsTheSelectionAndItsLinksWriteToIt() {
    Selection selection;
    AssessmentPane pane(&selection);
    pane.resize(900, 400);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    QVERIFY(pane.notice().contains(QStringLiteral("Open a report")));
    selection.setReport(data(fourRanks(), QStringLiteral("four.waitscope")));
    QCOMPARE(pane.notice(), QString());
    QCOMPARE(pane.table()->model()->rowCount(), 5);

    QSignalSpy changed(&selection, &Selection::metricsChanged);
    QVERIFY(pane.followLink(pane.model()->rowOf(QStringLiteral("Transfer Efficiency"))));
    QCOMPARE(selection.metrics(), (TreePicks{{kPopCommunication, true}}));
    QCOMPARE(changed.count(), 1);

    // A click on the link cell does the same.
    const int ser = pane.model()->rowOf(QStringLiteral("Serialisation Efficiency"));
    const QRect cell = pane.table()->visualRect(pane.model()->index(ser, AssessmentModel::LinkColumn));
    QVERIFY(cell.isValid());
    QTest::mouseClick(pane.table()->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(selection.metrics(), (TreePicks{{kPopLateSender, true}}));
    QCOMPARE(elidedHeaderTexts(pane.table()->horizontalHeader()), QStringList());

    pane.setReference(data(twoRanks(), QStringLiteral("two.waitscope")));
    QCOMPARE(pane.model()->rowCount(), 7);
    pane.setReference(nullptr);
    QCOMPARE(pane.model()->rowCount(), 5);

    selection.setReport(data(fourRanks(), QStringLiteral("nocomp.waitscope"), false));
    QVERIFY(pane.notice().contains(QStringLiteral("nocomp.waitscope")));
    QVERIFY(!pane.table()->isVisible());
    QVERIFY(!pane.followLink(0));
  }
};

QTEST_MAIN(AssessmentTest)
#include "assessment_test.moc"
