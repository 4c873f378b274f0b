// waitscope-analyze on a trace with a clock-condition violation: corrected by default (one line
// on stderr, the report's meta data, the side file of corrected times, one line in
// `waitscope-report print`), kept as recorded with --no-time-correct (the warning, no side file).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "analysis/report/report_io.h"
#include "analysis/trace/clock_correction_file.h"
#include "tests/support/test_support.h"
#include "tests/support/trace_builder.h"

namespace waitscope {
namespace {

namespace fs = std::filesystem;

// Rank 1's clock runs 0.3 s ahead: its message seems to arrive at rank 0 before it was sent.
std::string writeSkewed(const fs::path& dir) {
  trace::TraceBuilder b(2);
  for (trace::Rank r = 0; r < 2; ++r) {
    const double skew = r == 1 ? 0.3 : 0.0;
    b.rank(r).enter(skew, "main").init(skew, 0.5 + skew);
  }
  b.rank(1).send(1.3, 1.31, 0, 8, 1);
  b.rank(0).recv(1.0, 1.000001, 1, 8, 1);
  for (trace::Rank r = 0; r < 2; ++r) {
    const double skew = r == 1 ? 0.3 : 0.0;
    b.rank(r).finalize(9.0 + skew, 9.5 + skew).leave(10.0 + skew, "main");
  }
  return b.write(dir.string());
}

test::CommandResult analyze(const std::string& anchor, const std::string& report, const std::string& extra = "") {
  return test::run("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 " +
                   std::string(WAITSCOPE_MPIEXEC) + " -n 2 " + test::tool("waitscope-analyze") + " " +
                   anchor + " -o " + report + " --quiet " + extra);
}

TEST(time_correction_cli, CorrectedByDefaultKeptWithNoTimeCorrect) {
  test::TempDir dir;
  const std::string anchor = writeSkewed(dir / "trace");
  const std::string report = (dir / "run.waitscope").string();
  const std::string side = trace::clockCorrectionPath(report);

  const test::CommandResult corrected = analyze(anchor, report);
  ASSERT_EQ(corrected.exitCode, 0) << corrected.err;
  EXPECT_NE(corrected.err.find("waitscope-analyze: corrected 1 clock condition violations with the controlled logical "
                               "clock: 7 events moved, largest shift 0.3 s (--no-time-correct keeps the recorded "
                               "times)\n"),
            std::string::npos)
      << corrected.err;
  EXPECT_EQ(corrected.err.find("warning"), std::string::npos) << corrected.err;
  const report::Report rep = report::readReport(report);
  EXPECT_EQ(rep.metaValue("time_correction"), "controlled logical clock");
  EXPECT_EQ(rep.metaValue("time_correction_moved_events"), "7");
  ASSERT_TRUE(fs::exists(side));
  const auto corrections = trace::readClockCorrections(side);
  ASSERT_EQ(corrections.size(), 2u);
  EXPECT_EQ(corrections[0].anchors.size(), 1u);
  EXPECT_TRUE(corrections[1].empty());
  const test::CommandResult print = test::run(test::tool("waitscope-report") + " print " + report);
  ASSERT_EQ(print.exitCode, 0) << print.err;
  EXPECT_NE(print.out.find("times corrected (controlled logical clock): 1 clock condition violations, 7 events "
                           "moved, largest shift 0.3 s\n"),
            std::string::npos)
      << print.out;

  // Analyzed again without the correction: the recorded times, the warning, and no stale side file.
  const test::CommandResult raw = analyze(anchor, report, "--no-time-correct");
  ASSERT_EQ(raw.exitCode, 0) << raw.err;
  EXPECT_NE(raw.err.find("waitscope-analyze: warning: clock condition violations: 1 point-to-point, 0 collective, 0 "
                         "RMA; wait states near them are unreliable\n"),
            std::string::npos)
      << raw.err;
  EXPECT_EQ(report::readReport(report).metaValue("time_correction"), "");
  EXPECT_FALSE(fs::exists(side));
  const test::CommandResult plain = test::run(test::tool("waitscope-report") + " print " + report);
  EXPECT_EQ(plain.out.find("times corrected"), std::string::npos);

  // The help names the option.
  const test::CommandResult help = test::run(test::tool("waitscope-analyze") + " --help");
  EXPECT_NE(help.out.find("--no-time-correct"), std::string::npos);
}

// A file by the side file's name that is not one is never overwritten: the analysis says so.
TEST(time_correction_cli, AForeignFileByTheSideFilesNameIsKept) {
  test::TempDir dir;
  const std::string anchor = writeSkewed(dir / "trace");
  const std::string report = (dir / "run.waitscope").string();
  const std::string side = trace::clockCorrectionPath(report);
  std::ofstream(side) << "mine\n";
  const test::CommandResult r = analyze(anchor, report);
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find(side + ": exists and is not a clock-correction file"), std::string::npos) << r.err;
  std::ifstream in(side);
  std::string content;
  std::getline(in, content);
  EXPECT_EQ(content, "mine");
}

}  // namespace
}  // namespace waitscope
