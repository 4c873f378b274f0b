// causes::walkHops, the critical path's hops planned on rank 0 from switches it fetches in chunks:
// every location gets exactly the legs, in order, of a walk that sees every location's switches
// at once, whatever the chunk (one switch, a few, all), with ties, locations without switches and
// zero-length detours; and a small walk checked by hand.
#include "analysis/causes/critical_path_hops.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "tests/mpi/patterns/scenario.h"

namespace waitscope::test {
namespace {

using causes::Leg;
using causes::PathEnds;
using causes::PathSwitch;

// Location r's switches, the same on every process: ends ascending with ties, causes among the
// other locations, none at all on location 1 of three or more.
std::vector<PathSwitch> generated(trace::Rank r, trace::Rank n) {
  std::vector<PathSwitch> out;
  if (n == 1 || (n >= 3 && r == 1)) return out;
  unsigned state = 2654435761u * (r + 1);
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  double end = 0.5;
  const std::size_t count = 40 + 13 * static_cast<std::size_t>(r);
  for (std::size_t k = 0; k < count; ++k) {
    end += static_cast<double>(next() % 4) * 0.25;  // a quarter of them tie with the one before
    trace::Rank cause = static_cast<trace::Rank>(next() % (n - 1));
    if (cause >= r) ++cause;
    out.push_back({end - 0.1, end, cause});
  }
  return out;
}

// The walk with every location's switches at hand: the legs (from, to) of each location.
std::vector<std::vector<Leg>> referenceWalk(const std::vector<std::vector<PathSwitch>>& all, const PathEnds& ends) {
  std::vector<std::vector<Leg>> legs(all.size());
  std::vector<std::size_t> usable(all.size());
  for (std::size_t r = 0; r < all.size(); ++r) usable[r] = all[r].size();
  auto at = static_cast<std::size_t>(ends.endRank);
  double t = ends.end;
  for (;;) {
    std::size_t k = usable[at];
    while (k > 0 && all[at][k - 1].end > t) --k;
    if (k == 0) {
      legs[at].push_back({t, ends.start});
      return legs;
    }
    usable[at] = k - 1;
    legs[at].push_back({t, all[at][k - 1].end});
    t = all[at][k - 1].end;
    at = all[at][k - 1].cause;
  }
}

// walkHops on every location with `switchesOf`, each chunk in turn, against the reference walk.
template <class SwitchesOf>
void expectReferenceLegs(SwitchesOf switchesOf, const PathEnds& ends) {
  trace::TraceBuilder b(size());
  beginFrame(b);
  endFrame(b);
  forEachLocation(b.trace(), [&](trace::Trace&, const replay::LocationComm& world) {
    const auto me = static_cast<trace::Rank>(world.rank());
    std::vector<std::vector<PathSwitch>> all;
    for (trace::Rank r = 0; r < size(); ++r) all.push_back(switchesOf(r));
    const std::vector<Leg> expected = referenceWalk(all, ends)[me];
    for (const std::size_t chunk : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7},
                                    causes::hopChunk(world.size())}) {
      std::vector<Leg> got;
      causes::walkHops(all[me], ends, world, chunk, [&](const Leg& leg) { got.push_back(leg); });
      ASSERT_EQ(got.size(), expected.size()) << "location " << me << ", chunk " << chunk;
      for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].from, expected[i].from) << "location " << me << ", chunk " << chunk << ", leg " << i;
        EXPECT_EQ(got[i].to, expected[i].to) << "location " << me << ", chunk " << chunk << ", leg " << i;
      }
    }
  });
}

TEST(CriticalPathHops, ChunkedWalkEqualsTheWalkOverAllSwitches) {
  const trace::Rank n = size();
  expectReferenceLegs([&](trace::Rank r) { return generated(r, n); }, PathEnds{0.0, 1000.0, static_cast<int>(n - 1)});
}

// The walk ends inside the switches (some of every location are never reached) and starts on
// location 0, which serves its own switches.
TEST(CriticalPathHops, EndingInsideTheSwitchesFromLocationZero) {
  const trace::Rank n = size();
  expectReferenceLegs([&](trace::Rank r) { return generated(r, n); }, PathEnds{0.0, 9.0, 0});
}

// Zero-length detours: a location's cause released it at the very time it switched, so the token
// comes back at the same time and takes that location's next switch down.
TEST(CriticalPathHops, DetoursAtTheSameTime) {
  const trace::Rank n = size();
  ASSERT_GE(n, 2u) << "needs two locations (CMakeLists.txt runs it at 2 to 4)";
  auto switchesOf = [&](trace::Rank r) {
    std::vector<PathSwitch> out;
    const trace::Rank other = r == 0 ? 1 : 0;
    for (int k = 1; k <= 20; ++k) out.push_back({0.0, static_cast<double>(k / 2), other});
    return out;
  };
  expectReferenceLegs(switchesOf, PathEnds{0.0, 11.0, 1});
}

// By hand: location L = N - 1 switches at 2 and 6 (to location 0), location 0 at 4 (to L). From
// L at 10: L goes back to 6, 0 from 6 to 4, L from 4 to 2, 0 from 2 to the start 0.
TEST(CriticalPathHops, SmallWalkByHand) {
  const trace::Rank n = size();
  ASSERT_GE(n, 2u) << "needs two locations (CMakeLists.txt runs it at 2 to 4)";
  trace::TraceBuilder b(n);
  beginFrame(b);
  endFrame(b);
  forEachLocation(b.trace(), [&](trace::Trace&, const replay::LocationComm& world) {
    const auto me = static_cast<trace::Rank>(world.rank());
    std::vector<PathSwitch> mine;
    if (me == n - 1) mine = {{1.5, 2.0, 0}, {5.5, 6.0, 0}};
    if (me == 0) mine = {{3.5, 4.0, n - 1}};
    std::vector<Leg> got;
    causes::walkHops(mine, PathEnds{0.0, 10.0, static_cast<int>(n - 1)}, world, 1,
                     [&](const Leg& leg) { got.push_back(leg); });
    std::vector<std::pair<double, double>> pairs;
    for (const Leg& leg : got) pairs.emplace_back(leg.from, leg.to);
    if (me == n - 1) EXPECT_EQ(pairs, (std::vector<std::pair<double, double>>{{10.0, 6.0}, {4.0, 2.0}}));
    else if (me == 0) EXPECT_EQ(pairs, (std::vector<std::pair<double, double>>{{6.0, 4.0}, {2.0, 0.0}}));
    else EXPECT_TRUE(pairs.empty());
  });
}

}  // namespace
}  // namespace waitscope::test
