// ChunkedVector: the append-only store of the delay costs' charges.
#include <gtest/gtest.h>

#include <cstddef>

#include "analysis/replay/chunked_vector.h"

using waitscope::replay::ChunkedVector;

TEST(ChunkedVector, KeepsEveryElementAcrossChunks) {
  ChunkedVector<double> v;
  EXPECT_TRUE(v.empty());
  constexpr std::size_t n = 3 * 16384 + 17;  // three full chunks and a bit
  for (std::size_t i = 0; i < n; ++i) v.push_back(0.5 * static_cast<double>(i));
  ASSERT_EQ(v.size(), n);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(v[i], 0.5 * static_cast<double>(i)) << i;
}

TEST(ChunkedVector, ShrinkDropsTheTailAndAppendsAfterIt) {
  ChunkedVector<unsigned> v;
  for (unsigned i = 0; i < 20000; ++i) v.push_back(i);
  v.shrinkTo(16380);  // inside the first chunk again
  EXPECT_EQ(v.size(), 16380u);
  for (unsigned i = 0; i < 10; ++i) v.push_back(1000000 + i);  // across the chunk boundary
  ASSERT_EQ(v.size(), 16390u);
  EXPECT_EQ(v[16379], 16379u);
  EXPECT_EQ(v[16380], 1000000u);
  EXPECT_EQ(v[16389], 1000009u);
  v.shrinkTo(30000);  // larger than the size: nothing happens
  EXPECT_EQ(v.size(), 16390u);
}

TEST(ChunkedVector, ElementsAreWritable) {
  ChunkedVector<int> v;
  for (int i = 0; i < 40000; ++i) v.push_back(i);
  v[39999] = -1;
  v[0] += 5;
  const ChunkedVector<int>& c = v;
  EXPECT_EQ(c[39999], -1);
  EXPECT_EQ(c[0], 5);
}
