// The communication matrix in the views, offscreen: the model under
// QAbstractItemModelTester on the hand-made message and RMA traces, its values
// per quantity and kind, following the time filter and the picked metric, the
// CSV (first line naming quantity, unit and selection; ".csv" added), and the
// pane's PNG and SVG export with whole headers.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "analysis/timeline/timeline_query.h"
#include "tests/unit/timeline/timeline_scenarios.h"
#include "views/model/communication_matrix_model.h"
#include "views/model/report_data.h"
#include "views/model/selection.h"
#include "views/widgets/communication_matrix_pane.h"
#include "views/widgets/header_fit.h"

using namespace waitscope;
using namespace waitscope::views;
using timeline::MatrixQuantity;

class CommunicationMatrixTest : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

  // The message trace, with a Late Sender instance on rank 1 caused by rank 0 (1/128 s).
  static report::Report messages(trace::TraceBuilder& b) {
    test::buildMessages(b);
    report::Report r = test::reportSkeleton(b.trace());
    r.instances.push_back({r.findMetric("mpi_latesender"), 1, test::callPathOf(r, "main/MPI_Recv"),
                           2.0 + 1.0 / 64, 2.0 + 1.0 / 64 + 1.0 / 128, 0});
    return r;
  }

 private slots:
  void modelFollowsQuantityKindsWindowAndMetric() {
    trace::TraceBuilder b(2);
    const report::Report r = messages(b);
    Selection selection;
    CommunicationMatrixModel model(&selection);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    selection.setReport(std::make_shared<const ReportData>(r, QStringLiteral("messages.waitscope")));
    QVERIFY(!model.hasData());
    QCOMPARE(model.rowCount(), 0);
    model.setSource(std::make_shared<timeline::LocalSliceSource>(timeline::buildTimelineIndex(b.trace(), r)));
    QVERIFY(model.hasData());
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), 2);
    QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("Rank 1"));
    QCOMPARE(model.quantity(), MatrixQuantity::Bytes);
    QCOMPARE(model.index(0, 1).data(CommunicationMatrixModel::ValueRole).toDouble(), 8192.0);
    QCOMPARE(model.index(0, 1).data(CommunicationMatrixModel::ShareRole).toDouble(), 1.0);
    QVERIFY(model.index(0, 1).data(Qt::BackgroundRole).isValid());
    QCOMPARE(model.index(1, 0).data().toString(), QString());  // nothing sent: empty, no colour
    QVERIFY(!model.index(1, 0).data(Qt::BackgroundRole).isValid());
    model.setQuantity(MatrixQuantity::Count);
    QCOMPARE(model.index(0, 1).data(CommunicationMatrixModel::ValueRole).toDouble(), 8.0);
    model.setQuantity(MatrixQuantity::WaitingTime);
    QCOMPARE(model.index(0, 1).data(CommunicationMatrixModel::ValueRole).toDouble(), 1.0 / 128);
    model.setKinds(false, true);
    QCOMPARE(model.index(0, 1).data(CommunicationMatrixModel::ValueRole).toDouble(), 0.0);
    model.setKinds(true, true);

    // The time filter: sends at 2 + k/16, so [2, 2.25) holds four.
    model.setQuantity(MatrixQuantity::Count);
    selection.setTimeFilter(2.0, 2.25);
    QCOMPARE(model.index(0, 1).data(CommunicationMatrixModel::ValueRole).toDouble(), 4.0);
    QVERIFY(model.description().contains(QStringLiteral("window: 2 s to 2.25 s")));
    selection.clearTimeFilter();
    QCOMPARE(model.index(0, 1).data(CommunicationMatrixModel::ValueRole).toDouble(), 8.0);

    // Waiting time follows a picked pattern; a pick of another pattern leaves none.
    model.setQuantity(MatrixQuantity::WaitingTime);
    selection.setMetrics({{r.findMetric("mpi_rma_sync_late_post"), true}});
    QCOMPARE(model.index(0, 1).data(CommunicationMatrixModel::ValueRole).toDouble(), 0.0);
    QVERIFY(model.description().contains(QStringLiteral("metric: Late Post")));
    selection.setMetrics({{r.findMetric("mpi_latesender"), true}});
    QCOMPARE(model.index(0, 1).data(CommunicationMatrixModel::ValueRole).toDouble(), 1.0 / 128);

    const QStringList csv = model.toCsv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(csv.size(), 4);
    QVERIFY2(csv[0].startsWith(QStringLiteral("# quantity: Waiting time (s); kinds: point-to-point, RMA; rows: the rank "
                                              "that caused the waiting, columns: the rank that waited")),
             qPrintable(csv[0]));
    QVERIFY(csv[0].contains(QStringLiteral("window: whole run")));
    QCOMPARE(csv[1], QStringLiteral("sender\\receiver,Rank 0,Rank 1"));
    QCOMPARE(csv[2], QStringLiteral("Rank 0,0,0.0078125"));
    QCOMPARE(csv[3], QStringLiteral("Rank 1,0,0"));
  }

  void rmaTransfersAndThePanesExports() {
    trace::TraceBuilder b(3);
    test::buildRma(b);
    const report::Report r = test::reportSkeleton(b.trace());
    Selection selection;
    CommunicationMatrixPane pane(&selection);
    pane.resize(1024, 700);
    selection.setReport(std::make_shared<const ReportData>(r, QStringLiteral("rma.waitscope")));
    QVERIFY(pane.descriptionLabel()->text().contains(QStringLiteral("needs the report's timeline")));
    pane.model()->setSource(std::make_shared<timeline::LocalSliceSource>(timeline::buildTimelineIndex(b.trace(), r)));
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    // Bytes: puts 0 -> 1 (64) and 1 -> 0 (32); rank 2's get of 128 bytes from rank 0.
    const CommunicationMatrixModel* m = pane.model();
    QCOMPARE(m->index(0, 1).data(CommunicationMatrixModel::ValueRole).toDouble(), 64.0);
    QCOMPARE(m->index(1, 0).data(CommunicationMatrixModel::ValueRole).toDouble(), 32.0);
    QCOMPARE(m->index(0, 2).data(CommunicationMatrixModel::ValueRole).toDouble(), 128.0);
    QVERIFY(pane.descriptionLabel()->text().startsWith(QStringLiteral("quantity: Bytes (bytes)")));
    // The quantity selector switches the table.
    QComboBox* q = pane.quantitySelector();
    q->setCurrentIndex(q->findData(int(MatrixQuantity::Count)));
    emit q->activated(q->currentIndex());
    QCOMPARE(m->quantity(), MatrixQuantity::Count);
    pane.model()->setQuantity(MatrixQuantity::WaitingTime);  // as a script does: the selector follows
    QCOMPARE(q->currentData().toInt(), int(MatrixQuantity::WaitingTime));
    pane.model()->setQuantity(MatrixQuantity::Count);
    QCOMPARE(m->matrix().total(MatrixQuantity::Count), 3.0);
    QCOMPARE(elidedHeaderTexts(pane.table()->horizontalHeader()), QStringList());

    QCOMPARE(pane.exportCsv(dir_.filePath(QStringLiteral("matrix"))), QString());
    QFile csv(dir_.filePath(QStringLiteral("matrix.csv")));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QVERIFY(csv.readLine().startsWith("# quantity: Messages and transfers (count)"));
    QCOMPARE(pane.exportPng(dir_.filePath(QStringLiteral("matrix.png"))), QString());
    const QImage png(dir_.filePath(QStringLiteral("matrix.png")));
    QVERIFY(!png.isNull());
    QVERIFY(png.width() >= 1024);
    QCOMPARE(pane.exportSvg(dir_.filePath(QStringLiteral("matrix.svg"))), QString());
    QFile svg(dir_.filePath(QStringLiteral("matrix.svg")));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("<svg"));
  }
};

QTEST_MAIN(CommunicationMatrixTest)
#include "communication_matrix_test.moc"
