// The test-trace builder and the OTF2 writer: record sequences as Score-P 7.1
// writes them, an archive otf2-print accepts, and a lossless round trip
// through readTrace().
#include "tests/support/trace_builder.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/trace/otf2_reader.h"
#include "tests/support/otf2_writer.h"

namespace waitscope::trace {
namespace {

namespace fs = std::filesystem;

// A fresh directory per test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = fs::temp_directory_path() /
            ("waitscope-builder-" + std::to_string(getpid()) + "-" + test->test_suite_name() + "-" + test->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// The OTF2 record name otf2-print shows for each kind.
const std::map<EventKind, std::string>& otf2RecordNames() {
  static const std::map<EventKind, std::string> names = {
      {EventKind::Enter, "ENTER"},
      {EventKind::Leave, "LEAVE"},
      {EventKind::MpiSend, "MPI_SEND"},
      {EventKind::MpiIsend, "MPI_ISEND"},
      {EventKind::MpiIsendComplete, "MPI_ISEND_COMPLETE"},
      {EventKind::MpiIrecvRequest, "MPI_IRECV_REQUEST"},
      {EventKind::MpiRecv, "MPI_RECV"},
      {EventKind::MpiIrecv, "MPI_IRECV"},
      {EventKind::MpiRequestTest, "MPI_REQUEST_TEST"},
      {EventKind::MpiRequestCancelled, "MPI_REQUEST_CANCELLED"},
      {EventKind::MpiCollectiveBegin, "MPI_COLLECTIVE_BEGIN"},
      {EventKind::MpiCollectiveEnd, "MPI_COLLECTIVE_END"},
      {EventKind::RmaWinCreate, "RMA_WIN_CREATE"},
      {EventKind::RmaWinDestroy, "RMA_WIN_DESTROY"},
      {EventKind::RmaCollectiveBegin, "RMA_COLLECTIVE_BEGIN"},
      {EventKind::RmaCollectiveEnd, "RMA_COLLECTIVE_END"},
      {EventKind::RmaGroupSync, "RMA_GROUP_SYNC"},
      {EventKind::RmaRequestLock, "RMA_REQUEST_LOCK"},
      {EventKind::RmaAcquireLock, "RMA_ACQUIRE_LOCK"},
      {EventKind::RmaTryLock, "RMA_TRY_LOCK"},
      {EventKind::RmaReleaseLock, "RMA_RELEASE_LOCK"},
      {EventKind::RmaSync, "RMA_SYNC"},
      {EventKind::RmaWaitChange, "RMA_WAIT_CHANGE"},
      {EventKind::RmaPut, "RMA_PUT"},
      {EventKind::RmaGet, "RMA_GET"},
      {EventKind::RmaAtomic, "RMA_ATOMIC"},
      {EventKind::RmaOpCompleteBlocking, "RMA_OP_COMPLETE_BLOCKING"},
      {EventKind::RmaOpCompleteNonBlocking, "RMA_OP_COMPLETE_NON_BLOCKING"},
      {EventKind::RmaOpTest, "RMA_OP_TEST"},
      {EventKind::RmaOpCompleteRemote, "RMA_OP_COMPLETE_REMOTE"},
  };
  return names;
}

// Runs a shell command, returning its exit status and stdout.
std::pair<int, std::string> run(const std::string& command, const fs::path& outputFile) {
  const int status = std::system((command + " > '" + outputFile.string() + "' 2>&1").c_str());
  std::ifstream in(outputFile);
  std::stringstream text;
  text << in.rdbuf();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
}

std::vector<EventKind> kinds(const LocationEvents& location) {
  std::vector<EventKind> result;
  for (const Event& e : location.events) result.push_back(e.kind);
  return result;
}

// A 4-rank trace that uses every high-level helper and, through the low-level
// calls, every event kind.
void buildEverything(TraceBuilder& b) {
  b.defineRegion("main", "/src/app.c", 10, 90);
  for (Rank r = 0; r < 4; ++r) {
    b.rank(r).enter(0.0, "main");
    b.rank(r).init(0.0, 0.5 + 0.01 * r);
  }
  const CommId pair = b.defineComm("MPI_COMM_WORLD.split", {1, 2});
  const WinId win = b.createWindow(b.world(), {1.0, 1.0, 1.0, 1.0}, {1.1, 1.1, 1.2, 1.3});
  const WinId alloc = b.createWindow(b.world(), {1.4, 1.4, 1.4, 1.4}, {1.5, 1.5, 1.5, 1.5}, WindowKind::Allocate);

  auto& r0 = b.rank(0);
  auto& r1 = b.rank(1);
  auto& r2 = b.rank(2);
  auto& r3 = b.rank(3);

  // Point-to-point, with a call site on the user function.
  r0.enter(2.0, "foo", {"/src/app.c", 42}).leave(2.5, "foo");
  r0.send(2.5, 2.6, 1, 1024, 7);
  r1.recv(2.0, 2.7, 0, 1024, 7);
  r0.at("/src/app.c", 50).ssend(2.7, 2.9, 2, 8, 1);
  r2.recv(2.0, 2.9, 0, 8, 1);
  const Request s = r1.isend(3.0, 3.01, 0, 16, 2);
  const Request rr = r0.irecv(3.0, 3.02, 1, 16, 2);
  r0.test(3.03, 3.04, rr, false);
  r0.wait(3.05, 3.1, rr);
  r1.test(3.02, 3.03, s, true);
  const Request cancelled = r2.irecv(3.0, 3.01, 3, 4, 9);
  r2.cancel(3.02, 3.03, cancelled);
  const Request w1 = r3.isend(3.0, 3.01, 2, 4, 3);
  const Request fromRank3 = r2.irecv(3.04, 3.05, 3, 4, 3);
  r2.wait(3.06, 3.07, cancelled);
  r3.waitAll(3.02, 3.08, {w1});
  r2.waitAll(3.08, 3.09, {fromRank3});

  // Collectives, one on the split communicator.
  for (Rank r = 0; r < 4; ++r) {
    auto& rank = b.rank(r);
    const double t = 4.0 + 0.01 * r;
    rank.barrier(t, 4.1).bcast(4.1, 4.2, 0, 64).reduce(4.2, 4.3, 3, 64).allreduce(4.3, 4.4, 8).scan(4.4, 4.5, 8);
    rank.alltoall(4.5, 4.6, 32);
  }
  r1.allreduce(4.6, 4.7, 8, pair);
  r2.allreduce(4.6, 4.7, 8, pair);

  // Fence epoch with puts, a get and an accumulate.
  for (Rank r = 0; r < 4; ++r) b.rank(r).fence(5.0, 5.1 + 0.01 * r, win);
  r0.put(5.2, 5.21, win, 1, 4);
  r1.get(5.2, 5.22, win, 2, 8);
  r2.accumulate(5.2, 5.23, win, 3, 1);
  for (Rank r = 0; r < 4; ++r) b.rank(r).fence(5.5, 5.6, win);

  // GATS: rank 0 exposes to 1 and 2; rank 1 puts, rank 2 gets.
  r0.post(6.0, 6.01, win, {1, 2});
  r1.start(5.9, 6.02, win, {0});
  r2.start(5.9, 6.02, win, {0});
  r1.put(6.03, 6.04, win, 0, 16);
  r2.get(6.03, 6.04, win, 0, 16);
  r1.complete(6.05, 6.1, win);
  r2.complete(6.05, 6.1, win);
  r0.winTest(6.02, 6.03, win, false);
  r0.winTest(6.04, 6.05, win, false);
  r0.wait(6.06, 6.11, win);
  r3.post(6.0, 6.01, win, {0});
  r3.winTest(6.02, 6.03, win, true);

  // Passive target: exclusive lock with accumulate, shared lock with get,
  // lock_all with Rput/Rget, fetch-and-op, flushes.
  r1.lock(7.0, 7.1, win, 0, RmaLockType::Exclusive).accumulate(7.1, 7.11, win, 0, 2).unlock(7.2, 7.21, win, 0);
  r2.lock(7.0, 7.3, win, 0, RmaLockType::Shared).get(7.3, 7.31, win, 0, 8).unlock(7.4, 7.41, win, 0);
  r3.lockAll(7.0, 7.01, alloc);
  const Request rput = r3.rput(7.02, 7.03, alloc, 2, 8);
  r3.wait(7.04, 7.05, rput);
  r3.fetchAndOp(7.06, 7.07, alloc, 2).flush(7.08, 7.09, alloc, 2);
  r3.getAccumulate(7.1, 7.11, alloc, 1, 1).flushLocalAll(7.12, 7.13, alloc);
  const Request rget = r3.rget(7.14, 7.15, alloc, 1, 8);
  r3.wait(7.16, 7.17, rget);
  r3.compareAndSwap(7.18, 7.19, alloc, 0).flushLocal(7.2, 7.21, alloc, 0);
  r3.winSync(7.22, 7.23, alloc).put(7.24, 7.25, alloc, 0, 8).flushAll(7.26, 7.27, alloc).unlockAll(7.28, 7.29, alloc);

  // The records Score-P never writes, directly.
  RmaRecord lockRecord;
  lockRecord.win = win;
  lockRecord.remote = 1;
  lockRecord.lockId = 5;
  lockRecord.lockType = static_cast<std::uint8_t>(RmaLockType::Shared);
  r0.enter(8.0, "MPI_Win_lock").event(EventKind::RmaAcquireLock, 8.01, lockRecord);
  r0.event(EventKind::RmaTryLock, 8.02, lockRecord).leave(8.03, "MPI_Win_lock");
  RmaRecord sync;
  sync.win = win;
  sync.remote = 2;
  sync.lockType = static_cast<std::uint8_t>(RmaSyncType::NotifyIn);
  r0.event(EventKind::RmaSync, 8.04, sync);
  RmaRecord op;
  op.win = win;
  op.matchingId = r0.nextMatchingId();
  r0.event(EventKind::RmaWaitChange, 8.05, RmaRecord{win});
  r0.event(EventKind::RmaOpTest, 8.06, op).event(EventKind::RmaOpCompleteBlocking, 8.07, op);

  b.freeWindow(win, {9.0, 9.0, 9.0, 9.0}, {9.1, 9.1, 9.1, 9.1});
  b.freeWindow(alloc, {9.2, 9.2, 9.2, 9.2}, {9.3, 9.3, 9.3, 9.3});
  for (Rank r = 0; r < 4; ++r) b.rank(r).finalize(9.4, 9.5).leave(10.0, "main");
}

TEST(TraceBuilder, UsesEveryEventKind) {
  TraceBuilder b(4);
  buildEverything(b);
  const auto counts = b.trace().countByKind();
  for (std::size_t k = 0; k < kEventKindCount; ++k)
    EXPECT_GT(counts[k], 0u) << "no event of kind " << name(static_cast<EventKind>(k));
}

TEST(TraceBuilder, WritesAnArchiveOtf2PrintAccepts) {
  TempDir dir;
  TraceBuilder b(4);
  buildEverything(b);
  const std::string anchor = b.write(dir.path().string());
  EXPECT_EQ(anchor, (dir.path() / "traces.otf2").string());
  ASSERT_TRUE(fs::exists(anchor));

  const auto [status, output] = run("otf2-print '" + anchor + "'", dir.path() / "events.txt");
  ASSERT_EQ(status, 0) << output;
  std::map<std::string, std::uint64_t> printed;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string record;
    words >> record;
    ++printed[record];
  }
  const auto counts = b.trace().countByKind();
  for (const auto& [kind, record] : otf2RecordNames())
    EXPECT_EQ(printed[record], counts[index(kind)]) << record;

  const auto [defStatus, defs] = run("otf2-print -G '" + anchor + "'", dir.path() / "defs.txt");
  ASSERT_EQ(defStatus, 0) << defs;
  EXPECT_NE(defs.find("Ticks per Seconds: 1000000000, Global Offset: 0, Length: 10000000000"), std::string::npos);
  EXPECT_NE(defs.find("Type: SOURCE_CODE_LOCATION"), std::string::npos);
  EXPECT_NE(defs.find("\"/src/app.c\""), std::string::npos);
  EXPECT_NE(defs.find("Flags: {CREATE_DESTROY_EVENTS}"), std::string::npos);
  EXPECT_NE(defs.find("Name: \"MPI_COMM_WORLD\""), std::string::npos);
  EXPECT_NE(defs.find("Type: COMM_LOCATIONS, Paradigm: \"MPI\""), std::string::npos);
  EXPECT_NE(defs.find("Type: COMM_SELF"), std::string::npos);
  EXPECT_NE(defs.find("Name: \"MPI Rank 3\""), std::string::npos);
  const std::string rank0Events =
      "# Events: " + std::to_string(b.trace().locations[0].events.size()) + ", Group: \"MPI Rank 0\"";
  EXPECT_NE(defs.find(rank0Events), std::string::npos) << rank0Events;
  EXPECT_NE(defs.find("Name: \"MPI_Accumulate\""), std::string::npos);
  EXPECT_NE(defs.find("Role: ATOMIC, Paradigm: \"MPI\""), std::string::npos);
  EXPECT_NE(defs.find("Role: ALLOCATE"), std::string::npos);
  EXPECT_NE(defs.find("PARADIGM_PROPERTY"), std::string::npos);

  // The call site rides on the ENTER as the SOURCE_CODE_LOCATION attribute.
  EXPECT_NE(output.find("(\"SOURCE_CODE_LOCATION\" <0>; SOURCE_CODE_LOCATION;"), std::string::npos);
}

// Region names from the root down to `path`, with call sites, e.g. "main/foo@/src/app.c:42".
std::string describePath(const Trace& t, CallPathId path) {
  std::string text;
  for (CallPathId p = path; p != kNone; p = t.callTree[p].parent) {
    const CallPath& cp = t.callTree[p];
    std::string step = t.defs->regions[cp.region].name;
    if (cp.callSite != kNone) {
      const SourceLocation& site = t.defs->sourceLocations[cp.callSite];
      step += "@" + site.file + ":" + std::to_string(site.line);
    }
    text = text.empty() ? step : step + "/" + text;
  }
  return text;
}

TEST(TraceBuilder, RoundTripsThroughTheReader) {
  TempDir dir;
  TraceBuilder b(4);
  buildEverything(b);
  const Trace& built = b.trace();
  const std::string anchor = b.write(dir.path().string());
  const Trace read = readTrace(anchor, ReadOptions{[](const std::string&) {}, false});
  EXPECT_EQ(read.defs->clock.ticksPerSecond, built.defs->clock.ticksPerSecond);
  ASSERT_EQ(read.locations.size(), built.locations.size());
  EXPECT_EQ(read.defs->comms.size(), built.defs->comms.size());
  EXPECT_EQ(read.defs->windows.size(), built.defs->windows.size());
  EXPECT_EQ(read.countByKind(), built.countByKind());

  for (std::size_t l = 0; l < built.locations.size(); ++l) {
    const LocationEvents& want = built.locations[l];
    const LocationEvents& got = read.locations[l];
    ASSERT_EQ(kinds(got), kinds(want)) << "location " << l;
    for (std::size_t i = 0; i < want.events.size(); ++i) {
      const Event& w = want.events[i];
      const Event& g = got.events[i];
      SCOPED_TRACE("location " + std::to_string(l) + " event " + std::to_string(i) + " " + std::string(name(w.kind)));
      EXPECT_EQ(g.time, w.time);
      switch (payloadFamily(w.kind)) {
        case PayloadFamily::Region:
          EXPECT_EQ(describePath(read, g.ref), describePath(built, w.ref));
          break;
        case PayloadFamily::Message: {
          const auto &a = got.message(g), &e = want.message(w);
          EXPECT_EQ(a.peer, e.peer);
          if (e.comm == kNone) {
            EXPECT_EQ(a.comm, kNone);
          } else {
            EXPECT_EQ(read.defs->comms.at(a.comm).name, built.defs->comms.at(e.comm).name);
          }
          EXPECT_EQ(a.tag, e.tag);
          EXPECT_EQ(a.bytes, e.bytes);
          EXPECT_EQ(a.request, e.request);
          break;
        }
        case PayloadFamily::Collective: {
          const auto &a = got.collective(g), &e = want.collective(w);
          EXPECT_EQ(a.op, e.op);
          EXPECT_EQ(a.syncLevel, e.syncLevel);
          EXPECT_EQ(a.object, e.object);
          EXPECT_EQ(a.root, e.root);
          EXPECT_EQ(a.sent, e.sent);
          EXPECT_EQ(a.received, e.received);
          break;
        }
        case PayloadFamily::Rma: {
          const auto &a = got.rmaRecord(g), &e = want.rmaRecord(w);
          EXPECT_EQ(a.win, e.win);
          EXPECT_EQ(a.remote, e.remote);
          if (e.group != kNone) {
            EXPECT_EQ(read.defs->groups.at(a.group).members, built.defs->groups.at(e.group).members);
          }
          EXPECT_EQ(a.syncLevel, e.syncLevel);
          EXPECT_EQ(a.lockType, e.lockType);
          EXPECT_EQ(a.lockId, e.lockId);
          EXPECT_EQ(a.bytes, e.bytes);
          EXPECT_EQ(a.received, e.received);
          EXPECT_EQ(a.matchingId, e.matchingId);
          break;
        }
        case PayloadFamily::None:
          break;
      }
    }
  }
}

// An inter-communicator is written as OTF2's InterComm (two groups) and read back with both; the
// peer of a message on it is a rank of the other group, and the reader says that collectives on
// it are not analyzed.
TEST(TraceBuilder, InterCommunicatorsRoundTripThroughTheReader) {
  TempDir dir;
  TraceBuilder b(4);
  const CommId inter = b.defineInterComm("MPI_Intercomm_create", {0, 1}, {3, 2});
  b.rank(0).send(1.0, 1.1, 1, 8, 4, inter);  // rank 1 of {3, 2}: world rank 2
  b.rank(2).recv(0.5, 1.2, 0, 8, 4, inter);  // rank 0 of {0, 1}: world rank 0
  EXPECT_THROW(b.rank(1).send(2.0, 2.1, 2, 8, 4, inter), std::invalid_argument);  // the other group has 2 ranks
  const std::string anchor = b.write(dir.path().string());
  const auto [status, defs] = run("otf2-print -G '" + anchor + "'", dir.path() / "defs.txt");
  ASSERT_EQ(status, 0) << defs;
  EXPECT_NE(defs.find("INTER_COMM"), std::string::npos) << defs;

  std::vector<std::string> warnings;
  const Trace read = readTrace(anchor, ReadOptions{[&](const std::string& w) { warnings.push_back(w); }, false});
  ASSERT_EQ(read.defs->comms.size(), b.trace().defs->comms.size());
  const Communicator& c = read.defs->comms[inter];
  EXPECT_EQ(c.name, "MPI_Intercomm_create");
  ASSERT_NE(c.remoteGroup, kNone);
  EXPECT_EQ(read.defs->groups[c.group].members, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(read.defs->groups[c.remoteGroup].members, (std::vector<std::uint32_t>{3, 2}));
  EXPECT_EQ(c.parent, 0u);
  EXPECT_TRUE(read.defs->isInterComm(inter));
  EXPECT_FALSE(read.defs->isInterComm(0));
  EXPECT_EQ(read.defs->peerWorldRank(inter, 1, 0), 2u);
  EXPECT_EQ(read.defs->peerWorldRank(inter, 0, 2), 0u);
  EXPECT_EQ(read.defs->peerWorldRank(inter, 2, 0), kNone);
  EXPECT_EQ(read.defs->peerCount(inter, 3), 2u);
  EXPECT_EQ(read.defs->peerCount(0, 3), 4u);
  EXPECT_EQ(read.defs->peerWorldRank(0, 3, 1), 3u);
  const MessageRecord& sent = read.locations[0].message(read.locations[0].events[1]);
  EXPECT_EQ(sent.peer, 1u);
  EXPECT_EQ(sent.comm, inter);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("1 inter-communicator: messages over inter-communicators are analyzed, collective operations on them are not"),
            std::string::npos)
      << warnings[0];
}

// ---- record sequences as Score-P 7.1 writes them ----

using K = EventKind;

TEST(TraceBuilder, SendAndReceiveLikeScoreP) {
  TraceBuilder b(2);
  b.rank(0).send(1.0, 1.5, 1, 1024, 0);
  b.rank(1).recv(0.5, 1.6, 0, 1024, 0);
  const Trace& t = b.trace();
  EXPECT_EQ(kinds(t.locations[0]), (std::vector<K>{K::Enter, K::MpiSend, K::Leave}));
  EXPECT_EQ(kinds(t.locations[1]), (std::vector<K>{K::Enter, K::MpiRecv, K::Leave}));
  EXPECT_EQ(t.locations[0].events[1].time, 1.0);
  EXPECT_EQ(t.locations[1].events[1].time, 1.6);
  const auto& message = t.locations[1].message(t.locations[1].events[1]);
  EXPECT_EQ(message.peer, 0u);
  EXPECT_EQ(message.bytes, 1024u);
  EXPECT_EQ(message.comm, b.world());
  EXPECT_EQ(t.defs->regions[t.callTree[t.locations[0].events[0].ref].region].role, RegionRole::Point2Point);
}

TEST(TraceBuilder, FenceLikeScoreP) {
  TraceBuilder b(2);
  const WinId w = b.createWindow(b.world(), {0.0, 0.0}, {0.1, 0.1});
  b.rank(0).fence(1.0, 1.1, w).put(1.2, 1.3, w, 1, 8).get(1.3, 1.4, w, 1, 8).fence(1.5, 2.0, w);
  const LocationEvents& r0 = b.trace().locations[0];
  EXPECT_EQ(kinds(r0), (std::vector<K>{K::Enter, K::RmaCollectiveBegin, K::RmaWinCreate, K::RmaCollectiveEnd,
                                       K::Leave, K::Enter, K::RmaCollectiveBegin, K::RmaCollectiveEnd, K::Leave,
                                       K::Enter, K::RmaPut, K::Leave, K::Enter, K::RmaGet, K::Leave, K::Enter,
                                       K::RmaCollectiveBegin, K::RmaOpCompleteNonBlocking,
                                       K::RmaOpCompleteNonBlocking, K::RmaOpCompleteRemote, K::RmaCollectiveEnd,
                                       K::Leave}));
  const auto& create = r0.collective(r0.events[3]);
  EXPECT_EQ(create.op, CollectiveOp::CreateHandle);
  EXPECT_EQ(create.syncLevel, kSyncProcess);
  const auto& end = r0.collective(r0.events[20]);
  EXPECT_EQ(end.op, CollectiveOp::Barrier);
  EXPECT_EQ(end.syncLevel, kSyncProcess | kSyncMemory);
  EXPECT_EQ(end.object, w);
  EXPECT_EQ(end.root, kNone);
  EXPECT_EQ(r0.events[16].time, 1.5);  // collective begin at enter
  EXPECT_EQ(r0.events[20].time, 2.0);  // end at leave
  EXPECT_EQ(r0.rmaRecord(r0.events[17]).matchingId, 1u);
  EXPECT_EQ(r0.rmaRecord(r0.events[18]).matchingId, 2u);
}

TEST(TraceBuilder, GeneralActiveTargetLikeScoreP) {
  TraceBuilder b(3);
  const WinId w = b.defineWindow(b.world());
  b.rank(0).post(1.0, 1.1, w, {1, 2}).wait(1.2, 3.0, w);
  b.rank(1).start(0.5, 1.1, w, {0}).put(1.2, 1.3, w, 0, 4).complete(1.4, 1.6, w);
  const Trace& t = b.trace();
  const LocationEvents& target = t.locations[0];
  const LocationEvents& origin = t.locations[1];
  EXPECT_EQ(kinds(target), (std::vector<K>{K::Enter, K::RmaGroupSync, K::Leave, K::Enter, K::RmaGroupSync, K::Leave}));
  const auto& post = target.rmaRecord(target.events[1]);
  EXPECT_EQ(post.syncLevel, kSyncProcess);
  EXPECT_EQ(t.defs->groups[post.group].members, (std::vector<std::uint32_t>{1, 2}));
  EXPECT_EQ(t.defs->groups[post.group].type, GroupType::CommGroup);
  EXPECT_EQ(target.events[4].time, 1.2);  // no completions: stamped with ENTER
  EXPECT_EQ(target.rmaRecord(target.events[4]).syncLevel, kSyncProcess | kSyncMemory);
  EXPECT_EQ(kinds(origin), (std::vector<K>{K::Enter, K::RmaGroupSync, K::Leave, K::Enter, K::RmaPut, K::Leave,
                                           K::Enter, K::RmaOpCompleteNonBlocking, K::RmaGroupSync, K::Leave}));
  EXPECT_EQ(origin.events[1].time, 0.5);  // start's group sync stamped with ENTER
  EXPECT_EQ(origin.events[8].time, 1.6);  // after the completion
  EXPECT_EQ(t.defs->groups[origin.rmaRecord(origin.events[1]).group].members, (std::vector<std::uint32_t>{0}));
}

TEST(TraceBuilder, LocksLikeScoreP) {
  TraceBuilder b(2);
  const WinId w = b.defineWindow(b.world());
  b.rank(1).lock(1.0, 2.0, w, 0, RmaLockType::Exclusive).accumulate(2.0, 2.1, w, 0, 1).unlock(3.0, 3.1, w, 0);
  b.rank(1).lock(4.0, 4.1, w, 0, RmaLockType::Shared).unlock(4.2, 4.3, w, 0);
  const LocationEvents& r1 = b.trace().locations[1];
  EXPECT_EQ(kinds(r1), (std::vector<K>{K::Enter, K::RmaRequestLock, K::Leave, K::Enter, K::RmaAtomic, K::Leave,
                                       K::Enter, K::RmaOpCompleteNonBlocking, K::RmaOpCompleteRemote,
                                       K::RmaReleaseLock, K::Leave, K::Enter, K::RmaRequestLock, K::Leave, K::Enter,
                                       K::RmaReleaseLock, K::Leave}));
  EXPECT_EQ(r1.events[1].time, 1.0);
  const auto& request = r1.rmaRecord(r1.events[1]);
  EXPECT_EQ(request.remote, 0u);
  EXPECT_EQ(request.lockType, static_cast<std::uint8_t>(RmaLockType::Exclusive));
  const auto& atomic = r1.rmaRecord(r1.events[4]);
  EXPECT_EQ(atomic.lockType, static_cast<std::uint8_t>(RmaAtomicType::Accumulate));
  EXPECT_EQ(r1.events[4].time, 2.0);
  EXPECT_EQ(r1.events[9].time, 3.1);   // release after the completions
  EXPECT_EQ(r1.events[15].time, 4.2);  // nothing to complete: stamped with ENTER
}

TEST(TraceBuilder, CollectivesLikeScoreP) {
  TraceBuilder b(2);
  b.rank(0).bcast(1.0, 2.0, 0, 100);
  b.rank(1).bcast(1.5, 2.0, 0, 100);
  const Trace& t = b.trace();
  EXPECT_EQ(kinds(t.locations[1]), (std::vector<K>{K::Enter, K::MpiCollectiveBegin, K::MpiCollectiveEnd, K::Leave}));
  EXPECT_EQ(t.locations[1].events[1].time, 1.5);
  const auto& end = t.locations[1].collective(t.locations[1].events[2]);
  EXPECT_EQ(end.op, CollectiveOp::Bcast);
  EXPECT_EQ(end.root, 0u);
  EXPECT_EQ(end.object, b.world());
  EXPECT_EQ(t.defs->regions[t.callTree[t.locations[1].events[0].ref].region].role, RegionRole::CollOne2All);
}

TEST(TraceBuilder, InternsCallPathsAndCallSites) {
  TraceBuilder b(1);
  auto& r = b.rank(0);
  r.enter(0, "main").enter(1, "foo", {"a.c", 3}).leave(2, "foo").enter(3, "foo", {"a.c", 3}).leave(4, "foo");
  r.at("a.c", 9).enter(5, "foo").leave(6, "foo").leave(7, "main");
  const Trace& t = b.trace();
  const auto& e = t.locations[0].events;
  EXPECT_EQ(e[1].ref, e[3].ref);
  EXPECT_NE(e[1].ref, e[5].ref);
  EXPECT_EQ(describePath(t, e[5].ref), "main/foo@a.c:9");
  EXPECT_EQ(t.defs->sourceLocations.size(), 2u);
}

// ---- input validation ----

TEST(TraceBuilder, RejectsBadInput) {
  TraceBuilder b(2);
  EXPECT_THROW(b.rank(2), std::invalid_argument);
  b.rank(0).enter(1.0, "main");
  EXPECT_THROW(b.rank(0).enter(0.5, "foo"), std::invalid_argument);
  EXPECT_THROW(b.rank(0).leave(2.0, "foo"), std::invalid_argument);
  EXPECT_THROW(b.rank(1).leave(2.0, "main"), std::invalid_argument);
  EXPECT_THROW(b.rank(0).send(3.0, 2.0, 1, 0, 0), std::invalid_argument);
  EXPECT_THROW(b.rank(0).send(3.0, 4.0, 5, 0, 0), std::invalid_argument);
  EXPECT_THROW(b.rank(0).fence(3.0, 4.0, 7), std::invalid_argument);
  const WinId w = b.defineWindow(b.world());
  EXPECT_THROW(b.rank(1).complete(3.0, 4.0, w), std::invalid_argument);
  EXPECT_THROW(b.rank(1).put(3.0, 4.0, w, 2, 8), std::invalid_argument);
  EXPECT_THROW(b.rank(1).wait(3.0, 4.0, Request{99}), std::invalid_argument);
  EXPECT_THROW(b.rank(1).event(EventKind::RmaPut, 3.0), std::invalid_argument);
  try {
    b.rank(0).enter(0.25, "late");
    FAIL() << "expected an exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("rank 0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("0.25"), std::string::npos) << e.what();
  }
}

TEST(Otf2Writer, NamesThePathWhenTheDirectoryCannotBeCreated) {
  TempDir dir;
  const fs::path file = dir.path() / "a-file";
  std::ofstream(file) << "x";
  TraceBuilder b(1);
  b.rank(0).enter(0, "main").leave(1, "main");
  try {
    writeOtf2(b.trace(), (file / "sub").string());
    FAIL() << "expected a TraceError";
  } catch (const TraceError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find((file / "sub").string()), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST(Otf2Writer, ReplacesAnExistingArchive) {
  TempDir dir;
  TraceBuilder b(1);
  b.rank(0).enter(0, "main").leave(1, "main");
  b.write(dir.path().string());
  b.rank(0).enter(2, "main").leave(3, "main");
  const std::string anchor = b.write(dir.path().string());
  const auto [status, output] = run("otf2-print '" + anchor + "'", dir.path() / "events.txt");
  ASSERT_EQ(status, 0) << output;
  std::size_t enters = 0;
  for (std::size_t at = output.find("\nENTER"); at != std::string::npos; at = output.find("\nENTER", at + 1)) ++enters;
  EXPECT_EQ(enters, 2u);
}

}  // namespace
}  // namespace waitscope::trace
