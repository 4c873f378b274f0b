// Bad input never crashes or hangs the reader: each case is one TraceError
// whose message names the offending file and the problem.
#include <otf2/otf2.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "analysis/trace/otf2_reader.h"
#include "tests/support/test_support.h"

using namespace waitscope::trace;
using waitscope::test::copyArchive;
using waitscope::test::run;
using waitscope::test::sharedTrace;
using waitscope::test::TempDir;
using waitscope::test::tool;
namespace fs = std::filesystem;

namespace {

// Reads `anchor` and returns the error message (fails the test if reading succeeds).
std::string readError(const std::string& anchor) {
  ReadOptions quiet;
  quiet.warn = [](const std::string&) {};
  try {
    readTrace(anchor, quiet);
  } catch (const TraceError& e) {
    return e.what();
  }
  ADD_FAILURE() << "reading " << anchor << " succeeded";
  return {};
}

void expectOneLineNaming(const std::string& message, const std::string& file, const std::string& problem) {
  EXPECT_NE(message.find(file), std::string::npos) << message;
  EXPECT_NE(message.find(problem), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

class BadArchive : public ::testing::Test {
 protected:
  void SetUp() override { anchor = copyArchive(sharedTrace("scorep-rma/gats"), dir.path()); }
  fs::path file(const std::string& name) const { return dir / name; }
  TempDir dir;
  std::string anchor;
};

TEST_F(BadArchive, MissingAnchor) {
  fs::remove(anchor);
  expectOneLineNaming(readError(anchor), anchor, "no such file");
}

TEST_F(BadArchive, DirectoryInsteadOfAnchor) {
  expectOneLineNaming(readError(dir.path().string()), dir.path().string(), "is a directory");
}

TEST_F(BadArchive, GarbageAnchor) {
  std::ofstream(anchor, std::ios::trunc) << "this is not an OTF2 anchor file\n";
  expectOneLineNaming(readError(anchor), anchor, "not a readable OTF2 anchor file");
}

TEST_F(BadArchive, MissingGlobalDefinitions) {
  fs::remove(file("traces.def"));
  expectOneLineNaming(readError(anchor), file("traces.def").string(), "missing global definitions");
}

TEST_F(BadArchive, TruncatedGlobalDefinitions) {
  fs::resize_file(file("traces.def"), fs::file_size(file("traces.def")) / 2);
  expectOneLineNaming(readError(anchor), file("traces.def").string(), "definitions");
}

TEST_F(BadArchive, MissingEventFile) {
  fs::remove(file("traces/2.evt"));
  expectOneLineNaming(readError(anchor), file("traces/2.evt").string(), "missing event file of rank 2");
}

TEST_F(BadArchive, MissingLocalDefinitions) {
  fs::remove(file("traces/1.def"));
  expectOneLineNaming(readError(anchor), file("traces/1.def").string(), "missing local definitions");
}

TEST_F(BadArchive, TruncatedEventFile) {
  fs::resize_file(file("traces/3.evt"), fs::file_size(file("traces/3.evt")) / 2);
  expectOneLineNaming(readError(anchor), file("traces/3.evt").string(), "truncated");
}

TEST_F(BadArchive, EmptyEventFile) {
  fs::resize_file(file("traces/0.evt"), 0);
  expectOneLineNaming(readError(anchor), file("traces/0.evt").string(), "0.evt: ");
}

TEST_F(BadArchive, CorruptedEventFile) {
  const fs::path evt = file("traces/1.evt");
  const auto size = fs::file_size(evt);
  std::fstream f(evt, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(size / 3));
  for (int i = 0; i < 64; ++i) f.put(static_cast<char>(0xFF - i));
  f.close();
  expectOneLineNaming(readError(anchor), evt.string(), "1.evt: ");
}

// An archive whose definitions hold no location at all.
TEST(BadInput, ArchiveWithoutLocations) {
  TempDir dir;
  OTF2_Archive* archive = OTF2_Archive_Open(dir.path().c_str(), "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
                                            4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  ASSERT_NE(archive, nullptr);
  OTF2_FlushCallbacks flush{[](void*, OTF2_FileType, OTF2_LocationRef, void*, bool) -> OTF2_FlushType { return OTF2_FLUSH; },
                            nullptr};
  OTF2_Archive_SetFlushCallbacks(archive, &flush, nullptr);
  OTF2_Archive_SetSerialCollectiveCallbacks(archive);
  OTF2_Archive_OpenEvtFiles(archive);
  OTF2_Archive_CloseEvtFiles(archive);
  OTF2_GlobalDefWriter* defs = OTF2_Archive_GetGlobalDefWriter(archive);
  ASSERT_NE(defs, nullptr);
  OTF2_GlobalDefWriter_WriteClockProperties(defs, 1000000000, 0, 1, OTF2_UNDEFINED_TIMESTAMP);
  OTF2_GlobalDefWriter_WriteString(defs, 0, "");
  OTF2_Archive_Close(archive);
  const std::string anchor = (dir / "traces.otf2").string();
  expectOneLineNaming(readError(anchor), (dir / "traces.def").string(), "no locations");
}

// The command-line tool turns each of these into one error line and exit code 1.
TEST_F(BadArchive, ReportToolPrintsOneLineAndFails) {
  fs::remove(file("traces/2.evt"));
  const auto result = run(tool("waitscope-report") + " stats '" + anchor + "'");
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  EXPECT_NE(result.err.find("2.evt"), std::string::npos) << result.err;
  EXPECT_TRUE(result.out.empty());
}

TEST(ReportTool, UsageErrorsExitWithTwo) {
  EXPECT_EQ(run(tool("waitscope-report")).exitCode, 2);
  EXPECT_EQ(run(tool("waitscope-report") + " frobnicate").exitCode, 2);
  EXPECT_EQ(run(tool("waitscope-report") + " stats").exitCode, 2);
  EXPECT_EQ(run(tool("waitscope-report") + " --help").exitCode, 0);
}

TEST(ReportTool, StatsJsonHasEveryKind) {
  const auto result = run(tool("waitscope-report") + " stats --json '" + sharedTrace("scorep-rma/fence") + "'");
  ASSERT_EQ(result.exitCode, 0) << result.err;
  for (std::string_view kind : kEventKindNames) {
    std::string key = "\"";  // appended, not concatenated: GCC 12 -O3 warns falsely (-Wrestrict) on a + chain
    key.append(kind).append("\": ");
    EXPECT_NE(result.out.find(key), std::string::npos) << kind;
  }
  EXPECT_NE(result.out.find("\"locations\": 4"), std::string::npos);
  EXPECT_NE(result.out.find("\"rma_put\": 80"), std::string::npos);
  EXPECT_NE(result.out.find("\"rma_collective_end\": 168"), std::string::npos);
}

}  // namespace
