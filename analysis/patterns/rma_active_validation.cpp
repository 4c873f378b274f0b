// Validation of RMA active-target synchronization before its replay: every epoch is opened and
// closed in order on a live window, and the partners agree (equally many creates, fences and frees
// per window; as many access epochs of an origin towards a target as exposure epochs of the
// target towards it). The replay re-enacts these epochs with MPI, so a trace that fails here
// would deadlock it.
#include "analysis/patterns/rma_active_validation.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <map>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "analysis/patterns/rma_active_calls.h"
#include "analysis/patterns/rma_window_ranks.h"

namespace waitscope::patterns {
namespace {

using rma_active::callAround;
using rma_active::callName;
using rma_active::CommRanks;
using rma_active::commRanks;
using rma_active::describe;
using rma_active::GroupCall;
using rma_active::groupCall;
using rma_active::groupInComm;
using rma_active::isTransfer;
using rma_active::WindowCall;
using rma_active::windowCall;
using replay::Call;
using replay::ReplayContext;
using trace::CommId;
using trace::EventKind;
using trace::kNone;
using trace::Rank;
using trace::WinId;

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
        peerSlot_(static_cast<std::size_t>(ctx.worldSize), kNoSlot),
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
    ctx_.comms.world().allreduce(&mine, &anyLocal, 1, MPI_INT, MPI_MAX);
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

  // A location has few partners: a slot for each, where one for every rank of the world in every
  // location took more memory than the events when a process holds many locations.
  static constexpr std::uint32_t kNoSlot = ~std::uint32_t{0};
  Peer& peer(Rank r) {
    std::uint32_t& slot = peerSlot_[r];
    if (slot == kNoSlot) {
      slot = static_cast<std::uint32_t>(peers_.size());
      peers_.emplace_back();
    }
    return peers_[slot];
  }
  const Peer& peerOrNone(std::size_t r) const {
    static const Peer none;
    return peerSlot_[r] == kNoSlot ? none : peers_[peerSlot_[r]];
  }

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
      const trace::Event& e = ctx_.calls.nonRegionEvent(k);
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
        Peer& p = peer(comm->members[static_cast<std::size_t>(r)]);
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
    ctx_.comms.world().allreduce(local.data(), global.data(), static_cast<int>(6 * n), MPI_INT64_T, MPI_MIN);
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
    // Without a single epoch in the world every pair agrees: no all-to-all.
    const int here = peers_.empty() ? 0 : 1;
    int any = 0;
    ctx_.comms.world().allreduce(&here, &any, 1, MPI_INT, MPI_MAX);
    if (any == 0) return {};
    const auto n = static_cast<std::size_t>(ctx_.worldSize);
    std::vector<std::uint64_t> send(4 * n, 0), recv(4 * n);
    for (std::size_t p = 0; p < n; ++p) {
      if (peerSlot_[p] == kNoSlot) continue;
      const Peer& mine = peers_[peerSlot_[p]];
      send[4 * p] = mine.access;
      send[4 * p + 1] = mine.accessHash;
      send[4 * p + 2] = mine.exposure;
      send[4 * p + 3] = mine.exposureHash;
    }
    ctx_.comms.world().alltoall(send.data(), 4, MPI_UINT64_T, recv.data(), 4, MPI_UINT64_T);
    for (std::size_t p = 0; p < n; ++p) {
      const Peer& mine = peerOrNone(p);
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
  std::vector<std::uint32_t> peerSlot_;  // per world rank: its slot in peers_, or kNoSlot
  std::vector<Peer> peers_;
  std::vector<WindowCounts> counts_;
};

}  // namespace

std::string validateRmaActive(const replay::ReplayContext& ctx) { return Validator(ctx).run(); }

}  // namespace waitscope::patterns
