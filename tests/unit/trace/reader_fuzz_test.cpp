// Mutation fuzzing of the OTF2 reader: random byte flips, truncations and
// garbage in every file of a real archive must end in either a loaded trace or
// a TraceError, never a crash, a hang or another exception. Under the sanitizer
// job this also checks memory safety. Deterministic seeds keep failures reproducible.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "analysis/trace/otf2_reader.h"
#include "tests/support/test_support.h"

using namespace waitscope::trace;
using waitscope::test::copyArchive;
using waitscope::test::sharedTrace;
using waitscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

void mutate(const fs::path& file, std::mt19937& rng) {
  const auto size = fs::file_size(file);
  if (size == 0) return;
  std::uniform_int_distribution<std::uintmax_t> position(0, size - 1);
  switch (rng() % 3) {
    case 0: {  // flip a few bytes
      std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
      for (int i = 0, n = 1 + static_cast<int>(rng() % 8); i < n; ++i) {
        const auto at = static_cast<std::streamoff>(position(rng));
        f.seekg(at);
        const int byte = f.get();
        f.seekp(at);
        f.put(static_cast<char>(byte ^ (1 << (rng() % 8))));
      }
      break;
    }
    case 1:  // truncate
      fs::resize_file(file, position(rng));
      break;
    default: {  // overwrite a run with random bytes
      std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(static_cast<std::streamoff>(position(rng)));
      for (int i = 0, n = 1 + static_cast<int>(rng() % 32); i < n; ++i) f.put(static_cast<char>(rng()));
    }
  }
}

class ReaderFuzz : public ::testing::TestWithParam<const char*> {};

TEST_P(ReaderFuzz, MutatedArchivesFailCleanly) {
  const std::string source = sharedTrace(GetParam());
  std::mt19937 rng(20261121);
  int loaded = 0, rejected = 0;
  for (int iteration = 0; iteration < 40; ++iteration) {
    TempDir dir("waitscope-fuzz");
    const std::string anchor = copyArchive(source, dir.path());
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(dir.path()))
      if (entry.is_regular_file()) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    mutate(files[rng() % files.size()], rng);
    ReadOptions quiet;
    quiet.warn = [](const std::string&) {};
    try {
      const Trace trace = readTrace(anchor, quiet);
      ++loaded;
    } catch (const TraceError& e) {
      ++rejected;
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(loaded + rejected, 40);
  EXPECT_GT(rejected, 0);  // the mutations must actually bite
}

INSTANTIATE_TEST_SUITE_P(SharedTraces, ReaderFuzz, ::testing::Values("scorep-rma/gats", "casita_4_mpi_ls_barr"),
                         [](const auto& param) { return std::string(param.param[0] == 's' ? "gats" : "casita"); });

}  // namespace
