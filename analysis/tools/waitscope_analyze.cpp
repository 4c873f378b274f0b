// waitscope-analyze: the parallel analyzer. Run with one MPI rank per trace location, or fewer
// (each then analyzes a block of them):  mpiexec -n M waitscope-analyze TRACE.otf2 [-o REPORT]
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analyzer/analyzer.h"
#include "analysis/replay/location_comm.h"
#include "analysis/replay/out_of_memory.h"
#include "analysis/replay/yielding_wait.h"
#include "analysis/report/report_io.h"
#include "analysis/report/text_output.h"
#include "analysis/tools/command_line_args.h"
#include "analysis/tools/output_checks.h"
#include "analysis/trace/clock_correction_file.h"
#include "analysis/trace/otf2_reader.h"
#include "analysis/trace/otf2_reader_mpi.h"
#include "analysis/trace/trace_error.h"

namespace {

namespace fs = std::filesystem;
using namespace waitscope;

constexpr const char* kUsage =
    "usage: mpiexec -n M waitscope-analyze TRACE.otf2 [-o REPORT] [--force] [--quiet] [--no-time-correct]\n"
    "  Finds the wait states in an OTF2 trace of N MPI ranks and writes a report (default: beside\n"
    "  the trace, TRACE.waitscope). M analysis processes, 1 <= M <= N, share the ranks in blocks\n"
    "  (the same report for every M; fastest with one process per core, at most one per rank).\n"
    "  Progress lines on stderr: 'progress PHASE PERCENT'.\n"
    "  REPORT is refused if it is a file of the trace or an existing file that is not a Waitscope\n"
    "  report; a report of the same trace is replaced, a report of another trace only with --force.\n"
    "  --quiet leaves out the progress lines and the closing 'wrote' line; warnings still print.\n"
    "  Clock-condition violations (a message received before it was sent, ...) are corrected with\n"
    "  the controlled logical clock before the search, and the corrected times are written beside\n"
    "  the report (REPORT.clock-correction); --no-time-correct analyzes the recorded times as they are.\n";

struct Options {
  std::string trace;
  std::string report;
  bool quiet = false;
  bool force = false;  // replace a report of another trace
  bool timeCorrection = true;
  bool help = false;
  std::string usageError;
};

Options parse(int argc, char** argv) {
  Options o;
  // Every argument is read: the last problem is the one reported, and -h wins over all of them.
  tools::CommandLineArgs options;
  options.flag({"-h", "--help"}, [&] { o.help = true; })
      .flag({"--version"},
            [&] {
              o.help = true;
              o.usageError = "version";
            })
      .option({"-o", "--output"}, [&](const std::string& file) { o.report = file; })
      .whenMissing([&](const std::string&) { o.usageError = "-o needs a file name"; })
      .flag({"--quiet"}, [&] { o.quiet = true; })
      .flag({"--force"}, [&] { o.force = true; })
      .flag({"--no-time-correct"}, [&] { o.timeCorrection = false; })
      .positional([&](const std::string& a) {
        if (o.trace.empty()) o.trace = a;
        else o.usageError = "more than one trace given";
      })
      .unknown([&](const std::string& a) { o.usageError = "unknown option " + a; });
  options.parse(argc, argv);
  if (!o.help && o.usageError.empty() && o.trace.empty()) o.usageError = "no trace given";
  if (o.report.empty() && !o.trace.empty()) {
    fs::path p(o.trace);
    o.report = (p.parent_path() / (p.stem().string() + ".waitscope")).string();
  }
  return o;
}

// Checks on rank 0 what would otherwise make the parallel reader fail on some
// ranks only: a missing or broken anchor, or a rank count that does not fit.
std::string precheck(const Options& o, int size, int& locations) {
  try {
    trace::ReadOptions ro;
    ro.definitionsOnly = true;
    ro.warn = [](const std::string&) {};
    const trace::Trace defs = trace::readTrace(o.trace, ro);
    if (!defs.incomplete.empty())
      return o.trace + ": the trace is incomplete (" + defs.incomplete +
             "): its events stop where the run ended, so it cannot be replayed; record a run that reaches "
             "MPI_Finalize";
    const std::size_t n = defs.defs->worldLocations.size();
    locations = static_cast<int>(n);
    if (n < static_cast<std::size_t>(size))
      return o.trace + ": the trace has " + std::to_string(n) + " MPI ranks but waitscope-analyze runs on " +
             std::to_string(size) + " processes; run it with mpiexec -n M for an M from 1 to " + std::to_string(n);
    // The report's path, before hours of analysis: never a file of the trace or one that is not a report.
    if (std::string problem = tools::analyzerOutputProblem(o.trace, o.report, o.force); !problem.empty())
      return problem;
    // The corrected times go beside the report: never over a file of another kind.
    if (const std::string side = trace::clockCorrectionPath(o.report); o.timeCorrection && trace::isForeignFile(side))
      return side + ": exists and is not a clock-correction file; move it away or choose another report name";
  } catch (const std::bad_alloc&) {
    return "rank 0: " + replay::outOfMemoryMessage("read", replay::memoryState(), 0);
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

// Broadcasts rank 0's string to all ranks.
std::string broadcast(std::string s, const replay::LocationComm& comm) {
  int length = static_cast<int>(s.size());
  comm.bcast(&length, 1, MPI_INT, 0);
  s.resize(static_cast<std::size_t>(length));
  comm.bcast(s.data(), length, MPI_CHAR, 0);
  return s;
}

std::string commandLine(int argc, char** argv, int size) {
  std::string out = "mpiexec -n " + std::to_string(size);
  for (int i = 0; i < argc; ++i) out += std::string(" ") + argv[i];
  return out;
}

int run(int argc, char** argv) {
  int me = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const Options o = parse(argc, argv);
  if (o.help) {
    if (me == 0) std::fputs(o.usageError == "version" ? "waitscope-analyze " WAITSCOPE_VERSION "\n" : kUsage, stdout);
    return 0;
  }
  if (!o.usageError.empty()) {
    if (me == 0) std::fprintf(stderr, "waitscope-analyze: %s\n%s", o.usageError.c_str(), kUsage);
    return 2;
  }
  // Progress comes from location 0 (on process 0) only.
  auto progress = [&](std::string_view phase, int percent) {
    if (me == 0 && !o.quiet) std::fprintf(stderr, "progress %.*s %d\n", static_cast<int>(phase.size()), phase.data(), percent);
  };
  const auto started = std::chrono::steady_clock::now();
  progress("read", 0);
  int locations = 0;
  // The processes, one location each: their waits for each other (rank 0 checking the trace or
  // writing the report, the others reading) give up the core where ranks share cores.
  const bool yieldCore = replay::nodeOversubscribed(MPI_COMM_WORLD);
  const replay::LocationComm processes(MPI_COMM_WORLD, yieldCore);
  const std::string problem = broadcast(me == 0 ? precheck(o, size, locations) : std::string(), processes);
  if (!problem.empty()) {
    if (me == 0) std::fprintf(stderr, "waitscope-analyze: %s\n", problem.c_str());
    return 1;
  }
  processes.bcast(&locations, 1, MPI_INT, 0);

  // This process' ranks of the trace: its own, or a block of them (replay::HeldLocations).
  std::optional<replay::HeldLocations> held;
  std::vector<trace::Trace> traces;
  std::string readError;
  try {
    trace::ReadOptions ro;
    if (me != 0) ro.warn = [](const std::string&) {};  // rank 0 speaks for all
    if (locations == size) {
      traces.push_back(trace::readTraceForRank(o.trace, MPI_COMM_WORLD, ro));
    } else {
      held.emplace(MPI_COMM_WORLD, locations, yieldCore);
      std::vector<trace::Rank> ranks;
      for (int i = 0; i < held->held(); ++i) ranks.push_back(held->first() + static_cast<trace::Rank>(i));
      traces = trace::readTraceRanksEach(o.trace, ranks, ro);  // the first location's warnings speak for all
    }
  } catch (const std::bad_alloc&) {
    readError = replay::outOfMemoryMessage("read", replay::memoryState(), 0);
  } catch (const std::exception& e) {
    readError = e.what();
  }
  // Agree on read errors before any rank starts exchanging.
  int failed = readError.empty() ? 0 : 1, anyFailed = 0;
  processes.allreduce(&failed, &anyFailed, 1, MPI_INT, MPI_MAX);
  if (anyFailed) {
    if (failed) std::fprintf(stderr, "waitscope-analyze: rank %d: %s\n", me, readError.c_str());
    return 1;
  }
  progress("read", 100);

  analyzer::AnalysisOptions options;
  options.timeCorrection = o.timeCorrection;
  options.releaseTrace = true;  // nothing after the analysis reads it
  std::string writeError;
  report::Report rep;
  bool corrected = false;
  // One location's analysis, the same whether it has a process of its own or shares one.
  const auto analyzeOne = [&](trace::Trace& local, const replay::LocationComm& world) {
    analyzer::AnalysisOptions mine = options;
    if (world.rank() == 0) mine.progress = progress;
    const replay::LocalResult result = analyzer::analyzeLocation(local, world, mine);
    if (world.rank() == 0) progress("write", 0);
    std::vector<trace::LocationClockCorrection> corrections;
    if (result.timeCorrection.applied) corrections = analyzer::gatherClockCorrections(result, world);
    // Location 0 writes the report as the instances come in from the others (never all at once).
    const auto write = [&](report::Report& out, const report::InstanceSource& instances) {
      try {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        out.meta.emplace_back("waitscope_version", WAITSCOPE_VERSION);
        out.meta.emplace_back("command_line", commandLine(argc, argv, size));
        out.meta.emplace_back("trace", fs::absolute(o.trace).string());
        out.meta.emplace_back("created", report::isoUtcNow());
        out.meta.emplace_back("analysis_seconds", std::to_string(seconds));
        out.meta.emplace_back("kind", "trace analysis");
        report::writeReport(out, o.report, instances);
        // The corrected times for the views, beside the report; a stale one from an earlier
        // analysis of a report by this name goes.
        const std::string side = trace::clockCorrectionPath(o.report);
        if (result.timeCorrection.applied) trace::writeClockCorrections(side, corrections);
        else trace::removeClockCorrections(side);
      } catch (const std::bad_alloc&) {
        writeError = "rank 0: " + replay::outOfMemoryMessage("write", replay::memoryState(), local.eventCount());
      } catch (const std::exception& e) {
        writeError = e.what();
      }
    };
    report::Report out = analyzer::gatherReportStreamed(local, result, world, write);
    if (world.rank() == 0) {
      rep = std::move(out);
      corrected = result.timeCorrection.applied;
    }
  };
  try {
    if (!held) {
      analyzeOne(traces[0], processes);
    } else {
      analyzer::analyzeHeldLocations(*held, traces, analyzeOne);
    }
  } catch (const analyzer::AnalysisError& e) {
    if (me == 0) std::fprintf(stderr, "waitscope-analyze: %s: %s\n", o.trace.c_str(), e.what());
    return 1;
  }
  writeError = broadcast(writeError, processes);
  if (!writeError.empty()) {
    if (me == 0) std::fprintf(stderr, "waitscope-analyze: %s\n", writeError.c_str());
    return 1;
  }
  progress("write", 100);
  if (me == 0) {
    // A warning is never quiet: --quiet leaves out progress and this result line only.
    if (rep.metaValue("clock_violations", "0") != "0")
      std::fprintf(stderr,
                   "waitscope-analyze: warning: clock condition violations: %s point-to-point, %s collective, %s "
                   "RMA; wait states near them are unreliable\n",
                   rep.metaValue("clock_violations_p2p", "0").c_str(),
                   rep.metaValue("clock_violations_collective", "0").c_str(),
                   rep.metaValue("clock_violations_rma", "0").c_str());
    if (corrected)
      std::fprintf(stderr,
                   "waitscope-analyze: corrected %s clock condition violations with the controlled logical clock: "
                   "%s events moved, largest shift %s s (--no-time-correct keeps the recorded times)\n",
                   rep.metaValue("time_correction_violations", "0").c_str(),
                   rep.metaValue("time_correction_moved_events", "0").c_str(),
                   rep.metaValue("time_correction_largest_shift", "0").c_str());
    if (!o.quiet) {
      if (locations == size) std::printf("waitscope-analyze: wrote %s (%d ranks)\n", o.report.c_str(), size);
      else std::printf("waitscope-analyze: wrote %s (%d ranks on %d processes)\n", o.report.c_str(), locations, size);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int code = run(argc, argv);
  MPI_Finalize();
  return tools::finishStandardOutput("waitscope-analyze", code);
}
