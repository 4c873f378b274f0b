#pragma once
// The POP Centre of Excellence's efficiency metrics for MPI programs, computed
// from a report's wait states as Cube's Advisor computes them from Scalasca's:
// U_p is the useful computation time of process p ("comp"), T the runtime.
//   Load Balance              LB   = mean_p U_p / max_p U_p
//   Communication Efficiency  CommE = max_p U_p / T
//   Serialisation Efficiency  SerE = max_p U_p / T_ideal
//   Transfer Efficiency       TrE  = T_ideal / T
//   Parallel Efficiency       PE   = LB x CommE
// where T_ideal = max_p (T_p - W_p) is the runtime without the detected waiting
// time W_p (every wait-state pattern, RMA ones included). Against a reference run:
//   Computation Scaling  CompS = sum_p U_p(ref) / sum_p U_p
//   Global Efficiency    GE   = PE x CompS
// docs/pop.md gives the exact definitions and how to read them.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/report/report.h"

namespace waitscope::report {

inline constexpr double kPopThreshold = 0.8;  // POP's "needs attention" line

struct PopMetrics {
  std::string label;                // the run's name (its report file, or what the caller says)
  std::uint32_t processes = 0;
  double runtime = 0.0;             // T = max_p T_p (seconds)
  double usefulMean = 0.0;          // mean_p U_p
  double usefulMax = 0.0;           // max_p U_p
  double usefulSum = 0.0;           // sum_p U_p
  double waitingTime = 0.0;         // sum_p W_p
  double idealRuntime = 0.0;        // T_ideal
  double loadBalance = 0.0;
  double communicationEfficiency = 0.0;
  double serialisationEfficiency = 0.0;
  double transferEfficiency = 0.0;
  double parallelEfficiency = 0.0;
  // Against the reference run (the first of a series); empty for the reference itself.
  std::optional<double> speedup;               // T(ref) / T
  std::optional<double> scalingEfficiency;     // speedup x processes(ref) / processes
  std::optional<double> computationScaling;
  std::optional<double> globalEfficiency;
};

// Throws std::runtime_error when the report has no "time" or "comp" metric, or is a difference or
// ratio of runs (meta "kind").
PopMetrics popMetrics(const Report& run, const std::string& label);

// Every run's metrics; the first run is the reference of the others.
std::vector<PopMetrics> popSeries(const std::vector<const Report*>& runs, const std::vector<std::string>& labels);

void printPopTable(const std::vector<PopMetrics>& series, std::ostream& out);
void printPopCsv(const std::vector<PopMetrics>& series, std::ostream& out);
void printPopJson(const std::vector<PopMetrics>& series, std::ostream& out);

}  // namespace waitscope::report
