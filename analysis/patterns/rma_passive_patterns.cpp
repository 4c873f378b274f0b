// RMA passive-target patterns: Lock Competition (in MPI_Win_lock / _lock_all
// and in the transfers of a passive epoch) and Wait for Progress (in the calls
// that complete a passive epoch). Definitions and reasoning:
// docs/patterns/rma_passive.md.
//
// Passive target has no epoch at the target to replay with RMA, so the exchange
// rides on batched point-to-point over a duplicate of the world communicator:
//   1. one MPI_Allreduce: which windows see MPI_Win_lock_all and, for those, which
//      targets are ever locked exclusively (a lock_all's shared hold can only
//      conflict there, so it is sent nowhere else);
//   2. MPI_Alltoall of request sizes, then one message per (origin, target) with
//      the origin's holds (lock call and hold interval), transfer calls and
//      epoch-completing calls towards that target;
//   3. the target computes, per window, which conflicting holds of other origins
//      cover each lock call and transfer (one sweep over intervals sorted by
//      start), and where it was when each completion call began;
//   4. MPI_Alltoall of reply sizes, then one reply per origin with covering
//      segments (per causing origin) and progress waits;
//   5. the origin unions the segments (a lock_all hears from many targets),
//      removes time already counted, and adds the wait states.
#include "analysis/patterns/rma_passive_patterns.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/replay/yielding_wait.h"

namespace waitscope::patterns {

using metrics::Metric;
namespace {

using replay::Call;
using replay::ReplayContext;
using trace::CallPathId;
using trace::EventKind;
using trace::kNone;
using trace::Rank;
using trace::RmaLockType;
using trace::WinId;

constexpr std::uint8_t kExclusive = static_cast<std::uint8_t>(RmaLockType::Exclusive);

bool conflicts(std::uint8_t a, std::uint8_t b) { return a == kExclusive || b == kExclusive; }

std::string formatSeconds(double seconds) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.9f", seconds);
  return buffer;
}

// ============================================================ local scan

// One passive-target epoch of this origin on (window, target); target kNone =
// MPI_Win_lock_all. The hold runs from holdStart (the LEAVE of the lock call,
// or RMA_ACQUIRE_LOCK's time) to holdEnd (the LEAVE of the unlock call).
struct Hold {
  WinId win = kNone;
  Rank target = kNone;  // rank in the window's communicator, kNone for all
  std::uint8_t type = kExclusive;
  double lockEnter = 0, lockLeave = 0;
  CallPathId lockPath = kNone;
  double holdStart = 0, holdEnd = 0;
  double unlockEnter = 0;
  bool acquired = false;  // holdStart came from RMA_ACQUIRE_LOCK
  bool closed = false;
};

// An RMA transfer call inside a passive epoch.
struct Transfer {
  std::uint32_t hold = 0;
  Rank target = kNone;  // window rank
  double enter = 0, leave = 0;
  CallPathId path = kNone;
};

// A call completing (part of) a passive epoch: unlock, unlock_all, flush*, with
// the targets it completes towards (window ranks), as far as they are known.
struct Completion {
  WinId win = kNone;
  std::uint32_t call = kNone;  // CallIndex::callById
  double enter = 0, leave = 0;
  CallPathId path = kNone;
  std::vector<Rank> targets;
  std::vector<std::uint32_t> holds;  // the epochs (Hold indices) it completes towards one target
};

struct PassiveScan {
  std::vector<Hold> holds;
  std::vector<Transfer> transfers;
  std::vector<Completion> completions;
  std::string error;  // the first inconsistency, empty if none
};

bool isCompletionCall(std::string_view name) {
  return name == "MPI_Win_unlock" || name == "MPI_Win_unlock_all" || name == "MPI_Win_flush" ||
         name == "MPI_Win_flush_all" || name == "MPI_Win_flush_local" || name == "MPI_Win_flush_local_all";
}
bool isAllCall(std::string_view name) { return name.ends_with("_all"); }

class Scanner {
 public:
  explicit Scanner(const ReplayContext& ctx) : ctx_(ctx), matching_(ctx.defs().windows.size()) {}

  PassiveScan run() {
    const std::vector<std::uint32_t>& nonRegion = ctx_.calls.nonRegionEvents();
    for (std::size_t k = 0; k < nonRegion.size(); ++k) {
      const std::uint32_t i = nonRegion[k];
      const trace::Event& e = ctx_.calls.nonRegionEvent(k);
      switch (e.kind) {
        case EventKind::RmaRequestLock: request(i, e, false); break;
        case EventKind::RmaAcquireLock: acquire(i, e); break;
        case EventKind::RmaReleaseLock: release(i, e); break;
        case EventKind::RmaPut:
        case EventKind::RmaGet:
        case EventKind::RmaAtomic: transfer(i, e); break;
        case EventKind::RmaOpCompleteBlocking:
        case EventKind::RmaOpCompleteNonBlocking:
        case EventKind::RmaOpCompleteRemote: completed(i, e); break;
        default: break;
      }
      if (!out_.error.empty()) return std::move(out_);
    }
    // Epochs still open at the end of the location.
    for (const auto& [key, epoch] : open_) {
      Hold& h = out_.holds[epoch.hold];
      if (out_.error.empty())
        out_.error = where() + lockName(h.target) + " on " + object(h.win, h.target) + " at " +
                     formatSeconds(h.lockEnter) + " s is never unlocked";
      // For the analysis (which does not stop): the hold lasts to the end of the location.
      h.holdEnd = std::max(h.holdStart, ctx_.events.events.empty() ? h.holdStart : ctx_.events.events.back().time);
      h.unlockEnter = h.holdEnd;
      h.closed = true;
    }
    for (Completion& c : out_.completions) {
      std::sort(c.targets.begin(), c.targets.end());
      c.targets.erase(std::unique(c.targets.begin(), c.targets.end()), c.targets.end());
      std::sort(c.holds.begin(), c.holds.end());
      c.holds.erase(std::unique(c.holds.begin(), c.holds.end()), c.holds.end());
    }
    return std::move(out_);
  }

 private:
  struct Open {
    std::uint32_t hold;
    std::vector<Rank> accessed;  // targets of transfers in the epoch
  };
  using Key = std::pair<WinId, Rank>;

  std::string where() const { return "rank " + std::to_string(ctx_.worldRank) + ": "; }
  static std::string lockName(Rank target) { return target == kNone ? "MPI_Win_lock_all" : "MPI_Win_lock"; }
  static std::string unlockName(Rank target) { return target == kNone ? "MPI_Win_unlock_all" : "MPI_Win_unlock"; }
  static std::string object(WinId win, Rank target) {
    return "window " + std::to_string(win) + (target == kNone ? "" : " target " + std::to_string(target));
  }
  // The MPI function an RMA record sits in, or `fallback` outside any MPI call.
  std::string callName(std::size_t i, const std::string& fallback) const {
    const std::optional<Call> call = ctx_.calls.callOf(i);
    if (!call || call->path == kNone) return fallback;
    const std::string& name = ctx_.regionName(call->path);
    return name.starts_with("MPI_") ? name : fallback;
  }
  void fail(std::string message) {
    if (out_.error.empty()) out_.error = where() + std::move(message);
  }
  // Checks the window and target of a record; false (and an error) if invalid.
  bool checkReference(std::size_t i, const trace::Event& e, const trace::RmaRecord& r, const std::string& fallback) {
    const auto& defs = ctx_.defs();
    if (r.win >= defs.windows.size()) {
      fail(callName(i, fallback) + " at " + formatSeconds(e.time) + " s names unknown window " +
           std::to_string(r.win));
      return false;
    }
    const std::size_t size = defs.commSize(defs.windows[r.win].comm);
    if (r.remote != kNone && r.remote >= size) {
      fail(callName(i, fallback) + " on " + object(r.win, r.remote) + " at " + formatSeconds(e.time) +
           " s: the window's communicator has " + std::to_string(size) + " ranks");
      return false;
    }
    return true;
  }

  void request(std::size_t i, const trace::Event& e, bool acquiredNow) {
    const trace::RmaRecord& r = ctx_.events.rmaRecord(e);
    const std::string fallback = lockName(r.remote);
    if (!checkReference(i, e, r, fallback)) return;
    // MPI forbids a second passive epoch of one origin towards the same target.
    for (const auto& [key, epoch] : open_) {
      if (key.first != r.win) continue;
      if (key.second == kNone || r.remote == kNone || key.second == r.remote) {
        const Hold& other = out_.holds[epoch.hold];
        fail(callName(i, fallback) + " on " + object(r.win, r.remote) + " at " + formatSeconds(e.time) +
             " s while " + object(r.win, key.second) + " is already locked (" + lockName(key.second) + " at " +
             formatSeconds(other.lockEnter) + " s)");
        return;
      }
    }
    const std::optional<Call> call = ctx_.calls.callOf(i);
    Hold h;
    h.win = r.win;
    h.target = r.remote;
    h.type = r.lockType == kExclusive ? kExclusive : static_cast<std::uint8_t>(RmaLockType::Shared);
    h.lockEnter = call ? call->enter : e.time;
    h.lockLeave = call ? call->leave : e.time;
    h.lockPath = call ? call->path : kNone;
    h.holdStart = acquiredNow ? e.time : h.lockLeave;
    h.acquired = acquiredNow;
    open_.emplace(Key{r.win, r.remote}, Open{static_cast<std::uint32_t>(out_.holds.size()), {}});
    out_.holds.push_back(h);
  }

  void acquire(std::size_t i, const trace::Event& e) {
    const trace::RmaRecord& r = ctx_.events.rmaRecord(e);
    const auto it = open_.find({r.win, r.remote});
    if (it == open_.end()) {
      // A tool that writes only RMA_ACQUIRE_LOCK: it opens the epoch itself.
      request(i, e, true);
      return;
    }
    Hold& h = out_.holds[it->second.hold];
    if (!h.acquired) {
      h.holdStart = e.time;
      h.acquired = true;
    }
  }

  void release(std::size_t i, const trace::Event& e) {
    const trace::RmaRecord& r = ctx_.events.rmaRecord(e);
    const std::string fallback = unlockName(r.remote);
    if (!checkReference(i, e, r, fallback)) return;
    const auto it = open_.find({r.win, r.remote});
    if (it == open_.end()) {
      const bool lockAllOpen = r.remote != kNone && open_.contains({r.win, kNone});
      fail(callName(i, fallback) + " on " + object(r.win, r.remote) + " at " + formatSeconds(e.time) +
           " s without a matching " + lockName(r.remote) +
           (lockAllOpen ? " (the window is locked with MPI_Win_lock_all)" : ""));
      return;
    }
    const std::optional<Call> call = ctx_.calls.callOf(i);
    Hold& h = out_.holds[it->second.hold];
    h.holdEnd = std::max(h.holdStart, call ? call->leave : e.time);
    h.unlockEnter = std::min(h.holdEnd, std::max(h.holdStart, call ? call->enter : e.time));
    h.closed = true;
    if (Completion* c = completion(i, r.win)) {
      if (r.remote != kNone) {
        c->targets.push_back(r.remote);
        c->holds.push_back(it->second.hold);
      }
      c->targets.insert(c->targets.end(), it->second.accessed.begin(), it->second.accessed.end());
    }
    open_.erase(it);
  }

  void transfer(std::size_t i, const trace::Event& e) {
    const trace::RmaRecord& r = ctx_.events.rmaRecord(e);
    if (r.win >= matching_.size() || r.remote == kNone) return;
    auto it = open_.find({r.win, r.remote});
    if (it == open_.end()) it = open_.find({r.win, kNone});
    if (it == open_.end()) return;  // not in a passive epoch (active target)
    matching_[r.win][r.matchingId] = r.remote;
    auto& accessed = it->second.accessed;
    if (std::find(accessed.begin(), accessed.end(), r.remote) == accessed.end()) accessed.push_back(r.remote);
    const std::uint32_t callId = ctx_.calls.callIdOf(i);
    const std::optional<Call> call = ctx_.calls.callById(callId);
    if (!call) return;
    if (lastTransferCall_ == callId) return;  // one call, several records
    lastTransferCall_ = callId;
    out_.transfers.push_back({it->second.hold, r.remote, call->enter, call->leave, call->path});
  }

  void completed(std::size_t i, const trace::Event& e) {
    const trace::RmaRecord& r = ctx_.events.rmaRecord(e);
    if (r.win >= matching_.size()) return;
    const auto op = matching_[r.win].find(r.matchingId);
    if (op == matching_[r.win].end()) return;  // an operation outside passive epochs
    if (Completion* c = completion(i, r.win)) {
      c->targets.push_back(op->second);
      if (const auto epoch = open_.find({r.win, op->second}); epoch != open_.end())
        c->holds.push_back(epoch->second.hold);
    }
  }

  // The completion entry of the call around event i (created on its first
  // record), or nullptr if that call does not complete passive epochs.
  Completion* completion(std::size_t i, WinId win) {
    const std::uint32_t callId = ctx_.calls.callIdOf(i);
    const std::optional<Call> call = ctx_.calls.callById(callId);
    if (!call || call->path == kNone) return nullptr;
    if (!out_.completions.empty() && out_.completions.back().call == callId && out_.completions.back().win == win)
      return &out_.completions.back();
    const std::string& name = ctx_.regionName(call->path);
    if (!isCompletionCall(name)) return nullptr;
    Completion c;
    c.win = win;
    c.call = callId;
    c.enter = call->enter;
    c.leave = call->leave;
    c.path = call->path;
    // *_all: every target accessed in the open epochs on the window.
    if (isAllCall(name))
      for (const auto& [key, epoch] : open_)
        if (key.first == win) c.targets.insert(c.targets.end(), epoch.accessed.begin(), epoch.accessed.end());
    out_.completions.push_back(std::move(c));
    return &out_.completions.back();
  }

  const ReplayContext& ctx_;
  PassiveScan out_;
  std::map<Key, Open> open_;
  std::vector<std::unordered_map<std::uint64_t, Rank>> matching_;  // per window: matching id -> target
  std::uint32_t lastTransferCall_ = kNone;
};

// ============================================================ intervals

struct Segment {
  double cause;  // world rank of the origin whose hold covers [a, b]
  double a, b;
};

// Sorts by (cause, a) and merges overlapping segments of one cause.
void mergePerCause(std::vector<Segment>& s) {
  std::sort(s.begin(), s.end(), [](const Segment& x, const Segment& y) {
    return x.cause != y.cause ? x.cause < y.cause : x.a < y.a;
  });
  std::size_t out = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (out > 0 && s[out - 1].cause == s[i].cause && s[i].a <= s[out - 1].b) {
      s[out - 1].b = std::max(s[out - 1].b, s[i].b);
    } else {
      s[out++] = s[i];
    }
  }
  s.resize(out);
}

using Interval = std::pair<double, double>;

std::vector<Interval> unionOf(const std::vector<Segment>& s) {
  std::vector<Interval> v;
  v.reserve(s.size());
  for (const Segment& x : s) v.emplace_back(x.a, x.b);
  std::sort(v.begin(), v.end());
  std::vector<Interval> out;
  for (const Interval& x : v) {
    if (!out.empty() && x.first <= out.back().second) {
      out.back().second = std::max(out.back().second, x.second);
    } else {
      out.push_back(x);
    }
  }
  return out;
}

// Disjoint intervals of this origin's time already attributed to a passive
// pattern, sorted. Calls of one rank follow each other, so inserts append.
class Counted {
 public:
  // The parts of `in` (sorted, disjoint) not yet counted.
  std::vector<Interval> subtract(const std::vector<Interval>& in) const {
    std::vector<Interval> out;
    for (Interval x : in) {
      auto it = std::lower_bound(v_.begin(), v_.end(), x.first,
                                 [](const Interval& c, double t) { return c.second <= t; });
      for (; it != v_.end() && it->first < x.second && x.first < x.second; ++it) {
        if (it->first > x.first) out.emplace_back(x.first, it->first);
        x.first = std::max(x.first, it->second);
      }
      if (x.first < x.second) out.push_back(x);
    }
    return out;
  }
  void add(const Interval& x) {
    if (v_.empty() || v_.back().second < x.first) {
      v_.push_back(x);
      return;
    }
    v_.push_back(x);
    std::sort(v_.begin(), v_.end());
    std::vector<Interval> merged;
    for (const Interval& y : v_) {
      if (!merged.empty() && y.first <= merged.back().second) {
        merged.back().second = std::max(merged.back().second, y.second);
      } else {
        merged.push_back(y);
      }
    }
    v_ = std::move(merged);
  }

 private:
  std::vector<Interval> v_;
};

// The cause of the wait [a, b]: every moment of it is attributed to the
// covering hold that is released last (the one the origin is really waiting
// for; with Open MPI's grant skew the previous holder's tail overlaps the next
// holder by microseconds); the cause is the origin with the most attributed
// time, ties (within 1 ns) to the one attributed last, then the lower rank.
Rank causeOf(const std::vector<Segment>& segments, double a, double b) {
  std::vector<Segment> s;
  for (const Segment& x : segments)
    if (std::min(b, x.b) > std::max(a, x.a)) s.push_back({x.cause, std::max(a, x.a), std::min(b, x.b)});
  if (s.empty()) return kNone;
  std::sort(s.begin(), s.end(), [](const Segment& x, const Segment& y) { return x.a < y.a; });
  // Heap top: latest end, then latest start, then lowest rank.
  const auto below = [](const Segment& x, const Segment& y) {
    if (x.b != y.b) return x.b < y.b;
    if (x.a != y.a) return x.a < y.a;
    return x.cause > y.cause;
  };
  std::vector<Segment> heap;
  std::map<double, std::pair<double, double>> attributed;  // cause -> (time, last attributed end)
  std::size_t next = 0;
  double t = s.front().a;
  while (t < b) {
    for (; next < s.size() && s[next].a <= t; ++next) {
      heap.push_back(s[next]);
      std::push_heap(heap.begin(), heap.end(), below);
    }
    while (!heap.empty() && heap.front().b <= t) {
      std::pop_heap(heap.begin(), heap.end(), below);
      heap.pop_back();
    }
    if (heap.empty()) {
      if (next == s.size()) break;
      t = s[next].a;
      continue;
    }
    const Segment& top = heap.front();
    const double until = next < s.size() ? std::min(top.b, s[next].a) : top.b;
    auto& [time, last] = attributed[top.cause];
    time += until - t;
    last = until;
    t = until;
  }
  Rank best = kNone;
  double bestTime = -1, bestLast = -1;
  constexpr double kTie = 1e-9;
  for (const auto& [cause, tl] : attributed) {
    const auto [time, last] = tl;
    if (time > bestTime + kTie || (time > bestTime - kTie && last > bestLast)) {
      best = static_cast<Rank>(cause);
      bestTime = time;
      bestLast = last;
    }
  }
  return best;
}

// ============================================================ messages

// Request stream from an origin to a target, in doubles:
//   hold:     kHold, win, type, lockEnter, lockLeave, holdStart, holdEnd, unlockEnter
//   transfer: kTransfer, hold index (among the holds of this message), enter, leave
//   query:    kQuery, enter, leave
// Reply stream, one entry per request item in order:
//   hold/transfer/completion: n, then n x (cause, a, b)      query: wait
constexpr double kHoldTag = 0, kTransferTag = 1, kQueryTag = 2, kCompletionTag = 3;
constexpr int kRequestTag = 4711, kReplyTag = 4712;

struct Slot {
  std::uint8_t kind;  // 0 hold, 1 transfer, 2 progress query of a completion, 3 completion towards a hold
  std::uint32_t index;
};

// The target's top-level MPI calls, sorted: where it was when a query began.
class MpiCalls {
 public:
  explicit MpiCalls(const ReplayContext& ctx) {
    const auto& defs = ctx.defs();
    int depth = 0;
    double enter = 0;
    for (const trace::Event& e : ctx.events.events) {
      if (e.kind != EventKind::Enter && e.kind != EventKind::Leave) continue;
      const trace::Region& region = defs.regions[ctx.trace.callTree[e.ref].region];
      if (region.paradigm != trace::Paradigm::Mpi && !region.name.starts_with("MPI_")) continue;
      if (e.kind == EventKind::Enter) {
        if (depth++ == 0) enter = e.time;
      } else if (depth > 0 && --depth == 0) {
        calls_.emplace_back(enter, e.time);
      }
    }
    if (depth > 0) calls_.emplace_back(enter, ctx.events.events.back().time);
  }
  // Wait for progress of a call [e, l] of an origin towards this target: if this
  // target was outside MPI at e and entered MPI at m with e < m < l, m - e.
  double waitFor(double e, double l) const {
    auto next = std::upper_bound(calls_.begin(), calls_.end(), e,
                                 [](double t, const Interval& c) { return t < c.first; });
    if (next != calls_.begin() && std::prev(next)->second >= e) return 0;  // inside MPI at e
    if (next == calls_.end()) return 0;
    const double m = next->first;
    return (e < m && m < l) ? m - e : 0;
  }

 private:
  std::vector<Interval> calls_;
};

void exchangeSizes(const std::vector<std::vector<double>>& out, std::vector<int>& inSizes,
                   const replay::LocationComm& comm) {
  std::vector<int> outSizes(out.size());
  for (std::size_t p = 0; p < out.size(); ++p) outSizes[p] = static_cast<int>(out[p].size());
  inSizes.assign(out.size(), 0);
  comm.alltoall(outSizes.data(), 1, MPI_INT, inSizes.data(), 1, MPI_INT);
}

// One message per peer each way; `in[p]` receives what peer p sent.
void exchange(const std::vector<std::vector<double>>& out, std::vector<std::vector<double>>& in, int tag,
              const replay::LocationComm& comm) {
  std::vector<int> inSizes;
  exchangeSizes(out, inSizes, comm);
  in.assign(out.size(), {});
  std::vector<MPI_Request> requests;
  for (std::size_t p = 0; p < out.size(); ++p) {
    if (inSizes[p] == 0) continue;
    in[p].resize(static_cast<std::size_t>(inSizes[p]));
    requests.push_back(comm.irecv(in[p].data(), inSizes[p], MPI_DOUBLE, static_cast<int>(p), tag));
  }
  for (std::size_t p = 0; p < out.size(); ++p) {
    if (out[p].empty()) continue;
    requests.push_back(comm.isend(out[p].data(), static_cast<int>(out[p].size()), MPI_DOUBLE, static_cast<int>(p), tag));
  }
  comm.waitAll(requests);
}

// ============================================================ target side

struct TargetHold {
  Rank origin;
  std::uint8_t type;
  double start, end, unlockEnter;
};

enum class ItemKind : std::uint8_t { Lock, Transfer, Completion };

struct TargetItem {
  Rank origin;
  std::uint8_t type;
  ItemKind kind;
  double start, end;
  double ownHoldStart;  // transfers and completions: when the origin's own hold began
};

struct TargetWindow {
  std::vector<TargetHold> holds;
  std::vector<std::uint32_t> items;  // global item indices
};

// Segments of the conflicting holds of other origins covering each item.
void sweep(const TargetWindow& w, const std::vector<TargetItem>& items, std::vector<std::vector<Segment>>& segs) {
  std::vector<std::uint32_t> hs(w.holds.size());
  for (std::uint32_t i = 0; i < hs.size(); ++i) hs[i] = i;
  std::sort(hs.begin(), hs.end(), [&](auto x, auto y) { return w.holds[x].start < w.holds[y].start; });
  std::vector<std::uint32_t> is = w.items;
  std::sort(is.begin(), is.end(), [&](auto x, auto y) { return items[x].start < items[y].start; });

  const auto check = [&](std::uint32_t item, const TargetHold& h) {
    const TargetItem& it = items[item];
    if (h.origin == it.origin || !conflicts(it.type, h.type)) return;
    // A transfer waits only for a hold granted before its own epoch's hold and
    // not yet being released when that hold began (else the other origin had
    // handed the lock over: Open MPI grants it µs before MPI_Win_unlock returns).
    if (it.kind == ItemKind::Transfer && !(h.start < it.ownHoldStart && it.ownHoldStart < h.unlockEnter)) return;
    // A completion (unlock, flush) of a lazily acquired epoch waits for a hold that was not yet
    // being released when its own hold began and that ended inside it: the lock was granted
    // only then. An eager lock excludes such a hold, so this counts nothing for one.
    if (it.kind == ItemKind::Completion &&
        !(it.ownHoldStart < h.unlockEnter && it.start < h.end && h.end <= it.end))
      return;
    const double a = std::max(it.start, h.start), b = std::min(it.end, h.end);
    if (b > a) segs[item].push_back({static_cast<double>(h.origin), a, b});
  };

  std::vector<std::uint32_t> activeHolds, activeItems;
  std::size_t i = 0, j = 0;
  while (i < hs.size() || j < is.size()) {
    const bool takeHold = j == is.size() || (i < hs.size() && w.holds[hs[i]].start <= items[is[j]].start);
    if (takeHold) {
      const TargetHold& h = w.holds[hs[i++]];
      if (!(h.end > h.start)) continue;
      std::erase_if(activeItems, [&](std::uint32_t x) { return items[x].end <= h.start; });
      for (std::uint32_t x : activeItems) check(x, h);
      activeHolds.push_back(hs[i - 1]);
    } else {
      const std::uint32_t x = is[j++];
      const TargetItem& it = items[x];
      if (!(it.end > it.start)) continue;
      std::erase_if(activeHolds, [&](std::uint32_t y) { return w.holds[y].end <= it.start; });
      for (std::uint32_t y : activeHolds) check(x, w.holds[y]);
      activeItems.push_back(x);
    }
  }
}

// Answers every origin's requests; returns the replies by origin world rank.
std::vector<std::vector<double>> answer(const ReplayContext& ctx, const std::vector<std::vector<double>>& in) {
  std::map<WinId, TargetWindow> windows;
  std::vector<TargetItem> items;
  // Per origin, the reply in request order: an item's segments, or a query's wait.
  struct Entry {
    bool query;
    std::uint32_t item;
    double wait;
  };
  std::vector<std::vector<Entry>> plans(in.size());
  std::unique_ptr<MpiCalls> mpiCalls;

  for (std::size_t origin = 0; origin < in.size(); ++origin) {
    const std::vector<double>& m = in[origin];
    std::vector<std::pair<WinId, std::uint32_t>> holdsOfMessage;  // window, index in its holds
    const auto o = static_cast<Rank>(origin);
    for (std::size_t k = 0; k < m.size();) {
      const double tag = m[k];
      if (tag == kHoldTag && k + 8 <= m.size()) {
        const auto win = static_cast<WinId>(m[k + 1]);
        const auto type = static_cast<std::uint8_t>(m[k + 2]);
        TargetWindow& w = windows[win];
        holdsOfMessage.emplace_back(win, static_cast<std::uint32_t>(w.holds.size()));
        w.holds.push_back({o, type, m[k + 5], m[k + 6], m[k + 7]});
        w.items.push_back(static_cast<std::uint32_t>(items.size()));
        plans[origin].push_back({false, static_cast<std::uint32_t>(items.size()), 0});
        items.push_back({o, type, ItemKind::Lock, m[k + 3], m[k + 4], m[k + 5]});
        k += 8;
      } else if ((tag == kTransferTag || tag == kCompletionTag) && k + 4 <= m.size()) {
        const auto [win, hold] = holdsOfMessage.at(static_cast<std::size_t>(m[k + 1]));
        TargetWindow& w = windows[win];
        const TargetHold& h = w.holds[hold];
        w.items.push_back(static_cast<std::uint32_t>(items.size()));
        plans[origin].push_back({false, static_cast<std::uint32_t>(items.size()), 0});
        items.push_back({o, h.type, tag == kTransferTag ? ItemKind::Transfer : ItemKind::Completion, m[k + 2],
                         m[k + 3], h.start});
        k += 4;
      } else if (tag == kQueryTag && k + 3 <= m.size()) {
        if (!mpiCalls) mpiCalls = std::make_unique<MpiCalls>(ctx);
        plans[origin].push_back({true, 0, mpiCalls->waitFor(m[k + 1], m[k + 2])});
        k += 3;
      } else {
        break;  // cannot happen: both sides run this code
      }
    }
  }

  std::vector<std::vector<Segment>> segs(items.size());
  for (const auto& [win, w] : windows) sweep(w, items, segs);

  std::vector<std::vector<double>> replies(in.size());
  for (std::size_t origin = 0; origin < in.size(); ++origin) {
    std::vector<double>& r = replies[origin];
    for (const Entry& e : plans[origin]) {
      if (e.query) {
        r.push_back(e.wait);
        continue;
      }
      std::vector<Segment>& s = segs[e.item];
      mergePerCause(s);
      r.push_back(static_cast<double>(s.size()));
      for (const Segment& x : s) r.insert(r.end(), {x.cause, x.a, x.b});
      std::vector<Segment>().swap(s);
    }
  }
  return replies;
}

// ============================================================ origin side

Rank worldRankOf(const ReplayContext& ctx, WinId win, Rank target) {
  const auto& defs = ctx.defs();
  if (win >= defs.windows.size()) return kNone;
  const trace::CommId comm = defs.windows[win].comm;
  if (comm >= defs.comms.size()) return kNone;
  const trace::GroupId group = defs.comms[comm].group;
  if (group < defs.groups.size() && defs.groups[group].type == trace::GroupType::CommSelf)
    return target == 0 ? ctx.worldRank : kNone;
  const Rank r = defs.worldRank(comm, target);
  return r < static_cast<Rank>(ctx.worldSize) ? r : kNone;
}

}  // namespace

std::string RmaPassive::validate() const { return Scanner(ctx_).run().error; }

void RmaPassive::detect() {
  const auto& defs = ctx_.defs();
  const std::size_t nWin = defs.windows.size();
  if (nWin == 0) return;  // every rank has the same definitions: all return here
  const PassiveScan scan = Scanner(ctx_).run();
  const replay::LocationComm& world = ctx_.comms.world();
  const auto P = static_cast<std::size_t>(ctx_.worldSize);

  // 1. Windows with MPI_Win_lock_all, and whether anything passive happens at all.
  std::vector<unsigned char> flags(nWin + 1, 0);
  for (const Hold& h : scan.holds) {
    flags[nWin] = 1;
    if (h.target == kNone) flags[h.win] = 1;
  }
  world.allreduce(MPI_IN_PLACE, flags.data(), static_cast<int>(flags.size()), MPI_UNSIGNED_CHAR, MPI_MAX);
  if (flags[nWin] == 0) return;
  // For those windows: the targets some origin locks exclusively.
  std::vector<std::size_t> offset(nWin, 0);
  std::size_t bits = 0;
  for (WinId w = 0; w < nWin; ++w) {
    offset[w] = bits;
    if (flags[w] != 0) bits += defs.commSize(defs.windows[w].comm);
  }
  std::vector<unsigned char> exclusive(bits, 0);
  if (bits > 0) {
    for (const Hold& h : scan.holds)
      if (flags[h.win] != 0 && h.target != kNone && h.type == kExclusive) exclusive[offset[h.win] + h.target] = 1;
    world.allreduce(MPI_IN_PLACE, exclusive.data(), static_cast<int>(bits), MPI_UNSIGNED_CHAR, MPI_MAX);
  }

  // 2. Requests, one stream per target world rank.
  std::vector<std::vector<double>> requests(P);
  std::vector<std::vector<Slot>> slots(P);
  std::vector<std::uint32_t> holdCount(P, 0);
  std::vector<std::vector<std::uint32_t>> transfersOf(scan.holds.size());
  for (std::uint32_t t = 0; t < scan.transfers.size(); ++t) transfersOf[scan.transfers[t].hold].push_back(t);
  std::vector<std::uint32_t> indexAt;  // lock_all: index of the hold in each target's stream
  std::vector<std::uint32_t> holdIndex(scan.holds.size(), kNone);  // MPI_Win_lock epochs: index in their stream
  for (std::uint32_t hi = 0; hi < scan.holds.size(); ++hi) {
    const Hold& h = scan.holds[hi];
    const auto addHold = [&](Rank windowRank) -> std::uint32_t {
      const Rank T = worldRankOf(ctx_, h.win, windowRank);
      if (T == kNone) return kNone;
      requests[T].insert(requests[T].end(), {kHoldTag, static_cast<double>(h.win), static_cast<double>(h.type),
                                             h.lockEnter, h.lockLeave, h.holdStart, h.holdEnd, h.unlockEnter});
      slots[T].push_back({0, hi});
      return holdCount[T]++;
    };
    const auto addTransfer = [&](std::uint32_t ti, std::uint32_t indexInStream) {
      const Transfer& x = scan.transfers[ti];
      const Rank T = worldRankOf(ctx_, h.win, x.target);
      if (T == kNone) return;
      requests[T].insert(requests[T].end(), {kTransferTag, static_cast<double>(indexInStream), x.enter, x.leave});
      slots[T].push_back({1, ti});
    };
    if (h.target != kNone) {
      const std::uint32_t index = addHold(h.target);
      if (index == kNone) continue;
      holdIndex[hi] = index;
      for (std::uint32_t ti : transfersOf[hi]) addTransfer(ti, index);
    } else {
      // lock_all: a shared hold on every target some origin locks exclusively.
      const std::size_t size = defs.commSize(defs.windows[h.win].comm);
      indexAt.assign(size, kNone);
      for (Rank t = 0; t < size; ++t)
        if (exclusive[offset[h.win] + t] != 0) indexAt[t] = addHold(t);
      for (std::uint32_t ti : transfersOf[hi]) {
        const Rank t = scan.transfers[ti].target;
        if (t < size && indexAt[t] != kNone) addTransfer(ti, indexAt[t]);
      }
    }
  }
  for (std::uint32_t ci = 0; ci < scan.completions.size(); ++ci) {
    const Completion& c = scan.completions[ci];
    // Towards each MPI_Win_lock epoch it completes: the lock may have been granted only in it.
    for (const std::uint32_t hi : c.holds) {
      if (holdIndex[hi] == kNone) continue;
      const Rank T = worldRankOf(ctx_, c.win, scan.holds[hi].target);
      requests[T].insert(requests[T].end(), {kCompletionTag, static_cast<double>(holdIndex[hi]), c.enter, c.leave});
      slots[T].push_back({3, ci});
    }
    for (Rank t : c.targets) {
      const Rank T = worldRankOf(ctx_, c.win, t);
      if (T == kNone) continue;
      requests[T].insert(requests[T].end(), {kQueryTag, c.enter, c.leave});
      slots[T].push_back({2, ci});
    }
  }

  const std::unique_ptr<replay::LocationComm> comm = world.dup();
  std::vector<std::vector<double>> received;
  exchange(requests, received, kRequestTag, *comm);
  std::vector<std::vector<double>>().swap(requests);

  // 3./4. Answer as a target, and hear the answers as an origin.
  std::vector<std::vector<double>> replies = answer(ctx_, received);
  std::vector<std::vector<double>>().swap(received);
  std::vector<std::vector<double>> answers;
  exchange(replies, answers, kReplyTag, *comm);
  std::vector<std::vector<double>>().swap(replies);

  // 5. Collect per local item.
  std::vector<std::vector<Segment>> holdSegs(scan.holds.size()), transferSegs(scan.transfers.size()),
      completionSegs(scan.completions.size());
  std::vector<std::pair<double, Rank>> progress(scan.completions.size(), {0.0, kNone});
  for (std::size_t T = 0; T < P; ++T) {
    const std::vector<double>& r = answers[T];
    std::size_t k = 0;
    for (const Slot& s : slots[T]) {
      if (k >= r.size()) break;
      if (s.kind == 2) {
        const double wait = r[k++];
        if (wait > progress[s.index].first) progress[s.index] = {wait, static_cast<Rank>(T)};
        continue;
      }
      auto& dest = s.kind == 0 ? holdSegs[s.index] : s.kind == 1 ? transferSegs[s.index] : completionSegs[s.index];
      const auto n = static_cast<std::size_t>(r[k++]);
      for (std::size_t q = 0; q < n && k + 3 <= r.size(); ++q, k += 3) dest.push_back({r[k], r[k + 1], r[k + 2]});
    }
  }

  // Lock calls, transfers and completions in time order, each counting only time not yet counted.
  struct Item {
    double enter;
    ItemKind kind;
    std::uint32_t index;
  };
  std::vector<Item> order;
  for (std::uint32_t i = 0; i < scan.holds.size(); ++i)
    if (!holdSegs[i].empty()) order.push_back({scan.holds[i].lockEnter, ItemKind::Lock, i});
  for (std::uint32_t i = 0; i < scan.transfers.size(); ++i)
    if (!transferSegs[i].empty()) order.push_back({scan.transfers[i].enter, ItemKind::Transfer, i});
  for (std::uint32_t i = 0; i < scan.completions.size(); ++i)
    if (!completionSegs[i].empty()) order.push_back({scan.completions[i].enter, ItemKind::Completion, i});
  std::stable_sort(order.begin(), order.end(), [](const Item& a, const Item& b) { return a.enter < b.enter; });
  Counted counted;
  for (const Item& item : order) {
    std::vector<Segment>& s = item.kind == ItemKind::Lock       ? holdSegs[item.index]
                              : item.kind == ItemKind::Transfer ? transferSegs[item.index]
                                                                : completionSegs[item.index];
    const CallPathId path = item.kind == ItemKind::Lock       ? scan.holds[item.index].lockPath
                            : item.kind == ItemKind::Transfer ? scan.transfers[item.index].path
                                                              : scan.completions[item.index].path;
    if (path == kNone) continue;
    mergePerCause(s);
    const Metric metric =
        item.kind == ItemKind::Transfer ? Metric::MpiRmaCommLockCompetition : Metric::MpiRmaSyncLockCompetition;
    for (const Interval& piece : counted.subtract(unionOf(s))) {
      ctx_.severities.addWait(metric, path, piece.first, piece.second, causeOf(s, piece.first, piece.second));
      counted.add(piece);
    }
  }
  for (std::size_t i = 0; i < scan.completions.size(); ++i) {
    const Completion& c = scan.completions[i];
    if (!(progress[i].first > 0) || c.path == kNone) continue;
    // Time of the call already counted as Lock Competition (a lazily granted lock) is not also progress.
    for (const Interval& piece : counted.subtract({{c.enter, c.enter + progress[i].first}}))
      ctx_.severities.addWait(Metric::MpiRmaSyncWaitForProgress, c.path, piece.first, piece.second,
                              progress[i].second);
  }
}

}  // namespace waitscope::patterns
