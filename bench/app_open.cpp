// The desktop app on a large report (docs/app.md): 64 locations, 20,000
// call paths and the full metric tree. Prints
//   - the time from creating the window to a populated window (report read off
//     the GUI thread, trees filled), in-process, and the same for the real
//     `waitscope` binary started as a process (with --export-png --quit);
//   - the time to refill the call tree (and the system tree and charts that
//     follow) after a metric selection: median and worst of many selections.
// Targets: populated window under 1 s, refill under 50 ms.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <QApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "analysis/metrics/metric_table.h"
#include "analysis/report/report_io.h"
#include "analysis/tools/command_line_args.h"
#include "app/main_window.h"
#include "views/model/selection.h"
#include "views/widgets/report_browser.h"

using namespace waitscope;

namespace {

struct Options {
  std::uint32_t locations = 64;
  std::uint32_t callPaths = 20000;
  int selections = 40;
  QString binary;
};

report::Report makeReport(const Options& o) {
  report::Report r;
  r.meta = {{"format_version", "1"}};
  for (const metrics::MetricDefinition& d : metrics::metricTable()) {
    r.metrics.push_back({std::string(d.uniqueName), std::string(d.displayName), std::string(d.description),
                         static_cast<report::MetricUnit>(d.unit),
                         d.parent == metrics::kNoParent ? report::kNoId
                                                         : static_cast<std::uint32_t>(metrics::index(d.parent))});
  }
  const char* mpiCalls[] = {"MPI_Recv", "MPI_Send", "MPI_Wait", "MPI_Allreduce", "MPI_Barrier", "MPI_Win_fence"};
  for (const char* name : mpiCalls) r.regions.push_back({name, "", 0, 0, "mpi"});
  for (int i = 0; i < 500; ++i) r.regions.push_back({"function_" + std::to_string(i), "app.c", 10u * i, 10u * i + 9, "user"});
  // A bushy tree: every call path below a random earlier one (parents before children).
  std::mt19937 random(42);
  r.callPaths.push_back({report::kNoId, 6, "", 0});
  for (std::uint32_t c = 1; c < o.callPaths; ++c) {
    const std::uint32_t parent = std::uniform_int_distribution<std::uint32_t>(c > 64 ? c - 64 : 0, c - 1)(random);
    const bool mpi = random() % 3 == 0;
    r.callPaths.push_back({parent, mpi ? static_cast<std::uint32_t>(random() % 6) : 6 + static_cast<std::uint32_t>(random() % 500),
                           "app.c", c});
  }
  r.systemNodes.push_back({"cluster", "machine", report::kNoId});
  for (int n = 0; n < 4; ++n) r.systemNodes.push_back({"node" + std::to_string(n), "node", 0});
  for (std::uint32_t l = 0; l < o.locations; ++l)
    r.locations.push_back({"MPI Rank " + std::to_string(l), l, 1 + l * 4 / o.locations});
  std::uniform_real_distribution<double> seconds(0.0, 0.01);
  auto row = [&](metrics::Metric m, std::uint32_t c) {
    report::SeverityRow s{static_cast<std::uint32_t>(metrics::index(m)), c, std::vector<double>(o.locations)};
    for (double& v : s.values) v = seconds(random);
    r.severities.push_back(std::move(s));
  };
  const metrics::Metric waits[] = {metrics::Metric::MpiLateSender, metrics::Metric::MpiWaitNxN,
                                    metrics::Metric::MpiBarrierWait, metrics::Metric::MpiRmaWaitAtFence,
                                    metrics::Metric::MpiRmaSyncLatePost};
  for (std::uint32_t c = 0; c < o.callPaths; ++c) {
    const bool mpi = r.callPaths[c].region < 6;
    row(mpi ? metrics::Metric::MpiPoint2Point : metrics::Metric::Comp, c);
    row(metrics::Metric::Visits, c);
    if (mpi) {
      row(waits[c % 5], c);
      row(metrics::Metric::DelayP2p, c);
      row(metrics::Metric::CriticalPath, c);
    }
  }
  return r;
}

double ms(const QElapsedTimer& t) { return static_cast<double>(t.nsecsElapsed()) / 1e6; }

}  // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  Options o;
  const auto text = [](const std::string& v) { return QString::fromLocal8Bit(v.c_str()); };
  // Arguments it does not know, and an option without its value, are ignored (Qt's own options included).
  tools::CommandLineArgs options;
  options.option({"--call-paths"}, [&](const std::string& v) { o.callPaths = text(v).toUInt(); })
      .option({"--locations"}, [&](const std::string& v) { o.locations = text(v).toUInt(); })
      .option({"--selections"}, [&](const std::string& v) { o.selections = text(v).toInt(); })
      .option({"--binary"}, [&](const std::string& v) { o.binary = text(v); })
      .whenMissing([](const std::string&) {})
      .unknown([](const std::string&) {});
  options.parse(argc, argv);
  if (o.callPaths < 2 || o.locations < 1) {
    std::fprintf(stderr, "usage: waitscope-bench-app [--call-paths N] [--locations N] [--selections N] [--binary PATH]\n");
    return 2;
  }
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("large.waitscope"));
  const report::Report report = makeReport(o);
  report::writeReport(report, path.toStdString());
  std::printf("report: %u locations, %u call paths, %zu metrics, %zu severity rows\n", o.locations, o.callPaths,
              report.metrics.size(), report.severities.size());

  QElapsedTimer timer;
  timer.start();
  app::MainWindow window;
  window.setInteractive(false);
  window.show();
  QSignalSpy loaded(&window, &app::MainWindow::reportLoaded);
  window.openReport(path);
  if (!loaded.wait(60000)) {
    std::fprintf(stderr, "the report did not load\n");
    return 1;
  }
  QApplication::processEvents();
  const double populated = ms(timer);
  std::printf("start to populated window (in-process): %8.1f ms   target < 1000 ms   (%.2fx of target)\n", populated,
              populated / 1000.0);

  // Refill: select metrics in turn; each selection refills call tree, system tree and charts.
  const char* names[] = {"mpi_latesender", "time", "mpi_wait_nxn", "visits", "mpi_rma_wait_at_fence", "comp",
                         "delay_p2p", "critical_path"};
  std::vector<double> refill;
  for (int i = 0; i < o.selections; ++i) {
    timer.restart();
    window.browser()->selectMetric(QString::fromLatin1(names[i % 8]));
    QApplication::processEvents();
    refill.push_back(ms(timer));
  }
  std::sort(refill.begin(), refill.end());
  const double median = refill[refill.size() / 2];
  std::printf("refill after a metric selection: median %6.2f ms, worst %6.2f ms over %d   target < 50 ms   (%.2fx)\n",
              median, refill.back(), o.selections, median / 50.0);

  if (!o.binary.isEmpty()) {
    QProcess process;
    timer.restart();
    process.start(o.binary, {path, QStringLiteral("--export-png"), dir.filePath(QStringLiteral("shot.png")),
                             QStringLiteral("--quit")});
    process.waitForFinished(120000);
    std::printf("real binary: start, load, render, write PNG, exit: %8.1f ms (exit %d)\n", ms(timer),
                process.exitCode());
  }
  return 0;
}
