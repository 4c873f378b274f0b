// The clock-correction side file (analysis/trace/clock_correction_file.h): written and read back
// the same, and bad files refused with a line naming the file.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>

#include "analysis/trace/clock_correction_file.h"

namespace waitscope::trace {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string name = (fs::temp_directory_path() / "waitscope-clock-file-XXXXXX").string();
    if (mkdtemp(name.data())) path = name;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return {};
}

TEST(ClockCorrectionFile, WrittenAndReadBackTheSame) {
  TempDir dir;
  ASSERT_FALSE(dir.path.empty());
  std::vector<LocationClockCorrection> all(3);
  all[0].anchors = {{4, 0.3}, {9, 0.5}};
  all[0].ramps = {{0, 4, 0.3}, {4, 9, 0.25}};
  all[2].anchors = {{1, 1e-6}};
  const std::string path = clockCorrectionPath((dir.path / "run.waitscope").string());
  EXPECT_EQ(path, (dir.path / "run.waitscope.clock-correction").string());
  writeClockCorrections(path, all);
  const auto back = readClockCorrections(path);
  ASSERT_EQ(back.size(), 3u);
  ASSERT_EQ(back[0].anchors.size(), 2u);
  EXPECT_EQ(back[0].anchors[1].event, 9u);
  EXPECT_EQ(back[0].anchors[1].offset, 0.5);
  ASSERT_EQ(back[0].ramps.size(), 2u);
  EXPECT_EQ(back[0].ramps[1].from, 4u);
  EXPECT_EQ(back[0].ramps[1].to, 9u);
  EXPECT_EQ(back[0].ramps[1].jump, 0.25);
  EXPECT_TRUE(back[1].empty());
  EXPECT_EQ(back[2].anchors[0].offset, 1e-6);
  // Written again over its own file; removed by removeClockCorrections.
  writeClockCorrections(path, all);
  removeClockCorrections(path);
  EXPECT_FALSE(fs::exists(path));
}

TEST(ClockCorrectionFile, BadFilesAreRefusedByName) {
  TempDir dir;
  ASSERT_FALSE(dir.path.empty());
  const std::string other = (dir.path / "notes.txt").string();
  std::ofstream(other) << "my notes\n";
  // Not overwritten, not removed, not read.
  EXPECT_EQ(errorOf([&] { writeClockCorrections(other, {}); }),
            other + ": exists and is not a clock-correction file; move it away or choose another report name");
  removeClockCorrections(other);
  EXPECT_TRUE(fs::exists(other));
  EXPECT_EQ(errorOf([&] { readClockCorrections(other); }), other + ": not a Waitscope clock-correction file");
  const std::string missing = (dir.path / "missing").string();
  EXPECT_EQ(errorOf([&] { readClockCorrections(missing); }),
            missing + ": cannot be opened; analyze the trace again to write it");
  // Cut short after its header.
  const std::string cut = (dir.path / "cut.clock-correction").string();
  std::vector<LocationClockCorrection> one(1);
  one[0].anchors = {{4, 0.3}};
  writeClockCorrections(cut, one);
  fs::resize_file(cut, 8 + 4 + 4);
  EXPECT_EQ(errorOf([&] { readClockCorrections(cut); }),
            cut + ": the clock-correction file is truncated; analyze the trace again");
}

}  // namespace
}  // namespace waitscope::trace
