// RMA active-target patterns (Hermanns, Geimer, Mohr, Wolf, EuroPVM/MPI 2009 and IJHPCA 2012).
// Their forward detection needs only the raw times of the matching remote synchronization calls,
// never remote results, so the replay takes three steps over this rank's events:
//   1. a walk that notes, per epoch, what the partners need: a target's post enter for each origin
//      of its exposure epoch; an origin's complete enter, last transfer exit and access for each
//      target of its access epoch; per closed fence epoch the last transfer exit to each target;
//   2. one exchange of the notes by RMA (replay::PutExchange: MPI_Put into a window over all
//      analysis ranks, in one fence epoch);
//   3. a second walk that pairs the notes with the local calls and evaluates the patterns in trace
//      order. The k-th access epoch of an origin towards a target matches the k-th exposure epoch
//      of the target that includes it (MPI's matching, validated per pair and window); a fence
//      epoch is named by its closing fence's ordinal on the window (validated equal counts).
// Wait at Create, Wait at Free and Wait at Fence need each call's latest enter and earliest exit
// over the window's members: MPI_Allreduce(MAXLOC) per window and batch, before the walks.
// docs/patterns/rma_active.md describes the definitions and the choices made.
#include "analysis/patterns/rma_active_patterns.h"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "analysis/patterns/max_loc_key.h"
#include "analysis/patterns/rma_active_calls.h"
#include "analysis/patterns/rma_active_validation.h"
#include "analysis/patterns/rma_window_ranks.h"
#include "analysis/replay/put_exchange.h"

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
using trace::EventKind;
using trace::kNone;
using trace::Rank;
using trace::WinId;

constexpr double kNever = -std::numeric_limits<double>::infinity();

// MPI_DOUBLE_INT's layout, for MPI_MAXLOC in collectives.
struct DoubleInt {
  double value;
  int rank;
};
static_assert(sizeof(DoubleInt) == 16, "MPI_DOUBLE_INT is a double followed by an int, padded to 16 bytes");

// The latest enter (with its communicator rank) and the earliest exit of one collective window
// call over the window's members.
struct Overlap {
  double latestEnter;
  int latestRank;
  double earliestExit;
  bool synchronizing() const { return latestEnter < earliestExit; }
};

// ============================================================ the notes

// Target -> each origin of its exposure epoch.
struct PostNote {
  WinId win;
  double postEnter;
};
// Origin -> each target of its access epoch. MaxLocKey (max_loc_key.h) makes the maximum over
// origins an exact integer maximum that also names the latest origin, lowest rank on ties.
struct CompleteNote {
  WinId win;
  std::uint32_t accessed;  // 1 if the origin issued a transfer to the target in the epoch
  MaxLocKey completeEnter;
  MaxLocKey lastTransferExit;  // or the exit of MPI_Win_start without transfers
};
// Origin -> each target it accessed in a fence epoch.
struct FenceNote {
  WinId win;
  std::int32_t origin;  // rank in the window's communicator
  std::uint64_t fence;  // ordinal of the closing fence among the window's fences
  MaxLocKey lastTransferExit;
};
static_assert(std::is_trivially_copyable_v<PostNote> && std::is_trivially_copyable_v<CompleteNote> &&
              std::is_trivially_copyable_v<FenceNote>);

// What this rank sends to one rank: three lists, each after its length.
struct Outbox {
  std::vector<PostNote> posts;
  std::vector<CompleteNote> completes;
  std::vector<FenceNote> fences;
};

template <class T>
void append(std::vector<std::byte>& out, const std::vector<T>& notes) {
  const std::uint64_t count = notes.size();
  const auto* c = reinterpret_cast<const std::byte*>(&count);
  out.insert(out.end(), c, c + sizeof count);
  const auto* p = reinterpret_cast<const std::byte*>(notes.data());
  out.insert(out.end(), p, p + notes.size() * sizeof(T));
}

template <class T>
std::span<const std::byte> take(std::span<const std::byte> in, std::vector<T>& notes) {
  std::uint64_t count = 0;
  std::memcpy(&count, in.data(), sizeof count);
  in = in.subspan(sizeof count);
  const std::size_t at = notes.size();
  notes.resize(at + count);
  if (count > 0) std::memcpy(notes.data() + at, in.data(), count * sizeof(T));
  return in.subspan(count * sizeof(T));
}

// A sender's notes of one window, in its order; next() gives them one at a time.
template <class T>
class NoteQueues {
 public:
  void add(Rank from, std::span<const T> notes) {
    for (const T& n : notes) byKey_[key(n.win, from)].notes.push_back(n);
  }
  const T* next(WinId win, Rank from) {
    const auto it = byKey_.find(key(win, from));
    if (it == byKey_.end() || it->second.next == it->second.notes.size()) return nullptr;
    return &it->second.notes[it->second.next++];
  }

 private:
  struct Queue {
    std::vector<T> notes;
    std::size_t next = 0;
  };
  static std::uint64_t key(WinId win, Rank from) { return std::uint64_t{win} << 32 | from; }
  std::unordered_map<std::uint64_t, Queue> byKey_;
};

// ============================================================ the replay

struct Transfer {  // an RMA operation of this rank, by its enclosing call
  int target;
  double enter;
  double leave;
  trace::CallPathId path;
};

// A window while it lives, as this rank sees it.
struct Window {
  WinId id = kNone;
  CommRanks ranks;
  int rank = 0;
  int size = 1;
  MaxLocCoder maxLoc{1};
  int passiveEpochs = 0;  // open lock epochs: their transfers belong to the passive-target analysis

  // access epoch (origin)
  bool accessOpen = false;
  Call start;
  std::vector<int> targets;
  std::vector<double> postEnter;  // per target, of the matching exposure epoch
  std::vector<Transfer> transfers;

  // exposure epoch (target)
  bool exposureOpen = false;
  std::vector<int> origins;

  // fences
  std::uint64_t fences = 0;             // in this lifetime
  std::map<int, double> fenceLastExit;  // target -> exit of the last transfer since the previous fence

  std::size_t targetIndex(int target) const {
    return static_cast<std::size_t>(std::find(targets.begin(), targets.end(), target) - targets.begin());
  }
};

enum class Pass { Note, Evaluate };

class ActiveReplay {
 public:
  explicit ActiveReplay(ReplayContext& ctx) : ctx_(ctx), defs_(ctx.defs()) {}

  // Returns the clock-condition violations found.
  std::uint64_t run() {
    if (defs_.windows.empty()) return 0;  // every rank sees the same definitions
    reduceOverlaps();
    walk(Pass::Note);
    exchangeNotes();
    walk(Pass::Evaluate);
    return violations_;
  }

 private:
  enum Kind : std::size_t { kCreate, kFree, kFence, kKinds };

  // Both passes walk the same events with the same window and epoch states; what differs is what
  // a closing call does with them (notes for the partners, or the patterns).
  void walk(Pass pass) {
    pass_ = pass;
    windows_.clear();
    fenceOrdinal_.assign(defs_.windows.size(), 0);
    for (auto& cursors : overlapCursor_) cursors.fill(0);
    const auto& ev = ctx_.events;
    const std::vector<std::uint32_t>& nonRegion = ctx_.calls.nonRegionEvents();
    for (std::size_t k = 0; k < nonRegion.size(); ++k) {
      const std::uint32_t i = nonRegion[k];
      const trace::Event& e = ctx_.calls.nonRegionEvent(k);
      switch (e.kind) {
        case EventKind::RmaCollectiveEnd: {
          const auto& rec = ev.collective(e);
          const WindowCall kind = windowCall(rec.op);
          if (kind == WindowCall::Other) break;
          const Call call = callAround(ctx_, i);
          if (kind == WindowCall::Create) onCreate(rec.object, call);
          else if (kind == WindowCall::Free) onFree(rec.object, call);
          else onFence(rec.object, call);
          break;
        }
        case EventKind::RmaGroupSync: groupSync(i, ev.rmaRecord(e)); break;
        case EventKind::RmaPut:
        case EventKind::RmaGet:
        case EventKind::RmaAtomic: transfer(i, ev.rmaRecord(e)); break;
        case EventKind::RmaRequestLock:
          if (Window* w = find(ev.rmaRecord(e).win)) ++w->passiveEpochs;
          break;
        case EventKind::RmaReleaseLock:
          if (Window* w = find(ev.rmaRecord(e).win)) w->passiveEpochs = std::max(0, w->passiveEpochs - 1);
          break;
        default: break;
      }
    }
    windows_.clear();
  }

  Window* find(WinId id) {
    const auto it = windows_.find(id);
    return it == windows_.end() ? nullptr : &it->second;
  }

  Rank worldOf(const Window& w, int commRank) const { return w.ranks.members[static_cast<std::size_t>(commRank)]; }
  Outbox& outbox(const Window& w, int commRank) { return outboxes_[worldOf(w, commRank)]; }

  // ---- the overlaps of create, free and fence calls ----
  // They do not depend on any epoch, so they are reduced before the walks: per window one
  // MPI_Iallreduce(MAXLOC) of (enter, -exit) per batch, creates, frees and fences one after
  // another. Members call each equally often on a window (validated), and every rank takes the
  // windows in id order.
  void reduceOverlaps() {
    constexpr std::size_t kBatch = 1 << 15;  // calls per reduction: bounds memory, keeps messages large
    std::vector<std::array<std::vector<DoubleInt>, kKinds>> mine(defs_.windows.size());  // (enter, -exit) per call
    const auto& ev = ctx_.events;
    const std::vector<std::uint32_t>& nonRegion = ctx_.calls.nonRegionEvents();
    for (std::size_t k = 0; k < nonRegion.size(); ++k) {
      const trace::Event& e = ctx_.calls.nonRegionEvent(k);
      if (e.kind != EventKind::RmaCollectiveEnd) continue;
      const auto& rec = ev.collective(e);
      const WindowCall call = windowCall(rec.op);
      if (call == WindowCall::Other || rec.object >= mine.size()) continue;
      const Kind kind = call == WindowCall::Create ? kCreate : call == WindowCall::Free ? kFree : kFence;
      const Call around = callAround(ctx_, nonRegion[k]);
      mine[rec.object][kind].push_back({around.enter, 0});
      mine[rec.object][kind].push_back({-around.leave, 0});
    }
    overlaps_.assign(defs_.windows.size(), {});
    overlapCursor_.assign(defs_.windows.size(), {});
    for (WinId id = 0; id < defs_.windows.size(); ++id) {
      std::vector<DoubleInt> list;
      for (const auto& calls : mine[id]) list.insert(list.end(), calls.begin(), calls.end());
      if (list.empty()) continue;
      const CommRanks ranks = commRanks(defs_, defs_.windows[id].comm, ctx_.worldRank, ctx_.worldSize);
      const replay::LocationComm* comm = ctx_.comms.get(defs_.windows[id].comm);
      if (!comm || !ranks.problem.empty()) continue;
      const int rank = static_cast<int>(ranks.commRankOf(ctx_.worldRank));
      for (DoubleInt& d : list) d.rank = rank;
      std::vector<DoubleInt> reduced(list.size());
      for (std::size_t from = 0; from < list.size(); from += 2 * kBatch) {
        const std::size_t n = std::min(2 * kBatch, list.size() - from);
        comm->allreduce(list.data() + from, reduced.data() + from, static_cast<int>(n), MPI_DOUBLE_INT, MPI_MAXLOC);
      }
      std::size_t at = 0;
      for (std::size_t kind = 0; kind < kKinds; ++kind) {
        auto& out = overlaps_[id][kind];
        for (std::size_t k = 0; k < mine[id][kind].size(); k += 2, at += 2)
          out.push_back({reduced[at].value, reduced[at].rank, -reduced[at + 1].value});
      }
    }
  }

  // The next call of `kind` on the window; a call the reduction did not see overlaps only itself.
  Overlap overlapOf(const Window& w, Kind kind, const Call& call) {
    std::size_t& next = overlapCursor_[w.id][kind];
    const auto& list = overlaps_[w.id][kind];
    if (next < list.size()) return list[next++];
    return {call.enter, w.rank, call.leave};
  }

  // ---- the exchange ----
  void exchangeNotes() {
    // Nothing at all to the ranks without notes (the receivers skip empty strings): an empty
    // vector per rank is all this costs per rank of the world.
    std::vector<std::vector<std::byte>> out(static_cast<std::size_t>(ctx_.worldSize));
    for (const auto& [r, box] : outboxes_) {
      if (r >= out.size()) continue;  // window members are world ranks (commRanks checks)
      append(out[r], box.posts);
      append(out[r], box.completes);
      append(out[r], box.fences);
    }
    outboxes_ = {};
    const replay::PutExchange in(out, ctx_.comms.world());
    out = {};
    std::vector<PostNote> posts;
    std::vector<CompleteNote> completes;
    std::vector<FenceNote> fences;
    for (int s = 0; s < in.sources(); ++s) {
      std::span<const std::byte> bytes = in.from(s);
      if (bytes.empty()) continue;
      posts.clear();
      completes.clear();
      bytes = take(take(bytes, posts), completes);
      take(bytes, fences);
      posts_.add(static_cast<Rank>(s), posts);
      completes_.add(static_cast<Rank>(s), completes);
    }
    std::sort(fences.begin(), fences.end(), [](const FenceNote& a, const FenceNote& b) {
      if (a.win != b.win) return a.win < b.win;
      if (a.fence != b.fence) return a.fence < b.fence;
      return a.origin < b.origin;
    });
    fenceNotes_ = std::move(fences);
    fenceNext_.assign(defs_.windows.size(), 0);
    for (WinId id = 0; id < defs_.windows.size(); ++id)
      fenceNext_[id] = static_cast<std::size_t>(
          std::lower_bound(fenceNotes_.begin(), fenceNotes_.end(), id,
                           [](const FenceNote& n, WinId win) { return n.win < win; }) -
          fenceNotes_.begin());
  }

  // ---- window lifetime ----
  void onCreate(WinId id, const Call& call) {
    Window& w = windows_[id];
    w = Window{};
    w.id = id;
    w.ranks = commRanks(defs_, defs_.windows[id].comm, ctx_.worldRank, ctx_.worldSize);
    w.rank = static_cast<int>(w.ranks.commRankOf(ctx_.worldRank));
    w.size = static_cast<int>(w.ranks.members.size());
    w.maxLoc = MaxLocCoder(w.size);
    if (pass_ == Pass::Evaluate) collectiveWait(Metric::MpiRmaWaitAtCreate, w, overlapOf(w, kCreate, call), call);
  }

  void onFree(WinId id, const Call& call) {
    Window* w = find(id);
    if (!w) return;
    if (pass_ == Pass::Evaluate) collectiveWait(Metric::MpiRmaWaitAtFree, *w, overlapOf(*w, kFree, call), call);
    windows_.erase(id);
  }

  // Wait at Create / Wait at Free: the call is synchronizing if every member
  // entered it before any left it; then the wait is the latest enter minus
  // this rank's enter. The standard does not promise that either synchronizes,
  // so leaving early is no clock-condition violation.
  void collectiveWait(Metric metric, const Window& w, const Overlap& o, const Call& call) {
    if (o.synchronizing() && call.path != kNone)
      ctx_.severities.addWait(metric, call.path, call.enter, o.latestEnter, worldOf(w, o.latestRank));
  }

  // ---- fences ----
  void onFence(WinId id, const Call& call) {
    Window* found = find(id);
    if (!found) return;
    Window& w = *found;
    const std::uint64_t ordinal = fenceOrdinal_[id]++;
    const bool first = w.fences++ == 0;  // the first fence closes no epoch
    if (pass_ == Pass::Note) {
      if (first) return;
      for (const auto& [target, exit] : w.fenceLastExit)
        outbox(w, target).fences.push_back({id, w.rank, ordinal, w.maxLoc.encode(exit, w.rank)});
      w.fenceLastExit.clear();
      return;
    }
    const Overlap o = overlapOf(w, kFence, call);
    if (first) {
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
    // The epoch's transfers to this rank: the latest exit (MAXLOC over origins) and who accessed it.
    MaxLocKey latestExit = MaxLocCoder::none();
    std::vector<bool> accessedMe(static_cast<std::size_t>(w.size), false);
    std::size_t& next = fenceNext_[id];
    for (; next < fenceNotes_.size() && fenceNotes_[next].win == id && fenceNotes_[next].fence <= ordinal; ++next) {
      const FenceNote& n = fenceNotes_[next];
      if (n.fence < ordinal || n.origin < 0 || n.origin >= w.size) continue;
      latestExit = latest(latestExit, n.lastTransferExit);
      accessedMe[static_cast<std::size_t>(n.origin)] = true;
    }
    double waitAtFence = o.synchronizing() ? o.latestEnter - call.enter : 0.0;
    Rank waitCause = worldOf(w, o.latestRank);
    const double end = std::min(w.maxLoc.time(latestExit), call.leave);
    if (end > call.enter && call.path != kNone) {
      const Rank cause = worldOf(w, w.maxLoc.rank(latestExit));
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
      const bool accessed = accessedMe[static_cast<std::size_t>(r)];
      if (r != w.rank && !accessed) unneeded += 1.0;
      if (!accessed && !w.fenceLastExit.contains(r)) unneededBothWays += 1.0;
    }
    w.fenceLastExit.clear();
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
    if (w.maxLoc.time(latestExit) > kNever && call.leave < o.latestEnter) violation(call.path);
  }

  // ---- transfers ----
  void transfer(std::size_t i, const trace::RmaRecord& rec) {
    Window* found = find(rec.win);
    if (!found || rec.remote >= static_cast<std::uint32_t>(found->size)) return;
    Window& w = *found;
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
    Window* w = find(rec.win);
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

  void onPost(Window& w, const Call& call, const trace::RmaRecord& rec) {
    std::string problem;
    w.origins = groupInComm(defs_, rec.group, w.ranks, problem);
    if (pass_ == Pass::Note)
      for (const int origin : w.origins) outbox(w, origin).posts.push_back({w.id, call.enter});
    w.exposureOpen = true;
  }

  void onStart(Window& w, const Call& call, const trace::RmaRecord& rec) {
    std::string problem;
    w.targets = groupInComm(defs_, rec.group, w.ranks, problem);
    w.postEnter.assign(w.targets.size(), kNever);
    if (pass_ == Pass::Evaluate)
      for (std::size_t k = 0; k < w.targets.size(); ++k)
        if (const PostNote* n = posts_.next(w.id, worldOf(w, w.targets[k]))) w.postEnter[k] = n->postEnter;
    w.start = call;
    w.transfers.clear();
    w.accessOpen = true;
  }

  void onComplete(Window& w, const Call& call) {
    if (!w.accessOpen) return;
    w.accessOpen = false;
    const std::size_t n = w.targets.size();
    if (pass_ == Pass::Note) {
      std::vector<double> lastExit(n, w.start.leave);
      std::vector<bool> accessed(n, false);
      for (const Transfer& t : w.transfers) {
        const std::size_t k = w.targetIndex(t.target);
        lastExit[k] = accessed[k] ? std::max(lastExit[k], t.leave) : t.leave;
        accessed[k] = true;
      }
      const MaxLocKey completeEnter = w.maxLoc.encode(call.enter, w.rank);
      for (std::size_t k = 0; k < n; ++k)
        outbox(w, w.targets[k])
            .completes.push_back({w.id, accessed[k] ? 1U : 0U, completeEnter, w.maxLoc.encode(lastExit[k], w.rank)});
      w.transfers.clear();
      return;
    }
    std::vector<bool> accessed(n, false);
    for (const Transfer& t : w.transfers) accessed[w.targetIndex(t.target)] = true;
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
      const double posted = w.postEnter[w.targetIndex(t.target)];
      if (posted > t.enter && posted < t.leave && t.path != kNone)
        ctx_.severities.addWait(Metric::MpiRmaEarlyTransfer, t.path, t.enter, posted, worldOf(w, t.target));
      if (call.leave < posted) violation(t.path);
    }
    w.transfers.clear();
  }

  // `isWait`: MPI_Win_wait, else a completing MPI_Win_test (which Scalasca does not count).
  void onWait(Window& w, const Call& call, bool isWait) {
    if (!w.exposureOpen) return;
    w.exposureOpen = false;
    if (pass_ == Pass::Note) return;
    // The matching access epoch of every origin: MAXLOC of their complete enters and last
    // transfer exits, and which of them accessed this rank.
    MaxLocKey latestComplete = MaxLocCoder::none(), latestTransfer = MaxLocCoder::none();
    std::vector<bool> accessedMe(static_cast<std::size_t>(w.size), false);
    for (const int r : w.origins) {
      const CompleteNote* n = completes_.next(w.id, worldOf(w, r));
      if (!n) continue;
      latestComplete = latest(latestComplete, n->completeEnter);
      latestTransfer = latest(latestTransfer, n->lastTransferExit);
      if (n->accessed != 0) accessedMe[static_cast<std::size_t>(r)] = true;
    }
    if (call.leave < w.maxLoc.time(latestComplete)) violation(call.path);
    // Early Wait: entered before the last origin entered MPI_Win_complete.
    const double end = std::min(w.maxLoc.time(latestComplete), call.leave);
    if (end > call.enter) {
      const Rank cause = worldOf(w, w.maxLoc.rank(latestComplete));
      ctx_.severities.addWait(Metric::MpiRmaEarlyWait, call.path, call.enter, end, cause);
      // Late Complete: the part after the origins' last transfer had ended.
      const double from = std::max(w.maxLoc.time(latestTransfer), call.enter);
      if (end > from) ctx_.severities.addWait(Metric::MpiRmaLateComplete, call.path, from, end, cause);
    }
    double pairs = 0.0, unneeded = 0.0, unaccessed = 0.0;
    for (const int r : w.origins) {
      const bool accessed = accessedMe[static_cast<std::size_t>(r)];
      if (!accessed) unaccessed += 1.0;
      if (r == w.rank) continue;
      pairs += 1.0;
      if (!accessed) unneeded += 1.0;
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
  Pass pass_ = Pass::Note;
  std::uint64_t violations_ = 0;
  std::unordered_map<WinId, Window> windows_;
  std::vector<std::uint64_t> fenceOrdinal_;  // per window: fences walked so far, over all lifetimes
  std::vector<std::array<std::vector<Overlap>, kKinds>> overlaps_;  // per window and kind, in trace order
  std::vector<std::array<std::size_t, kKinds>> overlapCursor_;
  // Per world rank that has notes, filled by the first walk: a location writes to the few
  // partners of its windows, and with many ranks per analysis process an entry for every rank of
  // the world, in every location, took more memory than the events.
  std::map<Rank, Outbox> outboxes_;
  NoteQueues<PostNote> posts_;
  NoteQueues<CompleteNote> completes_;
  std::vector<FenceNote> fenceNotes_;  // by window, closing fence and origin
  std::vector<std::size_t> fenceNext_;  // per window: its first note not yet evaluated
};

}  // namespace

std::string RmaActive::validate() const { return validateRmaActive(ctx_); }

std::uint64_t RmaActive::detect() { return ActiveReplay(ctx_).run(); }

}  // namespace waitscope::patterns
