// Mapping (docs/cube.md): every metric is EXCLUSIVE along the call tree (our
// severities are), so its rows are in call-tree pre-order; cnode ids are the
// pre-order positions, metric ids the metric tree's pre-order, location ids the
// system tree's document order. Counts that are whole numbers are UINT64.
#include "analysis/report/cube_writer.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unordered_map>
#include <unistd.h>

#include "analysis/report/cube_format.h"
#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "analysis/report/tar_archive.h"
#include "analysis/report/xml_document.h"

namespace waitscope::report {
namespace {

template <typename T>
void appendRaw(std::string& out, T value) {
  char bytes[sizeof value];
  std::memcpy(bytes, &value, sizeof value);
  out.append(bytes, sizeof value);
}

const char* unitName(MetricUnit unit) {
  switch (unit) {
    case MetricUnit::Seconds: return "sec";
    case MetricUnit::Bytes: return "bytes";
    case MetricUnit::Occurrences: break;
  }
  return "occ";
}

std::string lineText(std::uint32_t line) { return line == 0 ? "-1" : std::to_string(line); }

// Indentation of an element at `depth` below its section; capped, so a call
// tree thousands of levels deep does not make the file grow with depth squared.
std::string indent(std::size_t depth) { return std::string(2 * std::min<std::size_t>(depth, 24) + 4, ' '); }

// Closes the open elements of a depth-first walk down to `depth`.
void closeTo(std::string& xml, std::vector<std::string>& open, std::size_t depth) {
  while (open.size() > depth) {
    xml += indent(open.size() - 1) + "</" + open.back() + ">\n";
    open.pop_back();
  }
}

// The system tree in document order: nodes depth first, and the cube id of
// every location (each node's own locations, in report order, before its
// child nodes; locations without a node last, below an extra node).
struct SystemLayout {
  std::vector<TreeEntry> nodes;                         // depth-first walk of Report::systemNodes
  std::vector<std::vector<std::uint32_t>> locationsOf;  // per system node, in document order
  std::vector<std::uint32_t> orphans;                   // locations without a system node
  std::vector<std::uint32_t> locationOrder;             // cube location id -> report location
  // Per process location, its threads and streams (hybrid runs): locations of its location group.
  std::vector<std::vector<std::uint32_t>> threadsOf;
};

SystemLayout systemLayout(const Report& report) {
  SystemLayout layout;
  layout.locationsOf.resize(report.systemNodes.size());
  layout.threadsOf.resize(report.locations.size());
  const std::size_t processes = report.processCount();
  std::unordered_map<std::uint32_t, std::uint32_t> processOfRank;
  for (std::uint32_t p = 0; p < processes; ++p) processOfRank.emplace(report.locations[p].rank, p);
  for (std::uint32_t l = 0; l < report.locations.size(); ++l) {
    if (l >= processes) {
      if (const auto it = processOfRank.find(report.locations[l].rank); it != processOfRank.end()) {
        layout.threadsOf[it->second].push_back(l);
        continue;
      }
    }
    const std::uint32_t node = report.locations[l].systemNode;
    if (node < report.systemNodes.size()) layout.locationsOf[node].push_back(l);
    else layout.orphans.push_back(l);
  }
  std::vector<std::vector<std::uint32_t>> children(report.systemNodes.size());
  std::vector<TreeEntry> stack;
  for (std::uint32_t i = 0; i < report.systemNodes.size(); ++i)
    if (report.systemNodes[i].parent != kNoId) children[report.systemNodes[i].parent].push_back(i);
  for (std::uint32_t i = static_cast<std::uint32_t>(report.systemNodes.size()); i-- > 0;)
    if (report.systemNodes[i].parent == kNoId) stack.push_back({i, 0});
  while (!stack.empty()) {
    const TreeEntry e = stack.back();
    stack.pop_back();
    layout.nodes.push_back(e);
    for (const std::uint32_t l : layout.locationsOf[e.index]) {
      layout.locationOrder.push_back(l);
      for (const std::uint32_t t : layout.threadsOf[l]) layout.locationOrder.push_back(t);
    }
    for (auto c = children[e.index].rbegin(); c != children[e.index].rend(); ++c) stack.push_back({*c, e.depth + 1});
  }
  for (const std::uint32_t l : layout.orphans) {
    layout.locationOrder.push_back(l);
    for (const std::uint32_t t : layout.threadsOf[l]) layout.locationOrder.push_back(t);
  }
  return layout;
}

// A process as a location group: its master thread, then its threads and streams (hybrid runs).
void appendLocation(std::string& xml, const Report& report, const SystemLayout& layout, std::uint32_t location,
                    const std::vector<std::uint32_t>& cubeLocation, std::uint32_t& groupId, std::size_t indent) {
  const Location& l = report.locations[location];
  const std::string pad(indent, ' ');
  xml += pad + "<locationgroup Id=\"" + std::to_string(groupId++) + "\">\n" + pad + "  <name>" + xmlEscape(l.name) +
         "</name>\n" + pad + "  <rank>" + std::to_string(l.rank) + "</rank>\n" + pad + "  <type>process</type>\n" +
         pad + "  <location Id=\"" + std::to_string(cubeLocation[location]) + "\">\n" + pad +
         "    <name>Master thread</name>\n" + pad + "    <rank>0</rank>\n" + pad + "    <type>thread</type>\n" + pad +
         "  </location>\n";
  std::uint32_t rank = 1;
  for (const std::uint32_t t : layout.threadsOf[location]) {
    const Location& thread = report.locations[t];
    // The report names it "MPI Rank 0 / OMP thread 1"; inside its group, "OMP thread 1" says it.
    const std::string prefix = l.name + " / ";
    const std::string name = thread.name.starts_with(prefix) ? thread.name.substr(prefix.size()) : thread.name;
    // Cube 4's location types: "thread", "gpu" (read by every Cube 4 release; 4.7 and later
    // also read "accelerator stream"), "metric"; any other word makes Cube refuse the file.
    const char* type = thread.kind == LocationKind::Accelerator ? "gpu"
                       : thread.kind == LocationKind::Metric    ? "metric"
                                                                : "thread";
    xml += pad + "  <location Id=\"" + std::to_string(cubeLocation[t]) + "\">\n" + pad + "    <name>" +
           xmlEscape(name) + "</name>\n" + pad + "    <rank>" + std::to_string(rank++) + "</rank>\n" + pad +
           "    <type>" + type + "</type>\n" + pad + "  </location>\n";
  }
  xml += pad + "</locationgroup>\n";
}

std::string anchorXml(const Report& report, const std::vector<TreeEntry>& metricOrder,
                      const std::vector<TreeEntry>& callOrder, const SystemLayout& layout,
                      const std::vector<bool>& wholeNumbers) {
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<cube version=\"4.3\">\n";
  const std::string version = report.metaValue("waitscope_version");
  std::string creator = "Waitscope";
  if (!version.empty()) creator += ' ' + xmlEscape(version);
  xml += "  <attr key=\"Creator\" value=\"" + creator + "\"/>\n";
  xml += "  <attr key=\"CUBE_CT_AGGR\" value=\"SUM\"/>\n";
  for (const auto& [key, value] : report.meta)
    xml += "  <attr key=\"waitscope." + xmlEscape(key) + "\" value=\"" + xmlEscape(value) + "\"/>\n";

  xml += "  <metrics>\n";
  std::vector<std::string> open;
  for (std::uint32_t id = 0; id < metricOrder.size(); ++id) {
    const TreeEntry& e = metricOrder[id];
    closeTo(xml, open, e.depth);
    const Metric& m = report.metrics[e.index];
    const std::string pad = indent(e.depth);
    xml += pad + "<metric id=\"" + std::to_string(id) + "\" type=\"EXCLUSIVE\">\n";
    xml += pad + "  <disp_name>" + xmlEscape(m.displayName.empty() ? m.uniqueName : m.displayName) + "</disp_name>\n";
    xml += pad + "  <uniq_name>" + xmlEscape(m.uniqueName) + "</uniq_name>\n";
    xml += pad + "  <dtype>" + (wholeNumbers[e.index] ? "UINT64" : "DOUBLE") + "</dtype>\n";
    xml += pad + "  <uom>" + unitName(m.unit) + "</uom>\n";
    xml += pad + "  <url></url>\n";
    xml += pad + "  <descr>" + xmlEscape(m.description) + "</descr>\n";
    open.push_back("metric");
  }
  closeTo(xml, open, 0);
  xml += "  </metrics>\n  <program>\n";
  for (std::uint32_t r = 0; r < report.regions.size(); ++r) {
    const Region& region = report.regions[r];
    xml += "    <region id=\"" + std::to_string(r) + "\" mod=\"" + xmlEscape(region.file) + "\" begin=\"" +
           lineText(region.beginLine) + "\" end=\"" + lineText(region.endLine) + "\">\n";
    xml += "      <name>" + xmlEscape(region.name) + "</name>\n      <url></url>\n      <descr>" +
           xmlEscape(region.paradigm) + "</descr>\n    </region>\n";
  }
  for (std::uint32_t id = 0; id < callOrder.size(); ++id) {
    const TreeEntry& e = callOrder[id];
    closeTo(xml, open, e.depth);
    const CallPath& c = report.callPaths[e.index];
    xml += indent(e.depth) + "<cnode id=\"" + std::to_string(id) + "\" line=\"" +
           lineText(c.callSiteLine) + "\" mod=\"" + xmlEscape(c.callSiteFile) + "\" calleeId=\"" +
           std::to_string(c.region) + "\">\n";
    open.push_back("cnode");
  }
  closeTo(xml, open, 0);
  xml += "  </program>\n  <system>\n";

  std::vector<std::uint32_t> cubeLocation(report.locations.size());
  for (std::uint32_t i = 0; i < layout.locationOrder.size(); ++i) cubeLocation[layout.locationOrder[i]] = i;
  std::uint32_t nodeId = 0, groupId = 0;
  for (const TreeEntry& e : layout.nodes) {
    closeTo(xml, open, e.depth);
    const SystemNode& n = report.systemNodes[e.index];
    const std::string pad = indent(e.depth);
    xml += pad + "<systemtreenode Id=\"" + std::to_string(nodeId++) + "\">\n" + pad + "  <name>" + xmlEscape(n.name) +
           "</name>\n" + pad + "  <class>" + xmlEscape(n.className) + "</class>\n";
    for (const std::uint32_t l : layout.locationsOf[e.index])
      appendLocation(xml, report, layout, l, cubeLocation, groupId, pad.size() + 2);
    open.push_back("systemtreenode");
  }
  closeTo(xml, open, 0);
  if (!layout.orphans.empty()) {
    xml += "    <systemtreenode Id=\"" + std::to_string(nodeId) +
           "\">\n      <name>unknown machine</name>\n      <class>machine</class>\n";
    for (const std::uint32_t l : layout.orphans) appendLocation(xml, report, layout, l, cubeLocation, groupId, 6);
    xml += "    </systemtreenode>\n";
  }
  xml += "  </system>\n</cube>\n";
  return xml;
}

}  // namespace

std::string cubeArchive(const Report& report) {
  const std::vector<TreeEntry> metricOrder = metricsDepthFirst(report);
  const std::vector<TreeEntry> callOrder = callPathsDepthFirst(report);
  const SystemLayout layout = systemLayout(report);
  std::vector<std::uint32_t> callPosition(report.callPaths.size());
  for (std::uint32_t i = 0; i < callOrder.size(); ++i) callPosition[callOrder[i].index] = i;

  // Rows per metric, by pre-order position.
  std::vector<std::vector<std::pair<std::uint32_t, const SeverityRow*>>> rows(report.metrics.size());
  for (const SeverityRow& row : report.severities) rows[row.metric].emplace_back(callPosition[row.callPath], &row);
  std::vector<bool> wholeNumbers(report.metrics.size(), false);
  for (std::uint32_t m = 0; m < report.metrics.size(); ++m) {
    std::sort(rows[m].begin(), rows[m].end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    bool whole = report.metrics[m].unit != MetricUnit::Seconds;
    for (const auto& [position, row] : rows[m])
      for (const double v : row->values)
        whole = whole && v >= 0.0 && v < 9007199254740992.0 && std::floor(v) == v && !std::signbit(v);
    wholeNumbers[m] = whole;
  }

  std::vector<TarEntry> entries;
  entries.push_back({cube::kAnchor, anchorXml(report, metricOrder, callOrder, layout, wholeNumbers)});
  for (std::uint32_t id = 0; id < metricOrder.size(); ++id) {
    const std::uint32_t m = metricOrder[id].index;
    std::string index = cube::kIndexMarker;
    appendRaw(index, std::uint32_t{1});  // the reader's endianness check
    appendRaw(index, std::uint16_t{0});
    appendRaw(index, cube::kIndexSparse);
    appendRaw(index, static_cast<std::uint32_t>(rows[m].size()));
    std::string data = cube::kDataMarker;
    data.reserve(data.size() + rows[m].size() * report.locations.size() * 8);
    for (const auto& [position, row] : rows[m]) {
      appendRaw(index, position);
      for (const std::uint32_t l : layout.locationOrder) {
        if (wholeNumbers[m]) appendRaw(data, static_cast<std::uint64_t>(row->values[l]));
        else appendRaw(data, row->values[l]);
      }
    }
    entries.push_back({cube::indexName(id), std::move(index)});
    entries.push_back({cube::dataName(id), std::move(data)});
  }
  return writeTar(entries);
}

void writeCube(const Report& report, const std::string& path) {
  if (const std::string problem = firstProblem(report); !problem.empty())
    throw ReportError(path + ": cannot write the Cube file: the report is inconsistent (" + problem + ")");
  const std::string bytes = cubeArchive(report);
  const std::string temporary = path + ".part" + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw ReportError(path + ": cannot write the Cube file: " + std::strerror(errno));
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw ReportError(path + ": cannot write the Cube file (disk full?)");
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::filesystem::remove(temporary, error);
    throw ReportError(path + ": cannot write the Cube file: " + error.message());
  }
}

}  // namespace waitscope::report
