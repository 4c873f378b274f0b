// The time filter in the views, offscreen: Selection's filter, the restricted
// report computed off the GUI thread and shown in place (picks kept), the trees'
// values equal to the window computation, metrics that a window cannot restrict
// shown as a grey "n/a" (name unchanged, a tooltip why), the status-bar indicator, Filter to
// Timeline Window, Clear (Esc), and a report without a timeline.
#include <QAction>
#include <QChart>
#include <QColor>
#include <QSignalSpy>
#include <QTest>

#include "analysis/timeline/timeline_query.h"
#include "tests/unit/timeline/time_window_scenario.h"
#include "tests/unit/timeline/timeline_scenarios.h"
#include "views/model/report_data.h"
#include "views/model/selection.h"
#include "views/model/time_window_filter.h"
#include "views/model/value_mode.h"
#include "views/model/value_tree_model.h"
#include "views/widgets/chart_pane.h"
#include "views/widgets/report_browser.h"
#include "views/widgets/time_filter_bar.h"
#include "views/widgets/tree_pane.h"

using namespace waitscope;
using namespace waitscope::views;

class TimeWindowTest : public QObject {
  Q_OBJECT

  trace::TraceBuilder builder_{2};
  report::Report report_;
  std::shared_ptr<timeline::SliceSource> source_;
  std::uint32_t main_ = 0, send_ = 0, recv_ = 0;

 private slots:
  void initTestCase() {
    test::buildMessages(builder_);
    report_ = test::timeWindowReport(builder_.trace());
    source_ = std::make_shared<timeline::LocalSliceSource>(timeline::buildTimelineIndex(builder_.trace(), report_));
    main_ = test::callPathOf(report_, "main");
    send_ = test::callPathOf(report_, "main/MPI_Send");
    recv_ = test::callPathOf(report_, "main/MPI_Recv");
  }

  void filterShowsTheWindowInEveryTreeAndClearShowsTheWholeRun() {
    Selection selection;
    ReportBrowser browser(&selection);
    TimeWindowFilter filter(&selection);
    TimeFilterBar bar(&selection, &filter);
    selection.setReport(std::make_shared<const ReportData>(report_, QStringLiteral("messages.waitscope")));
    filter.setSource(source_);
    QVERIFY(filter.canFilter());
    QVERIFY(browser.selectMetric(QStringLiteral("mpi_point2point")));
    browser.callPane()->selectNode(send_);
    const ValueTreeModel* calls = browser.callModel();
    QCOMPARE(calls->exclusiveValue(send_), 0.375);
    QCOMPARE(calls->exclusiveValue(recv_), 0.125);  // point-to-point, Late Sender included (collapsed)
    QVERIFY(bar.isHidden());
    QVERIFY(!bar.clearAction()->isEnabled());  // Esc is free while no filter is set

    // Zoomed to [2 + 2/64, 2 + 6/64] and filtered to it: the end of send 0 and the start of
    // send 1 (3/64 s), the first 1/64 s of receive 1; the Late Sender instance lies before it.
    selection.setTimeWindow(2.0 + 2.0 / 64, 2.0 + 6.0 / 64);
    QVERIFY(bar.filterAction()->isEnabled());
    QSignalSpy applied(&filter, &TimeWindowFilter::applied);
    QSignalSpy picksChanged(&selection, &Selection::metricsChanged);
    bar.filterAction()->trigger();
    QVERIFY(selection.hasTimeFilter());
    QVERIFY(bar.text().contains(QStringLiteral("computing")));
    QVERIFY(applied.wait(10000));
    QVERIFY(selection.report()->timeWindow());
    QCOMPARE(selection.report()->timeWindow()->from, 2.0 + 2.0 / 64);
    QCOMPARE(calls->exclusiveValue(send_), 3.0 / 64);
    QCOMPARE(calls->exclusiveValue(recv_), 1.0 / 64);
    QCOMPARE(picksChanged.count(), 0);  // the picks stay
    QCOMPARE(browser.callPane()->picks(), (TreePicks{{send_, true}}));
    QVERIFY(!bar.isHidden());
    QVERIFY2(bar.text().contains(QStringLiteral("values of this window only")), qPrintable(bar.text()));
    // Bytes cannot be restricted to a window: its name unchanged, a grey "n/a" without a
    // colour box, a tooltip saying why; picked, the other trees and the chart say n/a too.
    const std::uint32_t bytes = test::kTwBytes;
    QVERIFY(!selection.report()->metricAvailable(bytes));
    QVERIFY(selection.report()->metricAvailable(test::kTwP2p));
    const ValueTreeModel* metrics = browser.metricModel();
    const QModelIndex bytesName = metrics->indexOfNode(bytes), bytesValue = metrics->indexOfNode(bytes, 1);
    QCOMPARE(bytesName.data().toString(), QStringLiteral("Bytes"));
    QCOMPARE(bytesValue.data().toString(), QStringLiteral("n/a"));
    QCOMPARE(bytesValue.data(Qt::ForegroundRole).value<QColor>(), QColor(Qt::gray));
    QCOMPARE(bytesName.data(Qt::ForegroundRole).value<QColor>(), QColor(Qt::gray));
    QVERIFY(!bytesValue.data(Qt::DecorationRole).isValid());
    QVERIFY2(bytesValue.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Not available in this time window")),
             qPrintable(bytesValue.data(Qt::ToolTipRole).toString()));
    QCOMPARE(metrics->inclusiveValue(bytes), 0.0);
    const QModelIndex p2pValue = metrics->indexOfNode(test::kTwP2p, 1);
    QVERIFY(p2pValue.data().toString() != QStringLiteral("n/a"));
    QVERIFY(!p2pValue.data(Qt::ForegroundRole).isValid());
    QVERIFY(browser.selectMetric(QStringLiteral("bytes")));
    QCOMPARE(calls->indexOfNode(send_, 1).data().toString(), QStringLiteral("n/a"));
    QCOMPARE(browser.systemModel()->indexOfNode(0, 1).data().toString(), QStringLiteral("n/a"));
    QVERIFY(browser.chartPane()->barChart()->title().contains(QStringLiteral("n/a")));
    QVERIFY(browser.callPane()->toCsv().contains(QStringLiteral("MPI_Send,\n")));  // an empty cell
    QVERIFY(browser.selectMetric(QStringLiteral("mpi_point2point")));
    QCOMPARE(calls->indexOfNode(send_, 1).data().toString(), formatValue(3.0 / 64, ValueMode::Absolute,
                                                                            report::MetricUnit::Seconds));

    // A second window over the whole [1.5, 4.5] of the sends.
    selection.setTimeFilter(1.5, 4.5);
    QVERIFY(applied.wait(10000));
    QCOMPARE(calls->exclusiveValue(send_), 0.375);
    QCOMPARE(calls->exclusiveValue(recv_), 0.125);

    // Clear (the button's action, Esc): the whole run, at once.
    QSignalSpy updated(&selection, &Selection::reportUpdated);
    QVERIFY(bar.clearAction()->isEnabled());
    QCOMPARE(bar.clearAction()->shortcut(), QKeySequence(Qt::Key_Escape));
    bar.clearAction()->trigger();
    QCOMPARE(updated.count(), 1);
    QVERIFY(!selection.hasTimeFilter());
    QVERIFY(!selection.report()->timeWindow());
    QCOMPARE(calls->exclusiveValue(send_), 0.375);
    QVERIFY(metrics->indexOfNode(bytes, 1).data().toString() != QStringLiteral("n/a"));
    QVERIFY(!metrics->indexOfNode(bytes, 1).data(Qt::ForegroundRole).isValid());
    QVERIFY(bar.isHidden());
    QVERIFY(!bar.clearAction()->isEnabled());
  }

  void newReportClearsTheFilter() {
    Selection selection;
    TimeWindowFilter filter(&selection);
    selection.setReport(std::make_shared<const ReportData>(report_, QStringLiteral("messages.waitscope")));
    filter.setSource(source_);
    selection.setTimeFilter(1.5, 4.5);
    QVERIFY(filter.applyNow());
    QVERIFY(selection.report()->timeWindow());
    selection.setReport(std::make_shared<const ReportData>(report_, QStringLiteral("other.waitscope")));
    QVERIFY(!selection.hasTimeFilter());
    QVERIFY(!selection.report()->timeWindow());
    QVERIFY(!filter.canFilter());  // the new report's timeline is not loaded yet
  }

  void withoutTimelineTheFilterSaysWhyAndValuesStayWhole() {
    Selection selection;
    ReportBrowser browser(&selection);
    TimeWindowFilter filter(&selection);
    TimeFilterBar bar(&selection, &filter);
    selection.setReport(std::make_shared<const ReportData>(report_, QStringLiteral("messages.waitscope")));
    QSignalSpy failed(&filter, &TimeWindowFilter::failed);
    selection.setTimeFilter(1.5, 4.5);
    QCOMPARE(failed.count(), 1);
    QVERIFY(!selection.report()->timeWindow());
    QVERIFY2(bar.text().contains(QStringLiteral("not applied")), qPrintable(bar.text()));
    QVERIFY(!filter.applyNow());
    QVERIFY(filter.problem().contains(QStringLiteral("timeline")));
  }
};

QTEST_MAIN(TimeWindowTest)
#include "time_window_test.moc"
