#include "analysis/causes/sync_index.h"

#include <algorithm>
#include <optional>

#include "analysis/replay/search_near.h"

namespace waitscope::causes::delay {
namespace {

// Each list is in event order, which is time order but for nested calls.
void sortTimes(std::vector<double>& times) {
  if (!std::is_sorted(times.begin(), times.end())) std::sort(times.begin(), times.end());
}

}  // namespace

using trace::EventKind;
using trace::Rank;

SyncIndex::SyncIndex(const replay::ReplayContext& ctx, const std::vector<Wait>& waits) : waits_(waits) {
  const auto& defs = ctx.defs();
  const auto& ev = ctx.events;
  // MPI_Init and MPI_Finalize, at their enters, in time order.
  for (const replay::Call& call : ctx.calls.initCalls()) globalSyncs_.times.push_back(call.enter);
  for (const replay::Call& call : ctx.calls.finalizeCalls()) globalSyncs_.times.push_back(call.enter);
  sortTimes(globalSyncs_.times);
  peerSlot_.assign(static_cast<std::size_t>(ctx.worldSize), kNoSlot);
  traceStart_ = ev.events.empty() ? 0.0 : ev.events.front().time;
  const std::vector<std::uint32_t>& nonRegion = ctx.calls.nonRegionEvents();
  for (std::size_t k = 0; k < nonRegion.size(); ++k) {
    const trace::Event& e = ctx.calls.nonRegionEvent(k);
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
    const std::optional<replay::Call> call = ctx.calls.callOfEntry(k);
    const double at = call ? call->enter : e.time;
    switch (e.kind) {
      case EventKind::MpiSend:
      case EventKind::MpiIsend:
      case EventKind::MpiRecv:
      case EventKind::MpiIrecv: {
        const auto& m = ev.message(e);
        const Rank peer = ctx.worldRankOf(m.comm, m.peer);
        if (peer < peerSlot_.size()) peerTimes(peer).times.push_back(at);
        break;
      }
      case EventKind::MpiCollectiveEnd:
        perComm_[ev.collective(e).object].syncs.times.push_back(at);
        break;
      case EventKind::RmaCollectiveEnd: {
        const trace::WinId win = ev.collective(e).object;
        if (win < defs.windows.size()) perComm_[defs.windows[win].comm].syncs.times.push_back(at);
        break;
      }
      case EventKind::RmaWinCreate:
      case EventKind::RmaWinDestroy: {
        const trace::WinId win = ev.rmaRecord(e).win;
        if (win < defs.windows.size()) perComm_[defs.windows[win].comm].syncs.times.push_back(at);
        break;
      }
      case EventKind::RmaGroupSync: {
        const trace::GroupId g = ev.rmaRecord(e).group;
        if (g < defs.groups.size() && defs.groups[g].type != trace::GroupType::CommSelf)
          for (const Rank r : defs.groups[g].members)
            if (r < peerSlot_.size()) peerTimes(r).times.push_back(at);
        break;
      }
      default:
        break;
    }
  }
  for (Times& peer : perPeer_) sortTimes(peer.times);
  for (auto& [comm, list] : perComm_) {
    sortTimes(list.syncs.times);
    list.members.assign(static_cast<std::size_t>(ctx.worldSize), 0);
    if (comm < defs.comms.size()) {
      const trace::GroupId g = defs.comms[comm].group;
      if (g < defs.groups.size() && defs.groups[g].type != trace::GroupType::CommSelf)
        for (const Rank r : defs.groups[g].members)
          if (r < list.members.size()) list.members[r] = 1;
    }
  }
}

SyncIndex::Times& SyncIndex::peerTimes(Rank peer) {
  std::uint32_t& slot = peerSlot_[peer];
  if (slot == kNoSlot) {
    slot = static_cast<std::uint32_t>(perPeer_.size());
    perPeer_.emplace_back();
  }
  return perPeer_[slot];
}

// The latest of the synchronization times with `peer` (messages, groups, communicators containing
// it, MPI_Init/Finalize) before t: the latest before t of each list.
double SyncIndex::previousSync(Rank peer, double t, SearchHints& hints) {
  double best = std::min(traceStart_, t);
  const auto latestBefore = [&](Times& list) {
    const std::vector<double>& times = list.times;
    list.hint = replay::partitionPointNear(times.size(), list.hint, [&](std::size_t k) { return times[k] >= t; });
    if (list.hint > 0) best = std::max(best, times[list.hint - 1]);
  };
  latestBefore(globalSyncs_);
  if (peer < peerSlot_.size() && peerSlot_[peer] != kNoSlot) latestBefore(perPeer_[peerSlot_[peer]]);
  for (auto& [comm, list] : perComm_)
    if (list.members[peer]) latestBefore(list.syncs);
  // Synchronized where that call's own wait state ended (after a barrier wait,
  // both sides start from the last arrival; the completion parts count).
  hints.waitStart = replay::partitionPointNear(waits_.size(), hints.waitStart,
                                               [&](std::size_t k) { return waits_[k].start >= best; });
  if (hints.waitStart < waits_.size() && waits_[hints.waitStart].start == best)
    best = std::min(waits_[hints.waitStart].end, t);
  return best;
}

}  // namespace waitscope::causes::delay
