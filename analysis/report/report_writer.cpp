// Writes a report as one SQLite file (schema: docs/report-format.md). The file
// is built under a temporary name in the same directory and renamed over the
// target only after COMMIT, so a reader never sees a half-written report under
// the real name; `complete` = "1" is written after every other row is in the
// file, so even a copied temporary file of a killed writer reads as incomplete.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "analysis/report/report_schema.h"
#include "analysis/report/sqlite_handle.h"

namespace waitscope::report {
namespace {

using detail::Database;
using detail::kFormatVersion;
using detail::kSchema;
using detail::SqliteFailure;
using detail::Statement;

const char* unitName(MetricUnit unit) {
  switch (unit) {
    case MetricUnit::Seconds: return "sec";
    case MetricUnit::Occurrences: return "occ";
    case MetricUnit::Bytes: return "bytes";
  }
  return "sec";
}

// SQLite takes a leading "file:" as a URI when URIs are enabled at build time.
std::string plainFileName(const std::string& path) { return path.rfind("file:", 0) == 0 ? "./" + path : path; }

// Binds an index, or NULL for kNoId (no parent, no cause).
void bindId(Statement& s, int column, std::uint32_t id) {
  if (id == kNoId)
    s.bindNull(column);
  else
    s.bind(column, std::int64_t{id});
}

// Severities as little-endian doubles, whatever the host's byte order.
const void* littleEndian(const std::vector<double>& values, std::vector<std::uint64_t>& buffer) {
  if constexpr (std::endian::native == std::endian::little) {
    return values.data();
  } else {
    buffer.resize(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      std::uint64_t bits = std::bit_cast<std::uint64_t>(values[i]), swapped = 0;
      for (int b = 0; b < 8; ++b, bits >>= 8) swapped = swapped << 8 | (bits & 0xff);
      buffer[i] = swapped;
    }
    return buffer.data();
  }
}

bool hasLocationKinds(const Report& report) { return report.processCount() != report.locations.size(); }

void writeMeta(const Database& db, const Report& report) {
  Statement s(db, "INSERT INTO meta(key, value) VALUES (?1, ?2)");
  const std::string_view version = hasLocationKinds(report) ? detail::kLocationKindsFormatVersion : kFormatVersion;
  s.bind(1, std::string_view("format_version")).bind(2, version).insert();
  for (const auto& [key, value] : report.meta)
    if (key != "format_version" && key != "complete") s.bind(1, key).bind(2, value).insert();
}

void writeTrees(const Database& db, const Report& report) {
  Statement metric(db,
                   "INSERT INTO metrics(id, unique_name, display_name, description, unit, parent) "
                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  for (std::uint32_t i = 0; i < report.metrics.size(); ++i) {
    const Metric& m = report.metrics[i];
    metric.bind(1, std::int64_t{i}).bind(2, m.uniqueName).bind(3, m.displayName).bind(4, m.description);
    metric.bind(5, std::string_view(unitName(m.unit)));
    bindId(metric, 6, m.parent);
    metric.insert();
  }
  Statement region(db,
                   "INSERT INTO regions(id, name, file, begin_line, end_line, paradigm) "
                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  for (std::uint32_t i = 0; i < report.regions.size(); ++i) {
    const Region& r = report.regions[i];
    region.bind(1, std::int64_t{i}).bind(2, r.name).bind(3, r.file).bind(4, std::int64_t{r.beginLine});
    region.bind(5, std::int64_t{r.endLine}).bind(6, r.paradigm).insert();
  }
  Statement callPath(db,
                     "INSERT INTO callpaths(id, parent, region, call_site_file, call_site_line) "
                     "VALUES (?1, ?2, ?3, ?4, ?5)");
  for (std::uint32_t i = 0; i < report.callPaths.size(); ++i) {
    const CallPath& c = report.callPaths[i];
    callPath.bind(1, std::int64_t{i});
    bindId(callPath, 2, c.parent);
    callPath.bind(3, std::int64_t{c.region}).bind(4, c.callSiteFile).bind(5, std::int64_t{c.callSiteLine}).insert();
  }
  Statement node(db, "INSERT INTO system_nodes(id, name, class, parent) VALUES (?1, ?2, ?3, ?4)");
  for (std::uint32_t i = 0; i < report.systemNodes.size(); ++i) {
    const SystemNode& n = report.systemNodes[i];
    node.bind(1, std::int64_t{i}).bind(2, n.name).bind(3, n.className);
    bindId(node, 4, n.parent);
    node.insert();
  }
  Statement location(db, "INSERT INTO locations(id, name, rank, system_node) VALUES (?1, ?2, ?3, ?4)");
  for (std::uint32_t i = 0; i < report.locations.size(); ++i) {
    const Location& l = report.locations[i];
    location.bind(1, std::int64_t{i}).bind(2, l.name).bind(3, std::int64_t{l.rank});
    bindId(location, 4, l.systemNode);
    location.insert();
  }
  if (!hasLocationKinds(report)) return;
  db.exec(detail::kLocationKindsSchema);
  Statement kind(db, "INSERT INTO location_kinds(location, kind) VALUES (?1, ?2)");
  for (std::uint32_t i = 0; i < report.locations.size(); ++i) {
    const LocationKind k = report.locations[i].kind;
    if (k == LocationKind::Process) continue;
    kind.bind(1, std::int64_t{i});
    kind.bind(2, std::string_view(k == LocationKind::Thread        ? "thread"
                                  : k == LocationKind::Accelerator ? "accelerator"
                                                                   : "metric"));
    kind.insert();
  }
}

void put32(unsigned char* at, std::uint32_t v) {
  for (int b = 0; b < 4; ++b, v >>= 8) at[b] = static_cast<unsigned char>(v & 0xff);
}
void put64(unsigned char* at, double value) {
  std::uint64_t v = std::bit_cast<std::uint64_t>(value);
  for (int b = 0; b < 8; ++b, v >>= 8) at[b] = static_cast<unsigned char>(v & 0xff);
}

// Writes `records` as packed rows of up to kRecordsPerChunk records each.
template <typename Record, typename Pack>
void writeChunks(const Database& db, const char* sql, const std::vector<Record>& records, std::size_t recordBytes,
                 std::vector<unsigned char>& chunk, Pack pack) {
  Statement insert(db, sql);
  for (std::size_t first = 0, n = 0; first < records.size(); first += detail::kRecordsPerChunk, ++n) {
    const std::size_t count = std::min(detail::kRecordsPerChunk, records.size() - first);
    chunk.resize(count * recordBytes);
    for (std::size_t i = 0; i < count; ++i) pack(chunk.data() + i * recordBytes, records[first + i]);
    insert.bind(1, static_cast<std::int64_t>(n)).bindBlob(2, chunk.data(), chunk.size()).insert();
  }
}

// A problem with an instance that came after the checks of the whole report.
struct InconsistentInstance {
  std::string problem;
};

// Packs instances into rows of up to kRecordsPerChunk records, as they come, so
// that they need not all be in memory at once.
class InstanceRows {
 public:
  explicit InstanceRows(const Database& db) : insert_(db, "INSERT INTO instances(chunk, data) VALUES (?1, ?2)") {}
  void add(const Instance& w) {
    if (inChunk_ * detail::kInstanceBytes == chunk_.size()) [[unlikely]]  // a small report keeps a small buffer
      chunk_.resize(std::min(detail::kRecordsPerChunk, std::max<std::size_t>(256, 2 * inChunk_)) * detail::kInstanceBytes);
    unsigned char* at = chunk_.data() + inChunk_ * detail::kInstanceBytes;
    put32(at, w.metric);
    put32(at + 4, w.location);
    put32(at + 8, w.callPath);
    put32(at + 12, w.cause);
    put64(at + 16, w.start);
    put64(at + 24, w.end);
    if (++inChunk_ == detail::kRecordsPerChunk) flush();
  }
  void flush() {
    if (inChunk_ == 0) return;
    insert_.bind(1, static_cast<std::int64_t>(row_++)).bindBlob(2, chunk_.data(), inChunk_ * detail::kInstanceBytes);
    insert_.insert();
    inChunk_ = 0;
  }

 private:
  Statement insert_;
  std::vector<unsigned char> chunk_;
  std::size_t inChunk_ = 0;
  std::size_t row_ = 0;
};

void writeValues(const Database& db, const Report& report, const InstanceSource* more) {
  Statement severity(db, "INSERT INTO severities(metric, callpath, vals) VALUES (?1, ?2, ?3)");
  std::vector<std::uint64_t> buffer;
  for (const SeverityRow& row : report.severities) {
    severity.bind(1, std::int64_t{row.metric}).bind(2, std::int64_t{row.callPath});
    severity.bindBlob(3, littleEndian(row.values, buffer), row.values.size() * sizeof(double)).insert();
  }
  {
    InstanceRows rows(db);
    for (const Instance& w : report.instances) rows.add(w);
    std::size_t index = report.instances.size();
    std::vector<Instance> run;
    while (more && (*more)(run))
      for (const Instance& w : run) {
        if (std::string problem = instanceProblem(report, w, index++); !problem.empty())
          throw InconsistentInstance{std::move(problem)};
        rows.add(w);
      }
    rows.flush();
  }
  std::vector<unsigned char> chunk;
  writeChunks(db, "INSERT INTO critical_path(chunk, data) VALUES (?1, ?2)", report.criticalPath,
              detail::kSegmentBytes, chunk, [](unsigned char* at, const PathSegment& p) {
                put32(at, p.location);
                put32(at + 4, p.callPath);
                put64(at + 8, p.start);
                put64(at + 16, p.end);
              });
}

void writeDatabase(const std::string& file, const Report& report, const InstanceSource* more) {
  Database db(plainFileName(file), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  // No rollback journal: a failed write is thrown away as a whole, never rolled back. 16 KiB pages:
  // the instances and the critical path go in blobs of up to 65536 records (2 MiB), which 4 KiB
  // pages split into chains of overflow pages that SQLite's page cache spills one by one (a
  // third of the time of writing a report of 1M instances); larger pages gain little more and
  // cost small reports a page per table.
  db.exec("PRAGMA page_size = 16384; PRAGMA journal_mode = OFF; PRAGMA synchronous = NORMAL;");
  db.exec("BEGIN");
  db.exec(kSchema);
  writeMeta(db, report);
  writeTrees(db, report);
  writeValues(db, report, more);
  db.exec("COMMIT");
  // The mark gets a transaction of its own: without a journal, a commit writes
  // its pages one by one, and pages spilled before it may be stale until it
  // ends, so a writer killed during one commit may have written the mark but
  // not every row. Here every row is in the file before the mark is.
  db.exec("INSERT INTO meta(key, value) VALUES ('complete', '1')");
  db.close();
}

void writeReportWith(const Report& report, const std::string& path, const InstanceSource* more) {
  if (const std::string problem = firstProblem(report); !problem.empty())
    throw ReportError(path + ": cannot write the report: it is inconsistent (" + problem + ")");
  // The pid keeps concurrent writers apart; the counter, threads of one process.
  static std::atomic<unsigned> serial{0};
  const std::string temp = path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(serial++);
  std::error_code ignored;
  std::filesystem::remove(temp, ignored);  // left by a killed process that had our pid
  // Created here rather than by SQLite, whose failed open reports the read-only retry's
  // "No such file or directory" where the directory is read-only or not ours.
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) {
    const int error = errno;
    const std::filesystem::path dir = std::filesystem::absolute(path, ignored).parent_path();
    throw ReportError(path + ": cannot write the report in " + dir.string() + ": " + std::strerror(error));
  }
  ::close(fd);
  try {
    writeDatabase(temp, report, more);
  } catch (const InconsistentInstance& e) {
    std::filesystem::remove(temp, ignored);
    throw ReportError(path + ": cannot write the report: it is inconsistent (" + e.problem + ")");
  } catch (const SqliteFailure& e) {
    std::filesystem::remove(temp, ignored);
    throw ReportError(path + ": cannot write the report: " + e.what());
  } catch (...) {
    std::filesystem::remove(temp, ignored);
    throw;
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::filesystem::remove(temp, ignored);
    throw ReportError(path + ": cannot write the report: " + std::strerror(error));
  }
}

}  // namespace

void writeReport(const Report& report, const std::string& path) { writeReportWith(report, path, nullptr); }

void writeReport(const Report& report, const std::string& path, const InstanceSource& more) {
  writeReportWith(report, path, &more);
}

}  // namespace waitscope::report
