// Root causes of wait states (seed 001, after Böhme et al., ICPP 2010): delay
// costs (short-term and long-term, per family) and the classification of wait
// states (direct/indirect, propagating/terminal). docs/causes-delay.md has the
// definitions; in short:
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
// interval profiles in one batched all-to-all (they do not depend on the
// backward order); each cause prepares its charges but for the propagated cost
// phi. Only phi follows the backward order: rank 0 replays all ranks' item
// sequences (gathered without profiles) in the order of the distributed
// backward replay and scatters phi back; each rank then charges its items in
// backward order. The direct/indirect split goes back to the waiters in one
// final all-to-all.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <unordered_map>
#include <vector>

#include "causes.h"
#include "replay/chunked_vector.h"
#include "replay/path_sums.h"
#include "replay/region_timeline.h"
#include "replay/yielding_wait.h"
#include "replay/search_near.h"

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
  CallPathId path;
  double start;
  double end;
  Rank cause;
  Family family;
  double phi = 0.0;          // cost of later wait states it explains (long-term)
  double directShare = 0.0;  // later waiting time it explains directly
};

// Wire format of one wait state, waiter -> cause.
struct WireHeader {
  std::uint64_t waitId;
  std::uint32_t family;
  std::uint32_t entries;
  double omega;
  double phi;
  double syncTime;
};
struct WireEntry {
  std::uint64_t pathKey;
  double time;
};
struct Announce {
  double waitId;
  double syncTime;
};
struct Reply {
  double waitId;
  double indirect;  // fraction of the waiting time
};

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 29);
}

std::vector<CallPathId> reserved(std::size_t n) {
  std::vector<CallPathId> v;
  v.reserve(n);
  return v;
}

class DelayAnalysis {
 public:
  DelayAnalysis(replay::ReplayContext& ctx, replay::LocalResult& result) : ctx_(ctx), result_(result) {}

  void run() {
    collectWaits();
    collectGlobalSyncs();
    buildSyncIndex();
    exchangeProfiles();
    orderItems();
    solvePropagation();
    backwardReplay();
    replyIndirect();
    sums_.addTo(ctx_.severities);
  }

 private:
  // ---- local preparation ----
  void collectWaits() {
    std::vector<Wait> candidates;
    candidates.reserve(result_.severities.instances().size());
    for (const replay::WaitInstance& w : result_.severities.instances()) {
      const Family f = familyOf(w.metric);
      if (f == kNoFamily || w.cause == kNone || w.cause == ctx_.worldRank ||
          w.cause >= static_cast<Rank>(ctx_.worldSize) || !(w.end > w.start) || w.callPath == kNone)
        continue;
      candidates.push_back({w.callPath, w.start, w.end, w.cause, f});
    }
    // Each pattern family adds its instances in time order: merge those runs
    // (stable, like a stable sort, in n log(runs) instead of n log n).
    const auto before = [](const Wait& a, const Wait& b) {
      return a.start != b.start ? a.start < b.start : a.end > b.end;
    };
    std::vector<std::size_t> runs{0};
    for (std::size_t i = 1; i < candidates.size(); ++i)
      if (before(candidates[i], candidates[i - 1])) runs.push_back(i);
    runs.push_back(candidates.size());
    while (runs.size() > 2) {
      std::vector<std::size_t> merged{0};
      for (std::size_t r = 0; r + 2 < runs.size(); r += 2) {
        std::inplace_merge(candidates.begin() + static_cast<std::ptrdiff_t>(runs[r]),
                           candidates.begin() + static_cast<std::ptrdiff_t>(runs[r + 1]),
                           candidates.begin() + static_cast<std::ptrdiff_t>(runs[r + 2]), before);
        merged.push_back(runs[r + 2]);
      }
      if (runs.size() % 2 == 0) merged.push_back(runs.back());  // an odd run count: the last run as it is
      runs.swap(merged);
    }
    waits_.reserve(candidates.size());
    for (const Wait& w : candidates) {
      // A sub-pattern (Late Complete in Early Wait, Early Fence in Wait at Fence) is the same wait.
      if (!waits_.empty() && w.start >= waits_.back().start && w.end <= waits_.back().end) continue;
      waits_.push_back(w);
    }
  }

  // MPI_Init and MPI_Finalize synchronize with every location.
  void collectGlobalSyncs() {
    const auto& ev = ctx_.events.events;
    const auto& tree = ctx_.trace.callTree;
    std::vector<char> globalSync(ctx_.defs().regions.size(), 0);  // per region, not per event: no string compares
    for (std::size_t r = 0; r < globalSync.size(); ++r) {
      const std::string& name = ctx_.defs().regions[r].name;
      globalSync[r] = name == "MPI_Init" || name == "MPI_Init_thread" || name == "MPI_Finalize";
    }
    traceStart_ = ev.empty() ? 0.0 : ev.front().time;
    for (const trace::Event& e : ev)
      if (e.kind == EventKind::Enter && globalSync[tree[e.ref].region]) globalSyncs_.push_back(e.time);
  }

  void buildSyncIndex() {
    const auto& defs = ctx_.defs();
    const auto& ev = ctx_.events;
    for (std::size_t i = 0; i < ev.events.size(); ++i) {
      const trace::Event& e = ev.events[i];
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
      const replay::Call* call = ctx_.calls.callOf(i);
      const double at = call ? call->enter : e.time;
      switch (e.kind) {
        case EventKind::MpiSend:
        case EventKind::MpiIsend:
        case EventKind::MpiRecv:
        case EventKind::MpiIrecv: {
          const auto& m = ev.message(e);
          const Rank peer = ctx_.worldRankOf(m.comm, m.peer);
          if (peer != kNone) perPeer_[peer].push_back(at);
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
            for (const Rank r : defs.groups[g].members) perPeer_[r].push_back(at);
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
    std::sort(globalSyncs_.begin(), globalSyncs_.end());
  }

  // All synchronization times with `peer` (messages, groups, communicators
  // containing it, MPI_Init/Finalize), sorted: built once per peer, so a query
  // is one binary search instead of one per communicator.
  // Where the last searches ended: the waiter side and the cause side each
  // query in (roughly) increasing time order.
  struct Hints {
    std::size_t event = 0;
    std::size_t waitStart = 0;
    std::size_t waitEnd = 0;
  };
  struct Merged;
  Merged& syncsWith(Rank peer) {
    auto& slot = merged_[peer];
    if (slot.built) return slot;
    slot.built = true;
    std::vector<double>& out = slot.times;
    out = globalSyncs_;
    if (const auto it = perPeer_.find(peer); it != perPeer_.end())
      out.insert(out.end(), it->second.begin(), it->second.end());
    for (const auto& [comm, list] : perComm_)
      if (commMembers_.at(comm)[peer]) out.insert(out.end(), list.begin(), list.end());
    std::sort(out.begin(), out.end());
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

  // Time per call path in [a, b), without the analyzed wait states; into `out`,
  // in the order the paths first occur (the per-path sums in time order). Called for every
  // wait state on both sides, so it is one loop over the events with a fast
  // path while no wait state is near.
  void profile(double a, double b, std::vector<std::pair<CallPathId, double>>& out, Hints& hints) {
    constexpr std::size_t kNoEvent = replay::RegionTimeline::kNoEvent;
    out.clear();
    if (!(b > a)) return;
    // The stretch active at a, else the first one after it.
    hints.event = timeline_.firstAfter(a, hints.event);
    std::size_t cur = timeline_.boundaryBefore(hints.event);
    if (cur == kNoEvent) cur = timeline_.boundaryFrom(0);
    if (cur == kNoEvent) return;
    std::size_t k = firstWaitEndingAfter(a, hints);
    double nextWait = k < waits_.size() ? waits_[k].start : b;  // no wait state overlaps [a, nextWait)
    const std::vector<trace::Event>& ev = ctx_.events.events;
    const std::size_t n = ev.size();
    double from = std::max(a, ev[cur].time);
    CallPathId path = timeline_.pathAfter(cur);
    for (std::size_t j = cur + 1;; ++j) {
      // The stretch [from, to) of `path` ends at the next boundary (or the last event).
      while (j < n && ev[j].kind != EventKind::Enter && ev[j].kind != EventKind::Leave) ++j;
      const double to = std::min(b, j < n ? ev[j].time : ev[n - 1].time);
      if (to > from && path < scratch_.size()) {  // kNone is not
        double t = to - from;
        if (to > nextWait) {
          while (k < waits_.size() && waits_[k].end <= from) ++k;
          for (std::size_t w = k; w < waits_.size() && waits_[w].start < to; ++w)
            t -= std::max(0.0, std::min(to, waits_[w].end) - std::max(from, waits_[w].start));
          // Wait states before k end by `from`; one still open keeps the next stretch on this path.
          nextWait = k < waits_.size() ? waits_[k].start : b;
        }
        if (t > 0.0) {
          if (scratch_[path] == 0.0) touched_.push_back(path);
          scratch_[path] += t;
        }
      }
      if (j >= n || ev[j].time >= b) break;
      from = ev[j].time;  // >= a: cur's stretch contains a
      path = timeline_.pathAfter(j);
    }
    for (const CallPathId p : touched_) {
      out.emplace_back(p, scratch_[p]);
      scratch_[p] = 0.0;
    }
    touched_.clear();
  }

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
  // Neither depends on the backward order: every waiter sends each cause, in one
  // all-to-all, its wait states (id, family, omega, t_S) with their interval
  // profiles, in the order of its wait list.
  void exchangeProfiles() {
    const auto n = static_cast<std::size_t>(ctx_.worldSize);
    // The waiters' keys name call paths of this rank's tree.
    buildKeyTable();
    theirTime_.assign(ctx_.trace.callTree.size(), 0.0);
    perCause_.assign(n, {});
    // In rounds of at most kRoundBytes outgoing per rank: the buffers stay
    // small however many wait states there are, and the messages stay large.
    // Between two exchanges every rank prepares its next round (waiter side)
    // and takes in the last one (cause side), so the ranks that mostly wait
    // and those that mostly cause work at the same time, not in turn.
    std::vector<char> in;
    std::vector<int> rdispl;
    std::size_t next = 0;
    prepareRound(next);
    for (;;) {
      const bool anyMore = alltoallBytes(perCause_, next < waits_.size(), in, rdispl);
      if (anyMore) prepareRound(next);
      receiveProfiles(in, rdispl);
      if (!anyMore) break;
    }
  }

  // The next round of this rank's wait states with their interval profiles,
  // into perCause_; advances `next`.
  void prepareRound(std::size_t& next) {
    for (std::vector<char>& buf : perCause_) buf.clear();
    for (std::size_t bytes = 0; next < waits_.size() && bytes < kRoundBytes; ++next) {
      const Wait& w = waits_[next];
      profile(previousSync(w.cause, w.start, waiterHints_), w.start, prof_, waiterHints_);
      std::vector<char>& buf = perCause_[w.cause];
      const std::size_t at0 = buf.size();
      const std::size_t size = sizeof(WireHeader) + prof_.size() * sizeof(WireEntry);
      buf.resize(at0 + size);
      bytes += size;
      const WireHeader h{next, static_cast<std::uint32_t>(w.family), static_cast<std::uint32_t>(prof_.size()),
                         w.end - w.start, 0.0, w.end};
      std::memcpy(buf.data() + at0, &h, sizeof h);
      std::size_t at = at0 + sizeof h;
      for (const auto& [path, t] : prof_) {
        const WireEntry e{pathKey(path), t};
        std::memcpy(buf.data() + at, &e, sizeof e);
        at += sizeof e;
      }
    }
  }

  // This rank's call paths by key: open addressing over the keys, which are
  // well-mixed hashes already (a lookup per profile entry received).
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
  void receiveProfiles(const std::vector<char>& in, const std::vector<int>& rdispl) {
    const auto n = static_cast<std::size_t>(ctx_.worldSize);
    for (std::size_t p = 0; p < n; ++p) {
      std::size_t at = static_cast<std::size_t>(rdispl[p]);
      const std::size_t end = static_cast<std::size_t>(rdispl[p + 1]);
      while (at < end) {
        WireHeader h;
        std::memcpy(&h, in.data() + at, sizeof h);
        at += sizeof h;
        // The waiter's time per call path of this rank, summed in arrival order.
        for (std::uint32_t k = 0; k < h.entries; ++k) {
          WireEntry e;
          std::memcpy(&e, in.data() + at, sizeof e);
          at += sizeof e;
          if (const CallPathId local = localPathOfKey(e.pathKey); local != kNone) {
            if (theirTime_[local] == 0.0) theirTouched_.push_back(local);
            theirTime_[local] += e.time;
          }
        }
        prepareCharge(static_cast<Rank>(p), h);
        for (const CallPathId path : theirTouched_) theirTime_[path] = 0.0;
        theirTouched_.clear();
      }
    }
  }

  // Sends out[p] to every rank p; returns whether any rank (this one: `more`)
  // has another round to send, told along with the byte counts.
  bool alltoallBytes(const std::vector<std::vector<char>>& out, bool more, std::vector<char>& in,
                     std::vector<int>& rdispl) {
    const auto n = static_cast<std::size_t>(ctx_.worldSize);
    std::vector<int> sendInfo(2 * n, more ? 1 : 0), recvInfo(2 * n, 0);
    std::vector<int> sendCount(n, 0), recvCount(n, 0), sdispl(n + 1, 0);
    rdispl.assign(n + 1, 0);
    for (std::size_t p = 0; p < n; ++p) sendInfo[2 * p] = static_cast<int>(out[p].size());
    comm_.call(MPI_Ialltoall, sendInfo.data(), 2, MPI_INT, recvInfo.data(), 2, MPI_INT);
    bool anyMore = more;
    for (std::size_t p = 0; p < n; ++p) {
      sendCount[p] = sendInfo[2 * p];
      recvCount[p] = recvInfo[2 * p];
      anyMore = anyMore || recvInfo[2 * p + 1] != 0;
      sdispl[p + 1] = sdispl[p] + sendCount[p];
      rdispl[p + 1] = rdispl[p] + recvCount[p];
    }
    std::vector<char> flat(static_cast<std::size_t>(sdispl[n]));
    for (std::size_t p = 0; p < n; ++p)
      if (!out[p].empty()) std::memcpy(flat.data() + sdispl[p], out[p].data(), out[p].size());
    in.resize(static_cast<std::size_t>(rdispl[n]));
    comm_.call(MPI_Ialltoallv, flat.data(), sendCount.data(), sdispl.data(), MPI_BYTE, in.data(), recvCount.data(),
               rdispl.data(), MPI_BYTE);
    return anyMore;
  }

  // ---- backward replay ----
  // One remote wait state this rank caused: its charge on this location's interval.
  struct Incoming {
    Rank waiter;
    std::uint64_t waitId;
    double syncTime;
    std::uint32_t family;
    double omega;
    double denom;  // D; 0: the cost goes to the single path charges[first] undivided
    std::uint32_t firstCharge, endCharge;  // (path, numerator) in charges_
    std::uint32_t firstProp, endProp;      // (own wait, v) in props_, over denominator D
    double indirect;
    double phi = 0.0;  // propagated to the waiter's wait state, from the backward order
  };

  void prepareCharge(Rank waiter, const WireHeader& h) {
    Incoming in{waiter, h.waitId, h.syncTime, h.family, h.omega, 0.0, 0, 0, 0, 0, 0.0};
    const double a = previousSync(waiter, h.syncTime, causeHints_);
    const double b = h.syncTime;
    profile(a, b, mine_, causeHints_);
    in.firstCharge = static_cast<std::uint32_t>(charges_.size());
    double sum = 0.0;
    for (const auto& [path, t] : mine_) {
      const double d = t - theirTime_[path];
      if (d > 0.0) {
        charges_.add(path, d);
        sum += d;
      }
    }
    in.firstProp = static_cast<std::uint32_t>(props_.size());
    double waited = 0.0;
    const std::size_t first = firstWaitEndingAfter(a, causeHints_);
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
      for (const auto& [path, t] : mine_) all += t;
      if (all > 0.0) {
        for (const auto& [path, t] : mine_) charges_.add(path, t);
        in.denom = all;
      } else {
        charges_.add(pathAt(b), 0.0);
        in.denom = 0.0;
      }
    }
    in.endCharge = static_cast<std::uint32_t>(charges_.size());
    in.endProp = static_cast<std::uint32_t>(props_.size());
    incoming_.push_back(in);
  }

  struct Item {
    double key;
    bool send;  // own wait state (send) or a remote wait state this rank caused (receive)
    std::size_t index;
  };

  // Latest first; at equal times the own wait states first.
  void orderItems() {
    items_.reserve(waits_.size() + incoming_.size());
    for (std::size_t i = 0; i < waits_.size(); ++i) items_.push_back({waits_[i].start, true, i});
    for (std::size_t i = 0; i < incoming_.size(); ++i) items_.push_back({incoming_[i].syncTime, false, i});
    std::stable_sort(items_.begin(), items_.end(), [](const Item& a, const Item& b) {
      return a.key != b.key ? a.key > b.key : (a.send && !b.send);
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
      if (item.send) {
        stream.push_back(-1.0 - static_cast<double>(item.index));
        continue;
      }
      const Incoming& in = incoming_[item.index];
      if (in.endProp == in.firstProp) continue;  // adds to no phi here
      stream.push_back(static_cast<double>(in.waiter));
      stream.push_back(static_cast<double>(in.waitId));
      stream.push_back(in.omega);
      stream.push_back(in.denom);
      stream.push_back(static_cast<double>(in.endProp - in.firstProp));
      for (std::uint32_t j = in.firstProp; j < in.endProp; ++j) {
        stream.push_back(static_cast<double>(props_[j].first));
        stream.push_back(props_[j].second);
      }
    }
    const int n = ctx_.worldSize;
    const int me = ctx_.worldRank;
    const int count = static_cast<int>(stream.size());
    std::vector<int> counts(me == 0 ? n : 0), displs(me == 0 ? n + 1 : 0);
    comm_.call(MPI_Igather, &count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0);
    std::vector<double> all;
    if (me == 0) {
      for (int r = 0; r < n; ++r) displs[r + 1] = displs[r] + counts[r];
      all.resize(static_cast<std::size_t>(displs[n]));
    }
    comm_.call(MPI_Igatherv, stream.data(), count, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0);
    stream = {};
    // Rank 0: per rank, phi of each own wait state.
    std::vector<double> answers;
    std::vector<int> answerCounts(me == 0 ? n : 0), answerDispls(me == 0 ? n + 1 : 0);
    if (me == 0) simulate(all, displs, answers, answerCounts, answerDispls);
    all = {};
    std::vector<double> phiOfMine(waits_.size());
    comm_.call(MPI_Iscatterv, answers.data(), answerCounts.data(), answerDispls.data(), MPI_DOUBLE, phiOfMine.data(),
               static_cast<int>(phiOfMine.size()), MPI_DOUBLE, 0);
    // Each waiter tells each cause the phi of the wait states it caused, in
    // the order of the wait list: the order in which the cause received them.
    const auto ranks = static_cast<std::size_t>(n);
    std::vector<int> sendCount(ranks, 0), recvCount(ranks, 0), sdispl(ranks + 1, 0), rdispl(ranks + 1, 0);
    for (const Wait& w : waits_) ++sendCount[w.cause];
    for (std::size_t i = 0; i < incoming_.size(); ++i) ++recvCount[incoming_[i].waiter];
    for (std::size_t r = 0; r < ranks; ++r) {
      sdispl[r + 1] = sdispl[r] + sendCount[r];
      rdispl[r + 1] = rdispl[r] + recvCount[r];
    }
    std::vector<double> out(static_cast<std::size_t>(sdispl[ranks])), in(static_cast<std::size_t>(rdispl[ranks]));
    std::vector<int> at(sdispl.begin(), sdispl.end() - 1);
    for (std::size_t k = 0; k < waits_.size(); ++k) out[static_cast<std::size_t>(at[waits_[k].cause]++)] = phiOfMine[k];
    comm_.call(MPI_Ialltoallv, out.data(), sendCount.data(), sdispl.data(), MPI_DOUBLE, in.data(), recvCount.data(),
               rdispl.data(), MPI_DOUBLE);
    at.assign(rdispl.begin(), rdispl.end() - 1);
    for (std::size_t i = 0; i < incoming_.size(); ++i)
      incoming_[i].phi = in[static_cast<std::size_t>(at[incoming_[i].waiter]++)];
  }

  // Rank 0: replays the ranks' item streams; answers[r] is the phi of rank r's
  // own wait states, as its rank passed them.
  static void simulate(const std::vector<double>& all, const std::vector<int>& displs, std::vector<double>& answers,
                       std::vector<int>& answerCounts, std::vector<int>& answerDispls) {
    const std::size_t n = answerCounts.size();
    std::vector<std::vector<double>> phi(n), sent(n);
    std::vector<std::vector<char>> done(n);
    std::vector<std::size_t> pos(n);
    // Number of own wait states per rank: the largest send index + 1.
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
      phi[r].assign(waits, 0.0);
      sent[r].assign(waits, 0.0);
      done[r].assign(waits, 0);
      pos[r] = static_cast<std::size_t>(displs[r]);
    }
    auto finished = [&](std::size_t r) { return pos[r] >= static_cast<std::size_t>(displs[r + 1]); };
    bool warned = false;
    for (;;) {
      bool progress = false, open = false;
      for (std::size_t r = 0; r < n; ++r) {
        while (!finished(r)) {
          std::size_t& at = pos[r];
          if (all[at] < 0.0) {
            const auto id = static_cast<std::size_t>(-1.0 - all[at]);
            if (!done[r][id]) sent[r][id] = phi[r][id];  // what the waiter sends when it passes the wait state
            done[r][id] = 1;
            at += 1;
            progress = true;
            continue;
          }
          const auto waiter = static_cast<std::size_t>(all[at]);
          const auto id = static_cast<std::size_t>(all[at + 1]);
          const bool valid = waiter < n && id < phi[waiter].size();
          if (valid && !done[waiter][id]) break;  // the waiter has not reached it yet
          const double p = valid ? sent[waiter][id] : 0.0;
          const double omega = all[at + 2], total = all[at + 3];
          const auto props = static_cast<std::size_t>(all[at + 4]);
          for (std::size_t k = 0; k < props; ++k) {
            const auto own = static_cast<std::size_t>(all[at + 5 + 2 * k]);
            phi[r][own] += (omega + p) * all[at + 6 + 2 * k] / total;
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
            const auto waiter = static_cast<std::size_t>(all[pos[r]]);
            const auto id = static_cast<std::size_t>(all[pos[r] + 1]);
            done[waiter][id] = 1;
            sent[waiter][id] = phi[waiter][id];
            break;
          }
      }
    }
    answerDispls[0] = 0;
    for (std::size_t r = 0; r < n; ++r) {
      answerCounts[r] = static_cast<int>(sent[r].size());
      answerDispls[r + 1] = answerDispls[r] + answerCounts[r];
      answers.insert(answers.end(), sent[r].begin(), sent[r].end());
    }
  }

  // The local replay in backward order, with every phi known: the same charges
  // in the same order as the message-driven replay.
  void backwardReplay() {
    for (const Item& item : items_) {
      if (item.send) {
        Wait& w = waits_[item.index];
        const double omega = w.end - w.start;
        // Propagating / terminal (the later waiting time this one explains, at most itself).
        const double propagating = std::min(omega, w.directShare);
        if (propagating > 0.0) sums_.add(kPropagating, w.path, propagating);
        if (omega - propagating > 0.0) sums_.add(kTerminal, w.path, omega - propagating);
      } else {
        charge(incoming_[item.index]);
      }
    }
  }

  void charge(const Incoming& in) {
    const auto family = static_cast<std::size_t>(in.family);
    const double omega = in.omega, phi = in.phi, total = in.denom;
    if (total > 0.0) {
      for (std::uint32_t j = in.firstCharge; j < in.endCharge; ++j) {
        const CallPathId path = charges_.paths[j];
        const double d = charges_.values[j];
        chargePath(family, path, omega * d / total, phi * d / total);
      }
      for (std::uint32_t j = in.firstProp; j < in.endProp; ++j) {
        const auto& [k, v] = props_[j];
        waits_[k].directShare += omega * v / total;
      }
    } else {
      for (std::uint32_t j = in.firstCharge; j < in.endCharge; ++j) chargePath(family, charges_.paths[j], omega, phi);
    }
    replies_[in.waiter].push_back({static_cast<double>(in.waitId), in.indirect});
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

  // ---- direct / indirect, back to the waiters ----
  void replyIndirect() {
    const auto n = static_cast<std::size_t>(ctx_.worldSize);
    std::vector<int> sendCount(n, 0), recvCount(n, 0), sdispl(n, 0), rdispl(n, 0);
    for (const auto& [p, list] : replies_) sendCount[p] = static_cast<int>(list.size() * 2);
    comm_.call(MPI_Ialltoall, sendCount.data(), 1, MPI_INT, recvCount.data(), 1, MPI_INT);
    for (std::size_t p = 1; p < n; ++p) {
      sdispl[p] = sdispl[p - 1] + sendCount[p - 1];
      rdispl[p] = rdispl[p - 1] + recvCount[p - 1];
    }
    std::vector<double> out(static_cast<std::size_t>(sdispl[n - 1] + sendCount[n - 1]));
    std::vector<double> in(static_cast<std::size_t>(rdispl[n - 1] + recvCount[n - 1]));
    for (const auto& [p, list] : replies_)
      for (std::size_t k = 0; k < list.size(); ++k) {
        out[static_cast<std::size_t>(sdispl[p]) + 2 * k] = list[k].waitId;
        out[static_cast<std::size_t>(sdispl[p]) + 2 * k + 1] = list[k].indirect;
      }
    comm_.call(MPI_Ialltoallv, out.data(), sendCount.data(), sdispl.data(), MPI_DOUBLE, in.data(), recvCount.data(),
               rdispl.data(), MPI_DOUBLE);
    for (std::size_t k = 0; k + 1 < in.size(); k += 2) {
      const Wait& w = waits_[static_cast<std::size_t>(in[k])];
      const double omega = w.end - w.start;
      const double indirect = std::clamp(in[k + 1], 0.0, 1.0) * omega;
      if (indirect > 0.0) sums_.add(kIndirect, w.path, indirect);
      if (omega - indirect > 0.0) sums_.add(kDirect, w.path, omega - indirect);
    }
  }

  static constexpr std::size_t kRoundBytes = std::size_t{1} << 20;  // bounds three buffers per rank

  replay::ReplayContext& ctx_;
  replay::LocalResult& result_;
  // The exchange's own communicator.
  const replay::YieldingComm comm_{ctx_.comms.world(), ctx_.comms.nodeOversubscribed()};

  std::vector<Wait> waits_;  // by start time, non-overlapping
  Hints waiterHints_, causeHints_;
  const replay::RegionTimeline timeline_{ctx_.events, ctx_.trace.callTree};
  double traceStart_ = 0.0;
  std::vector<double> globalSyncs_;
  std::unordered_map<Rank, std::vector<double>> perPeer_;
  std::map<trace::CommId, std::vector<double>> perComm_;
  std::map<trace::CommId, std::vector<char>> commMembers_;
  struct Merged {
    bool built = false;
    std::vector<double> times;
    std::size_t hint = 0;  // the last answer of previousSync
  };
  std::unordered_map<Rank, Merged> merged_;
  std::vector<std::uint64_t> keys_;
  std::vector<char> keySet_;
  std::vector<double> scratch_ = std::vector<double>(ctx_.trace.callTree.size(), 0.0);  // zero outside profile()
  std::vector<CallPathId> touched_ = reserved(ctx_.trace.callTree.size());  // paths with a non-zero scratch_
  std::vector<std::pair<CallPathId, double>> mine_;
  std::vector<std::vector<char>> perCause_;  // the round being prepared, per cause
  std::vector<std::pair<CallPathId, double>> prof_;
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
  std::map<Rank, std::vector<Reply>> replies_;
  replay::PathSums sums_ = sumsFor(ctx_.trace.callTree.size());
};

}  // namespace

void analyzeDelays(replay::ReplayContext& ctx, replay::LocalResult& result) { DelayAnalysis(ctx, result).run(); }

}  // namespace waitscope::causes
