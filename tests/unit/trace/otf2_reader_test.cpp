// Reading real Score-P traces: event counts must equal what otf2-print sees,
// and definitions must resolve the way the analysis needs them.
#include "analysis/trace/otf2_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "tests/support/test_support.h"

using namespace waitscope::trace;
using waitscope::test::run;
using waitscope::test::sharedTrace;

namespace {

// otf2-print's record name for one of our kinds ("send" -> "MPI_SEND").
std::string otf2RecordName(EventKind kind) {
  std::string n(name(kind));
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (kind == EventKind::Enter || kind == EventKind::Leave || n.rfind("RMA_", 0) == 0) return n;
  return "MPI_" + n;
}

std::map<std::string, std::uint64_t> otf2PrintCounts(const std::string& anchor) {
  const auto result = run("otf2-print '" + anchor + "'");
  EXPECT_EQ(result.exitCode, 0) << result.err;
  std::map<std::string, std::uint64_t> counts;
  std::istringstream lines(result.out);
  std::string line;
  bool inEvents = false;
  while (std::getline(lines, line)) {
    if (line.rfind("----", 0) == 0) { inEvents = true; continue; }
    if (!inEvents || line.empty() || line[0] == ' ') continue;  // continuation lines are indented
    std::istringstream words(line);
    std::string record;
    words >> record;
    ++counts[record];
  }
  return counts;
}

class ScorePTrace : public ::testing::TestWithParam<std::string> {};

TEST_P(ScorePTrace, EventCountsMatchOtf2Print) {
  const std::string anchor = sharedTrace(GetParam());
  std::vector<std::string> warnings;
  ReadOptions options;
  options.warn = [&](const std::string& w) { warnings.push_back(w); };
  const Trace trace = readTrace(anchor, options);
  const auto expected = otf2PrintCounts(anchor);
  const auto counts = trace.countByKind();
  std::uint64_t expectedTotal = 0;
  for (const auto& [record, n] : expected) expectedTotal += n;
  for (std::size_t k = 0; k < kEventKindCount; ++k) {
    const std::string record = otf2RecordName(static_cast<EventKind>(k));
    const auto it = expected.find(record);
    EXPECT_EQ(counts[k], it == expected.end() ? 0 : it->second) << record;
  }
  // Everything otf2-print shows is either in the model or counted as ignored.
  EXPECT_EQ(trace.eventCount() + trace.ignoredEvents, expectedTotal);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
}

INSTANTIATE_TEST_SUITE_P(SharedTraces, ScorePTrace,
                         ::testing::Values("pipit_ping-pong-otf2", "casita_4_mpi_ls_barr", "scorep-rma/fence",
                                           "scorep-rma/gats", "scorep-rma/lock", "scorep-rma/misc"),
                         [](const auto& param) {
                           std::string n = param.param;
                           std::replace_if(n.begin(), n.end(), [](char c) { return !std::isalnum(c); }, '_');
                           return n;
                         });

TEST(Otf2Reader, ResolvesRanksWindowsAndCommunicators) {
  const Trace trace = readTrace(sharedTrace("scorep-rma/gats"));
  const Definitions& d = trace.defs;
  ASSERT_EQ(d.worldLocations.size(), 4u);
  ASSERT_EQ(trace.locations.size(), 4u);
  for (Rank r = 0; r < 4; ++r) {
    EXPECT_EQ(trace.locations[r].location, d.worldLocations[r]);
    EXPECT_EQ(d.worldRankOfLocation(d.worldLocations[r]), r);
    EXPECT_EQ(d.locationGroups[d.locations[d.worldLocations[r]].group].name, "MPI Rank " + std::to_string(r));
  }
  ASSERT_EQ(d.windows.size(), 1u);
  EXPECT_EQ(d.comms[d.windows[0].comm].name, "MPI_COMM_WORLD");
  EXPECT_EQ(d.commSize(d.windows[0].comm), 4u);
  EXPECT_EQ(d.worldRank(d.windows[0].comm, 3), 3u);
  EXPECT_EQ(d.clock.ticksPerSecond, 2596165971u);

  // Rank 0 exposes to {1,2,3}: its post's group sync names exactly those ranks.
  const LocationEvents& r0 = trace.locations[0];
  const auto sync = std::find_if(r0.events.begin(), r0.events.end(),
                                 [](const Event& e) { return e.kind == EventKind::RmaGroupSync; });
  ASSERT_NE(sync, r0.events.end());
  const RmaRecord& rec = r0.rmaRecord(*sync);
  EXPECT_EQ(rec.syncLevel, kSyncProcess);
  ASSERT_NE(rec.group, kNone);
  EXPECT_EQ(d.groups[rec.group].members, (std::vector<std::uint32_t>{1, 2, 3}));
}

TEST(Otf2Reader, BuildsCallPathsAndSecondsFromTheClock) {
  const Trace trace = readTrace(sharedTrace("casita_4_mpi_ls_barr"));
  const LocationEvents& r0 = trace.locations[0];
  ASSERT_FALSE(r0.events.empty());
  double last = -1;
  int depth = 0;
  for (const Event& e : r0.events) {
    EXPECT_GE(e.time, last);
    last = e.time;
    if (e.kind == EventKind::Enter) {
      const CallPath& p = trace.callTree[e.ref];
      EXPECT_EQ(static_cast<int>(trace.callTree.depth(e.ref)), depth);
      if (depth > 0) {
        EXPECT_NE(p.parent, kNone);
      }
      ++depth;
    } else if (e.kind == EventKind::Leave) {
      --depth;
    }
  }
  EXPECT_EQ(depth, 0);
  // The whole run spans the clock's trace length (ns resolution in this trace).
  EXPECT_GE(trace.defs->clock.seconds(trace.defs->clock.globalOffset + trace.defs->clock.traceLength), last);
  EXPECT_GT(last, 1.0);
  const CallPath& root = trace.callTree[r0.events.front().ref];
  EXPECT_EQ(trace.defs->regions[root.region].name, "main");
}

TEST(Otf2Reader, ReadsOnlyTheRequestedRanks) {
  const Trace trace = readTraceRanks(sharedTrace("scorep-rma/fence"), {2});
  ASSERT_EQ(trace.locations.size(), 1u);
  EXPECT_EQ(trace.locations[0].location, trace.defs->worldLocations[2]);
  const Trace full = readTrace(sharedTrace("scorep-rma/fence"));
  EXPECT_EQ(trace.locations[0].events.size(), full.locations[2].events.size());
}

// The ranks a process holds when it analyzes several (fewer processes than ranks) are read in one
// go: each gets the trace it would get read alone, and all of them one copy of the definitions.
void expectSameLocations(const std::vector<LocationEvents>& a, const std::vector<LocationEvents>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].location, b[k].location);
    ASSERT_EQ(a[k].events.size(), b[k].events.size());
    for (std::size_t i = 0; i < a[k].events.size(); ++i) {
      const Event &x = a[k].events[i], &y = b[k].events[i];
      ASSERT_TRUE(x.time == y.time && x.kind == y.kind && x.ref == y.ref) << "location " << k << " event " << i;
    }
    EXPECT_EQ(a[k].messages.records.size(), b[k].messages.records.size());
    EXPECT_EQ(a[k].collectives.size(), b[k].collectives.size());
    EXPECT_EQ(a[k].rma.size(), b[k].rma.size());
  }
}

TEST(Otf2Reader, RanksReadTogetherShareTheirDefinitionsAndNothingElse) {
  // 4 MPI ranks; and 2 ranks with an OpenMP thread and a CUDA stream each (other locations,
  // records of other paradigms, warnings).
  for (const std::string name : {"scorep-rma/fence", "casita_2_cuda_simple"}) {
    SCOPED_TRACE(name);
    const std::string anchor = sharedTrace(name);
    ReadOptions quiet;
    quiet.warn = [](const std::string&) {};
    const std::size_t ranks = readTrace(anchor, [] {
                                ReadOptions o;
                                o.definitionsOnly = true;
                                return o;
                              }())
                                  .defs->worldLocations.size();
    ASSERT_GE(ranks, 2u);
    std::vector<Rank> wanted;
    for (Rank r = static_cast<Rank>(ranks); r-- > 0;) wanted.push_back(r);  // in any order
    std::vector<std::string> shown;
    ReadOptions collect;
    collect.warn = [&](const std::string& line) { shown.push_back(line); };
    const std::vector<Trace> each = readTraceRanksEach(anchor, wanted, collect);
    ASSERT_EQ(each.size(), ranks);
    for (std::size_t k = 0; k < each.size(); ++k) {
      SCOPED_TRACE("rank " + std::to_string(wanted[k]));
      const Trace alone = readTraceRanks(anchor, {wanted[k]}, quiet);
      EXPECT_TRUE(each[k].defs.sharedWith(each[0].defs));
      EXPECT_EQ(each[k].locations.front().location, each[k].defs->worldLocations[wanted[k]]);
      expectSameLocations(each[k].locations, alone.locations);
      expectSameLocations(each[k].threadLocations, alone.threadLocations);
      expectSameLocations(each[k].otherParadigmRecords, alone.otherParadigmRecords);
      ASSERT_EQ(each[k].callTree.size(), alone.callTree.size());
      for (CallPathId p = 0; p < alone.callTree.size(); ++p) {
        EXPECT_EQ(each[k].callTree[p].parent, alone.callTree[p].parent);
        EXPECT_EQ(each[k].callTree[p].region, alone.callTree[p].region);
        EXPECT_EQ(each[k].callTree[p].callSite, alone.callTree[p].callSite);
      }
      EXPECT_EQ(each[k].ignoredEvents, alone.ignoredEvents);
      EXPECT_EQ(each[k].warnings, alone.warnings);
      EXPECT_EQ(each[k].defs->regions.size(), alone.defs->regions.size());
      const LocationId own = alone.locations.front().location;
      EXPECT_EQ(each[k].defs->locations[own].clockOffsets.size(), alone.defs->locations[own].clockOffsets.size());
    }
    // Only the first rank's warnings are shown, as its own read would show them.
    EXPECT_EQ(shown, each.front().warnings);
  }
}

TEST(Otf2Reader, ACopiedTraceHasDefinitionsOfItsOwn) {
  const std::vector<Trace> each = readTraceRanksEach(sharedTrace("scorep-rma/fence"), {0, 1});
  ASSERT_EQ(each.size(), 2u);
  ASSERT_TRUE(each[1].defs.sharedWith(each[0].defs));
  Trace copy = each[1];
  EXPECT_FALSE(copy.defs.sharedWith(each[1].defs));
  EXPECT_EQ(copy.defs->regions.size(), each[1].defs->regions.size());
  copy.defs->regions.clear();
  EXPECT_FALSE(each[0].defs->regions.empty());
  EXPECT_TRUE(readTraceRanksEach(sharedTrace("scorep-rma/fence"), {}).empty());
}

TEST(Otf2Reader, DefinitionsOnlySkipsEvents) {
  ReadOptions options;
  options.definitionsOnly = true;
  const Trace trace = readTrace(sharedTrace("scorep-rma/misc"), options);
  EXPECT_TRUE(trace.locations.empty());
  EXPECT_EQ(trace.defs->worldLocations.size(), 4u);
  EXPECT_FALSE(trace.defs->regions.empty());
}

}  // namespace
