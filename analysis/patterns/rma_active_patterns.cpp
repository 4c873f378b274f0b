// RMA active-target patterns (seeds 000 and 003; causes as in seed 001),
// replayed with RMA: every application window gets an exchange window over the
// same ranks, and every recorded synchronization call is re-enacted on it, in
// trace order, carrying the timestamps the patterns need:
//   MPI_Win_post     target writes its post-enter time into its own buffer, resets
//                    the GATS fields, MPI_Win_post(origins)
//   MPI_Win_start    MPI_Win_start(targets), MPI_Get of every target's post-enter time
//   MPI_Win_complete MPI_Accumulate(MAXLOC) of the complete-enter time and of the
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
// docs/patterns/rma_active.md describes the definitions and the choices made.
#include "analysis/patterns/rma_active_patterns.h"

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <limits>
#include <map>
#include <new>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "analysis/replay/yielding_wait.h"

namespace waitscope::patterns {
namespace {

using replay::Call;
using replay::ReplayContext;
using trace::CollectiveOp;
using trace::CommId;
using trace::EventKind;
using trace::kNone;
using trace::Rank;
using trace::WinId;

constexpr double kNever = -std::numeric_limits<double>::infinity();

// ============================================================ shared helpers

// The synchronization calls that write an RMA_GROUP_SYNC record.
enum class GroupCall { Post, Start, Complete, Wait, Test, Other };

GroupCall groupCall(const std::string& region) {
  if (region == "MPI_Win_post") return GroupCall::Post;
  if (region == "MPI_Win_start") return GroupCall::Start;
  if (region == "MPI_Win_complete") return GroupCall::Complete;
  if (region == "MPI_Win_wait") return GroupCall::Wait;
  if (region == "MPI_Win_test") return GroupCall::Test;
  return GroupCall::Other;
}

enum class WindowCall { Create, Free, Fence, Other };

WindowCall windowCall(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::CreateHandle:
    case CollectiveOp::CreateHandleAndAllocate:
      return WindowCall::Create;
    case CollectiveOp::DestroyHandle:
    case CollectiveOp::DestroyHandleAndDeallocate:
      return WindowCall::Free;
    case CollectiveOp::Barrier:
      return WindowCall::Fence;
    default:
      return WindowCall::Other;
  }
}

bool isTransfer(EventKind kind) {
  return kind == EventKind::RmaPut || kind == EventKind::RmaGet || kind == EventKind::RmaAtomic;
}

// Ranks of one window's communicator: its members by rank, and the reverse map.
struct CommRanks {
  bool self = false;                              // MPI_COMM_SELF-like: only the calling rank
  std::vector<Rank> members;                      // world rank of comm rank i
  std::unordered_map<Rank, Rank> commRankOfWorld;
  std::string problem;                            // why the communicator cannot be used, if so
};

CommRanks commRanks(const trace::Definitions& defs, CommId comm, Rank me, int worldSize) {
  CommRanks out;
  if (comm >= defs.comms.size()) {
    out.problem = "is on communicator " + std::to_string(comm) + ", which the trace does not define";
    return out;
  }
  const trace::GroupId g = defs.comms[comm].group;
  if (g >= defs.groups.size()) {
    out.problem = "is on communicator " + std::to_string(comm) + ", whose group the trace does not define";
    return out;
  }
  if (defs.groups[g].type == trace::GroupType::CommSelf) {
    out.self = true;
    out.members = {me};
  } else {
    out.members = defs.groups[g].members;
  }
  for (Rank r = 0; r < out.members.size(); ++r) {
    if (out.members[r] >= static_cast<Rank>(worldSize)) {
      out.problem = "is on communicator " + std::to_string(comm) + ", whose rank " + std::to_string(r) +
                    " is world rank " + std::to_string(out.members[r]) + " but the analysis has only " +
                    std::to_string(worldSize) + " ranks";
      return out;
    }
    out.commRankOfWorld.emplace(out.members[r], r);
  }
  if (out.members.empty()) out.problem = "is on communicator " + std::to_string(comm) + ", which has no members";
  else if (!out.commRankOfWorld.contains(me))
    out.problem = "is on communicator " + std::to_string(comm) + ", which this rank is not part of";
  return out;
}

// Comm ranks of the world ranks of a group; empty `problem` when all are members.
std::vector<int> groupInComm(const trace::Definitions& defs, trace::GroupId group, const CommRanks& comm,
                             std::string& problem) {
  std::vector<int> ranks;
  if (group >= defs.groups.size()) {
    problem = "names group " + std::to_string(group) + ", which the trace does not define";
    return ranks;
  }
  const trace::Group& g = defs.groups[group];
  if (g.type == trace::GroupType::CommSelf) {
    ranks.push_back(static_cast<int>(comm.commRankOfWorld.at(comm.members.front())));
    return ranks;
  }
  for (const Rank world : g.members) {
    const auto it = comm.commRankOfWorld.find(world);
    if (it == comm.commRankOfWorld.end()) {
      problem = "names world rank " + std::to_string(world) + ", which is not part of the window's communicator";
      ranks.clear();
      return ranks;
    }
    ranks.push_back(static_cast<int>(it->second));
  }
  return ranks;
}

std::string describe(const ReplayContext& ctx, std::string_view what, WinId win, double time) {
  std::ostringstream out;
  out << "rank " << ctx.worldRank << ": " << what << " on window " << win << " at " << std::fixed
      << std::setprecision(9) << time << " s";
  return out.str();
}

// The call an event belongs to, or a zero-length one at the event's time.
Call callAround(const ReplayContext& ctx, std::size_t i) {
  if (const Call* call = ctx.calls.callOf(i)) return *call;
  Call none;
  none.enter = none.leave = ctx.events.events[i].time;
  return none;
}

std::string callName(const ReplayContext& ctx, const Call& call, std::string_view fallback) {
  return call.path == kNone ? std::string(fallback) : ctx.regionName(call.path);
}

// ============================================================ validation

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finalizer
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

class Validator {
 public:
  explicit Validator(const ReplayContext& ctx)
      : ctx_(ctx),
        defs_(ctx.defs()),
        peers_(static_cast<std::size_t>(ctx.worldSize)),
        counts_(defs_.windows.size()) {}

  std::string run() {
    walk();
    // Every rank takes part in both exchanges whatever it found locally, so a
    // bad trace cannot leave some ranks waiting in a collective.
    std::string countError = checkWindowCounts();
    std::string pairError = checkEpochPairs();
    // A rank's own finding (an epoch left open, a fence inside an epoch) is the
    // cause; the count mismatches other ranks see are its consequences, so
    // they are reported only when no rank found anything locally.
    const int mine = local_.empty() ? 0 : 1;
    int anyLocal = 0;
    replay::callAndWait(ctx_.comms.nodeOversubscribed(), MPI_Iallreduce, &mine, &anyLocal, 1, MPI_INT, MPI_MAX,
                        ctx_.comms.world());
    if (anyLocal != 0) return local_;
    if (!countError.empty()) return countError;
    return pairError;
  }

 private:
  struct Where {
    double time = 0.0;
    WinId win = kNone;
    bool set = false;
  };
  struct WindowState {
    bool live = false;
    bool access = false;
    bool exposure = false;
    Where accessAt, exposureAt;
  };
  struct WindowCounts {
    std::int64_t creates = 0, frees = 0, fences = 0;
    Where lastCreate, lastFree, lastFence;
  };
  struct Peer {  // epochs with one world rank as partner
    std::uint64_t access = 0, accessHash = 0, exposure = 0, exposureHash = 0;
    Where lastAccess, lastExposure;
  };

  void fail(const std::string& message) {
    if (local_.empty()) local_ = message;
  }

  const CommRanks* window(WinId win) {
    auto it = comms_.find(win);
    if (it == comms_.end()) {
      CommRanks ranks;
      if (win >= defs_.windows.size()) ranks.problem = "is not defined by the trace";
      else ranks = commRanks(defs_, defs_.windows[win].comm, ctx_.worldRank, ctx_.worldSize);
      it = comms_.emplace(win, std::move(ranks)).first;
    }
    return &it->second;
  }

  void walk() {
    const auto& ev = ctx_.events;
    const std::vector<std::uint32_t>& nonRegion = ctx_.calls.nonRegionEvents();
    for (std::size_t k = 0; k < nonRegion.size(); ++k) {
      if (!local_.empty()) break;
      const std::uint32_t i = nonRegion[k];
      const trace::Event& e = ctx_.calls.nonRegion()[k];
      if (e.kind == EventKind::RmaCollectiveEnd) {
        const auto& rec = ev.collective(e);
        const WindowCall kind = windowCall(rec.op);
        if (kind != WindowCall::Other) windowEvent(i, kind, rec.object);
      } else if (e.kind == EventKind::RmaGroupSync) {
        groupEvent(i, ev.rmaRecord(e));
      } else if (isTransfer(e.kind)) {
        const auto& rec = ev.rmaRecord(e);
        const CommRanks* comm = window(rec.win);
        if (comm->problem.empty() && rec.remote < comm->members.size()) continue;
        const Call call = callAround(ctx_, i);
        const std::string where = describe(ctx_, callName(ctx_, call, trace::name(e.kind)), rec.win, call.enter);
        if (!comm->problem.empty()) {
          fail(where + ": the window " + comm->problem);
        } else {
          fail(where + ": target rank " +
               (rec.remote == kNone ? std::string("undefined") : std::to_string(rec.remote)) +
               " is outside the window's communicator of " + std::to_string(comm->members.size()) + " ranks");
        }
      }
    }
    if (!local_.empty()) return;
    for (const auto& [win, state] : state_) unclosed(win, state, "", 0.0);
  }

  // An epoch still open at `closer` (MPI_Win_free) or at the end of the trace.
  void unclosed(WinId win, const WindowState& s, const std::string& closer, double at) {
    std::ostringstream until;
    if (closer.empty()) until << " before the end of the trace";
    else until << " before " << closer << " at " << std::fixed << std::setprecision(9) << at << " s";
    if (s.access)
      fail(describe(ctx_, "MPI_Win_start", win, s.accessAt.time) +
           ": the access epoch is not closed by MPI_Win_complete" + until.str());
    else if (s.exposure)
      fail(describe(ctx_, "MPI_Win_post", win, s.exposureAt.time) +
           ": the exposure epoch is not closed by MPI_Win_wait or a successful MPI_Win_test" + until.str());
  }

  void windowEvent(std::size_t i, WindowCall kind, WinId win) {
    const Call call = callAround(ctx_, i);
    const char* fallback = kind == WindowCall::Create ? "MPI_Win_create"
                           : kind == WindowCall::Free ? "MPI_Win_free"
                                                      : "MPI_Win_fence";
    // The message is built only when something is wrong: this runs for every fence.
    const auto name = [&] { return callName(ctx_, call, fallback); };
    const auto where = [&] { return describe(ctx_, name(), win, call.enter); };
    const CommRanks* comm = window(win);
    if (!comm->problem.empty()) return fail(where() + ": the window " + comm->problem);
    if (call.path == kNone) return fail(where() + ": the record is outside any MPI call");
    WindowState& s = state_[win];
    WindowCounts& c = counts_[win];
    const Where here{call.enter, win, true};
    switch (kind) {
      case WindowCall::Create:
        if (s.live) return fail(where() + ": the window already exists (created again before MPI_Win_free)");
        s.live = true;
        ++c.creates;
        c.lastCreate = here;
        break;
      case WindowCall::Free:
        if (!s.live) return fail(where() + ": the window does not exist (no MPI_Win_create before)");
        if (s.access) return unclosed(win, s, name(), call.enter);
        if (s.exposure) return unclosed(win, s, name(), call.enter);
        s.live = false;
        ++c.frees;
        c.lastFree = here;
        break;
      case WindowCall::Fence:
        if (!s.live) return fail(where() + ": the window does not exist (no MPI_Win_create before)");
        if (s.access) return fail(where() + ": inside an access epoch opened by MPI_Win_start");
        if (s.exposure) return fail(where() + ": inside an exposure epoch opened by MPI_Win_post");
        ++c.fences;
        c.lastFence = here;
        break;
      case WindowCall::Other:
        break;
    }
  }

  void groupEvent(std::size_t i, const trace::RmaRecord& rec) {
    const Call call = callAround(ctx_, i);
    const auto where = [&] { return describe(ctx_, callName(ctx_, call, "RMA_GROUP_SYNC"), rec.win, call.enter); };
    const GroupCall kind = call.path == kNone ? GroupCall::Other : groupCall(ctx_.regionName(call.path));
    if (kind == GroupCall::Other)
      return fail(where() + ": an RMA group synchronization record outside MPI_Win_post, _start, _complete, _wait "
                          "or _test");
    if (kind == GroupCall::Test && rec.syncLevel == trace::kSyncNone) return;  // unsuccessful test
    const CommRanks* comm = window(rec.win);
    if (!comm->problem.empty()) return fail(where() + ": the window " + comm->problem);
    WindowState& s = state_[rec.win];
    if (!s.live) return fail(where() + ": the window does not exist (no MPI_Win_create before)");
    const Where here{call.enter, rec.win, true};
    if (kind == GroupCall::Post || kind == GroupCall::Start) {
      std::string problem;
      const std::vector<int> group = groupInComm(defs_, rec.group, *comm, problem);
      if (!problem.empty()) return fail(where() + ": the group " + problem);
      if (kind == GroupCall::Post) {
        if (s.exposure) return fail(where() + ": an exposure epoch is already open (MPI_Win_post without MPI_Win_wait)");
        s.exposure = true;
        s.exposureAt = here;
      } else {
        if (s.access)
          return fail(where() + ": an access epoch is already open (MPI_Win_start without MPI_Win_complete)");
        s.access = true;
        s.accessAt = here;
      }
      for (const int r : group) {
        Peer& p = peers_[comm->members[static_cast<std::size_t>(r)]];
        if (kind == GroupCall::Post) {
          ++p.exposure;
          p.exposureHash += mix(rec.win);
          p.lastExposure = here;
        } else {
          ++p.access;
          p.accessHash += mix(rec.win);
          p.lastAccess = here;
        }
      }
    } else if (kind == GroupCall::Complete) {
      if (!s.access) return fail(where() + ": no access epoch is open (no MPI_Win_start before)");
      s.access = false;
    } else {
      if (!s.exposure) return fail(where() + ": no exposure epoch is open (no MPI_Win_post before)");
      s.exposure = false;
    }
  }

  // Every member of a window's communicator creates, fences and frees it equally often.
  std::string checkWindowCounts() {
    const std::size_t n = defs_.windows.size();
    if (n == 0) return {};
    constexpr std::int64_t kNeutral = std::numeric_limits<std::int64_t>::max();
    std::vector<std::int64_t> local(6 * n, kNeutral), global(6 * n, 0);
    std::vector<bool> shared(n, false);
    for (WinId w = 0; w < n; ++w) {
      const CommId comm = defs_.windows[w].comm;
      if (comm >= defs_.comms.size() || defs_.comms[comm].group >= defs_.groups.size()) continue;
      if (defs_.groups[defs_.comms[comm].group].type == trace::GroupType::CommSelf) continue;
      if (ctx_.comms.rank(comm) == kNone) continue;
      shared[w] = true;
      const WindowCounts& c = counts_[w];
      const std::int64_t values[3] = {c.creates, c.frees, c.fences};
      for (int k = 0; k < 3; ++k) {
        local[6 * w + 2 * k] = values[k];       // min
        local[6 * w + 2 * k + 1] = -values[k];  // -max
      }
    }
    replay::callAndWait(ctx_.comms.nodeOversubscribed(), MPI_Iallreduce, local.data(), global.data(),
                        static_cast<int>(6 * n), MPI_INT64_T, MPI_MIN, ctx_.comms.world());
    static constexpr const char* kCalls[3] = {"MPI_Win_create", "MPI_Win_free", "MPI_Win_fence"};
    for (WinId w = 0; w < n; ++w) {
      if (!shared[w]) continue;
      const WindowCounts& c = counts_[w];
      const std::int64_t values[3] = {c.creates, c.frees, c.fences};
      const Where lasts[3] = {c.lastCreate, c.lastFree, c.lastFence};
      for (int k = 0; k < 3; ++k) {
        const std::int64_t lo = global[6 * w + 2 * k], hi = -global[6 * w + 2 * k + 1];
        if (lo == hi || values[k] != hi) continue;
        std::ostringstream out;
        out << describe(ctx_, kCalls[k], w, lasts[k].time) << ": this rank calls " << kCalls[k] << " " << hi
            << " time(s) on the window, another rank of the window's communicator only " << lo << " time(s)";
        return out.str();
      }
    }
    return {};
  }

  // For every (origin, target) pair: access epochs of the origin that include
  // the target == exposure epochs of the target that include the origin (and
  // on the same windows, by a per-window checksum).
  std::string checkEpochPairs() {
    const auto n = static_cast<std::size_t>(ctx_.worldSize);
    std::vector<std::uint64_t> send(4 * n), recv(4 * n);
    for (std::size_t p = 0; p < n; ++p) {
      send[4 * p] = peers_[p].access;
      send[4 * p + 1] = peers_[p].accessHash;
      send[4 * p + 2] = peers_[p].exposure;
      send[4 * p + 3] = peers_[p].exposureHash;
    }
    replay::callAndWait(ctx_.comms.nodeOversubscribed(), MPI_Ialltoall, send.data(), 4, MPI_UINT64_T, recv.data(), 4,
                        MPI_UINT64_T, ctx_.comms.world());
    for (std::size_t p = 0; p < n; ++p) {
      const Peer& mine = peers_[p];
      const std::uint64_t theirAccess = recv[4 * p], theirAccessHash = recv[4 * p + 1];
      const std::uint64_t theirExposure = recv[4 * p + 2], theirExposureHash = recv[4 * p + 3];
      std::ostringstream out;
      if (mine.exposure > theirAccess || (mine.exposure == theirAccess && mine.exposureHash != theirAccessHash)) {
        out << describe(ctx_, "MPI_Win_post", mine.lastExposure.win, mine.lastExposure.time) << ": rank "
            << ctx_.worldRank << " opens " << mine.exposure << " exposure epoch(s) that include rank " << p
            << ", but rank " << p << " opens " << theirAccess << " access epoch(s) (MPI_Win_start) to it";
        if (mine.exposure == theirAccess) out << " on other windows";
        return out.str();
      }
      if (mine.access > theirExposure || (mine.access == theirExposure && mine.accessHash != theirExposureHash)) {
        out << describe(ctx_, "MPI_Win_start", mine.lastAccess.win, mine.lastAccess.time) << ": rank "
            << ctx_.worldRank << " opens " << mine.access << " access epoch(s) to rank " << p << ", but rank " << p
            << " opens " << theirExposure << " exposure epoch(s) (MPI_Win_post) that include it";
        if (mine.access == theirExposure) out << " on other windows";
        return out.str();
      }
    }
    return {};
  }

  const ReplayContext& ctx_;
  const trace::Definitions& defs_;
  std::string local_;
  std::unordered_map<WinId, CommRanks> comms_;
  std::map<WinId, WindowState> state_;
  std::vector<Peer> peers_;
  std::vector<WindowCounts> counts_;
};

// ============================================================ the exchange window

// MPI_DOUBLE_INT's layout, for MPI_MAXLOC.
struct DoubleInt {
  double value;
  int rank;
};
static_assert(sizeof(DoubleInt) == 16, "MPI_DOUBLE_INT is a double followed by an int, padded to 16 bytes");

// What each rank exposes. Followed by the GATS bit field of `words` 64-bit
// words (one bit per rank of the window's communicator), then the fence area:
// kFenceBatch slots (the last transfer exit per fence epoch, MAXLOC) and
// kFenceBatch bit fields.
struct Header {
  double postEnter;          // GATS: enter of this target's MPI_Win_post
  DoubleInt latestComplete;  // GATS: MAXLOC (complete enter, origin)
  DoubleInt latestOpGats;    // GATS: MAXLOC (last RMA-op exit to this target, origin)
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
  int rank = 0;
  int size = 1;
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
    return fenceSlotsOffset() + static_cast<MPI_Aint>(kFenceBatch * sizeof(DoubleInt));
  }
  DoubleInt* fenceSlots() { return reinterpret_cast<DoubleInt*>(base + fenceSlotsOffset()); }
  std::uint64_t* fenceBits() { return reinterpret_cast<std::uint64_t*>(base + fenceBitsOffset()); }
  std::size_t bytes() const {
    return static_cast<std::size_t>(fenceBitsOffset()) + kFenceBatch * words * sizeof(std::uint64_t);
  }
  static bool bitSet(const std::uint64_t* field, int r) {
    return (field[static_cast<std::size_t>(r) / 64] >> (static_cast<unsigned>(r) % 64)) & 1U;
  }
  void resetGats() {
    Header& h = header();
    h.latestComplete = {kNever, -1};
    h.latestOpGats = {kNever, -1};
    std::fill_n(gatsBits(), words, 0);
  }
  void resetFences() {
    std::fill_n(fenceSlots(), kFenceBatch, DoubleInt{kNever, -1});
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

  void run() {
    if (defs_.windows.empty()) return;  // every rank sees the same definitions
    reduceFenceOverlaps();
    openMutex();
    const auto& ev = ctx_.events;
    const std::vector<std::uint32_t>& nonRegion = ctx_.calls.nonRegionEvents();
    for (std::size_t k = 0; k < nonRegion.size(); ++k) {
      const std::uint32_t i = nonRegion[k];
      const trace::Event& e = ctx_.calls.nonRegion()[k];
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
    MPI_Win_free(&mutex_);
  }

 private:
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
    w.words = (static_cast<std::size_t>(w.size) + 63) / 64;

    // Wait at Create; the allreduce also tells rank 0 that every member is here.
    collectiveWait(Metric::MpiRmaWaitAtCreate, w, parent, call);
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
    MPI_Win_free(&w.win);
    MPI_Group_free(&w.group);
    MPI_Comm_free(&w.comm);
  }

  // Wait at Create / Wait at Free: the call is synchronizing if every member
  // entered it before any left it; then the wait is the latest enter minus
  // this rank's enter.
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
      const trace::Event& e = ctx_.calls.nonRegion()[k];
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
    MPI_Win_fence(MPI_MODE_NOPRECEDE, w.win);
    const std::size_t n = w.pendingFences.size();
    std::stable_sort(w.pendingExits.begin(), w.pendingExits.end(),
                     [](const EpochExit& a, const EpochExit& b) { return a.target < b.target; });
    std::vector<std::vector<DoubleInt>> exits;  // kept until the fence completes the accumulates
    std::vector<std::vector<std::uint64_t>> bits;
    const std::uint64_t mine = std::uint64_t{1} << (static_cast<unsigned>(w.rank) % 64);
    const std::size_t myWord = static_cast<std::size_t>(w.rank) / 64;
    for (std::size_t from = 0; from < w.pendingExits.size();) {
      const int target = w.pendingExits[from].target;
      std::vector<DoubleInt>& e = exits.emplace_back(n, DoubleInt{kNever, w.rank});
      std::vector<std::uint64_t>& b = bits.emplace_back(n * w.words, 0);
      for (; from < w.pendingExits.size() && w.pendingExits[from].target == target; ++from) {
        const EpochExit& x = w.pendingExits[from];
        e[x.epoch].value = x.exit;
        b[x.epoch * w.words + myWord] = mine;
      }
      MPI_Accumulate(e.data(), static_cast<int>(n), MPI_DOUBLE_INT, target, w.fenceSlotsOffset(),
                     static_cast<int>(n), MPI_DOUBLE_INT, MPI_MAXLOC, w.win);
      MPI_Accumulate(b.data(), static_cast<int>(n * w.words), MPI_UINT64_T, target, w.fenceBitsOffset(),
                     static_cast<int>(n * w.words), MPI_UINT64_T, MPI_BOR, w.win);
    }
    MPI_Win_fence(MPI_MODE_NOSUCCEED, w.win);

    const DoubleInt* slots = w.fenceSlots();
    const std::uint64_t* accessed = w.fenceBits();
    for (std::size_t k = 0; k < n; ++k) {
      const Call& call = w.pendingFences[k].call;
      const Overlap& o = w.pendingFences[k].overlap;
      double waitAtFence = o.synchronizing() ? o.latestEnter - call.enter : 0.0;
      Rank waitCause = worldOf(w, o.latestRank);
      const double end = std::min(slots[k].value, call.leave);
      if (end > call.enter && call.path != kNone) {
        const Rank cause = worldOf(w, slots[k].rank);
        ctx_.severities.addWait(Metric::MpiRmaEarlyFence, call.path, call.enter, end, cause);
        if (end - call.enter > waitAtFence) {
          waitAtFence = end - call.enter;
          waitCause = cause;
        }
      }
      // Pairwise synchronizations: every other member may have accessed this rank.
      double unneeded = 0.0;
      for (int r = 0; r < w.size; ++r)
        if (r != w.rank && !ExchangeWindow::bitSet(accessed + k * w.words, r)) unneeded += 1.0;
      if (call.path != kNone) {
        ctx_.severities.add(Metric::RmaPairsyncCount, call.path, static_cast<double>(w.size - 1));
        ctx_.severities.add(Metric::RmaPairsyncUnneededCount, call.path, unneeded);
      }
      if (waitAtFence > 0.0 && call.path != kNone)
        ctx_.severities.addWait(Metric::MpiRmaWaitAtFence, call.path, call.enter, call.enter + waitAtFence, waitCause);
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
    const Call* call = ctx_.calls.callOf(i);
    ExchangeWindow* w = find(rec.win);
    if (!call || !w) return;
    switch (groupCall(ctx_.regionName(call->path))) {
      case GroupCall::Post: onPost(*w, *call, rec); break;
      case GroupCall::Start: onStart(*w, *call, rec); break;
      case GroupCall::Complete: onComplete(*w, *call); break;
      case GroupCall::Wait: onWait(*w, *call); break;
      case GroupCall::Test:
        if (rec.syncLevel != trace::kSyncNone) onWait(*w, *call);
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
    MPI_Group g = subgroup(w, w.origins);
    MPI_Win_post(g, 0, w.win);
    freeGroup(g);
    w.exposureOpen = true;
  }

  void onStart(ExchangeWindow& w, const Call& call, const trace::RmaRecord& rec) {
    std::string problem;
    w.targets = groupInComm(defs_, rec.group, w.ranks, problem);
    MPI_Group g = subgroup(w, w.targets);
    MPI_Win_start(g, 0, w.win);
    freeGroup(g);
    w.postEnter.assign(w.targets.size(), kNever);
    for (std::size_t k = 0; k < w.targets.size(); ++k)
      MPI_Get(&w.postEnter[k], 1, MPI_DOUBLE, w.targets[k], kPostEnter, 1, MPI_DOUBLE, w.win);
    w.start = call;
    w.transfers.clear();
    w.accessOpen = true;
  }

  void onComplete(ExchangeWindow& w, const Call& call) {
    if (!w.accessOpen) return;
    const std::size_t n = w.targets.size();
    const DoubleInt completeEnter{call.enter, w.rank};
    std::vector<DoubleInt> lastExit(n, DoubleInt{w.start.leave, w.rank});
    std::vector<bool> accessed(n, false);
    for (const Transfer& t : w.transfers) {
      const auto k = static_cast<std::size_t>(std::find(w.targets.begin(), w.targets.end(), t.target) -
                                              w.targets.begin());
      if (!accessed[k]) lastExit[k].value = t.leave;
      else lastExit[k].value = std::max(lastExit[k].value, t.leave);
      accessed[k] = true;
    }
    const std::uint64_t bit = std::uint64_t{1} << (static_cast<unsigned>(w.rank) % 64);
    for (std::size_t k = 0; k < n; ++k) {
      const int target = w.targets[k];
      MPI_Accumulate(&completeEnter, 1, MPI_DOUBLE_INT, target, kLatestComplete, 1, MPI_DOUBLE_INT, MPI_MAXLOC,
                     w.win);
      MPI_Accumulate(&lastExit[k], 1, MPI_DOUBLE_INT, target, kLatestOpGats, 1, MPI_DOUBLE_INT, MPI_MAXLOC, w.win);
      if (accessed[k])
        MPI_Accumulate(&bit, 1, MPI_UINT64_T, target, ExchangeWindow::gatsBitsOffset(w.rank), 1, MPI_UINT64_T,
                       MPI_BOR, w.win);
    }
    MPI_Win_complete(w.win);
    w.accessOpen = false;

    // Late Post: the latest post of the epoch's targets, if it was entered
    // while MPI_Win_start (else MPI_Win_complete) was blocking.
    double latestPost = kNever;
    int latestTarget = -1;
    for (std::size_t k = 0; k < n; ++k)
      if (w.postEnter[k] > latestPost) {
        latestPost = w.postEnter[k];
        latestTarget = w.targets[k];
      }
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
    }
    w.transfers.clear();
  }

  void onWait(ExchangeWindow& w, const Call& call) {
    if (!w.exposureOpen) return;
    MPI_Win_wait(w.win);
    w.exposureOpen = false;
    const Header& h = w.header();
    // Early Wait: entered before the last origin entered MPI_Win_complete.
    const double end = std::min(h.latestComplete.value, call.leave);
    if (end > call.enter) {
      const Rank cause = worldOf(w, h.latestComplete.rank);
      ctx_.severities.addWait(Metric::MpiRmaEarlyWait, call.path, call.enter, end, cause);
      // Late Complete: the part after the origins' last transfer had ended.
      const double from = std::max(h.latestOpGats.value, call.enter);
      if (end > from) ctx_.severities.addWait(Metric::MpiRmaLateComplete, call.path, from, end, cause);
    }
    double pairs = 0.0, unneeded = 0.0;
    for (const int r : w.origins) {
      if (r == w.rank) continue;
      pairs += 1.0;
      if (!ExchangeWindow::bitSet(w.gatsBits(), r)) unneeded += 1.0;
    }
    ctx_.severities.add(Metric::RmaPairsyncCount, call.path, pairs);
    ctx_.severities.add(Metric::RmaPairsyncUnneededCount, call.path, unneeded);
  }

  ReplayContext& ctx_;
  const trace::Definitions& defs_;
  MPI_Win mutex_ = MPI_WIN_NULL;
  std::unordered_map<WinId, ExchangeWindow> windows_;
  std::vector<std::vector<Overlap>> fenceOverlaps_;  // per window, every fence in trace order
  std::vector<std::size_t> fenceCursor_;
};

}  // namespace

std::string validateRmaActive(const replay::ReplayContext& ctx) { return Validator(ctx).run(); }

void analyzeRmaActive(replay::ReplayContext& ctx) { ActiveReplay(ctx).run(); }

}  // namespace waitscope::patterns
