// ChunkedVector: the append-only store of the delay costs' charges, the wait-state instances and the
// events' side tables.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>

#include "analysis/trace/chunked_vector.h"

using waitscope::trace::ChunkedVector;

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

TEST(ChunkedVector, SmallArraysStaySmall) {
  ChunkedVector<double> v;
  EXPECT_EQ(v.capacity(), 0u);
  v.push_back(1.0);
  EXPECT_EQ(v.capacity(), 16u);  // the first chunk starts at 16 elements
  for (int i = 0; i < 16; ++i) v.push_back(2.0 + i);
  EXPECT_EQ(v.capacity(), 32u);  // and doubles, keeping what it holds
  EXPECT_EQ(v[0], 1.0);
  EXPECT_EQ(v[16], 17.0);
  for (std::size_t i = v.size(); i < 16384 + 1; ++i) v.push_back(0.0);
  EXPECT_EQ(v.capacity(), 2u * 16384);  // then whole chunks
}

TEST(ChunkedVector, CopiesAreDeepAndGrowOnTheirOwn) {
  ChunkedVector<unsigned, 4> v;  // chunks of 16
  for (unsigned i = 0; i < 40; ++i) v.push_back(i);
  ChunkedVector<unsigned, 4> copy(v);
  ASSERT_EQ(copy.size(), 40u);
  copy[3] = 1000;
  EXPECT_EQ(v[3], 3u);
  for (unsigned i = 40; i < 70; ++i) copy.push_back(i);  // the partial last chunk grows, then new chunks
  ASSERT_EQ(copy.size(), 70u);
  for (unsigned i = 0; i < 70; ++i) EXPECT_EQ(copy[i], i == 3 ? 1000u : i) << i;
  EXPECT_EQ(v.size(), 40u);
  v = copy;
  EXPECT_EQ(v.size(), 70u);
  EXPECT_EQ(v[69], 69u);
}

TEST(ChunkedVector, RangeForReadsEveryElementInOrder) {
  ChunkedVector<unsigned, 4> v;  // chunks of 16
  unsigned count = 0;
  for (const unsigned x : v) count += x + 1;
  EXPECT_EQ(count, 0u);  // empty: no element
  for (unsigned i = 0; i < 50; ++i) v.push_back(i);
  unsigned expected = 0;
  for (const unsigned x : v) ASSERT_EQ(x, expected++);
  EXPECT_EQ(expected, 50u);
}

TEST(ChunkedVector, WholeChunksAreContiguous) {
  ChunkedVector<unsigned, 4> v;
  for (unsigned i = 0; i < 40; ++i) v.push_back(i);
  using V = ChunkedVector<unsigned, 4>;
  static_assert(V::kChunk == 16);
  for (std::size_t first = 0; first < v.size(); first += V::kChunk) {
    const unsigned* piece = &v[first];
    const std::size_t n = std::min(V::kChunk, v.size() - first);
    for (std::size_t k = 0; k < n; ++k) ASSERT_EQ(piece[k], first + k);  // as a message would be sent
  }
}
