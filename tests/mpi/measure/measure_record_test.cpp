// Records the example programs of tests/apps (and a probe program) with waitscope-run and checks
// the traces: otf2-print accepts them, the reader reads them, and the event counts are exactly
// what the programs did (tests/apps/*.expected.md).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analysis/trace/otf2_reader.h"
#include "tests/support/test_support.h"

namespace fs = std::filesystem;
using namespace waitscope;
using test::run;

namespace {

struct Recording {
  test::CommandResult result;
  std::string anchor;
};

class Record : public ::testing::Test {
 protected:
  static std::unique_ptr<test::TempDir> dir;
  static std::map<std::string, Recording> cache;

  static void SetUpTestSuite() { dir = std::make_unique<test::TempDir>("waitscope-measure"); }
  static void TearDownTestSuite() {
    cache.clear();
    dir.reset();
  }

  // Records `program args` with n ranks once per key.
  static const Recording& record(const std::string& key, int n, const std::string& program, const std::string& env = "") {
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    const fs::path out = *dir / key;
    Recording r;
    r.result = run(env + " " + test::tool("waitscope-run") + " -n " + std::to_string(n) + " -o " + out.string() +
                   " -- " + program);
    r.anchor = (out / "traces.otf2").string();
    return cache.emplace(key, r).first->second;
  }
  static const Recording& app(const std::string& name, int n) {
    return record(name, n, std::string(WAITSCOPE_APPS_DIR) + "/" + name);
  }
};
std::unique_ptr<test::TempDir> Record::dir;
std::map<std::string, Recording> Record::cache;

// ENTER counts per region name, and record counts per kind, of one rank.
struct RankCounts {
  std::map<std::string, int> enters;
  std::map<trace::EventKind, int> kinds;
  int enter(const std::string& region) const {
    auto it = enters.find(region);
    return it == enters.end() ? 0 : it->second;
  }
  int kind(trace::EventKind k) const {
    auto it = kinds.find(k);
    return it == kinds.end() ? 0 : it->second;
  }
};

std::vector<RankCounts> countEvents(const trace::Trace& t) {
  std::vector<RankCounts> out(t.locations.size());
  for (std::size_t r = 0; r < t.locations.size(); ++r) {
    for (const trace::Event& e : t.locations[r].events) {
      ++out[r].kinds[e.kind];
      if (e.kind == trace::EventKind::Enter) ++out[r].enters[t.defs->regions[t.callTree[e.ref].region].name];
    }
  }
  return out;
}

trace::Trace checkedTrace(const Recording& r) {
  EXPECT_EQ(r.result.exitCode, 0) << r.result.out << r.result.err;
  EXPECT_NE(r.result.out.find("trace written to"), std::string::npos) << r.result.out;
  const auto print = run(std::string(OTF2_PRINT) + " " + r.anchor + " > /dev/null");
  EXPECT_EQ(print.exitCode, 0) << print.err;
  trace::Trace t = trace::readTrace(r.anchor);
  // The definitions announce exactly the events that are in the files (OTF2's own BUFFER_FLUSH
  // records, which the reader skips, included).
  std::uint64_t announced = 0;
  for (const auto& loc : t.defs->locations) announced += loc.eventCount;
  EXPECT_EQ(announced, t.eventCount() + t.ignoredEvents);
  return t;
}

using K = trace::EventKind;

TEST_F(Record, FenceCountsAndRmaRecords) {
  const trace::Trace t = checkedTrace(app("fence", 4));
  ASSERT_EQ(t.locations.size(), 4u);
  for (const RankCounts& c : countEvents(t)) {
    EXPECT_EQ(c.enter("MPI_Init"), 1);
    EXPECT_EQ(c.enter("MPI_Win_create"), 1);
    EXPECT_EQ(c.enter("MPI_Win_fence"), 21);
    EXPECT_EQ(c.enter("MPI_Put"), 20);
    EXPECT_EQ(c.enter("MPI_Win_free"), 1);
    EXPECT_EQ(c.enter("MPI_Finalize"), 1);
    EXPECT_EQ(c.kind(K::RmaPut), 20);
    EXPECT_EQ(c.kind(K::RmaOpCompleteNonBlocking), 20);
    EXPECT_EQ(c.kind(K::RmaCollectiveBegin), 23);  // 21 fences, create, free
    EXPECT_EQ(c.kind(K::RmaCollectiveEnd), 23);
    EXPECT_EQ(c.kind(K::RmaWinCreate), 1);
    EXPECT_EQ(c.kind(K::RmaWinDestroy), 1);
  }
  ASSERT_EQ(t.defs->windows.size(), 1u);
  EXPECT_EQ(t.defs->comms[t.defs->windows[0].comm].name, "MPI_COMM_WORLD");
  // Each put targets (r+1)%4 with 4 bytes, and its completion uses the same matching id.
  for (std::size_t r = 0; r < 4; ++r) {
    const auto& loc = t.locations[r];
    std::vector<std::uint64_t> open;
    for (const trace::Event& e : loc.events) {
      if (e.kind == K::RmaPut) {
        EXPECT_EQ(loc.rmaRecord(e).remote, (r + 1) % 4);
        EXPECT_EQ(loc.rmaRecord(e).bytes, 4u);
        open.push_back(loc.rmaRecord(e).matchingId);
      } else if (e.kind == K::RmaOpCompleteNonBlocking) {
        ASSERT_FALSE(open.empty());
        EXPECT_EQ(loc.rmaRecord(e).matchingId, open.front());
        open.erase(open.begin());
      }
    }
    EXPECT_TRUE(open.empty());
  }
}

TEST_F(Record, FenceCallSitesPointAtTheSourceLines) {
  const trace::Trace t = checkedTrace(app("fence", 4));
  std::vector<std::string> lines;
  {
    std::ifstream in(std::string(WAITSCOPE_SOURCE_DIR) + "/tests/apps/fence.c");
    for (std::string l; std::getline(in, l);) lines.push_back(l);
  }
  int checked = 0;
  for (trace::CallPathId p = 0; p < t.callTree.size(); ++p) {
    const auto& path = t.callTree[p];
    const std::string& name = t.defs->regions[path.region].name;
    if (name.rfind("MPI_", 0) != 0) continue;
    ASSERT_NE(path.callSite, trace::kNone) << name;
    const auto& site = t.defs->sourceLocations[path.callSite];
    EXPECT_NE(site.file.find("tests/apps/fence.c"), std::string::npos) << site.file;
    ASSERT_GE(site.line, 1u);
    ASSERT_LE(site.line, lines.size());
    EXPECT_NE(lines[site.line - 1].find(name + "("), std::string::npos)
        << name << " at line " << site.line << ": " << lines[site.line - 1];
    ++checked;
  }
  EXPECT_GE(checked, 6);
}

// Every rank's trace carries two clock offsets to rank 0, from MPI_Init and MPI_Finalize. On one
// machine the ranks share rank 0's clock: both are 0. Measured anyway (WAITSCOPE_CLOCK_SYNC=measure),
// they are what a ping to rank 0 sees of one shared clock: within a round trip of 0.
TEST_F(Record, ClockOffsetsToRankZeroAtInitAndFinalize) {
  for (const bool measured : {false, true}) {
    SCOPED_TRACE(measured ? "measured" : "shared clock");
    const Recording& r = record(measured ? "clock-measured" : "clock-shared", 3,
                                std::string(WAITSCOPE_APPS_DIR) + "/fence", measured ? "WAITSCOPE_CLOCK_SYNC=measure" : "");
    const trace::Trace t = checkedTrace(r);
    ASSERT_EQ(t.locations.size(), 3U);
    for (std::size_t rank = 0; rank < t.locations.size(); ++rank) {
      const trace::Location& loc = t.defs->locations[t.locations[rank].location];
      ASSERT_EQ(loc.clockOffsets.size(), 2U) << "rank " << rank;
      EXPECT_LT(loc.clockOffsets[0].time, loc.clockOffsets[1].time);
      for (const trace::ClockOffsetPoint& p : loc.clockOffsets) {
        if (rank == 0 || !measured)
          EXPECT_EQ(p.offset, 0) << "rank " << rank;
        else
          EXPECT_LT(std::abs(p.offset), 1'000'000'000) << "rank " << rank << ": a shared clock is not a second off";
      }
    }
  }
}

TEST_F(Record, GatsCounts) {
  const trace::Trace t = checkedTrace(app("gats", 4));
  const auto c = countEvents(t);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].enter("MPI_Win_post"), 30);
  EXPECT_EQ(c[0].enter("MPI_Win_wait"), 30);
  EXPECT_EQ(c[0].kind(K::RmaGroupSync), 60);
  EXPECT_EQ(c[1].enter("MPI_Win_start"), 30);
  EXPECT_EQ(c[1].enter("MPI_Win_complete"), 30);
  EXPECT_EQ(c[1].kind(K::RmaPut), 20);
  EXPECT_EQ(c[1].kind(K::RmaGet), 10);
  EXPECT_EQ(c[1].kind(K::RmaOpCompleteNonBlocking), 30);
  EXPECT_EQ(c[1].kind(K::RmaOpCompleteRemote), 10);  // gets only
  for (int r : {2, 3}) {
    EXPECT_EQ(c[r].enter("MPI_Win_start"), 20);
    EXPECT_EQ(c[r].enter("MPI_Put"), 10);
    EXPECT_EQ(c[r].enter("MPI_Get"), 10);
  }
  for (const auto& rc : c) {
    EXPECT_EQ(rc.enter("MPI_Barrier"), 3);
    EXPECT_EQ(rc.kind(K::MpiCollectiveEnd), 3);
    EXPECT_EQ(rc.enter("MPI_Group_free"), 4);
  }
  // The groups given to MPI_Win_start on rank 1 are {0}; post on rank 0 names origins only.
  const auto& loc = t.locations[1];
  for (const trace::Event& e : loc.events)
    if (e.kind == K::RmaGroupSync) {
      const auto& members = t.defs->groups[loc.rmaRecord(e).group].members;
      ASSERT_EQ(members.size(), 1u);
      EXPECT_EQ(members[0], 0u);
    }
}

TEST_F(Record, ChainCounts) {
  const auto c = countEvents(checkedTrace(app("chain", 3)));
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].enter("MPI_Send"), 10);
  EXPECT_EQ(c[0].kind(K::MpiSend), 10);
  EXPECT_EQ(c[1].enter("MPI_Recv"), 10);
  EXPECT_EQ(c[1].kind(K::MpiRecv), 10);
  EXPECT_EQ(c[1].enter("MPI_Win_post"), 10);
  EXPECT_EQ(c[1].enter("MPI_Win_wait"), 10);
  EXPECT_EQ(c[2].enter("MPI_Win_start"), 10);
  EXPECT_EQ(c[2].kind(K::RmaPut), 10);
  EXPECT_EQ(c[2].enter("MPI_Win_complete"), 10);
}

TEST_F(Record, LockCounts) {
  const trace::Trace t = checkedTrace(app("lock", 4));
  for (const RankCounts& c : countEvents(t)) {
    EXPECT_EQ(c.enter("MPI_Barrier"), 11);
    EXPECT_EQ(c.enter("MPI_Win_lock"), 11);
    EXPECT_EQ(c.enter("MPI_Win_unlock"), 11);
    EXPECT_EQ(c.kind(K::RmaRequestLock), 11);
    EXPECT_EQ(c.kind(K::RmaReleaseLock), 11);
    EXPECT_EQ(c.kind(K::RmaAtomic), 10);
    EXPECT_EQ(c.kind(K::RmaGet), 1);
    EXPECT_EQ(c.kind(K::RmaOpCompleteRemote), 11);  // unlock completes remotely
  }
  const auto& loc = t.locations[2];
  int exclusive = 0;
  for (const trace::Event& e : loc.events)
    if (e.kind == K::RmaRequestLock) {
      EXPECT_EQ(loc.rmaRecord(e).remote, 0u);
      exclusive += loc.rmaRecord(e).lockType == static_cast<std::uint8_t>(trace::RmaLockType::Exclusive);
    }
  EXPECT_EQ(exclusive, 10);
}

TEST_F(Record, P2pCollCounts) {
  const auto c = countEvents(checkedTrace(app("p2p_coll", 4)));
  const int send[] = {12, 0, 12, 0}, ssend[] = {3, 0, 3, 0}, recv[] = {0, 18, 0, 12};
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(c[r].enter("MPI_Send"), send[r]);
    EXPECT_EQ(c[r].enter("MPI_Ssend"), ssend[r]);
    EXPECT_EQ(c[r].enter("MPI_Recv"), recv[r]);
    EXPECT_EQ(c[r].kind(K::MpiSend), send[r] + ssend[r]);
    EXPECT_EQ(c[r].kind(K::MpiRecv), recv[r]);
    for (const char* coll : {"MPI_Barrier", "MPI_Allreduce", "MPI_Alltoall", "MPI_Bcast", "MPI_Reduce"})
      EXPECT_EQ(c[r].enter(coll), 3) << coll;
    EXPECT_EQ(c[r].kind(K::MpiCollectiveBegin), 15);
    EXPECT_EQ(c[r].kind(K::MpiCollectiveEnd), 15);
  }
}

TEST_F(Record, RingTriplesCounts) {
  const auto c = countEvents(checkedTrace(app("ring_triples", 6)));
  ASSERT_EQ(c.size(), 6u);
  const int recv[] = {10, 30, 10, 10, 30, 10}, send[] = {10, 0, 10, 10, 0, 10};
  for (int r = 0; r < 6; ++r) {
    EXPECT_EQ(c[r].enter("MPI_Isend"), 10);
    EXPECT_EQ(c[r].kind(K::MpiIsend), 10);
    EXPECT_EQ(c[r].kind(K::MpiIsendComplete), 10);
    EXPECT_EQ(c[r].enter("MPI_Wait"), 10);
    EXPECT_EQ(c[r].enter("MPI_Recv"), recv[r]);
    EXPECT_EQ(c[r].enter("MPI_Send"), send[r]);
    EXPECT_EQ(c[r].enter("MPI_Barrier"), 2);
  }
}

// A short MPI_Isend completes at once, and Open MPI and MPICH then hand out one shared handle for
// every such send: each send's completion is still recorded, in the MPI_Waitall that completes it
// (halo's two sends per iteration with COUNT = 16 doubles, 128 bytes).
TEST_F(Record, SendsThatCompleteAtOnceAreEachCompleted) {
  const std::string halo = std::string(WAITSCOPE_APPS_DIR) + "/halo 20 0.001 16";
  const trace::Trace t = checkedTrace(record("halo_short", 4, halo));
  const auto c = countEvents(t);
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(c[r].enter("MPI_Isend"), 40);
    EXPECT_EQ(c[r].enter("MPI_Waitall"), 20);
    EXPECT_EQ(c[r].kind(K::MpiIsend), 40);
    EXPECT_EQ(c[r].kind(K::MpiIsendComplete), 40) << "rank " << r;
    EXPECT_EQ(c[r].kind(K::MpiIrecvRequest), 40);
    EXPECT_EQ(c[r].kind(K::MpiIrecv), 40);
  }
  // Every request completes exactly once.
  for (std::size_t r = 0; r < t.locations.size(); ++r) {
    std::map<std::uint64_t, int> sent, completed;
    for (const trace::Event& e : t.locations[r].events) {
      if (e.kind == K::MpiIsend) ++sent[t.locations[r].message(e).request];
      if (e.kind == K::MpiIsendComplete) ++completed[t.locations[r].message(e).request];
    }
    EXPECT_EQ(sent, completed) << "rank " << r;
  }
}

TEST_F(Record, SorCounts) {
  const auto c = countEvents(checkedTrace(app("sor", 4)));
  const int puts[] = {1200, 2400, 2400, 1200};
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(c[r].enter("MPI_Allreduce"), 600);
    for (const char* sync : {"MPI_Win_post", "MPI_Win_start", "MPI_Win_complete", "MPI_Win_wait"})
      EXPECT_EQ(c[r].enter(sync), 1200) << sync;
    EXPECT_EQ(c[r].kind(K::RmaPut), puts[r]);
    EXPECT_EQ(c[r].kind(K::RmaGroupSync), 4800);
  }
}

TEST_F(Record, ProbeCommunicatorsRequestsAndUserRegions) {
  const trace::Trace t = checkedTrace(record("probe", 4, WAITSCOPE_PROBE));
  const auto c = countEvents(t);
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(c[r].enter("compute"), 1);
    EXPECT_EQ(c[r].enter("main"), 1);
    EXPECT_EQ(c[r].enter("phase"), 1);
    EXPECT_EQ(c[r].enter("ws_probe::twice(int)"), 1);  // C++, demangled
    // isend + 3 persistent starts + waitany/testsome pairs + the isend the improbe matches
    EXPECT_EQ(c[r].kind(K::MpiIsend), 1 + 3 + 2 + 1);
    EXPECT_EQ(c[r].kind(K::MpiIsendComplete), 7);
    EXPECT_EQ(c[r].kind(K::MpiIrecvRequest), 7);     // ... and MPI_Imrecv
    EXPECT_EQ(c[r].kind(K::MpiIrecv), 7);
    EXPECT_EQ(c[r].enter("MPI_Mprobe"), 1);
    EXPECT_EQ(c[r].enter("MPI_Mrecv"), 1);
    EXPECT_EQ(c[r].enter("MPI_Imrecv"), 1);
    EXPECT_EQ(c[r].enter("MPI_Waitany"), 2);
    EXPECT_GE(c[r].enter("MPI_Testsome"), 1);
    EXPECT_EQ(c[r].kind(K::MpiSend), 1 + 1);         // sendrecv, the send the mprobe matches
    EXPECT_EQ(c[r].kind(K::MpiRecv), 1 + 1);         // sendrecv, MPI_Mrecv
    EXPECT_EQ(c[r].kind(K::RmaPut), 1);
    EXPECT_EQ(c[r].kind(K::RmaGet), 1);
    EXPECT_EQ(c[r].kind(K::RmaOpCompleteRemote), 2);
  }
  // Every send has its receive (matched probes included): the analysis accepts the trace.
  const auto analyzed = run("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 " +
                            std::string(WAITSCOPE_MPIEXEC) + " -n 4 " +
                            test::tool("waitscope-analyze") + " --quiet " + t.anchorPath + " -o " +
                            (*dir / "probe.waitscope").string());
  EXPECT_EQ(analyzed.exitCode, 0) << analyzed.err;
  // split (two communicators of 2 ranks) + dup, plus world and self
  std::map<std::string, int> comms;
  for (const auto& comm : t.defs->comms) ++comms[comm.name];
  EXPECT_EQ(comms["MPI_Comm_split"], 2);
  EXPECT_EQ(comms["MPI_Comm_dup"], 1);
  ASSERT_EQ(t.defs->windows.size(), 1u);
  EXPECT_EQ(t.defs->comms[t.defs->windows[0].comm].name, "MPI_Comm_dup");
  for (const auto& comm : t.defs->comms) {
    if (comm.name == "MPI_Comm_split") {
      EXPECT_EQ(t.defs->groups[comm.group].members.size(), 2u);
    }
  }
  // the user region has its source line
  for (const auto& region : t.defs->regions) {
    if (region.name == "compute") {
      EXPECT_NE(region.file.find("probe.c"), std::string::npos);
    }
  }
}

TEST_F(Record, FilteredRegionsAreAbsent) {
  const fs::path filter = *dir / "filter.txt";
  std::ofstream(filter) << "# leave these out\nskipped_*\nMPI_Comm_rank\n";
  const trace::Trace t =
      checkedTrace(record("probe-filtered", 2, WAITSCOPE_PROBE, "WAITSCOPE_FILTER=" + filter.string()));
  for (const RankCounts& c : countEvents(t)) {
    EXPECT_EQ(c.enter("skipped_helper"), 0);
    EXPECT_EQ(c.enter("MPI_Comm_rank"), 0);
    EXPECT_EQ(c.enter("compute"), 1);
    EXPECT_EQ(c.enter("MPI_Comm_size"), 2);
  }
}

TEST_F(Record, SmallBufferFlushesAndLosesNothing) {
  const Recording& r =
      record("probe-flush", 2, std::string(WAITSCOPE_PROBE) + " --calls 120000 --colls 30000", "WAITSCOPE_BUFFER_MB=1");
  const trace::Trace t = checkedTrace(r);
  for (const RankCounts& c : countEvents(t)) {
    EXPECT_EQ(c.enter("MPI_Comm_rank"), 120000 + 2);
    EXPECT_EQ(c.enter("MPI_Barrier"), 30000 + 1);
    EXPECT_EQ(c.kind(K::MpiCollectiveEnd), 30000 + 1 + 2);  // + allreduce, bcast
    EXPECT_GE(c.enter("TRACE BUFFER FLUSH"), 2);
  }
  // A flush inside a barrier is written with times in order (OTF2 refuses and says so otherwise).
  EXPECT_EQ(r.result.err.find("[OTF2]"), std::string::npos) << r.result.err.substr(0, 2000);
}

TEST_F(Record, AbortLeavesFlushedEventsAndSaysTraceIsIncomplete) {
  const Recording& r = record("probe-abort", 2, std::string(WAITSCOPE_PROBE) + " --abort");
  EXPECT_NE(r.result.exitCode, 0);
  EXPECT_NE(r.result.err.find("incomplete"), std::string::npos) << r.result.err;
  EXPECT_TRUE(fs::exists(fs::path(r.anchor).parent_path() / "traces" / "0.evt"));
}

TEST_F(Record, RunErrors) {
  const std::string runTool = test::tool("waitscope-run");
  auto missing = run(runTool + " -n 1 -o " + (*dir / "x").string() + " -- /no/such/program");
  EXPECT_EQ(missing.exitCode, 2);
  EXPECT_NE(missing.err.find("program not found"), std::string::npos) << missing.err;
  auto notMpi = run(runTool + " -n 1 -o " + (*dir / "y").string() + " -- /bin/true");
  EXPECT_EQ(notMpi.exitCode, 2);
  EXPECT_NE(notMpi.err.find("never called MPI_Init"), std::string::npos) << notMpi.err;
  auto unwritable = run(runTool + " -n 1 -o /proc/waitscope -- /bin/true");
  EXPECT_EQ(unwritable.exitCode, 2);
  EXPECT_NE(unwritable.err.find("cannot write to the output directory"), std::string::npos) << unwritable.err;
  auto help = run(runTool + " --help");
  EXPECT_EQ(help.exitCode, 0);
  for (const char* opt : {"-n", "-o", "--profile", "--help", "WAITSCOPE_FILTER", "WAITSCOPE_BUFFER_MB"})
    EXPECT_NE(help.out.find(opt), std::string::npos) << opt;
  auto profile = run(runTool + " --profile -- /bin/true");
  EXPECT_EQ(profile.exitCode, 2);
}

}  // namespace
