#pragma once
// Building blocks of the pattern and causes tests: rank helpers for scenarios
// written generically in N = worldSize(), and the frame every scenario shares.
#include <vector>

#include "tests/mpi/patterns/analysis_test_support.h"

namespace waitscope::test {

inline trace::Rank size() { return static_cast<trace::Rank>(worldSize()); }

// The same time for every rank (window creation and free take one per rank).
inline std::vector<double> all(double t) { return std::vector<double>(size(), t); }

inline std::vector<trace::Rank> othersThan(trace::Rank self) {
  std::vector<trace::Rank> out;
  for (trace::Rank r = 0; r < size(); ++r)
    if (r != self) out.push_back(r);
  return out;
}

// The frame of a scenario without a window: main [0, 10] on every rank,
// MPI_Init [0, 0.5] and MPI_Finalize [9, 9.5], no wait states of their own;
// the scenario fills [1, 8].
inline void beginFrame(trace::TraceBuilder& b) {
  for (trace::Rank r = 0; r < b.size(); ++r) b.rank(r).enter(0.0, "main").init(0.0, 0.5);
}
inline void endFrame(trace::TraceBuilder& b) {
  for (trace::Rank r = 0; r < b.size(); ++r) b.rank(r).finalize(9.0, 9.5).leave(10.0, "main");
}

// The frame with a window over MPI_COMM_WORLD, created at [1.0, 1.1] by all
// at once (no Wait at Create) and freed at [8.0, 8.1].
struct Scenario {
  trace::TraceBuilder b{size()};
  trace::WinId win;
  Scenario() {
    beginFrame(b);
    win = b.createWindow(b.world(), all(1.0), all(1.1));
  }
  trace::RankBuilder& rank(trace::Rank r) { return b.rank(r); }
  // Once: a scenario may be analyzed several times.
  void close() {
    if (closed_) return;
    closed_ = true;
    b.freeWindow(win, all(8.0), all(8.1));
    endFrame(b);
  }
  report::Report analyze(const analyzer::AnalysisOptions& options = {}) {
    close();
    return analyzeBuilt(b, options);
  }

 private:
  bool closed_ = false;
};

}  // namespace waitscope::test
