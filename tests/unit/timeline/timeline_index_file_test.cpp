// The index file: built from the OTF2 trace location by location (the same as
// from the trace in memory), written, loaded back unchanged; rebuilt when the
// report changes, when the file is damaged or truncated, or of another version.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include <sys/stat.h>
#include <unistd.h>

#include "analysis/report/report_io.h"
#include "analysis/timeline/timeline_index_file.h"
#include "analysis/timeline/timeline_query.h"
#include "tests/support/test_support.h"
#include "tests/unit/timeline/timeline_scenarios.h"

namespace waitscope::timeline {
namespace {

namespace fs = std::filesystem;

std::string sliceBytes(const TimelineIndex& index, double from, double to, std::uint32_t width) {
  Slice s;
  querySlice(index, {from, to, width, {}}, s);
  std::string bytes;
  for (const LocationSlice& l : s.locations) {
    const auto add = [&](const auto& v) {
      bytes.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(v[0]));
      bytes += '|';
    };
    add(l.regions);
    add(l.messages);
    add(l.collectives);
    add(l.epochs);
    add(l.transfers);
    add(l.instances);
    add(l.path);
  }
  return bytes;
}

class timeline_index_file : public ::testing::Test {
 protected:
  void SetUp() override {
    test::buildRma(builder_);
    report_ = test::reportSkeleton(builder_.trace());
    report_.instances.push_back({1, 1, test::callPathOf(report_, "main/MPI_Win_start"), 4.0, 4.5, 0});
    report_.criticalPath.push_back({1, test::callPathOf(report_, "main/MPI_Win_start"), 4.0, 4.5});
    tracePath_ = builder_.write((dir_ / "trace").string());
    reportPath_ = (dir_ / "run.wsr").string();
    report::writeReport(report_, reportPath_);
    indexPath_ = defaultIndexPath(reportPath_);
  }
  OpenedIndex open() {
    notes_.clear();
    return openTimelineIndex(tracePath_, reportPath_, report_, [this](const std::string& l) { notes_.push_back(l); });
  }
  void overwriteAt(std::uint64_t offset, const std::string& bytes) {
    std::fstream f(indexPath_, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(offset));
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }

  test::TempDir dir_;
  trace::TraceBuilder builder_{3};
  report::Report report_;
  std::string tracePath_, reportPath_, indexPath_;
  std::vector<std::string> notes_;
};

TEST_F(timeline_index_file, BuiltFromTheFileLikeFromMemoryThenLoadedUnchanged) {
  const OpenedIndex first = open();
  EXPECT_TRUE(first.built);
  EXPECT_TRUE(notes_.empty());  // no index yet is no news
  ASSERT_TRUE(fs::exists(indexPath_));
  const TimelineIndex inMemory = buildTimelineIndex(builder_.trace(), report_);
  EXPECT_EQ(sliceBytes(first.index, 0, 8, 800), sliceBytes(inMemory, 0, 8, 800));

  const OpenedIndex second = open();
  EXPECT_FALSE(second.built);
  EXPECT_TRUE(notes_.empty());
  EXPECT_EQ(second.index.itemCount(), first.index.itemCount());
  EXPECT_EQ(second.index.begin, 0.0);
  EXPECT_EQ(second.index.end, 8.0);
  for (std::uint32_t width : {3u, 64u, 800u})
    EXPECT_EQ(sliceBytes(second.index, 0, 8, width), sliceBytes(first.index, 0, 8, width)) << width;
}

// Read a block of ranks at a time, the blocks split anywhere: the same index.
TEST_F(timeline_index_file, BuiltFromTheFileInBlocksOfRanksLikeFromMemory) {
  const std::string inMemory = sliceBytes(buildTimelineIndex(builder_.trace(), report_), 0, 8, 800);
  for (const std::size_t ranksPerRead : {std::size_t{1}, std::size_t{2}, kRanksPerRead})
    EXPECT_EQ(sliceBytes(buildTimelineIndex(tracePath_, report_, nullptr, ranksPerRead), 0, 8, 800), inMemory)
        << ranksPerRead << " ranks per read";
}

TEST_F(timeline_index_file, StaleWhenTheReportChanges) {
  open();
  report_.instances.push_back({1, 0, test::callPathOf(report_, "main/MPI_Win_wait"), 4.25, 5.0, 1});
  report::writeReport(report_, reportPath_);
  const OpenedIndex reopened = open();
  EXPECT_TRUE(reopened.built);
  ASSERT_EQ(notes_.size(), 1u);
  EXPECT_NE(notes_[0].find(indexPath_), std::string::npos) << notes_[0];
  EXPECT_NE(notes_[0].find("changed since it was built"), std::string::npos) << notes_[0];
  EXPECT_EQ(reopened.index.locations[0].instances.size(), 1u);
  EXPECT_FALSE(open().built);  // the rebuilt index was saved
}

TEST_F(timeline_index_file, CorruptByteIsDetectedAndRebuilt) {
  open();
  const auto size = fs::file_size(indexPath_);
  overwriteAt(size - 20, std::string(4, '\x5a'));
  const LoadedIndex bad = loadTimelineIndex(indexPath_, fingerprintOf(indexSources(tracePath_, reportPath_)));
  EXPECT_EQ(bad.status, IndexLoad::Corrupt);
  const OpenedIndex reopened = open();
  EXPECT_TRUE(reopened.built);
  ASSERT_EQ(notes_.size(), 1u);
  EXPECT_NE(notes_[0].find("rebuilding the timeline index " + indexPath_), std::string::npos) << notes_[0];
  EXPECT_EQ(sliceBytes(reopened.index, 0, 8, 64), sliceBytes(buildTimelineIndex(builder_.trace(), report_), 0, 8, 64));
}

TEST_F(timeline_index_file, TruncatedWrongMagicAndOtherVersionAreNotLoaded) {
  open();
  const Fingerprint stamps = fingerprintOf(indexSources(tracePath_, reportPath_));
  fs::resize_file(indexPath_, fs::file_size(indexPath_) - 8);
  LoadedIndex r = loadTimelineIndex(indexPath_, stamps);
  EXPECT_EQ(r.status, IndexLoad::Corrupt);
  EXPECT_EQ(r.problem, "file size does not match its header (truncated?)");

  open();
  overwriteAt(8, std::string("\x01\0\0\0\0\0\0\0", 8));  // an older build's index
  r = loadTimelineIndex(indexPath_, stamps);
  EXPECT_EQ(r.status, IndexLoad::Stale);
  EXPECT_EQ(r.problem, "format version 1, this program reads " + std::to_string(kIndexFormatVersion));

  overwriteAt(0, "NOTANIDX");
  r = loadTimelineIndex(indexPath_, stamps);
  EXPECT_EQ(r.status, IndexLoad::Corrupt);
  EXPECT_EQ(r.problem, "not a timeline index");
  EXPECT_TRUE(open().built);
}

TEST_F(timeline_index_file, AFifoInTheIndexPlaceIsReplacedNotRead) {
  ASSERT_EQ(::mkfifo(indexPath_.c_str(), 0600), 0) << std::strerror(errno);
  ::alarm(60);  // opening a FIFO for reading blocks until a writer comes: end a hang as a failure
  const LoadedIndex r = loadTimelineIndex(indexPath_, fingerprintOf(indexSources(tracePath_, reportPath_)));
  EXPECT_EQ(r.status, IndexLoad::Corrupt);
  EXPECT_EQ(r.problem, "not a regular file");
  EXPECT_TRUE(open().built);
  ::alarm(0);
  EXPECT_TRUE(fs::is_regular_file(indexPath_));
  EXPECT_FALSE(open().built);  // the rebuilt index replaced the FIFO and is loaded from now on
}

TEST_F(timeline_index_file, UnwritableDirectoryKeepsTheIndexInMemory) {
  const std::string elsewhere = (dir_ / "no such dir" / "x.timeline").string();
  std::vector<std::string> notes;
  const OpenedIndex o = openTimelineIndex(tracePath_, reportPath_, report_,
                                          [&](const std::string& l) { notes.push_back(l); }, elsewhere);
  EXPECT_TRUE(o.built);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("cannot write the timeline index " + elsewhere), std::string::npos) << notes[0];
  EXPECT_EQ(o.index.locations.size(), 3u);
}

TEST_F(timeline_index_file, MissingTraceNamesTheFile) {
  const std::string missing = (dir_ / "nope" / "traces.otf2").string();
  try {
    openTimelineIndex(missing, reportPath_, report_, {});
    FAIL() << "no error";
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace waitscope::timeline
