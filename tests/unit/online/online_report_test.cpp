// What the root place writes: the report built from the ranks' call trees and the wait totals
// (the waits taken out of their call's time category, as in a trace analysis), REPORT.live, and
// the settings that travel in the environment.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/online/live_report.h"
#include "analysis/online/online_config.h"
#include "analysis/profile/profile_output.h"
#include "analysis/report/report_io.h"

using namespace waitscope::online;
using waitscope::profile::NodeOut;
using waitscope::profile::RankOut;

namespace {

RankOut rankWithRecv(double recvSeconds) {
  RankOut r;
  r.host = "node1";
  NodeOut main;
  main.region = "main";
  main.paradigm = "user";
  main.visits = 1;
  main.exclusiveSeconds = 1.0;
  NodeOut mpiRecv;
  mpiRecv.parent = 0;
  mpiRecv.region = "MPI_Recv";
  mpiRecv.paradigm = "mpi";
  mpiRecv.visits = 10;
  mpiRecv.exclusiveSeconds = recvSeconds;
  r.nodes = {main, mpiRecv};
  return r;
}

double severity(const waitscope::report::Report& r, const std::string& metric, std::uint32_t location) {
  const std::uint32_t m = r.findMetric(metric);
  double sum = 0;
  for (const auto& row : r.severities)
    if (row.metric == m) sum += row.values[location];
  return sum;
}

}  // namespace

TEST(OnlineReport, WaitsGoUnderTheirPatternAndOutOfTheCategory) {
  const std::vector<std::string> trees = {waitscope::profile::serialize(rankWithRecv(0.5)),
                                          waitscope::profile::serialize(rankWithRecv(2.0))};
  const std::vector<MetricValue> totals = {
      {static_cast<std::uint32_t>(waitscope::metrics::Metric::MpiLateSender), 1, 1, 0, 1.5},
      {static_cast<std::uint32_t>(waitscope::metrics::Metric::MpiLateSender), 1, 9, 0, 7.0},  // node not in the tree yet
  };
  const auto report = buildOnlineReport(trees, totals, {{"online_snapshot", "3"}});
  EXPECT_EQ(report.metaValue("kind"), "online");
  EXPECT_EQ(report.metaValue("online_snapshot"), "3");
  EXPECT_EQ(report.metaValue("estimates"), "");  // no estimate metrics in online mode
  EXPECT_EQ(report.findMetric("mpi_latesender_estimate"), waitscope::report::kNoId);
  ASSERT_NE(report.findMetric("mpi_latesender"), waitscope::report::kNoId);
  EXPECT_DOUBLE_EQ(severity(report, "mpi_latesender", 1), 1.5);
  EXPECT_DOUBLE_EQ(severity(report, "mpi_latesender", 0), 0.0);
  EXPECT_DOUBLE_EQ(severity(report, "mpi_point2point", 1), 0.5);  // 2.0 s in MPI_Recv minus the wait
  EXPECT_DOUBLE_EQ(severity(report, "mpi_point2point", 0), 0.5);
  EXPECT_EQ(report.locations.size(), 2u);
}

TEST(OnlineReport, LiveStatusIsJsonWithEveryField) {
  LiveStatus s;
  s.state = "finished";
  s.snapshot = 7;
  s.pauses = 2;
  s.peakQueue = 812;
  s.message = "say \"hi\"";
  const std::string json = liveStatusJson(s);
  for (const char* field : {"\"state\": \"finished\"", "\"snapshot\": 7", "\"pauses\": 2", "\"peak_queue\": 812",
                            "\"interval_seconds\": 2.000", "\"elapsed_seconds\"", "\"updated\": \"20",
                            "\"message\": \"say \\\"hi\\\"\""})
    EXPECT_NE(json.find(field), std::string::npos) << field << " in " << json;

  const auto dir = std::filesystem::temp_directory_path() / "waitscope-live-test";
  std::filesystem::create_directories(dir);
  const std::string report = (dir / "r.waitscope").string();
  writeLiveStatus(report, s);
  std::ifstream in(report + ".live");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("\"snapshot\": 7"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(report + ".live.tmp"));
  EXPECT_THROW(writeLiveStatus("/proc/no-such-dir/r.waitscope", s), waitscope::report::ReportError);
  std::filesystem::remove_all(dir);
}

TEST(OnlineConfig, TravelsThroughTheEnvironment) {
  Config c;
  c.appRanks = 12;
  c.fanIn = 3;
  c.selection = Selection::AppIntraRoot;
  c.alpha = 10;
  c.beta = 0.5;
  c.sigma = 500;
  c.sigmaResume = 100;
  c.channelCapacity = 1;
  c.batchEvents = 1;
  c.snapshotSeconds = 0.25;
  c.output = "/tmp/x.waitscope";
  for (const auto& [name, value] : toEnvironment(c)) setenv(name.c_str(), value.c_str(), 1);
  ASSERT_TRUE(requested());
  const Config d = fromEnvironment();
  EXPECT_EQ(d.appRanks, 12);
  EXPECT_EQ(d.fanIn, 3);
  EXPECT_EQ(d.selection, Selection::AppIntraRoot);
  EXPECT_DOUBLE_EQ(d.alpha, 10);
  EXPECT_DOUBLE_EQ(d.beta, 0.5);
  EXPECT_EQ(d.sigma, 500);
  EXPECT_EQ(d.sigmaResume, 100);
  EXPECT_EQ(d.channelCapacity, 1);
  EXPECT_EQ(d.batchEvents, 1);
  EXPECT_DOUBLE_EQ(d.snapshotSeconds, 0.25);
  EXPECT_EQ(d.output, "/tmp/x.waitscope");
  setenv("WAITSCOPE_ONLINE_SELECTION", "fastest", 1);
  EXPECT_THROW(fromEnvironment(), std::runtime_error);
  setenv("WAITSCOPE_ONLINE_SELECTION", "heuristic", 1);
  setenv("WAITSCOPE_ONLINE_SIGMA_RESUME", "900", 1);
  EXPECT_THROW(fromEnvironment(), std::runtime_error);  // sigma' must be below sigma
  Selection sel;
  EXPECT_TRUE(parseSelection("app-intra-root", sel));
  EXPECT_EQ(sel, Selection::AppIntraRoot);
  EXPECT_STREQ(selectionName(Selection::IntraRootApp), "intra-root-app");
  unsetenv("WAITSCOPE_ONLINE");
}
