// The main window on a hybrid report and on a report whose clock-condition violations the
// analysis corrected (offscreen): the status bar counts ranks (processes), not the threads and
// GPU streams of a hybrid run, and so does a comparison; the timeline shows those threads and
// streams as rows under their process; the status bar says that times were corrected (how
// many events moved, the largest shift) and nothing otherwise; the timeline draws the
// corrected times from REPORT.clock-correction, and a missing or damaged one is one line in
// the status bar naming it while the recorded times are drawn.
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "analysis/report/report_io.h"
#include "analysis/trace/clock_correction_file.h"
#include "app/main_window.h"
#include "app/report_loader.h"
#include "app/time_correction_status.h"
#include "tests/unit/timeline/timeline_scenarios.h"
#include "views/model/selection.h"
#include "views/timeline/timeline_view.h"

using namespace waitscope;

namespace {

// Two ranks, main [0, 4]; rank 0: foo [1, 2]; rank 0 has an OpenMP thread (work [1.5, 3]),
// rank 1 a CUDA stream (kernel [1, 3]) and, with `secondThread`, an OpenMP thread too.
struct Hybrid {
  trace::TraceBuilder builder{2};
  report::Report report;
  explicit Hybrid(bool secondThread = true) {
    builder.rank(0).enter(0.0, "main").enter(1.0, "foo").leave(2.0, "foo").leave(4.0, "main");
    builder.rank(1).enter(0.0, "main").leave(4.0, "main");
    builder.addThread(0, "OMP thread 1").enter(1.5, "work").leave(3.0, "work");
    builder.addThread(1, "CUDA[0:7]", trace::LocationType::AcceleratorStream).enter(1.0, "kernel").leave(3.0, "kernel");
    if (secondThread) builder.addThread(1, "OMP thread 1").enter(0.5, "work").leave(1.5, "work");
    report = test::reportSkeleton(builder.trace());
    report.locations.push_back({"MPI Rank 0 / OMP thread 1", 0, 0, report::LocationKind::Thread});
    report.locations.push_back({"MPI Rank 1 / CUDA[0:7]", 1, 0, report::LocationKind::Accelerator});
    if (secondThread) report.locations.push_back({"MPI Rank 1 / OMP thread 1", 1, 0, report::LocationKind::Thread});
    // Time of main on every location, so that each is in the system tree with a value.
    report.severities.push_back({0, test::callPathOf(report, "main"), std::vector<double>(report.locations.size(), 1.0)});
    report.meta.emplace_back("unanalyzed_paradigms", "OpenMP, CUDA: time metrics only, no wait-state analysis");
  }
  // Writes the trace into `dir`/trace and the report naming it to `dir`/`name`.
  QString write(const QTemporaryDir& dir, const QString& name) {
    const std::string anchor = builder.write(dir.filePath(QStringLiteral("trace")).toStdString());
    report.meta.emplace_back("trace", anchor);
    const QString path = dir.filePath(name);
    report::writeReport(report, path.toStdString());
    return path;
  }
};

const std::vector<std::pair<std::string, std::string>> kCorrected = {
    {"time_correction", "controlled logical clock"},
    {"time_correction_violations", "1"},
    {"time_correction_moved_events", "7"},
    {"time_correction_largest_shift", "0.3"}};

QLabel* correctionLabel(const app::MainWindow& window) {
  return window.findChild<QLabel*>(QStringLiteral("timeCorrectionStatus"));
}

// The region the timeline shows on `location` at `time`.
QString regionAt(views::TimelineView* view, std::uint32_t location, double time) {
  return view->describeAt(view->positionOf(location, time).toPoint()).section(QLatin1Char('\n'), 0, 0);
}

}  // namespace

class HybridAndCorrectedReportsTest : public QObject {
  Q_OBJECT

  std::unique_ptr<app::MainWindow> open(const QString& path, bool waitForTimeline = true) {
    auto window = std::make_unique<app::MainWindow>();
    window->setInteractive(false);
    window->resize(1200, 900);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get())) return nullptr;
    QSignalSpy loaded(window.get(), &app::MainWindow::reportLoaded);
    QSignalSpy timeline(window.get(), &app::MainWindow::timelineReady);
    window->openReport(path);
    if (!QTest::qWaitFor([&] { return loaded.count() == 1; }, 20000)) return nullptr;
    if (waitForTimeline && !QTest::qWaitFor([&] { return timeline.count() == 1; }, 20000)) return nullptr;
    return window;
  }

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void statusBarCountsRanksNotThreadsAndStreams() {
    QTemporaryDir dir;
    Hybrid hybrid;
    const auto window = open(hybrid.write(dir, QStringLiteral("hybrid.waitscope")), false);
    QVERIFY(window);
    QStringList texts;
    for (QLabel* label : window->statusBar()->findChildren<QLabel*>()) texts << label->text();
    QVERIFY2(texts.filter(QStringLiteral("2 ranks (+3 threads and streams) · ")).size() == 1, qPrintable(texts.join('|')));
    // The report's line about the paradigms analyzed for time only.
    auto* unanalyzed = window->findChild<QLabel*>(QStringLiteral("unanalyzedParadigms"));
    QCOMPARE(unanalyzed->text(), QStringLiteral("OpenMP, CUDA: time metrics only, no wait-state analysis"));
    QVERIFY(unanalyzed->isVisible());
    // The system tree holds every thread and stream under its process.
    const views::ReportDataPtr& data = window->selection()->report();
    const views::ValueTree& system = data->systemTree();
    for (std::uint32_t l = 2; l < 5; ++l) {
      const std::uint32_t process = data->systemNodeOfLocation(hybrid.report.locations[l].rank);
      QCOMPARE(system.parent[data->systemNodeOfLocation(l)], process);
    }
  }

  void comparisonsCountRanksNotThreadsAndStreams() {
    QTemporaryDir dir;
    Hybrid a, b(false);
    const QString pathA = a.write(dir, QStringLiteral("a.waitscope"));
    QTemporaryDir dirB;
    const QString pathB = b.write(dirB, QStringLiteral("b.waitscope"));
    const app::LoadResult loadedA = app::ReportLoader::loadNow(pathA);
    QVERIFY(loadedA.report);
    // Same ranks, other threads: per-rank values are compared.
    app::LoadResult compared = app::ReportLoader::compareNow(loadedA.report, pathB);
    QVERIFY2(compared.comparison, qPrintable(compared.error));
    QVERIFY(compared.comparison->sameRanks());
    QCOMPARE(compared.comparison->ranksA(), std::size_t(2));
    QCOMPARE(compared.comparison->ranksB(), std::size_t(2));
    // Three ranks against two: the notice counts the processes.
    QTemporaryDir dirC;
    trace::TraceBuilder three(3);
    for (trace::Rank r = 0; r < 3; ++r) three.rank(r).enter(0.0, "main").leave(4.0, "main");
    report::Report c = test::reportSkeleton(three.trace());
    c.severities.push_back({0, 0, {1.0, 1.0, 1.0}});
    const QString pathC = dirC.filePath(QStringLiteral("c.waitscope"));
    report::writeReport(c, pathC.toStdString());
    compared = app::ReportLoader::compareNow(loadedA.report, pathC);
    QVERIFY2(compared.comparison, qPrintable(compared.error));
    QVERIFY(!compared.comparison->sameRanks());
    QCOMPARE(compared.comparison->ranksA(), std::size_t(2));
    QCOMPARE(compared.comparison->ranksB(), std::size_t(3));
  }

  void timelineShowsThreadsAndStreamsUnderTheirProcess() {
    QTemporaryDir dir;
    Hybrid hybrid;
    const auto window = open(hybrid.write(dir, QStringLiteral("hybrid.waitscope")));
    QVERIFY(window);
    views::TimelineView* view = window->timelineView();
    std::vector<std::pair<std::uint32_t, int>> rows;
    for (const views::TimelineRow& r : view->rows().rows())
      if (!r.isNode) rows.emplace_back(r.location, r.depth);
    QCOMPARE(rows, (std::vector<std::pair<std::uint32_t, int>>{{0, 0}, {2, 1}, {1, 0}, {3, 1}, {4, 1}}));
    // The stream's kernel on the stream's row.
    QCOMPARE(regionAt(view, 3, 2.0), QStringLiteral("kernel"));
    // Folding rank 1 folds its rows.
    view->setChildrenCollapsed(1, true);
    QCOMPARE(view->rows().rowOfLocation(3), -1);
    QCOMPARE(view->rows().locationRowCount(), 3);
  }

  void statusBarSaysWhenTimesWereCorrected() {
    report::Report plain = Hybrid().report;
    QCOMPARE(app::timeCorrectionStatus(plain), QString());
    report::Report corrected = plain;
    corrected.meta = kCorrected;
    QCOMPARE(app::timeCorrectionStatus(corrected),
             QStringLiteral("Times corrected (controlled logical clock): 7 events moved, largest shift 300 ms"));
    corrected.meta[2].second = "1";
    corrected.meta[3].second = "2.5e-05";
    QCOMPARE(app::timeCorrectionStatus(corrected),
             QStringLiteral("Times corrected (controlled logical clock): 1 event moved, largest shift 25 µs"));

    // In the window: shown for a corrected report, hidden for another one.
    QTemporaryDir dir;
    Hybrid withKeys;
    withKeys.report.meta.insert(withKeys.report.meta.end(), kCorrected.begin(), kCorrected.end());
    const QString path = withKeys.write(dir, QStringLiteral("corrected.waitscope"));
    trace::writeClockCorrections(trace::clockCorrectionPath(path.toStdString()), std::vector<trace::LocationClockCorrection>(2));
    const auto window = open(path);
    QVERIFY(window);
    QLabel* label = correctionLabel(*window);
    QVERIFY(label);
    QCOMPARE(label->text(), QStringLiteral("Times corrected (controlled logical clock): 7 events moved, largest shift 300 ms"));
    QVERIFY(label->isVisible());
    QCOMPARE(window->statusBar()->currentMessage(), QString());  // the side file was fine
    QTemporaryDir other;
    Hybrid without;
    QSignalSpy loaded(window.get(), &app::MainWindow::reportLoaded);
    window->openReport(without.write(other, QStringLiteral("plain.waitscope")));
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
    QCOMPARE(label->text(), QString());
    QVERIFY(!label->isVisible());
  }

  void timelineDrawsTheCorrectedTimes() {
    QTemporaryDir dir;
    Hybrid hybrid;
    hybrid.report.meta.insert(hybrid.report.meta.end(), kCorrected.begin(), kCorrected.end());
    const QString path = hybrid.write(dir, QStringLiteral("corrected.waitscope"));
    // Rank 0 from its event 1 (enter foo, recorded at 1) on 0.5 s later; its thread with it.
    std::vector<trace::LocationClockCorrection> corrections(2);
    corrections[0].anchors.push_back({1, 0.5});
    trace::writeClockCorrections(trace::clockCorrectionPath(path.toStdString()), corrections);
    const auto window = open(path);
    QVERIFY(window);
    views::TimelineView* view = window->timelineView();
    QCOMPARE(regionAt(view, 0, 1.25), QStringLiteral("main"));  // foo begins at about 1.5 now
    QCOMPARE(regionAt(view, 0, 1.75), QStringLiteral("foo"));
    QCOMPARE(regionAt(view, 2, 1.75), QString());              // the thread's work too (from about 2.0)
    QCOMPARE(regionAt(view, 2, 2.25), QStringLiteral("work"));
    QCOMPARE(window->statusBar()->currentMessage(), QString());
  }

  void missingOrDamagedCorrectionIsOneLineAndRecordedTimes() {
    for (const bool damaged : {false, true}) {
      QTemporaryDir dir;
      Hybrid hybrid;
      hybrid.report.meta.insert(hybrid.report.meta.end(), kCorrected.begin(), kCorrected.end());
      const QString path = hybrid.write(dir, QStringLiteral("corrected.waitscope"));
      const QString side = QString::fromStdString(trace::clockCorrectionPath(path.toStdString()));
      if (damaged) std::ofstream(side.toStdString()) << "WSCLOCK1";  // its header, then nothing
      const auto window = open(path);
      QVERIFY(window);
      const QString message = window->statusBar()->currentMessage();
      QVERIFY2(message.startsWith(side + QStringLiteral(": ")), qPrintable(message));
      QVERIFY2(message.contains(damaged ? QStringLiteral("truncated") : QStringLiteral("cannot be opened")), qPrintable(message));
      QVERIFY(message.endsWith(QStringLiteral("(the timeline shows the recorded times)")));
      QVERIFY(!message.contains(QLatin1Char('\n')));
      // The recorded times; the report's correction is still said.
      views::TimelineView* view = window->timelineView();
      QCOMPARE(regionAt(view, 0, 1.25), QStringLiteral("foo"));
      QCOMPARE(regionAt(view, 2, 1.75), QStringLiteral("work"));
      QVERIFY(correctionLabel(*window)->isVisible());
    }
  }
};

QTEST_MAIN(HybridAndCorrectedReportsTest)
#include "hybrid_and_corrected_reports_test.moc"
