#include "analysis/tools/output_checks.h"

#include <fcntl.h>
#include <stdio_ext.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "analysis/report/file_uri.h"
#include "analysis/report/input_file.h"
#include "analysis/report/sqlite_handle.h"

namespace waitscope::tools {
namespace {

namespace fs = std::filesystem;

// Absolute, with the links of its existing part resolved and `.`/`..` gone.
fs::path resolved(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) p = fs::absolute(path, ec).lexically_normal();
  return p;
}

// True if `p` is `dir` or lies below it (both resolved).
bool within(const fs::path& p, const fs::path& dir) {
  auto d = dir.begin(), q = p.begin();
  for (; d != dir.end(); ++d, ++q)
    if (q == p.end() || *q != *d) return false;
  return true;
}

// The line refusing to write a report over `existing`, a file that is not a report.
std::string notAReport(const std::string& output, const ExistingOutput& existing) {
  return output + ": the report is not written there: it exists and is " + existing.what +
         " (only a Waitscope report is ever replaced); name another file with -o";
}

bool sameFile(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec) && !ec;
}

}  // namespace

ExistingOutput inspectOutput(const std::string& path) {
  ExistingOutput out;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int error = errno;
    // Nothing there, or a dangling link (writing replaces the link itself); a missing
    // directory on the way is for the caller's directory check.
    if (error == ENOENT || error == ENOTDIR) return out;
    out.kind = ExistingOutput::Kind::Other;
    out.what = std::string("a file that cannot be examined (") + std::strerror(error) + ")";
    return out;
  }
  if (S_ISDIR(st.st_mode)) {
    out.kind = ExistingOutput::Kind::Directory;
    out.what = "a directory";
    return out;
  }
  out.kind = ExistingOutput::Kind::Other;
  if (S_ISFIFO(st.st_mode)) {
    out.what = "a FIFO (named pipe)";
    return out;
  }
  if (!S_ISREG(st.st_mode)) {
    out.what = S_ISSOCK(st.st_mode) ? "a socket" : "a device";
    return out;
  }
  static constexpr char kSqlite[] = "SQLite format 3";  // and a NUL: 16 bytes
  std::string start;
  try {
    start = report::readRegularFile(path, 512);
  } catch (const std::exception&) {
    // unreadable: judged as a file that is not a report below
  }
  if (start.size() < sizeof kSqlite || start.compare(0, sizeof kSqlite, kSqlite, sizeof kSqlite) != 0) {
    if (st.st_size == 0) out.what = "an empty file";
    else if (start.size() == 512 && start.compare(257, 5, "ustar") == 0) out.what = "a Cube file or other tar archive";
    else out.what = "a file that is not a Waitscope report";
    return out;
  }
  out.what = "an SQLite database that is not a Waitscope report";
  try {
    using report::detail::Database;
    using report::detail::Statement;
    // Read-only and immutable: examining the file never changes it, nor creates a journal beside it.
    Database db(report::fileUri(resolved(path).string()) + "?immutable=1", SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
    Statement s(db, "SELECT key, value FROM meta WHERE key IN ('format_version', 'trace', 'kind')");
    bool version = false;
    std::string trace, kind;
    while (s.step()) {
      const std::string key = s.text(0);
      if (key == "format_version") version = true;
      else if (key == "trace") trace = s.text(1);
      else kind = s.text(1);
    }
    if (version) {
      out.kind = ExistingOutput::Kind::Report;
      out.trace = trace;
      out.what = kind;
    }
  } catch (const std::exception&) {
    // no meta table, or damaged: not a report we may replace
  }
  return out;
}

std::string traceFileRole(const std::string& trace, const std::string& output) {
  const fs::path anchor = resolved(trace), out = resolved(output);
  const fs::path dir = anchor.parent_path();
  const std::string stem = anchor.stem().string();
  const fs::path defs = dir / (stem + ".def"), archive = dir / stem, logs = dir / (stem + ".partial");
  if (out == anchor || sameFile(out, anchor)) return "the trace's anchor file";
  if (out == defs || sameFile(out, defs)) return "the trace's global definition file";
  if (out == archive) return "the trace's directory of per-process files";
  if (within(out, archive)) return "in the trace's directory of per-process files " + archive.string();
  if (within(out, logs)) return "in the trace's directory of definition logs " + logs.string();
  return {};
}

std::string directoryProblem(const std::string& dir) {
  std::error_code ec;
  const fs::path d = dir.empty() ? fs::path(".") : fs::path(dir);
  if (!fs::exists(d, ec)) return "it does not exist";
  if (!fs::is_directory(d, ec)) return "it is not a directory";
  // Creating a file is the only sure test (read-only mounts, ACLs, root squashed on NFS, quotas).
  static std::atomic<unsigned> serial{0};
  const fs::path probe = d / (".waitscope-probe-" + std::to_string(::getpid()) + "-" + std::to_string(serial++));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return std::strerror(errno);
  ::close(fd);
  ::unlink(probe.c_str());
  return {};
}

std::string analyzerOutputProblem(const std::string& trace, const std::string& output, bool force) {
  const std::string refuse = output + ": the report is not written there: ";
  if (const std::string role = traceFileRole(trace, output); !role.empty())
    return refuse + "it is " + role + "; name another report file with -o";
  const ExistingOutput existing = inspectOutput(output);
  switch (existing.kind) {
    case ExistingOutput::Kind::Directory:
      return refuse + "it is a directory; name a report file with -o";
    case ExistingOutput::Kind::Other: return notAReport(output, existing);
    case ExistingOutput::Kind::Report: {
      const fs::path anchor = resolved(trace);
      const bool sameTrace = !existing.trace.empty() && resolved(existing.trace) == anchor;
      const bool defaultPath =
          existing.what == "trace analysis" &&
          resolved(output) == anchor.parent_path() / (anchor.stem().string() + ".waitscope");
      if (!sameTrace && !defaultPath && !force)
        return refuse + "it is the report of " +
               (existing.trace.empty() ? "a " + (existing.what.empty() ? std::string("different") : existing.what) + " run"
                                       : "another trace, " + existing.trace) +
               "; replace it with --force, or name another file with -o";
      break;
    }
    case ExistingOutput::Kind::Nothing: break;
  }
  const fs::path dir = resolved(output).parent_path();
  if (const std::string problem = directoryProblem(dir.string()); !problem.empty())
    return output + ": cannot write the report in " + dir.string() + ": " + problem;
  return {};
}

std::string runReportProblem(const std::string& output) {
  const ExistingOutput existing = inspectOutput(output);
  if (existing.kind == ExistingOutput::Kind::Directory)
    return output + " is a directory; name a report file with -o";
  if (existing.kind == ExistingOutput::Kind::Other) return notAReport(output, existing);
  return {};
}

std::string closeStandardOutput() {
  int error = 0;
  bool failed = false;
  // Output is the last thing a tool does, so errno still holds why the failed write failed
  // (stdio drops the data it could not write: the flush here may well succeed).
  std::cout.flush();
  if (!std::cout) {
    failed = true;
    error = errno;
  }
  // As gnulib's close_stream: a closed stdout is only an error if something was to be written.
  const bool pending = __fpending(stdout) != 0;
  if (std::ferror(stdout)) failed = true;
  errno = 0;
  if (std::fclose(stdout) != 0 && (pending || failed || errno != EBADF)) {
    failed = true;
    error = errno;
  }
  if (!failed) return {};
  return error != 0 ? std::strerror(error) : "a write failed";
}

int finishStandardOutput(const char* tool, int code) {
  const std::string problem = closeStandardOutput();
  if (problem.empty()) return code;
  std::fprintf(stderr, "%s: error: cannot write to standard output: %s\n", tool, problem.c_str());
  return code != 0 ? code : 1;
}

}  // namespace waitscope::tools
