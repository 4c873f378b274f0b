// waitscope-report timeline: JSON and binary slices equal to the in-process
// query, the index written beside the report, and one clear line (exit 1) or
// the usage (exit 2) for bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "analysis/report/report_io.h"
#include "analysis/timeline/slice_format.h"
#include "analysis/timeline/timeline_query.h"
#include "tests/support/test_support.h"
#include "tests/unit/timeline/timeline_scenarios.h"

namespace waitscope::timeline {
namespace {

class timeline_cli : public ::testing::Test {
 protected:
  void SetUp() override {
    test::buildMessages(builder_);
    report_ = test::reportSkeleton(builder_.trace());
    tracePath_ = builder_.write((dir_ / "trace").string());
    reportPath_ = (dir_ / "run.wsr").string();
    report::writeReport(report_, reportPath_);
  }
  test::CommandResult timeline(const std::string& arguments) const {
    return test::run(test::tool("waitscope-report") + " timeline '" + tracePath_ + "' '" + reportPath_ + "' " +
                     arguments);
  }
  test::TempDir dir_;
  trace::TraceBuilder builder_{2};
  report::Report report_;
  std::string tracePath_, reportPath_;
};

TEST_F(timeline_cli, JsonSliceOfOneLocation) {
  const auto r = timeline("--from 0 --to 8 --width 64 --locations 1-1 --json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const std::uint32_t main = test::callPathOf(report_, "main");
  std::ostringstream expected;
  expected << "{\"format\":\"waitscope-timeline-slice\",\"version\":1,\"from\":0,\"to\":8,\"width\":64,"
              "\"locations\":[{\"location\":1,\"regions\":[{\"start\":0,\"end\":8,\"call_path\":"
           << main
           << ",\"merged\":17,\"group\":\"user\"}],\"messages\":["
              "{\"start\":2,\"end\":2.09375,\"sender\":0,\"receiver\":1,\"tag\":7,\"comm\":0,\"bytes\":2048,\"count\":2},"
              "{\"start\":2.125,\"end\":2.21875,\"sender\":0,\"receiver\":1,\"tag\":7,\"comm\":0,\"bytes\":2048,\"count\":2},"
              "{\"start\":2.25,\"end\":2.34375,\"sender\":0,\"receiver\":1,\"tag\":7,\"comm\":0,\"bytes\":2048,\"count\":2},"
              "{\"start\":2.375,\"end\":2.46875,\"sender\":0,\"receiver\":1,\"tag\":7,\"comm\":0,\"bytes\":2048,\"count\":2}],"
              "\"collectives\":[],\"epochs\":[],\"transfers\":[],\"instances\":[],\"critical_path\":[]}]}\n";
  EXPECT_EQ(r.out, expected.str());
  EXPECT_TRUE(std::filesystem::exists(reportPath_ + ".timeline"));
}

TEST_F(timeline_cli, BinarySliceEqualsTheInProcessQuery) {
  const auto r = timeline("--from 1.5 --to 4.5 --width 3 --binary");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string& bytes = r.out;
  const Slice remote = parseBinarySlice(bytes);
  Slice local;
  querySlice(buildTimelineIndex(builder_.trace(), report_), {1.5, 4.5, 3, {}}, local);
  ASSERT_EQ(remote.locations.size(), 2u);
  EXPECT_EQ(remote.from, 1.5);
  EXPECT_EQ(remote.width, 3u);
  for (std::size_t l = 0; l < 2; ++l) {
    ASSERT_EQ(remote.locations[l].regions.size(), local.locations[l].regions.size());
    for (std::size_t i = 0; i < local.locations[l].regions.size(); ++i) {
      EXPECT_EQ(remote.locations[l].regions[i].start, local.locations[l].regions[i].start);
      EXPECT_EQ(remote.locations[l].regions[i].end, local.locations[l].regions[i].end);
      EXPECT_EQ(remote.locations[l].regions[i].callPath, local.locations[l].regions[i].callPath);
      EXPECT_EQ(remote.locations[l].regions[i].merged, local.locations[l].regions[i].merged);
    }
    EXPECT_EQ(remote.locations[l].messages.size(), local.locations[l].messages.size());
  }
  EXPECT_THROW(parseBinarySlice(bytes.substr(0, bytes.size() - 3)), SliceFormatError);
  EXPECT_THROW(parseBinarySlice("garbage!garbage!"), SliceFormatError);
}

TEST_F(timeline_cli, BadTimesAndLocationsAreUsageErrors) {
  auto r = timeline("--from abc --to 8");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("waitscope-report: timeline: --from needs a time in seconds, got 'abc'"), std::string::npos)
      << r.err;
  r = timeline("--from 5 --to 4");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--to must be after --from"), std::string::npos) << r.err;
  r = timeline("--locations 0-9");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("has locations 0-1, not 2"), std::string::npos) << r.err;
  r = timeline("--width 0");
  EXPECT_EQ(r.exitCode, 2);
}

TEST_F(timeline_cli, MissingReportIsOneLineNamingIt) {
  const std::string missing = (dir_ / "missing.wsr").string();
  const auto r = test::run(test::tool("waitscope-report") + " timeline '" + tracePath_ + "' '" + missing + "'");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(timeline_cli, CorruptIndexIsRebuiltWithANote) {
  ASSERT_EQ(timeline("--width 10").exitCode, 0);
  { std::ofstream(reportPath_ + ".timeline", std::ios::trunc) << "junk"; }
  const auto r = timeline("--width 10");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_EQ(r.err, "waitscope-report: rebuilding the timeline index " + reportPath_ +
                       ".timeline: truncated header\n");
}

}  // namespace
}  // namespace waitscope::timeline
