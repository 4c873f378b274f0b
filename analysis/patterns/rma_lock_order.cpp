#include "analysis/patterns/rma_lock_order.h"

#include <mpi.h>

#include <algorithm>
#include <map>
#include <utility>

#include "analysis/patterns/rma_window_ranks.h"
#include "analysis/replay/yielding_wait.h"

namespace waitscope::patterns {

namespace {

using trace::EventKind;
using trace::kNone;

constexpr std::uint8_t kExclusive = static_cast<std::uint8_t>(trace::RmaLockType::Exclusive);
// Keys of the relations: above every (communicator, tag) key of a message and below the keys of
// the active-target epochs (bit 63); the target's world rank and the relation's number there.
constexpr std::uint64_t kLockKey = std::uint64_t{1} << 62;

// One hold of this location as its target sees it.
struct HoldInfo {
  double grant;            // the hold's start
  std::uint32_t win;
  std::uint32_t hold;      // index at the origin
  std::uint32_t exclusive;
};
// A relation as the target announces it to one end: hold `hold` of the receiver relates to
// `peer` under `key`; `precedes`: the receiver's release comes first.
struct Announcement {
  std::uint64_t key;
  std::uint32_t hold;
  std::uint32_t peer;
  std::uint32_t precedes;
};

// MPI_Win_lock may return before the lock is granted (lazy acquisition, which the standard
// allows), so its return orders the holds (as the passive-target analysis does) but does not prove
// the grant: the epoch's MPI_Win_unlock return (or a recorded acquisition) does. The lock is
// released no earlier than MPI_Win_unlock is entered (the release record may come after the next
// grant).
struct LocalHold {
  std::uint32_t win, target;  // target: world rank
  bool exclusive;
  double start = 0;                               // the lock call's return or the acquisition record
  std::uint32_t held = kNone, release = kNone;    // events: the grant certainly happened / the release can
  trace::CallPathId heldPath = kNone;             // the call of `held`
  bool acquired = false;                          // `held` is an acquisition record
};

template <typename T>
MPI_Datatype bytesOf() {
  MPI_Datatype t;
  MPI_Type_contiguous(static_cast<int>(sizeof(T)), MPI_BYTE, &t);
  MPI_Type_commit(&t);
  return t;
}

// Sends per destination, returns what arrived per source (one all-to-all of counts, one of data).
template <typename T>
std::vector<std::vector<T>> allToAll(const std::vector<std::vector<T>>& out, MPI_Comm comm, bool yieldCore) {
  const std::size_t n = out.size();
  std::vector<int> sendCount(n), recvCount(n), sendOffset(n + 1, 0), recvOffset(n + 1, 0);
  for (std::size_t p = 0; p < n; ++p) sendCount[p] = static_cast<int>(out[p].size());
  replay::callAndWait(yieldCore, MPI_Ialltoall, sendCount.data(), 1, MPI_INT, recvCount.data(), 1, MPI_INT, comm);
  for (std::size_t p = 0; p < n; ++p) {
    sendOffset[p + 1] = sendOffset[p] + sendCount[p];
    recvOffset[p + 1] = recvOffset[p] + recvCount[p];
  }
  std::vector<T> flat, in(static_cast<std::size_t>(recvOffset[n]));
  flat.reserve(static_cast<std::size_t>(sendOffset[n]));
  for (const auto& list : out) flat.insert(flat.end(), list.begin(), list.end());
  MPI_Datatype type = bytesOf<T>();
  replay::callAndWait(yieldCore, MPI_Ialltoallv, flat.data(), sendCount.data(), sendOffset.data(), type, in.data(),
                      recvCount.data(), recvOffset.data(), type, comm);
  MPI_Type_free(&type);
  std::vector<std::vector<T>> bySource(n);
  for (std::size_t p = 0; p < n; ++p)
    bySource[p].assign(in.begin() + recvOffset[p], in.begin() + recvOffset[p + 1]);
  return bySource;
}

// The holds of this location on single targets, in order.
std::vector<LocalHold> scanHolds(const replay::ReplayContext& ctx) {
  const auto& defs = ctx.defs();
  std::vector<LocalHold> holds;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> openHolds;  // (window, target rank) -> hold
  std::map<std::uint32_t, rma_active::CommRanks> ranks;
  const std::vector<std::uint32_t>& nonRegion = ctx.calls.nonRegionEvents();
  for (std::size_t k = 0; k < nonRegion.size(); ++k) {
    const std::uint32_t i = nonRegion[k];
    const trace::Event& e = ctx.calls.nonRegion()[k];
    if (e.kind != EventKind::RmaRequestLock && e.kind != EventKind::RmaAcquireLock &&
        e.kind != EventKind::RmaReleaseLock)
      continue;
    const trace::RmaRecord& r = ctx.events.rmaRecord(e);
    if (r.remote == kNone || r.win >= defs.windows.size()) continue;
    const std::pair<std::uint32_t, std::uint32_t> key{r.win, r.remote};
    const replay::Call* call = ctx.calls.callOf(i);
    const auto it = openHolds.find(key);
    if (e.kind == EventKind::RmaReleaseLock) {
      if (it == openHolds.end()) continue;
      LocalHold& h = holds[it->second];
      h.release = call != nullptr ? call->enterEvent : i;
      if (!h.acquired) {
        h.held = call != nullptr ? call->leaveEvent : i;
        h.heldPath = call != nullptr ? call->path : kNone;
      }
      openHolds.erase(it);
      continue;
    }
    if (e.kind == EventKind::RmaAcquireLock && it != openHolds.end()) {
      LocalHold& h = holds[it->second];  // the grant itself, where the trace records it
      h.start = e.time;
      h.held = i;
      h.heldPath = call != nullptr ? call->path : kNone;
      h.acquired = true;
      continue;
    }
    if (it != openHolds.end()) continue;  // a second epoch on one target: the validation refuses it
    auto rk = ranks.find(r.win);
    if (rk == ranks.end())
      rk = ranks.emplace(r.win, rma_active::commRanks(defs, defs.windows[r.win].comm, ctx.worldRank, ctx.worldSize))
               .first;
    if (!rk->second.problem.empty() || r.remote >= rk->second.members.size()) continue;
    LocalHold h;
    h.win = r.win;
    h.target = rk->second.members[r.remote];
    h.exclusive = r.lockType == kExclusive;
    h.acquired = e.kind == EventKind::RmaAcquireLock;
    h.start = h.acquired || call == nullptr ? e.time : call->leave;
    if (h.acquired) {
      h.held = i;
      h.heldPath = call != nullptr ? call->path : kNone;
    }
    openHolds.emplace(key, holds.size());
    holds.push_back(h);
  }
  // Holds never released order nothing after them.
  return holds;
}

}  // namespace

RmaLockOrder::RmaLockOrder(replay::ReplayContext& ctx) : ctx_(ctx) {
  const std::vector<LocalHold> holds = scanHolds(ctx);
  const auto n = static_cast<std::size_t>(ctx.worldSize);
  const bool yieldCore = ctx.comms.nodeOversubscribed();
  const MPI_Comm world = ctx.comms.world();
  int any = 0, anyone = 0;
  for (const LocalHold& h : holds) any |= h.release != kNone ? 1 : 0;
  replay::callAndWait(yieldCore, MPI_Iallreduce, &any, &anyone, 1, MPI_INT, MPI_MAX, world);
  if (!anyone) return;

  std::vector<std::vector<HoldInfo>> toTarget(n);
  for (std::uint32_t k = 0; k < holds.size(); ++k) {
    const LocalHold& h = holds[k];
    if (h.release == kNone) continue;
    toTarget[h.target].push_back({h.start, h.win, k, h.exclusive ? 1u : 0u});
  }
  const std::vector<std::vector<HoldInfo>> mine = allToAll(toTarget, world, yieldCore);

  // As the target: per window, the holds by grant time; each grant follows the previous
  // conflicting holds' releases (an exclusive one: every shared hold since the last exclusive
  // one, or that one; a shared one: the last exclusive one).
  struct Held {
    double grant;
    std::uint32_t win, origin, hold;
    bool exclusive;
  };
  std::vector<Held> all;
  for (std::uint32_t src = 0; src < n; ++src)
    for (const HoldInfo& h : mine[src]) all.push_back({h.grant, h.win, src, h.hold, h.exclusive != 0});
  std::stable_sort(all.begin(), all.end(), [](const Held& a, const Held& b) {
    if (a.win != b.win) return a.win < b.win;
    return a.grant < b.grant;
  });
  std::vector<std::vector<Announcement>> announce(n);
  std::uint64_t relations = 0;
  auto relate = [&](const Held& first, const Held& then) {
    if (first.origin == then.origin) return;  // one location's own order
    const std::uint64_t key = kLockKey | std::uint64_t{static_cast<std::uint32_t>(ctx.worldRank)} << 40 | relations++;
    announce[first.origin].push_back({key, first.hold, then.origin, 1});
    announce[then.origin].push_back({key, then.hold, first.origin, 0});
  };
  for (std::size_t from = 0; from < all.size();) {
    std::size_t to = from;
    while (to < all.size() && all[to].win == all[from].win) ++to;
    const Held* lastExclusive = nullptr;
    std::vector<const Held*> shared;  // since the last exclusive one
    for (std::size_t k = from; k < to; ++k) {
      const Held& h = all[k];
      if (h.exclusive) {
        if (shared.empty() && lastExclusive) relate(*lastExclusive, h);
        for (const Held* s : shared) relate(*s, h);
        shared.clear();
        lastExclusive = &h;
      } else {
        if (lastExclusive) relate(*lastExclusive, h);
        shared.push_back(&h);
      }
    }
    from = to;
  }
  const std::vector<std::vector<Announcement>> told = allToAll(announce, world, yieldCore);
  for (const auto& list : told)
    for (const Announcement& a : list) {
      const LocalHold& h = holds[a.hold];
      if (a.precedes) precedes_.push_back({h.release, a.peer, a.key, kNone});
      else follows_.push_back({h.held, a.peer, a.key, h.heldPath});
    }
  std::sort(precedes_.begin(), precedes_.end(), [](const Edge& a, const Edge& b) { return a.key < b.key; });
  std::sort(follows_.begin(), follows_.end(), [](const Edge& a, const Edge& b) { return a.key < b.key; });
}

std::uint64_t RmaLockOrder::detect() {
  const auto n = static_cast<std::size_t>(ctx_.worldSize);
  const bool yieldCore = ctx_.comms.nodeOversubscribed();
  const MPI_Comm world = ctx_.comms.world();
  int any = precedes_.empty() && follows_.empty() ? 0 : 1, anyone = 0;
  replay::callAndWait(yieldCore, MPI_Iallreduce, &any, &anyone, 1, MPI_INT, MPI_MAX, world);
  if (!anyone) return 0;
  // Both ends list a peer's relations in key order: the releases arrive in the order of the grants.
  std::vector<std::vector<double>> released(n);
  for (const Edge& e : precedes_) released[e.peer].push_back(ctx_.events.events[e.event].time);
  const std::vector<std::vector<double>> arrived = allToAll(released, world, yieldCore);
  std::vector<std::size_t> cursor(n, 0);
  std::uint64_t violations = 0;
  for (const Edge& e : follows_) {
    const std::size_t c = cursor[e.peer]++;
    if (c >= arrived[e.peer].size() || ctx_.events.events[e.event].time >= arrived[e.peer][c]) continue;
    ++violations;
    if (e.path != kNone) ctx_.severities.add(metrics::Metric::ClockViolationsRma, e.path, 1.0);
  }
  return violations;
}

}  // namespace waitscope::patterns
