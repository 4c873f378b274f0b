#pragma once
// Helpers for the report tests: field-by-field comparison of two reports and
// editing a written report file with SQL (to damage it on purpose).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstring>
#include <string>

#include "analysis/report/report.h"

namespace waitscope::test {

// Compares bit patterns, so -0.0 and 0.0 differ and a NaN equals itself.
inline bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

inline void expectSameReport(const report::Report& a, const report::Report& b) {
  EXPECT_EQ(a.meta, b.meta);
  ASSERT_EQ(a.metrics.size(), b.metrics.size());
  for (std::size_t i = 0; i < a.metrics.size(); ++i) {
    SCOPED_TRACE("metric " + std::to_string(i));
    EXPECT_EQ(a.metrics[i].uniqueName, b.metrics[i].uniqueName);
    EXPECT_EQ(a.metrics[i].displayName, b.metrics[i].displayName);
    EXPECT_EQ(a.metrics[i].description, b.metrics[i].description);
    EXPECT_EQ(a.metrics[i].unit, b.metrics[i].unit);
    EXPECT_EQ(a.metrics[i].parent, b.metrics[i].parent);
  }
  ASSERT_EQ(a.regions.size(), b.regions.size());
  for (std::size_t i = 0; i < a.regions.size(); ++i) {
    SCOPED_TRACE("region " + std::to_string(i));
    EXPECT_EQ(a.regions[i].name, b.regions[i].name);
    EXPECT_EQ(a.regions[i].file, b.regions[i].file);
    EXPECT_EQ(a.regions[i].beginLine, b.regions[i].beginLine);
    EXPECT_EQ(a.regions[i].endLine, b.regions[i].endLine);
    EXPECT_EQ(a.regions[i].paradigm, b.regions[i].paradigm);
  }
  ASSERT_EQ(a.callPaths.size(), b.callPaths.size());
  for (std::size_t i = 0; i < a.callPaths.size(); ++i) {
    SCOPED_TRACE("call path " + std::to_string(i));
    EXPECT_EQ(a.callPaths[i].parent, b.callPaths[i].parent);
    EXPECT_EQ(a.callPaths[i].region, b.callPaths[i].region);
    EXPECT_EQ(a.callPaths[i].callSiteFile, b.callPaths[i].callSiteFile);
    EXPECT_EQ(a.callPaths[i].callSiteLine, b.callPaths[i].callSiteLine);
  }
  ASSERT_EQ(a.systemNodes.size(), b.systemNodes.size());
  for (std::size_t i = 0; i < a.systemNodes.size(); ++i) {
    SCOPED_TRACE("system node " + std::to_string(i));
    EXPECT_EQ(a.systemNodes[i].name, b.systemNodes[i].name);
    EXPECT_EQ(a.systemNodes[i].className, b.systemNodes[i].className);
    EXPECT_EQ(a.systemNodes[i].parent, b.systemNodes[i].parent);
  }
  ASSERT_EQ(a.locations.size(), b.locations.size());
  for (std::size_t i = 0; i < a.locations.size(); ++i) {
    SCOPED_TRACE("location " + std::to_string(i));
    EXPECT_EQ(a.locations[i].name, b.locations[i].name);
    EXPECT_EQ(a.locations[i].rank, b.locations[i].rank);
    EXPECT_EQ(a.locations[i].systemNode, b.locations[i].systemNode);
  }
  ASSERT_EQ(a.severities.size(), b.severities.size());
  for (std::size_t i = 0; i < a.severities.size(); ++i) {
    SCOPED_TRACE("severity row " + std::to_string(i));
    EXPECT_EQ(a.severities[i].metric, b.severities[i].metric);
    EXPECT_EQ(a.severities[i].callPath, b.severities[i].callPath);
    ASSERT_EQ(a.severities[i].values.size(), b.severities[i].values.size());
    for (std::size_t l = 0; l < a.severities[i].values.size(); ++l)
      EXPECT_TRUE(sameBits(a.severities[i].values[l], b.severities[i].values[l]))
          << a.severities[i].values[l] << " vs " << b.severities[i].values[l];
  }
  ASSERT_EQ(a.instances.size(), b.instances.size());
  for (std::size_t i = 0; i < a.instances.size(); ++i) {
    SCOPED_TRACE("instance " + std::to_string(i));
    EXPECT_EQ(a.instances[i].metric, b.instances[i].metric);
    EXPECT_EQ(a.instances[i].location, b.instances[i].location);
    EXPECT_EQ(a.instances[i].callPath, b.instances[i].callPath);
    EXPECT_TRUE(sameBits(a.instances[i].start, b.instances[i].start));
    EXPECT_TRUE(sameBits(a.instances[i].end, b.instances[i].end));
    EXPECT_EQ(a.instances[i].cause, b.instances[i].cause);
  }
  ASSERT_EQ(a.criticalPath.size(), b.criticalPath.size());
  for (std::size_t i = 0; i < a.criticalPath.size(); ++i) {
    SCOPED_TRACE("critical-path segment " + std::to_string(i));
    EXPECT_EQ(a.criticalPath[i].location, b.criticalPath[i].location);
    EXPECT_EQ(a.criticalPath[i].callPath, b.criticalPath[i].callPath);
    EXPECT_TRUE(sameBits(a.criticalPath[i].start, b.criticalPath[i].start));
    EXPECT_TRUE(sameBits(a.criticalPath[i].end, b.criticalPath[i].end));
  }
}

// Runs SQL on a report file (read-write); fails the test if SQLite refuses.
inline void execSql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  const std::string message = error != nullptr ? error : "";
  sqlite3_free(error);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << sql << ": " << message;
}

}  // namespace waitscope::test
