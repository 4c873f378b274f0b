#pragma once
// The SQLite schema of a report file, shared by the writer (which creates it)
// and the reader (which checks for it). docs/report-format.md explains it;
// change both, and kFormatVersion, together.
namespace waitscope::report::detail {

// The version this code writes and the only one it reads.
inline constexpr const char* kFormatVersion = "1";

// Ids are 0-based indices into the arrays of Report; NULL stands for kNoId.
// Rows are read back in rowid order, which keeps the writer's order.
inline constexpr const char* kSchema = R"sql(
CREATE TABLE meta(key TEXT NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE metrics(id INTEGER PRIMARY KEY, unique_name TEXT NOT NULL UNIQUE, display_name TEXT NOT NULL,
                     description TEXT NOT NULL, unit TEXT NOT NULL CHECK (unit IN ('sec', 'occ', 'bytes')),
                     parent INTEGER);
CREATE TABLE regions(id INTEGER PRIMARY KEY, name TEXT NOT NULL, file TEXT NOT NULL, begin_line INTEGER NOT NULL,
                     end_line INTEGER NOT NULL, paradigm TEXT NOT NULL);
CREATE TABLE callpaths(id INTEGER PRIMARY KEY, parent INTEGER, region INTEGER NOT NULL, call_site_file TEXT NOT NULL,
                       call_site_line INTEGER NOT NULL);
CREATE TABLE system_nodes(id INTEGER PRIMARY KEY, name TEXT NOT NULL, class TEXT NOT NULL, parent INTEGER);
CREATE TABLE locations(id INTEGER PRIMARY KEY, name TEXT NOT NULL, rank INTEGER NOT NULL, system_node INTEGER);
CREATE TABLE severities(metric INTEGER NOT NULL, callpath INTEGER NOT NULL, vals BLOB NOT NULL,
                        UNIQUE (metric, callpath));
CREATE TABLE instances(metric INTEGER NOT NULL, location INTEGER NOT NULL, callpath INTEGER NOT NULL,
                       start REAL NOT NULL, "end" REAL NOT NULL, cause INTEGER);
CREATE TABLE critical_path(location INTEGER NOT NULL, callpath INTEGER NOT NULL, start REAL NOT NULL,
                           "end" REAL NOT NULL);
)sql";

// Built after the rows are in, which is faster than keeping them up to date.
inline constexpr const char* kIndexes = R"sql(
CREATE INDEX instances_by_location ON instances(location, start);
CREATE INDEX critical_path_by_location ON critical_path(location, start);
)sql";

inline constexpr const char* kTables[] = {"meta",      "metrics",   "regions",      "callpaths",   "system_nodes",
                                          "locations", "severities", "instances", "critical_path"};

}  // namespace waitscope::report::detail
