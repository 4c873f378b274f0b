// The critical path (Hermanns, Miklosch, Böhme, Wolf, EuroMPI 2013, §3), found in a backward
// replay: a token with the walk's current time goes from location to location; on each it walks
// back until it reaches a wait state (then the token goes to the wait state's cause, at the time
// the cause released it) or the program's start. The hops are replayed on rank 0 from the
// locations' wait states (critical_path_hops.h), and each rank walks its legs. Definitions and
// choices: docs/causes-critical-path.md.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/causes/causes.h"
#include "analysis/causes/critical_path_hops.h"
#include "analysis/replay/merge_runs.h"
#include "analysis/replay/region_timeline.h"

namespace waitscope::causes {
namespace {

using metrics::Metric;
using trace::CallPathId;
using trace::kNone;

constexpr double kInf = std::numeric_limits<double>::infinity();

// The time patterns whose instances switch the path to their cause: one instance
// per wait state (sub-patterns that repeat their parent's interval are left out:
// Late Complete, Early Fence; the Late Sender instance carries its most specific
// pattern, so all of its variants count).
bool switchesPath(Metric m) {
  return metrics::waitFamily(m) != metrics::WaitFamily::None && m != Metric::MpiRmaLateComplete &&
         m != Metric::MpiRmaEarlyFence;
}

using replay::RegionTimeline;

// Calls f(path, from, to) for the parts of [a, b] with one active path, in
// decreasing time order (of boundaries at equal times the last one counts).
// `hint` is an event index near b; it is left at a's, where the walk's next leg
// on this location, earlier in time, ends.
template <class F>
void split(const RegionTimeline& timeline, double a, double b, std::size_t& hint, F&& f) {
  if (!(b > a)) return;
  const std::size_t last = timeline.firstAtOrAfter(b, hint);  // boundaries strictly inside (a, b) ...
  const std::size_t first = timeline.firstAfter(a, last);     // ... are the events in [first, last)
  hint = first;
  double to = b;
  for (std::size_t k = last; k-- > first;) {
    if (!timeline.isBoundary(k)) continue;
    if (timeline.time(k) < to) f(timeline.pathAfter(k), timeline.time(k), to);
    to = timeline.time(k);
  }
  // The last boundary at or before a: its path is active right after a.
  const std::size_t before = timeline.boundaryBefore(first);
  if (to > a) f(before == RegionTimeline::kNoEvent ? kNone : timeline.pathAfter(before), a, to);
}

// Time per local call path, and whether any was added (a flat array: it is
// added to once per region boundary).
struct TimePerPath {
  std::vector<double> value;
  std::vector<char> seen;

  explicit TimePerPath(std::size_t paths) : value(paths, 0.0), seen(paths, 0) {}
  void add(CallPathId path, double t) {
    value[path] += t;
    seen[path] = 1;
  }
};

// A key for a call path that is the same on every rank: the (region, call site)
// pairs from the root (call path ids are local to each rank's call tree).
std::string globalKey(const trace::CallTree& tree, CallPathId path) {
  std::vector<CallPathId> chain;
  for (CallPathId p = path; p != kNone && p < tree.size(); p = tree[p].parent) chain.push_back(p);
  std::string key;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    key += std::to_string(tree[*it].region);
    key += ':';
    key += tree[*it].callSite == kNone ? std::string("-") : std::to_string(tree[*it].callSite);
    key += '/';
  }
  return key;
}

PathEnds findEndpoints(const replay::ReplayContext& ctx, const replay::LocationComm& world) {
  const auto& ev = ctx.events.events;
  double first = ev.empty() ? kInf : ev.front().time;
  double last = ev.empty() ? -kInf : ev.back().time;
  // This location's last MPI_Finalize: its enter and leave (the last event if
  // the trace never leaves it).
  double finEnter = -kInf, finLeave = -kInf;
  if (!ctx.calls.finalizeCalls().empty()) {
    const replay::Call& fin = ctx.calls.finalizeCalls().back();
    finEnter = fin.enter;
    finLeave = replay::CallIndex::left(fin) ? fin.leave : last;
  }
  PathEnds out{kInf, -kInf, 0};
  world.allreduce(&first, &out.start, 1, MPI_DOUBLE, MPI_MIN);
  const int me = world.rank();
  struct {
    double value;
    int rank;
  } mine{finEnter, me}, latest{0.0, 0};
  world.allreduce(&mine, &latest, 1, MPI_DOUBLE_INT, MPI_MAXLOC);
  if (latest.value == -kInf) {  // no MPI_Finalize anywhere: the latest last event
    mine = {last, me};
    world.allreduce(&mine, &latest, 1, MPI_DOUBLE_INT, MPI_MAXLOC);
    out.endRank = latest.rank;
    out.end = latest.value;
  } else {
    out.endRank = latest.rank;
    double end = me == latest.rank ? finLeave : 0.0;
    world.bcast(&end, 1, MPI_DOUBLE, latest.rank);
    out.end = end;
  }
  return out;
}

}  // namespace

void analyzeCriticalPath(replay::ReplayContext& ctx, replay::LocalResult& result) {
  // The walk's messages never meet any other.
  const std::unique_ptr<replay::LocationComm> own = ctx.comms.world().dup();
  const replay::LocationComm& world = *own;
  const int me = world.rank(), size = world.size();
  const trace::CallTree& tree = ctx.trace.callTree;

  const PathEnds ends = findEndpoints(ctx, world);
  const RegionTimeline active(ctx.events, tree);

  // This location's wait states that switch the path, by end time.
  std::vector<PathSwitch> switches;
  for (const replay::WaitInstance& w : result.severities.instances()) {
    if (!switchesPath(w.metric) || !(w.end > w.start)) continue;
    if (w.cause == kNone || w.cause == ctx.worldRank || w.cause >= static_cast<trace::Rank>(size)) continue;
    switches.push_back({w.start, w.end, w.cause});
  }
  // Each pattern family added its instances in time order: merge those runs.
  replay::sortByMergingRuns(switches, [](const PathSwitch& a, const PathSwitch& b) {
    return a.end != b.end ? a.end < b.end : a.start != b.start ? a.start < b.start : a.cause < b.cause;
  });
  TimePerPath onPath(tree.size());
  // One piece per visit: the time per call path goes into onPath, and the piece
  // carries the call path active at its end, where the path goes on to the next
  // location (or ends). Legs that meet (the token came back through a
  // zero-length detour) are one visit.
  std::size_t hint = active.size();  // legs come in walk order, backwards in time
  auto walk = [&](const Leg& leg) {
    CallPathId atEnd = kNone;
    split(active, leg.to, leg.from, hint, [&](CallPathId path, double a, double b) {
      if (path == kNone) return;
      onPath.add(path, b - a);
      if (atEnd == kNone) atEnd = path;  // split goes backwards: the first part inside a region is the last
    });
    if (!(leg.from > leg.to)) return;
    std::vector<replay::PathPiece>& pieces = result.criticalPath;
    if (!pieces.empty() && pieces.back().start == leg.from) {
      pieces.back().start = leg.to;
      if (pieces.back().path == kNone) pieces.back().path = atEnd;
    } else {
      pieces.push_back({atEnd, leg.to, leg.from});
    }
  };
  if (ends.end > ends.start) walkHops(switches, ends, world, hopChunk(size), walk);

  for (CallPathId p = 0; p < tree.size(); ++p)
    if (onPath.seen[p]) ctx.severities.add(Metric::CriticalPath, p, onPath.value[p]);

  // ---- imbalance: per call path over all locations, on rank 0 ----
  // Exclusive time per call path, summed stretch by stretch by the time metrics.
  const std::vector<double>& exclusive = result.exclusiveTime;
  std::vector<CallPathId> paths;
  for (CallPathId p = 0; p < tree.size(); ++p)
    if ((p < exclusive.size() && exclusive[p] > 0.0) || onPath.seen[p]) paths.push_back(p);
  std::string keys;
  std::vector<double> values;  // (on path, exclusive) per entry
  for (CallPathId p : paths) {
    keys += globalKey(tree, p);
    keys += '\n';
    values.push_back(onPath.value[p]);
    values.push_back(p < exclusive.size() ? exclusive[p] : 0.0);
  }
  const int keyBytes = static_cast<int>(keys.size());
  const int valueCount = static_cast<int>(values.size());
  std::vector<int> keyCounts(me == 0 ? size : 0), valueCounts(me == 0 ? size : 0);
  world.gather(&keyBytes, 1, MPI_INT, keyCounts.data(), 1, MPI_INT, 0);
  world.gather(&valueCount, 1, MPI_INT, valueCounts.data(), 1, MPI_INT, 0);
  std::vector<int> keyOffsets(keyCounts.size() + 1, 0), valueOffsets(valueCounts.size() + 1, 0);
  for (std::size_t r = 0; r < keyCounts.size(); ++r) {
    keyOffsets[r + 1] = keyOffsets[r] + keyCounts[r];
    valueOffsets[r + 1] = valueOffsets[r] + valueCounts[r];
  }
  std::string allKeys(me == 0 ? static_cast<std::size_t>(keyOffsets.back()) : 0, '\0');
  std::vector<double> allValues(me == 0 ? static_cast<std::size_t>(valueOffsets.back()) : 0);
  world.gatherv(keys.data(), keyBytes, MPI_CHAR, allKeys.data(), keyCounts.data(), keyOffsets.data(), MPI_CHAR, 0);
  world.gatherv(values.data(), valueCount, MPI_DOUBLE, allValues.data(), valueCounts.data(), valueOffsets.data(),
                MPI_DOUBLE, 0);

  // Rank 0 answers every entry with the imbalance share of its location.
  std::vector<double> shares;
  std::vector<int> shareCounts, shareOffsets;
  if (me == 0) {
    std::vector<std::vector<std::string>> perRank(static_cast<std::size_t>(size));
    struct Total {
      double onPath = 0.0;
      double exclusive = 0.0;
    };
    std::unordered_map<std::string, Total> totals;
    for (int r = 0; r < size; ++r) {
      std::size_t pos = static_cast<std::size_t>(keyOffsets[r]);
      const std::size_t endPos = static_cast<std::size_t>(keyOffsets[r + 1]);
      std::size_t v = static_cast<std::size_t>(valueOffsets[r]);
      while (pos < endPos) {
        const std::size_t nl = allKeys.find('\n', pos);
        std::string key = allKeys.substr(pos, nl - pos);
        pos = nl + 1;
        Total& t = totals[key];
        t.onPath += allValues[v];
        t.exclusive += allValues[v + 1];
        v += 2;
        perRank[static_cast<std::size_t>(r)].push_back(std::move(key));
      }
    }
    shareCounts.resize(static_cast<std::size_t>(size));
    shareOffsets.resize(static_cast<std::size_t>(size) + 1, 0);
    for (int r = 0; r < size; ++r) {
      std::size_t v = static_cast<std::size_t>(valueOffsets[r]);
      for (const std::string& key : perRank[static_cast<std::size_t>(r)]) {
        const Total& t = totals[key];
        const double imbalance = std::max(0.0, t.onPath - t.exclusive / size);
        shares.push_back(t.onPath > 0.0 ? imbalance * allValues[v] / t.onPath : 0.0);
        v += 2;
      }
      shareCounts[static_cast<std::size_t>(r)] = static_cast<int>(perRank[static_cast<std::size_t>(r)].size());
      shareOffsets[static_cast<std::size_t>(r) + 1] = shareOffsets[static_cast<std::size_t>(r)] + shareCounts[r];
    }
  }
  std::vector<double> myShares(paths.size());
  world.scatterv(shares.data(), shareCounts.data(), shareOffsets.data(), MPI_DOUBLE, myShares.data(),
                 static_cast<int>(myShares.size()), MPI_DOUBLE, 0);
  for (std::size_t k = 0; k < paths.size(); ++k)
    if (myShares[k] > 0.0) ctx.severities.add(Metric::CriticalPathImbalance, paths[k], myShares[k]);
}

}  // namespace waitscope::causes
