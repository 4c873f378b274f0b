// Running out of memory in the analyzer: one line naming the rank, the phase
// and about how much memory was needed, and no rank exits with success. The
// analyzer runs on a generated 2-rank trace with a real address-space limit
// (`ulimit -v` on one rank, then on all): first the smallest limit that lets
// the analysis finish is searched, then limits below it make the analysis
// fail in the phases where memory runs out, from the read on.
#include <algorithm>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "analysis/replay/out_of_memory.h"
#include "tests/support/test_support.h"
#include "tests/support/trace_builder.h"

using namespace waitscope;
using waitscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

TEST(out_of_memory, MessageNamesThePhaseAndTheMemoryNeeded) {
  const std::size_t gb = std::size_t{1} << 30, mb = std::size_t{1} << 20;
  EXPECT_EQ(replay::outOfMemoryMessage("validate", {gb + 400 * mb, 512 * mb, gb + 512 * mb}, 2500000),
            "out of memory in the validate phase: about 1.9 GB needed (1.4 GB in use, a request for 512 MB failed; "
            "limit 1.5 GB); this rank holds 2500000 events; give each analysis rank more memory");
  EXPECT_EQ(replay::outOfMemoryMessage("read", {300 * mb, 0, 0}, 0),
            "out of memory in the read phase: more than the 300 MB in use needed; give each analysis rank more memory");
}

// 2 ranks exchanging `rounds` messages each way (rank 1 sends late every
// other round), a barrier every 1000 rounds: 6 events per round and rank.
std::string writeTrace(const fs::path& dir, int rounds) {
  trace::TraceBuilder b(2);
  for (trace::Rank r = 0; r < 2; ++r) b.rank(r).init(0.0, 0.001);
  double t = 0.01;
  for (int i = 0; i < rounds; ++i, t += 0.0002) {
    const double late = i % 2 == 0 ? 0.00004 : 0.0;
    b.rank(0).recv(t, t + late + 0.00003, 1, 64, 1).send(t + late + 0.00004, t + late + 0.00005, 1, 64, 1);
    b.rank(1).send(t + late, t + late + 0.00001, 0, 64, 1).recv(t + late + 0.00002, t + late + 0.00006, 0, 64, 1);
    if (i % 1000 == 999)
      for (trace::Rank r = 0; r < 2; ++r) b.rank(r).barrier(t + 0.00012, t + 0.00015);
  }
  for (trace::Rank r = 0; r < 2; ++r) b.rank(r).finalize(t + 0.001, t + 0.002);
  return b.write(dir.string());
}

struct AnalyzerRun {
  int exitCode = 0;
  std::vector<std::string> lines;  // waitscope-analyze's lines on stderr, progress lines left out
  std::vector<int> rankStatus;     // exit status each rank's shell recorded (killed ranks record none)
  std::string err;
};

// mpiexec -n 4 with `ulimit -v limitKb` on rank `limited` (-1: every rank).
AnalyzerRun analyze(const fs::path& dir, const std::string& anchor, long limitKb, int limited) {
  for (int r = 0; r < 2; ++r) fs::remove(dir / ("status." + std::to_string(r)));
  fs::remove(dir / "out.waitscope");
  const std::string condition =
      limited < 0 ? "true" : "[ \"$OMPI_COMM_WORLD_RANK\" = " + std::to_string(limited) + " ]";
  const std::string rankCommand = "if " + condition + "; then ulimit -v " + std::to_string(limitKb) + "; fi; " +
                                  test::tool("waitscope-analyze") + " " + anchor + " -o " +
                                  (dir / "out.waitscope").string() + "; status=$?; echo $status > " + dir.string() +
                                  "/status.$OMPI_COMM_WORLD_RANK; exit 0";
  const std::string command = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 " +
                              std::string(WAITSCOPE_MPIEXEC) + " -n 2 sh -c '" + rankCommand + "'";
  const test::CommandResult result = test::run(command);
  AnalyzerRun run;
  run.exitCode = result.exitCode;
  run.err = result.err;
  std::istringstream in(result.err);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("waitscope-analyze", 0) == 0 || line.find("bad_alloc") != std::string::npos ||
        line.find("terminate called") != std::string::npos)
      run.lines.push_back(line);
  for (int r = 0; r < 2; ++r) {
    std::ifstream status(dir / ("status." + std::to_string(r)));
    int code = 0;
    if (status >> code) run.rankStatus.push_back(code);
  }
  // The ranks' shells exit 0 whatever the analyzer said, so that mpiexec does not kill a rank
  // still on its way out when another one failed (Open MPI ends the job at the first non-zero
  // exit); the analyzer's own statuses then say how the job ended.
  if (run.exitCode == 0)
    for (const int code : run.rankStatus) run.exitCode = std::max(run.exitCode, code);
  return run;
}

// The smallest limit (in 8 MB steps, between `low` and `high` KB) under which
// the analysis of `anchor` finishes with rank 1 limited.
long smallestLimit(const fs::path& dir, const std::string& anchor, long low, long high) {
  while (high - low > 8 * 1024) {
    const long mid = (low + high) / 2;
    (analyze(dir, anchor, mid, 1).exitCode == 0 ? high : low) = mid;
  }
  return high;
}

TEST(out_of_memory, EveryPhaseFailsWithOneLineAndNoRankSucceeds) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: no address-space limit applies";
#endif
  TempDir dir("waitscope-oom");
  // What MPI itself needs: below it MPI fails (or hangs) on its own, before
  // the analysis could say anything; the sweep stays well above it.
  const std::string tiny = writeTrace(dir / "tiny", 10);
  const long mpiNeeds = smallestLimit(dir.path(), tiny, 64 * 1024, 4 * 1024 * 1024);
  const std::string anchor = writeTrace(dir / "big", 400000);  // 2.4 million events per rank
  const long needs = smallestLimit(dir.path(), anchor, mpiNeeds, 8 * 1024 * 1024);
  std::printf("MPI needs %ld KB of address space, the analysis %ld KB\n", mpiNeeds, needs);
  ASSERT_GT(needs - mpiNeeds, 64 * 1024) << "the analysis itself needs too little memory to test";

  const std::regex line("waitscope-analyze: rank ([0-9]): out of memory in the (read|validate|replay|causes|write) "
                        "phase: (about [0-9.]+ [MG]B needed|more than the [0-9.]+ [MG]B in use needed).*; give each "
                        "analysis rank more memory");
  std::set<std::string> phases;
  for (const int limited : {1, -1}) {
    // From just below what the analysis needs, in growing steps, then in 8 MB
    // steps through the last 96 MB above what MPI needs, where the read fails.
    for (long limit = needs - 4 * 1024; limit > mpiNeeds + 16 * 1024;
         limit -= limit < mpiNeeds + 96 * 1024 ? 8 * 1024
                                               : std::min(std::max(8L * 1024, (needs - limit) / 2),
                                                          limit - (mpiNeeds + 88 * 1024))) {
      SCOPED_TRACE("ulimit -v " + std::to_string(limit) + " on rank " + std::to_string(limited));
      const AnalyzerRun run = analyze(dir.path(), anchor, limit, limited);
      std::printf("ulimit -v %ld on %s: exit %d%s\n", limit, limited < 0 ? "every rank" : "rank 1", run.exitCode,
                  run.lines.empty() ? "" : (": " + run.lines[0]).c_str());
      if (run.exitCode == 0) continue;  // memory use varies a little from run to run
      EXPECT_NE(run.exitCode, 124) << "the job hung";
      if (run.lines.empty()) {
        // MPI itself ran out (in MPI_Init or inside a call), before the
        // analysis could say anything: lower limits fail the same way.
        EXPECT_EQ(run.err.find("bad_alloc"), std::string::npos) << run.err;
        break;
      }
      // One line per rank that ran out (with every rank limited, both may).
      ASSERT_LE(run.lines.size(), limited < 0 ? 2U : 1U) << run.err;
      std::set<std::string> ranks, failedIn;
      for (const std::string& text : run.lines) {
        std::smatch match;
        ASSERT_TRUE(std::regex_match(text, match, line)) << text;
        EXPECT_TRUE(ranks.insert(match[1].str()).second) << "two lines from one rank";
        if (limited >= 0) {
          EXPECT_EQ(match[1].str(), std::to_string(limited));
        }
        failedIn.insert(match[2].str());
      }
      phases.insert(failedIn.begin(), failedIn.end());
      for (const int status : run.rankStatus) EXPECT_NE(status, 0) << "a rank exited with success";
      if (failedIn == std::set<std::string>{"read"}) {
        EXPECT_EQ(run.rankStatus.size(), 2U) << "every rank exits by itself";
      }
      EXPECT_FALSE(fs::exists(dir / "out.waitscope"));
      if (failedIn.count("read")) break;  // lower limits fail there too
    }
  }
  std::string seen;
  for (const std::string& p : phases) seen += " " + p;
  RecordProperty("phases", seen);
  std::printf("phases that ran out of memory:%s\n", seen.c_str());
  EXPECT_TRUE(phases.count("read")) << "no limit made the read fail";
  EXPECT_GE(phases.size(), 2U) << "no limit made a phase after the read fail";
}

}  // namespace
