// gatherReport: every rank's call paths, severities and instances go to rank 0,
// which merges the call trees (each rank interned its own) and writes the
// values over all locations. The instances, the bulk, can instead go straight
// into the report file piece by piece (gatherReportStreamed).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <span>
#include <string>

#include "analysis/analyzer/analyzer.h"
#include "analysis/metrics/metric_table.h"
#include "analysis/replay/merge_runs.h"
#include "analysis/replay/out_of_memory.h"
#include "analysis/replay/yielding_wait.h"
#include "analysis/trace/paradigms.h"

namespace waitscope::analyzer {

using replay::mergeRuns;
using replay::PathPiece;
using replay::LocationComm;
using replay::runPhase;
using replay::Severities;
using replay::WaitInstance;

namespace {

struct WirePath {
  std::uint32_t parent;
  std::uint32_t region;
  std::uint32_t callSite;
};
struct WireValue {
  std::uint32_t path;
  std::uint32_t metric;
  double value;
};
// A value of one of the rank's other locations (its threads and streams, in its order).
struct WireThreadValue {
  std::uint32_t thread;
  std::uint32_t path;
  std::uint32_t metric;
  std::uint32_t unused;
  double value;
};
static_assert(sizeof(WirePath) == 12 && sizeof(WireValue) == 16 && sizeof(WireThreadValue) == 24);

// Sends every rank's records (trivially copyable) to rank 0, one rank at a time,
// its own first: rank 0 gets reserve(total) once, then take(rank, records, n)
// per rank, and never holds more than one other rank's records at once.
// Point-to-point instead of MPI_Gatherv: byte counts may exceed INT_MAX in total.
constexpr int kStreamChannel = 2001;
template <typename T, typename Reserve, typename Take>
void streamToRoot(const std::vector<T>& mine, const LocationComm& world, Reserve&& reserve, Take&& take) {
  const int me = world.rank(), size = world.size();
  const long long bytes = static_cast<long long>(mine.size() * sizeof(T));
  std::vector<long long> all(me == 0 ? static_cast<std::size_t>(size) : 0);
  world.gather(&bytes, 1, MPI_LONG_LONG, all.data(), 1, MPI_LONG_LONG, 0);
  constexpr long long kChunk = 1 << 30;
  if (me != 0) {
    const char* data = reinterpret_cast<const char*>(mine.data());
    for (long long sent = 0; sent < bytes;) {
      const int chunk = static_cast<int>(std::min(bytes - sent, kChunk));
      world.send(data + sent, chunk, MPI_BYTE, 0, kStreamChannel);
      sent += chunk;
    }
    return;
  }
  std::size_t total = 0;
  for (const long long b : all) total += static_cast<std::size_t>(b) / sizeof(T);
  reserve(total);
  take(0, mine.data(), mine.size());
  std::vector<T> buffer;
  for (int r = 1; r < size; ++r) {
    const long long rankBytes = all[static_cast<std::size_t>(r)];
    buffer.resize(static_cast<std::size_t>(rankBytes) / sizeof(T));
    char* data = reinterpret_cast<char*>(buffer.data());
    for (long long got = 0; got < rankBytes;) {
      const int chunk = static_cast<int>(std::min(rankBytes - got, kChunk));
      world.recv(data + got, chunk, MPI_BYTE, r, kStreamChannel);
      got += chunk;
    }
    take(r, buffer.data(), buffer.size());
  }
}

// All ranks' records on rank 0, with the per-rank offsets (size + 1 of them).
template <typename T>
std::vector<T> gatherOnRoot(const std::vector<T>& mine, const LocationComm& world, std::vector<std::size_t>& offsets) {
  std::vector<T> out;
  streamToRoot(
      mine, world,
      [&](std::size_t total) {
        out.reserve(total);
        offsets.assign(1, 0);
      },
      [&](int, const T* records, std::size_t n) {
        out.insert(out.end(), records, records + n);
        offsets.push_back(out.size());
      });
  return out;
}

// Sorts the critical path by start time. Each rank walked its part backwards,
// so its run of pieces comes latest first: reversed, the runs are sorted, and
// merging them costs far less than sorting millions of pieces.
void sortByStart(std::vector<report::PathSegment>& pieces, std::vector<std::size_t> runs) {
  const auto byStart = [](const report::PathSegment& a, const report::PathSegment& b) { return a.start < b.start; };
  const auto at = [&](std::size_t k) { return pieces.begin() + static_cast<std::ptrdiff_t>(k); };
  bool sortedRuns = true;
  for (std::size_t r = 0; r + 1 < runs.size(); ++r) {
    std::reverse(at(runs[r]), at(runs[r + 1]));
    sortedRuns = sortedRuns && std::is_sorted(at(runs[r]), at(runs[r + 1]), byStart);
  }
  if (!sortedRuns) {
    std::sort(pieces.begin(), pieces.end(), byStart);
    return;
  }
  mergeRuns(pieces, std::move(runs), byStart);
}

std::string paradigmName(trace::Paradigm p) {
  switch (p) {
    case trace::Paradigm::User: return "user";
    case trace::Paradigm::Compiler: return "compiler";
    case trace::Paradigm::OpenMp: return "openmp";
    case trace::Paradigm::Mpi: return "mpi";
    case trace::Paradigm::Cuda: return "cuda";
    case trace::Paradigm::MeasurementSystem: return "measurement";
    case trace::Paradigm::Pthread: return "pthread";
    default: return "unknown";
  }
}

report::LocationKind locationKind(trace::LocationType type) {
  switch (type) {
    case trace::LocationType::AcceleratorStream: return report::LocationKind::Accelerator;
    case trace::LocationType::Metric: return report::LocationKind::Metric;
    default: return report::LocationKind::Thread;
  }
}

// Everything but the instances; `toGlobal` gets every rank's map from its call paths to the
// merged ones (rank 0 only).
report::Report gatherOnRoot(const trace::Trace& local, const LocalResult& result, const LocationComm& world,
                            std::vector<std::vector<std::uint32_t>>& toGlobal) {
  const int me = world.rank(), size = world.size();

  std::vector<WirePath> paths;
  paths.reserve(local.callTree.size());
  for (const trace::CallPath& p : local.callTree.paths()) paths.push_back({p.parent, p.region, p.callSite});
  std::vector<WireValue> values;
  for (const Severities::Entry& e : result.severities.entries())
    values.push_back({e.path, static_cast<std::uint32_t>(e.metric), e.value});
  std::vector<WireThreadValue> threadValues;
  for (std::uint32_t t = 0; t < result.threads.size(); ++t)
    for (const Severities::Entry& e : result.threads[t].severities.entries())
      threadValues.push_back({t, e.path, static_cast<std::uint32_t>(e.metric), 0, e.value});
  std::vector<std::size_t> pathOffsets, valueOffsets, threadValueOffsets;
  const auto allPaths = gatherOnRoot(paths, world, pathOffsets);
  const auto allValues = gatherOnRoot(values, world, valueOffsets);
  const auto allThreadValues = gatherOnRoot(threadValues, world, threadValueOffsets);
  const unsigned long long violations[3] = {result.clockViolations.p2p, result.clockViolations.collective,
                                            result.clockViolations.rma};
  unsigned long long totalViolations[3] = {0, 0, 0};
  world.allreduce(violations, totalViolations, 3, MPI_UNSIGNED_LONG_LONG, MPI_SUM);
  const replay::TimeCorrectionSummary& tc = result.timeCorrection;
  unsigned long long moved = tc.movedEvents, totalMoved = 0;
  double largestShift = 0.0;
  if (tc.applied) {  // the same on every rank
    world.allreduce(&moved, &totalMoved, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM);
    world.allreduce(&tc.largestShift, &largestShift, 1, MPI_DOUBLE, MPI_MAX);
  }
  report::Report out;
  toGlobal.assign(static_cast<std::size_t>(size), {});
  if (me == 0) {

    const trace::Definitions& defs = *local.defs;
    // Metrics: the table, in enum order (its parents come first).
    for (const auto& def : metrics::metricTable()) {
      report::Metric m;
      m.uniqueName = std::string(def.uniqueName);
      m.displayName = std::string(def.displayName);
      m.description = std::string(def.description);
      m.unit = def.unit == metrics::Unit::Seconds      ? report::MetricUnit::Seconds
               : def.unit == metrics::Unit::Bytes      ? report::MetricUnit::Bytes
                                                         : report::MetricUnit::Occurrences;
      m.parent = def.parent == metrics::kNoParent ? report::kNoId : static_cast<std::uint32_t>(def.parent);
      out.metrics.push_back(std::move(m));
    }
    for (const trace::Region& r : defs.regions)
      out.regions.push_back({r.name, r.file, r.beginLine, r.endLine, paradigmName(r.paradigm)});

    // One call tree: intern every rank's paths (parents precede children in each).
    trace::CallTree merged;
    for (int r = 0; r < size; ++r) {
      auto& map = toGlobal[static_cast<std::size_t>(r)];
      for (std::size_t k = pathOffsets[static_cast<std::size_t>(r)]; k < pathOffsets[static_cast<std::size_t>(r) + 1];
           ++k) {
        const WirePath& p = allPaths[k];
        const std::uint32_t parent = p.parent == trace::kNone || p.parent >= map.size() ? trace::kNone : map[p.parent];
        map.push_back(merged.intern(parent, p.region, p.callSite));
      }
    }
    for (const trace::CallPath& p : merged.paths()) {
      report::CallPath c;
      c.parent = p.parent == trace::kNone ? report::kNoId : p.parent;
      c.region = p.region;
      if (p.callSite != trace::kNone && p.callSite < defs.sourceLocations.size()) {
        c.callSiteFile = defs.sourceLocations[p.callSite].file;
        c.callSiteLine = defs.sourceLocations[p.callSite].line;
      }
      out.callPaths.push_back(std::move(c));
    }

    for (const trace::SystemTreeNode& n : defs.systemTree)
      out.systemNodes.push_back({n.name, n.className, n.parent == trace::kNone ? report::kNoId : n.parent});
    for (std::size_t r = 0; r < defs.worldLocations.size(); ++r) {
      const trace::Location& loc = defs.locations[defs.worldLocations[r]];
      report::Location l;
      l.rank = static_cast<std::uint32_t>(r);
      l.name = "Rank " + std::to_string(r);
      if (loc.group < defs.locationGroups.size()) {
        const auto& group = defs.locationGroups[loc.group];
        l.name = group.name;
        l.systemNode = group.systemTreeParent == trace::kNone ? report::kNoId : group.systemTreeParent;
      }
      out.locations.push_back(std::move(l));
    }
    // Then every process's threads and streams, beside their process in the system tree.
    std::vector<std::size_t> firstThread;
    const std::vector<trace::LocationId> threads = defs.otherLocationsByRank(&firstThread);
    for (std::size_t t = 0, r = 0; t < threads.size(); ++t) {
      while (r + 1 < firstThread.size() && firstThread[r + 1] <= t) ++r;
      const trace::Location& loc = defs.locations[threads[t]];
      report::Location l;
      l.name = out.locations[r].name + " / " + loc.name;  // "MPI Rank 0 / OMP thread 1": unique
      l.rank = static_cast<std::uint32_t>(r);
      l.systemNode = out.locations[r].systemNode;
      l.kind = locationKind(loc.type);
      out.locations.push_back(std::move(l));
    }

    // Severities: metric-inclusive values per (metric, path, location), then
    // made metric-exclusive by subtracting the children's.
    const std::size_t nLoc = out.locations.size();
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<double>> rows;  // (path, metric)
    for (int r = 0; r < size; ++r) {
      const auto& map = toGlobal[static_cast<std::size_t>(r)];
      for (std::size_t k = valueOffsets[static_cast<std::size_t>(r)]; k < valueOffsets[static_cast<std::size_t>(r) + 1];
           ++k) {
        const WireValue& v = allValues[k];
        if (v.path >= map.size()) continue;
        auto& row = rows[{map[v.path], v.metric}];
        row.resize(nLoc, 0.0);
        row[static_cast<std::size_t>(r)] += v.value;
      }
      for (std::size_t k = threadValueOffsets[static_cast<std::size_t>(r)];
           k < threadValueOffsets[static_cast<std::size_t>(r) + 1]; ++k) {
        const WireThreadValue& v = allThreadValues[k];
        const std::size_t column = defs.worldLocations.size() + firstThread[static_cast<std::size_t>(r)] + v.thread;
        if (v.path >= map.size() || column >= nLoc) continue;
        auto& row = rows[{map[v.path], v.metric}];
        row.resize(nLoc, 0.0);
        row[column] += v.value;
      }
    }
    // Subtract children from parents (inclusive -> exclusive), reading the
    // inclusive values and writing a copy.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<double>> exclusive = rows;
    for (const auto& [key, row] : rows) {
      const std::uint32_t parent = out.metrics[key.second].parent;
      if (parent == report::kNoId) continue;
      auto& target = exclusive[{key.first, parent}];
      target.resize(nLoc, 0.0);
      for (std::size_t l = 0; l < nLoc; ++l) target[l] -= row[l];
    }
    for (auto& [key, row] : exclusive) {
      bool any = false;
      for (double& v : row) {
        if (std::abs(v) < 1e-12) v = 0.0;  // rounding left over from the subtraction
        any = any || v != 0.0;
      }
      if (any) out.severities.push_back({key.second, key.first, std::move(row)});
    }
  }

  // Critical-path pieces (one per visit): sent as they are, one rank at a time.
  std::vector<std::size_t> runs{0};  // each rank's pieces, in out.criticalPath
  streamToRoot(
      result.criticalPath, world, [&](std::size_t total) { out.criticalPath.reserve(total); },
      [&](int r, const PathPiece* records, std::size_t n) {
        const auto& map = toGlobal[static_cast<std::size_t>(r)];
        for (const PathPiece& p : std::span(records, n))
          if (p.path < map.size())
            out.criticalPath.push_back({static_cast<std::uint32_t>(r), map[p.path], p.start, p.end});
        runs.push_back(out.criticalPath.size());
      });
  if (me != 0) return out;
  sortByStart(out.criticalPath, runs);
  out.meta.emplace_back("clock_violations",
                        std::to_string(totalViolations[0] + totalViolations[1] + totalViolations[2]));
  out.meta.emplace_back("clock_violations_p2p", std::to_string(totalViolations[0]));
  out.meta.emplace_back("clock_violations_collective", std::to_string(totalViolations[1]));
  out.meta.emplace_back("clock_violations_rma", std::to_string(totalViolations[2]));
  // Only a corrected trace says so: the report of a trace without violations stays as it was.
  if (tc.applied) {
    char shift[32];
    std::snprintf(shift, sizeof shift, "%.9g", largestShift);
    out.meta.emplace_back("time_correction", "controlled logical clock");
    out.meta.emplace_back("time_correction_violations", std::to_string(tc.violations));
    out.meta.emplace_back("time_correction_moved_events", std::to_string(totalMoved));
    out.meta.emplace_back("time_correction_largest_shift", shift);
    out.meta.emplace_back("time_correction_rounds", std::to_string(tc.rounds));
  }
  out.meta.emplace_back("locations", std::to_string(out.locations.size()));
  if (const std::string line = trace::unanalyzedParadigmsLine(local.defs); !line.empty())
    out.meta.emplace_back("unanalyzed_paradigms", line);
  return out;
}

// Every rank's wait-state instances to rank 0, in pieces: rank 0 asks for them piece by
// piece (next()), its own first, then rank 1's, ..., and converts them to the report's
// call paths and locations; the other ranks send theirs (send()).
class InstanceStream {
 public:
  // Instances per message (512 KiB): one chunk of the store, so a piece is sent without a copy.
  static constexpr std::size_t kPiece = replay::Severities::Instances::kChunk;

  InstanceStream(const replay::Severities::Instances& mine, const LocationComm& world,
                 const std::vector<std::vector<std::uint32_t>>& toGlobal)
      : mine_(mine), world_(world), toGlobal_(toGlobal) {
    const unsigned long long count = mine.size();
    counts_.resize(world.rank() == 0 ? static_cast<std::size_t>(world.size()) : 0);
    world.gather(&count, 1, MPI_UNSIGNED_LONG_LONG, counts_.data(), 1, MPI_UNSIGNED_LONG_LONG, 0);
  }

  // Not rank 0: sends this rank's instances, piece by piece, as rank 0 takes them.
  void send() const {
    for (std::size_t first = 0; first < mine_.size(); first += kPiece) {
      const std::size_t n = std::min(kPiece, mine_.size() - first);
      world_.send(&mine_[first], static_cast<int>(n * sizeof(WaitInstance)), MPI_BYTE, 0, kTag);
    }
  }

  // Rank 0: the next piece, converted (instances on unknown call paths dropped); false after the last.
  bool next(std::vector<report::Instance>& into) {
    into.clear();
    while (into.empty()) {
      while (rank_ < counts_.size() && taken_ == counts_[rank_]) {
        ++rank_;
        taken_ = 0;
      }
      if (rank_ == counts_.size()) return false;
      const std::size_t n = std::min<std::size_t>(kPiece, counts_[rank_] - taken_);
      const WaitInstance* records = rank_ == 0 ? &mine_[taken_] : nullptr;
      if (rank_ != 0) {
        piece_.resize(n);
        world_.recv(piece_.data(), static_cast<int>(n * sizeof(WaitInstance)), MPI_BYTE, static_cast<int>(rank_),
                    kTag);
        records = piece_.data();
      }
      taken_ += n;
      const auto& map = toGlobal_[rank_];
      for (const WaitInstance& w : std::span(records, n)) {
        if (w.callPath >= map.size()) continue;
        into.push_back({static_cast<std::uint32_t>(w.metric), static_cast<std::uint32_t>(rank_), map[w.callPath],
                        w.start, w.end, w.cause == trace::kNone ? report::kNoId : w.cause});
      }
    }
    return true;
  }

  // Rank 0: receives and drops whatever the writer did not take.
  void drain() {
    std::vector<report::Instance> rest;
    while (next(rest)) {
    }
  }

 private:
  static constexpr int kTag = 2002;
  const replay::Severities::Instances& mine_;
  const LocationComm& world_;
  const std::vector<std::vector<std::uint32_t>>& toGlobal_;
  std::vector<unsigned long long> counts_;  // rank 0: instances per rank
  std::size_t rank_ = 0;                    // rank 0: whose instances come next
  unsigned long long taken_ = 0;            // of them
  std::vector<WaitInstance> piece_;
};

}  // namespace

report::Report gatherReportStreamed(const trace::Trace& local, const LocalResult& result, const LocationComm& world,
                                    const std::function<void(report::Report&, const report::InstanceSource&)>& write) {
  return runPhase(world, "write", local.eventCount(), [&] {
    std::vector<std::vector<std::uint32_t>> toGlobal;
    report::Report out = gatherOnRoot(local, result, world, toGlobal);
    InstanceStream stream(result.severities.instances(), world, toGlobal);
    if (world.rank() != 0) {
      stream.send();
      return out;
    }
    const report::InstanceSource source = [&](std::vector<report::Instance>& into) { return stream.next(into); };
    try {
      write(out, source);
    } catch (...) {
      stream.drain();
      throw;
    }
    stream.drain();
    return out;
  });
}

report::Report gatherReportStreamed(const trace::Trace& local, const LocalResult& result, MPI_Comm world,
                                    const std::function<void(report::Report&, const report::InstanceSource&)>& write) {
  const LocationComm locations(world, replay::nodeOversubscribed(world));
  return gatherReportStreamed(local, result, locations, write);
}

report::Report gatherReport(const trace::Trace& local, const LocalResult& result, const LocationComm& world) {
  return gatherReportStreamed(local, result, world, [](report::Report& out, const report::InstanceSource& instances) {
    std::vector<report::Instance> piece;
    while (instances(piece)) out.instances.insert(out.instances.end(), piece.begin(), piece.end());
  });
}

report::Report gatherReport(const trace::Trace& local, const LocalResult& result, MPI_Comm world) {
  const LocationComm locations(world, replay::nodeOversubscribed(world));
  return gatherReport(local, result, locations);
}

}  // namespace waitscope::analyzer
