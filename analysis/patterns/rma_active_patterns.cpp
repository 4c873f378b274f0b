// RMA active-target patterns (Hermanns, Geimer, Mohr, Wolf, EuroPVM/MPI 2009 and IJHPCA 2012),
// replayed with RMA: every application window gets an exchange window over the
// same ranks, and every recorded synchronization call is re-enacted on it, in
// trace order, carrying the timestamps the patterns need:
//   MPI_Win_post     target writes its post-enter time into its own buffer, resets
//                    the GATS fields, MPI_Win_post(origins)
//   MPI_Win_start    MPI_Win_start(targets), MPI_Get of every target's post-enter time
//   MPI_Win_complete MPI_Accumulate(MAXLOC, max_loc_key.h) of the complete-enter time and of the
//                    last RMA-op exit per target, MPI_Accumulate(BOR) of the origin's
//                    bit if it accessed the target; MPI_Win_complete; Late Post and
//                    Early Transfer are then evaluated locally
//   MPI_Win_wait/test target: MPI_Win_wait, then Early Wait, Late Complete, counts
//   MPI_Win_fence    MPI_Allreduce(MAXLOC) of (enter, -exit) for Wait at Fence (for all
//                    fences of a window at once, before the replay); each closed
//                    epoch's last RMA-op exits (MAXLOC) and bits (BOR) are kept and
//                    accumulated for a batch of epochs at once in an exchange epoch
//                    of its own (two MPI_Win_fence), then Early Fence and the
//                    counts are read off the own fence area
//   create / free    MPI_Allreduce for Wait at Create / Wait at Free, and the
//                    exchange window's own creation and release
// A window of one process exchanges nothing: its exchange area is plain memory, and
// the RMA calls above become local reads and updates (see ExchangeWindow::local).
// docs/patterns/rma_active.md describes the definitions and the choices made.
#include "analysis/patterns/rma_active_patterns.h"

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <new>
#include <optional>
#include <unordered_map>
#include <vector>

#include "analysis/patterns/max_loc_key.h"
#include "analysis/patterns/rma_active_calls.h"
#include "analysis/patterns/rma_active_validation.h"
#include "analysis/patterns/rma_window_ranks.h"
#include "analysis/replay/yielding_wait.h"

namespace waitscope::patterns {

using metrics::Metric;
namespace {

using rma_active::callAround;
using rma_active::CommRanks;
using rma_active::commRanks;
using rma_active::GroupCall;
using rma_active::groupCall;
using rma_active::groupInComm;
using rma_active::WindowCall;
using rma_active::windowCall;
using replay::Call;
using replay::ReplayContext;
using trace::CollectiveOp;
using trace::CommId;
using trace::EventKind;
using trace::kNone;
using trace::Rank;
using trace::WinId;

constexpr double kNever = -std::numeric_limits<double>::infinity();

// ============================================================ the exchange window

// MPI_DOUBLE_INT's layout, for MPI_MAXLOC in collectives.
struct DoubleInt {
  double value;
  int rank;
};
static_assert(sizeof(DoubleInt) == 16, "MPI_DOUBLE_INT is a double followed by an int, padded to 16 bytes");

// What each rank exposes. Followed by the GATS bit field of `words` 64-bit
// words (one bit per rank of the window's communicator), then the fence area:
// kFenceBatch slots (the last transfer exit per fence epoch, MAXLOC) and
// kFenceBatch bit fields. The MAXLOC fields are accumulated as MaxLocKey.
struct Header {
  double postEnter;          // GATS: enter of this target's MPI_Win_post
  MaxLocKey latestComplete;  // GATS: MAXLOC (complete enter, origin)
  MaxLocKey latestOpGats;    // GATS: MAXLOC (last RMA-op exit to this target, origin)
};

// Fence epochs exchanged together: origins keep each epoch's last transfer exit
// per target and send a batch of epochs at once (DESIGN.md, "Where analysis
// speed comes from"); a window whose fences are many then costs two exchange
// fences per kFenceBatch recorded ones instead of one per recorded fence.
constexpr std::size_t kFenceBatch = 512;

constexpr MPI_Aint kPostEnter = offsetof(Header, postEnter);
constexpr MPI_Aint kLatestComplete = offsetof(Header, latestComplete);
constexpr MPI_Aint kLatestOpGats = offsetof(Header, latestOpGats);

struct Transfer {  // an RMA operation of this rank, by its enclosing call
  int target;
  double enter;
  double leave;
  trace::CallPathId path;
};

// The latest enter (with its rank) and the earliest exit of a collective call
// over `comm`, by one MPI_Allreduce with MPI_MAXLOC over (enter, -exit).
struct Overlap {
  double latestEnter;
  int latestRank;
  double earliestExit;
  bool synchronizing() const { return latestEnter < earliestExit; }
};

struct PendingFence {  // a fence that closed an epoch, evaluated when its batch is exchanged
  Call call;
  Overlap overlap;
};

struct EpochExit {  // the last transfer exit to `target` in the epoch closed by pending fence `epoch`
  std::uint32_t epoch;
  int target;
  double exit;
};

struct ExchangeWindow {
  WinId id = kNone;
  CommId commId = kNone;
  CommRanks ranks;
  MPI_Comm comm = MPI_COMM_NULL;  // private duplicate of the window's communicator
  MPI_Group group = MPI_GROUP_NULL;
  MPI_Win win = MPI_WIN_NULL;
  std::byte* base = nullptr;
  // One member: no MPI window. MPI-3 promises no RMA component for a one-process communicator
  // (Open MPI 4.1's osc/rdma refuses it with MPI_ERR_WIN), and the process is its only target.
  bool local = false;
  std::vector<std::uint64_t> localArea;  // the exchange area of a local window (aligned for Header)
  int rank = 0;
  int size = 1;
  MaxLocCoder maxLoc{1};
  std::size_t words = 1;
  int passiveEpochs = 0;  // open lock epochs: their transfers belong to the passive-target analysis

  // access epoch (origin)
  bool accessOpen = false;
  Call start;
  std::vector<int> targets;
  std::vector<double> postEnter;  // MPI_Get destination, valid after MPI_Win_complete
  std::vector<Transfer> transfers;

  // exposure epoch (target)
  bool exposureOpen = false;
  std::vector<int> origins;

  // fences
  std::uint64_t fences = 0;
  std::map<int, double> fenceLastExit;  // target -> exit of the last transfer since the previous fence
  std::vector<PendingFence> pendingFences;  // closing fences of this batch, in trace order
  std::vector<EpochExit> pendingExits;      // their epochs' last transfer exits, by epoch

  Header& header() { return *reinterpret_cast<Header*>(base); }
  std::uint64_t* gatsBits() { return reinterpret_cast<std::uint64_t*>(base + sizeof(Header)); }
  static MPI_Aint gatsBitsOffset(int rank) {
    return static_cast<MPI_Aint>(sizeof(Header) + static_cast<std::size_t>(rank) / 64 * sizeof(std::uint64_t));
  }
  // Fence area: the slots, then the bit fields (kFenceBatch × words).
  MPI_Aint fenceSlotsOffset() const {
    return static_cast<MPI_Aint>(sizeof(Header) + words * sizeof(std::uint64_t));
  }
  MPI_Aint fenceBitsOffset() const {
    return fenceSlotsOffset() + static_cast<MPI_Aint>(kFenceBatch * sizeof(MaxLocKey));
  }
  MaxLocKey* fenceSlots() { return reinterpret_cast<MaxLocKey*>(base + fenceSlotsOffset()); }
  std::uint64_t* fenceBits() { return reinterpret_cast<std::uint64_t*>(base + fenceBitsOffset()); }
  std::size_t bytes() const {
    return static_cast<std::size_t>(fenceBitsOffset()) + kFenceBatch * words * sizeof(std::uint64_t);
  }
  static bool bitSet(const std::uint64_t* field, int r) {
    return (field[static_cast<std::size_t>(r) / 64] >> (static_cast<unsigned>(r) % 64)) & 1U;
  }
  void resetGats() {
    Header& h = header();
    h.latestComplete = maxLoc.none();
    h.latestOpGats = maxLoc.none();
    std::fill_n(gatsBits(), words, 0);
  }
  void resetFences() {
    std::fill_n(fenceSlots(), kFenceBatch, maxLoc.none());
    std::fill_n(fenceBits(), kFenceBatch * words, 0);
  }
};

Overlap overlap(MPI_Comm comm, int rank, const Call& call) {
  DoubleInt in[2] = {{call.enter, rank}, {-call.leave, rank}};
  DoubleInt out[2];
  MPI_Allreduce(in, out, 2, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
  return {out[0].value, out[0].rank, -out[1].value};
}

// ============================================================ the replay

class ActiveReplay {
 public:
  explicit ActiveReplay(ReplayContext& ctx) : ctx_(ctx), defs_(ctx.defs()) {}

  // Returns the clock-condition violations found.
  std::uint64_t run() {
    if (defs_.windows.empty()) return 0;  // every rank sees the same definitions
    reduceFenceOverlaps();
    if (ctx_.worldSize > 1) openMutex();  // else every window is local
    const auto& ev = ctx_.events;
    const std::vector<std::uint32_t>& nonRegion = ctx_.calls.nonRegionEvents();
    for (std::size_t k = 0; k < nonRegion.size(); ++k) {
      const std::uint32_t i = nonRegion[k];
      const trace::Event& e = ctx_.calls.nonRegionEvent(k);
      switch (e.kind) {
        case EventKind::RmaCollectiveEnd: {
          const auto& rec = ev.collective(e);
          const Call call = callAround(ctx_, i);
          switch (windowCall(rec.op)) {
            case WindowCall::Create: onCreate(rec.object, call); break;
            case WindowCall::Free: onFree(rec.object, call); break;
            case WindowCall::Fence: onFence(rec.object, call); break;
            case WindowCall::Other: break;
          }
          break;
        }
        case EventKind::RmaGroupSync: groupSync(i, ev.rmaRecord(e)); break;
        case EventKind::RmaPut:
        case EventKind::RmaGet:
        case EventKind::RmaAtomic: transfer(i, ev.rmaRecord(e)); break;
        case EventKind::RmaRequestLock:
          if (ExchangeWindow* w = find(ev.rmaRecord(e).win)) ++w->passiveEpochs;
          break;
        case EventKind::RmaReleaseLock:
          if (ExchangeWindow* w = find(ev.rmaRecord(e).win)) w->passiveEpochs = std::max(0, w->passiveEpochs - 1);
          break;
        default: break;
      }
    }
    // Windows the program never freed: release them in window order (every
    // member walks the same order, so the collective calls match).
    std::vector<WinId> left;
    for (const auto& [id, w] : windows_) left.push_back(id);
    std::sort(left.begin(), left.end());
    for (const WinId id : left) {
      exchangeFences(windows_.at(id));
      release(windows_.at(id));
    }
    windows_.clear();
    if (mutex_ != MPI_WIN_NULL) MPI_Win_free(&mutex_);
    return violations_;
  }

 private:
  // ---- the exchange window's RMA, local for a one-process window ----
  enum class Combine { Max, Or };  // MPI_MAX, MPI_BOR on MPI_INT64_T (MaxLocKey's signed keys)
  // `count` 64-bit integers from `origin` into the target's area at `disp`.
  static void accumulate(ExchangeWindow& w, const void* origin, int count, int target, MPI_Aint disp, Combine op) {
    if (!w.local) {
      MPI_Accumulate(origin, count, MPI_INT64_T, target, disp, count, MPI_INT64_T,
                     op == Combine::Max ? MPI_MAX : MPI_BOR, w.win);
      return;
    }
    const auto* from = static_cast<const std::byte*>(origin);
    std::byte* into = w.base + disp;
    for (std::size_t k = 0; k < static_cast<std::size_t>(count) * sizeof(std::int64_t); k += sizeof(std::int64_t)) {
      std::int64_t in = 0, current = 0;
      std::memcpy(&in, from + k, sizeof in);
      std::memcpy(&current, into + k, sizeof current);
      current = op == Combine::Max ? std::max(current, in) : current | in;
      std::memcpy(into + k, &current, sizeof current);
    }
  }
  static void getDouble(ExchangeWindow& w, double* into, int target, MPI_Aint disp) {
    if (w.local) std::memcpy(into, w.base + disp, sizeof(double));
    else MPI_Get(into, 1, MPI_DOUBLE, target, disp, 1, MPI_DOUBLE, w.win);
  }
  static void fence(ExchangeWindow& w, int assertions) {
    if (!w.local) MPI_Win_fence(assertions, w.win);
  }

  // ---- creation, serialized over the whole analysis ----
  // Open MPI 4.1's osc/sm and osc/rdma name their shared-memory segment after
  // host, job and communicator id; windows created at the same time on
  // disjoint communicators can get the same id and then share (and corrupt)
  // one segment. Exchange windows are therefore created one at a time: the
  // creating communicator's rank 0 holds an exclusive lock on a world-wide
  // "mutex" window while its members create theirs.
  void openMutex() {
    void* base = nullptr;
    MPI_Win_allocate(sizeof(std::int64_t), sizeof(std::int64_t), MPI_INFO_NULL, ctx_.comms.world(), &base, &mutex_);
    std::memset(base, 0, sizeof(std::int64_t));
    MPI_Barrier(ctx_.comms.world());
  }

  void lockMutex() {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, mutex_);
    // Some implementations acquire the lock lazily: an operation completed
    // under it guarantees it is held.
    std::int64_t dummy = 0, value = 0;
    MPI_Fetch_and_op(&dummy, &value, MPI_INT64_T, 0, 0, MPI_NO_OP, mutex_);
    MPI_Win_flush(0, mutex_);
  }

  ExchangeWindow* find(WinId id) {
    const auto it = windows_.find(id);
    return it == windows_.end() ? nullptr : &it->second;
  }

  Rank worldOf(const ExchangeWindow& w, int commRank) const {
    return w.ranks.members[static_cast<std::size_t>(commRank)];
  }

  void onCreate(WinId id, const Call& call) {
    ExchangeWindow& w = windows_[id];
    w.id = id;
    w.commId = defs_.windows[id].comm;
    w.ranks = commRanks(defs_, w.commId, ctx_.worldRank, ctx_.worldSize);
    MPI_Comm parent = w.ranks.self ? MPI_COMM_SELF : ctx_.comms.get(w.commId);
    w.rank = static_cast<int>(w.ranks.commRankOfWorld.at(ctx_.worldRank));
    w.size = static_cast<int>(w.ranks.members.size());
    w.maxLoc = MaxLocCoder(w.size);
    w.words = (static_cast<std::size_t>(w.size) + 63) / 64;

    // Wait at Create; the allreduce also tells rank 0 that every member is here.
    collectiveWait(Metric::MpiRmaWaitAtCreate, w, parent, call);
    w.local = w.size == 1;
    if (w.local) {
      MPI_Comm_dup(parent, &w.comm);
      w.localArea.assign((w.bytes() + sizeof(std::uint64_t) - 1) / sizeof(std::uint64_t), 0);
      w.base = reinterpret_cast<std::byte*>(w.localArea.data());
    } else {
      if (w.rank == 0) lockMutex();
      MPI_Barrier(parent);
      MPI_Comm_dup(parent, &w.comm);
      MPI_Info info;
      MPI_Info_create(&info);
      MPI_Info_set(info, "no_locks", "true");
      void* base = nullptr;
      MPI_Win_allocate(static_cast<MPI_Aint>(w.bytes()), 1, info, w.comm, &base, &w.win);
      MPI_Info_free(&info);
      w.base = static_cast<std::byte*>(base);
      MPI_Barrier(w.comm);
      if (w.rank == 0) MPI_Win_unlock(0, mutex_);
    }

    MPI_Comm_group(w.comm, &w.group);
    new (w.base) Header{};
    w.header().postEnter = kNever;
    w.resetGats();
    w.resetFences();
  }

  void onFree(WinId id, const Call& call) {
    ExchangeWindow* w = find(id);
    if (!w) return;
    exchangeFences(*w);
    collectiveWait(Metric::MpiRmaWaitAtFree, *w, w->comm, call);
    release(*w);
    windows_.erase(id);
  }

  void release(ExchangeWindow& w) {
    if (!w.local) MPI_Win_free(&w.win);
    MPI_Group_free(&w.group);
    MPI_Comm_free(&w.comm);
  }

  // Wait at Create / Wait at Free: the call is synchronizing if every member
  // entered it before any left it; then the wait is the latest enter minus
  // this rank's enter. The standard does not promise that either synchronizes,
  // so leaving early is no clock-condition violation.
  void collectiveWait(Metric metric, const ExchangeWindow& w, MPI_Comm comm, const Call& call) {
    const Overlap o = overlap(comm, w.rank, call);
    if (o.synchronizing() && call.path != kNone)
      ctx_.severities.addWait(metric, call.path, call.enter, o.latestEnter, worldOf(w, o.latestRank));
  }

  // ---- fences ----
  // Wait at Fence needs every fence's latest enter and earliest exit over the
  // window's members. They do not depend on the exchange window, so they are
  // reduced for all fences of a window at once (in batches) before the replay,
  // instead of one MPI_Allreduce per fence. Members record equally many fences
  // on a window (validated), and every rank takes the windows in id order.
  void reduceFenceOverlaps() {
    constexpr std::size_t kBatch = 1 << 15;  // fences per reduction: bounds memory, keeps messages large
    std::vector<std::vector<DoubleInt>> mine(defs_.windows.size());  // (enter, -exit) per fence
    const auto& ev = ctx_.events;
    const std::vector<std::uint32_t>& nonRegion = ctx_.calls.nonRegionEvents();
    for (std::size_t k = 0; k < nonRegion.size(); ++k) {
      const std::uint32_t i = nonRegion[k];
      const trace::Event& e = ctx_.calls.nonRegionEvent(k);
      if (e.kind != EventKind::RmaCollectiveEnd) continue;
      const auto& rec = ev.collective(e);
      if (windowCall(rec.op) != WindowCall::Fence || rec.object >= mine.size()) continue;
      const Call call = callAround(ctx_, i);
      mine[rec.object].push_back({call.enter, 0});
      mine[rec.object].push_back({-call.leave, 0});
    }
    fenceOverlaps_.assign(defs_.windows.size(), {});
    fenceCursor_.assign(defs_.windows.size(), 0);
    for (WinId id = 0; id < defs_.windows.size(); ++id) {
      std::vector<DoubleInt>& list = mine[id];
      if (list.empty()) continue;
      const CommRanks ranks = commRanks(defs_, defs_.windows[id].comm, ctx_.worldRank, ctx_.worldSize);
      const MPI_Comm comm = ranks.self ? MPI_COMM_SELF : ctx_.comms.get(defs_.windows[id].comm);
      if (comm == MPI_COMM_NULL || !ranks.problem.empty()) continue;
      const int rank = static_cast<int>(ranks.commRankOfWorld.at(ctx_.worldRank));
      for (DoubleInt& d : list) d.rank = rank;
      std::vector<DoubleInt> reduced(list.size());
      for (std::size_t from = 0; from < list.size(); from += 2 * kBatch) {
        const std::size_t n = std::min(2 * kBatch, list.size() - from);
        replay::callAndWait(ctx_.comms.nodeOversubscribed(), MPI_Iallreduce, list.data() + from, reduced.data() + from,
                            static_cast<int>(n), MPI_DOUBLE_INT, MPI_MAXLOC, comm);
      }
      auto& out = fenceOverlaps_[id];
      for (std::size_t k = 0; k + 1 < reduced.size(); k += 2)
        out.push_back({reduced[k].value, reduced[k].rank, -reduced[k + 1].value});
    }
  }

  void onFence(WinId id, const Call& call) {
    ExchangeWindow* found = find(id);
    if (!found) return;
    ExchangeWindow& w = *found;
    const Overlap o = fenceCursor_[id] < fenceOverlaps_[id].size() ? fenceOverlaps_[id][fenceCursor_[id]++]
                                                                    : overlap(w.comm, w.rank, call);
    if (w.fences++ == 0) {  // the first fence closes no epoch
      if (o.synchronizing() && call.path != kNone)
        ctx_.severities.addWait(Metric::MpiRmaWaitAtFence, call.path, call.enter, o.latestEnter,
                                worldOf(w, o.latestRank));
      // Scalasca counts every fence: with no epoch before it, no pair accessed anything.
      if (call.path != kNone) {
        ctx_.severities.add(Metric::RmaPairsyncCount, call.path, static_cast<double>(w.size));
        ctx_.severities.add(Metric::RmaPairsyncUnneededCount, call.path, static_cast<double>(w.size));
      }
      return;
    }
    const auto epoch = static_cast<std::uint32_t>(w.pendingFences.size());
    w.pendingFences.push_back({call, o});
    for (const auto& [target, exit] : w.fenceLastExit) w.pendingExits.push_back({epoch, target, exit});
    w.fenceLastExit.clear();
    // Every member has recorded equally many fences on the window (validated),
    // so all of them exchange at the same fences.
    if (w.pendingFences.size() == kFenceBatch) exchangeFences(w);
  }

  // The exchange of a batch of closed fence epochs, in an exchange epoch of
  // its own (so GATS epochs on the same window may come in between): fence,
  // per target one MPI_Accumulate(MAXLOC) of the epochs' last transfer exits
  // and one MPI_Accumulate(BOR) of this rank's access bits, fence; then each
  // fence's Early Fence, Wait at Fence and pair counts from the own fence area,
  // which is reset before the next batch's opening fence lets origins write.
  void exchangeFences(ExchangeWindow& w) {
    if (w.pendingFences.empty()) return;
    fence(w, MPI_MODE_NOPRECEDE);
    const std::size_t n = w.pendingFences.size();
    std::stable_sort(w.pendingExits.begin(), w.pendingExits.end(),
                     [](const EpochExit& a, const EpochExit& b) { return a.target < b.target; });
    std::vector<std::vector<MaxLocKey>> exits;  // kept until the fence completes the accumulates
    std::vector<std::vector<std::uint64_t>> bits;
    const std::uint64_t mine = std::uint64_t{1} << (static_cast<unsigned>(w.rank) % 64);
    const std::size_t myWord = static_cast<std::size_t>(w.rank) / 64;
    for (std::size_t from = 0; from < w.pendingExits.size();) {
      const int target = w.pendingExits[from].target;
      std::vector<MaxLocKey>& e = exits.emplace_back(n, w.maxLoc.none());
      std::vector<std::uint64_t>& b = bits.emplace_back(n * w.words, 0);
      for (; from < w.pendingExits.size() && w.pendingExits[from].target == target; ++from) {
        const EpochExit& x = w.pendingExits[from];
        e[x.epoch] = w.maxLoc.encode(x.exit, w.rank);
        b[x.epoch * w.words + myWord] = mine;
      }
      accumulate(w, e.data(), static_cast<int>(2 * n), target, w.fenceSlotsOffset(), Combine::Max);
      accumulate(w, b.data(), static_cast<int>(n * w.words), target, w.fenceBitsOffset(), Combine::Or);
    }
    fence(w, MPI_MODE_NOSUCCEED);

    const MaxLocKey* slots = w.fenceSlots();
    const std::uint64_t* accessed = w.fenceBits();
    // Per epoch, the members this rank accessed.
    std::vector<std::vector<bool>> accessedByMe(n, std::vector<bool>(static_cast<std::size_t>(w.size), false));
    for (const EpochExit& x : w.pendingExits) accessedByMe[x.epoch][static_cast<std::size_t>(x.target)] = true;
    for (std::size_t k = 0; k < n; ++k) {
      const Call& call = w.pendingFences[k].call;
      const Overlap& o = w.pendingFences[k].overlap;
      double waitAtFence = o.synchronizing() ? o.latestEnter - call.enter : 0.0;
      Rank waitCause = worldOf(w, o.latestRank);
      const double end = std::min(w.maxLoc.time(slots[k]), call.leave);
      if (end > call.enter && call.path != kNone) {
        const Rank cause = worldOf(w, w.maxLoc.rank(slots[k]));
        ctx_.severities.addWait(Metric::MpiRmaEarlyFence, call.path, call.enter, end, cause);
        if (end - call.enter > waitAtFence) {
          waitAtFence = end - call.enter;
          waitCause = cause;
        }
      }
      // Pairwise synchronizations per epoch: every other member may have accessed this rank.
      // Scalasca's count: every member, needed when either of the pair accessed the other.
      double unneeded = 0.0, unneededBothWays = 0.0;
      for (int r = 0; r < w.size; ++r) {
        const bool accessedMe = ExchangeWindow::bitSet(accessed + k * w.words, r);
        if (r != w.rank && !accessedMe) unneeded += 1.0;
        if (!accessedMe && !accessedByMe[k][static_cast<std::size_t>(r)]) unneededBothWays += 1.0;
      }
      if (call.path != kNone) {
        ctx_.severities.add(Metric::RmaEpochPairsyncCount, call.path, static_cast<double>(w.size - 1));
        ctx_.severities.add(Metric::RmaEpochPairsyncUnneededCount, call.path, unneeded);
        ctx_.severities.add(Metric::RmaPairsyncCount, call.path, static_cast<double>(w.size));
        ctx_.severities.add(Metric::RmaPairsyncUnneededCount, call.path, unneededBothWays);
      }
      if (waitAtFence > 0.0 && call.path != kNone)
        ctx_.severities.addWait(Metric::MpiRmaWaitAtFence, call.path, call.enter, call.enter + waitAtFence, waitCause);
      // Transfers to this rank in the epoch: no member passed MPI_MODE_NOPRECEDE, so every member
      // had to enter before this fence could know they were complete.
      if (w.maxLoc.time(slots[k]) > kNever && call.leave < o.latestEnter) violation(call.path);
    }
    w.resetFences();
    w.pendingFences.clear();
    w.pendingExits.clear();
  }

  // ---- transfers ----
  void transfer(std::size_t i, const trace::RmaRecord& rec) {
    ExchangeWindow* found = find(rec.win);
    if (!found || rec.remote >= static_cast<std::uint32_t>(found->size)) return;
    ExchangeWindow& w = *found;
    const Call call = callAround(ctx_, i);
    const int target = static_cast<int>(rec.remote);
    if (w.accessOpen) {
      if (std::find(w.targets.begin(), w.targets.end(), target) != w.targets.end())
        w.transfers.push_back({target, call.enter, call.leave, call.path});
    } else if (w.passiveEpochs == 0) {
      auto [it, inserted] = w.fenceLastExit.try_emplace(target, call.leave);
      if (!inserted) it->second = std::max(it->second, call.leave);
    }
  }

  // ---- general active target synchronization ----
  void groupSync(std::size_t i, const trace::RmaRecord& rec) {
    const std::optional<Call> call = ctx_.calls.callOf(i);
    ExchangeWindow* w = find(rec.win);
    if (!call || !w) return;
    switch (groupCall(ctx_.regionName(call->path))) {
      case GroupCall::Post: onPost(*w, *call, rec); break;
      case GroupCall::Start: onStart(*w, *call, rec); break;
      case GroupCall::Complete: onComplete(*w, *call); break;
      case GroupCall::Wait: onWait(*w, *call, true); break;
      case GroupCall::Test:
        if (rec.syncLevel != trace::kSyncNone) onWait(*w, *call, false);
        break;
      case GroupCall::Other: break;
    }
  }

  static MPI_Group subgroup(const ExchangeWindow& w, const std::vector<int>& ranks) {
    MPI_Group g = MPI_GROUP_EMPTY;
    if (!ranks.empty()) MPI_Group_incl(w.group, static_cast<int>(ranks.size()), ranks.data(), &g);
    return g;
  }
  static void freeGroup(MPI_Group& g) {
    if (g != MPI_GROUP_EMPTY) MPI_Group_free(&g);
  }

  void onPost(ExchangeWindow& w, const Call& call, const trace::RmaRecord& rec) {
    std::string problem;
    w.origins = groupInComm(defs_, rec.group, w.ranks, problem);
    w.header().postEnter = call.enter;
    w.resetGats();
    if (!w.local) {
      MPI_Group g = subgroup(w, w.origins);
      MPI_Win_post(g, 0, w.win);
      freeGroup(g);
    }
    w.exposureOpen = true;
  }

  void onStart(ExchangeWindow& w, const Call& call, const trace::RmaRecord& rec) {
    std::string problem;
    w.targets = groupInComm(defs_, rec.group, w.ranks, problem);
    if (!w.local) {
      MPI_Group g = subgroup(w, w.targets);
      MPI_Win_start(g, 0, w.win);
      freeGroup(g);
    }
    w.postEnter.assign(w.targets.size(), kNever);
    for (std::size_t k = 0; k < w.targets.size(); ++k) getDouble(w, &w.postEnter[k], w.targets[k], kPostEnter);
    w.start = call;
    w.transfers.clear();
    w.accessOpen = true;
  }

  void onComplete(ExchangeWindow& w, const Call& call) {
    if (!w.accessOpen) return;
    const std::size_t n = w.targets.size();
    const MaxLocKey completeEnter = w.maxLoc.encode(call.enter, w.rank);
    std::vector<double> lastExit(n, w.start.leave);
    std::vector<bool> accessed(n, false);
    for (const Transfer& t : w.transfers) {
      const auto k = static_cast<std::size_t>(std::find(w.targets.begin(), w.targets.end(), t.target) -
                                              w.targets.begin());
      if (!accessed[k]) lastExit[k] = t.leave;
      else lastExit[k] = std::max(lastExit[k], t.leave);
      accessed[k] = true;
    }
    const std::uint64_t bit = std::uint64_t{1} << (static_cast<unsigned>(w.rank) % 64);
    std::vector<MaxLocKey> lastExitKeys(n);  // kept until MPI_Win_complete completes the accumulates
    for (std::size_t k = 0; k < n; ++k) {
      const int target = w.targets[k];
      lastExitKeys[k] = w.maxLoc.encode(lastExit[k], w.rank);
      accumulate(w, &completeEnter, 2, target, kLatestComplete, Combine::Max);
      accumulate(w, &lastExitKeys[k], 2, target, kLatestOpGats, Combine::Max);
      if (accessed[k]) accumulate(w, &bit, 1, target, ExchangeWindow::gatsBitsOffset(w.rank), Combine::Or);
    }
    if (!w.local) MPI_Win_complete(w.win);
    w.accessOpen = false;
    // Scalasca counts the origin's side too: each target of the access epoch, unneeded if not
    // accessed.
    ctx_.severities.add(Metric::RmaPairsyncCount, call.path, static_cast<double>(n));
    ctx_.severities.add(Metric::RmaPairsyncUnneededCount, call.path,
                        static_cast<double>(std::count(accessed.begin(), accessed.end(), false)));

    // Late Post: the latest post of the epoch's targets, if it was entered
    // while MPI_Win_start (else MPI_Win_complete) was blocking.
    double latestPost = kNever;
    int latestTarget = -1;
    for (std::size_t k = 0; k < n; ++k)
      if (w.postEnter[k] > latestPost) {
        latestPost = w.postEnter[k];
        latestTarget = w.targets[k];
      }
    // The epoch ended before a target posted: MPI_Win_start and the transfers may return
    // early, but MPI_Win_complete returns only after the targets have exposed their windows.
    if (latestTarget >= 0 && call.leave < latestPost) violation(call.path);
    if (latestTarget >= 0) {
      const Rank cause = worldOf(w, latestTarget);
      if (latestPost > w.start.enter && latestPost < w.start.leave)
        ctx_.severities.addWait(Metric::MpiRmaSyncLatePost, w.start.path, w.start.enter, latestPost, cause);
      else if (latestPost > call.enter && latestPost < call.leave)
        ctx_.severities.addWait(Metric::MpiRmaSyncLatePost, call.path, call.enter, latestPost, cause);
    }
    // Early Transfer: a transfer whose interval contains its target's post.
    for (const Transfer& t : w.transfers) {
      const auto k = static_cast<std::size_t>(std::find(w.targets.begin(), w.targets.end(), t.target) -
                                              w.targets.begin());
      const double posted = w.postEnter[k];
      if (posted > t.enter && posted < t.leave && t.path != kNone)
        ctx_.severities.addWait(Metric::MpiRmaEarlyTransfer, t.path, t.enter, posted, worldOf(w, t.target));
      if (call.leave < posted) violation(t.path);
    }
    w.transfers.clear();
  }

  // `isWait`: MPI_Win_wait, else a completing MPI_Win_test (which Scalasca does not count).
  void onWait(ExchangeWindow& w, const Call& call, bool isWait) {
    if (!w.exposureOpen) return;
    if (!w.local) MPI_Win_wait(w.win);
    w.exposureOpen = false;
    const Header& h = w.header();
    if (call.leave < w.maxLoc.time(h.latestComplete)) violation(call.path);
    // Early Wait: entered before the last origin entered MPI_Win_complete.
    const double end = std::min(w.maxLoc.time(h.latestComplete), call.leave);
    if (end > call.enter) {
      const Rank cause = worldOf(w, w.maxLoc.rank(h.latestComplete));
      ctx_.severities.addWait(Metric::MpiRmaEarlyWait, call.path, call.enter, end, cause);
      // Late Complete: the part after the origins' last transfer had ended.
      const double from = std::max(w.maxLoc.time(h.latestOpGats), call.enter);
      if (end > from) ctx_.severities.addWait(Metric::MpiRmaLateComplete, call.path, from, end, cause);
    }
    double pairs = 0.0, unneeded = 0.0, unaccessed = 0.0;
    for (const int r : w.origins) {
      const bool accessedMe = ExchangeWindow::bitSet(w.gatsBits(), r);
      if (!accessedMe) unaccessed += 1.0;
      if (r == w.rank) continue;
      pairs += 1.0;
      if (!accessedMe) unneeded += 1.0;
    }
    ctx_.severities.add(Metric::RmaEpochPairsyncCount, call.path, pairs);
    ctx_.severities.add(Metric::RmaEpochPairsyncUnneededCount, call.path, unneeded);
    if (isWait) {  // Scalasca's count: every member of the post group
      ctx_.severities.add(Metric::RmaPairsyncCount, call.path, static_cast<double>(w.origins.size()));
      ctx_.severities.add(Metric::RmaPairsyncUnneededCount, call.path, unaccessed);
    }
  }

  // A clock-condition violation shown by the call on `path`.
  void violation(trace::CallPathId path) {
    ++violations_;
    if (path != kNone) ctx_.severities.add(Metric::ClockViolationsRma, path, 1.0);
  }

  ReplayContext& ctx_;
  const trace::Definitions& defs_;
  std::uint64_t violations_ = 0;
  MPI_Win mutex_ = MPI_WIN_NULL;
  std::unordered_map<WinId, ExchangeWindow> windows_;
  std::vector<std::vector<Overlap>> fenceOverlaps_;  // per window, every fence in trace order
  std::vector<std::size_t> fenceCursor_;
};

}  // namespace

std::string RmaActive::validate() const { return validateRmaActive(ctx_); }

std::uint64_t RmaActive::detect() { return ActiveReplay(ctx_).run(); }

}  // namespace waitscope::patterns
