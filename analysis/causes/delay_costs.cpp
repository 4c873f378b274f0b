// Root causes of wait states (Hermanns, Miklosch, Böhme, Wolf, EuroMPI 2013, after Böhme et al.,
// ICPP 2010): delay costs (short-term and long-term, per family) and the classification of wait
// states (direct/indirect, propagating/terminal). docs/causes-delay.md has the definitions; in
// short:
//
// * Every wait state W of this location with a remote cause c (the forward
//   patterns' instances of p2p, collective and RMA active-target families; a
//   sub-pattern contained in another instance of the same call is the same
//   wait) is an edge of the synchronization graph. Its synchronization point on
//   c is the time t_S = W.end (c's arrival: the send enter of a Late Sender, the
//   last enter of a collective, the post of a Late Post, the last complete of an
//   Early Wait).
// * Synchronization interval: on each side, from the synchronization time
//   (enter, or the end of its own wait state) of the latest synchronizing call
//   involving the other location (a message with it, a
//   collective, fence, window create/free on a communicator containing both,
//   a post/start/complete/wait whose group names it, MPI_Init/Finalize, or the
//   start of the trace) up to the waiter's enter of W, or up to t_S on c.
// * Time profiles per call path over those intervals exclude the time of the
//   analyzed wait states. Delay d(p) = max(0, t_c(p) - t_w(p)); the wait states
//   of c inside its interval count with their waiting time v_k. D = sum d + sum v.
// * W explains its waiting time omega plus the cost phi propagated to it from
//   later wait states. Path p on c gets omega*d(p)/D short-term and phi*d(p)/D
//   long-term; wait state k on c gets (omega+phi)*v_k/D as its own phi, which it
//   passes on when the backward replay reaches it. So the delay costs add up
//   exactly to the waiting time of all analyzed wait states.
// * Indirect part of W: omega * sum v / D (direct: the rest). Propagating part
//   of a wait state: min(omega, sum of omega'*v/D over the later wait states it
//   explains); terminal: the rest.
//
// Exchange (docs/causes-delay.md "Exchange"): the graph edges with the waiters'
// interval profiles in batched all-to-all rounds (they do not depend on the
// backward order); each cause prepares its charges but for the propagated cost
// phi. Only phi follows the backward order: rank 0 replays all ranks' item
// sequences (gathered without profiles) in the order of the distributed
// backward replay and scatters phi back; one all-to-all then carries phi to
// the causes and the direct/indirect split back to the waiters, and each rank
// charges its items in backward order.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "analysis/causes/causes.h"
#include "analysis/replay/chunked_vector.h"
#include "analysis/replay/merge_runs.h"
#include "analysis/replay/path_sums.h"
#include "analysis/replay/region_timeline.h"
#include "analysis/replay/search_near.h"
#include "analysis/replay/yielding_wait.h"

namespace waitscope::causes {
namespace {

using patterns::Metric;
using trace::CallPathId;
using trace::EventKind;
using trace::kNone;
using trace::Rank;

enum Family : int { kNoFamily = -1, kP2p = 0, kCollective = 1, kRma = 2 };

Family familyOf(Metric m) {
  switch (patterns::waitFamily(m)) {
    case patterns::WaitFamily::PointToPoint: return kP2p;
    case patterns::WaitFamily::Collective: return kCollective;
    case patterns::WaitFamily::RmaActive: return kRma;
    default: return kNoFamily;  // passive target: contention, not delay (docs/causes-delay.md)
  }
}

// What the backward replay adds up, as indices into its PathSums.
enum Sum : std::size_t {
  kDelay = 0,      // + family: delay cost (short- and long-term)
  kDelayLong = 3,  // + family: its long-term part
  kPropagating = 6,
  kTerminal,
  kIndirect,
  kDirect,
};
replay::PathSums sumsFor(std::size_t paths) {
  return replay::PathSums(paths, {Metric::DelayP2p, Metric::DelayCollective, Metric::DelayRma,
                                  Metric::DelayP2pLongterm, Metric::DelayCollectiveLongterm,
                                  Metric::DelayRmaLongterm, Metric::MpiWaitPropagating, Metric::MpiWaitTerminal,
                                  Metric::MpiWaitIndirect, Metric::MpiWaitDirect});
}

// One analyzed wait state of this location.
struct Wait {
  double start;
  double end;
  CallPathId path;
  Rank cause;
  Family family;
  double directShare = 0.0;  // later waiting time it explains directly
};

// Wire format, waiter -> cause, packed: before its first wait state for a
// cause, the waiter's call-path keys (a count, then the key of each of its
// path ids); then per wait state a header and (path id, time) entries in the
// waiter's path ids, which the cause maps to its own through those keys.
struct WireHeader {
  std::uint32_t waitId;
  std::uint32_t family;
  std::uint32_t entries;
  double omega;
  double syncTime;
};
constexpr std::size_t kHeaderBytes = 3 * sizeof(std::uint32_t) + 2 * sizeof(double);
constexpr std::size_t kEntryBytes = sizeof(CallPathId) + sizeof(double);

template <class T>
char* put(char* at, const T& value) {
  std::memcpy(at, &value, sizeof value);
  return at + sizeof value;
}
template <class T>
T take(const char*& at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  at += sizeof value;
  return value;
}

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 29);
}

// Per call path its parent, and one more entry: paths.size() stands for no
// path (kNone, an invalid id) and is its own parent.
std::vector<CallPathId> parentSlots(const trace::CallTree& tree) {
  const auto outside = static_cast<CallPathId>(tree.size());
  std::vector<CallPathId> parents(tree.size() + 1, outside);
  for (std::size_t p = 0; p < tree.size(); ++p) parents[p] = std::min(tree[p].parent, outside);
  return parents;
}

// Sorted `out` and sorted `list`, merged into `out`.
void mergeInto(std::vector<double>& out, const std::vector<double>& list) {
  const auto middle = static_cast<std::ptrdiff_t>(out.size());
  out.insert(out.end(), list.begin(), list.end());
  if (!std::is_sorted(out.begin() + middle, out.end())) std::sort(out.begin() + middle, out.end());
  std::inplace_merge(out.begin(), out.begin() + middle, out.end());
}

class DelayAnalysis {
 public:
  DelayAnalysis(replay::ReplayContext& ctx, replay::LocalResult& result) : ctx_(ctx), result_(result) {}

  void run() {
    collectWaits();
    indexSyncs();
    exchangeProfiles();
    orderItems();
    solvePropagation();
    backwardReplay();
    sums_.addTo(ctx_.severities);
  }

 private:
  // ---- local preparation ----
  void collectWaits() {
    waits_.reserve(result_.severities.instances().size());
    for (const replay::WaitInstance& w : result_.severities.instances()) {
      const Family f = familyOf(w.metric);
      if (f == kNoFamily || w.cause == kNone || w.cause == ctx_.worldRank ||
          w.cause >= static_cast<Rank>(ctx_.worldSize) || !(w.end > w.start) || w.callPath == kNone)
        continue;
      waits_.push_back({w.start, w.end, w.callPath, w.cause, f});
    }
    // Each pattern family adds its instances in time order.
    replay::sortByMergingRuns(waits_, [](const Wait& a, const Wait& b) {
      return a.start != b.start ? a.start < b.start : a.end > b.end;
    });
    // A sub-pattern (Late Complete in Early Wait, Early Fence in Wait at Fence)
    // is the same wait. So the kept ones start and end strictly later than the
    // one before them.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < waits_.size(); ++i) {
      const Wait& w = waits_[i];
      if (kept > 0 && w.start >= waits_[kept - 1].start && w.end <= waits_[kept - 1].end) continue;
      waits_[kept++] = w;
    }
    waits_.resize(kept);
    // The wait states per cause, in wait-list order.
    const auto n = static_cast<std::size_t>(ctx_.worldSize);
    causeBegin_.assign(n + 1, 0);
    for (const Wait& w : waits_) ++causeBegin_[w.cause + 1];
    for (std::size_t p = 0; p < n; ++p) causeBegin_[p + 1] += causeBegin_[p];
    byCause_.resize(waits_.size());
    std::vector<std::uint32_t> at(causeBegin_.begin(), causeBegin_.end() - 1);
    for (std::size_t k = 0; k < waits_.size(); ++k) byCause_[at[waits_[k].cause]++] = static_cast<std::uint32_t>(k);
  }

  // The synchronization times per peer and per communicator, from the call
  // index's communication events: a synchronizing event counts at the enter of
  // the innermost region around it (the MPI call), else at its own time;
  // MPI_Init and MPI_Finalize synchronize with every location.
  void indexSyncs() {
    const auto& defs = ctx_.defs();
    const auto& ev = ctx_.events;
    // MPI_Init and MPI_Finalize, at their enters, in time order.
    for (const auto* list : {&ctx_.calls.initCalls(), &ctx_.calls.finalizeCalls()})
      for (const replay::Call& call : *list) globalSyncs_.push_back(call.enter);
    std::sort(globalSyncs_.begin(), globalSyncs_.end());
    perPeer_.assign(static_cast<std::size_t>(ctx_.worldSize), {});
    traceStart_ = ev.events.empty() ? 0.0 : ev.events.front().time;
    const std::vector<std::uint32_t>& nonRegion = ctx_.calls.nonRegionEvents();
    for (std::size_t k = 0; k < nonRegion.size(); ++k) {
      const trace::Event& e = ctx_.calls.nonRegion()[k];
      switch (e.kind) {
        case EventKind::MpiSend:
        case EventKind::MpiIsend:
        case EventKind::MpiRecv:
        case EventKind::MpiIrecv:
        case EventKind::MpiCollectiveEnd:
        case EventKind::RmaCollectiveEnd:
        case EventKind::RmaWinCreate:
        case EventKind::RmaWinDestroy:
        case EventKind::RmaGroupSync:
          break;
        default:
          continue;
      }
      const replay::Call* call = ctx_.calls.callOfEntry(k);
      const double at = call ? call->enter : e.time;
      switch (e.kind) {
        case EventKind::MpiSend:
        case EventKind::MpiIsend:
        case EventKind::MpiRecv:
        case EventKind::MpiIrecv: {
          const auto& m = ev.message(e);
          const Rank peer = ctx_.worldRankOf(m.comm, m.peer);
          if (peer < perPeer_.size()) perPeer_[peer].push_back(at);
          break;
        }
        case EventKind::MpiCollectiveEnd:
          perComm_[ev.collective(e).object].push_back(at);
          break;
        case EventKind::RmaCollectiveEnd: {
          const trace::WinId win = ev.collective(e).object;
          if (win < defs.windows.size()) perComm_[defs.windows[win].comm].push_back(at);
          break;
        }
        case EventKind::RmaWinCreate:
        case EventKind::RmaWinDestroy: {
          const trace::WinId win = ev.rmaRecord(e).win;
          if (win < defs.windows.size()) perComm_[defs.windows[win].comm].push_back(at);
          break;
        }
        case EventKind::RmaGroupSync: {
          const trace::GroupId g = ev.rmaRecord(e).group;
          if (g < defs.groups.size() && defs.groups[g].type != trace::GroupType::CommSelf)
            for (const Rank r : defs.groups[g].members)
              if (r < perPeer_.size()) perPeer_[r].push_back(at);
          break;
        }
        default:
          break;
      }
    }
    for (auto& [comm, list] : perComm_) {
      std::vector<char> members(static_cast<std::size_t>(ctx_.worldSize), 0);
      if (comm < defs.comms.size()) {
        const trace::GroupId g = defs.comms[comm].group;
        if (g < defs.groups.size() && defs.groups[g].type != trace::GroupType::CommSelf)
          for (const Rank r : defs.groups[g].members)
            if (r < members.size()) members[r] = 1;
      }
      commMembers_[comm] = std::move(members);
    }
    merged_.resize(static_cast<std::size_t>(ctx_.worldSize));
  }

  // All synchronization times with `peer` (messages, groups, communicators
  // containing it, MPI_Init/Finalize), sorted: built once per peer, so a query
  // is one binary search instead of one per communicator. Each list is in
  // event order, which is time order but for nested calls: merged, not sorted.
  // Where the last searches ended: the waiter side and the cause side each
  // query in (roughly) increasing time order.
  struct Hints {
    std::size_t event = 0;
    std::size_t waitStart = 0;
    std::size_t waitEnd = 0;
  };
  struct Merged;
  Merged& syncsWith(Rank peer) {
    Merged& slot = merged_[peer];
    if (slot.built) return slot;
    slot.built = true;
    std::vector<double>& out = slot.times;
    mergeInto(out, globalSyncs_);
    mergeInto(out, perPeer_[peer]);
    for (const auto& [comm, list] : perComm_)
      if (commMembers_.at(comm)[peer]) mergeInto(out, list);
    return slot;
  }

  // Enter of the latest synchronizing call with `peer` entered before t.
  double previousSync(Rank peer, double t, Hints& hints) {
    double best = std::min(traceStart_, t);
    Merged& syncs = syncsWith(peer);
    const std::vector<double>& list = syncs.times;
    syncs.hint = replay::partitionPointNear(list.size(), syncs.hint, [&](std::size_t k) { return list[k] >= t; });
    if (syncs.hint > 0) best = std::max(best, list[syncs.hint - 1]);
    // Synchronized where that call's own wait state ended (after a barrier wait,
    // both sides start from the last arrival; the completion parts count).
    hints.waitStart = replay::partitionPointNear(waits_.size(), hints.waitStart,
                                                 [&](std::size_t k) { return waits_[k].start >= best; });
    if (hints.waitStart < waits_.size() && waits_[hints.waitStart].start == best)
      best = std::min(waits_[hints.waitStart].end, t);
    return best;
  }

  // First wait state that ends after a.
  std::size_t firstWaitEndingAfter(double a, Hints& hints) {
    hints.waitEnd =
        replay::partitionPointNear(waits_.size(), hints.waitEnd, [&](std::size_t k) { return waits_[k].end > a; });
    return hints.waitEnd;
  }

  // Time per call path in [a, b), without the analyzed wait states: into
  // scratch_, the paths in profiled() in the order they first occur (the
  // per-path sums in time order); clearProfile() empties both. Called for
  // every wait state on both sides, so it is one tight loop over the events
  // that looks at the wait states only where one is near.
  void profile(double a, double b, Hints& hints) {
    constexpr std::size_t kNoEvent = replay::RegionTimeline::kNoEvent;
    static_assert(static_cast<int>(EventKind::Enter) == 0 && static_cast<int>(EventKind::Leave) == 1,
                  "region boundaries are the two smallest kinds");
    if (!(b > a)) return;
    // The stretch active at a, else the first one after it.
    hints.event = timeline_.firstAfter(a, hints.event);
    std::size_t cur = timeline_.boundaryBefore(hints.event);
    if (cur == kNoEvent) cur = timeline_.boundaryFrom(0);
    if (cur == kNoEvent) return;
    const trace::Event* const ev = ctx_.events.events.data();
    const std::size_t n = ctx_.events.events.size();
    // Boundaries before `stop` end a stretch before b; the last stretch ends
    // at b, or at the last event.
    const std::size_t stop =
        replay::partitionPointNear(n, hints.event, [&](std::size_t k) { return ev[k].time >= b; });
    const double end = stop < n ? b : std::min(b, ev[n - 1].time);
    double* const scratch = scratch_.data();
    CallPathId* const touched = touched_.data();
    std::size_t touchedCount = 0;
    const CallPathId* const parent = parentSlot_.data();
    const CallPathId outside = outsideSlot();
    const Wait* const waits = waits_.data();
    const std::size_t waitCount = waits_.size();
    std::size_t k = firstWaitEndingAfter(a, hints);
    double nextWait = k < waitCount ? waits[k].start : b;  // no wait state overlaps [a, nextWait)
    double from = std::max(a, ev[cur].time);
    CallPathId path = std::min(timeline_.pathAfter(cur), outside);
    for (std::size_t j = cur + 1;; ++j) {
      // The stretch [from, to) of `path` ends at the next boundary.
      while (j < stop && ev[j].kind > EventKind::Leave) ++j;
      const bool last = j >= stop;
      const double to = last ? end : ev[j].time;
      double t = to - from;
      if (to > nextWait) {
        while (k < waitCount && waits[k].end <= from) ++k;
        for (std::size_t w = k; w < waitCount && waits[w].start < to; ++w)
          t -= std::max(0.0, std::min(to, waits[w].end) - std::max(from, waits[w].start));
        // Wait states before k end by `from`; one still open keeps the next stretch on this path.
        nextWait = k < waitCount ? waits[k].start : b;
      }
      if (t > 0.0) {
        if (scratch[path] == 0.0) touched[touchedCount++] = path;
        scratch[path] += t;
      }
      if (last) break;
      from = to;  // >= a: cur's stretch contains a
      const CallPathId ref = std::min(ev[j].ref, outside);
      path = ev[j].kind == EventKind::Enter ? ref : parent[ref];
    }
    // Time outside every region belongs to no call path.
    if (scratch[outside] != 0.0) {
      touchedCount = static_cast<std::size_t>(std::remove(touched, touched + touchedCount, outside) - touched);
      scratch[outside] = 0.0;
    }
    profiled_ = {touched, touchedCount};
    hints.event = stop;  // the next interval on this side starts about there
  }
  std::span<const CallPathId> profiled() const { return profiled_; }
  void clearProfile() {
    for (const CallPathId p : profiled_) scratch_[p] = 0.0;
    profiled_ = {};
  }
  // The slot of scratch_ past the call paths: time outside every region (kNone).
  CallPathId outsideSlot() const { return static_cast<CallPathId>(ctx_.trace.callTree.size()); }

  std::uint64_t pathKey(CallPathId p) {
    if (p == kNone) return 0;
    if (p < keys_.size() && keySet_[p]) return keys_[p];
    const trace::CallPath& cp = ctx_.trace.callTree[p];
    const std::uint64_t k = mix(mix(pathKey(cp.parent), cp.region), cp.callSite);
    if (p >= keys_.size()) keys_.resize(static_cast<std::size_t>(p) + 1, 0), keySet_.resize(keys_.size(), 0);
    keys_[p] = k;
    keySet_[p] = 1;
    return k;
  }

  // ---- the synchronization graph and the interval profiles ----
  // Neither depends on the backward order: every waiter sends each cause, in
  // all-to-all rounds, its wait states (id, family, omega, t_S) with their
  // interval profiles, in the order of its wait list.
  void exchangeProfiles() {
    const auto n = static_cast<std::size_t>(ctx_.worldSize);
    // The waiters' keys name call paths of this rank's tree.
    buildKeyTable();
    theirTime_.assign(ctx_.trace.callTree.size(), 0.0);
    nextOfCause_.assign(causeBegin_.begin(), causeBegin_.end() - 1);
    waiterHints_.assign(n, {});
    causeHints_.assign(n, {});
    keysSent_.assign(n, 0);
    keysFrom_.assign(n, 0);
    localPathOf_.assign(n, {});
    sendCount_.assign(n, 0);
    recvCount_.assign(n, 0);
    sdispl_.assign(n + 1, 0);
    rdispl_.assign(n + 1, 0);
    // In rounds of at most kRoundBytes outgoing per rank: the buffers stay
    // small however many wait states there are, and the messages stay large.
    // Between two exchanges every rank prepares its next round (waiter side)
    // and takes in the last one (cause side), so the ranks that mostly wait
    // and those that mostly cause work at the same time, not in turn.
    bool more = prepareRound();
    for (;;) {
      const bool anyMore = alltoallBytes(more);
      if (anyMore) more = prepareRound();
      receiveProfiles();
      if (!anyMore) break;
    }
  }

  // The next round of this rank's wait states with their interval profiles,
  // into out_ cause by cause (each cause's share of the round in wait-list
  // order; a cause's wait states are profiled in time order, with their own
  // search hints); returns whether any are left.
  bool prepareRound() {
    const auto n = static_cast<std::size_t>(ctx_.worldSize);
    std::size_t causes = 0;
    for (std::size_t c = 0; c < n; ++c) causes += nextOfCause_[c] < causeBegin_[c + 1];
    const std::size_t share = kRoundBytes / std::max<std::size_t>(causes, 1);
    out_.clear();
    bool more = false;
    for (std::size_t c = 0; c < n; ++c) {
      const std::size_t first = out_.size();
      sdispl_[c] = static_cast<int>(first);
      std::uint32_t& next = nextOfCause_[c];
      if (next < causeBegin_[c + 1] && !keysSent_[c]) {
        keysSent_[c] = 1;
        const auto paths = static_cast<std::uint32_t>(keys_.size());
        char* at = grow(out_, sizeof paths + paths * sizeof(std::uint64_t));
        at = put(at, paths);
        std::memcpy(at, keys_.data(), paths * sizeof(std::uint64_t));
      }
      for (; next < causeBegin_[c + 1] && out_.size() - first < share; ++next) {
        const std::uint32_t id = byCause_[next];
        const Wait& w = waits_[id];
        Hints& hints = waiterHints_[c];
        profile(previousSync(w.cause, w.start, hints), w.start, hints);
        char* at = grow(out_, kHeaderBytes + profiled().size() * kEntryBytes);
        at = put(at, id);
        at = put(at, static_cast<std::uint32_t>(w.family));
        at = put(at, static_cast<std::uint32_t>(profiled().size()));
        at = put(at, w.end - w.start);
        at = put(at, w.end);
        for (const CallPathId p : profiled()) {
          at = put(at, p);
          at = put(at, scratch_[p]);
        }
        clearProfile();
      }
      sendCount_[c] = static_cast<int>(out_.size() - first);
      more = more || next < causeBegin_[c + 1];
    }
    return more;
  }
  static char* grow(std::vector<char>& buf, std::size_t bytes) {
    const std::size_t at = buf.size();
    buf.resize(at + bytes);
    return buf.data() + at;
  }

  // This rank's call paths by key: open addressing over the keys, which are
  // well-mixed hashes already (a lookup per path of each waiter).
  void buildKeyTable() {
    const std::size_t paths = ctx_.trace.callTree.size();
    std::size_t slots = 16;
    while (slots < 2 * paths) slots *= 2;
    keySlots_.assign(slots, kNone);
    for (CallPathId p = 0; p < paths; ++p) {
      std::size_t i = pathKey(p) & (slots - 1);
      while (keySlots_[i] != kNone) i = (i + 1) & (slots - 1);
      keySlots_[i] = p;
    }
  }

  // The local call path with this key; kNone for a path this rank never ran,
  // which takes no part in its delay.
  CallPathId localPathOfKey(std::uint64_t key) const {
    const std::size_t mask = keySlots_.size() - 1;
    for (std::size_t i = key & mask;; i = (i + 1) & mask) {
      const CallPathId p = keySlots_[i];
      if (p == kNone || keys_[p] == key) return p;
    }
  }

  // Charge structure of every remote wait state this rank caused (all but the
  // propagated cost phi, which follows the backward order).
  void receiveProfiles() {
    const auto n = static_cast<std::size_t>(ctx_.worldSize);
    for (std::size_t p = 0; p < n; ++p) {
      const char* at = in_.data() + rdispl_[p];
      const char* const end = in_.data() + rdispl_[p + 1];
      std::vector<CallPathId>& local = localPathOf_[p];
      if (at < end && !keysFrom_[p]) {
        keysFrom_[p] = 1;
        local.resize(take<std::uint32_t>(at));
        for (CallPathId& path : local) path = localPathOfKey(take<std::uint64_t>(at));
      }
      while (at < end) {
        WireHeader h;
        h.waitId = take<std::uint32_t>(at);
        h.family = take<std::uint32_t>(at);
        h.entries = take<std::uint32_t>(at);
        h.omega = take<double>(at);
        h.syncTime = take<double>(at);
        // The waiter's time per call path of this rank, summed in arrival order.
        for (std::uint32_t k = 0; k < h.entries; ++k) {
          const auto theirs = take<CallPathId>(at);
          const auto time = take<double>(at);
          if (theirs >= local.size()) continue;
          if (const CallPathId mine = local[theirs]; mine != kNone) {
            if (theirTime_[mine] == 0.0) theirTouched_.push_back(mine);
            theirTime_[mine] += time;
          }
        }
        prepareCharge(static_cast<Rank>(p), h);
        for (const CallPathId path : theirTouched_) theirTime_[path] = 0.0;
        theirTouched_.clear();
      }
    }
  }

  // Sends every cause its part of out_ (sendCount_, sdispl_) into in_
  // (recvCount_, rdispl_); returns whether any rank (this one: `more`) has
  // another round to send, told along with the byte counts.
  bool alltoallBytes(bool more) {
    const auto n = static_cast<std::size_t>(ctx_.worldSize);
    sendInfo_.assign(2 * n, more ? 1 : 0);
    recvInfo_.assign(2 * n, 0);
    for (std::size_t p = 0; p < n; ++p) sendInfo_[2 * p] = sendCount_[p];
    comm_.call(MPI_Ialltoall, sendInfo_.data(), 2, MPI_INT, recvInfo_.data(), 2, MPI_INT);
    bool anyMore = more;
    for (std::size_t p = 0; p < n; ++p) {
      recvCount_[p] = recvInfo_[2 * p];
      anyMore = anyMore || recvInfo_[2 * p + 1] != 0;
      rdispl_[p + 1] = rdispl_[p] + recvCount_[p];
    }
    in_.resize(static_cast<std::size_t>(rdispl_[n]));
    comm_.call(MPI_Ialltoallv, out_.data(), sendCount_.data(), sdispl_.data(), MPI_BYTE, in_.data(),
               recvCount_.data(), rdispl_.data(), MPI_BYTE);
    return anyMore;
  }

  // ---- backward replay ----
  // One remote wait state this rank caused: its charge on this location's
  // interval. Its (path, numerator) pairs in charges_ and (own wait, v) pairs
  // in props_ run from its first to the next one's first.
  struct Incoming {
    double syncTime;
    double omega;
    double denom;  // D; 0: the cost goes to the single path charges[first] undivided
    double indirect;
    double phi = 0.0;  // propagated to the waiter's wait state, from the backward order
    Rank waiter;
    std::uint32_t waitId;
    std::uint32_t firstCharge;
    std::uint32_t firstProp;
    Family family;
  };
  std::size_t chargesEnd(std::size_t i) const {
    return i + 1 < incoming_.size() ? incoming_[i + 1].firstCharge : charges_.size();
  }
  std::size_t propsEnd(std::size_t i) const {
    return i + 1 < incoming_.size() ? incoming_[i + 1].firstProp : props_.size();
  }

  void prepareCharge(Rank waiter, const WireHeader& h) {
    Incoming in{h.syncTime, h.omega, 0.0, 0.0, 0.0, waiter, h.waitId, 0, 0, static_cast<Family>(h.family)};
    Hints& hints = causeHints_[waiter];
    const double a = previousSync(waiter, h.syncTime, hints);
    const double b = h.syncTime;
    profile(a, b, hints);
    in.firstCharge = static_cast<std::uint32_t>(charges_.size());
    double sum = 0.0;
    for (const CallPathId path : profiled()) {
      const double d = scratch_[path] - theirTime_[path];
      if (d > 0.0) {
        charges_.add(path, d);
        sum += d;
      }
    }
    in.firstProp = static_cast<std::uint32_t>(props_.size());
    double waited = 0.0;
    const std::size_t first = firstWaitEndingAfter(a, hints);
    for (std::size_t k = first; k < waits_.size() && waits_[k].start < b; ++k) {
      const double v = std::min(b, waits_[k].end) - std::max(a, waits_[k].start);
      if (v > 0.0) {
        props_.emplace_back(k, v);
        waited += v;
      }
    }
    const double total = sum + waited;
    if (total > 0.0) {
      in.denom = total;
      in.indirect = waited / total;
    } else {
      // No excess time and no wait states in the interval (skewed or equal
      // intervals): the interval's own time takes the cost, else the call at t_S.
      charges_.shrinkTo(in.firstCharge);
      props_.resize(in.firstProp);
      double all = 0.0;
      for (const CallPathId path : profiled()) all += scratch_[path];
      if (all > 0.0) {
        for (const CallPathId path : profiled()) charges_.add(path, scratch_[path]);
        in.denom = all;
      } else {
        charges_.add(pathAt(b), 0.0);
        in.denom = 0.0;
      }
    }
    clearProfile();
    incoming_.push_back(in);
  }

  struct Item {
    double key;
    std::uint32_t index;  // into waits_ or incoming_
    std::uint32_t from;   // 0: an own wait state (a send); else a remote one this rank caused, of waiter from - 1
  };

  // Latest first; at equal times the own wait states first, then by waiter
  // (not by arrival, so that the order does not depend on the rounds). Own
  // wait states and each waiter's are already in time order (see
  // collectWaits): the items are those runs, reversed, merged.
  void orderItems() {
    const auto n = static_cast<std::size_t>(ctx_.worldSize);
    std::vector<std::size_t> runEnd(n, 0);  // per waiter; its run follows the own one and those of lower ranks
    for (std::size_t i = 0; i < incoming_.size(); ++i) ++runEnd[incoming_[i].waiter];
    for (std::size_t p = 0, end = waits_.size(); p < n; ++p) runEnd[p] = end += runEnd[p];
    items_.resize(waits_.size() + incoming_.size());
    for (std::size_t k = 0; k < waits_.size(); ++k)
      items_[waits_.size() - 1 - k] = {waits_[k].start, static_cast<std::uint32_t>(k), 0};
    for (std::size_t i = 0; i < incoming_.size(); ++i) {
      const Rank waiter = incoming_[i].waiter;
      items_[--runEnd[waiter]] = {incoming_[i].syncTime, static_cast<std::uint32_t>(i), waiter + 1};
    }
    replay::sortByMergingRuns(items_, [](const Item& a, const Item& b) {
      return a.key != b.key ? a.key > b.key : a.from < b.from;
    });
  }

  // The propagated costs phi. phi of a wait state W is complete once its rank
  // has replayed every item before W (later in time); the cause needs it at its
  // receive item. Only these scalars follow the backward order, and they are
  // cheap: every rank sends rank 0 its item sequence, cut to what moves phi
  // (its own wait states, and the remote ones whose interval holds own wait
  // states, without profiles); rank 0 replays all ranks' sequences in the order
  // of the distributed replay (a receive item waits until its waiter has passed
  // the wait state) and returns each rank the phi of its own wait states, which
  // each waiter then sends to the causes.
  void solvePropagation() {
    // Item stream, doubles: an own wait state is -1 - its index; a remote one
    // {waiter, id, omega, D, count} and count (own wait, v) pairs.
    std::vector<double> stream;
    stream.reserve(waits_.size() + 5 * incoming_.size() + 2 * props_.size());
    for (const Item& item : items_) {
      if (item.from == 0) {
        stream.push_back(-1.0 - static_cast<double>(item.index));
        continue;
      }
      const Incoming& in = incoming_[item.index];
      const std::size_t firstProp = in.firstProp, endProp = propsEnd(item.index);
      if (endProp == firstProp) continue;  // adds to no phi here
      stream.push_back(static_cast<double>(in.waiter));
      stream.push_back(static_cast<double>(in.waitId));
      stream.push_back(in.omega);
      stream.push_back(in.denom);
      stream.push_back(static_cast<double>(endProp - firstProp));
      for (std::size_t j = firstProp; j < endProp; ++j) {
        stream.push_back(static_cast<double>(props_[j].first));
        stream.push_back(props_[j].second);
      }
    }
    const int n = ctx_.worldSize;
    const int me = ctx_.worldRank;
    const int count = static_cast<int>(stream.size());
    std::vector<int> counts(me == 0 ? n : 0), displs(me == 0 ? n + 1 : 0);
    comm_.call(MPI_Igather, &count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0);
    std::unique_ptr<double[]> all;  // not zeroed: the gather fills it
    if (me == 0) {
      for (int r = 0; r < n; ++r) displs[r + 1] = displs[r] + counts[r];
      all = std::make_unique_for_overwrite<double[]>(static_cast<std::size_t>(displs[n]));
    }
    comm_.call(MPI_Igatherv, stream.data(), count, MPI_DOUBLE, all.get(), counts.data(), displs.data(), MPI_DOUBLE, 0);
    stream = {};
    // Rank 0: per rank, phi of each own wait state.
    std::vector<double> answers;
    std::vector<int> answerCounts(me == 0 ? n : 0), answerDispls(me == 0 ? n + 1 : 0);
    if (me == 0) simulate(all.get(), displs, answers, answerCounts, answerDispls);
    all.reset();
    std::vector<double> phiOfMine(waits_.size());
    comm_.call(MPI_Iscatterv, answers.data(), answerCounts.data(), answerDispls.data(), MPI_DOUBLE, phiOfMine.data(),
               static_cast<int>(phiOfMine.size()), MPI_DOUBLE, 0);
    exchangePhiAndIndirect(phiOfMine);
  }

  // Each waiter sends each cause the phi of the wait states it caused, and
  // each cause sends each waiter the indirect fraction of those, both in the
  // waiter's wait-list order (the order in which the cause received them): one
  // all-to-all, whose counts both sides know (the same both ways).
  void exchangePhiAndIndirect(const std::vector<double>& phiOfMine) {
    const auto n = static_cast<std::size_t>(ctx_.worldSize);
    std::vector<std::size_t> fromWaiter(n + 1, 0);  // incoming per waiter, then their positions
    for (std::size_t i = 0; i < incoming_.size(); ++i) ++fromWaiter[incoming_[i].waiter + 1];
    std::vector<int> counts(n), displs(n + 1, 0);
    for (std::size_t p = 0; p < n; ++p) {
      counts[p] = static_cast<int>(causeBegin_[p + 1] - causeBegin_[p] + fromWaiter[p + 1]);
      displs[p + 1] = displs[p] + counts[p];
    }
    // To p: phi of the own wait states p caused, then the indirect fractions of
    // the ones p waited in. From p: the phi of those, then the fractions.
    std::vector<double> out(static_cast<std::size_t>(displs[n])), in(out.size());
    for (std::size_t p = 0; p < n; ++p)
      for (std::uint32_t j = causeBegin_[p]; j < causeBegin_[p + 1]; ++j)
        out[static_cast<std::size_t>(displs[p]) + j - causeBegin_[p]] = phiOfMine[byCause_[j]];
    std::vector<std::size_t> at(n);
    for (std::size_t p = 0; p < n; ++p) at[p] = static_cast<std::size_t>(displs[p]) + causeBegin_[p + 1] - causeBegin_[p];
    for (std::size_t i = 0; i < incoming_.size(); ++i) out[at[incoming_[i].waiter]++] = incoming_[i].indirect;
    comm_.call(MPI_Ialltoallv, out.data(), counts.data(), displs.data(), MPI_DOUBLE, in.data(), counts.data(),
               displs.data(), MPI_DOUBLE);
    for (std::size_t p = 0; p < n; ++p) at[p] = static_cast<std::size_t>(displs[p]);
    for (std::size_t i = 0; i < incoming_.size(); ++i) incoming_[i].phi = in[at[incoming_[i].waiter]++];
    // Direct / indirect, per cause in the order in which the cause replayed
    // them (latest first).
    for (std::size_t p = 0; p < n; ++p) {
      const double* const fraction = in.data() + displs[p] + fromWaiter[p + 1];
      for (std::uint32_t j = causeBegin_[p + 1]; j-- > causeBegin_[p];) {
        const Wait& w = waits_[byCause_[j]];
        const double omega = w.end - w.start;
        const double indirect = std::clamp(fraction[j - causeBegin_[p]], 0.0, 1.0) * omega;
        if (indirect > 0.0) sums_.add(kIndirect, w.path, indirect);
        if (omega - indirect > 0.0) sums_.add(kDirect, w.path, omega - indirect);
      }
    }
  }

  // Rank 0: replays the ranks' item streams (all[displs[r], displs[r + 1]));
  // answers holds, at answerDispls[r], the phi of rank r's own wait states as
  // its rank passed them (what its waiter sends).
  static void simulate(const double* all, const std::vector<int>& displs, std::vector<double>& answers,
                       std::vector<int>& answerCounts, std::vector<int>& answerDispls) {
    const std::size_t n = answerCounts.size();
    // Number of own wait states per rank: the largest send index + 1. The
    // per-wait-state arrays are flat over the ranks, at answerDispls.
    answerDispls[0] = 0;
    for (std::size_t r = 0; r < n; ++r) {
      std::size_t waits = 0;
      for (std::size_t at = static_cast<std::size_t>(displs[r]); at < static_cast<std::size_t>(displs[r + 1]);) {
        if (all[at] < 0.0) {
          waits = std::max(waits, static_cast<std::size_t>(-1.0 - all[at]) + 1);
          at += 1;
        } else {
          at += 5 + 2 * static_cast<std::size_t>(all[at + 4]);
        }
      }
      answerCounts[r] = static_cast<int>(waits);
      answerDispls[r + 1] = answerDispls[r] + answerCounts[r];
    }
    const auto slots = static_cast<std::size_t>(answerDispls[n]);
    std::vector<double>& sent = answers;
    sent.assign(slots, 0.0);
    std::vector<double> phi(slots, 0.0);
    std::vector<char> done(slots, 0);
    const auto slot = [&](std::size_t r, std::size_t id) { return static_cast<std::size_t>(answerDispls[r]) + id; };
    std::vector<std::size_t> pos(displs.begin(), displs.end() - 1);
    auto finished = [&](std::size_t r) { return pos[r] >= static_cast<std::size_t>(displs[r + 1]); };
    bool warned = false;
    for (;;) {
      bool progress = false, open = false;
      for (std::size_t r = 0; r < n; ++r) {
        while (!finished(r)) {
          std::size_t& at = pos[r];
          if (all[at] < 0.0) {
            const std::size_t own = slot(r, static_cast<std::size_t>(-1.0 - all[at]));
            if (!done[own]) sent[own] = phi[own];  // what the waiter sends when it passes the wait state
            done[own] = 1;
            at += 1;
            progress = true;
            continue;
          }
          const auto waiter = static_cast<std::size_t>(all[at]);
          const auto id = static_cast<std::size_t>(all[at + 1]);
          const bool valid = waiter < n && id < static_cast<std::size_t>(answerCounts[waiter]);
          if (valid && !done[slot(waiter, id)]) break;  // the waiter has not reached it yet
          const double p = valid ? sent[slot(waiter, id)] : 0.0;
          const double omega = all[at + 2], total = all[at + 3];
          const auto props = static_cast<std::size_t>(all[at + 4]);
          for (std::size_t k = 0; k < props; ++k) {
            const auto own = static_cast<std::size_t>(all[at + 5 + 2 * k]);
            phi[slot(r, own)] += (omega + p) * all[at + 6 + 2 * k] / total;
          }
          at += 5 + 2 * props;
          progress = true;
        }
        if (!finished(r)) open = true;
      }
      if (!open) break;
      if (!progress) {
        // A cycle (impossible for a valid trace: every edge goes back in time):
        // the distributed replay would wait forever; take the blocked item with
        // the phi collected so far.
        if (!warned) {
          std::fprintf(stderr, "waitscope-analyze: warning: delay costs: cyclic wait states; long-term costs on "
                               "the cycle are incomplete\n");
          warned = true;
        }
        for (std::size_t r = 0; r < n; ++r)
          if (!finished(r)) {
            const std::size_t blocked =
                slot(static_cast<std::size_t>(all[pos[r]]), static_cast<std::size_t>(all[pos[r] + 1]));
            done[blocked] = 1;
            sent[blocked] = phi[blocked];
            break;
          }
      }
    }
  }

  // The local replay in backward order, with every phi known: the same charges
  // in the same order as the message-driven replay.
  void backwardReplay() {
    for (const Item& item : items_) {
      if (item.from == 0) {
        Wait& w = waits_[item.index];
        const double omega = w.end - w.start;
        // Propagating / terminal (the later waiting time this one explains, at most itself).
        const double propagating = std::min(omega, w.directShare);
        if (propagating > 0.0) sums_.add(kPropagating, w.path, propagating);
        if (omega - propagating > 0.0) sums_.add(kTerminal, w.path, omega - propagating);
      } else {
        charge(item.index);
      }
    }
  }

  void charge(std::size_t i) {
    const Incoming& in = incoming_[i];
    const auto family = static_cast<std::size_t>(in.family);
    const double omega = in.omega, phi = in.phi, total = in.denom;
    const std::size_t endCharge = chargesEnd(i);
    if (total > 0.0) {
      for (std::size_t j = in.firstCharge; j < endCharge; ++j) {
        const CallPathId path = charges_.paths[j];
        const double d = charges_.values[j];
        chargePath(family, path, omega * d / total, phi * d / total);
      }
      for (std::size_t j = in.firstProp, end = propsEnd(i); j < end; ++j) {
        const auto& [k, v] = props_[j];
        waits_[k].directShare += omega * v / total;
      }
    } else {
      for (std::size_t j = in.firstCharge; j < endCharge; ++j) chargePath(family, charges_.paths[j], omega, phi);
    }
  }

  void chargePath(std::size_t family, CallPathId path, double shortTerm, double longTerm) {
    if (path == kNone) return;
    sums_.add(kDelay + family, path, shortTerm + longTerm);
    if (longTerm > 0.0) sums_.add(kDelayLong + family, path, longTerm);
  }

  // The call path active at t (else the nearest one before, else after). Of
  // boundaries at equal times only the last starts a stretch.
  CallPathId pathAt(double t) const {
    constexpr std::size_t kNoEvent = replay::RegionTimeline::kNoEvent;
    const std::size_t after = timeline_.firstAfter(t);
    bool first = true;
    double laterTime = 0.0;
    for (std::size_t j = timeline_.boundaryBefore(after); j != kNoEvent; j = timeline_.boundaryBefore(j)) {
      if (!first && timeline_.time(j) == laterTime) continue;
      first = false;
      laterTime = timeline_.time(j);
      if (const CallPathId p = timeline_.pathAfter(j); p != kNone) return p;
    }
    for (std::size_t j = timeline_.boundaryFrom(after); j != kNoEvent;) {
      std::size_t next = kNoEvent;
      timeline_.stretchEnd(j, next);
      if (next == kNoEvent || timeline_.time(next) != timeline_.time(j))
        if (const CallPathId p = timeline_.pathAfter(j); p != kNone) return p;
      j = next;
    }
    return kNone;
  }

  static constexpr std::size_t kRoundBytes = std::size_t{1} << 20;  // bounds three buffers per rank

  replay::ReplayContext& ctx_;
  replay::LocalResult& result_;
  // The exchange's own communicator.
  const replay::YieldingComm comm_{ctx_.comms.world(), ctx_.comms.nodeOversubscribed()};

  std::vector<Wait> waits_;  // by start time, non-overlapping
  std::vector<std::uint32_t> causeBegin_;  // per cause, its first entry in byCause_; one more at the end
  std::vector<std::uint32_t> byCause_;     // indices into waits_, grouped by cause
  const replay::RegionTimeline timeline_{ctx_.events, ctx_.trace.callTree};
  double traceStart_ = 0.0;
  std::vector<double> globalSyncs_;
  std::vector<std::vector<double>> perPeer_;
  std::map<trace::CommId, std::vector<double>> perComm_;
  std::map<trace::CommId, std::vector<char>> commMembers_;
  struct Merged {
    bool built = false;
    std::vector<double> times;
    std::size_t hint = 0;  // the last answer of previousSync
  };
  std::vector<Merged> merged_;  // per peer
  std::vector<std::uint64_t> keys_;
  std::vector<char> keySet_;
  // Per call path and one more for time outside every region (outsideSlot()):
  // zero outside profile(), and the parent of each, also the outside slot for none.
  std::vector<double> scratch_ = std::vector<double>(ctx_.trace.callTree.size() + 1, 0.0);
  std::vector<CallPathId> touched_ = std::vector<CallPathId>(ctx_.trace.callTree.size() + 1);  // see profile()
  std::span<const CallPathId> profiled_;  // the paths with a non-zero scratch_, in touched_
  const std::vector<CallPathId> parentSlot_ = parentSlots(ctx_.trace.callTree);

  // The profile rounds: per peer, this rank as waiter and as cause.
  std::vector<std::uint32_t> nextOfCause_;  // the next entry of byCause_ to send, per cause
  std::vector<Hints> waiterHints_, causeHints_;
  std::vector<char> keysSent_, keysFrom_;
  std::vector<std::vector<CallPathId>> localPathOf_;  // per waiter, its path ids -> this rank's
  std::vector<char> out_, in_;
  std::vector<int> sendCount_, recvCount_, sdispl_, rdispl_, sendInfo_, recvInfo_;
  std::vector<CallPathId> keySlots_;  // see buildKeyTable
  std::vector<double> theirTime_;  // per local call path, for the wait state being prepared
  std::vector<CallPathId> theirTouched_;

  // Chunked: they grow to millions of entries on a rank that causes most wait
  // states, and a vector's doubling would briefly hold three times that.
  replay::ChunkedVector<Incoming> incoming_;
  // (path, numerator) pairs as two arrays: 12 bytes a charge instead of a padded 16.
  struct Charges {
    replay::ChunkedVector<CallPathId> paths;
    replay::ChunkedVector<double> values;
    std::size_t size() const { return paths.size(); }
    void add(CallPathId path, double value) {
      paths.push_back(path);
      values.push_back(value);
    }
    void shrinkTo(std::size_t n) {
      paths.shrinkTo(n);
      values.shrinkTo(n);
    }
  } charges_;
  std::vector<std::pair<std::size_t, double>> props_;
  std::vector<Item> items_;
  replay::PathSums sums_ = sumsFor(ctx_.trace.callTree.size());
};

}  // namespace

void analyzeDelays(replay::ReplayContext& ctx, replay::LocalResult& result) { DelayAnalysis(ctx, result).run(); }

}  // namespace waitscope::causes
