// The wait-state profiler's bookkeeping (Mao et al., EuroMPI/ASIA 2014) on hand-made visit
// sequences: size classes, the rules, the call tree and its bins, the minima M_p(f, s) and M(f, s),
// the estimate formula, the test-based exclusion and constant memory.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <set>

#include "analysis/profile/profile_stats.h"

using namespace waitscope::profile;

namespace {

TEST(profile_stats, SizeClassesAreLogarithmic) {
  EXPECT_EQ(sizeClass(0), 0);
  EXPECT_EQ(sizeClass(1), 1);
  EXPECT_EQ(sizeClass(2), 2);
  EXPECT_EQ(sizeClass(3), 2);
  EXPECT_EQ(sizeClass(4), 3);
  EXPECT_EQ(sizeClass(1023), 10);
  EXPECT_EQ(sizeClass(1024), 11);
  EXPECT_EQ(sizeClass(std::numeric_limits<std::uint64_t>::max()), 64);
  EXPECT_EQ(sizeClassLabel(0), "0 B");
  EXPECT_EQ(sizeClassLabel(1), "1 B");
  EXPECT_EQ(sizeClassLabel(2), "2-3 B");
  EXPECT_EQ(sizeClassLabel(sizeClass(1024)), "1024-2047 B");
  EXPECT_EQ(sizeClassLabel(64), "9223372036854775808-18446744073709551615 B");
}

TEST(profile_stats, RulesFollowThePaper) {
  EXPECT_EQ(estimateRule("MPI_Recv").pattern, Pattern::LateSender);
  EXPECT_EQ(estimateRule("MPI_Recv").scope, Scope::Local);
  EXPECT_FALSE(estimateRule("MPI_Recv").testExclusion);
  EXPECT_TRUE(estimateRule("MPI_Waitall").testExclusion);
  EXPECT_TRUE(estimateRule("MPI_Wait").testExclusion);
  EXPECT_EQ(estimateRule("MPI_Ssend").pattern, Pattern::LateReceiver);
  EXPECT_EQ(estimateRule("MPI_Allreduce").pattern, Pattern::WaitNxN);
  EXPECT_EQ(estimateRule("MPI_Allreduce").scope, Scope::Global);
  EXPECT_EQ(estimateRule("MPI_Bcast").role, Role::NonRoot);
  EXPECT_EQ(estimateRule("MPI_Reduce").role, Role::Root);
  EXPECT_EQ(estimateRule("MPI_Win_fence").scope, Scope::Global);
  EXPECT_EQ(estimateRule("MPI_Win_start").pattern, Pattern::LatePost);
  EXPECT_EQ(estimateRule("MPI_Win_wait").pattern, Pattern::EarlyWait);
  EXPECT_EQ(estimateRule("MPI_Comm_rank").pattern, Pattern::None);
  EXPECT_EQ(estimateRule("MPI_Isend").pattern, Pattern::None);
  EXPECT_EQ(baseMetric(Pattern::WaitNxN), "mpi_wait_nxn");
  EXPECT_EQ(baseMetric(Pattern::None), "");
}

TEST(profile_stats, TreeInternsCallPaths) {
  ProfileTree tree;
  const std::uint32_t main = tree.child(kNone, 500, 0);
  const std::uint32_t recvA = tree.child(main, 7, 0x1000);
  const std::uint32_t recvB = tree.child(main, 7, 0x2000);  // another call site
  EXPECT_EQ(tree.child(kNone, 500, 0), main);
  EXPECT_EQ(tree.child(main, 7, 0x1000), recvA);
  EXPECT_NE(recvA, recvB);
  EXPECT_NE(tree.child(recvA, 7, 0x1000), recvA);  // another parent
  EXPECT_EQ(tree.nodes()[recvB].parent, main);
  EXPECT_EQ(tree.nodes()[recvB].callSite, 0x2000u);
  // Growing the table keeps every node.
  std::set<std::uint32_t> ids;
  for (std::uintptr_t site = 1; site <= 5000; ++site) ids.insert(tree.child(main, 9, site));
  EXPECT_EQ(ids.size(), 5000u);
  for (std::uintptr_t site = 1; site <= 5000; ++site) EXPECT_TRUE(ids.count(tree.child(main, 9, site)));
  EXPECT_EQ(tree.nodes().size(), 5004u);
}

TEST(profile_stats, ExclusiveTimeSubtractsChildren) {
  ProfileTree tree;
  const std::uint32_t main = tree.child(kNone, 500, 0);
  const std::uint32_t a = tree.child(main, 1, 0x10);
  const std::uint32_t b = tree.child(main, 2, 0x20);
  tree.visit(main, 100);
  tree.visit(a, 30);
  tree.visit(b, 15);
  tree.visit(b, 5);
  const auto excl = tree.exclusive();
  EXPECT_EQ(excl[main], 50u);
  EXPECT_EQ(excl[a], 30u);
  EXPECT_EQ(excl[b], 20u);
  EXPECT_EQ(tree.nodes()[b].visits, 2u);
  EXPECT_EQ(tree.nodes()[b].inclusive, 20u);
}

TEST(profile_stats, BinsPerSizeClass) {
  ProfileTree tree;
  const std::uint32_t recv = tree.child(kNone, 7, 0x10);
  for (std::uint64_t d : {5, 3, 9}) tree.sample(recv, 1, d, false);
  tree.sample(recv, 4, 40, false);
  tree.sample(recv, 1, 4, false);  // back to class 1 after another class
  std::uint64_t count1 = 0, sum1 = 0, min1 = 0, count4 = 0;
  int slots = 0;
  for (std::uint32_t s = tree.nodes()[recv].firstSlot; s != kNone; s = tree.slots()[s].next, ++slots) {
    const BinSlot& slot = tree.slots()[s];
    if (slot.sizeClass == 1) count1 = slot.all.count, sum1 = slot.all.sum, min1 = slot.all.min;
    if (slot.sizeClass == 4) count4 = slot.all.count;
  }
  EXPECT_EQ(slots, 2);
  EXPECT_EQ(count1, 4u);
  EXPECT_EQ(sum1, 21u);
  EXPECT_EQ(min1, 3u);
  EXPECT_EQ(count4, 1u);
}

// M_p(f, s) over the call paths of f, per size class, then
// L(c) = sum_s [ sum_i d_i - n * M_p(f, s) ].
TEST(profile_stats, LocalMinimumOverCallPathsOfOneFunction) {
  ProfileTree tree;
  const std::uint32_t a = tree.child(kNone, 7, 0x10);  // MPI_Recv at one call site
  const std::uint32_t b = tree.child(kNone, 7, 0x20);  // MPI_Recv at another
  for (std::uint64_t d : {10, 4}) tree.sample(a, 1, d, false);
  for (std::uint64_t d : {7, 12}) tree.sample(b, 1, d, false);
  tree.sample(b, 9, 100, false);  // a larger message: its own class, its own minimum
  MinimumTable local(8);
  for (const std::uint32_t node : {a, b})
    for (std::uint32_t s = tree.nodes()[node].firstSlot; s != kNone; s = tree.slots()[s].next)
      local.observe(7, tree.slots()[s].sizeClass, static_cast<double>(tree.slots()[s].all.min));
  EXPECT_EQ(local.at(7, 1), 4.0);
  EXPECT_EQ(local.at(7, 9), 100.0);
  EXPECT_EQ(local.at(7, 2), MinimumTable::kUnset);
  auto m = [&](std::uint8_t s) { return local.at(7, s); };
  EXPECT_DOUBLE_EQ(waitEstimate(tree, a, false, 1.0, m), 14.0 - 2 * 4.0);
  EXPECT_DOUBLE_EQ(waitEstimate(tree, b, false, 1.0, m), 19.0 - 2 * 4.0 + 0.0);
  // Ticks become seconds.
  EXPECT_DOUBLE_EQ(waitEstimate(tree, a, false, 0.5, [](std::uint8_t) { return 2.0; }), 7.0 - 2 * 2.0);
}

// The global minimum: the elementwise minimum of every process' table (MPI_MIN).
TEST(profile_stats, GlobalMinimumOverProcesses) {
  MinimumTable rank0(2), rank1(2);
  rank0.observe(0, 1, 4.0);
  rank1.observe(0, 1, 2.0);
  rank1.observe(1, 3, 8.0);
  rank0.combine(rank1);
  EXPECT_EQ(rank0.at(0, 1), 2.0);
  EXPECT_EQ(rank0.at(1, 3), 8.0);
  EXPECT_EQ(rank0.at(1, 1), MinimumTable::kUnset);
  EXPECT_EQ(rank0.values().size(), 2u * kSizeClasses);

  ProfileTree tree;  // rank 0's allreduce visits: 10 and 4
  const std::uint32_t c = tree.child(kNone, 3, 0x30);
  tree.sample(c, 1, 10, false);
  tree.sample(c, 1, 4, false);
  EXPECT_DOUBLE_EQ(waitEstimate(tree, c, false, 1.0, [&](std::uint8_t s) { return rank0.at(0, s); }),
                   14.0 - 2 * 2.0);
}

// Mao et al. (EuroMPI/ASIA 2014), 4.1.1: waits whose requests a test found complete are left out of
// the minimum and of the waiting time of the second estimate.
TEST(profile_stats, TestBasedExclusion) {
  ProfileTree tree;
  const std::uint32_t waitall = tree.child(kNone, 11, 0x40);
  tree.sample(waitall, 2, 1, true);  // abbreviated: everything had arrived
  tree.sample(waitall, 2, 5, false);
  tree.sample(waitall, 2, 8, false);
  const BinSlot& slot = tree.slots()[tree.nodes()[waitall].firstSlot];
  EXPECT_EQ(slot.all.count, 3u);
  EXPECT_EQ(slot.all.min, 1u);
  EXPECT_EQ(slot.tested.count, 2u);
  EXPECT_EQ(slot.tested.sum, 13u);
  EXPECT_EQ(slot.tested.min, 5u);
  EXPECT_DOUBLE_EQ(waitEstimate(tree, waitall, false, 1.0, [](std::uint8_t) { return 1.0; }), 14.0 - 3 * 1.0);
  EXPECT_DOUBLE_EQ(waitEstimate(tree, waitall, true, 1.0, [](std::uint8_t) { return 5.0; }), 13.0 - 2 * 5.0);
}

TEST(profile_stats, MemoryDoesNotGrowWithVisits) {
  ProfileTree tree;
  const std::uint32_t main = tree.child(kNone, 500, 0);
  auto run = [&](int iterations) {
    for (int i = 0; i < iterations; ++i) {
      for (std::uintptr_t site = 1; site <= 20; ++site) {
        const std::uint32_t node = tree.child(main, static_cast<std::uint32_t>(site % 4), site);
        tree.visit(node, static_cast<std::uint64_t>(i % 97));
        tree.sample(node, sizeClass(static_cast<std::uint64_t>(i % 3) * 1000), static_cast<std::uint64_t>(i % 97),
                    false);
      }
    }
  };
  run(1000);
  const std::size_t after1k = tree.memoryBytes();
  run(100000);
  EXPECT_EQ(tree.memoryBytes(), after1k);
  EXPECT_EQ(tree.nodes().size(), 21u);
}

}  // namespace
