// mpiexec -n R waitscope-bench-analysis [--events N] [--repeat K] [--keep DIR] [--trace ANCHOR] [--time-correction]
//
// How much does the analysis cost beyond reading the trace? Generates a synthetic
// MPI trace with R locations (rank 0 writes it), then, K times in turn, times
// (a) the bare OTF2 read of each rank's own location on all R ranks, (b) the
// forward analysis as waitscope-analyze runs it without the backward replay
// (parallel read, validation, replay with every pattern, gathering and writing
// the report: the analyzer issue's scope), (c) the whole analysis (b with the
// causes), and (d) on rank 0 alone, the read-limit benchmark's bare loop over
// the whole trace. Prints the best time of each, the ratios and the peak
// resident memory per event. --trace analyzes a recorded trace of R ranks instead
// (e.g. tests/apps/halo recorded with waitscope-run).
// Targets: forward analysis <= 1.5 x the read-limit benchmark's loop (the
// analyzer issue); the backward replay adds at most 60% to the forward-only
// analysis (the causes issue); peak resident growth <= 64 bytes per event summed over
// the ranks; the whole analysis <= 1.5 x the parallel bare read and <= 48 bytes per
// event peak growth in every analysis process (rank 0 included), by its own events.
// With --time-correction instead: the same trace with location 1's clock 100 us ahead (clock-
// condition violations in every step), analyzed as waitscope-analyze does without the causes,
// with and without the time correction; prints both times and what the correction adds.
// Target: the correction adds at most 30%.
// Exits 0 whatever the figures; non-zero only if something fails outright.
#include <malloc.h>
#include <stdlib.h>
#include <time.h>
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
#include <vector>

#include "analysis/analyzer/analyzer.h"
#include "analysis/replay/yielding_wait.h"
#include "analysis/report/report_io.h"
#include "analysis/tools/command_line_args.h"
#include "analysis/trace/otf2_reader_mpi.h"
#include "bench/bare_otf2_read.h"
#include "bench/bench_args.h"
#include "bench/trace_generator.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
constexpr double kRatioTarget = 1.5;  // forward analysis / the read-limit benchmark's loop
constexpr double kBytesPerEventTarget = 64.0;
constexpr double kProcessBytesPerEventTarget = 48.0;  // each process, by the events of its own location
constexpr double kWholeToBareTarget = 1.5;             // whole analysis / the parallel bare read
constexpr double kCausesTarget = 0.6;  // the backward replay adds at most 60% to the forward-only analysis
constexpr double kCorrectionTarget = 0.3;  // the time correction adds at most 30% to the analysis
constexpr std::uint64_t kSkewTicks = 100'000;  // 100 us: location 1's messages seem to arrive before they were sent

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

// Wall time of `work` on the slowest rank, started together. A rank that is done waits for the
// others as waitscope-analyze does, giving up its core where ranks share cores: a polling wait
// would take time slices from the ranks still at work, whose time is the one measured.
bool sharedCores() {
  static const bool shared = waitscope::replay::nodeOversubscribed(MPI_COMM_WORLD);  // collective, on first use
  return shared;
}

template <typename Work>
double timed(Work&& work) {
  const bool yieldCore = sharedCores();
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = Clock::now();
  work();
  double mine = std::chrono::duration<double>(Clock::now() - start).count(), slowest = 0;
  waitscope::replay::callAndWait(yieldCore, MPI_Iallreduce, static_cast<const void*>(&mine),
                                 static_cast<void*>(&slowest), 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

double threadCpu() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Wall and CPU time of the steps of one analysis run, from one mark to the next,
// and the peak resident memory at each mark (on this kind of VM, touching fresh
// memory is one of the analysis' largest costs).
struct Steps {
  std::vector<std::string> names;
  std::vector<double> wall, cpu;  // of the step ending at the mark; the first mark's are 0
  std::vector<double> peakBytes;  // VmHWM at the mark
  double total = std::numeric_limits<double>::infinity();
  Clock::time_point lastWall;
  double lastCpu = 0;

  void mark(std::string name) {
    const auto now = Clock::now();
    const double c = threadCpu();
    names.push_back(std::move(name));
    wall.push_back(names.size() == 1 ? 0.0 : std::chrono::duration<double>(now - lastWall).count());
    cpu.push_back(names.size() == 1 ? 0.0 : c - lastCpu);
    peakBytes.push_back(static_cast<double>(procStatusBytes("VmHWM")));
    lastWall = now;
    lastCpu = c;
  }
  // Every rank marks the same steps: the slowest rank's wall time, the ranks' CPU time summed (on rank 0).
  void reduce(double totalWall) {
    total = totalWall;
    std::vector<double> maxWall(wall.size()), sumCpu(cpu.size()), sumPeak(peakBytes.size());
    MPI_Reduce(wall.data(), maxWall.data(), static_cast<int>(wall.size()), MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(cpu.data(), sumCpu.data(), static_cast<int>(cpu.size()), MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(peakBytes.data(), sumPeak.data(), static_cast<int>(peakBytes.size()), MPI_DOUBLE, MPI_SUM, 0,
               MPI_COMM_WORLD);
    wall.swap(maxWall);
    cpu.swap(sumCpu);
    peakBytes.swap(sumPeak);
  }
  // Sum of the steps after mark `from` up to and including mark `to`.
  double between(const std::vector<double>& of, const std::string& from, const std::string& to) const {
    const auto a = std::find(names.begin(), names.end(), from), b = std::find(names.begin(), names.end(), to);
    if (a == names.end() || b == names.end() || b < a) return 0.0;
    double sum = 0;
    for (auto i = static_cast<std::size_t>(a - names.begin()) + 1; i <= static_cast<std::size_t>(b - names.begin()); ++i)
      sum += of[i];
    return sum;
  }
  double wallBetween(const std::string& from, const std::string& to) const { return between(wall, from, to); }
  double cpuBetween(const std::string& from, const std::string& to) const { return between(cpu, from, to); }
};

// Rank 0's part of writing the report as waitscope-analyze does: the instances as they come.
auto writeTo(const std::string& path) {
  return [path](waitscope::report::Report& rep, const waitscope::report::InstanceSource& instances) {
    waitscope::report::writeReport(rep, path, instances);
  };
}

struct Args {
  std::uint64_t events = 10'000'000;
  int repeat = 3;
  std::string keep;
  std::string trace;  // a recorded trace instead of a generated one
  bool timeCorrection = false;
};

// Rank 0 picks the directory (a fresh one unless `keep`) and tells the others.
fs::path sharedDirectory(const std::string& keep, int me) {
  std::string dirName = keep;
  if (me == 0 && dirName.empty()) {
    dirName = (fs::temp_directory_path() / "waitscope-bench-analysis-XXXXXX").string();
    if (!mkdtemp(dirName.data())) throw std::runtime_error("cannot create a temporary directory");
  }
  int length = static_cast<int>(dirName.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  dirName.resize(static_cast<std::size_t>(length));
  MPI_Bcast(dirName.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  return fs::path(dirName);
}

// --time-correction: the forward analysis of a trace with clock-condition violations, with and
// without their correction, in turn; the best time of each.
int runTimeCorrection(const Args& args) {
  int me = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const fs::path dir = sharedDirectory(args.keep, me);
  const std::string anchor = (dir / "skewed" / "traces.otf2").string();
  unsigned long long events = 0;
  if (me == 0 && !fs::exists(anchor)) {
    fs::create_directories(dir / "skewed");
    waitscope::bench::GeneratorOptions gen;
    gen.events = args.events;
    gen.locations = static_cast<std::uint32_t>(size);
    gen.skewTicks = kSkewTicks;
    std::printf("generating %llu events over %d locations, location 1's clock %llu ns ahead, in %s ...\n",
                static_cast<unsigned long long>(args.events), size, static_cast<unsigned long long>(kSkewTicks),
                (dir / "skewed").c_str());
    std::fflush(stdout);
    events = waitscope::bench::generateTrace((dir / "skewed").string(), gen).events;
  }
  MPI_Bcast(&events, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  const std::string reportPath = (dir / "skewed.waitscope").string();
  double best[2] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  waitscope::report::Report corrected;
  for (int k = 0; k < args.repeat; ++k) {
    for (const bool correct : {k % 2 == 1, k % 2 == 0}) {
      malloc_trim(0);
      waitscope::report::Report rep;
      const double t = timed([&] {
        waitscope::trace::ReadOptions ro;
        ro.warn = [](const std::string&) {};
        waitscope::trace::Trace local = waitscope::trace::readTraceForRank(anchor, MPI_COMM_WORLD, ro);
        waitscope::analyzer::AnalysisOptions options;
        options.causes = false;
        options.timeCorrection = correct;
        const auto result = waitscope::analyzer::analyzeLocation(local, MPI_COMM_WORLD, options);
        rep = waitscope::analyzer::gatherReportStreamed(local, result, MPI_COMM_WORLD, writeTo(reportPath));
      });
      best[correct] = std::min(best[correct], t);
      if (correct) corrected = std::move(rep);
    }
  }
  if (me == 0) {
    const double added = (best[1] - best[0]) / best[0];
    std::printf("time correction benchmark: %llu events, %d ranks, best of %d, forward analysis (read, patterns, "
                "report)\n", events, size, args.repeat);
    std::printf("  clock-condition violations found        %s (raw), %s events moved, largest shift %s s, %s rounds\n",
                corrected.metaValue("time_correction_violations", "0").c_str(),
                corrected.metaValue("time_correction_moved_events", "0").c_str(),
                corrected.metaValue("time_correction_largest_shift", "0").c_str(),
                corrected.metaValue("time_correction_rounds", "0").c_str());
    std::printf("  without correction (--no-time-correct)  %7.3f s\n", best[0]);
    std::printf("  with correction                         %7.3f s\n", best[1]);
    std::printf("  with / without                          %7.2f    (adds %.0f%%, target <= %.0f%%  %s)\n",
                best[1] / best[0], 100.0 * added, 100.0 * kCorrectionTarget, added <= kCorrectionTarget ? "PASS" : "MISS");
  }
  if (args.keep.empty() && me == 0) fs::remove_all(dir);
  return 0;
}

int run(const Args& args) {
  int me = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  const fs::path dir = sharedDirectory(args.keep, me);  // with --trace, only the report goes there
  const std::string anchor = args.trace.empty() ? (dir / "traces.otf2").string() : args.trace;
  unsigned long long events = 0;
  if (me == 0 && args.trace.empty()) {
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

  // Per step (a progress line of the analysis, the read before it and the
  // report after it): wall time of the slowest rank and CPU time summed over
  // the ranks. On a shared machine the CPU times are the steadier figures.
  Steps bestWhole, bestForward;
  double bestBare = std::numeric_limits<double>::infinity(), bestBareCpu = 0;
  double bestWholeBare = std::numeric_limits<double>::infinity();
  unsigned long long peakGrowth = 0;
  // Per process, by the events of its own location: the largest over the ranks, and rank 0's
  // (which also gathers the report), each the largest over the runs.
  double peakProcessPerEvent = 0, peakRootPerEvent = 0;
  unsigned long long myEvents = 0;
  const std::string reportPath = (dir / "bench.waitscope").string();
  // One analysis as waitscope-analyze runs it, with or without the backward
  // replay (causes); keeps the faster run's steps and the peak memory growth.
  auto analyze = [&](bool causes) {
    Steps& best = causes ? bestWhole : bestForward;
    malloc_trim(0);
    resetPeakRss();
    const std::uint64_t before = procStatusBytes("VmRSS");
    Steps steps;
    const double total = timed([&] {
      steps.mark("start");
      waitscope::trace::ReadOptions ro;
      ro.warn = [](const std::string&) {};
      waitscope::trace::Trace local = waitscope::trace::readTraceForRank(anchor, MPI_COMM_WORLD, ro);
      steps.mark("read");
      waitscope::analyzer::AnalysisOptions options;
      options.causes = causes;
      options.releaseTrace = true;  // as waitscope-analyze runs it
      options.progress = [&](std::string_view phase, int percent) {
        if (percent > 0) steps.mark(std::string(phase) + " " + std::to_string(percent));
      };
      const auto result = waitscope::analyzer::analyzeLocation(local, MPI_COMM_WORLD, options);
      waitscope::analyzer::gatherReportStreamed(local, result, MPI_COMM_WORLD, writeTo(reportPath));
      steps.mark("report");
    });
    unsigned long long growth = procStatusBytes("VmHWM") - before, totalGrowth = 0;
    MPI_Reduce(&growth, &totalGrowth, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    const double perEvent = static_cast<double>(growth) / static_cast<double>(std::max(myEvents, 1ULL));
    double largest = 0;
    MPI_Reduce(&perEvent, &largest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    peakProcessPerEvent = std::max(peakProcessPerEvent, largest);
    if (me == 0) peakRootPerEvent = std::max(peakRootPerEvent, perEvent);
    steps.reduce(total);
    if (total < best.total) best = steps;
    peakGrowth = std::max(peakGrowth, totalGrowth);
  };
  for (int k = 0; k < args.repeat; ++k) {
    unsigned long long mine = 0;
    double bareCpu = threadCpu();
    const double bare = timed([&] { mine = waitscope::bench::bareRead(anchor, static_cast<std::uint32_t>(me)); });
    bareCpu = threadCpu() - bareCpu;
    myEvents = mine;
    MPI_Reduce(&mine, &events, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    double allBareCpu = 0;
    MPI_Reduce(&bareCpu, &allBareCpu, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (bare < bestBare) {
      bestBare = bare;
      bestBareCpu = allBareCpu;
    }
    // In turn which one goes first: the second analysis in a turn can find the
    // node in another state (freed memory, other ranks' page cache).
    for (const bool causes : {k % 2 == 1, k % 2 == 0}) analyze(causes);

    // The read-limit benchmark's loop: the other ranks wait without polling, so
    // rank 0 has a core to itself.
    if (me == 0) {
      const auto start = Clock::now();
      waitscope::bench::bareRead(anchor);
      bestWholeBare = std::min(bestWholeBare, std::chrono::duration<double>(Clock::now() - start).count());
    }
    MPI_Request done = MPI_REQUEST_NULL;
    MPI_Ibarrier(MPI_COMM_WORLD, &done);
    waitscope::replay::waitFor(done, true);
  }
  if (me == 0) {
    const double forward = bestForward.total, whole = bestWhole.total;
    const double forwardCpu = bestForward.cpuBetween("start", "report"), wholeCpu = bestWhole.cpuBetween("start", "report");
    const double ratio = forward / bestWholeBare;
    const double causes = (whole - forward) / forward;
    const double perEvent = static_cast<double>(peakGrowth) / static_cast<double>(events);
    std::printf("analysis benchmark: %llu events, %d ranks, best of %d\n", events, size, args.repeat);
    std::printf("  bare read, the read-limit loop (1 process)  %7.3f s\n", bestWholeBare);
    std::printf("  bare read, each rank its location           %7.3f s  (CPU %.3f s)\n", bestBare, bestBareCpu);
    std::printf("  forward analysis (read, patterns, report)   %7.3f s  (CPU %.3f s)\n", forward, forwardCpu);
    std::printf("  whole analysis (forward and causes)         %7.3f s  (CPU %.3f s)\n", whole, wholeCpu);
    std::printf("  forward analysis / read-limit loop          %7.2f    target <= %.1f  %s\n", ratio, kRatioTarget,
                ratio <= kRatioTarget ? "PASS" : "MISS");
    std::printf("  forward analysis / parallel bare read       %7.2f    (CPU time ratio %.2f)\n", forward / bestBare,
                forwardCpu / bestBareCpu);
    std::printf("  whole analysis / read-limit loop            %7.2f    (/ parallel bare read %.2f, CPU time ratio %.2f)\n",
                whole / bestWholeBare, whole / bestBare, wholeCpu / bestBareCpu);
    std::printf("  causes: (whole - forward) / forward         %7.2f    target <= %.1f  %s  (CPU time ratio %.2f)\n",
                causes, kCausesTarget, causes <= kCausesTarget ? "PASS" : "MISS", (wholeCpu - forwardCpu) / forwardCpu);
    // The figure the causes' cost was first measured with (bench/history.md): within one
    // whole run, the causes' steps against the steps before them.
    std::printf("  causes steps / forward steps, whole run     %7.2f    (CPU time ratio %.2f)\n",
                bestWhole.wallBetween("replay 100", "causes 100") / bestWhole.wallBetween("start", "replay 100"),
                bestWhole.cpuBetween("replay 100", "causes 100") / bestWhole.cpuBetween("start", "replay 100"));
    std::printf("  peak resident growth per event              %7.1f B  target <= %.0f  %s\n", perEvent,
                kBytesPerEventTarget, perEvent <= kBytesPerEventTarget ? "PASS" : "MISS");
    // The scale targets, side by side: every process' peak by its own events, and the
    // whole analysis against the read it cannot avoid.
    std::printf("  peak bytes per event, per process           %7.1f B  (rank 0 %.1f B)  target <= %.0f  %s\n",
                peakProcessPerEvent, peakRootPerEvent, kProcessBytesPerEventTarget,
                peakProcessPerEvent <= kProcessBytesPerEventTarget ? "PASS" : "MISS");
    std::printf("  whole analysis / parallel bare read         %7.2f    target <= %.1f  %s  (CPU time ratio %.2f)\n",
                whole / bestBare, kWholeToBareTarget, whole / bestBare <= kWholeToBareTarget ? "PASS" : "MISS",
                wholeCpu / bestBareCpu);
    // The read step alone, as the analysis reads (every event kept for the backward replay): no
    // analysis that keeps the trace can be faster than this against the bare read.
    std::printf("  the read alone / parallel bare read         %7.2f    (CPU time ratio %.2f)\n",
                bestForward.wallBetween("start", "read") / bestBare,
                bestForward.cpuBetween("start", "read") / bestBareCpu);
    for (const auto& [name, best] : {std::pair{"forward", &bestForward}, std::pair{"whole", &bestWhole}}) {
      std::printf("  steps of the fastest %s analysis, wall s (slowest rank) / CPU s (all ranks) / peak resident "
                  "growth B per event:\n", name);
      for (std::size_t i = 1; i < best->names.size(); ++i)
        std::printf("    %-14s %7.3f / %7.3f / %5.1f\n", best->names[i].c_str(), best->wall[i], best->cpu[i],
                    (best->peakBytes[i] - best->peakBytes[0]) / static_cast<double>(events));
    }
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
    waitscope::tools::CommandLineArgs options;
    options.option({"--events"}, [&](const std::string& v) { args.events = waitscope::bench::parseCount("--events", v); })
        .option({"--repeat"},
                [&](const std::string& v) { args.repeat = static_cast<int>(waitscope::bench::parseCount("--repeat", v)); })
        .option({"--keep"}, [&](const std::string& v) { args.keep = v; })
        .option({"--trace"}, [&](const std::string& v) { args.trace = v; })
        .flag({"--time-correction"}, [&] { args.timeCorrection = true; })
        .whenMissing(waitscope::bench::throwMissingValue)
        .unknown([](const std::string& arg) { throw std::invalid_argument("unknown option " + arg); });
    options.parse(argc, argv);
    code = args.timeCorrection ? runTimeCorrection(args) : run(args);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "waitscope-bench-analysis: %s\nusage: mpiexec -n R waitscope-bench-analysis [--events N] "
                 "[--repeat K] [--keep DIR] [--trace ANCHOR] [--time-correction]\n", e.what());
    code = 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "waitscope-bench-analysis: %s\n", e.what());
    code = 1;
  }
  MPI_Finalize();
  return code;
}
