#pragma once
// The bookkeeping of the wait-state profiler (Mao, Böhme, Hermanns, Geimer, Lorenz, Wolf, "Catching
// Idlers with Ease", EuroMPI/ASIA 2014), free of MPI so that it can be unit-tested on hand-made
// visit sequences:
//  * which MPI functions get an estimate, of which pattern, with the local or the
//    global minimum (EstimateRule);
//  * logarithmic message-size classes;
//  * the call tree of one process with, per call path, visits and total duration,
//    and per MPI call path and size class the count, sum and minimum of the
//    durations (Bin);
//  * the minima M_p(f, s) (one process) and M(f, s) (all processes, after one
//    MIN reduction) and the estimate  sum_s [ sum_i d_i(c, s) - n(c, s) * M(f(c), s) ].
// Durations are in ticks of whatever clock the runtime uses; only the hot path's
// cost matters here, so lookups are open-addressed hashing and the last-used bin.
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace waitscope::profile {

// ---------------------------------------------------------------------------------------------
// Patterns and the rule of each MPI function.
enum class Pattern : std::uint8_t {
  None,
  LateSender,     // receives and request completions
  LateReceiver,   // blocking standard and synchronous sends
  WaitNxN,        // all-to-all collectives
  BarrierWait,    // MPI_Barrier
  LateBroadcast,  // 1-to-N collectives, non-root visits
  EarlyReduce,    // N-to-1 collectives, root visits
  WaitAtFence,    // MPI_Win_fence
  LatePost,       // MPI_Win_start, MPI_Win_complete
  EarlyWait,      // MPI_Win_wait
};
inline constexpr int kPatternCount = 10;

// Which minimum is subtracted: the process's own (point-to-point, pairwise RMA
// synchronization) or the minimum over all processes (collectives).
enum class Scope : std::uint8_t { Local, Global };
// Which visits take part: all, or only those as root / as non-root of a rooted collective.
enum class Role : std::uint8_t { Any, Root, NonRoot };

struct EstimateRule {
  Pattern pattern = Pattern::None;
  Scope scope = Scope::Local;
  Role role = Role::Any;
  // MPI_Wait and MPI_Waitall: with the test-based exclusion option, visits whose
  // requests a preceding test found complete are left out of a second estimate.
  bool testExclusion = false;
};

// The rule of an MPI function ("MPI_Recv"); Pattern::None for functions without estimate.
EstimateRule estimateRule(std::string_view mpiFunctionName);

// The trace analysis' metric the pattern estimates ("mpi_latesender"); the profile
// report calls its estimate "<that>_estimate".
std::string_view baseMetric(Pattern pattern);

// ---------------------------------------------------------------------------------------------
// Message-size classes, logarithmic: class 0 holds 0 bytes, class k (1..64) holds
// [2^(k-1), 2^k) bytes.
inline constexpr int kSizeClasses = 65;
inline std::uint8_t sizeClass(std::uint64_t bytes) {
  return bytes == 0 ? 0 : static_cast<std::uint8_t>(64 - __builtin_clzll(bytes));
}

// "0 B", "1 B", "2-3 B", "4-7 B", ...: the bytes a size class holds.
std::string sizeClassLabel(std::uint8_t sizeClass);

// Count, sum and minimum of the durations of one call path in one size class.
struct Bin {
  std::uint64_t count = 0;
  std::uint64_t sum = 0;
  std::uint64_t min = std::numeric_limits<std::uint64_t>::max();
  void add(std::uint64_t duration) {
    ++count;
    sum += duration;
    if (duration < min) min = duration;
  }
};

// ---------------------------------------------------------------------------------------------
// The call tree of one process. A node is (parent, region, call site); regions are
// numbered by the runtime (MPI functions and user regions share one number space).
inline constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

struct BinSlot {
  std::uint8_t sizeClass = 0;
  std::uint32_t next = kNone;  // the node's next slot
  Bin all;                     // every visit
  Bin tested;                  // visits not excluded by the test (test-based exclusion)
};

struct Node {
  std::uint32_t parent = kNone;
  std::uint32_t region = 0;
  std::uintptr_t callSite = 0;  // return address of the call, 0 for regions without one
  std::uint64_t visits = 0;
  std::uint64_t inclusive = 0;  // total duration (ticks)
  std::uint32_t firstSlot = kNone;
  std::uint32_t lastSlot = kNone;  // the slot used last: most call paths use one size class
};

class ProfileTree {
 public:
  ProfileTree();

  // The node (parent, region, callSite), created on first use. Inline: the hot path of
  // every profiled MPI call finds its node in the first probe.
  std::uint32_t child(std::uint32_t parent, std::uint32_t region, std::uintptr_t callSite) {
    const Entry& e = table_[hash(parent, region, callSite) & (table_.size() - 1)];
    if (e.node != kNone && e.callSite == callSite && e.parent == parent && e.region == region) [[likely]]
      return e.node;
    return childSlow(parent, region, callSite);
  }
  // One visit of `node` lasting `duration`.
  void visit(std::uint32_t node, std::uint64_t duration) {
    Node& n = nodes_[node];
    ++n.visits;
    n.inclusive += duration;
  }
  // Adds the visit to the bin of its size class; `excluded`: a preceding test found
  // the requests complete (counts in `all` only).
  void sample(std::uint32_t node, std::uint8_t sizeClass, std::uint64_t duration, bool excluded) {
    BinSlot& s = slot(node, sizeClass);
    s.all.add(duration);
    if (!excluded) s.tested.add(duration);
  }

  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<BinSlot>& slots() const { return slots_; }
  // Inclusive minus the children's inclusive durations, per node.
  std::vector<std::uint64_t> exclusive() const;
  // Bytes held: constant for a program whatever its run time (grows with call paths only).
  std::size_t memoryBytes() const;

 private:
  BinSlot& slot(std::uint32_t node, std::uint8_t sizeClass) {
    const std::uint32_t last = nodes_[node].lastSlot;
    if (last != kNone && slots_[last].sizeClass == sizeClass) [[likely]]
      return slots_[last];
    return slotSlow(node, sizeClass);
  }
  std::uint32_t childSlow(std::uint32_t parent, std::uint32_t region, std::uintptr_t callSite);
  BinSlot& slotSlow(std::uint32_t node, std::uint8_t sizeClass);
  void grow();

  struct Entry {
    std::uintptr_t callSite = 0;
    std::uint32_t parent = kNone;
    std::uint32_t region = 0;
    std::uint32_t node = kNone;  // kNone: empty
  };
  static std::size_t hash(std::uint32_t parent, std::uint32_t region, std::uintptr_t callSite) {
    std::uint64_t h = callSite * 0x9E3779B97F4A7C15ULL;
    h ^= (static_cast<std::uint64_t>(parent) << 32 | region) * 0xC2B2AE3D27D4EB4FULL;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
  std::vector<Node> nodes_;
  std::vector<BinSlot> slots_;
  std::vector<Entry> table_;  // power-of-two size, at most half full
};

// ---------------------------------------------------------------------------------------------
// Minima and estimates.

// Minimum duration per (function, size class), over the call paths of the function:
// M_p(f, s) for one process; combined over processes (elementwise minimum) it is M(f, s).
// Functions are numbered densely by the caller (0 .. functions-1).
class MinimumTable {
 public:
  static constexpr double kUnset = std::numeric_limits<double>::infinity();
  explicit MinimumTable(std::size_t functions = 0) : values_(functions * kSizeClasses, kUnset) {}
  void observe(std::size_t function, std::uint8_t sizeClass, double duration) {
    double& v = values_[function * kSizeClasses + sizeClass];
    if (duration < v) v = duration;
  }
  double at(std::size_t function, std::uint8_t sizeClass) const {
    return values_[function * kSizeClasses + sizeClass];
  }
  // Elementwise minimum with another process' table (what MPI_MIN does in the reduction).
  void combine(const MinimumTable& other);
  // The flat array the reduction sends.
  std::vector<double>& values() { return values_; }
  const std::vector<double>& values() const { return values_; }

 private:
  std::vector<double> values_;
};

// The wait estimate of one call path: sum over its size classes of
// sum_i d_i - n * M(s), with d in seconds (ticks * secondsPerTick). `minimum(s)`
// gives M(f(c), s). Never negative: a minimum cannot exceed the durations it was taken
// from, and for the global minimum it is at most the local one.
template <class MinimumOf>
double waitEstimate(const ProfileTree& tree, std::uint32_t node, bool tested, double secondsPerTick,
                    MinimumOf minimum) {
  double wait = 0.0;
  for (std::uint32_t s = tree.nodes()[node].firstSlot; s != kNone; s = tree.slots()[s].next) {
    const BinSlot& slot = tree.slots()[s];
    const Bin& bin = tested ? slot.tested : slot.all;
    if (bin.count == 0) continue;
    const double m = minimum(slot.sizeClass);
    const double w = static_cast<double>(bin.sum) * secondsPerTick - static_cast<double>(bin.count) * m;
    if (w > 0.0) wait += w;
  }
  return wait;
}

}  // namespace waitscope::profile
