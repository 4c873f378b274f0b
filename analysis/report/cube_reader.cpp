// Cube 4 in short (docs/cube.md): anchor.xml holds the metric tree, regions,
// the call tree (nested <cnode>) and the system tree; per metric, N.index lists
// which rows N.data stores and N.data holds one value per location for each
// row. Rows are positions in a per-metric call-tree order, not cnode ids:
// depth-first pre-order for EXCLUSIVE metrics, breadth-first for INCLUSIVE ones
// (whose values are inclusive along the call tree and become exclusive here).
#include "analysis/report/cube_reader.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

#include "analysis/report/cube_format.h"
#include "analysis/report/input_file.h"
#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "analysis/report/tar_archive.h"
#include "analysis/report/xml_document.h"

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

// Takes a metric's values in data-file order, a piece at a time, and keeps the
// rows that are not all zero, so that memory follows the values the file holds
// rather than the rows x locations it claims.
class RowCollector {
 public:
  RowCollector(std::size_t locations, ValueType type, bool swap, std::string name,
               std::vector<std::vector<double>>& values)
      : locations_(locations), type_(type), size_(valueSize(type)), swap_(swap), name_(std::move(name)),
        values_(values) {}

  // The call path of each row, in data-file order.
  void setCalls(std::vector<std::uint32_t> calls) { calls_ = std::move(calls); }

  void add(const char* bytes, std::size_t n) {
    const std::size_t rowBytes = locations_ * size_;
    while (n > 0) {
      if (pending_.empty() && n >= rowBytes) {
        row(bytes);
        bytes += rowBytes;
        n -= rowBytes;
        continue;
      }
      const std::size_t take = std::min(n, rowBytes - pending_.size());
      pending_.append(bytes, take);
      bytes += take;
      n -= take;
      if (pending_.size() == rowBytes) {
        row(pending_.data());
        pending_.clear();
      }
    }
  }

 private:
  void row(const char* bytes) {
    const std::uint32_t call = calls_[next_++];
    bool zero = true;
    for (std::size_t l = 0; l < locations_ && zero; ++l) zero = loadValue(bytes + l * size_, type_, swap_) == 0.0;
    if (zero) return;  // a row of zeros adds nothing: not kept
    std::vector<double>& out = values_[call];
    out.resize(locations_);
    for (std::size_t l = 0; l < locations_; ++l) {
      out[l] = loadValue(bytes + l * size_, type_, swap_);
      if (!std::isfinite(out[l])) throw Damaged{name_ + ": a value is not finite"};
    }
  }

  std::size_t locations_;
  ValueType type_;
  std::size_t size_;
  bool swap_;
  std::string name_;
  std::vector<std::vector<double>>& values_;
  std::vector<std::uint32_t> calls_;
  std::size_t next_ = 0;
  std::string pending_;  // a row split across two pieces
};

// Ends a zlib stream on every path out.
struct Inflater {
  z_stream stream{};
  Inflater() {
    if (inflateInit(&stream) != Z_OK) throw std::bad_alloc();
  }
  ~Inflater() { inflateEnd(&stream); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
};

// Passes the values of a data file to `collector`: the bytes after CUBEX.DATA,
// or, for ZCUBEX.DATA (an int64 block count, per block the uncompressed offset,
// the compressed offset and the compressed size, then the zlib blocks), the
// blocks decompressed a piece at a time. The file must hold exactly `expected`
// bytes of values; that is checked before anything is kept (plain data) or as
// the blocks unpack, so a block can never claim more than the values need.
void readValues(const std::string& bytes, const std::string& name, bool swap, std::size_t expected,
                const std::string& shape, RowCollector& collector) {
  const std::size_t plain = std::strlen(cube::kDataMarker), zipped = std::strlen(cube::kZDataMarker);
  const auto wrongSize = [&](std::size_t got) {
    return Damaged{name + " holds " + std::to_string(got) + " bytes of values, expected " + std::to_string(expected) +
                   " (" + shape + ")"};
  };
  if (bytes.compare(0, plain, cube::kDataMarker) == 0) {
    if (bytes.size() - plain != expected) throw wrongSize(bytes.size() - plain);
    collector.add(bytes.data() + plain, expected);
    return;
  }
  if (bytes.compare(0, zipped, cube::kZDataMarker) != 0) throw Damaged{name + " is not Cube data"};
  std::size_t at = zipped;
  if (bytes.size() - at < 8) throw Damaged{name + " is truncated"};
  const auto blocks = load<std::uint64_t>(bytes.data() + at, swap);
  at += 8;
  if (blocks > (bytes.size() - at) / 24) throw Damaged{name + ": block table beyond the file"};
  const std::size_t table = at;
  at += 24 * blocks;
  std::size_t done = 0;
  std::vector<char> buffer(std::min<std::size_t>(expected, 1 << 16) + 1);
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const auto offset = load<std::uint64_t>(bytes.data() + table + 24 * b, swap);
    const auto size = load<std::uint64_t>(bytes.data() + table + 24 * b + 16, swap);
    if (size == 0) continue;
    if (offset != done) throw Damaged{name + ": compressed blocks out of order"};
    if (size > bytes.size() - at) throw Damaged{name + ": compressed block beyond the file"};
    Inflater z;
    z.stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + at));
    z.stream.avail_in = static_cast<uInt>(std::min<std::uint64_t>(size, 0xffffffffU));
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
      // One byte more than the values need, to notice a block that holds more.
      z.stream.next_out = reinterpret_cast<Bytef*>(buffer.data());
      z.stream.avail_out = static_cast<uInt>(std::min(buffer.size(), expected - done + 1));
      rc = inflate(&z.stream, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END)
        throw Damaged{name + ": a compressed block does not decompress (zlib error " + std::to_string(rc) + ")"};
      const std::size_t produced = static_cast<std::size_t>(reinterpret_cast<char*>(z.stream.next_out) - buffer.data());
      if (done + produced > expected)
        throw Damaged{name + ": the compressed blocks hold more than the " + std::to_string(expected) +
                      " bytes of values expected (" + shape + ")"};
      if (produced == 0 && rc == Z_OK && z.stream.avail_in == 0) throw Damaged{name + ": a compressed block is truncated"};
      collector.add(buffer.data(), produced);
      done += produced;
    }
    at += size;
  }
  if (done != expected) throw wrongSize(done);
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
      // A process's group holds its master thread first, then its other threads, GPU streams
      // and metric locations (hybrid runs); a group of another type (Cube 4.5's "accelerator",
      // "metrics") holds no process.
      const std::string groupType = trimmed(doc.childText(g, "type"));
      bool master = groupType.empty() || groupType == "process";
      // Each thread's name repeats its process's: a long one is cut, so that a
      // small file cannot multiply one name by its thousands of threads.
      const std::string threadPrefix = groupName.size() <= 256 ? groupName + " / " : groupName.substr(0, 256) + "... / ";
      for (const std::uint32_t l : doc.elements[g].children) {
        if (doc.elements[l].name != "location") continue;
        const std::uint32_t id = idAttribute(doc, l, "Id");
        Location location{{}, rank, nodeIndex, LocationKind::Process};
        if (master) {
          location.name = groupName;
        } else {
          const std::string type = trimmed(doc.childText(l, "type"));
          location.name = threadPrefix + trimmed(doc.childText(l, "name"));
          location.kind = type == "gpu" || type == "accelerator stream" ? LocationKind::Accelerator
                          : type == "metric"                            ? LocationKind::Metric
                                                                        : LocationKind::Thread;
        }
        master = false;
        if (!byCubeId.emplace(id, std::move(location)).second) throw Damaged{"two locations with Id " + std::to_string(id)};
      }
    }
  }
  if (!byCubeId.empty() && byCubeId.rbegin()->first != byCubeId.size() - 1)
    throw Damaged{"location ids are not 0 to " + std::to_string(byCubeId.size() - 1)};
  // The report's order: the processes by rank, then the other locations by their process's rank;
  // values are read in Cube's location order and put in this one.
  std::vector<std::uint32_t> cubeOf;  // report location -> Cube location
  for (const auto& [id, location] : byCubeId) cubeOf.push_back(id);
  std::stable_sort(cubeOf.begin(), cubeOf.end(), [&](std::uint32_t a, std::uint32_t b) {
    const Location& x = byCubeId.at(a);
    const Location& y = byCubeId.at(b);
    return std::pair(x.kind != LocationKind::Process, x.rank) < std::pair(y.kind != LocationKind::Process, y.rank);
  });
  for (const std::uint32_t id : cubeOf) report.locations.push_back(std::move(byCubeId.at(id)));
  const auto inReportOrder = [&](const std::vector<double>& cubeOrder) {
    std::vector<double> out(cubeOrder.size());
    for (std::size_t l = 0; l < cubeOf.size(); ++l) out[l] = cubeOrder[cubeOf[l]];
    return out;
  };
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
    if (locationCount != 0 && rows.rows.size() > std::numeric_limits<std::size_t>::max() / locationCount / size)
      throw Damaged{cube::dataName(id) + ": too many values"};
    const std::size_t expected = rows.rows.size() * locationCount * size;
    const bool inclusive = type.find("INCLUSIVE") != std::string::npos;
    std::vector<std::vector<double>> values(callCount);
    RowCollector collector(locationCount, valueT, rows.swap, cube::dataName(id), values);
    std::vector<std::uint32_t> calls = rows.rows;
    if (inclusive)
      for (std::uint32_t& c : calls) c = breadthFirst[c];
    collector.setCalls(std::move(calls));
    readValues(*data->second, cube::dataName(id), rows.swap, expected,
               std::to_string(rows.rows.size()) + " rows x " + std::to_string(locationCount) + " locations", collector);
    if (inclusive) {
      // Exclusive = inclusive minus the callees' inclusive values. In pre-order a
      // call path comes before its callees, so its values are still inclusive
      // when they are taken from its parent.
      for (std::uint32_t c = 0; c < callCount; ++c) {
        const std::uint32_t p = report.callPaths[c].parent;
        if (p == kNoId || values[c].empty()) continue;
        if (values[p].empty()) values[p].assign(locationCount, 0.0);
        for (std::size_t l = 0; l < locationCount; ++l) values[p][l] -= values[c][l];
      }
    }
    for (std::uint32_t c = 0; c < callCount; ++c)
      if (std::any_of(values[c].begin(), values[c].end(), [](double v) { return v != 0.0; }))
        report.severities.push_back({m, c, inReportOrder(values[c])});
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

Report readCube(const std::string& path) { return readCubeArchive(readRegularFile(path), path); }

}  // namespace waitscope::report
