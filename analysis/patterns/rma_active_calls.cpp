#include "analysis/patterns/rma_active_calls.h"

#include <iomanip>
#include <optional>
#include <sstream>

namespace waitscope::patterns::rma_active {

using replay::Call;
using replay::ReplayContext;
using trace::CollectiveOp;
using trace::EventKind;
using trace::kNone;
using trace::WinId;

GroupCall groupCall(const std::string& region) {
  if (region == "MPI_Win_post") return GroupCall::Post;
  if (region == "MPI_Win_start") return GroupCall::Start;
  if (region == "MPI_Win_complete") return GroupCall::Complete;
  if (region == "MPI_Win_wait") return GroupCall::Wait;
  if (region == "MPI_Win_test") return GroupCall::Test;
  return GroupCall::Other;
}

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

std::string describe(const ReplayContext& ctx, std::string_view what, WinId win, double time) {
  std::ostringstream out;
  out << "rank " << ctx.worldRank << ": " << what << " on window " << win << " at " << std::fixed
      << std::setprecision(9) << time << " s";
  return out.str();
}

Call callAround(const ReplayContext& ctx, std::size_t i) {
  if (const std::optional<Call> call = ctx.calls.callOf(i)) return *call;
  Call none;
  none.enter = none.leave = ctx.events.events[i].time;
  return none;
}

std::string callName(const ReplayContext& ctx, const Call& call, std::string_view fallback) {
  return call.path == kNone ? std::string(fallback) : ctx.regionName(call.path);
}

}  // namespace waitscope::patterns::rma_active
