// The POP efficiency metrics on hand-made reports whose per-process useful
// computation U_p, time T_p and waiting time W_p are worked out in the comments,
// and their table, CSV and JSON forms.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "analysis/report/pop_metrics.h"
#include "tests/unit/report/json_value.h"

using namespace waitscope::report;

namespace {

// The metric tree of an analysis report, cut down to what the POP metrics read, plus metrics they
// must ignore: delay costs and the critical-path imbalance (part of their parent, but not time of
// the run) and visits.
Report popReport(std::size_t processes) {
  Report r;
  r.meta = {{"format_version", "1"}, {"trace", "/runs/pop/traces.otf2"}};
  r.metrics = {
      {"time", "Time", "", MetricUnit::Seconds, kNoId},                                  // 0
      {"execution", "Execution", "", MetricUnit::Seconds, 0},                            // 1
      {"comp", "Computation", "", MetricUnit::Seconds, 1},                               // 2
      {"mpi", "MPI", "", MetricUnit::Seconds, 1},                                        // 3
      {"mpi_point2point", "Point-to-point", "", MetricUnit::Seconds, 3},                 // 4
      {"mpi_latesender", "Late Sender", "", MetricUnit::Seconds, 4},                     // 5
      {"mpi_latesender_wo", "Messages in Wrong Order", "", MetricUnit::Seconds, 5},      // 6
      {"mpi_collective", "Collective", "", MetricUnit::Seconds, 3},                      // 7
      {"mpi_wait_nxn", "Wait at N x N", "", MetricUnit::Seconds, 7},                     // 8
      {"mpi_rma_sync_late_post", "Late Post", "", MetricUnit::Seconds, 3},               // 9
      {"visits", "Visits", "", MetricUnit::Occurrences, kNoId},                          // 10
      {"delay", "Delay Costs", "", MetricUnit::Seconds, kNoId},                          // 11
      {"critical_path", "Critical Path", "", MetricUnit::Seconds, kNoId},                // 12
      {"critical_path_imbalance", "Imbalance", "", MetricUnit::Seconds, 12},             // 13
  };
  r.regions = {{"main", "main.c", 1, 40, "user"},
               {"MPI_Recv", "", 0, 0, "mpi"},
               {"MPI_Allreduce", "", 0, 0, "mpi"}};
  r.callPaths = {{kNoId, 0, "", 0}, {0, 1, "main.c", 10}, {0, 2, "main.c", 20}};
  for (std::uint32_t p = 0; p < processes; ++p) r.locations.push_back({"MPI Rank " + std::to_string(p), p, kNoId});
  return r;
}

void addRow(Report& r, const char* metric, std::uint32_t callPath, std::vector<double> values) {
  r.severities.push_back({r.findMetric(metric), callPath, std::move(values)});
}

// Two processes (exclusive values, rank 0 | rank 1):
//   comp 3 | 2, point-to-point 0.5 | 0.25, Late Sender 0 | 0.5 with its wrong-order part 0 | 0.25,
//   collective 0.25 | 0.25, Wait at N x N 0.25 | 0, Late Post 0.125 | 0,
//   and (ignored) visits, delay 1 | 1, critical path 2 | 0 with imbalance 1 | 0.
// T_p = 4.125 | 3.25, U_p = 3 | 2,
// W_p = Late Sender incl. (0 | 0.75) + Wait at N x N (0.25 | 0) + Late Post (0.125 | 0) = 0.375 | 0.75.
Report twoProcessRun() {
  Report r = popReport(2);
  addRow(r, "comp", 0, {3.0, 2.0});
  addRow(r, "mpi_point2point", 1, {0.5, 0.25});
  addRow(r, "mpi_latesender", 1, {0.0, 0.5});
  addRow(r, "mpi_latesender_wo", 1, {0.0, 0.25});
  addRow(r, "mpi_collective", 2, {0.25, 0.25});
  addRow(r, "mpi_wait_nxn", 2, {0.25, 0.0});
  addRow(r, "mpi_rma_sync_late_post", 0, {0.125, 0.0});
  addRow(r, "visits", 1, {7.0, 7.0});
  addRow(r, "delay", 0, {1.0, 1.0});
  addRow(r, "critical_path", 0, {2.0, 0.0});
  addRow(r, "critical_path_imbalance", 0, {1.0, 0.0});
  return r;
}

// Four processes: comp 1 each, point-to-point 0.5 each, Late Sender 0.25 on ranks 1 and 3.
// T_p = 1.5 | 1.75 | 1.5 | 1.75, U_p = 1, W_p = 0 | 0.25 | 0 | 0.25.
Report fourProcessRun() {
  Report r = popReport(4);
  addRow(r, "comp", 0, {1.0, 1.0, 1.0, 1.0});
  addRow(r, "mpi_point2point", 1, {0.5, 0.5, 0.5, 0.5});
  addRow(r, "mpi_latesender", 1, {0.0, 0.25, 0.0, 0.25});
  return r;
}

TEST(pop_metrics, FromWaitStatesOfEveryFamilyWithoutDoubleCounting) {
  const PopMetrics m = popMetrics(twoProcessRun(), "two");
  EXPECT_EQ(m.label, "two");
  EXPECT_EQ(m.processes, 2U);
  EXPECT_EQ(m.runtime, 4.125);
  EXPECT_EQ(m.usefulMean, 2.5);
  EXPECT_EQ(m.usefulMax, 3.0);
  EXPECT_EQ(m.usefulSum, 5.0);
  EXPECT_EQ(m.waitingTime, 1.125);
  EXPECT_EQ(m.idealRuntime, 3.75);  // max(4.125 - 0.375, 3.25 - 0.75)
  EXPECT_EQ(m.loadBalance, 2.5 / 3.0);
  EXPECT_EQ(m.communicationEfficiency, 3.0 / 4.125);
  EXPECT_EQ(m.serialisationEfficiency, 3.0 / 3.75);
  EXPECT_EQ(m.transferEfficiency, 3.75 / 4.125);
  EXPECT_EQ(m.parallelEfficiency, (2.5 / 3.0) * (3.0 / 4.125));
  EXPECT_DOUBLE_EQ(m.serialisationEfficiency * m.transferEfficiency, m.communicationEfficiency);
  EXPECT_FALSE(m.speedup);
  EXPECT_FALSE(m.scalingEfficiency);
  EXPECT_FALSE(m.computationScaling);
  EXPECT_FALSE(m.globalEfficiency);
}

TEST(pop_metrics, SeriesAgainstTheFirstRun) {
  const Report ref = twoProcessRun(), big = fourProcessRun();
  const std::vector<PopMetrics> series = popSeries({&ref, &big}, {"p2", "p4"});
  ASSERT_EQ(series.size(), 2U);
  EXPECT_FALSE(series[0].speedup);
  const PopMetrics& m = series[1];
  EXPECT_EQ(m.runtime, 1.75);
  EXPECT_EQ(m.idealRuntime, 1.5);
  EXPECT_EQ(m.loadBalance, 1.0);
  EXPECT_EQ(m.communicationEfficiency, 1.0 / 1.75);
  EXPECT_EQ(m.serialisationEfficiency, 1.0 / 1.5);
  EXPECT_EQ(m.transferEfficiency, 1.5 / 1.75);
  ASSERT_TRUE(m.speedup && m.scalingEfficiency && m.computationScaling && m.globalEfficiency);
  EXPECT_EQ(*m.speedup, 4.125 / 1.75);
  EXPECT_EQ(*m.scalingEfficiency, (4.125 / 1.75) * (2.0 / 4.0));
  EXPECT_EQ(*m.computationScaling, 5.0 / 4.0);
  EXPECT_EQ(*m.globalEfficiency, (1.0 / 1.75) * 1.25);
}

// What popMetrics throws for `run`, or "" when it does not.
std::string refusal(const Report& run) {
  try {
    popMetrics(run, "x");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return {};
}

TEST(pop_metrics, AReportWithoutTimeOrComputationIsRefused) {
  Report noComp = twoProcessRun();
  noComp.metrics[2].uniqueName = "computation";
  EXPECT_NE(refusal(noComp).find("no \"comp\" metric"), std::string::npos) << refusal(noComp);
  Report noTime = twoProcessRun();
  noTime.metrics[0].uniqueName = "duration";
  EXPECT_NE(refusal(noTime).find("no \"time\" metric"), std::string::npos) << refusal(noTime);
  const Report ok = twoProcessRun();
  EXPECT_THROW(popSeries({&ok, &noComp}, {"a", "b"}), std::runtime_error);
  Report difference = twoProcessRun();
  difference.meta.emplace_back("kind", "difference");
  EXPECT_NE(refusal(difference).find("the report is the difference of two runs"), std::string::npos);
  Report mean = twoProcessRun();
  mean.meta.emplace_back("kind", "mean");
  EXPECT_EQ(refusal(mean), "");
  EXPECT_EQ(popMetrics(mean, "x").runtime, 4.125);
}

TEST(pop_metrics, NoProcessesGiveZerosNotNaN) {
  const PopMetrics m = popMetrics(popReport(0), "empty");
  EXPECT_EQ(m.processes, 0U);
  EXPECT_EQ(m.loadBalance, 0.0);
  EXPECT_EQ(m.communicationEfficiency, 0.0);
  EXPECT_EQ(m.serialisationEfficiency, 0.0);
  EXPECT_EQ(m.transferEfficiency, 0.0);
}

TEST(pop_metrics, JsonHoldsExactNumbersAndNullForTheReference) {
  const Report ref = twoProcessRun(), big = fourProcessRun();
  std::ostringstream out;
  printPopJson(popSeries({&ref, &big}, {"a \"b\"", "c"}), out);
  const waitscope::test::Json json = waitscope::test::JsonParser(out.str()).parse();
  EXPECT_EQ(json["threshold"].number, 0.8);
  ASSERT_EQ(json["runs"].array.size(), 2U);
  const auto& first = json["runs"][0];
  EXPECT_EQ(first["label"].string, "a \"b\"");
  EXPECT_EQ(first["processes"].number, 2.0);
  EXPECT_EQ(first["runtime"].number, 4.125);
  EXPECT_EQ(first["waiting_time"].number, 1.125);
  EXPECT_EQ(first["ideal_runtime"].number, 3.75);
  EXPECT_EQ(first["load_balance"].number, 2.5 / 3.0);
  EXPECT_EQ(first["transfer_efficiency"].number, 3.75 / 4.125);
  EXPECT_EQ(first["speedup"].kind, waitscope::test::Json::Kind::Null);
  EXPECT_EQ(first["global_efficiency"].kind, waitscope::test::Json::Kind::Null);
  EXPECT_EQ(json["runs"][1]["computation_scaling"].number, 1.25);
  EXPECT_EQ(json["runs"][1]["speedup"].number, 4.125 / 1.75);
}

TEST(pop_metrics, CsvAndTable) {
  const Report ref = twoProcessRun(), big = fourProcessRun();
  const std::vector<PopMetrics> series = popSeries({&ref, &big}, {"run,1", "run2"});
  std::ostringstream csv;
  printPopCsv(series, csv);
  std::istringstream lines(csv.str());
  std::string header, first, second;
  std::getline(lines, header);
  std::getline(lines, first);
  std::getline(lines, second);
  EXPECT_EQ(header,
            "label,processes,runtime,useful_mean,useful_max,useful_sum,waiting_time,ideal_runtime,load_balance,"
            "communication_efficiency,serialisation_efficiency,transfer_efficiency,parallel_efficiency,speedup,"
            "scaling_efficiency,computation_scaling,global_efficiency");
  EXPECT_EQ(first.rfind("\"run,1\",2,4.125,2.5,3,5,1.125,3.75,", 0), 0U) << first;
  EXPECT_EQ(first.substr(first.size() - 4), ",,,,") << first;  // no scaling for the reference
  EXPECT_EQ(second.rfind("run2,4,1.75,1,1,4,0.5,1.5,1,", 0), 0U) << second;

  std::ostringstream table;
  printPopTable(series, table);
  const std::string text = table.str();
  // SerE of the reference is exactly 0.8: not below the threshold; its CommE 0.727 is.
  EXPECT_NE(text.find("0.800 "), std::string::npos) << text;
  EXPECT_NE(text.find("0.727*"), std::string::npos) << text;
  EXPECT_NE(text.find("run,1"), std::string::npos);
  EXPECT_NE(text.find("* below 0.8"), std::string::npos);
}

}  // namespace
