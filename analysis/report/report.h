#pragma once
// The analysis report in memory: what `waitscope-analyze` writes and what
// `waitscope-report` and the desktop app read. Plain data, no MPI, no OTF2, no
// Qt, so every consumer can link it.
//
// Conventions (as in Cube 4): a severity is stored *exclusive* along both
// trees. The value of (metric m, call path c, location l) excludes m's
// sub-metrics and c's callees; inclusive values are sums over the subtrees.
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace waitscope::report {

inline constexpr std::uint32_t kNoId = std::numeric_limits<std::uint32_t>::max();

enum class MetricUnit : std::uint8_t { Seconds, Occurrences, Bytes };

struct Metric {
  std::string uniqueName;    // "mpi_latesender": stable, Scalasca's name where the concept is the same
  std::string displayName;   // "Late Sender"
  std::string description;   // one or two sentences
  MetricUnit unit = MetricUnit::Seconds;
  std::uint32_t parent = kNoId;  // index into Report::metrics; kNoId for a root
};

struct Region {
  std::string name;           // "MPI_Recv", "foo"
  std::string file;           // empty when unknown
  std::uint32_t beginLine = 0;
  std::uint32_t endLine = 0;
  std::string paradigm;       // "mpi", "user", "compiler", ...
};

struct CallPath {
  std::uint32_t parent = kNoId;   // kNoId for a root
  std::uint32_t region = kNoId;   // index into Report::regions
  std::string callSiteFile;       // where the parent called this region; empty when unknown
  std::uint32_t callSiteLine = 0;
};

// Machine > node > ... ; every location hangs below one node.
struct SystemNode {
  std::string name;
  std::string className;          // "machine", "node"
  std::uint32_t parent = kNoId;
};

// What a location is. A process is an MPI rank (its master thread), replayed for wait
// states; the others belong to one process (same rank) and carry the time metrics only.
enum class LocationKind : std::uint8_t { Process, Thread, Accelerator, Metric };

// One analyzed location. The processes come first, location r being world rank r; the
// threads, accelerator streams and metric locations of hybrid traces follow, by rank.
// A location is identified by (kind, rank, name): "OMP thread 1" of rank 0.
struct Location {
  std::string name;               // "MPI Rank 3", "OMP thread 1", "CUDA[0:7]"
  std::uint32_t rank = 0;         // rank in MPI_COMM_WORLD (of its process)
  std::uint32_t systemNode = kNoId;
  LocationKind kind = LocationKind::Process;
};

// Values of one (metric, call path) over all locations, indexed like Report::locations.
struct SeverityRow {
  std::uint32_t metric = kNoId;
  std::uint32_t callPath = kNoId;
  std::vector<double> values;
};

// One wait state: where, when, which pattern, and who caused it.
struct Instance {
  std::uint32_t metric = kNoId;
  std::uint32_t location = kNoId;   // index into Report::locations
  std::uint32_t callPath = kNoId;
  double start = 0.0;               // seconds, as in the trace
  double end = 0.0;
  std::uint32_t cause = kNoId;      // location that caused it; kNoId when unknown
};

// A piece of the critical path (filled by the causes analysis).
struct PathSegment {
  std::uint32_t location = kNoId;
  std::uint32_t callPath = kNoId;
  double start = 0.0;
  double end = 0.0;
};

struct Report {
  // Key/value facts: "format_version", "waitscope_version", "command_line",
  // "trace", "created", "clock_violations", ... (writers add, readers keep).
  std::vector<std::pair<std::string, std::string>> meta;
  std::vector<Metric> metrics;          // parents before children
  std::vector<Region> regions;
  std::vector<CallPath> callPaths;      // parents before children
  std::vector<SystemNode> systemNodes;  // parents before children
  std::vector<Location> locations;
  std::vector<SeverityRow> severities;  // at most one row per (metric, call path); all-zero rows omitted
  std::vector<Instance> instances;
  std::vector<PathSegment> criticalPath;

  // The meta value for `key`, or `fallback`.
  std::string metaValue(const std::string& key, const std::string& fallback = {}) const;
  // Index of the metric with this unique name, or kNoId.
  std::uint32_t findMetric(const std::string& uniqueName) const;
  // The number of process locations (the MPI ranks): locations [0, processCount()).
  std::size_t processCount() const;
  bool isProcess(std::uint32_t location) const {
    return location < locations.size() && locations[location].kind == LocationKind::Process;
  }

};

}  // namespace waitscope::report
