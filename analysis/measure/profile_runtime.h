#pragma once
// Profile mode of libwaitscope-measure (WAITSCOPE_PROFILE=1, `waitscope-run --profile`):
// no trace; per call path visits and durations, per MPI call path and message-size
// class the count, sum and minimum of the durations (profile_stats.h). At MPI_Finalize
// one MIN all-reduction gives the global minima, every process computes its estimates,
// and rank 0 writes a report (profile_output.h). Memory grows with the number of call
// paths only, never with the run time.
//
// The hot path (record) is inline: two clock reads (the TSC where it is invariant), one
// hash lookup, a few additions.
#include <mpi.h>

#include <cstdint>

#include "analysis/measure/measure_internal.h"
#include "analysis/profile/profile_stats.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define WAITSCOPE_HAVE_TSC 1
#endif

namespace waitscope::profile {
struct RankOut;
}  // namespace waitscope::profile

namespace waitscope::measure::profile {

// The recorder's side of the profile: it fills the bookkeeping of analysis/profile.
using namespace waitscope::profile;

// What a wrapper learned about one visit.
struct Visit {
  std::uint64_t bytes = 0;  // the message size that selects the size class
  Role role = Role::Any;    // Root / NonRoot for rooted collectives
  bool excluded = false;    // test-based exclusion: a test found the requests complete
};

struct OpenRegion {
  std::uint32_t node;
  std::uint64_t enter;
};

// Profile mode's state in this process: the call-path tree and what the hot path needs.
struct ProfilerState {
  bool inMpi = false;      // an MPI call of the library itself or nested in another
  bool testFirst = false;  // WAITSCOPE_PROFILE_WAIT_TEST: MPI_Test(all) before MPI_Wait(all)
  bool useTsc = false;
  std::uint32_t current = kNone;  // the innermost open user region's node
  std::uint64_t rmaBytes = 0;     // RMA bytes issued since the last fence / complete
  EstimateRule rules[kNumMpi] = {};
  ProfileTree tree;
  static constexpr std::size_t kMaxDepth = 1024;
  OpenRegion stack[kMaxDepth];
  std::size_t depth = 0;
  // clock calibration: ticks and CLOCK_MONOTONIC ns at the start
  std::uint64_t startTicks = 0, startNs = 0;
  double initSeconds = 0.0;  // MPI_Init (measured before the clock was calibrated)
  std::uint32_t initNode = kNone;
};
extern ProfilerState profiler;

inline std::uint64_t ticks() {
#ifdef WAITSCOPE_HAVE_TSC
  if (profiler.useTsc) [[likely]] return __rdtsc();
#endif
  return now();
}

inline void record(std::uint32_t fn, void* returnAddress, std::uint64_t duration, const Visit& v) {
  const std::uint32_t node = profiler.tree.child(profiler.current, fn, reinterpret_cast<std::uintptr_t>(returnAddress));
  profiler.tree.visit(node, duration);
  const EstimateRule& rule = profiler.rules[fn];
  if (rule.pattern != Pattern::None && (rule.role == Role::Any || rule.role == v.role))
    profiler.tree.sample(node, sizeClass(v.bytes), duration, v.excluded);
}

// This process' call paths with visits and exclusive time so far, no estimates (online mode
// sends it to the root place at every snapshot); regions still open count up to their last visit.
waitscope::profile::RankOut treeOutput(double secondsPerTick);
// Seconds per tick() since start().
double secondsPerTick();

// True when WAITSCOPE_PROFILE asks for profile mode.
bool requested();
// After PMPI_Init (filters loaded): sets recorder.profiling.
void start();
// MPI_Init(_thread)'s own visit, `initNs` long, called from `returnAddress`.
void recordInit(std::uint32_t fn, void* returnAddress, std::uint64_t initNs);
void enterUser(std::uint32_t region);
void leaveUser();
// MPI_Finalize: its visit (a barrier, like the trace), the minima, the estimates and
// the report; then profile mode ends.
void finish(std::uint32_t finalizeFn, void* returnAddress);

}  // namespace waitscope::measure::profile
