#pragma once
// What every process of a profiled run hands to rank 0 at MPI_Finalize (its call
// paths with visits, exclusive time and wait estimates, in seconds), how that travels
// (a flat byte string), and how rank 0 turns all of them into a report in our
// format. No MPI here: the runtime (profile_runtime.cpp) does the gathering.
//
// The profile report uses the trace analysis' metric names where it measures the same
// thing (time by category, visits) and "<pattern>_estimate" for the wait estimates,
// placed under the same parent as the pattern in the trace analysis' metric tree. The
// meta key "estimates" lists the estimated metrics; "kind" is "profile".
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/metrics/metric_table.h"
#include "analysis/profile/profile_stats.h"
#include "analysis/report/report.h"

namespace waitscope::profile {

struct NodeOut {
  std::uint32_t parent = kNone;  // index into RankOut::nodes (parents first); kNone for a root
  std::string region;            // "MPI_Recv", "main", "solver"
  std::string paradigm;          // "mpi", "user", "compiler"
  std::string file;              // the region's definition, empty when unknown
  std::uint32_t line = 0;
  std::string callSiteFile;      // where the parent called it, empty when unknown
  std::uint32_t callSiteLine = 0;
  double visits = 0.0;
  double exclusiveSeconds = 0.0;
  double estimate = 0.0;         // seconds of the pattern of estimateRule(region)
  double testedEstimate = 0.0;   // the same with the test-based exclusion (MPI_Wait/Waitall)
};

struct RankOut {
  std::string host;
  std::vector<NodeOut> nodes;
};

std::string serialize(const RankOut& rank);
// Throws std::runtime_error on a malformed string.
RankOut deserialize(const std::string& bytes);

// A wait state measured elsewhere (online mode): seconds of `metric` on a node of a rank's tree.
struct NodeWait {
  std::uint32_t rank = 0;
  std::uint32_t node = 0;
  metrics::Metric metric = metrics::Metric::MpiLateSender;
  double seconds = 0.0;
};

struct ReportSettings {
  bool testExclusion = false;  // adds mpi_latesender_tested_estimate
  bool estimates = true;       // false: no estimate metrics (online mode measures the waits instead)
  std::string kind = "profile";  // the meta value "kind"
  std::vector<NodeWait> waits;   // added under their pattern's metric, taken from the call's category
  std::vector<std::pair<std::string, std::string>> meta;  // added after the profiler's own keys
};

// The metric unique name of a pattern's estimate ("mpi_latesender_estimate") and of the
// test-based variant of Late Sender.
std::string estimateMetric(Pattern pattern);
inline constexpr const char* kTestedLateSenderMetric = "mpi_latesender_tested_estimate";

// ranks[r] is world rank r.
report::Report buildProfileReport(const std::vector<RankOut>& ranks, const ReportSettings& settings);

}  // namespace waitscope::profile
