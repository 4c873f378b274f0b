// Traces that are not what their names say, or that number their definitions
// sparsely: a FIFO or a device where the anchor, the global definitions or an
// event file should be is refused at once (reading would wait forever or never
// end), and definition ids just under 2^24 or near 2^32 cost memory for the
// definitions there are, not for the largest id. Reads run in a child process
// with a timeout and a measure of its peak memory. Also under ASan/UBSan in CI.
#include <gtest/gtest.h>
#include <otf2/otf2.h>
#include <sys/stat.h>

#include <filesystem>

#include "analysis/trace/otf2_reader.h"
#include "tests/support/test_support.h"
#include "tests/unit/child_process.h"

using namespace waitscope::trace;
using waitscope::test::inChild;
using waitscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

// What readTrace makes of `anchor` in a child: "loaded ..." or the error line.
waitscope::test::ChildOutcome readInChild(const std::string& anchor) {
  return inChild([&] {
    ReadOptions quiet;
    quiet.warn = [](const std::string&) {};
    try {
      const Trace t = readTrace(anchor, quiet);
      std::string regions;
      for (const CallPath& p : t.callTree.paths()) regions += " " + t.defs->regions.at(p.region).name;
      return "loaded" + regions;
    } catch (const TraceError& e) {
      return std::string(e.what());
    }
  });
}

class hostile_trace : public ::testing::Test {
 protected:
  TempDir dir_{"waitscope-hostile-trace"};
  const std::string anchor_ = waitscope::test::copyArchive(waitscope::test::sharedTrace("scorep-rma/fence"), dir_.path());
};

TEST_F(hostile_trace, FifoAnchorIsRefusedWithoutWaiting) {
  const std::string fifo = (dir_ / "pipe.otf2").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const auto read = readInChild(fifo);
  ASSERT_TRUE(read.finished) << "the reader waited on a FIFO";
  EXPECT_EQ(read.result, fifo + ": it is a FIFO (named pipe), not a file; give an OTF2 anchor file");
}

TEST_F(hostile_trace, FifoOrDeviceInsteadOfDefinitionsOrEventsIsRefused) {
  const fs::path defs = fs::path(anchor_).replace_extension(".def");
  fs::remove(defs);
  ASSERT_EQ(mkfifo(defs.c_str(), 0600), 0);
  auto read = readInChild(anchor_);
  ASSERT_TRUE(read.finished) << "the reader waited on a FIFO";
  EXPECT_EQ(read.result, defs.string() + ": it is a FIFO (named pipe), not a file");
  fs::remove(defs);
  fs::copy_file(fs::path(waitscope::test::sharedTrace("scorep-rma/fence")).replace_extension(".def"), defs);

  const fs::path events = fs::path(anchor_).replace_extension("") / "0.evt";
  fs::remove(events);
  fs::create_symlink("/dev/zero", events);
  read = readInChild(anchor_);
  ASSERT_TRUE(read.finished) << "the reader did not return on a device";
  EXPECT_EQ(read.result, events.string() + ": it is a device, not a file");
  EXPECT_LT(read.peakGrowthKb, 256 * 1024);
}

// ---- sparse definition ids ----------------------------------------------------------------

OTF2_FlushType flushAlways(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }

// One MPI rank that enters main and MPI_Barrier, every definition numbered
// from `base` downwards (strings, regions, groups, communicator, system tree).
std::string writeSparseTrace(const fs::path& dir, std::uint32_t base) {
  fs::create_directories(dir);
  OTF2_Archive* archive =
      OTF2_Archive_Open(dir.c_str(), "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20, OTF2_SUBSTRATE_POSIX,
                        OTF2_COMPRESSION_NONE);
  const OTF2_FlushCallbacks flush = {flushAlways, nullptr};
  OTF2_Archive_SetFlushCallbacks(archive, &flush, nullptr);
  OTF2_Archive_SetSerialCollectiveCallbacks(archive);
  const OTF2_RegionRef mainRegion = base - 1, barrier = base - 2;
  const OTF2_CommRef world = base - 3;
  OTF2_Archive_OpenEvtFiles(archive);
  OTF2_EvtWriter* events = OTF2_Archive_GetEvtWriter(archive, 0);
  OTF2_EvtWriter_Enter(events, nullptr, 10, mainRegion);
  OTF2_EvtWriter_Enter(events, nullptr, 20, barrier);
  OTF2_EvtWriter_MpiCollectiveBegin(events, nullptr, 21);
  OTF2_EvtWriter_MpiCollectiveEnd(events, nullptr, 29, OTF2_COLLECTIVE_OP_BARRIER, world, OTF2_UNDEFINED_UINT32, 0, 0);
  OTF2_EvtWriter_Leave(events, nullptr, 30, barrier);
  OTF2_EvtWriter_Leave(events, nullptr, 40, mainRegion);
  OTF2_Archive_CloseEvtWriter(archive, events);
  OTF2_Archive_CloseEvtFiles(archive);
  OTF2_Archive_OpenDefFiles(archive);
  OTF2_Archive_CloseDefWriter(archive, OTF2_Archive_GetDefWriter(archive, 0));
  OTF2_Archive_CloseDefFiles(archive);

  OTF2_GlobalDefWriter* defs = OTF2_Archive_GetGlobalDefWriter(archive);
  OTF2_GlobalDefWriter_WriteClockProperties(defs, 1000, 0, 50, OTF2_UNDEFINED_TIMESTAMP);
  const char* names[] = {"", "main", "MPI_Barrier", "MPI Rank 0", "Master thread", "machine", "node", "MPI_COMM_WORLD"};
  for (std::uint32_t i = 0; i < 8; ++i) OTF2_GlobalDefWriter_WriteString(defs, base - 10 - i, names[i]);
  const auto str = [&](std::uint32_t i) { return static_cast<OTF2_StringRef>(base - 10 - i); };
  OTF2_GlobalDefWriter_WriteRegion(defs, mainRegion, str(1), str(1), str(0), OTF2_REGION_ROLE_FUNCTION,
                                   OTF2_PARADIGM_COMPILER, OTF2_REGION_FLAG_NONE, OTF2_UNDEFINED_STRING, 0, 0);
  OTF2_GlobalDefWriter_WriteRegion(defs, barrier, str(2), str(2), str(0), OTF2_REGION_ROLE_BARRIER, OTF2_PARADIGM_MPI,
                                   OTF2_REGION_FLAG_NONE, OTF2_UNDEFINED_STRING, 0, 0);
  OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, base - 4, str(6), str(5), OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  OTF2_GlobalDefWriter_WriteLocationGroup(defs, base - 5, str(3), OTF2_LOCATION_GROUP_TYPE_PROCESS, base - 4,
                                          OTF2_UNDEFINED_LOCATION_GROUP);
  OTF2_GlobalDefWriter_WriteLocation(defs, 0, str(4), OTF2_LOCATION_TYPE_CPU_THREAD, 6, base - 5);
  const std::uint64_t location = 0, rank = 0;
  OTF2_GlobalDefWriter_WriteGroup(defs, base - 6, str(0), OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, 1, &location);
  OTF2_GlobalDefWriter_WriteGroup(defs, base - 7, str(0), OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, 1, &rank);
  OTF2_GlobalDefWriter_WriteComm(defs, world, str(7), base - 7, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  OTF2_Archive_Close(archive);
  return (dir / "traces.otf2").string();
}

// Old readers made every id an array index: 2^24 strings alone took 512 MB.
TEST_F(hostile_trace, DefinitionIdsJustUnder2To24CostNoMemory) {
  const std::string anchor = writeSparseTrace(dir_ / "sparse", (1u << 24) - 1);
  EXPECT_LT(fs::file_size(fs::path(anchor).replace_extension(".def")), 4096U);
  const auto read = readInChild(anchor);
  ASSERT_TRUE(read.finished);
  EXPECT_EQ(read.result, "loaded main MPI_Barrier");
  EXPECT_LT(read.peakGrowthKb, 48 * 1024);
}

// Ids anywhere in OTF2's 32-bit range are definitions like any other.
TEST_F(hostile_trace, DefinitionIdsNear2To32AreRead) {
  const std::string anchor = writeSparseTrace(dir_ / "sparse", 0xfffffff0U);
  const auto read = readInChild(anchor);
  ASSERT_TRUE(read.finished);
  EXPECT_EQ(read.result, "loaded main MPI_Barrier");
  EXPECT_LT(read.peakGrowthKb, 48 * 1024);
}

}  // namespace
