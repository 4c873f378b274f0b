#pragma once
// What the command-line tools check about their output, so that nothing the user
// has is replaced by mistake and no failed write passes for a written one:
// the file a report would replace, the directory it goes to, standard output.
#include <string>

namespace waitscope::tools {

// What is at a path a report is about to be written to.
struct ExistingOutput {
  enum class Kind {
    Nothing,    // no such file (or link to nothing)
    Report,     // a Waitscope report (SQLite with meta.format_version), complete or not
    Directory,  // a directory
    Other,      // anything else: another file, a FIFO, a device, a .cubex, an SQLite database of others
  };
  Kind kind = Kind::Nothing;
  std::string trace;  // Report: its meta `trace` (the analyzed trace; empty for profile and online reports)
  std::string what;   // Report: its meta `kind`; Other: what it is ("a FIFO", "a file that is not ...")
};
ExistingOutput inspectOutput(const std::string& path);

// If `output` is one of the files of the OTF2 trace whose anchor is `trace` (the anchor,
// STEM.def, anything in the directory STEM/ or STEM.partial/ beside it, or a link to one of
// them), a phrase saying which ("the trace's global definition file"); "" otherwise.
std::string traceFileRole(const std::string& trace, const std::string& output);

// Why the directory `dir` cannot take a new file ("it does not exist", "Read-only file
// system", "Permission denied", ...), found by creating and removing a file there; "" if it can.
std::string directoryProblem(const std::string& dir);

// waitscope-analyze's rule for its report path `output` given the trace `trace`: one line
// (starting with `output`) saying why it refuses the path, or "" when it may write there.
// Refused: a file of the trace; a directory; an existing file that is not a Waitscope
// report; a report of another trace, unless `force`; a directory that cannot take a file.
// A report of the same trace (or at the trace's default report path, STEM.waitscope beside
// it) is replaced: analyzing a trace again updates its report.
std::string analyzerOutputProblem(const std::string& trace, const std::string& output, bool force);

// waitscope-run's rule for a --profile / --online report path: a directory or an existing
// file that is not a Waitscope report is refused (an old report is replaced); "" when fine.
std::string runReportProblem(const std::string& output);

// Flushes and closes standard output (C++ and C streams). Returns "" when everything written
// reached it, else why not ("No space left on device"). After it, nothing may be written to stdout.
std::string closeStandardOutput();

// For main(): exit code `code`, or 1 with "TOOL: error: cannot write to standard output: WHY"
// on stderr when closeStandardOutput() fails.
int finishStandardOutput(const char* tool, int code);

}  // namespace waitscope::tools
