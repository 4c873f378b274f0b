// mpiexec -n R waitscope-bench-analysis [--events N] [--repeat K] [--keep DIR]
//
// How much does the analysis cost beyond reading the trace? Generates a synthetic
// MPI trace with R locations (rank 0 writes it), then times, alternately and K
// times each, on all R ranks: (a) the bare OTF2 read of each rank's own location
// (the read limit of the foundation benchmark, in parallel) and (b) the whole
// analysis as waitscope-analyze does it: parallel read, validation, replay with
// every pattern, gathering and writing the report. Prints the best time of each,
// their ratio and the peak resident memory per event.
// Targets: ratio <= 1.5; peak resident memory growth <= 64 bytes per event; the
// backward replay (causes) adds at most 60% to the forward analysis (read + replay).
// Exits 0 whatever the figures; non-zero only if something fails outright.
#include <malloc.h>
#include <stdlib.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

#include "bare_otf2_read.h"
#include "bench_args.h"
#include "replay/analyzer.h"
#include "report/report_io.h"
#include "trace/otf2_reader_mpi.h"
#include "trace_generator.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
constexpr double kRatioTarget = 1.5;
constexpr double kBytesPerEventTarget = 64.0;
constexpr double kCausesTarget = 0.6;  // the backward replay adds at most 60% to the forward analysis

std::uint64_t procStatusBytes(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.compare(0, field.size() + 1, field + ":") == 0) return std::stoull(line.substr(field.size() + 1)) * 1024;
  return 0;
}

void resetPeakRss() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
}

// Wall time of `work` on the slowest rank, started together.
template <typename Work>
double timed(Work&& work) {
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = Clock::now();
  work();
  double mine = std::chrono::duration<double>(Clock::now() - start).count(), slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

struct Args {
  std::uint64_t events = 10'000'000;
  int repeat = 3;
  std::string keep;
};

int run(const Args& args) {
  int me = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  // Rank 0 picks the directory (a fresh one unless --keep) and tells the others.
  std::string dirName = args.keep;
  if (me == 0 && dirName.empty()) {
    dirName = (fs::temp_directory_path() / "waitscope-bench-analysis-XXXXXX").string();
    if (!mkdtemp(dirName.data())) throw std::runtime_error("cannot create a temporary directory");
  }
  int length = static_cast<int>(dirName.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  dirName.resize(static_cast<std::size_t>(length));
  MPI_Bcast(dirName.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  const fs::path dir(dirName);
  const std::string anchor = (dir / "traces.otf2").string();
  unsigned long long events = 0;
  if (me == 0) {
    if (!fs::exists(anchor)) {
      fs::create_directories(dir);
      waitscope::bench::GeneratorOptions gen;
      gen.events = args.events;
      gen.locations = static_cast<std::uint32_t>(size);
      std::printf("generating %llu events over %d locations in %s ...\n",
                  static_cast<unsigned long long>(args.events), size, dir.c_str());
      std::fflush(stdout);
      events = waitscope::bench::generateTrace(dir.string(), gen).events;
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);

  double bestBare = std::numeric_limits<double>::infinity(), bestAnalysis = bestBare;
  double bestRead = bestBare, bestReplay = bestBare, bestReport = bestBare, bestCauses = bestBare;
  unsigned long long peakGrowth = 0;
  const std::string reportPath = (dir / "bench.waitscope").string();
  for (int k = 0; k < args.repeat; ++k) {
    unsigned long long mine = 0;
    bestBare = std::min(bestBare, timed([&] { mine = waitscope::bench::bareRead(anchor, static_cast<std::uint32_t>(me)); }));
    MPI_Reduce(&mine, &events, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);

    malloc_trim(0);
    resetPeakRss();
    const std::uint64_t before = procStatusBytes("VmRSS");
    double read = 0, replay = 0, report = 0, causes = 0;
    const double total = timed([&] {
      const auto t0 = Clock::now();
      waitscope::trace::ReadOptions ro;
      ro.warn = [](const std::string&) {};
      const waitscope::trace::Trace local = waitscope::trace::readTraceForRank(anchor, MPI_COMM_WORLD, ro);
      const auto t1 = Clock::now();
      // The causes phase (backward replay) is timed apart: its target is relative
      // to the forward analysis.
      waitscope::replay::AnalysisOptions options;
      Clock::time_point causesStart = t1, causesEnd = t1;
      options.progress = [&](std::string_view phase, int percent) {
        if (phase != "causes") return;
        (percent == 0 ? causesStart : causesEnd) = Clock::now();
      };
      const auto result = waitscope::replay::analyzeLocation(local, MPI_COMM_WORLD, options);
      const auto t2 = Clock::now();
      causes = std::chrono::duration<double>(causesEnd - causesStart).count();
      const auto rep = waitscope::replay::gatherReport(local, result, MPI_COMM_WORLD);
      if (me == 0) waitscope::report::writeReport(rep, reportPath);
      const auto t3 = Clock::now();
      read = std::chrono::duration<double>(t1 - t0).count();
      replay = std::chrono::duration<double>(t2 - t1).count();
      report = std::chrono::duration<double>(t3 - t2).count();
    });
    unsigned long long growth = procStatusBytes("VmHWM") - before, totalGrowth = 0;
    MPI_Reduce(&growth, &totalGrowth, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    double phases[4] = {read, replay, report, causes}, slowest[4];
    MPI_Reduce(phases, slowest, 4, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (total < bestAnalysis) {
      bestAnalysis = total;
      bestRead = slowest[0];
      bestReplay = slowest[1];
      bestReport = slowest[2];
      bestCauses = slowest[3];
    }
    peakGrowth = std::max(peakGrowth, totalGrowth);
  }
  if (me == 0) {
    const double ratio = bestAnalysis / bestBare;
    const double perEvent = static_cast<double>(peakGrowth) / static_cast<double>(events);
    std::printf("analysis benchmark: %llu events, %d ranks, best of %d\n", events, size, args.repeat);
    std::printf("  bare OTF2 read (each rank its location)  %8.3f s\n", bestBare);
    std::printf("  whole analysis                           %8.3f s  (read %.3f, validate+replay %.3f, report %.3f)\n",
                bestAnalysis, bestRead, bestReplay, bestReport);
    std::printf("  ratio analysis / bare read               %8.2f    target <= %.1f  %s\n", ratio, kRatioTarget,
                ratio <= kRatioTarget ? "PASS" : "MISS");
    const double forward = bestRead + bestReplay - bestCauses;
    std::printf("  backward replay (causes) / forward       %8.2f    target <= %.1f  %s  (causes %.3f s, forward "
                "read+replay %.3f s)\n",
                bestCauses / forward, kCausesTarget, bestCauses / forward <= kCausesTarget ? "PASS" : "MISS", bestCauses,
                forward);
    std::printf("  peak resident growth per event           %8.1f B  target <= %.0f  %s\n", perEvent,
                kBytesPerEventTarget, perEvent <= kBytesPerEventTarget ? "PASS" : "MISS");
  }
  if (args.keep.empty() && me == 0) fs::remove_all(dir);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  try {
    Args args;
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw std::invalid_argument(arg + ": missing value");
        return argv[++i];
      };
      if (arg == "--events") args.events = waitscope::bench::parseCount(arg, value());
      else if (arg == "--repeat") args.repeat = static_cast<int>(waitscope::bench::parseCount(arg, value()));
      else if (arg == "--keep") args.keep = value();
      else throw std::invalid_argument("unknown option " + arg);
    }
    code = run(args);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "waitscope-bench-analysis: %s\nusage: mpiexec -n R waitscope-bench-analysis [--events N] "
                 "[--repeat K] [--keep DIR]\n", e.what());
    code = 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "waitscope-bench-analysis: %s\n", e.what());
    code = 1;
  }
  MPI_Finalize();
  return code;
}
