// Mutation fuzzing of the report reader: byte flips, truncations and garbage at
// deterministic pseudo-random places of a valid report file, and values made
// inconsistent through SQL (ids out of range, wrong blob sizes, parent cycles,
// wrong types). readReport must either succeed with a consistent report or
// throw one-line ReportError; never crash, hang or throw anything else. The
// sanitizer job runs this under ASan and UBSan.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "tests/support/test_support.h"
#include "tests/unit/report/read_or_reject.h"
#include "tests/unit/report/report_test_util.h"
#include "tests/unit/report/sample_report.h"

using namespace waitscope::report;
using waitscope::test::execSql;
using waitscope::test::sampleReport;
using waitscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

using waitscope::test::Outcome;

Outcome readOrReject(const std::string& path) {
  return waitscope::test::readOrReject([](const std::string& p) { return readReport(p); }, path);
}

void mutate(const fs::path& file, std::mt19937& rng) {
  const auto size = fs::file_size(file);
  std::uniform_int_distribution<std::uintmax_t> position(0, size - 1);
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  switch (rng() % 4) {
    case 0:  // flip single bits
      for (int i = 0, n = 1 + static_cast<int>(rng() % 8); i < n; ++i) {
        const auto at = static_cast<std::streamoff>(position(rng));
        f.seekg(at);
        const int byte = f.get();
        f.seekp(at);
        f.put(static_cast<char>(byte ^ (1 << (rng() % 8))));
      }
      break;
    case 1:  // truncate
      f.close();
      fs::resize_file(file, position(rng));
      break;
    case 2:  // overwrite a run with random bytes
      f.seekp(static_cast<std::streamoff>(position(rng)));
      for (int i = 0, n = 1 + static_cast<int>(rng() % 64); i < n; ++i) f.put(static_cast<char>(rng()));
      break;
    default:  // overwrite a run with 0x00 or 0xff, which page headers read as extreme sizes
      f.seekp(static_cast<std::streamoff>(position(rng)));
      for (int i = 0, n = 1 + static_cast<int>(rng() % 16), fill = rng() % 2 ? 0xff : 0; i < n; ++i)
        f.put(static_cast<char>(fill));
  }
}

TEST(report_fuzz, MutatedFilesFailCleanly) {
  TempDir dir("waitscope-report-fuzz");
  const std::string original = (dir / "original.wsr").string();
  writeReport(sampleReport(), original);
  const std::string path = (dir / "mutated.wsr").string();
  std::mt19937 rng(20261122);
  int loaded = 0, rejected = 0;
  for (int iteration = 0; iteration < 200; ++iteration) {
    fs::copy_file(original, path, fs::copy_options::overwrite_existing);
    mutate(path, rng);
    (readOrReject(path) == Outcome::Loaded ? loaded : rejected)++;
  }
  EXPECT_EQ(loaded + rejected, 200);
  EXPECT_GT(rejected, 0);  // the mutations must actually bite
}

// Each edit leaves a well-formed SQLite file whose content breaks the format.
struct Edit {
  const char* name;  // the test's name
  std::string sql;
};

void PrintTo(const Edit& edit, std::ostream* out) { *out << edit.sql; }

// Copies `table` without its constraints, so that an edit can store what the
// schema forbids (NULL, duplicates), as a damaged or hand-made file could.
std::string unconstrained(const std::string& table) {
  return "CREATE TABLE loose AS SELECT * FROM " + table + "; DROP TABLE " + table + "; ALTER TABLE loose RENAME TO " +
         table + "; ";
}

const Edit kEdits[] = {
    // ids out of range or not dense
    {"SeverityMetricOutOfRange", "UPDATE severities SET metric = 9 WHERE rowid = 1"},
    {"SeverityCallPathOutOfRange", "UPDATE severities SET callpath = 99 WHERE rowid = 2"},
    {"NegativeId", "UPDATE severities SET metric = -1 WHERE rowid = 1"},
    {"IdIsNoId", "UPDATE severities SET callpath = 4294967295 WHERE rowid = 1"},
    {"IdIsReal", "UPDATE severities SET metric = 1e300 WHERE rowid = 1"},
    // packed records (report_schema.h): instance = metric, location, callpath, cause, start, end
    {"InstanceLocationOutOfRange", "UPDATE instances SET data = substr(data, 1, 4) || x'03000000' || substr(data, 9)"},
    {"InstanceCauseOutOfRange", "UPDATE instances SET data = substr(data, 1, 44) || x'07000000' || substr(data, 49)"},
    {"InstanceMetricIsNoId", "UPDATE instances SET data = x'ffffffff' || substr(data, 5)"},
    {"InstancesPartialRecord", "UPDATE instances SET data = substr(data, 1, 40)"},
    {"InstancesNotABlob", "UPDATE instances SET data = 'text'"},
    {"InstanceChunkGap", "UPDATE instances SET chunk = 3"},
    {"CriticalPathCallPathOutOfRange", "UPDATE critical_path SET data = substr(data, 1, 4) || x'06000000' || substr(data, 9)"},
    {"LocationSystemNodeOutOfRange", "UPDATE locations SET system_node = 2 WHERE id = 0"},
    {"CallPathRegionOutOfRange", "UPDATE callpaths SET region = 5 WHERE id = 3"},
    {"RegionMissing", "DELETE FROM regions WHERE id = 4"},
    {"MetricMissing", "DELETE FROM metrics WHERE id = 3"},
    {"MetricIdGap", "UPDATE metrics SET id = 20 WHERE id = 8"},
    {"LocationMissing", "DELETE FROM locations WHERE id = 2"},
    // parents after children and cycles
    {"MetricParentAfterChild", "UPDATE metrics SET parent = 5 WHERE id = 4"},
    {"MetricOwnParent", "UPDATE metrics SET parent = 1 WHERE id = 1"},
    {"CallPathCycle", "UPDATE callpaths SET parent = 2 WHERE id = 1"},
    {"SystemNodeCycle", "UPDATE system_nodes SET parent = 1 WHERE id = 0"},
    {"ParentIsNoId", "UPDATE metrics SET parent = 4294967295 WHERE id = 2"},
    // blobs
    {"BlobTooShort", "UPDATE severities SET vals = zeroblob(16) WHERE rowid = 1"},
    {"BlobNotMultipleOf8", "UPDATE severities SET vals = zeroblob(25)"},
    {"BlobEmpty", "UPDATE severities SET vals = x'' WHERE rowid = 1"},
    {"BlobIsText", "UPDATE severities SET vals = 'text' WHERE rowid = 1"},
    {"ValueNaN", "UPDATE severities SET vals = x'000000000000f87f000000000000f03f000000000000f03f' WHERE rowid = 1"},
    {"ValueInfinite",
     "UPDATE severities SET vals = x'000000000000f07f000000000000f03f000000000000f03f' WHERE rowid = 1"},
    {"DuplicateSeverityRow", unconstrained("severities") + "INSERT INTO severities SELECT * FROM severities LIMIT 1"},
    // wrong types, units and names
    {"UnknownUnit", "PRAGMA ignore_check_constraints = ON; UPDATE metrics SET unit = 'minutes' WHERE id = 0"},
    {"DuplicateMetricName", unconstrained("metrics") + "UPDATE metrics SET unique_name = 'time' WHERE id = 1"},
    {"NameIsBlob", "UPDATE metrics SET unique_name = x'3432' WHERE id = 1"},
    {"NegativeLine", "UPDATE regions SET begin_line = -3 WHERE id = 0"},
    {"LineIsText", "UPDATE regions SET end_line = 'ten' WHERE id = 0"},
    {"RankTooLarge", "UPDATE locations SET rank = 4294967296 WHERE id = 0"},
    {"TimeIsNaN", "UPDATE instances SET data = substr(data, 1, 16) || x'000000000000f87f' || substr(data, 25)"},
    {"TimeIsInfinite", "UPDATE critical_path SET data = substr(data, 1, 16) || x'000000000000f07f' || substr(data, 25)"},
    {"MetaValueIsBlob", "UPDATE meta SET value = x'33' WHERE key = 'trace'"},
    {"CallSiteFileNull", unconstrained("callpaths") + "UPDATE callpaths SET call_site_file = NULL WHERE id = 1"},
    // schema and markers
    {"TableMissing", "DROP TABLE instances"},
    {"ColumnMissing", "ALTER TABLE metrics DROP COLUMN description"},
    {"MetaEmpty", "DELETE FROM meta"},
    {"OtherVersion", "UPDATE meta SET value = '1.0' WHERE key = 'format_version'"},
    {"CompleteNotOne", "UPDATE meta SET value = 'yes' WHERE key = 'complete'"},
    {"TableIsView", "DROP TABLE regions; CREATE VIEW regions AS SELECT * FROM callpaths"},
};

class ReportCorruption : public ::testing::TestWithParam<Edit> {};
// Lower case, so that `ctest -R report` (case-sensitive) selects these tests.
using report_corruption = ReportCorruption;

TEST_P(report_corruption, IsRejected) {
  TempDir dir("waitscope-report-corrupt");
  const std::string path = (dir / "run.wsr").string();
  writeReport(sampleReport(), path);
  execSql(path, GetParam().sql);
  EXPECT_EQ(readOrReject(path), Outcome::Rejected) << GetParam().sql;
}

INSTANTIATE_TEST_SUITE_P(SqlEdits, report_corruption, ::testing::ValuesIn(kEdits),
                         [](const auto& test) { return std::string(test.param.name); });

// The file of a writer killed before COMMIT: everything but the marker.
TEST(report_corruption, KilledWriterLeavesNoCompleteReport) {
  TempDir dir("waitscope-report-corrupt");
  const std::string path = (dir / "run.wsr").string();
  writeReport(sampleReport(), path);
  execSql(path, "DELETE FROM meta WHERE key = 'complete'; DELETE FROM critical_path;");
  EXPECT_EQ(readOrReject(path), Outcome::Rejected);
}

}  // namespace
