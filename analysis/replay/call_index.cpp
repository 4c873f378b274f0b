#include "call_index.h"

namespace waitscope::replay {

using trace::EventKind;

CallIndex::CallIndex(const trace::LocationEvents& events) {
  struct Open {
    std::uint32_t enterEvent;
    std::uint32_t call;  // kNone until an event inside needs it
  };
  std::vector<Open> stack;
  const auto& ev = events.events;
  const std::size_t blocks = (ev.size() + (std::size_t{1} << kBlockBits) - 1) >> kBlockBits;
  blockStart_.reserve(blocks + 1);
  for (std::uint32_t i = 0; i < ev.size(); ++i) {
    if ((i & ((1u << kBlockBits) - 1)) == 0) blockStart_.push_back(static_cast<std::uint32_t>(events_.size()));
    const trace::Event& e = ev[i];
    if (e.kind == EventKind::Enter) {
      stack.push_back({i, trace::kNone});
    } else if (e.kind == EventKind::Leave) {
      if (stack.empty()) continue;  // the reader rejects unbalanced traces; be safe anyway
      const Open open = stack.back();
      stack.pop_back();
      if (open.call != trace::kNone) {
        calls_[open.call].leave = e.time;
        calls_[open.call].leaveEvent = i;
      }
    } else if (stack.empty()) {
      events_.push_back(i);
      callOfEntry_.push_back(trace::kNone);
    } else {
      Open& top = stack.back();
      if (top.call == trace::kNone) {
        top.call = static_cast<std::uint32_t>(calls_.size());
        const trace::Event& enter = ev[top.enterEvent];
        calls_.push_back({enter.ref, enter.time, enter.time, top.enterEvent, top.enterEvent});
      }
      events_.push_back(i);
      callOfEntry_.push_back(top.call);
    }
  }
  blockStart_.push_back(static_cast<std::uint32_t>(events_.size()));
}

}  // namespace waitscope::replay
