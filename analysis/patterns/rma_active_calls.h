#pragma once
// The records of RMA active-target synchronization as the validation and the replay read them:
// which MPI call wrote a record, the call around a record, and how a finding names its place.
#include <cstddef>
#include <string>
#include <string_view>

#include "analysis/replay/call_index.h"
#include "analysis/replay/replay_context.h"
#include "analysis/trace/events.h"

namespace waitscope::patterns::rma_active {

// The synchronization calls that write an RMA_GROUP_SYNC record.
enum class GroupCall { Post, Start, Complete, Wait, Test, Other };

GroupCall groupCall(const std::string& region);

// The window calls that write an RMA_COLLECTIVE_END record.
enum class WindowCall { Create, Free, Fence, Other };

WindowCall windowCall(trace::CollectiveOp op);

bool isTransfer(trace::EventKind kind);

// The call an event belongs to, or a zero-length one at the event's time.
replay::Call callAround(const replay::ReplayContext& ctx, std::size_t i);

// The call's region name, or `fallback` for a record outside any call.
std::string callName(const replay::ReplayContext& ctx, const replay::Call& call, std::string_view fallback);

// "rank R: WHAT on window W at T s", the start of every finding.
std::string describe(const replay::ReplayContext& ctx, std::string_view what, trace::WinId win, double time);

}  // namespace waitscope::patterns::rma_active
