// MaxLocKey: MPI_MAXLOC over (time, rank) as an elementwise maximum of two signed
// 64-bit keys, which is how the RMA notes' times are combined.
#include "analysis/patterns/max_loc_key.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace waitscope::patterns {
namespace {

// What MPI_Accumulate(MPI_MAX, MPI_INT64_T) leaves in the target: each word's maximum.
MaxLocKey elementwiseMax(const MaxLocKey& a, const MaxLocKey& b) {
  return {std::max(a.value, b.value), std::max(a.located, b.located)};
}

TEST(MaxLocKey, KeysOrderLikeTheirTimesAsSignedIntegers) {
  const std::vector<double> times = {-std::numeric_limits<double>::infinity(), -1e300, -2.5, -1e-300, -0.0, 0.0,
                                     1e-300, 0.4, 0.40000000000000002, 1.0, 1e300,
                                     std::numeric_limits<double>::infinity()};
  for (std::size_t i = 0; i + 1 < times.size(); ++i) {
    EXPECT_LE(orderedKey(times[i]), orderedKey(times[i + 1])) << times[i] << " vs " << times[i + 1];
    if (times[i] < times[i + 1]) {
      EXPECT_LT(orderedKey(times[i]), orderedKey(times[i + 1]));
    }
  }
  for (const double t : times) EXPECT_EQ(timeOfKey(orderedKey(t)), t);
}

TEST(MaxLocKey, NobodyIsBelowEveryTime) {
  const MaxLocCoder coder(4);
  EXPECT_EQ(coder.time(coder.none()), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(coder.rank(coder.none()), -1);
  const MaxLocKey earliest = coder.encode(-std::numeric_limits<double>::infinity(), 3);
  EXPECT_LT(coder.none().value, earliest.value);
  EXPECT_LT(coder.none().located, earliest.located);
  const MaxLocKey merged = elementwiseMax(coder.none(), coder.encode(-5.0, 2));
  EXPECT_EQ(coder.time(merged), -5.0);
  EXPECT_EQ(coder.rank(merged), 2);
}

// The word MPICH 4.0 (without yaksa) got wrong as MPI_UINT64_T: positive times.
TEST(MaxLocKey, LatestTimeWinsWithItsRankWhateverTheOrderOfArrival) {
  const MaxLocCoder coder(8);
  const std::vector<std::pair<double, int>> contributions = {{2.5, 3}, {0.4, 0}, {7.25, 6}, {7.0, 1}, {1e-9, 7}};
  for (int rotation = 0; rotation < static_cast<int>(contributions.size()); ++rotation) {
    MaxLocKey acc = coder.none();
    for (std::size_t k = 0; k < contributions.size(); ++k) {
      const auto& [time, rank] = contributions[(k + static_cast<std::size_t>(rotation)) % contributions.size()];
      acc = elementwiseMax(acc, coder.encode(time, rank));
    }
    EXPECT_EQ(coder.time(acc), 7.25);
    EXPECT_EQ(coder.rank(acc), 6);
  }
}

TEST(MaxLocKey, EqualTimesNameTheLowestRankLikeMpiMaxloc) {
  const MaxLocCoder coder(1024);
  MaxLocKey acc = coder.none();
  for (const int rank : {900, 17, 1023, 5, 640}) acc = elementwiseMax(acc, coder.encode(3.0, rank));
  EXPECT_EQ(coder.time(acc), 3.0);
  EXPECT_EQ(coder.rank(acc), 5);
}

}  // namespace
}  // namespace waitscope::patterns
