#include "tests/support/test_support.h"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace waitscope::test {

TempDir::TempDir(const std::string& prefix) {
  std::random_device rd;
  for (int attempt = 0; attempt < 100; ++attempt) {
    fs::path candidate = fs::temp_directory_path() / (prefix + "-" + std::to_string(rd()));
    if (fs::create_directory(candidate)) {
      path_ = candidate;
      return;
    }
  }
  throw std::runtime_error("cannot create a temporary directory");
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string sharedTrace(const std::string& name) {
  return (fs::path(WAITSCOPE_SHARED_DIR) / "traces" / name / "traces.otf2").string();
}

std::string copyArchive(const std::string& anchor, const fs::path& dir) {
  const fs::path a(anchor);
  const fs::path stem = a.stem();
  fs::copy_file(a, dir / a.filename());
  fs::copy_file(fs::path(a).replace_extension(".def"), dir / (stem.string() + ".def"));
  fs::copy(fs::path(a).replace_extension(""), dir / stem, fs::copy_options::recursive);
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    fs::permissions(entry.path(), fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::add);
  return (dir / a.filename()).string();
}

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

CommandResult run(const std::string& command) {
  TempDir dir("waitscope-run");
  const fs::path out = dir / "out", err = dir / "err";
  const std::string full = command + " >" + out.string() + " 2>" + err.string() + " </dev/null";
  const int status = std::system(full.c_str());
  CommandResult r;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

std::string tool(const std::string& name) {
  for (const char* sub : {"analysis/tools", "analysis/measure", "app", "bin"}) {
    const fs::path p = fs::path(WAITSCOPE_BINARY_DIR) / sub / name;
    if (fs::exists(p)) return p.string();
  }
  throw std::runtime_error("tool not built: " + name);
}

}  // namespace waitscope::test
