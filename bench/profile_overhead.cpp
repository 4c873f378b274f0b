// waitscope-bench-profile-overhead: what libwaitscope-measure adds per MPI call in profile
// mode (Mao et al., EuroMPI/ASIA 2014) and in tracing mode, against no library, measured side by side in one run;
// and whether profile mode's memory stays constant when the program runs 10x longer.
//
// It runs profile_overhead_worker (one rank, cheap calls in a loop, best of the rounds in thread
// CPU time, so that other processes on the machine do not count) under
// mpiexec: without the library, with it tracing, with it profiling; REPEAT times in turn, and
// keeps each mode's best time per kind of call. Then it profiles ITERATIONS and 10 x ITERATIONS
// iterations and compares the peak resident set size (VmHWM) of the two processes and the
// profile's own table size (report meta profile_bytes_max).
//
// Tracing mode is also given per recorded event (target: at most 100 ns per event),
// and the dilation of tests/apps/sor at its default size, without the library and tracing,
// side by side (target: at most 3% longer).
//
// usage: waitscope-bench-profile-overhead [--iterations N] [--rounds R] [--repeat K]
//                                         [--sor-ranks P] [--sor-size N --sor-iters I] [--no-sor]
//                                         [--library LIBWAITSCOPE_MEASURE_SO]
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/report/report_io.h"
#include "analysis/tools/command_line_args.h"

namespace fs = std::filesystem;

namespace {

constexpr double kTargetNs = 60.0;    // profile mode, per MPI call
constexpr double kMemoryTolerance = 1.05;  // peak RSS of the 10x longer run over the short one
constexpr double kTraceEventTargetNs = 100.0;  // tracing mode, per recorded event
constexpr double kSorDilationTarget = 0.03;    // tracing mode, sor's run time

// Records per iteration of each kind of the worker in tracing mode, and its MPI calls.
// MPI_Comm_rank: ENTER, LEAVE. Isend+Recv+Wait: 3 x (ENTER, LEAVE) + MPI_ISEND, MPI_RECV,
// MPI_ISEND_COMPLETE. Allreduce, Barrier: ENTER, MPI_COLLECTIVE_BEGIN, MPI_COLLECTIVE_END, LEAVE.
const std::map<std::string, std::pair<int, int>> kEventsAndCalls = {
    {"MPI_Comm_rank", {2, 1}},
    {"MPI_Isend+MPI_Recv+MPI_Wait", {9, 3}},
    {"MPI_Allreduce", {4, 1}},
    {"MPI_Barrier", {4, 1}}};

struct Result {
  std::map<std::string, double> nsPerCall;  // kind -> ns per call
  std::vector<std::string> kinds;           // in the worker's order
  long hwmKb = -1;
};

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs the worker under mpiexec with `env` exported; dies with one line on failure.
Result runWorker(const std::vector<std::string>& env, long iterations, int rounds) {
  std::string cmd = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + std::string(WAITSCOPE_MPIEXEC) +
                    " -n 1";
  for (const std::string& e : env) cmd += " -x " + shellQuote(e);
  cmd += " " + shellQuote(WAITSCOPE_WORKER) + " " + std::to_string(iterations) + " " + std::to_string(rounds) +
         " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    std::fprintf(stderr, "waitscope-bench-profile-overhead: cannot run mpiexec: %s\n", std::strerror(errno));
    std::exit(1);
  }
  Result r;
  std::string all;
  char line[512];
  while (std::fgets(line, sizeof line, p)) {
    all += line;
    std::istringstream in(line);
    std::string kind;
    in >> kind;
    if (kind == "hwm_kb") {
      in >> r.hwmKb;
    } else if (kind.rfind("MPI_", 0) == 0) {
      int calls = 0;
      double ns = 0.0;
      if (in >> calls >> ns) {
        r.kinds.push_back(kind);
        r.nsPerCall[kind] = ns;
      }
    }
  }
  const int status = pclose(p);
  if (status != 0 || r.kinds.empty()) {
    std::fprintf(stderr, "waitscope-bench-profile-overhead: the worker failed (status %d):\n%s", status, all.c_str());
    std::exit(1);
  }
  return r;
}

struct Timing {
  double wall = 0.0, cpu = 0.0;  // seconds; cpu: user + system of mpiexec and the ranks
};

double cpuOfChildren() {
  rusage ru{};
  getrusage(RUSAGE_CHILDREN, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

// One run of sor under mpiexec; dies with one line on failure.
Timing runSor(const std::vector<std::string>& env, int ranks, const std::string& args) {
  std::string cmd = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + std::string(WAITSCOPE_MPIEXEC) +
                    " -n " + std::to_string(ranks);
  for (const std::string& e : env) cmd += " -x " + shellQuote(e);
  cmd += " " + shellQuote(WAITSCOPE_SOR) + " " + args + " > /dev/null 2>&1";
  const double cpu0 = cpuOfChildren();
  const auto t0 = std::chrono::steady_clock::now();
  const int status = std::system(cmd.c_str());
  Timing t;
  t.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  t.cpu = cpuOfChildren() - cpu0;
  if (status != 0) {
    std::fprintf(stderr, "waitscope-bench-profile-overhead: sor failed (status %d): %s\n", status, cmd.c_str());
    std::exit(1);
  }
  return t;
}

// The value of a numeric option: a positive number, or the program exits with 2.
template <typename T>
waitscope::tools::CommandLineArgs::ValueHandler positive(const char* option, T& target) {
  return [option, &target](const std::string& text) {
    char* end = nullptr;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (!end || *end || v < 1) {
      std::fprintf(stderr, "waitscope-bench-profile-overhead: %s needs a positive number, not '%s'\n", option,
                   text.c_str());
      std::exit(2);
    }
    target = static_cast<T>(v);
  };
}

[[noreturn]] void needsNumber(const std::string& option) {
  std::fprintf(stderr, "waitscope-bench-profile-overhead: %s needs a number\n", option.c_str());
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  long iterations = 50000;
  int rounds = 20, repeat = 3, sorRanks = 2;
  long sorSize = 0, sorIters = 0;  // 0: sor's defaults (770 x 770, 600 iterations)
  bool sor = *WAITSCOPE_SOR != '\0';  // empty: the example programs are not built
  std::string library = WAITSCOPE_MEASURE_LIB;  // --library: e.g. a copy of an older build, to compare
  bool wrongUsage = false;
  waitscope::tools::CommandLineArgs options;
  const auto usageAndStop = [&](const std::string&) {
    wrongUsage = true;
    options.stop();
  };
  options.option({"--iterations"}, positive("--iterations", iterations))
      .option({"--rounds"}, positive("--rounds", rounds))
      .option({"--repeat"}, positive("--repeat", repeat))
      .option({"--sor-ranks"}, positive("--sor-ranks", sorRanks))
      .option({"--sor-size"}, positive("--sor-size", sorSize))
      .option({"--sor-iters"}, positive("--sor-iters", sorIters))
      .whenMissing(needsNumber)
      .flag({"--no-sor"}, [&] { sor = false; })
      .option({"--library"}, [&](const std::string& file) { library = file; })
      .ifMissing(usageAndStop)
      .unknown(usageAndStop);
  options.parse(argc, argv);
  if (wrongUsage) {
    std::fprintf(stderr,
                 "usage: waitscope-bench-profile-overhead [--iterations N] [--rounds R] [--repeat K]\n"
                 "                                        [--sor-ranks P] [--sor-size N --sor-iters I] [--no-sor]\n"
                 "                                        [--library LIBWAITSCOPE_MEASURE_SO]\n");
    return 2;
  }
  char tmpl[] = "/tmp/waitscope-bench-profile-XXXXXX";
  if (!mkdtemp(tmpl)) {
    std::fprintf(stderr, "waitscope-bench-profile-overhead: cannot create a temporary directory: %s\n",
                 std::strerror(errno));
    return 1;
  }
  const fs::path dir = tmpl;
  const std::string preload = "LD_PRELOAD=" + library;
  const std::vector<std::string> none = {};
  const std::vector<std::string> tracing = {preload, "WAITSCOPE_QUIET=1", "WAITSCOPE_TRACE_DIR=" + (dir / "trace").string()};
  auto profiling = [&](const std::string& name) {
    return std::vector<std::string>{preload, "WAITSCOPE_QUIET=1", "WAITSCOPE_PROFILE=1",
                                    "WAITSCOPE_PROFILE_OUT=" + (dir / name).string()};
  };

  // Side by side: each mode REPEAT times in turn; the best per kind.
  std::map<std::string, Result> best;
  const std::vector<std::pair<std::string, std::vector<std::string>>> modes = {
      {"none", none}, {"tracing", tracing}, {"profile", profiling("overhead.waitscope")}};
  for (int k = 0; k < repeat; ++k) {
    for (const auto& [mode, env] : modes) {
      const Result r = runWorker(env, iterations, rounds);
      auto [it, fresh] = best.emplace(mode, r);
      if (!fresh)
        for (const auto& [kind, ns] : r.nsPerCall) it->second.nsPerCall[kind] = std::min(it->second.nsPerCall[kind], ns);
    }
  }
  std::printf("per-call cost, best of %d runs x %d rounds of %ld iterations (1 rank; thread CPU ns per MPI call)\n",
              repeat,
              rounds, iterations);
  std::printf("%-30s %10s %10s %10s %14s %14s %9s\n", "call", "no library", "tracing", "profile", "trace overhead",
              "profile overh.", "target");
  bool allPass = true;
  for (const std::string& kind : best["none"].kinds) {
    const double base = best["none"].nsPerCall[kind];
    const double trace = best["tracing"].nsPerCall[kind];
    const double prof = best["profile"].nsPerCall[kind];
    const double traceOver = trace - base, profOver = prof - base;
    const bool pass = profOver <= kTargetNs;
    allPass = allPass && pass;
    std::printf("%-30s %10.1f %10.1f %10.1f %11.1f ns %11.1f ns %9s\n", kind.c_str(), base, trace, prof, traceOver,
                profOver, pass ? "PASS" : "MISS");
    std::printf("%-30s %10s %10s %10s %13.2fx %13.2fx\n", "", "", "", "", trace / base, prof / base);
  }
  std::printf("profile overhead target: at most %.0f ns per MPI call: %s\n", kTargetNs, allPass ? "PASS" : "MISS");

  // Tracing per recorded event.
  std::printf("\ntracing cost per recorded event (overhead per iteration / records per iteration)\n");
  std::printf("%-30s %8s %12s %14s %9s\n", "call", "records", "overhead", "per record", "target");
  bool tracePass = true;
  for (const std::string& kind : best["none"].kinds) {
    auto it = kEventsAndCalls.find(kind);
    if (it == kEventsAndCalls.end()) continue;
    const auto [events, calls] = it->second;
    const double perIteration = (best["tracing"].nsPerCall[kind] - best["none"].nsPerCall[kind]) * calls;
    const double perEvent = perIteration / events;
    const bool pass = perEvent <= kTraceEventTargetNs;
    tracePass = tracePass && pass;
    std::printf("%-30s %8d %9.1f ns %11.1f ns %9s\n", kind.c_str(), events, perIteration, perEvent,
                pass ? "PASS" : "MISS");
  }
  std::printf("tracing target: at most %.0f ns per recorded event: %s\n", kTraceEventTargetNs,
              tracePass ? "PASS" : "MISS");

  // sor's dilation: without the library and tracing, REPEAT times in turn. Best of each (the run
  // least disturbed by the rest of the machine), and medians with the range, since on a shared
  // machine one lucky run can decide the best.
  if (sor) {
    std::string args;
    if (sorSize > 0) args = std::to_string(sorSize) + " " + std::to_string(sorIters > 0 ? sorIters : 600);
    std::vector<Timing> plain, traced;
    std::vector<double> ratios;  // traced / plain wall, pairwise (the two runs of one turn)
    for (int k = 0; k < repeat; ++k) {
      plain.push_back(runSor({}, sorRanks, args));
      traced.push_back(runSor({preload, "WAITSCOPE_QUIET=1", "WAITSCOPE_TRACE_DIR=" + (dir / "sor").string()},
                              sorRanks, args));
      ratios.push_back(traced.back().wall / plain.back().wall);
    }
    auto stats = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      const std::size_t n = v.size();
      const double median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
      return std::array<double, 3>{v.front(), median, v.back()};
    };
    auto pick = [](const std::vector<Timing>& ts, double Timing::*field) {
      std::vector<double> v;
      for (const Timing& t : ts) v.push_back(t.*field);
      return v;
    };
    const auto pw = stats(pick(plain, &Timing::wall)), tw = stats(pick(traced, &Timing::wall));
    const auto pc = stats(pick(plain, &Timing::cpu)), tc = stats(pick(traced, &Timing::cpu));
    const auto pair = stats(ratios);
    const double wallDilation = tw[0] / pw[0] - 1.0;
    std::printf("\nsor %s on %d ranks, %d runs each, in turn (wall time of mpiexec; CPU time of mpiexec "
                "and the ranks)\n",
                args.empty() ? "770 600 (default size)" : args.c_str(), sorRanks, repeat);
    std::printf("%-12s %12s %12s %10s %9s   %s\n", "", "no library", "tracing", "dilation", "target",
                "medians [min..max]: no library, tracing");
    std::printf("%-12s %10.3f s %10.3f s %9.1f%% %9s   %.3f [%.3f..%.3f] s, %.3f [%.3f..%.3f] s (%+.1f%%)\n",
                "wall, best", pw[0], tw[0], 100.0 * wallDilation, wallDilation <= kSorDilationTarget ? "PASS" : "MISS",
                pw[1], pw[0], pw[2], tw[1], tw[0], tw[2], 100.0 * (tw[1] / pw[1] - 1.0));
    std::printf("%-12s %10.3f s %10.3f s %9.1f%% %9s   %.3f [%.3f..%.3f] s, %.3f [%.3f..%.3f] s (%+.1f%%)\n",
                "cpu, best", pc[0], tc[0], 100.0 * (tc[0] / pc[0] - 1.0), "", pc[1], pc[0], pc[2], tc[1], tc[0], tc[2],
                100.0 * (tc[1] / pc[1] - 1.0));
    std::printf("wall traced/plain per turn: median %.3f [%.3f..%.3f]\n", pair[1], pair[0], pair[2]);
    std::printf("sor dilation target: at most %.0f%% longer (best of each): %s\n", 100.0 * kSorDilationTarget,
                wallDilation <= kSorDilationTarget ? "PASS" : "MISS");
  }

  // Constant memory: the same program 10x longer.
  const Result shortRun = runWorker(profiling("short.waitscope"), iterations, rounds);
  const Result longRun = runWorker(profiling("long.waitscope"), iterations * 10, rounds);
  std::string shortBytes = "?", longBytes = "?";
  try {
    shortBytes = waitscope::report::readReport((dir / "short.waitscope").string()).metaValue("profile_bytes_max", "?");
    longBytes = waitscope::report::readReport((dir / "long.waitscope").string()).metaValue("profile_bytes_max", "?");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "waitscope-bench-profile-overhead: %s\n", e.what());
    return 1;
  }
  const double ratio = static_cast<double>(longRun.hwmKb) / static_cast<double>(shortRun.hwmKb);
  const bool memoryPass = ratio <= kMemoryTolerance && shortBytes == longBytes;
  std::printf("profile memory: %ld and %ld iterations: peak RSS %ld kB and %ld kB (ratio %.3f), profile tables %s "
              "and %s bytes: %s\n",
              iterations * rounds, iterations * 10 * rounds, shortRun.hwmKb, longRun.hwmKb, ratio, shortBytes.c_str(),
              longBytes.c_str(), memoryPass ? "PASS (constant)" : "MISS");
  std::error_code ec;
  fs::remove_all(dir, ec);
  return 0;
}
