#include "analysis/trace/call_tree.h"

#include <gtest/gtest.h>

using namespace waitscope::trace;

TEST(CallTree, InternsEachDistinctPathOnce) {
  CallTree tree;
  const CallPathId main = tree.intern(kNone, 0);
  const CallPathId foo = tree.intern(main, 1);
  const CallPathId fooAgain = tree.intern(main, 1);
  const CallPathId fooAtLine = tree.intern(main, 1, 7);
  const CallPathId bar = tree.intern(foo, 2);
  EXPECT_EQ(foo, fooAgain);
  EXPECT_NE(foo, fooAtLine);  // a different call site is a different call path
  EXPECT_EQ(tree.size(), 4u);
  EXPECT_EQ(tree[bar].parent, foo);
  EXPECT_EQ(tree[bar].region, 2u);
  EXPECT_EQ(tree.depth(bar), 2u);
  EXPECT_EQ(tree.depth(main), 0u);
  const std::vector<std::uint32_t> depths = tree.depths();
  ASSERT_EQ(depths.size(), tree.size());
  for (CallPathId p = 0; p < tree.size(); ++p) EXPECT_EQ(depths[p], tree.depth(p)) << "path " << p;
}

TEST(CallTree, SameRegionUnderDifferentParentsIsDifferent) {
  CallTree tree;
  const CallPathId a = tree.intern(kNone, 0);
  const CallPathId b = tree.intern(kNone, 1);
  EXPECT_NE(tree.intern(a, 5), tree.intern(b, 5));
  EXPECT_EQ(tree.size(), 4u);
}
