#include "analysis/causes/sync_index.h"

#include <algorithm>
#include <optional>

#include "analysis/replay/search_near.h"

namespace waitscope::causes::delay {
namespace {

// Sorted `out` and sorted `list`, merged into `out`.
void mergeInto(std::vector<double>& out, const std::vector<double>& list) {
  const auto middle = static_cast<std::ptrdiff_t>(out.size());
  out.insert(out.end(), list.begin(), list.end());
  if (!std::is_sorted(out.begin() + middle, out.end())) std::sort(out.begin() + middle, out.end());
  std::inplace_merge(out.begin(), out.begin() + middle, out.end());
}

}  // namespace

using trace::EventKind;
using trace::Rank;

SyncIndex::SyncIndex(const replay::ReplayContext& ctx, const std::vector<Wait>& waits) : waits_(waits) {
  const auto& defs = ctx.defs();
  const auto& ev = ctx.events;
  // MPI_Init and MPI_Finalize, at their enters, in time order.
  for (const replay::Call& call : ctx.calls.initCalls()) globalSyncs_.push_back(call.enter);
  for (const replay::Call& call : ctx.calls.finalizeCalls()) globalSyncs_.push_back(call.enter);
  std::sort(globalSyncs_.begin(), globalSyncs_.end());
  perPeer_.assign(static_cast<std::size_t>(ctx.worldSize), {});
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
    std::vector<char> members(static_cast<std::size_t>(ctx.worldSize), 0);
    if (comm < defs.comms.size()) {
      const trace::GroupId g = defs.comms[comm].group;
      if (g < defs.groups.size() && defs.groups[g].type != trace::GroupType::CommSelf)
        for (const Rank r : defs.groups[g].members)
          if (r < members.size()) members[r] = 1;
    }
    commMembers_[comm] = std::move(members);
  }
  merged_.resize(static_cast<std::size_t>(ctx.worldSize));
}

// All synchronization times with `peer` (messages, groups, communicators
// containing it, MPI_Init/Finalize), sorted: built once per peer, so a query
// is one binary search instead of one per communicator. Each list is in
// event order, which is time order but for nested calls: merged, not sorted.
SyncIndex::Merged& SyncIndex::syncsWith(Rank peer) {
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

double SyncIndex::previousSync(Rank peer, double t, SearchHints& hints) {
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

}  // namespace waitscope::causes::delay
