// `waitscope-report sarif` and the IDE side of `diagnostics`: a structural
// check of every property SARIF 2.1.0 requires (and of the property names each
// object may have), exact values for a hand-made report with causes and delay
// costs, source roots on the command line, and bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "analysis/report/cube_writer.h"
#include "analysis/report/report_io.h"
#include "tests/support/test_support.h"
#include "tests/unit/report/json_value.h"
#include "tests/unit/report/sample_report.h"

using waitscope::test::Json;
using waitscope::test::run;
using waitscope::test::TempDir;
using waitscope::test::tool;
using Kind = Json::Kind;

namespace {

// ---- A structural SARIF 2.1.0 checker: required properties, types, enums,
// ---- and the property names the schema allows on each object we write.
class SarifChecker {
 public:
  std::vector<std::string> problems;

  void log(const Json& v) {
    object(v, "sarifLog", {"$schema", "version", "runs", "inlineExternalProperties", "properties"});
    require(v, "sarifLog", "version", Kind::String);
    if (v.has("version") && v["version"].string != "2.1.0") problems.push_back("sarifLog.version is not 2.1.0");
    require(v, "sarifLog", "runs", Kind::Array);
    if (v.has("runs"))
      for (const Json& r : v["runs"].array) runObject(r);
  }

 private:
  void object(const Json& v, const std::string& what, const std::set<std::string>& allowed) {
    if (v.kind != Kind::Object) {
      problems.push_back(what + " is not an object");
      return;
    }
    for (const auto& [key, value] : v.object)
      if (!allowed.count(key)) problems.push_back(what + " has a property the schema does not allow: " + key);
    if (v.has("properties")) propertyBag(v["properties"], what + ".properties");
  }
  void require(const Json& v, const std::string& what, const std::string& key, Kind kind) {
    if (v.kind != Kind::Object || !v.has(key)) problems.push_back(what + " lacks required '" + key + "'");
    else if (v[key].kind != kind) problems.push_back(what + "." + key + " has the wrong type");
  }
  void optional(const Json& v, const std::string& what, const std::string& key, Kind kind) {
    if (v.kind == Kind::Object && v.has(key) && v[key].kind != kind) problems.push_back(what + "." + key + " has the wrong type");
  }
  void propertyBag(const Json& v, const std::string& what) {
    if (v.kind != Kind::Object) problems.push_back(what + " is not an object");
    if (v.kind == Kind::Object && v.has("tags")) {
      std::set<std::string> tags;
      for (const Json& t : v["tags"].array)
        if (t.kind != Kind::String || !tags.insert(t.string).second) problems.push_back(what + ".tags: not unique strings");
    }
  }
  void message(const Json& v, const std::string& what, bool multiformat) {
    object(v, what, multiformat ? std::set<std::string>{"text", "markdown", "properties"}
                                : std::set<std::string>{"text", "markdown", "id", "arguments", "properties"});
    if (multiformat || !v.has("id")) require(v, what, "text", Kind::String);
  }
  void level(const Json& v, const std::string& what) {
    static const std::set<std::string> kLevels = {"none", "note", "warning", "error"};
    if (v.kind != Kind::String || !kLevels.count(v.string)) problems.push_back(what + " is not a SARIF level");
  }
  void uri(const Json& v, const std::string& what) {
    if (v.kind != Kind::String) return problems.push_back(what + " is not a string");
    // An RFC 3986 URI reference: no spaces or controls, '%' followed by two hex digits.
    const std::string& s = v.string;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const auto c = static_cast<unsigned char>(s[i]);
      if (c <= 0x20 || c >= 0x7f || c == '"' || c == '<' || c == '>' || c == '\\' || c == '{' || c == '}')
        return problems.push_back(what + " is not a URI reference: " + s);
      if (c == '%' && (i + 2 >= s.size() || !std::isxdigit(static_cast<unsigned char>(s[i + 1])) ||
                       !std::isxdigit(static_cast<unsigned char>(s[i + 2]))))
        return problems.push_back(what + " has a bad percent escape: " + s);
    }
  }
  void runObject(const Json& r) {
    object(r, "run", {"tool", "results", "properties", "invocations", "artifacts", "originalUriBaseIds"});
    require(r, "run", "tool", Kind::Object);
    if (!r.has("tool")) return;
    object(r["tool"], "tool", {"driver", "extensions", "properties"});
    require(r["tool"], "tool", "driver", Kind::Object);
    if (!r["tool"].has("driver")) return;
    const Json& driver = r["tool"]["driver"];
    object(driver, "toolComponent", {"name", "version", "semanticVersion", "informationUri", "rules", "properties"});
    require(driver, "toolComponent", "name", Kind::String);
    optional(driver, "toolComponent", "version", Kind::String);
    optional(driver, "toolComponent", "rules", Kind::Array);
    std::vector<std::string> ruleIds;
    if (driver.has("rules"))
      for (const Json& rule : driver["rules"].array) {
        object(rule, "reportingDescriptor",
               {"id", "name", "shortDescription", "fullDescription", "help", "defaultConfiguration", "properties"});
        require(rule, "reportingDescriptor", "id", Kind::String);
        for (const char* m : {"shortDescription", "fullDescription", "help"})
          if (rule.has(m)) message(rule[m], std::string("reportingDescriptor.") + m, true);
        if (rule.has("defaultConfiguration")) {
          object(rule["defaultConfiguration"], "reportingConfiguration", {"level", "enabled", "rank", "properties"});
          if (rule["defaultConfiguration"].has("level")) level(rule["defaultConfiguration"]["level"], "defaultConfiguration.level");
        }
        ruleIds.push_back(rule.has("id") ? rule["id"].string : "");
      }
    if (std::set<std::string>(ruleIds.begin(), ruleIds.end()).size() != ruleIds.size())
      problems.push_back("rule ids are not unique");
    optional(r, "run", "results", Kind::Array);
    if (!r.has("results")) return;
    for (const Json& result : r["results"].array) {
      object(result, "result",
             {"ruleId", "ruleIndex", "level", "message", "locations", "partialFingerprints", "properties"});
      require(result, "result", "message", Kind::Object);
      if (result.has("message")) message(result["message"], "result.message", false);
      optional(result, "result", "ruleId", Kind::String);
      if (result.has("level")) level(result["level"], "result.level");
      if (result.has("ruleIndex")) {
        const double i = result["ruleIndex"].number;
        if (result["ruleIndex"].kind != Kind::Number || i < -1 || i != static_cast<double>(static_cast<long>(i)) ||
            i >= static_cast<double>(ruleIds.size()))
          problems.push_back("result.ruleIndex out of range");
        else if (i >= 0 && result.has("ruleId") && ruleIds[static_cast<std::size_t>(i)] != result["ruleId"].string)
          problems.push_back("result.ruleIndex names another rule than ruleId");
      }
      if (result.has("partialFingerprints"))
        for (const auto& [key, value] : result["partialFingerprints"].object)
          if (value.kind != Kind::String) problems.push_back("partialFingerprints." + key + " is not a string");
      optional(result, "result", "locations", Kind::Array);
      if (result.has("locations"))
        for (const Json& location : result["locations"].array) locationObject(location);
    }
  }
  void locationObject(const Json& l) {
    object(l, "location", {"id", "physicalLocation", "logicalLocations", "message", "annotations", "relationships", "properties"});
    if (l.has("physicalLocation")) {
      const Json& p = l["physicalLocation"];
      object(p, "physicalLocation", {"artifactLocation", "region", "address", "contextRegion", "properties"});
      if (!p.has("artifactLocation") && !p.has("address"))
        problems.push_back("physicalLocation needs artifactLocation or address");
      if (p.has("artifactLocation")) {
        object(p["artifactLocation"], "artifactLocation", {"uri", "uriBaseId", "index", "description", "properties"});
        if (p["artifactLocation"].has("uri")) uri(p["artifactLocation"]["uri"], "artifactLocation.uri");
      }
      if (p.has("region")) {
        object(p["region"], "region", {"startLine", "startColumn", "endLine", "endColumn", "properties"});
        if (p["region"].has("startLine") && p["region"]["startLine"].number < 1) problems.push_back("region.startLine < 1");
      }
    }
    if (l.has("logicalLocations"))
      for (const Json& logical : l["logicalLocations"].array) {
        object(logical, "logicalLocation",
               {"name", "fullyQualifiedName", "decoratedName", "kind", "index", "parentIndex", "properties"});
        for (const char* key : {"name", "fullyQualifiedName", "kind"}) optional(logical, "logicalLocation", key, Kind::String);
      }
  }
};

// The sample report with delay costs, so causing call paths can be checked:
// delay_p2p on main/foo (rank 0: 0.5) and delay_rma on main/compute,phase (rank 2: 0.75).
waitscope::report::Report reportWithDelays() {
  using namespace waitscope::report;
  Report r = waitscope::test::sampleReport();
  r.metrics.push_back({"delay", "Delay Costs", "", MetricUnit::Seconds, kNoId});
  r.metrics.push_back({"delay_p2p", "Point-to-point", "", MetricUnit::Seconds, 9});
  r.metrics.push_back({"delay_rma", "RMA", "", MetricUnit::Seconds, 9});
  r.severities.push_back({10, 1, {0.5, 0.0, 0.25}});
  r.severities.push_back({10, 4, {0.0, 0.0, 0.125}});
  r.severities.push_back({11, 4, {0.0, 0.0, 0.75}});
  r.severities.push_back({11, 1, {0.25, 0.0, 0.0}});
  r.callPaths[2].callSiteFile = "/build/run 1/foo.c";  // absolute, with a space
  return r;
}

class sarif : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (dir_ / "run.wsr").string();
    waitscope::report::writeReport(reportWithDelays(), path_);
  }
  Json sarifOf(const std::string& options = "") {
    const std::string out = (dir_ / "out.sarif").string();
    const auto r = run(tool("waitscope-report") + " sarif '" + path_ + "' -o '" + out + "' " + options);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out + r.err, "");
    std::ifstream in(out);
    std::stringstream text;
    text << in.rdbuf();
    return waitscope::test::parseJson(text.str());
  }
  TempDir dir_{"waitscope-sarif"};
  std::string path_;
};

TEST_F(sarif, EveryRequiredPropertyIsThere) {
  for (const char* options : {"", "--min-percent 0", "--min-percent 100", "--source-root /build=/src"}) {
    SCOPED_TRACE(options);
    SarifChecker check;
    check.log(sarifOf(options));
    EXPECT_EQ(check.problems, std::vector<std::string>{});
  }
}

TEST_F(sarif, TheCheckerCatchesMissingProperties) {
  SarifChecker check;
  check.log(waitscope::test::parseJson(
      R"({"version": "2.0.0", "runs": [{"tool": {"driver": {"rules": [{"name": "x"}]}},
          "results": [{"ruleIndex": 3, "level": "fatal", "locations": [{"physicalLocation": {"region": {"startLine": 0}}}]}]}]})"));
  EXPECT_EQ(check.problems,
            (std::vector<std::string>{"sarifLog.version is not 2.1.0", "toolComponent lacks required 'name'",
                                      "reportingDescriptor lacks required 'id'", "result lacks required 'message'",
                                      "result.level is not a SARIF level", "result.ruleIndex out of range",
                                      "physicalLocation needs artifactLocation or address", "region.startLine < 1"}));
}

TEST_F(sarif, RulesArePatternsWithDescriptionAndAdvice) {
  const Json log = sarifOf();
  const Json& driver = log["runs"][0]["tool"]["driver"];
  EXPECT_EQ(driver["name"].string, "Waitscope");
  EXPECT_EQ(driver["version"].string, "0.1.0");
  const Json& rules = driver["rules"];
  ASSERT_EQ(rules.array.size(), 3U);  // categories, counts, critical path and delays are no patterns
  EXPECT_EQ(rules[0]["id"].string, "mpi_rma_sync_late_post");
  EXPECT_EQ(rules[1]["id"].string, "mpi_latesender");
  EXPECT_EQ(rules[2]["id"].string, "mpi_latesender_wo");
  EXPECT_EQ(rules[1]["shortDescription"]["text"].string, "Late Sender");
  EXPECT_EQ(rules[1]["fullDescription"]["text"].string, "Receiver waits.");
  EXPECT_EQ(rules[1]["help"]["text"].string.rfind("The receive waits for its sender to start sending.", 0), 0U);
  EXPECT_EQ(rules[2]["fullDescription"]["text"].string, "Late Sender, wrong order");  // no description: the name
}

TEST_F(sarif, ResultsCarryValueShareWorstLocationsAndCauses) {
  const Json log = sarifOf();
  const Json& results = log["runs"][0]["results"];
  ASSERT_EQ(results.array.size(), 5U);  // as diagnostics at 1%
  const double total = 8.4365234375;

  const Json& latePost = results[0];
  EXPECT_EQ(latePost["ruleId"].string, "mpi_rma_sync_late_post");
  EXPECT_EQ(latePost["ruleIndex"].number, 0);
  EXPECT_EQ(latePost["level"].string, "error");  // 11.9% >= 10%
  EXPECT_EQ(latePost["message"]["text"].string,
            "11.9% of time in Late Post (MPI_Win_start): 1.000 s in total, worst on rank 0 (0.750 s)");
  const Json& where = latePost["locations"][0];
  EXPECT_EQ(where["physicalLocation"]["artifactLocation"]["uri"].string, "main.c");
  EXPECT_EQ(where["physicalLocation"]["region"]["startLine"].number, 30);
  EXPECT_EQ(where["logicalLocations"][0]["fullyQualifiedName"].string, "main/MPI_Win_start");
  const Json& p = latePost["properties"];
  EXPECT_EQ(p["value"].number, 1.0);
  EXPECT_EQ(p["share"].number, 1.0 / total);
  ASSERT_EQ(p["worstLocations"].array.size(), 2U);  // rank 1 has none
  EXPECT_EQ(p["worstLocations"][0]["rank"].number, 0);
  EXPECT_EQ(p["worstLocations"][0]["value"].number, 0.75);
  EXPECT_EQ(p["worstLocations"][1]["rank"].number, 2);
  EXPECT_EQ(p["worstLocations"][1]["value"].number, 0.25);
  // The Late Post instance on rank 0 (0.5 to 1.25) was caused by rank 2, whose
  // RMA delay costs sit in main/compute,phase.
  ASSERT_EQ(p["causingLocations"].array.size(), 1U);
  EXPECT_EQ(p["causingLocations"][0]["location"].string, "MPI Rank 2");
  EXPECT_EQ(p["causingLocations"][0]["value"].number, 0.75);
  ASSERT_EQ(p["causingCallPaths"].array.size(), 1U);
  EXPECT_EQ(p["causingCallPaths"][0]["callPath"].string, "main/compute,phase");
  EXPECT_EQ(p["causingCallPaths"][0]["file"].string, "compute.c");
  EXPECT_EQ(p["causingCallPaths"][0]["line"].number, 7);
  EXPECT_EQ(p["causingCallPaths"][0]["delay"].number, 0.75);

  const Json& lateSender = results[1];
  EXPECT_EQ(lateSender["ruleId"].string, "mpi_latesender");
  EXPECT_EQ(lateSender["ruleIndex"].number, 1);
  EXPECT_EQ(lateSender["level"].string, "error");  // 10.4%
  EXPECT_EQ(lateSender["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].string,
            "file:///build/run%201/foo.c");
  const Json& q = lateSender["properties"];
  EXPECT_EQ(q["value"].number, 0.875);  // Late Sender with its wrong-order part
  EXPECT_EQ(q["share"].number, 0.875 / total);
  EXPECT_EQ(q["worstLocations"][0]["rank"].number, 1);
  EXPECT_EQ(q["worstLocations"][0]["value"].number, 0.625);
  ASSERT_EQ(q["causingLocations"].array.size(), 1U);  // the wrong-order instance names no cause
  EXPECT_EQ(q["causingLocations"][0]["rank"].number, 0);
  EXPECT_EQ(q["causingLocations"][0]["value"].number, 0.5);
  ASSERT_EQ(q["causingCallPaths"].array.size(), 1U);  // rank 0's point-to-point delay
  EXPECT_EQ(q["causingCallPaths"][0]["callPath"].string, "main/foo");
  EXPECT_EQ(q["causingCallPaths"][0]["delay"].number, 0.5);
  EXPECT_EQ(lateSender["partialFingerprints"]["waitscopeFinding/v1"].string, "mpi_latesender:main/foo/MPI_Recv");

  // Below 10%: warnings; no instances: no causes.
  EXPECT_EQ(results[2]["level"].string, "warning");
  EXPECT_EQ(results[2]["properties"]["value"].number, 0.25);
  EXPECT_EQ(results[2]["properties"]["causingLocations"].array.size(), 0U);
  EXPECT_EQ(results[3]["ruleId"].string, "mpi_rma_sync_late_post");
  EXPECT_EQ(results[4]["ruleId"].string, "mpi_latesender_wo");
  EXPECT_EQ(results[4]["properties"]["causingCallPaths"].array.size(), 0U);

  // Below 1%: notes.
  EXPECT_EQ(sarifOf("--min-percent 0")["runs"][0]["results"].array.size(), 5U);
  EXPECT_EQ(sarifOf("--min-percent 50")["runs"][0]["results"].array.size(), 0U);
}

TEST_F(sarif, SourceRootsMapFilesAndStdoutWorks) {
  const Json log = sarifOf("--source-root '/build/run 1=/home/me/src'");
  EXPECT_EQ(log["runs"][0]["results"][1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].string,
            "file:///home/me/src/foo.c");
  const auto r = run(tool("waitscope-report") + " sarif '" + path_ + "' -o -");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(waitscope::test::parseJson(r.out)["version"].string, "2.1.0");
}

TEST_F(sarif, ReadsCubeFilesToo) {
  const std::string cube = (dir_ / "run.cubex").string();
  const auto written = run(tool("waitscope-report") + " cube '" + path_ + "' -o '" + cube + "'");
  ASSERT_EQ(written.exitCode, 0) << written.err;
  const auto r = run(tool("waitscope-report") + " sarif '" + cube + "' -o -");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const Json log = waitscope::test::parseJson(r.out);
  EXPECT_EQ(log["runs"][0]["results"].array.size(), 5U);
  EXPECT_EQ(log["runs"][0]["results"][0]["properties"]["value"].number, 1.0);
  EXPECT_EQ(log["runs"][0]["results"][0]["properties"]["causingLocations"].array.size(), 0U);  // Cube has no instances
}

TEST_F(sarif, BadUsageAndBadInput) {
  const std::string w = tool("waitscope-report");
  EXPECT_EQ(run(w + " sarif '" + path_ + "'").exitCode, 2);                         // no -o
  EXPECT_EQ(run(w + " sarif -o x.sarif").exitCode, 2);                               // no report
  EXPECT_EQ(run(w + " sarif '" + path_ + "' -o - --source-root nothing").exitCode, 2);
  EXPECT_EQ(run(w + " sarif '" + path_ + "' -o - --source-root =/x").exitCode, 2);
  EXPECT_EQ(run(w + " cube '" + path_ + "' -o out.cube").exitCode, 2);               // not .cubex
  const std::string missing = (dir_ / "missing.wsr").string();
  const auto r = run(w + " sarif '" + missing + "' -o -");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.err, "waitscope-report: error: " + missing + ": cannot open: no such file\n");
  const auto unwritable = run(w + " sarif '" + path_ + "' -o /nonexistent/dir/x.sarif");
  EXPECT_EQ(unwritable.exitCode, 1);
  EXPECT_NE(unwritable.err.find("/nonexistent/dir/x.sarif: cannot write the SARIF file"), std::string::npos)
      << unwritable.err;
  for (const char* command : {"sarif", "cube"}) {
    const auto help = run(w + " " + command + " --help");
    EXPECT_EQ(help.exitCode, 0);
    EXPECT_NE(help.out.find(std::string("usage: waitscope-report ") + command + " REPORT -o"), std::string::npos);
  }
}

TEST(diagnostics_cli, DiagnosticsApplyTheRootsAndReadCube) {
  TempDir dir("waitscope-diag");
  const std::string path = (dir / "run.wsr").string();
  waitscope::report::writeReport(reportWithDelays(), path);
  const std::string w = tool("waitscope-report");
  const auto r = run(w + " diagnostics '" + path + "' --source-root '/build/run 1=/src' --source-root=main.c=/x/main.c");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out,
            "/x/main.c:30: warning: 11.9% of time in Late Post (MPI_Win_start) [mpi_rma_sync_late_post] "
            "(worst: rank 0, 0.750 s)\n"
            "/src/foo.c:12: warning: 10.4% of time in Late Sender (MPI_Recv) [mpi_latesender] (worst: rank 1, 0.625 s)\n"
            "/x/main.c:10: warning: 3.0% of time in Late Sender (MPI_Recv) [mpi_latesender] (worst: rank 0, 0.250 s)\n"
            "compute.c:7: warning: 1.5% of time in Late Post (compute,phase) [mpi_rma_sync_late_post] "
            "(worst: rank 2, 0.125 s)\n"
            "/src/foo.c:12: warning: 1.5% of time in Late Sender, wrong order (MPI_Recv) [mpi_latesender_wo] "
            "(worst: rank 1, 0.125 s)\n");
  // The same findings from the report's Cube file.
  const std::string cube = (dir / "run.cubex").string();
  waitscope::report::writeCube(reportWithDelays(), cube);
  const auto fromCube = run(w + " diagnostics '" + cube + "' --source-root '/build/run 1=/src' --source-root=main.c=/x/main.c");
  EXPECT_EQ(fromCube.out, r.out) << fromCube.err;
  EXPECT_EQ(run(w + " diagnostics '" + path + "' --source-root").exitCode, 2);
  EXPECT_EQ(run(w + " diagnostics '" + path + "' --source-root x").exitCode, 2);
}

}  // namespace
