// Reads a report file and checks everything before handing it out: the file may
// be anything (a trace, a half-copied report, a file edited by hand), and every
// consumer indexes the arrays of Report without checking again. Each failure is
// one ReportError line naming the file and saying what to do.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <set>

#include "analysis/report/file_uri.h"
#include "analysis/report/input_file.h"
#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "analysis/report/report_schema.h"
#include "analysis/report/sqlite_handle.h"

namespace waitscope::report {
namespace {

using detail::Database;
using detail::SqliteFailure;
using detail::Statement;

// The file is SQLite but not what we wrote: a broken invariant or a wrong type.
struct Damaged {
  std::string what;
};
// The file is SQLite but not a report of ours (another schema).
struct Foreign {
  std::string what;
};

// File contents quoted in a message: one short line.
std::string printable(const std::string& s) {
  std::string out;
  for (const char c : s.substr(0, 40)) out += (c >= 0x20 && c != 0x7f) ? c : '?';
  return s.size() > 40 ? out + "..." : out;
}

// SQLite's messages may quote names, or garbage, from the file's schema.
std::string oneLine(std::string s) {
  for (char& c : s)
    if ((c >= 0 && c < 0x20) || c == 0x7f) c = '?';
  return s;
}

// The file as an SQLite URI with immutable=1: SQLite then opens nothing but the
// file itself (no locks, no hot-journal or WAL files beside it, where a FIFO
// named REPORT-journal would make it wait forever).
std::string immutableUri(const std::string& path) {
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(path, error);
  return fileUri(error ? path : absolute.string()) + "?immutable=1";
}

// writeReport builds a report as PATH.tmp-PID-N and renames it when it is
// whole; a file still under such a name was left by a writer that was stopped
// (killed, out of space) before the rename, whatever it holds.
bool isWritersTemporaryFile(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  const std::size_t tmp = name.rfind(".tmp-");
  if (tmp == std::string::npos) return false;
  const std::string suffix = name.substr(tmp + 5);  // PID-N
  const std::size_t dash = suffix.find('-');
  const auto digits = [](const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  return dash != std::string::npos && digits(suffix.substr(0, dash)) && digits(suffix.substr(dash + 1));
}

// Typed access to one row; every accessor checks the stored type and range.
class Row {
 public:
  Row(const Statement& s, const char* table, std::size_t row) : s_(s), table_(table), row_(row) {}

  std::string text(int column, const char* name) const {
    if (s_.type(column) != SQLITE_TEXT) fail(name, "is not text");
    return s_.text(column);
  }
  std::uint32_t number(int column, const char* name) const {
    if (s_.type(column) != SQLITE_INTEGER) fail(name, "is not an integer");
    const std::int64_t v = s_.integer(column);
    if (v < 0 || v > std::int64_t{0xffffffff}) fail(name, "is out of range");
    return static_cast<std::uint32_t>(v);
  }
  // An index into one of the arrays; NULL (where allowed) is kNoId.
  std::uint32_t id(int column, const char* name, bool nullable = false) const {
    if (nullable && s_.type(column) == SQLITE_NULL) return kNoId;
    const std::uint32_t v = number(column, name);
    if (v == kNoId) fail(name, "is out of range");
    return v;
  }
  double time(int column, const char* name) const {
    if (s_.type(column) != SQLITE_FLOAT && s_.type(column) != SQLITE_INTEGER) fail(name, "is not a number");
    return s_.real(column);
  }
  [[noreturn]] void fail(const char* name, const char* problem) const {
    throw Damaged{std::string(table_) + " row " + std::to_string(row_) + ": " + name + " " + problem};
  }

 private:
  const Statement& s_;
  const char* table_;
  std::size_t row_;
};

// Reads `sql` row by row; the first column must be the id 0, 1, 2, ...
template <typename Read>
void readTable(const Database& db, const char* table, const char* sql, bool hasIds, Read read) {
  Statement s(db, sql);
  for (std::size_t i = 0; s.step(); ++i) {
    const Row row(s, table, i);
    if (i >= kNoId) row.fail("id", "is out of range");
    if (hasIds && (s.type(0) != SQLITE_INTEGER || s.integer(0) != static_cast<std::int64_t>(i)))
      row.fail("id", "does not follow the previous one");
    read(row, s);
  }
}

MetricUnit unitOf(const Row& row, const std::string& name) {
  if (name == "sec") return MetricUnit::Seconds;
  if (name == "occ") return MetricUnit::Occurrences;
  if (name == "bytes") return MetricUnit::Bytes;
  row.fail("unit", "is not sec, occ or bytes");
}

std::vector<double> decodeValues(const Statement& s, const Row& row, std::size_t locations) {
  if (s.type(2) != SQLITE_BLOB) row.fail("vals", "is not a blob");
  const void* data = s.blob(2);
  const std::size_t bytes = s.bytes(2);
  if (bytes != locations * sizeof(double)) row.fail("vals", "does not hold one value per location");
  std::vector<double> values(locations);
  if (bytes != 0) std::memcpy(values.data(), data, bytes);
  if constexpr (std::endian::native != std::endian::little) {
    for (double& v : values) {
      std::uint64_t bits = std::bit_cast<std::uint64_t>(v), swapped = 0;
      for (int b = 0; b < 8; ++b, bits >>= 8) swapped = swapped << 8 | (bits & 0xff);
      v = std::bit_cast<double>(swapped);
    }
  }
  return values;
}

void readMeta(const Database& db, Report& report) {
  bool complete = false;
  readTable(db, "meta", "SELECT key, value FROM meta ORDER BY rowid", false, [&](const Row& row, const Statement&) {
    std::string key = row.text(0, "key"), value = row.text(1, "value");
    if (key == "complete")
      complete = value == "1";
    else
      report.meta.emplace_back(std::move(key), std::move(value));
  });
  const std::string version = report.metaValue("format_version");
  if (version.empty()) throw Foreign{"no format_version in table meta"};
  if (version != detail::kFormatVersion && version != detail::kLocationKindsFormatVersion)
    throw ReportError("report format version " + printable(version) +
                      " is not supported (this Waitscope reads versions " + detail::kFormatVersion + " and " +
                      detail::kLocationKindsFormatVersion + "); open it with the Waitscope that wrote it, or analyze the trace again");
  if (!complete) throw ReportError("report is incomplete (the analyzer was interrupted?); run waitscope-analyze again");
}

void readTrees(const Database& db, Report& report) {
  readTable(db, "metrics", "SELECT id, unique_name, display_name, description, unit, parent FROM metrics ORDER BY id",
            true, [&](const Row& row, const Statement&) {
              Metric& m = report.metrics.emplace_back();
              m.uniqueName = row.text(1, "unique_name");
              m.displayName = row.text(2, "display_name");
              m.description = row.text(3, "description");
              m.unit = unitOf(row, row.text(4, "unit"));
              m.parent = row.id(5, "parent", true);
            });
  readTable(db, "regions", "SELECT id, name, file, begin_line, end_line, paradigm FROM regions ORDER BY id", true,
            [&](const Row& row, const Statement&) {
              Region& r = report.regions.emplace_back();
              r.name = row.text(1, "name");
              r.file = row.text(2, "file");
              r.beginLine = row.number(3, "begin_line");
              r.endLine = row.number(4, "end_line");
              r.paradigm = row.text(5, "paradigm");
            });
  readTable(db, "callpaths",
            "SELECT id, parent, region, call_site_file, call_site_line FROM callpaths ORDER BY id", true,
            [&](const Row& row, const Statement&) {
              CallPath& c = report.callPaths.emplace_back();
              c.parent = row.id(1, "parent", true);
              c.region = row.id(2, "region");
              c.callSiteFile = row.text(3, "call_site_file");
              c.callSiteLine = row.number(4, "call_site_line");
            });
  readTable(db, "system_nodes", "SELECT id, name, class, parent FROM system_nodes ORDER BY id", true,
            [&](const Row& row, const Statement&) {
              SystemNode& n = report.systemNodes.emplace_back();
              n.name = row.text(1, "name");
              n.className = row.text(2, "class");
              n.parent = row.id(3, "parent", true);
            });
  readTable(db, "locations", "SELECT id, name, rank, system_node FROM locations ORDER BY id", true,
            [&](const Row& row, const Statement&) {
              Location& l = report.locations.emplace_back();
              l.name = row.text(1, "name");
              l.rank = row.number(2, "rank");
              l.systemNode = row.id(3, "system_node", true);
            });
  if (report.metaValue("format_version") != detail::kLocationKindsFormatVersion) return;
  readTable(db, "location_kinds", "SELECT location, kind FROM location_kinds ORDER BY location", false,
            [&](const Row& row, const Statement&) {
              const std::uint32_t location = row.id(0, "location");
              const std::string kind = row.text(1, "kind");
              if (location >= report.locations.size()) row.fail("location", "names no location");
              report.locations[location].kind = kind == "thread"        ? LocationKind::Thread
                                                : kind == "accelerator" ? LocationKind::Accelerator
                                                                        : LocationKind::Metric;
            });
}

std::uint32_t get32(const unsigned char* at) {
  std::uint32_t v = 0;
  for (int b = 3; b >= 0; --b) v = v << 8 | at[b];
  return v;
}
double get64(const unsigned char* at) {
  std::uint64_t v = 0;
  for (int b = 7; b >= 0; --b) v = v << 8 | at[b];
  return std::bit_cast<double>(v);
}

// Reads the packed records of `table` (report_schema.h), chunk by chunk in order;
// the ids and times are checked with the rest of the report (firstProblem).
template <typename Unpack>
void readChunks(const Database& db, const char* table, std::size_t recordBytes, Unpack unpack) {
  const std::string sql = std::string("SELECT chunk, data FROM ") + table + " ORDER BY chunk";
  readTable(db, table, sql.c_str(), true, [&](const Row& row, const Statement& s) {
    if (s.type(1) != SQLITE_BLOB) row.fail("data", "is not a blob");
    const std::size_t bytes = s.bytes(1);
    if (bytes == 0 || bytes % recordBytes != 0 || bytes > recordBytes * detail::kRecordsPerChunk)
      row.fail("data", "does not hold whole records");
    const auto* data = static_cast<const unsigned char*>(s.blob(1));
    for (std::size_t at = 0; at < bytes; at += recordBytes) unpack(data + at);
  });
}

void readValues(const Database& db, Report& report) {
  const std::size_t locations = report.locations.size();
  readTable(db, "severities", "SELECT metric, callpath, vals FROM severities ORDER BY rowid", false,
            [&](const Row& row, const Statement& s) {
              SeverityRow& r = report.severities.emplace_back();
              r.metric = row.id(0, "metric");
              r.callPath = row.id(1, "callpath");
              r.values = decodeValues(s, row, locations);
            });
  readChunks(db, "instances", detail::kInstanceBytes, [&](const unsigned char* at) {
    report.instances.push_back({get32(at), get32(at + 4), get32(at + 8), get64(at + 16), get64(at + 24), get32(at + 12)});
  });
  readChunks(db, "critical_path", detail::kSegmentBytes, [&](const unsigned char* at) {
    report.criticalPath.push_back({get32(at), get32(at + 4), get64(at + 8), get64(at + 16)});
  });
}

Report readDatabase(const std::string& path) {
  Database db(immutableUri(path), SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
  // The file is untrusted: no functions or virtual tables reached through its schema.
  sqlite3_db_config(db.get(), SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, static_cast<int*>(nullptr));
  sqlite3_db_config(db.get(), SQLITE_DBCONFIG_DEFENSIVE, 1, static_cast<int*>(nullptr));
  std::set<std::string> tables;
  {
    Statement s(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'");
    while (s.step())
      if (s.type(0) == SQLITE_TEXT) tables.insert(s.text(0));
  }
  if (!tables.contains("meta")) throw Foreign{"no table meta"};
  Report report;
  readMeta(db, report);
  for (const char* table : detail::kTables)
    if (!tables.contains(table)) throw Foreign{std::string("no table ") + table};
  if (report.metaValue("format_version") == detail::kLocationKindsFormatVersion && !tables.contains("location_kinds"))
    throw Foreign{"no table location_kinds"};
  readTrees(db, report);
  readValues(db, report);
  if (const std::string problem = firstProblem(report); !problem.empty()) throw Damaged{problem};
  return report;
}

}  // namespace

Report readReport(const std::string& path) {
  namespace fs = std::filesystem;
  // SQLite would wait forever on a FIFO and read a device without end.
  if (const std::string problem = regularFileProblem(path); !problem.empty())
    throw ReportError(path + ": cannot open: " + problem);
  const std::string again = "; run waitscope-analyze again";
  if (isWritersTemporaryFile(path))
    throw ReportError(path + ": report is incomplete (a temporary file its writer never renamed: it was stopped " +
                      "while writing)" + again);
  std::error_code error;
  if (fs::file_size(path, error) == 0 && !error) throw ReportError(path + ": not a Waitscope report (the file is empty)");
  try {
    return readDatabase(path);
  } catch (const ReportError& e) {
    throw ReportError(path + ": " + oneLine(e.what()));
  } catch (const Foreign& e) {
    throw ReportError(path + ": not a Waitscope report (" + e.what + ")");
  } catch (const Damaged& e) {
    throw ReportError(path + ": damaged report (" + e.what + ")" + again);
  } catch (const SqliteFailure& e) {
    const std::string what = oneLine(e.what());
    switch (e.code()) {
      case SQLITE_NOTADB:
        if (fs::path(path).extension() == ".otf2")
          throw ReportError(path + ": not a Waitscope report (an OTF2 trace); analyze it with waitscope-analyze first");
        throw ReportError(path + ": not a Waitscope report (not an SQLite database)");
      case SQLITE_CORRUPT: throw ReportError(path + ": damaged report (" + what + ")" + again);
      case SQLITE_CANTOPEN:
      case SQLITE_PERM:
      case SQLITE_AUTH: throw ReportError(path + ": cannot open: " + what);
      case SQLITE_ERROR: throw ReportError(path + ": not a Waitscope report (" + what + ")");
      default: throw ReportError(path + ": cannot read: " + what);
    }
  }
}

}  // namespace waitscope::report
