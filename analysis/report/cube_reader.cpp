// Cube 4 in short (docs/cube.md): anchor.xml holds the metric tree, regions,
// the call tree (nested <cnode>) and the system tree; per metric, N.index lists
// which rows N.data stores and N.data holds one value per location for each
// row. Rows are positions in a per-metric call-tree order, not cnode ids:
// depth-first pre-order for EXCLUSIVE metrics, breadth-first for INCLUSIVE ones
// (whose values are inclusive along the call tree and become exclusive here).
#include "cube_reader.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <unordered_map>

#include "cube_format.h"
#include "report_io.h"
#include "report_queries.h"
#include "tar_archive.h"
#include "xml_document.h"

namespace waitscope::report {
namespace {

constexpr std::uint32_t kNone = 0xffffffffU;

// Not a Cube file at all, or a Cube file that breaks the format.
struct NotCube {
  std::string what;
};
struct Damaged {
  std::string what;
};

std::string printable(const std::string& s) {
  std::string out;
  for (const char c : s.substr(0, 40)) out += (c >= 0x20 && c != 0x7f) ? c : '?';
  return s.size() > 40 ? out + "..." : out;
}

std::string trimmed(const std::string& s) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  const auto b = std::find_if_not(s.begin(), s.end(), space);
  const auto e = std::find_if_not(s.rbegin(), s.rend(), space).base();
  return b < e ? std::string(b, e) : std::string();
}

// A whole number in [min, max]; `what` names it in the message.
std::int64_t integer(const std::string& text, const std::string& what, std::int64_t min, std::int64_t max) {
  const std::string t = trimmed(text);
  std::int64_t v = 0;
  std::size_t i = 0;
  const bool negative = !t.empty() && t[0] == '-';
  if (negative) i = 1;
  if (i == t.size()) throw Damaged{what + " '" + printable(text) + "' is not a number"};
  for (; i < t.size(); ++i) {
    if (t[i] < '0' || t[i] > '9') throw Damaged{what + " '" + printable(text) + "' is not a number"};
    if (v > (std::int64_t{1} << 53)) throw Damaged{what + " " + printable(text) + " is out of range"};
    v = v * 10 + (t[i] - '0');
  }
  if (negative) v = -v;
  if (v < min || v > max) throw Damaged{what + " " + printable(text) + " is out of range"};
  return v;
}

std::uint32_t idAttribute(const XmlDocument& doc, std::uint32_t e, const char* key) {
  const std::string* value = doc.attribute(e, key);
  if (value == nullptr) throw Damaged{"<" + doc.elements[e].name + "> without " + key};
  return static_cast<std::uint32_t>(integer(*value, "<" + doc.elements[e].name + "> " + key, 0, kNone - 1));
}

// Source lines: Cube writes -1 for "unknown".
std::uint32_t lineAttribute(const XmlDocument& doc, std::uint32_t e, const char* key) {
  const std::string* value = doc.attribute(e, key);
  if (value == nullptr || trimmed(*value).empty()) return 0;
  const std::int64_t v = integer(*value, std::string("<") + doc.elements[e].name + "> " + key, -1, kNone - 1);
  return v < 0 ? 0 : static_cast<std::uint32_t>(v);
}

// Elements named `name` below `from` in document order (depth first), with
// their nearest enclosing element of the same name (kNone for a root).
std::vector<std::pair<std::uint32_t, std::uint32_t>> nested(const XmlDocument& doc, std::uint32_t from,
                                                            const std::string& name) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stack;  // element, its parent of kind `name`
  const auto& top = doc.elements[from].children;
  for (auto c = top.rbegin(); c != top.rend(); ++c)
    if (doc.elements[*c].name == name) stack.emplace_back(*c, kNone);
  while (!stack.empty()) {
    const auto [e, parent] = stack.back();
    stack.pop_back();
    out.emplace_back(e, parent);
    const auto& children = doc.elements[e].children;
    for (auto c = children.rbegin(); c != children.rend(); ++c)
      if (doc.elements[*c].name == name) stack.emplace_back(*c, e);
  }
  return out;
}

enum class ValueType { Double, Int8, Uint8, Int16, Uint16, Int32, Uint32, Int64, Uint64, Unsupported };

ValueType valueType(const std::string& dtype) {
  static const std::map<std::string, ValueType> kTypes = {
      {"DOUBLE", ValueType::Double}, {"FLOAT", ValueType::Double},  {"INTEGER", ValueType::Int64},
      {"INT64", ValueType::Int64},   {"UINT64", ValueType::Uint64}, {"INT32", ValueType::Int32},
      {"UINT32", ValueType::Uint32}, {"INT16", ValueType::Int16},   {"UINT16", ValueType::Uint16},
      {"INT8", ValueType::Int8},     {"UINT8", ValueType::Uint8},   {"CHAR", ValueType::Int8}};
  std::string upper = trimmed(dtype);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper.empty()) return ValueType::Double;
  const auto it = kTypes.find(upper);
  return it == kTypes.end() ? ValueType::Unsupported : it->second;
}

std::size_t valueSize(ValueType t) {
  switch (t) {
    case ValueType::Int8: case ValueType::Uint8: return 1;
    case ValueType::Int16: case ValueType::Uint16: return 2;
    case ValueType::Int32: case ValueType::Uint32: return 4;
    default: return 8;
  }
}

template <typename T>
T load(const char* p, bool swap) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, p, sizeof(T));
  if (swap) std::reverse(bytes, bytes + sizeof(T));
  T v;
  std::memcpy(&v, bytes, sizeof(T));
  return v;
}

double loadValue(const char* p, ValueType t, bool swap) {
  switch (t) {
    case ValueType::Int8: return static_cast<double>(load<std::int8_t>(p, swap));
    case ValueType::Uint8: return static_cast<double>(load<std::uint8_t>(p, swap));
    case ValueType::Int16: return static_cast<double>(load<std::int16_t>(p, swap));
    case ValueType::Uint16: return static_cast<double>(load<std::uint16_t>(p, swap));
    case ValueType::Int32: return static_cast<double>(load<std::int32_t>(p, swap));
    case ValueType::Uint32: return static_cast<double>(load<std::uint32_t>(p, swap));
    case ValueType::Int64: return static_cast<double>(load<std::int64_t>(p, swap));
    case ValueType::Uint64: return static_cast<double>(load<std::uint64_t>(p, swap));
    default: return load<double>(p, swap);
  }
}

struct IndexFile {
  bool swap = false;                 // written on a machine of the other byte order
  std::vector<std::uint32_t> rows;   // row positions, in the order of the data file
};

IndexFile parseIndex(const std::string& bytes, const std::string& name, std::uint32_t rowCount) {
  const std::size_t marker = std::strlen(cube::kIndexMarker);
  if (bytes.size() < marker + 7 || bytes.compare(0, marker, cube::kIndexMarker) != 0)
    throw Damaged{name + " is not a Cube index"};
  IndexFile index;
  const auto endian = load<std::uint32_t>(bytes.data() + marker, false);
  if (endian != 1) {
    if (endian != 0x01000000U) throw Damaged{name + ": unknown byte order"};
    index.swap = true;
  }
  const auto format = static_cast<std::uint8_t>(bytes[marker + 6]);
  if (format == cube::kIndexDense) {
    index.rows.resize(rowCount);
    for (std::uint32_t i = 0; i < rowCount; ++i) index.rows[i] = i;
    return index;
  }
  if (format != cube::kIndexSparse) throw Damaged{name + ": unsupported index format " + std::to_string(format)};
  if (bytes.size() < marker + 11) throw Damaged{name + " is truncated"};
  const auto count = load<std::uint32_t>(bytes.data() + marker + 7, index.swap);
  if (count > rowCount) throw Damaged{name + " lists " + std::to_string(count) + " rows for " +
                                      std::to_string(rowCount) + " call paths"};
  if (bytes.size() != marker + 11 + std::size_t{count} * 4)
    throw Damaged{name + " has " + std::to_string(bytes.size()) + " bytes, expected " +
                  std::to_string(marker + 11 + std::size_t{count} * 4)};
  std::vector<char> seen(rowCount, 0);
  index.rows.resize(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const auto row = load<std::uint32_t>(bytes.data() + marker + 11 + 4 * std::size_t{i}, index.swap);
    if (row >= rowCount) throw Damaged{name + ": row position " + std::to_string(row) + " out of range"};
    if (seen[row]++) throw Damaged{name + ": row position " + std::to_string(row) + " listed twice"};
    index.rows[i] = row;
  }
  return index;
}

// The values of a data file, decompressed when it is ZCUBEX.DATA: a count, then
// (uncompressed offset, compressed offset, compressed size) per block, then the
// zlib blocks one after the other.
std::string dataPayload(const std::string& bytes, const std::string& name, bool swap, std::size_t expected) {
  const std::size_t plain = std::strlen(cube::kDataMarker), zipped = std::strlen(cube::kZDataMarker);
  if (bytes.compare(0, plain, cube::kDataMarker) == 0) return bytes.substr(plain);
  if (bytes.compare(0, zipped, cube::kZDataMarker) != 0) throw Damaged{name + " is not Cube data"};
  std::size_t at = zipped;
  if (bytes.size() - at < 8) throw Damaged{name + " is truncated"};
  const auto blocks = load<std::uint64_t>(bytes.data() + at, swap);
  at += 8;
  if (blocks > (bytes.size() - at) / 24) throw Damaged{name + ": block table beyond the file"};
  std::vector<std::uint64_t> table(3 * blocks);
  for (std::size_t i = 0; i < table.size(); ++i) table[i] = load<std::uint64_t>(bytes.data() + at + 8 * i, swap);
  at += 24 * blocks;
  std::string out;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t offset = table[3 * b], size = table[3 * b + 2];
    if (size == 0) continue;
    if (offset != out.size()) throw Damaged{name + ": compressed blocks out of order"};
    if (size > bytes.size() - at) throw Damaged{name + ": compressed block beyond the file"};
    // Decompress into what is left of the expected size, so a block can never
    // claim more memory than the metric's values need.
    std::string chunk(expected - out.size(), '\0');
    uLongf length = static_cast<uLongf>(chunk.size());
    const int rc = uncompress(reinterpret_cast<Bytef*>(chunk.data()), &length,
                              reinterpret_cast<const Bytef*>(bytes.data() + at), static_cast<uLong>(size));
    if (rc != Z_OK) throw Damaged{name + ": a compressed block does not decompress (zlib error " + std::to_string(rc) + ")"};
    out.append(chunk.data(), length);
    at += size;
  }
  return out;
}

MetricUnit unitOf(const std::string& uom) {
  const std::string u = trimmed(uom);
  if (u == "sec" || u == "s" || u == "seconds") return MetricUnit::Seconds;
  if (u == "bytes" || u == "byte") return MetricUnit::Bytes;
  return MetricUnit::Occurrences;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

Report convert(const std::vector<TarEntry>& entries, const std::string& name) {
  std::unordered_map<std::string, const std::string*> members;
  for (const TarEntry& e : entries) members[e.name] = &e.data;
  const auto anchor = members.find(cube::kAnchor);
  if (anchor == members.end()) throw NotCube{"a tar archive without anchor.xml"};
  XmlDocument doc;
  try {
    doc = parseXml(*anchor->second);
  } catch (const XmlError& e) {
    throw Damaged{std::string("anchor.xml ") + e.what()};
  }
  if (doc.elements[0].name != "cube") throw NotCube{"anchor.xml has no <cube> root"};
  Report report;
  const std::string* version = doc.attribute(0, "version");
  report.meta = {{"format", "cube"}, {"cube_version", version != nullptr ? *version : ""}, {"source", name}};
  for (const std::uint32_t a : doc.elements[0].children) {
    if (doc.elements[a].name != "attr") continue;
    const std::string* key = doc.attribute(a, "key");
    const std::string* value = doc.attribute(a, "value");
    if (key == nullptr || value == nullptr) continue;
    std::string metaKey = key->rfind("waitscope.", 0) == 0 ? key->substr(10) : "cube." + *key;
    if (std::none_of(report.meta.begin(), report.meta.end(), [&](const auto& kv) { return kv.first == metaKey; }))
      report.meta.emplace_back(std::move(metaKey), *value);
  }

  // Regions: Cube ids may have gaps; ours are dense.
  const std::uint32_t program = doc.child(0, "program");
  if (program == kNone) throw Damaged{"anchor.xml has no <program>"};
  std::unordered_map<std::uint32_t, std::uint32_t> regionIndex;
  for (const std::uint32_t r : doc.elements[program].children) {
    if (doc.elements[r].name != "region") continue;
    const std::uint32_t id = idAttribute(doc, r, "id");
    if (!regionIndex.emplace(id, static_cast<std::uint32_t>(report.regions.size())).second)
      throw Damaged{"two regions with id " + std::to_string(id)};
    Region region;
    region.name = doc.childText(r, "name");
    const std::string* mod = doc.attribute(r, "mod");
    region.file = mod != nullptr ? *mod : "";
    region.beginLine = lineAttribute(doc, r, "begin");
    region.endLine = lineAttribute(doc, r, "end");
    const std::string* paradigm = doc.attribute(r, "paradigm");  // Cube 4.4+; before, the description
    region.paradigm = paradigm != nullptr ? *paradigm : trimmed(doc.childText(r, "descr"));
    report.regions.push_back(std::move(region));
  }

  // Call tree in pre-order (our index = pre-order position), and breadth-first.
  std::unordered_map<std::uint32_t, std::uint32_t> elementToCall;
  std::vector<std::uint32_t> cnodeIds;
  for (const auto& [e, parent] : nested(doc, program, "cnode")) {
    const auto region = regionIndex.find(idAttribute(doc, e, "calleeId"));
    if (region == regionIndex.end()) throw Damaged{"a cnode calls an unknown region"};
    CallPath c;
    c.parent = parent == kNone ? kNoId : elementToCall.at(parent);
    c.region = region->second;
    const std::string* mod = doc.attribute(e, "mod");
    c.callSiteFile = mod != nullptr ? *mod : "";
    c.callSiteLine = lineAttribute(doc, e, "line");
    elementToCall[e] = static_cast<std::uint32_t>(report.callPaths.size());
    cnodeIds.push_back(idAttribute(doc, e, "id"));
    report.callPaths.push_back(std::move(c));
  }
  {
    std::vector<std::uint32_t> sorted = cnodeIds;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) throw Damaged{"two cnodes with the same id"};
  }
  const std::uint32_t callCount = static_cast<std::uint32_t>(report.callPaths.size());
  const std::vector<std::vector<std::uint32_t>> callees = callPathChildren(report);
  std::vector<std::uint32_t> breadthFirst;
  for (std::uint32_t c = 0; c < callCount; ++c)
    if (report.callPaths[c].parent == kNoId) breadthFirst.push_back(c);
  for (std::size_t i = 0; i < breadthFirst.size(); ++i)
    for (const std::uint32_t c : callees[breadthFirst[i]]) breadthFirst.push_back(c);

  // System tree: system tree nodes, process groups, threads.
  const std::uint32_t system = doc.child(0, "system");
  if (system == kNone) throw Damaged{"anchor.xml has no <system>"};
  if (doc.child(system, "machine") != kNone)
    throw NotCube{"a Cube 3 system tree (<machine>); open it with Cube and save it as Cube 4"};
  std::unordered_map<std::uint32_t, std::uint32_t> elementToNode;
  std::map<std::uint32_t, Location> byCubeId;  // location id -> location
  for (const auto& [e, parent] : nested(doc, system, "systemtreenode")) {
    SystemNode node{trimmed(doc.childText(e, "name")), trimmed(doc.childText(e, "class")),
                    parent == kNone ? kNoId : elementToNode.at(parent)};
    const auto nodeIndex = static_cast<std::uint32_t>(report.systemNodes.size());
    elementToNode[e] = nodeIndex;
    report.systemNodes.push_back(std::move(node));
    for (const std::uint32_t g : doc.elements[e].children) {
      if (doc.elements[g].name != "locationgroup") continue;
      const std::string groupName = trimmed(doc.childText(g, "name"));
      const auto rank = static_cast<std::uint32_t>(integer(doc.childText(g, "rank"), "locationgroup rank", 0, kNone - 1));
      std::vector<std::uint32_t> threads;
      for (const std::uint32_t l : doc.elements[g].children)
        if (doc.elements[l].name == "location") threads.push_back(l);
      for (const std::uint32_t l : threads) {
        const std::uint32_t id = idAttribute(doc, l, "Id");
        const std::string threadName = trimmed(doc.childText(l, "name"));
        Location location{threads.size() == 1 ? groupName : groupName + ", " + threadName, rank, nodeIndex};
        if (!byCubeId.emplace(id, std::move(location)).second) throw Damaged{"two locations with Id " + std::to_string(id)};
      }
    }
  }
  if (!byCubeId.empty() && byCubeId.rbegin()->first != byCubeId.size() - 1)
    throw Damaged{"location ids are not 0 to " + std::to_string(byCubeId.size() - 1)};
  for (auto& [id, location] : byCubeId) report.locations.push_back(std::move(location));
  const std::size_t locationCount = report.locations.size();

  // Metrics: keep the additive ones; a skipped metric's children move up.
  const std::uint32_t metricsElement = doc.child(0, "metrics");
  if (metricsElement == kNone) throw Damaged{"anchor.xml has no <metrics>"};
  std::unordered_map<std::uint32_t, std::uint32_t> elementToMetric;  // kNoId for a skipped metric
  std::vector<std::string> skipped, derived;
  std::unordered_map<std::string, std::uint32_t> names;
  std::set<std::uint32_t> metricIds;  // they name the data files
  for (const auto& [e, parent] : nested(doc, metricsElement, "metric")) {
    // A skipped parent maps to its own nearest kept ancestor.
    const std::uint32_t ourParent = parent == kNone ? kNoId : elementToMetric.at(parent);
    const std::string uniqueName = trimmed(doc.childText(e, "uniq_name"));
    if (uniqueName.empty()) throw Damaged{"a metric without <uniq_name>"};
    const std::string* typeText = doc.attribute(e, "type");
    const std::string type = typeText != nullptr ? *typeText : "EXCLUSIVE";
    const ValueType valueT = valueType(doc.childText(e, "dtype"));
    const bool isDerived = type.find("DERIVED") != std::string::npos;
    if (valueT == ValueType::Unsupported || (type != "EXCLUSIVE" && type != "INCLUSIVE" && !isDerived)) {
      elementToMetric[e] = ourParent;
      skipped.push_back(uniqueName);
      continue;
    }
    if (!names.emplace(uniqueName, 0).second) throw Damaged{"two metrics named " + printable(uniqueName)};
    const auto m = static_cast<std::uint32_t>(report.metrics.size());
    elementToMetric[e] = m;
    report.metrics.push_back({uniqueName, trimmed(doc.childText(e, "disp_name")), trimmed(doc.childText(e, "descr")),
                              unitOf(doc.childText(e, "uom")), ourParent});
    const std::uint32_t id = idAttribute(doc, e, "id");
    if (!metricIds.insert(id).second) throw Damaged{"two metrics with id " + std::to_string(id)};
    const auto index = members.find(cube::indexName(id));
    const auto data = members.find(cube::dataName(id));
    if (index == members.end() || data == members.end()) {
      if (isDerived) derived.push_back(uniqueName);
      continue;  // no stored values: zero everywhere
    }
    const IndexFile rows = parseIndex(*index->second, cube::indexName(id), callCount);
    const std::size_t size = valueSize(valueT);
    // rows <= call paths, so this product cannot overflow before the data is checked.
    const std::size_t expected = rows.rows.size() * locationCount * size;
    const std::string payload = dataPayload(*data->second, cube::dataName(id), rows.swap, expected);
    if (payload.size() != expected)
      throw Damaged{cube::dataName(id) + " holds " + std::to_string(payload.size()) + " bytes of values, expected " +
                    std::to_string(expected) + " (" + std::to_string(rows.rows.size()) + " rows x " +
                    std::to_string(locationCount) + " locations)"};
    const bool inclusive = type.find("INCLUSIVE") != std::string::npos;
    std::vector<std::vector<double>> values(callCount);
    for (std::size_t r = 0; r < rows.rows.size(); ++r) {
      const std::uint32_t call = inclusive ? breadthFirst[rows.rows[r]] : rows.rows[r];
      values[call].resize(locationCount);
      for (std::size_t l = 0; l < locationCount; ++l) {
        const double v = loadValue(payload.data() + (r * locationCount + l) * size, valueT, rows.swap);
        if (!std::isfinite(v)) throw Damaged{cube::dataName(id) + ": a value is not finite"};
        values[call][l] = v;
      }
    }
    if (inclusive) {
      // Exclusive = inclusive minus the callees' inclusive values.
      std::vector<std::vector<double>> exclusive = values;
      for (std::uint32_t c = 0; c < callCount; ++c) {
        const std::uint32_t p = report.callPaths[c].parent;
        if (p == kNoId || values[c].empty()) continue;
        if (exclusive[p].empty()) exclusive[p].assign(locationCount, 0.0);
        for (std::size_t l = 0; l < locationCount; ++l) exclusive[p][l] -= values[c][l];
      }
      values = std::move(exclusive);
    }
    for (std::uint32_t c = 0; c < callCount; ++c)
      if (std::any_of(values[c].begin(), values[c].end(), [](double v) { return v != 0.0; }))
        report.severities.push_back({m, c, std::move(values[c])});
  }
  if (!skipped.empty()) report.meta.emplace_back("cube_skipped_metrics", join(skipped));
  if (!derived.empty()) report.meta.emplace_back("cube_derived_metrics", join(derived));
  if (const std::string problem = firstProblem(report); !problem.empty()) throw Damaged{problem};
  return report;
}

}  // namespace

Report readCubeArchive(const std::string& bytes, const std::string& name) {
  // Messages may quote the file's contents: keep them on one line.
  const auto oneLine = [](std::string s) {
    for (char& c : s)
      if ((c >= 0 && c < 0x20) || c == 0x7f) c = '?';
    return s;
  };
  try {
    if (bytes.starts_with("<?xml") || bytes.starts_with("<cube"))
      throw NotCube{"a Cube 3 file (plain XML); only Cube 4 .cubex archives are read"};
    return convert(readTar(bytes), name);
  } catch (const TarError& e) {
    throw ReportError(name + ": not a Cube file (" + e.what() + "); expected a .cubex archive of Score-P or Scalasca");
  } catch (const NotCube& e) {
    throw ReportError(name + ": not a Cube file (" + oneLine(e.what) + ")");
  } catch (const Damaged& e) {
    throw ReportError(name + ": damaged Cube file (" + oneLine(e.what) +
                      "); write it again, or check it with Cube's cube_dump");
  }
}

Report readCube(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (status.type() == fs::file_type::not_found) throw ReportError(path + ": cannot open: no such file");
  if (status.type() == fs::file_type::directory) throw ReportError(path + ": cannot open: it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ReportError(path + ": cannot open: permission denied or unreadable");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw ReportError(path + ": cannot read the file");
  return readCubeArchive(bytes, path);
}

}  // namespace waitscope::report
