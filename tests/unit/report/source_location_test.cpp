// Source positions of call paths, source-root mapping (FROM=TO prefixes on
// whole path components), the root suggested from a file the user found, and
// the per-line values of the app's source pane.
#include <gtest/gtest.h>

#include "analysis/report/source_location.h"
#include "tests/unit/report/sample_report.h"

namespace {

TEST(source_location, CallSiteElseTheNearestPlaceUpTheCallPath) {
  using waitscope::report::sourcePosition;
  const waitscope::report::Report r = waitscope::test::sampleReport();
  EXPECT_EQ(sourcePosition(r, 2).file, "foo.c");  // its call site
  EXPECT_EQ(sourcePosition(r, 2).line, 12U);
  EXPECT_EQ(sourcePosition(r, 4).file, "compute.c");  // no call site: its region's definition
  EXPECT_EQ(sourcePosition(r, 4).line, 7U);
  EXPECT_EQ(sourcePosition(r, 5).file, "main.c");  // neither: up to main's definition
  EXPECT_EQ(sourcePosition(r, 5).line, 10U);
  waitscope::report::Report bare = r;
  bare.regions[0].file.clear();
  EXPECT_EQ(sourcePosition(bare, 5).file, "");  // nothing to point at
  EXPECT_EQ(sourcePosition(bare, 5).line, 0U);
}

TEST(source_location, SourceRootsReplaceWholePathComponents) {
  using waitscope::report::mapSourceRoot;
  using waitscope::report::parseSourceRoot;
  const std::vector<waitscope::report::SourceRoot> roots = {
      *parseSourceRoot("/build=/home/me/src"), *parseSourceRoot("/build/gen/=/tmp/gen"),
      *parseSourceRoot("/=/mnt/"), *parseSourceRoot("rel=/abs/rel")};
  EXPECT_EQ(mapSourceRoot(roots, "/build/a.c"), "/home/me/src/a.c");
  EXPECT_EQ(mapSourceRoot(roots, "/build/gen/b.c"), "/tmp/gen/b.c");  // the longest FROM wins
  EXPECT_EQ(mapSourceRoot(roots, "/buildx/c.c"), "/mnt/buildx/c.c");  // "/build" is no prefix of "/buildx"
  EXPECT_EQ(mapSourceRoot(roots, "rel/d.c"), "/abs/rel/d.c");
  EXPECT_EQ(mapSourceRoot(roots, "other/e.c"), "other/e.c");
  EXPECT_EQ(mapSourceRoot({}, "/build/a.c"), "/build/a.c");
  EXPECT_EQ(mapSourceRoot({*parseSourceRoot("/ci/repo/=")}, "/ci/repo/src/a.c"), "src/a.c");  // relative
  EXPECT_EQ(parseSourceRoot("a=b=c")->to, "b=c");  // split at the first '='
  EXPECT_FALSE(parseSourceRoot("=x"));
  EXPECT_FALSE(parseSourceRoot("none"));
}

TEST(source_location, SourceRootForAFileTheUserFound) {
  using waitscope::report::mapSourceRoot;
  using waitscope::report::sourceRootFor;
  const auto root = sourceRootFor("/scratch/u1/app/src/a.c", "/home/me/app/src/a.c");
  ASSERT_TRUE(root);
  EXPECT_EQ(root->from, "/scratch/u1");
  EXPECT_EQ(root->to, "/home/me");
  EXPECT_EQ(mapSourceRoot({*root}, "/scratch/u1/app/include/b.h"), "/home/me/app/include/b.h");
  const auto relative = sourceRootFor("src/a.c", "/home/me/app/src/a.c");
  ASSERT_TRUE(relative);
  EXPECT_EQ(relative->from, "src");
  EXPECT_EQ(relative->to, "/home/me/app/src");
  const auto top = sourceRootFor("/a.c", "/home/me/a.c");
  ASSERT_TRUE(top);
  EXPECT_EQ(mapSourceRoot({*top}, "/b.c"), "/home/me/b.c");
  EXPECT_FALSE(sourceRootFor("/x/a.c", "/y/b.c"));  // not the same file
  EXPECT_FALSE(sourceRootFor("a.c", "/home/me/a.c"));  // a bare name has no prefix to map
}

TEST(source_location, ValuesByLineForTheSourcePane) {
  const waitscope::report::Report r = waitscope::test::sampleReport();
  // time (all metrics below it) per line of main.c: main/foo (line 20) and
  // main/MPI_Win_start (30), main (region main.c:10) and main/MPI_Recv (its parent's line 10).
  const auto lines = waitscope::report::valuesByLine(r, 0, "main.c");
  ASSERT_EQ(lines.size(), 3U);
  EXPECT_EQ(lines[0].first, 10U);
  EXPECT_EQ(lines[0].second, 3.0 + 0.25);  // main: time 3.0; main/MPI_Recv: Late Sender 0.25
  EXPECT_EQ(lines[1].first, 20U);
  EXPECT_EQ(lines[1].second, 1.5);
  EXPECT_EQ(lines[2].first, 30U);
  EXPECT_EQ(lines[2].second, 0.375 + 1.0 + 0.0625);
}

}  // namespace
