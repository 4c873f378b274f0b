// The online analysis' cost, as Hilbrich et al. (EASC 2014) measure it in Figs. 3 and 4:
// application slowdown (wall time with `waitscope-run --online` over the same program under plain
// mpiexec, measured side by side, median of --repeat runs) and the peak analysis queue of the
// places, for the paper's two Fig. 2 patterns (tests/apps/ring_triples.c) and sor at 8 and 16
// application ranks, for each channel selection.
//
//   waitscope-bench-online [--ranks 8,16] [--iterations N] [--sor-iterations N] [--repeat R]
//                          [--fan-in F] [--batch B] [--capacity C]
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/report/report.h"
#include "analysis/report/report_io.h"
#include "analysis/tools/command_line_args.h"
#include "bench/bench_args.h"

namespace fs = std::filesystem;

namespace {

double runSeconds(const std::string& command) {
  const auto t0 = std::chrono::steady_clock::now();
  const int status = std::system((command + " >/dev/null 2>&1").c_str());
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (status != 0) {
    std::fprintf(stderr, "waitscope-bench-online: failed (status %d): %s\n", status, command.c_str());
    std::exit(1);
  }
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::vector<int> parseList(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) out.push_back(std::stoi(item));
  return out;
}

struct Strategy {
  const char* label;
  std::string options;
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> ranks = {8, 16};
  std::uint64_t iterations = 4000, sorIterations = 100, repeat = 3, fanIn = 4, batch = 64, capacity = 4;
  bool unknown = false;
  const auto count = [](const char* option, std::uint64_t& target) {
    return [option, &target](const std::string& v) { target = waitscope::bench::parseCount(option, v); };
  };
  waitscope::tools::CommandLineArgs options;
  options.option({"--ranks"}, [&](const std::string& v) { ranks = parseList(v); })
      .option({"--iterations"}, count("--iterations", iterations))
      .option({"--sor-iterations"}, count("--sor-iterations", sorIterations))
      .option({"--repeat"}, count("--repeat", repeat))
      .option({"--fan-in"}, count("--fan-in", fanIn))
      .option({"--batch"}, count("--batch", batch))
      .option({"--capacity"}, count("--capacity", capacity))
      .whenMissing([](const std::string& a) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      })
      .unknown([&](const std::string&) {
        unknown = true;
        options.stop();
      });
  options.parse(argc, argv);
  if (unknown) {
    std::fprintf(stderr, "usage: waitscope-bench-online [--ranks 8,16] [--iterations N] [--sor-iterations N] "
                         "[--repeat R] [--fan-in F] [--batch B] [--capacity C]\n");
    return 2;
  }
  const std::string mpiexec = std::string("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ") +
                              WAITSCOPE_MPIEXEC + " -n ";
  const std::string run = std::string(WAITSCOPE_RUN) + " --online --fan-in " + std::to_string(fanIn) + " --batch " +
                          std::to_string(batch) + " --channel-capacity " + std::to_string(capacity) + " ";
  const fs::path dir = fs::temp_directory_path() / ("waitscope-bench-online-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string report = (dir / "online.waitscope").string();

  struct App {
    const char* name;
    std::string program;
  };
  const std::string it = std::to_string(iterations);
  const std::vector<App> apps = {{"ring_triples ring (Fig. 2a)", std::string(WAITSCOPE_RING_TRIPLES) + " " + it + " 0 1"},
                                 {"ring_triples triples (Fig. 2b)", std::string(WAITSCOPE_RING_TRIPLES) + " " + it + " 0 2"},
                                 {"sor", std::string(WAITSCOPE_SOR) + " 770 " + std::to_string(sorIterations)}};
  const std::vector<Strategy> strategies = {{"heuristic a=1 b=1", "--selection heuristic --alpha 1 --beta 1"},
                                            {"heuristic a=10 b=1", "--selection heuristic --alpha 10 --beta 1"},
                                            {"heuristic a=1 b=10", "--selection heuristic --alpha 1 --beta 10"},
                                            {"round-robin", "--selection round-robin"},
                                            {"intra-root-app", "--selection intra-root-app"},
                                            {"app|intra-root", "--selection app-intra-root"}};

  std::printf("Online analysis: slowdown (online wall time / plain mpiexec wall time, median of %llu) and peak\n"
              "analysis queue (entries of the fullest place); fan-in %llu, batches of %llu events, %llu batches per\n"
              "channel; no pause (sigma 10^6). ring_triples with %llu iterations and no delay, sor 770 x %llu.\n\n",
              static_cast<unsigned long long>(repeat), static_cast<unsigned long long>(fanIn),
              static_cast<unsigned long long>(batch), static_cast<unsigned long long>(capacity),
              static_cast<unsigned long long>(iterations), static_cast<unsigned long long>(sorIterations));
  std::printf("%-26s %5s  %-20s %9s %10s %7s\n", "program", "ranks", "selection", "slowdown", "peak queue", "pauses");
  for (const App& app : apps) {
    for (const int n : ranks) {
      for (const Strategy& s : strategies) {
        std::vector<double> plain, online;
        long peak = 0, pauses = 0;
        for (std::uint64_t r = 0; r < repeat; ++r) {  // side by side: plain, online, plain, online, ...
          plain.push_back(runSeconds(mpiexec + std::to_string(n) + " " + app.program));
          online.push_back(runSeconds(run + "-n " + std::to_string(n) + " " + s.options + " -o " + report + " -- " +
                                      app.program));
          const waitscope::report::Report rep = waitscope::report::readReport(report);
          peak = std::max(peak, std::stol(rep.metaValue("online_peak_queue", "0")));
          pauses = std::max(pauses, std::stol(rep.metaValue("online_pauses", "0")));
        }
        std::printf("%-26s %5d  %-20s %8.2fx %10ld %7ld\n", app.name, n, s.label, median(online) / median(plain), peak,
                    pauses);
        std::fflush(stdout);
      }
    }
  }
  fs::remove_all(dir);
  return 0;
}
