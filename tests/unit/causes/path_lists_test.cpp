// The call-path sequences of the caused wait states' charges, each distinct one kept once
// (causes::delay::PathLists).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "analysis/causes/caused_waits.h"

namespace {

using waitscope::causes::delay::PathLists;
using waitscope::trace::CallPathId;

std::vector<CallPathId> readBack(const PathLists& lists, std::uint32_t first, std::size_t length) {
  std::vector<CallPathId> out;
  for (std::size_t k = 0; k < length; ++k) out.push_back(lists[first + k]);
  return out;
}

TEST(PathLists, EqualSequencesShareOneCopy) {
  PathLists lists;
  const std::vector<CallPathId> a{3, 1, 4}, b{1, 5, 9, 2}, aAgain{3, 1, 4};
  const std::uint32_t atA = lists.intern(a), atB = lists.intern(b);
  EXPECT_NE(atA, atB);
  EXPECT_EQ(lists.intern(aAgain), atA);
  EXPECT_EQ(lists.intern(b), atB);
  EXPECT_EQ(readBack(lists, atA, a.size()), a);
  EXPECT_EQ(readBack(lists, atB, b.size()), b);
}

// A prefix, an extension and a reordering are other sequences, though their first ids agree.
TEST(PathLists, PrefixesAndReorderingsAreOtherSequences) {
  PathLists lists;
  const std::vector<CallPathId> whole{7, 8, 9}, prefix{7, 8}, reordered{8, 7, 9}, longer{7, 8, 9, 10};
  const std::uint32_t atWhole = lists.intern(whole);
  const std::uint32_t atPrefix = lists.intern(prefix), atReordered = lists.intern(reordered),
                      atLonger = lists.intern(longer);
  EXPECT_NE(atPrefix, atWhole);
  EXPECT_NE(atReordered, atWhole);
  EXPECT_NE(atLonger, atWhole);
  EXPECT_EQ(readBack(lists, atPrefix, 2), prefix);
  EXPECT_EQ(readBack(lists, atReordered, 3), reordered);
  EXPECT_EQ(readBack(lists, atLonger, 4), longer);
  EXPECT_EQ(lists.intern(whole), atWhole);
}

// Past the distinct sequences it looks up, new ones are still kept whole and read back right,
// and the ones looked up before are still shared.
TEST(PathLists, ManyDistinctSequencesStayCorrect) {
  PathLists lists;
  constexpr std::uint32_t kSequences = 70000;  // more than it indexes
  std::vector<std::uint32_t> at(kSequences);
  for (std::uint32_t s = 0; s < kSequences; ++s) at[s] = lists.intern({s, s + 1, 2 * s});
  for (std::uint32_t s = 0; s < kSequences; ++s)
    ASSERT_EQ(readBack(lists, at[s], 3), (std::vector<CallPathId>{s, s + 1, 2 * s})) << s;
  EXPECT_EQ(lists.intern({0, 1, 0}), at[0]);
  EXPECT_EQ(lists.intern({1000, 1001, 2000}), at[1000]);
}

TEST(PathLists, TheEmptySequence) {
  PathLists lists;
  const std::uint32_t atEmpty = lists.intern({});
  const std::uint32_t atOne = lists.intern({42});
  EXPECT_EQ(lists.intern({}), atEmpty);
  EXPECT_EQ(lists[atOne], 42u);
}

}  // namespace
