#include "analysis/replay/call_index.h"

#include <algorithm>
#include <string>

namespace waitscope::replay {

using trace::EventKind;

namespace {

enum : std::uint8_t { kOther, kInit, kFinalize };

// Per call path whether it is an MPI environment call: one lookup per enter.
std::vector<std::uint8_t> environmentPaths(const trace::CallTree& tree, const trace::Definitions& defs) {
  std::vector<std::uint8_t> byRegion(defs.regions.size(), kOther);
  for (std::size_t r = 0; r < defs.regions.size(); ++r) {
    const std::string& name = defs.regions[r].name;
    if (name == "MPI_Init" || name == "MPI_Init_thread") byRegion[r] = kInit;
    if (name == "MPI_Finalize") byRegion[r] = kFinalize;
  }
  std::vector<std::uint8_t> byPath(tree.size(), kOther);
  for (std::size_t p = 0; p < tree.size(); ++p)
    if (tree[p].region < byRegion.size()) byPath[p] = byRegion[tree[p].region];
  return byPath;
}

// Sums RegionTimes over the enter and leave events in order. The open regions
// sit in an array by call-path depth (an enter and its leave carry the same
// path, so the same depth), which needs no stack of its own.
class RegionClock {
 public:
  RegionClock(const trace::CallTree& tree, RegionTimes& out)
      : out_(out), depth_(tree.depths()), parent_(tree.paths().data()), paths_(tree.size()) {
    out_.visits.assign(paths_, 0.0);
    out_.exclusive.assign(paths_, 0.0);
    out_.stretches.assign(paths_, 0.0);
    const std::uint32_t maxDepth = depth_.empty() ? 0 : *std::max_element(depth_.begin(), depth_.end());
    open_.assign(maxDepth + 1, Open{0.0, 0.0});
  }
  void enter(const trace::Event& e) {
    if (e.ref >= paths_) return;
    advance(e.time);
    open_[depth_[e.ref]] = {e.time, 0.0};
    out_.visits[e.ref] += 1.0;
    active_ = e.ref;
  }
  void leave(const trace::Event& e) {
    if (e.ref >= paths_) return;
    advance(e.time);
    const std::uint32_t d = depth_[e.ref];
    const double duration = e.time - open_[d].enter;
    out_.exclusive[e.ref] += duration - open_[d].children;
    if (d > 0) open_[d - 1].children += duration;
    active_ = parent_[e.ref].parent;
  }

 private:
  struct Open {
    double enter;
    double children;
  };
  void advance(double t) {
    if (active_ != trace::kNone && t > since_) out_.stretches[active_] += t - since_;
    since_ = t;
  }
  RegionTimes& out_;
  const std::vector<std::uint32_t> depth_;
  const trace::CallPath* const parent_;
  const std::size_t paths_;
  std::vector<Open> open_;
  trace::CallPathId active_ = trace::kNone;  // innermost region since the last enter/leave
  double since_ = 0.0;
};

}  // namespace

CallIndex::CallIndex(const trace::LocationEvents& events, const trace::CallTree& tree,
                     const trace::Definitions& defs)
    : locationEvents_(&events.events) {
  struct Open {
    std::uint32_t enterEvent;
    std::uint32_t call;  // kNone until an event inside needs it
  };
  const std::vector<std::uint8_t> environmentOf = environmentPaths(tree, defs);
  // Locals, not the vector: the pushes below could alias its size for the compiler.
  const std::uint8_t* const environment = environmentOf.data();
  const std::size_t paths = environmentOf.size();
  std::size_t openEnvironment = 0;  // environment calls entered and not yet left
  RegionClock clock(tree, times_);
  std::vector<Open> stack;
  const auto& ev = events.events;
  const std::size_t blocks = (ev.size() + (std::size_t{1} << kBlockBits) - 1) >> kBlockBits;
  blockStart_.reserve(blocks + 1);
  // Reserved from the payload tables, so that the lists are not copied as they
  // grow: every record is one event, and a collective adds its begin event.
  const std::size_t expected = events.messages.size() + 2 * events.collectives.size() + events.rma.size();
  events_.reserve(expected);
  callOfEntry_.reserve(expected);
  calls_.reserve(events.messages.size() + events.collectives.size() + events.rma.size());
  for (std::uint32_t i = 0; i < ev.size(); ++i) {
    if ((i & ((1u << kBlockBits) - 1)) == 0) blockStart_.push_back(static_cast<std::uint32_t>(events_.size()));
    const trace::Event& e = ev[i];
    if (e.kind == EventKind::Enter) {
      clock.enter(e);
      if (e.ref < paths && environment[e.ref] != kOther) [[unlikely]] {
        (environment[e.ref] == kInit ? initCalls_ : finalizeCalls_).push_back({i, i});
        ++openEnvironment;
      }
      stack.push_back({i, trace::kNone});
    } else if (e.kind == EventKind::Leave) {
      clock.leave(e);
      if (stack.empty()) continue;  // the reader rejects unbalanced traces; be safe anyway
      const Open open = stack.back();
      stack.pop_back();
      if (open.call != trace::kNone) calls_[open.call].leaveEvent = i;
      // A leave carries the path it leaves; environment calls do not nest, so
      // it closes the last one entered.
      if (openEnvironment > 0 && e.ref < paths && environment[e.ref] != kOther) [[unlikely]] {
        (environment[e.ref] == kInit ? initCalls_ : finalizeCalls_).back().leaveEvent = i;
        --openEnvironment;
      }
    } else if (stack.empty()) {
      events_.push_back(i);
      callOfEntry_.push_back(trace::kNone);
    } else {
      Open& top = stack.back();
      if (top.call == trace::kNone) {
        top.call = static_cast<std::uint32_t>(calls_.size());
        calls_.push_back({top.enterEvent, top.enterEvent});
      }
      events_.push_back(i);
      callOfEntry_.push_back(top.call);
    }
  }
  blockStart_.push_back(static_cast<std::uint32_t>(events_.size()));
  // A call often writes several records (an MPI_Irecv its request and its completion in the
  // wait), so the reservation above is generous; the copy costs less than the slack kept for
  // the whole analysis.
  calls_.shrink_to_fit();
}

void CallIndex::retime(const trace::LocationEvents& events, const trace::CallTree& tree) {
  RegionClock clock(tree, times_);
  for (const trace::Event& e : events.events) {
    if (e.kind == EventKind::Enter) clock.enter(e);
    else if (e.kind == EventKind::Leave) clock.leave(e);
  }
}

}  // namespace waitscope::replay
