// waitscope-run: runs an MPI program under mpiexec with libwaitscope-measure preloaded and says
// where the trace (or, with --profile, the wait-state profile report) is.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/measure/partial_trace.h"
#include "analysis/online/online_config.h"
#include "analysis/online/tree_layout.h"
#include "analysis/report/timestamped_name.h"
#include "analysis/tools/command_line_args.h"
#include "analysis/tools/output_checks.h"

namespace fs = std::filesystem;

namespace {

constexpr const char* kHelp =
    "usage: waitscope-run [-n N] [-o DIR] [--] PROGRAM [ARGS...]\n"
    "       waitscope-run --complete DIR\n"
    "       waitscope-run --profile [--waitall-test] [-n N] [-o REPORT] [--] PROGRAM [ARGS...]\n"
    "       waitscope-run --online [--tool-ranks K] [--fan-in F] [ONLINE OPTIONS] [-n N] [-o REPORT]\n"
    "                     [--] PROGRAM [ARGS...]\n"
    "\n"
    "Runs PROGRAM under `mpiexec -n N` with the Waitscope recording library preloaded and writes\n"
    "an OTF2 trace (DIR/traces.otf2) that waitscope-analyze and Score-P tools read. With --profile\n"
    "no trace is written: the library estimates the wait states from minimum call durations\n"
    "(Late Sender, Wait at NxN, ...; Mao et al., EuroMPI/ASIA 2014) and writes a report (metrics\n"
    "*_estimate) that waitscope-report and the desktop app open; its memory does not grow with the\n"
    "run time.\n"
    "With --online no trace is written either: N+K processes start, the program runs on the first N\n"
    "(MPI_COMM_WORLD is theirs alone) and K tool places in a tree find Late Sender, Late Receiver,\n"
    "Wait at Barrier, Wait at NxN, Late Broadcast and Early Reduce while it runs (Hilbrich et al.,\n"
    "EASC 2014); the root place rewrites REPORT every few seconds (and REPORT.live, which the app\n"
    "follows).\n"
    "\n"
    "options:\n"
    "  -n, --np N        number of MPI processes (default 1)\n"
    "  -o, --output DIR  directory for the trace (default ./waitscope-trace-YYYYMMDD-HHMMSS);\n"
    "                    created if missing; a trace already in it is replaced.\n"
    "                    With --profile: the report file (default\n"
    "                    ./waitscope-profile-YYYYMMDD-HHMMSS.waitscope), replaced if it exists\n"
    "      --profile     estimate a wait-state profile instead of writing a trace\n"
    "      --waitall-test  (with --profile) test before MPI_Wait/MPI_Waitall and also report the\n"
    "                    Late Sender estimate without the waits the test found complete\n"
    "      --complete DIR  complete the trace in DIR of a run that ended abnormally without\n"
    "                    waitscope-run (a program linked with the library): its events up to the\n"
    "                    end become readable, marked incomplete (waitscope-run does this itself)\n"
    "online options (docs/online.md):\n"
    "      --online      analyze online instead of writing a trace\n"
    "      --fan-in F    children per tool place (default 8)\n"
    "      --tool-ranks K  number of tool places; with --fan-in it must be that tree's size,\n"
    "                    alone it picks the fan-in whose tree has K places\n"
    "      --selection S channel selection: heuristic (default), round-robin, intra-root-app,\n"
    "                    app|intra-root\n"
    "      --alpha A     heuristic penalty when a message raised the analysis' memory (default 1)\n"
    "      --beta B      heuristic penalty when a probe found nothing (default 1)\n"
    "      --sigma S     a place holding more than S entries asks for an application pause\n"
    "                    (default 1000000)\n"
    "      --sigma-resume S2  ... and asks to resume below S2 (default S/2)\n"
    "      --channel-capacity C  batches in flight per application rank before it blocks (default 4)\n"
    "      --batch B     events per batch (default 64)\n"
    "      --snapshot-interval SEC  the root rewrites the report this often (default 2)\n"
    "  -h, --help        show this help\n"
    "      --version     show the version\n"
    "\n"
    "environment:\n"
    "  WAITSCOPE_MEASURE_LIB  the recording library (default: libwaitscope-measure.so next to this tool)\n"
    "  WAITSCOPE_BUFFER_MB    per-process event buffer in MiB before it is flushed to disk (default 64)\n"
    "  WAITSCOPE_FILTER       file of region names or globs (one a line, # comments) to leave out\n"
    "  MPIEXEC                the mpiexec to use (default: " WAITSCOPE_DEFAULT_MPIEXEC " from PATH)\n"
    "\n"
    "If the program ends abnormally (MPI_Abort, a crash, SIGTERM/SIGINT, mpiexec killing the\n"
    "job), the trace holds the events up to the end and is marked incomplete; waitscope-analyze\n"
    "says so instead of analyzing it. SIGTERM sent to waitscope-run is passed on to mpiexec.\n"
    "If the trace cannot be written (a full disk, a quota), what was written is removed, DIR keeps\n"
    "traces.failed with the reason, and waitscope-run says so and exits non-zero.\n";

[[noreturn]] void fail(const std::string& message, int code = 2) {
  std::fprintf(stderr, "waitscope-run: %s\n", message.c_str());
  std::exit(code);
}

std::string findProgram(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= p.size()) {
    const std::size_t end = p.find(':', start);
    const std::string dir = p.substr(start, end == std::string::npos ? std::string::npos : end - start);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate)) return candidate;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return "";
}

std::string findLibrary() {
  if (const char* env = std::getenv("WAITSCOPE_MEASURE_LIB"); env && *env) {
    if (!fs::exists(env)) fail(std::string("WAITSCOPE_MEASURE_LIB names a missing file: ") + env);
    return fs::absolute(env).string();
  }
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const fs::path dir = exe.parent_path();
  for (const fs::path& candidate : {dir / "../../lib/libwaitscope-measure.so",  // build tree
                                    dir / WAITSCOPE_LIBDIR_FROM_BINDIR / "libwaitscope-measure.so",  // installed
                                    dir / "../lib/libwaitscope-measure.so",
                                    dir / "libwaitscope-measure.so"}) {
    if (fs::exists(candidate)) return fs::weakly_canonical(candidate).string();
  }
  fail("cannot find libwaitscope-measure.so next to " + exe.string() + "; set WAITSCOPE_MEASURE_LIB");
}

std::string findPlaceProgram() {
  std::error_code ec;
  const fs::path dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
  const fs::path place = dir / "waitscope-online-place";
  if (access(place.c_str(), X_OK) != 0) fail("cannot find waitscope-online-place next to " + dir.string());
  return place.string();
}

using waitscope::report::timestampedName;
std::string defaultDir() { return timestampedName("waitscope-trace-%Y%m%d-%H%M%S"); }

// SIGTERM to waitscope-run goes on to mpiexec (which ends the ranks with SIGTERM, and they flush
// their traces); waitscope-run stays to complete the trace. It is passed on after a second: when
// the whole process group got it, mpiexec has it already, and a second one at once makes
// mpiexec kill the ranks with SIGKILL before they flush. SIGINT from a terminal reaches mpiexec
// directly (same process group), so waitscope-run only ignores it.
volatile pid_t gChild = 0;
volatile sig_atomic_t gTerminate = 0;
void noteTerminate(int) { gTerminate = 1; }
void passSignalsOn() {
  struct sigaction sa = {};
  sa.sa_handler = noteTerminate;
  sigaction(SIGTERM, &sa, nullptr);
  signal(SIGINT, SIG_IGN);
}

// Completes the trace of an aborted run and says so; returns false if there was nothing to complete.
bool completePartial(const std::string& dir, const std::string& what) {
  if (!waitscope::measure::partial::hasLogs(dir)) return false;
  try {
    const auto done = waitscope::measure::partial::completeTrace(dir);
    std::fprintf(stderr, "waitscope-run: %s: the trace %s/traces.otf2 is incomplete (%s); it holds the events up to the end\n",
                 what.c_str(), dir.c_str(), done.reason.c_str());
  } catch (const std::exception& e) {
    const std::string message = e.what();
    fail(message.rfind(dir + ":", 0) == 0 ? message : what + ": " + message);  // --complete: what is dir
  }
  return true;
}

// Runs `mpiexec -n np PROGRAM ARGS` with the library preloaded and `env` (NAME=VALUE)
// exported to the processes; returns the exit code (127: mpiexec could not be started).
// With `places` > 0 (online mode) a second context of that many waitscope-online-place processes follows.
int runUnderMpiexec(int np, const std::vector<std::string>& env, const std::string& programPath, int programArg,
                    int argc, char** argv, int places = 0) {
  const std::string lib = findLibrary();
  std::string preload = lib;
  if (const char* old = std::getenv("LD_PRELOAD"); old && *old) preload += std::string(":") + old;

  const char* mpiexecEnv = std::getenv("MPIEXEC");
  const std::string mpiexec = mpiexecEnv && *mpiexecEnv ? mpiexecEnv : WAITSCOPE_DEFAULT_MPIEXEC;
  std::vector<std::string> vars = {"LD_PRELOAD=" + preload, "WAITSCOPE_QUIET=1"};
  vars.insert(vars.end(), env.begin(), env.end());
  for (const char* v : {"WAITSCOPE_BUFFER_MB", "WAITSCOPE_FILTER"})
    if (const char* value = std::getenv(v)) vars.push_back(std::string(v) + "=" + value);
  std::vector<std::string> cmd = {mpiexec};
  std::vector<std::string> exported;  // per context
#if WAITSCOPE_MPIEXEC_HYDRA
  // MPICH's Hydra runs as root and oversubscribes as it is; -genv applies to every context.
  for (const std::string& v : vars) {
    const auto eq = v.find('=');
    cmd.insert(cmd.end(), {"-genv", v.substr(0, eq), v.substr(eq + 1)});
  }
#else
  cmd.push_back("--oversubscribe");
  for (const std::string& v : vars) exported.insert(exported.end(), {"-x", v});
#endif
  cmd.insert(cmd.end(), {"-n", std::to_string(np)});
  cmd.insert(cmd.end(), exported.begin(), exported.end());
  cmd.push_back(programPath);
  for (int k = programArg + 1; k < argc; ++k) cmd.push_back(argv[k]);
  if (places > 0) {  // Open MPI's -x applies to its own context: the places need the same environment
    cmd.insert(cmd.end(), {":", "-n", std::to_string(places)});
    cmd.insert(cmd.end(), exported.begin(), exported.end());
    cmd.push_back(findPlaceProgram());
  }

  // When one rank aborts or crashes, Open MPI sends the others SIGTERM and SIGKILL 1 s later;
  // on a loaded machine that can be too soon for their handlers to flush the trace. (Open MPI
  // waits that long in any case, so every abnormal end takes 3 s instead of 1.)
  setenv("OMPI_MCA_odls_base_sigkill_timeout", "3", 0);
  if (geteuid() == 0) {
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  }
  const pid_t pid = fork();
  gChild = pid;
  if (pid < 0) fail(std::string("cannot start mpiexec: ") + std::strerror(errno));
  if (pid == 0) {
    std::vector<char*> args;
    for (auto& s : cmd) args.push_back(s.data());
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::fprintf(stderr, "waitscope-run: cannot run %s: %s\n", mpiexec.c_str(), std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  for (int sinceTerminate = 0;;) {
    const pid_t done = waitpid(pid, &status, gTerminate ? WNOHANG : 0);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) break;
    if (gTerminate && done == 0) {
      if (++sinceTerminate == 20) kill(pid, SIGTERM);
      usleep(50000);
    }
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

fs::path prepareReport(const std::string& out, const char* what);

// --profile: no trace; rank 0 of the program writes the report `out`.
int runProfile(int np, std::string out, bool waitallTest, const std::string& program, const std::string& programPath,
               int programArg, int argc, char** argv) {
  if (out.empty()) out = timestampedName("waitscope-profile-%Y%m%d-%H%M%S.waitscope");
  const fs::path report = prepareReport(out, "profile");
  std::vector<std::string> env = {"WAITSCOPE_PROFILE=1", "WAITSCOPE_PROFILE_OUT=" + report.string()};
  if (waitallTest) env.push_back("WAITSCOPE_PROFILE_WAIT_TEST=1");
  const int code = runUnderMpiexec(np, env, programPath, programArg, argc, argv);
  if (code == 127) return code;
  if (fs::exists(report)) {
    std::printf("waitscope-run: profile written to %s\n", report.c_str());
    if (code != 0) std::fprintf(stderr, "waitscope-run: %s exited with code %d\n", program.c_str(), code);
    return code;
  }
  if (code != 0)
    fail(program + " failed (exit code " + std::to_string(code) + ") before MPI_Finalize: no profile written", code);
  fail("no profile written: " + program + " never called MPI_Init and MPI_Finalize (is it an MPI program?)");
}

// The report path of --profile / --online: absolute, its directory writable, an old one removed.
fs::path prepareReport(const std::string& out, const char* what) {
  const fs::path report = fs::absolute(out);
  std::error_code ec;
  if (fs::is_directory(report, ec)) fail(std::string("the ") + what + " report " + out + " is a directory; name a file with -o");
  // Only an old report is replaced: never a trace or any other file of the user's.
  if (const std::string problem = waitscope::tools::runReportProblem(out); !problem.empty()) fail(problem);
  const fs::path dir = report.parent_path();
  fs::create_directories(dir, ec);
  if (const std::string problem = ec ? ec.message() : waitscope::tools::directoryProblem(dir.string()); !problem.empty())
    fail(std::string("cannot write to the directory of the ") + what + " report " + dir.string() + ": " + problem);
  fs::remove(report, ec);  // so that a report found afterwards is this run's
  return report;
}

// --online: N application ranks and the tool places of `config`'s tree; the root place writes the report.
int runOnline(waitscope::online::Config config, int np, int places, std::string out, const std::string& program,
              const std::string& programPath, int programArg, int argc, char** argv) {
  using waitscope::online::TreeLayout;
  config.appRanks = np;
  try {
    const TreeLayout layout = places > 0 && config.fanIn == 0 ? TreeLayout::withPlaces(np, places)
                                                              : TreeLayout(np, config.fanIn ? config.fanIn : 8);
    if (places > 0 && layout.places() != places)
      fail("--tool-ranks " + std::to_string(places) + " does not fit: with fan-in " + std::to_string(layout.fanIn()) +
           " the tree over " + std::to_string(np) + " application ranks has " + std::to_string(layout.places()) +
           " places");
    config.fanIn = layout.fanIn();
    places = layout.places();
  } catch (const std::invalid_argument& e) {
    fail(e.what());
  }
  if (config.sigmaResume < 0) config.sigmaResume = config.sigma / 2;
  if (config.sigmaResume >= config.sigma) fail("--sigma-resume must be below --sigma");
  if (out.empty()) out = timestampedName("waitscope-online-%Y%m%d-%H%M%S.waitscope");
  const fs::path report = prepareReport(out, "online");
  std::error_code ec;
  fs::remove(report.string() + ".live", ec);
  config.output = report.string();
  std::vector<std::string> env;
  for (const auto& [name, value] : waitscope::online::toEnvironment(config)) env.push_back(name + "=" + value);
  passSignalsOn();
  const int code = runUnderMpiexec(np, env, programPath, programArg, argc, argv, places);
  if (code == 127) return code;
  if (fs::exists(report)) {
    std::printf("waitscope-run: online analysis (%s) written to %s\n",
                waitscope::online::TreeLayout(np, config.fanIn).describe().c_str(), report.c_str());
    if (code != 0) std::fprintf(stderr, "waitscope-run: %s exited with code %d\n", program.c_str(), code);
    return code;
  }
  if (code != 0)
    fail(program + " failed (exit code " + std::to_string(code) + ") before MPI_Finalize: no online report written", code);
  fail("no online report written: " + program + " never called MPI_Init and MPI_Finalize (is it an MPI program?)");
}

double number(const char* option, const char* text) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end || v < 0) fail(std::string(option) + " needs a non-negative number, not '" + text + "'");
  return v;
}

int runMain(int argc, char** argv) {
  int np = 1;
  std::string out;
  bool profile = false, waitallTest = false, online = false;
  waitscope::online::Config onlineConfig;
  onlineConfig.fanIn = 0;         // 0: from --tool-ranks, or 8
  onlineConfig.sigmaResume = -1;  // -1: sigma / 2
  int places = 0;
  bool help = false, version = false, completed = false;
  // The options end at "--" or at the first argument that is not an option: the program, whose
  // arguments are passed on as they are.
  waitscope::tools::CommandLineArgs options;
  options.help(help)
      .flag({"--version"},
            [&] {
              version = true;
              options.stop();
            })
      .flag({"--"}, [&] { options.stop(); })
      .option({"-n", "--np", "-np"},
              [&](const std::string& text) {
                char* end = nullptr;
                np = static_cast<int>(std::strtol(text.c_str(), &end, 10));
                if (!end || *end || np < 1) fail("-n needs a positive number, not '" + text + "'");
              })
      .ifMissing([](const std::string&) { fail("-n needs a number of processes"); })
      .option({"-o", "--output"}, [&](const std::string& file) { out = file; })
      .ifMissing([](const std::string&) { fail("-o needs a directory"); })
      .option({"--complete"},
              [&](const std::string& dir) {
                if (fs::exists(dir + "/traces.otf2")) fail(dir + "/traces.otf2 exists: the trace is complete already");
                if (!completePartial(dir, dir))
                  fail(dir + ": no definition logs of an aborted run (traces.partial/) to complete");
                completed = true;
                options.stop();
              })
      .ifMissing([](const std::string&) { fail("--complete needs a trace directory"); })
      .flag({"--profile"}, [&] { profile = true; })
      .flag({"--waitall-test"}, [&] { waitallTest = true; })
      .flag({"--online"}, [&] { online = true; })
      .option({"--tool-ranks"},
              [&](const std::string& text) {
                places = static_cast<int>(number("--tool-ranks", text.c_str()));
                if (places < 1) fail("--tool-ranks needs at least 1");
              })
      .option({"--fan-in"},
              [&](const std::string& text) {
                onlineConfig.fanIn = static_cast<int>(number("--fan-in", text.c_str()));
                if (onlineConfig.fanIn < 2) fail("--fan-in needs at least 2");
              })
      .option({"--selection"},
              [&](const std::string& name) {
                if (!waitscope::online::parseSelection(name, onlineConfig.selection))
                  fail("--selection " + name + ": use heuristic, round-robin, intra-root-app or app|intra-root");
              })
      .option({"--alpha"}, [&](const std::string& text) { onlineConfig.alpha = number("--alpha", text.c_str()); })
      .option({"--beta"}, [&](const std::string& text) { onlineConfig.beta = number("--beta", text.c_str()); })
      .option({"--sigma"},
              [&](const std::string& text) { onlineConfig.sigma = static_cast<long>(number("--sigma", text.c_str())); })
      .option({"--sigma-resume"},
              [&](const std::string& text) {
                onlineConfig.sigmaResume = static_cast<long>(number("--sigma-resume", text.c_str()));
              })
      .option({"--channel-capacity"},
              [&](const std::string& text) {
                onlineConfig.channelCapacity = static_cast<int>(number("--channel-capacity", text.c_str()));
                if (onlineConfig.channelCapacity < 1) fail("--channel-capacity needs at least 1");
              })
      .option({"--batch"},
              [&](const std::string& text) {
                onlineConfig.batchEvents = static_cast<int>(number("--batch", text.c_str()));
                if (onlineConfig.batchEvents < 1) fail("--batch needs at least 1");
              })
      .option({"--snapshot-interval"},
              [&](const std::string& text) { onlineConfig.snapshotSeconds = number("--snapshot-interval", text.c_str()); })
      .whenMissing([](const std::string& option) { fail(option + " needs a value"); })
      .positional([&](const std::string&) { options.stopAtCurrent(); })
      .unknown([](const std::string& a) { fail("unknown option '" + a + "' (see --help)"); });
  const int i = options.parse(argc, argv);
  if (help) {
    std::fputs(kHelp, stdout);
    return 0;
  }
  if (version) {
    std::puts("waitscope-run " WAITSCOPE_VERSION);
    return 0;
  }
  if (completed) return 0;
  if (i >= argc) fail("no program given (see --help)");
  const std::string program = argv[i];
  const std::string programPath = findProgram(program);
  if (programPath.empty()) fail("program not found or not executable: " + program);

  if (waitallTest && !profile) fail("--waitall-test needs --profile");
  if (online && profile) fail("--online and --profile exclude each other");
  if (online) return runOnline(onlineConfig, np, places, out, program, programPath, i, argc, argv);
  if (profile) return runProfile(np, out, waitallTest, program, programPath, i, argc, argv);
  if (out.empty()) out = defaultDir();
  std::error_code ec;
  fs::create_directories(out, ec);
  if (const std::string problem = ec ? ec.message() : waitscope::tools::directoryProblem(out); !problem.empty())
    fail("cannot write to the output directory " + out + ": " + problem);
  const std::string dir = fs::canonical(out).string();
  waitscope::measure::partial::removeTraceFiles(dir);

  passSignalsOn();
  const int code = runUnderMpiexec(np, {"WAITSCOPE_TRACE_DIR=" + dir}, programPath, i, argc, argv);
  if (code == 127) return code;

  // The recorder could not write the trace (a full disk, a quota): it removed what it wrote.
  if (const std::string why = waitscope::measure::partial::failedReason(dir); !why.empty()) {
    waitscope::measure::partial::removeTraceFiles(dir, true);  // the logs and events of a run that also aborted
    std::fprintf(stderr,
                 "waitscope-run: no trace written: writing it to %s failed (%s); what was written is removed: free "
                 "space there or record into another directory with -o\n",
                 dir.c_str(), why.c_str());
    return code ? code : 1;
  }
  const bool complete = fs::exists(dir + "/traces.otf2");
  bool events = false;
  if (fs::is_directory(dir + "/traces", ec))
    for (const auto& e : fs::directory_iterator(dir + "/traces", ec)) events = events || e.path().extension() == ".evt";
  if (complete) {
    std::printf("waitscope-run: trace written to %s/traces.otf2\n", dir.c_str());
    if (code != 0) std::fprintf(stderr, "waitscope-run: %s exited with code %d\n", program.c_str(), code);
    return code;
  }
  if (completePartial(dir, program + " ended abnormally (code " + std::to_string(code) + ")")) {
    std::printf("waitscope-run: incomplete trace written to %s/traces.otf2\n", dir.c_str());
    return code ? code : 1;
  }
  if (events) {
    std::fprintf(stderr,
                 "waitscope-run: %s ended abnormally (code %d): the trace in %s is incomplete (events of the "
                 "processes that flushed are in %s/traces/, definitions are missing)\n",
                 program.c_str(), code, dir.c_str(), dir.c_str());
    return code ? code : 1;
  }
  if (code != 0) fail(program + " failed (exit code " + std::to_string(code) + ") before writing a trace", code);
  fail("no trace written: " + program + " never called MPI_Init (is it an MPI program?)");
}

}  // namespace

// What waitscope-run prints on standard output must get there: a failed write exits with 1.
int main(int argc, char** argv) { return waitscope::tools::finishStandardOutput("waitscope-run", runMain(argc, argv)); }
