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
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "partial_trace.h"

namespace fs = std::filesystem;

namespace {

constexpr const char* kHelp =
    "usage: waitscope-run [-n N] [-o DIR] [--] PROGRAM [ARGS...]\n"
    "       waitscope-run --complete DIR\n"
    "       waitscope-run --profile [--waitall-test] [-n N] [-o REPORT] [--] PROGRAM [ARGS...]\n"
    "\n"
    "Runs PROGRAM under `mpiexec -n N` with the Waitscope recording library preloaded and writes\n"
    "an OTF2 trace (DIR/traces.otf2) that waitscope-analyze and Score-P tools read. With --profile\n"
    "no trace is written: the library estimates the wait states from minimum call durations\n"
    "(Late Sender, Wait at NxN, ...; seed 004) and writes a report (metrics *_estimate) that\n"
    "waitscope-report and the desktop app open; its memory does not grow with the run time.\n"
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
    "  -h, --help        show this help\n"
    "      --version     show the version\n"
    "\n"
    "environment:\n"
    "  WAITSCOPE_MEASURE_LIB  the recording library (default: libwaitscope-measure.so next to this tool)\n"
    "  WAITSCOPE_BUFFER_MB    per-process event buffer in MiB before it is flushed to disk (default 64)\n"
    "  WAITSCOPE_FILTER       file of region names or globs (one a line, # comments) to leave out\n"
    "  MPIEXEC                the mpiexec to use (default: mpiexec from PATH)\n"
    "\n"
    "If the program ends abnormally (MPI_Abort, a crash, SIGTERM/SIGINT, mpiexec killing the\n"
    "job), the trace holds the events up to the end and is marked incomplete; waitscope-analyze\n"
    "says so instead of analyzing it. SIGTERM sent to waitscope-run is passed on to mpiexec.\n";

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

std::string timestamped(const char* pattern) {
  char buf[64];
  const std::time_t t = std::time(nullptr);
  std::tm tm;
  localtime_r(&t, &tm);
  std::strftime(buf, sizeof buf, pattern, &tm);
  return buf;
}
std::string defaultDir() { return timestamped("waitscope-trace-%Y%m%d-%H%M%S"); }

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
    fail(what + ": " + e.what());
  }
  return true;
}

// Runs `mpiexec -n np PROGRAM ARGS` with the library preloaded and `env` (NAME=VALUE)
// exported to the processes; returns the exit code (127: mpiexec could not be started).
int runUnderMpiexec(int np, const std::vector<std::string>& env, const std::string& programPath, int programArg,
                    int argc, char** argv) {
  const std::string lib = findLibrary();
  std::string preload = lib;
  if (const char* old = std::getenv("LD_PRELOAD"); old && *old) preload += std::string(":") + old;

  const char* mpiexecEnv = std::getenv("MPIEXEC");
  const std::string mpiexec = mpiexecEnv && *mpiexecEnv ? mpiexecEnv : "mpiexec";
  std::vector<std::string> cmd = {mpiexec, "--oversubscribe", "-n", std::to_string(np), "-x", "LD_PRELOAD=" + preload,
                                  "-x", "WAITSCOPE_QUIET=1"};
  for (const std::string& e : env) cmd.insert(cmd.end(), {"-x", e});
  for (const char* v : {"WAITSCOPE_BUFFER_MB", "WAITSCOPE_FILTER"})
    if (std::getenv(v)) cmd.insert(cmd.end(), {"-x", v});
  cmd.push_back(programPath);
  for (int k = programArg + 1; k < argc; ++k) cmd.push_back(argv[k]);

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

// --profile: no trace; rank 0 of the program writes the report `out`.
int runProfile(int np, std::string out, bool waitallTest, const std::string& program, const std::string& programPath,
               int programArg, int argc, char** argv) {
  if (out.empty()) out = timestamped("waitscope-profile-%Y%m%d-%H%M%S.waitscope");
  const fs::path report = fs::absolute(out);
  std::error_code ec;
  if (fs::is_directory(report, ec)) fail("the profile report " + out + " is a directory; name a file with -o");
  const fs::path dir = report.parent_path();
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir) || access(dir.c_str(), W_OK) != 0)
    fail("cannot write to the directory of the profile report " + dir.string() + ": " +
         (ec ? ec.message() : std::strerror(EACCES)));
  fs::remove(report, ec);  // so that a report found afterwards is this run's
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

}  // namespace

int main(int argc, char** argv) {
  int np = 1;
  std::string out;
  bool profile = false, waitallTest = false;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::fputs(kHelp, stdout);
      return 0;
    } else if (a == "--version") {
      std::puts("waitscope-run " WAITSCOPE_VERSION);
      return 0;
    } else if (a == "--") {
      ++i;
      break;
    } else if (a == "-n" || a == "--np" || a == "-np") {
      if (++i >= argc) fail("-n needs a number of processes");
      char* end = nullptr;
      np = static_cast<int>(std::strtol(argv[i], &end, 10));
      if (!end || *end || np < 1) fail(std::string("-n needs a positive number, not '") + argv[i] + "'");
    } else if (a == "-o" || a == "--output") {
      if (++i >= argc) fail("-o needs a directory");
      out = argv[i];
    } else if (a == "--complete") {
      if (++i >= argc) fail("--complete needs a trace directory");
      const std::string dir = argv[i];
      if (fs::exists(dir + "/traces.otf2")) fail(dir + "/traces.otf2 exists: the trace is complete already");
      if (!completePartial(dir, dir)) fail(dir + ": no definition logs of an aborted run (traces.partial/) to complete");
      return 0;
    } else if (a == "--profile") {
      profile = true;
    } else if (a == "--waitall-test") {
      waitallTest = true;
    } else if (!a.empty() && a[0] == '-') {
      fail("unknown option '" + a + "' (see --help)");
    } else {
      break;
    }
  }
  if (i >= argc) fail("no program given (see --help)");
  const std::string program = argv[i];
  const std::string programPath = findProgram(program);
  if (programPath.empty()) fail("program not found or not executable: " + program);

  if (waitallTest && !profile) fail("--waitall-test needs --profile");
  if (profile) return runProfile(np, out, waitallTest, program, programPath, i, argc, argv);
  if (out.empty()) out = defaultDir();
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec || !fs::is_directory(out) || access(out.c_str(), W_OK) != 0)
    fail("cannot write to the output directory " + out + ": " + (ec ? ec.message() : std::strerror(EACCES)));
  const std::string dir = fs::canonical(out).string();
  fs::remove(dir + "/traces.otf2", ec);
  fs::remove(dir + "/traces.def", ec);
  fs::remove_all(dir + "/traces", ec);
  fs::remove_all(waitscope::measure::partial::logDir(dir), ec);

  passSignalsOn();
  const int code = runUnderMpiexec(np, {"WAITSCOPE_TRACE_DIR=" + dir}, programPath, i, argc, argv);
  if (code == 127) return code;

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
