// The report algebra on hand-made reports: call paths matched by region names
// (never ids), same-named siblings by call site and then in order, metrics by
// name, locations by rank or summed when the rank counts differ, and the exact
// values of difference, ratio, mean, merge and the per-metric comparison.
// Values are binary fractions, so sums and differences compare with ==.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "analysis/report/report_algebra.h"
#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "tests/support/test_support.h"
#include "tests/unit/report/report_test_util.h"

using namespace waitscope::report;

namespace {

using Values = std::vector<double>;

// A run built by region names: call paths are given as "main/foo/MPI_Recv" with a call site.
class RunBuilder {
 public:
  RunBuilder(const std::string& trace, std::vector<std::uint32_t> ranks) {
    r_.meta = {{"format_version", "1"}, {"trace", trace}};
    r_.systemNodes = {{"node", "node", kNoId}};
    for (const std::uint32_t rank : ranks) r_.locations.push_back({"MPI Rank " + std::to_string(rank), rank, 0});
  }
  RunBuilder& metric(const std::string& name, const std::string& parent = {},
                     MetricUnit unit = MetricUnit::Seconds) {
    r_.metrics.push_back({name, name + " (display)", "", unit, parent.empty() ? kNoId : r_.findMetric(parent)});
    return *this;
  }
  // A call path below `parent` (kNoId: a root); returns its index.
  std::uint32_t callPath(std::uint32_t parent, const std::string& region, const std::string& file = {},
                         std::uint32_t line = 0) {
    std::uint32_t reg = 0;
    while (reg < r_.regions.size() && r_.regions[reg].name != region) ++reg;
    if (reg == r_.regions.size()) r_.regions.push_back({region, region + ".c", 1, 9, "user"});
    r_.callPaths.push_back({parent, reg, file, line});
    return static_cast<std::uint32_t>(r_.callPaths.size() - 1);
  }
  RunBuilder& row(const std::string& metric, std::uint32_t callPath, Values values) {
    r_.severities.push_back({r_.findMetric(metric), callPath, std::move(values)});
    return *this;
  }
  Report& report() { return r_; }

 private:
  Report r_;
};

// The union call path named `path` (region names from the root) whose call site is `line`.
std::uint32_t findPath(const Report& r, const std::string& path, std::uint32_t line) {
  for (std::uint32_t c = 0; c < r.callPaths.size(); ++c)
    if (callPathString(r, c) == path && r.callPaths[c].callSiteLine == line) return c;
  ADD_FAILURE() << "no call path " << path << " at line " << line;
  return kNoId;
}

// The values of (metric, call path), or an empty vector when the report holds no such row.
Values valuesOf(const Report& r, const std::string& metric, std::uint32_t callPath) {
  for (const SeverityRow& row : r.severities)
    if (row.metric == r.findMetric(metric) && row.callPath == callPath) return row.values;
  return {};
}

// A: main -> foo (main.c:20) -> MPI_Recv, main -> baz; metrics time > mpi > mpi_latesender, visits.
Report runA() {
  RunBuilder b("/runs/a/traces.otf2", {0, 1});
  b.metric("time").metric("mpi", "time").metric("mpi_latesender", "mpi").metric("visits", "", MetricUnit::Occurrences);
  const std::uint32_t main = b.callPath(kNoId, "main");
  const std::uint32_t foo = b.callPath(main, "foo", "main.c", 20);
  const std::uint32_t recv = b.callPath(foo, "MPI_Recv", "foo.c", 12);
  const std::uint32_t baz = b.callPath(main, "baz", "main.c", 30);
  b.row("time", main, {1.0, 2.0}).row("time", foo, {0.5, 0.5}).row("time", baz, {0.25, 0.0});
  b.row("mpi", recv, {0.5, 0.25}).row("mpi_latesender", recv, {0.25, 0.0}).row("visits", recv, {3.0, 3.0});
  return b.report();
}

// B: the same program after an edit, its ids in another order: baz is gone, bar is new, foo moved
// to line 22, and a metric mpi_latereceiver is new. Ranks listed as 1, 0.
Report runB() {
  RunBuilder b("/runs/b/traces.otf2", {1, 0});
  b.metric("time").metric("visits", "", MetricUnit::Occurrences).metric("mpi", "time");
  b.metric("mpi_latereceiver", "mpi").metric("mpi_latesender", "mpi");
  const std::uint32_t main = b.callPath(kNoId, "main");
  const std::uint32_t bar = b.callPath(main, "bar", "main.c", 25);
  const std::uint32_t foo = b.callPath(main, "foo", "main.c", 22);
  const std::uint32_t recv = b.callPath(foo, "MPI_Recv", "foo.c", 12);
  // Values per location: location 0 is rank 1, location 1 is rank 0.
  b.row("time", main, {2.5, 0.75}).row("time", foo, {0.5, 1.0}).row("time", bar, {0.125, 0.125});
  b.row("mpi", recv, {0.25, 0.25}).row("mpi_latereceiver", recv, {0.0, 0.5}).row("visits", recv, {4.0, 2.0});
  return b.report();
}

TEST(report_algebra, CallPathsMatchByRegionNamesNotIds) {
  const AlignedReports al = alignReports(runA(), runB());
  EXPECT_TRUE(al.sameRanks);
  const Report& u = al.a;
  EXPECT_EQ(firstProblem(u), "");
  EXPECT_EQ(firstProblem(al.b), "");
  EXPECT_EQ(firstProblem(al.difference), "");
  ASSERT_EQ(u.callPaths.size(), 5U);  // main, foo, MPI_Recv, baz and bar
  ASSERT_EQ(al.callPathPresence.size(), 5U);
  const std::uint32_t main = findPath(u, "main", 0), foo = findPath(u, "main/foo", 20),
                      recv = findPath(u, "main/foo/MPI_Recv", 12), baz = findPath(u, "main/baz", 30),
                      bar = findPath(u, "main/bar", 25);
  EXPECT_EQ(al.callPathPresence[main], Presence::Both);
  EXPECT_EQ(al.callPathPresence[foo], Presence::Both);  // matched although its line moved
  EXPECT_EQ(al.callPathPresence[recv], Presence::Both);
  EXPECT_EQ(al.callPathPresence[baz], Presence::OnlyA);
  EXPECT_EQ(al.callPathPresence[bar], Presence::OnlyB);
  // The three reports share one structure: A's call paths first, in A's order.
  EXPECT_EQ(main, 0U);
  EXPECT_EQ(bar, 4U);
  EXPECT_EQ(al.b.callPaths.size(), 5U);
  // Locations by rank: B's values are moved to rank order.
  EXPECT_EQ(u.locations[0].rank, 0U);
  EXPECT_EQ(valuesOf(al.b, "time", main), (Values{0.75, 2.5}));
  EXPECT_EQ(valuesOf(al.b, "visits", recv), (Values{2.0, 4.0}));
  EXPECT_EQ(valuesOf(al.a, "time", main), (Values{1.0, 2.0}));
  // B - A, a value missing in one run counting as 0; negative values stay.
  const Report& d = al.difference;
  EXPECT_EQ(valuesOf(d, "time", main), (Values{-0.25, 0.5}));
  EXPECT_EQ(valuesOf(d, "time", foo), (Values{0.5, 0.0}));
  EXPECT_EQ(valuesOf(d, "time", baz), (Values{-0.25, 0.0}));
  EXPECT_EQ(valuesOf(d, "time", bar), (Values{0.125, 0.125}));
  EXPECT_EQ(valuesOf(d, "mpi", recv), (Values{-0.25, 0.0}));
  EXPECT_EQ(valuesOf(d, "mpi_latesender", recv), (Values{-0.25, 0.0}));
  EXPECT_EQ(valuesOf(d, "mpi_latereceiver", recv), (Values{0.5, 0.0}));
  EXPECT_EQ(valuesOf(d, "visits", recv), (Values{-1.0, 1.0}));
  EXPECT_EQ(d.metaValue("kind"), "difference");
  EXPECT_EQ(d.metaValue("minuend"), "/runs/b/traces.otf2");
  EXPECT_EQ(d.metaValue("subtrahend"), "/runs/a/traces.otf2");
  EXPECT_TRUE(d.instances.empty());
}

TEST(report_algebra, UnionMetricTreeKeepsAsOrderThenBsExtras) {
  const AlignedReports al = alignReports(runA(), runB());
  std::vector<std::string> names;
  for (const Metric& m : al.a.metrics) names.push_back(m.uniqueName);
  EXPECT_EQ(names, (std::vector<std::string>{"time", "mpi", "mpi_latesender", "visits", "mpi_latereceiver"}));
  EXPECT_EQ(al.a.metrics[4].parent, 1U);
  const std::vector<MetricComparison> c = compareMetrics(runA(), runB());
  ASSERT_EQ(c.size(), 5U);
  std::vector<std::string> order;
  for (const MetricComparison& m : c) order.push_back(m.uniqueName);
  EXPECT_EQ(order, (std::vector<std::string>{"time", "mpi", "mpi_latesender", "mpi_latereceiver", "visits"}));
  EXPECT_EQ(c[0].depth, 0U);
  EXPECT_EQ(c[3].depth, 2U);
  EXPECT_EQ(c[0].displayName, "time (display)");
  EXPECT_EQ(c[4].unit, MetricUnit::Occurrences);
  // time, inclusive: A 1+2+0.5+0.5+0.25 + mpi 0.75 + LS 0.25 = 5.25; B 3.25+1.5+0.25 + 0.5 + LR 0.5 = 6.
  EXPECT_EQ(c[0].totalA, 5.25);
  EXPECT_EQ(c[0].totalB, 6.0);
  EXPECT_EQ(c[0].difference(), 0.75);
  EXPECT_EQ(c[0].ratio(), 6.0 / 5.25);
  // Per rank: A's rank 0 has 1+0.5+0.25+0.5+0.25 = 2.5, rank 1 has 2+0.5+0.25 = 2.75.
  EXPECT_EQ(c[0].minA, 2.5);
  EXPECT_EQ(c[0].maxA, 2.75);
  EXPECT_EQ(c[0].meanA, 2.625);
  EXPECT_EQ(c[3].totalA, 0.0);  // only in B
  EXPECT_EQ(c[3].totalB, 0.5);
  EXPECT_EQ(c[3].ratio(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(c[4].totalA, 6.0);
  EXPECT_EQ(c[4].totalB, 6.0);
  EXPECT_EQ(c[4].ratio(), 1.0);
}

TEST(report_algebra, ComparisonRatioOfZeros) {
  MetricComparison m;
  EXPECT_EQ(m.ratio(), 0.0);
  m.totalB = -1.0;
  EXPECT_EQ(m.ratio(), -std::numeric_limits<double>::infinity());
  m.totalA = 4.0;
  EXPECT_EQ(m.ratio(), -0.25);
}

TEST(report_algebra, SameNamedSiblingsMatchByCallSiteThenInOrder) {
  RunBuilder a("a", {0});
  a.metric("time");
  const std::uint32_t mainA = a.callPath(kNoId, "main");
  a.row("time", a.callPath(mainA, "foo", "main.c", 10), {1.0});
  a.row("time", a.callPath(mainA, "foo", "main.c", 20), {2.0});
  RunBuilder b("b", {0});
  b.metric("time");
  const std::uint32_t mainB = b.callPath(kNoId, "main");
  b.row("time", b.callPath(mainB, "foo", "main.c", 30), {8.0});
  b.row("time", b.callPath(mainB, "foo", "main.c", 20), {16.0});
  b.row("time", b.callPath(mainB, "foo", "main.c", 40), {32.0});
  const AlignedReports al = alignReports(a.report(), b.report());
  ASSERT_EQ(al.a.callPaths.size(), 4U);
  // foo@20 pairs with foo@20; of the rest, A's foo@10 pairs with B's first, foo@30; foo@40 is new.
  EXPECT_EQ(valuesOf(al.b, "time", 2), (Values{16.0}));
  EXPECT_EQ(valuesOf(al.b, "time", 1), (Values{8.0}));
  EXPECT_EQ(valuesOf(al.b, "time", 3), (Values{32.0}));
  EXPECT_EQ(al.a.callPaths[3].callSiteLine, 40U);
  EXPECT_EQ(al.callPathPresence,
            (std::vector<Presence>{Presence::Both, Presence::Both, Presence::Both, Presence::OnlyB}));
  EXPECT_EQ(valuesOf(al.difference, "time", 1), (Values{7.0}));
  EXPECT_EQ(valuesOf(al.difference, "time", 2), (Values{14.0}));
}

TEST(report_algebra, ManySameNamedSiblings) {
  // 3000 calls of foo from main at lines 1..3000 in A and 2..3001 in B: the equal sites pair up,
  // and B's foo at line 3001 takes the one left, A's at line 1.
  RunBuilder a("a", {0}), b("b", {0});
  a.metric("time");
  b.metric("time");
  const std::uint32_t mainA = a.callPath(kNoId, "main"), mainB = b.callPath(kNoId, "main");
  for (std::uint32_t line = 1; line <= 3000; ++line) {
    a.row("time", a.callPath(mainA, "foo", "main.c", line), {static_cast<double>(line)});
    b.row("time", b.callPath(mainB, "foo", "main.c", line + 1), {static_cast<double>(line + 1)});
  }
  const AlignedReports al = alignReports(a.report(), b.report());
  ASSERT_EQ(al.a.callPaths.size(), 3001U);
  EXPECT_EQ(std::count(al.callPathPresence.begin(), al.callPathPresence.end(), Presence::Both), 3001);
  EXPECT_EQ(valuesOf(al.b, "time", 1), (Values{3001.0}));  // A's foo at line 1
  EXPECT_EQ(valuesOf(al.difference, "time", 1), (Values{3000.0}));
  for (std::uint32_t c = 2; c <= 3000; ++c) ASSERT_TRUE(valuesOf(al.difference, "time", c).empty()) << c;
}

TEST(report_algebra, DifferentRankCountsSumIntoAllRanks) {
  RunBuilder a("a", {0, 1});
  a.metric("time").metric("comp", "time");
  const std::uint32_t mainA = a.callPath(kNoId, "main");
  a.row("time", mainA, {1.0, 2.0}).row("comp", mainA, {4.0, 8.0});
  a.report().instances.push_back({0, 1, mainA, 0.5, 0.75, 0});
  RunBuilder b("b", {0, 1, 2, 3});
  b.metric("time").metric("comp", "time");
  const std::uint32_t mainB = b.callPath(kNoId, "main");
  b.row("time", mainB, {0.5, 0.5, 0.5, 1.5}).row("comp", mainB, {2.0, 2.0, 2.0, 2.0});
  const AlignedReports al = alignReports(a.report(), b.report());
  EXPECT_FALSE(al.sameRanks);
  ASSERT_EQ(al.a.locations.size(), 1U);
  EXPECT_EQ(al.a.locations[0].name, "All ranks");
  EXPECT_EQ(al.b.locations[0].name, "All ranks");
  EXPECT_EQ(firstProblem(al.a), "");
  EXPECT_EQ(firstProblem(al.difference), "");
  EXPECT_EQ(valuesOf(al.a, "time", 0), (Values{3.0}));
  EXPECT_EQ(valuesOf(al.b, "time", 0), (Values{3.0}));
  EXPECT_EQ(valuesOf(al.b, "comp", 0), (Values{8.0}));
  EXPECT_EQ(valuesOf(al.difference, "comp", 0), (Values{-4.0}));
  EXPECT_TRUE(valuesOf(al.difference, "time", 0).empty());  // 3 - 3: an all-zero row is left out
  ASSERT_EQ(al.a.instances.size(), 1U);
  EXPECT_EQ(al.a.instances[0].location, 0U);
  EXPECT_EQ(al.a.instances[0].cause, kNoId);
  // Per rank from the runs themselves: time inclusive A 5 | 10, B 2.5 | 2.5 | 2.5 | 3.5.
  const std::vector<MetricComparison> c = compareMetrics(a.report(), b.report());
  ASSERT_EQ(c.size(), 2U);
  EXPECT_EQ(c[0].totalA, 15.0);
  EXPECT_EQ(c[0].totalB, 11.0);
  EXPECT_EQ(c[0].meanA, 7.5);
  EXPECT_EQ(c[0].minA, 5.0);
  EXPECT_EQ(c[0].maxA, 10.0);
  EXPECT_EQ(c[0].meanB, 2.75);
  EXPECT_EQ(c[0].minB, 2.5);
  EXPECT_EQ(c[0].maxB, 3.5);
}

TEST(report_algebra, DifferenceReportRoundTripsThroughTheFile) {
  const Report d = differenceReport(runA(), runB());
  EXPECT_EQ(firstProblem(d), "");
  waitscope::test::TempDir dir;
  const std::string path = (dir / "d.waitscope").string();
  writeReport(d, path);
  const Report back = readReport(path);
  waitscope::test::expectSameReport(d, back);
  EXPECT_EQ(back.metaValue("kind"), "difference");
}

TEST(report_algebra, RatioLeavesOutRowsThatWouldBeInfinite) {
  RunBuilder a("a", {0, 1});
  a.metric("time").metric("mpi", "time");
  const std::uint32_t mainA = a.callPath(kNoId, "main");
  const std::uint32_t fooA = a.callPath(mainA, "foo");
  a.row("time", mainA, {2.0, 4.0}).row("time", fooA, {0.0, 1.0});
  RunBuilder b("b", {0, 1});
  b.metric("time").metric("mpi", "time");
  const std::uint32_t mainB = b.callPath(kNoId, "main");
  const std::uint32_t fooB = b.callPath(mainB, "foo");
  b.row("time", mainB, {1.0, 0.0}).row("time", fooB, {3.0, 1.0}).row("mpi", mainB, {0.5, 0.0});
  const Report r = ratioReport(a.report(), b.report());
  EXPECT_EQ(firstProblem(r), "");
  EXPECT_EQ(r.metaValue("kind"), "ratio");
  EXPECT_EQ(r.metaValue("numerator"), "b");
  EXPECT_EQ(r.metaValue("denominator"), "a");
  EXPECT_EQ(valuesOf(r, "time", 0), (Values{0.5, 0.0}));
  EXPECT_TRUE(valuesOf(r, "time", 1).empty());  // 3 / 0 on rank 0
  EXPECT_TRUE(valuesOf(r, "mpi", 0).empty());   // only in B: 0.5 / 0
  // 0 / 0 is 0: a row of zeros only is left out like every all-zero row.
  RunBuilder zeros("z", {0});
  zeros.metric("time");
  zeros.row("time", zeros.callPath(kNoId, "main"), {0.0});
  EXPECT_TRUE(ratioReport(zeros.report(), zeros.report()).severities.empty());
}

TEST(report_algebra, MeanOfRunsValueByValue) {
  RunBuilder a("a", {0, 1});
  a.metric("time").metric("visits", "", MetricUnit::Occurrences);
  const std::uint32_t mainA = a.callPath(kNoId, "main");
  a.row("time", mainA, {1.0, 3.0}).row("visits", a.callPath(mainA, "foo"), {4.0, 4.0});
  RunBuilder b("b", {1, 0});
  b.metric("time");
  const std::uint32_t mainB = b.callPath(kNoId, "main");
  b.row("time", mainB, {2.0, 4.0}).row("time", b.callPath(mainB, "bar"), {1.0, 1.0});
  const Report m = meanReport({&a.report(), &b.report()});
  EXPECT_EQ(firstProblem(m), "");
  EXPECT_EQ(m.metaValue("kind"), "mean");
  EXPECT_EQ(m.metaValue("run_2"), "b");
  ASSERT_EQ(m.callPaths.size(), 3U);
  EXPECT_EQ(valuesOf(m, "time", 0), (Values{2.5, 2.5}));   // (1+4)/2, (3+2)/2 by rank
  EXPECT_EQ(valuesOf(m, "visits", 1), (Values{2.0, 2.0}));  // present in one run only
  EXPECT_EQ(valuesOf(m, "time", 2), (Values{0.5, 0.5}));

  RunBuilder c("/runs/c", {0, 1, 2});
  c.metric("time");
  c.row("time", c.callPath(kNoId, "main"), {1.0, 1.0, 1.0});
  try {
    meanReport({&a.report(), &b.report(), &c.report()});
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("run 3 (/runs/c) has 3 ranks"), std::string::npos) << e.what();
  }
  EXPECT_THROW(meanReport({}), std::runtime_error);
}

TEST(report_algebra, MergeTakesEachMetricFromTheFirstRunThatHasIt) {
  RunBuilder a("a", {0});
  a.metric("time").metric("visits", "", MetricUnit::Occurrences);
  const std::uint32_t mainA = a.callPath(kNoId, "main");
  a.row("time", mainA, {1.0}).row("visits", mainA, {2.0});
  RunBuilder b("b", {0});
  b.metric("time").metric("bytes", "", MetricUnit::Bytes);
  const std::uint32_t mainB = b.callPath(kNoId, "main");
  b.row("time", mainB, {8.0}).row("bytes", b.callPath(mainB, "MPI_Send"), {64.0});
  const Report m = mergeReports({&a.report(), &b.report()});
  EXPECT_EQ(firstProblem(m), "");
  ASSERT_EQ(m.metrics.size(), 3U);
  EXPECT_EQ(m.metrics[2].uniqueName, "bytes");
  EXPECT_EQ(valuesOf(m, "time", 0), (Values{1.0}));
  EXPECT_EQ(valuesOf(m, "visits", 0), (Values{2.0}));
  EXPECT_EQ(valuesOf(m, "bytes", 1), (Values{64.0}));
  EXPECT_EQ(m.severities.size(), 3U);
}

}  // namespace
