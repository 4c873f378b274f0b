#pragma once
// Helpers shared by the backend tests: temporary directories, the shared
// Score-P traces, and running command-line tools.
#include <filesystem>
#include <string>

namespace waitscope::test {

// A fresh directory under the system temp dir, removed when the object dies.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "waitscope-test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// The anchor file of a trace in shared/traces, e.g. sharedTrace("scorep-rma/fence").
std::string sharedTrace(const std::string& name);

// Copies a whole OTF2 archive directory (anchor, .def and the location folder) into `dir`
// and returns the new anchor path.
std::string copyArchive(const std::string& anchor, const std::filesystem::path& dir);

struct CommandResult {
  int exitCode = -1;
  std::string out;
  std::string err;
};

// Runs a shell command, capturing stdout and stderr separately.
CommandResult run(const std::string& command);

// Path of a built tool, e.g. tool("waitscope-report").
std::string tool(const std::string& name);

}  // namespace waitscope::test
