#pragma once
// Undo and redo of the timeline's zoom steps: every step that changes the
// time window (zoom, pan by keys, rubber band, typed window) is one entry.
#include <vector>

namespace waitscope::views {

struct TimeWindow {
  double from = 0.0;
  double to = 0.0;
  bool operator==(const TimeWindow&) const = default;
};

class ZoomHistory {
 public:
  // Records that the window changes from `current` (to be restored by undo); clears redo.
  void push(const TimeWindow& current) {
    if (undo_.empty() || !(undo_.back() == current)) undo_.push_back(current);
    redo_.clear();
  }
  bool canUndo() const { return !undo_.empty(); }
  bool canRedo() const { return !redo_.empty(); }
  // The window to go back to; `current` becomes redoable.
  TimeWindow undo(const TimeWindow& current) {
    const TimeWindow w = undo_.back();
    undo_.pop_back();
    redo_.push_back(current);
    return w;
  }
  TimeWindow redo(const TimeWindow& current) {
    const TimeWindow w = redo_.back();
    redo_.pop_back();
    undo_.push_back(current);
    return w;
  }
  void clear() {
    undo_.clear();
    redo_.clear();
  }

 private:
  std::vector<TimeWindow> undo_;
  std::vector<TimeWindow> redo_;
};

}  // namespace waitscope::views
