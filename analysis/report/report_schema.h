#pragma once
// The SQLite schema of a report file, shared by the writer (which creates it)
// and the reader (which checks for it). docs/report-format.md explains it;
// change both, and kFormatVersion, together.
#include <cstddef>

namespace waitscope::report::detail {

// The version this code writes for reports with processes only. A report with thread,
// accelerator or metric locations is version 2: version 1 plus kLocationKindsSchema. Both
// are read; a reader that knows version 1 only refuses version 2 rather than misread it.
inline constexpr const char* kFormatVersion = "1";
inline constexpr const char* kLocationKindsFormatVersion = "2";

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
CREATE TABLE instances(chunk INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE critical_path(chunk INTEGER PRIMARY KEY, data BLOB NOT NULL);
)sql";

// Version 2 only: the kind of every location that is no process (others are processes).
inline constexpr const char* kLocationKindsSchema = R"sql(
CREATE TABLE location_kinds(location INTEGER PRIMARY KEY, kind TEXT NOT NULL
                            CHECK (kind IN ('thread', 'accelerator', 'metric')));
)sql";

// Instances and critical-path segments come in millions per large trace: they are
// stored as packed little-endian records, up to kRecordsPerChunk per row, in the
// report's order (a row per record made writing them the slowest part of an analysis).
//   instance (32 bytes): u32 metric, u32 location, u32 callpath, u32 cause (0xffffffff: none),
//                        f64 start, f64 end
//   segment  (24 bytes): u32 location, u32 callpath, f64 start, f64 end
inline constexpr std::size_t kInstanceBytes = 32;
inline constexpr std::size_t kSegmentBytes = 24;
inline constexpr std::size_t kRecordsPerChunk = 65536;

inline constexpr const char* kTables[] = {"meta",      "metrics",   "regions",      "callpaths",   "system_nodes",
                                          "locations", "severities", "instances", "critical_path"};

}  // namespace waitscope::report::detail
