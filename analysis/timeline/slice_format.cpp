#include "analysis/timeline/slice_format.h"

#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "analysis/report/text_output.h"
#include "analysis/timeline/binary_io.h"

namespace waitscope::timeline {

namespace {

constexpr char kSliceMagic[8] = {'W', 'S', 'T', 'L', 'S', 'L', 'C', '\0'};

constexpr std::string_view kCollectiveOpNames[] = {
    "barrier", "bcast", "gather", "gatherv", "scatter", "scatterv", "allgather", "allgatherv", "alltoall",
    "alltoallv", "alltoallw", "allreduce", "reduce", "reduce_scatter", "scan", "exscan", "reduce_scatter_block",
    "create_handle", "destroy_handle", "allocate", "deallocate", "create_handle_and_allocate",
    "destroy_handle_and_deallocate"};

std::string_view collectiveOpName(std::uint8_t op) {
  return op < std::size(kCollectiveOpNames) ? kCollectiveOpNames[op] : std::string_view("other");
}

// The slice's JSON layout; numbers and strings as every report command writes them (text_output.h).
class Json {
 public:
  explicit Json(std::ostream& out) : out_(out) {}
  Json& key(std::string_view k) {
    out_ << (first_ ? "" : ",") << '"' << k << "\":";
    first_ = false;
    return *this;
  }
  Json& num(double v) {
    out_ << report::exactNumber(v);
    return *this;
  }
  Json& id(std::uint32_t v) {
    if (v == kNoId)
      out_ << "null";
    else
      out_ << v;
    return *this;
  }
  Json& count(std::uint64_t v) {
    out_ << v;
    return *this;
  }
  Json& str(std::string_view s) {
    out_ << report::jsonString(s);
    return *this;
  }
  void open(char c) {
    out_ << c;
    first_ = true;
  }
  void close(char c) {
    out_ << c;
    first_ = false;
  }
  void separator(bool& firstItem) {
    if (!firstItem) out_ << ',';
    firstItem = false;
  }
  std::ostream& out() { return out_; }

 private:
  std::ostream& out_;
  bool first_ = true;
};

template <class T, class Fields>
void jsonArray(Json& j, std::string_view name, const std::vector<T>& items, Fields&& fields) {
  j.key(name);
  j.open('[');
  bool firstItem = true;
  for (const T& item : items) {
    j.separator(firstItem);
    j.open('{');
    j.key("start").num(item.start).key("end").num(item.end);
    fields(item);
    j.close('}');
  }
  j.close(']');
}

// The slice reader's reads, each throwing SliceFormatError naming what was cut short.
template <class T>
T take(BinaryReader& r, const char* what) {
  T v{};
  if (!r.value(v)) throw SliceFormatError(std::string("slice: truncated ") + what);
  return v;
}
template <class T>
void takeArray(BinaryReader& r, std::vector<T>& items, const char* what) {
  if (!r.array(items)) throw SliceFormatError(std::string("slice: truncated ") + what);
}

}  // namespace

void writeSliceJson(const Slice& slice, std::ostream& out) {
  Json j(out);
  j.open('{');
  j.key("format").str("waitscope-timeline-slice").key("version").count(kSliceFormatVersion);
  j.key("from").num(slice.from).key("to").num(slice.to).key("width").count(slice.width);
  j.key("locations");
  j.open('[');
  bool firstLocation = true;
  for (const LocationSlice& l : slice.locations) {
    j.separator(firstLocation);
    j.open('{');
    j.key("location").id(l.location);
    jsonArray(j, "regions", l.regions, [&](const RegionSpan& s) {
      j.key("call_path").id(s.callPath).key("merged").count(s.merged).key("group").str(name(s.group));
    });
    jsonArray(j, "messages", l.messages, [&](const Message& m) {
      j.key("sender").id(m.sender).key("receiver").id(m.receiver).key("tag").count(m.tag).key("comm").id(m.comm);
      j.key("bytes").count(m.bytes).key("count").count(m.count);
    });
    jsonArray(j, "collectives", l.collectives, [&](const Collective& c) {
      j.key("op").str(collectiveOpName(c.op)).key("comm").id(c.comm).key("root").id(c.root);
      j.key("sequence").count(c.sequence).key("bytes").count(c.bytes).key("count").count(c.count);
    });
    jsonArray(j, "epochs", l.epochs, [&](const Epoch& e) {
      j.key("kind").str(name(e.kind)).key("window").id(e.window).key("peer").id(e.peer);
      if (e.kind == EpochKind::Lock || e.kind == EpochKind::LockAll)
        j.key("lock").str(e.lockType == 0 ? "exclusive" : "shared");
    });
    jsonArray(j, "transfers", l.transfers, [&](const Transfer& t) {
      j.key("kind").str(name(t.kind)).key("origin").id(t.origin).key("target").id(t.target);
      j.key("window").id(t.window).key("bytes").count(t.bytes).key("count").count(t.count);
    });
    jsonArray(j, "instances", l.instances, [&](const InstanceMark& i) {
      j.key("metric").id(i.metric).key("call_path").id(i.callPath).key("cause").id(i.cause);
      j.key("count").count(i.count);
    });
    jsonArray(j, "critical_path", l.path, [&](const PathMark& p) {
      j.key("call_path").id(p.callPath).key("order").count(p.order);
    });
    j.close('}');
  }
  j.close(']');
  j.close('}');
  out << '\n';
}

void writeSliceBinary(const Slice& slice, std::ostream& out) {
  BinaryWriter w([&out](const void* data, std::size_t n) {
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
  });
  w.bytes(kSliceMagic, 8);
  w.value<std::uint64_t>(kSliceFormatVersion);
  w.value<std::uint64_t>(slice.locations.size());
  w.value<double>(slice.from);
  w.value<double>(slice.to);
  w.value<std::uint64_t>(slice.width);
  for (const LocationSlice& l : slice.locations) {
    w.value<std::uint64_t>(l.location);
    w.array(std::span<const RegionSpan>(l.regions));
    w.array(std::span<const Message>(l.messages));
    w.array(std::span<const Collective>(l.collectives));
    w.array(std::span<const Epoch>(l.epochs));
    w.array(std::span<const Transfer>(l.transfers));
    w.array(std::span<const InstanceMark>(l.instances));
    w.array(std::span<const PathMark>(l.path));
  }
}

Slice parseBinarySlice(std::string_view data) {
  BinaryReader r(data.data(), data.size());
  char magic[8];
  if (!r.bytes(magic, 8)) throw SliceFormatError("slice: truncated header");
  if (std::memcmp(magic, kSliceMagic, 8) != 0) throw SliceFormatError("slice: not a binary timeline slice");
  if (take<std::uint64_t>(r, "header") != kSliceFormatVersion)
    throw SliceFormatError("slice: unknown format version (update waitscope on both machines)");
  const auto count = take<std::uint64_t>(r, "header");
  Slice s;
  s.from = take<double>(r, "header");
  s.to = take<double>(r, "header");
  s.width = static_cast<std::uint32_t>(take<std::uint64_t>(r, "header"));
  if (count > data.size() / 64) throw SliceFormatError("slice: bad location count");
  s.locations.resize(count);
  for (LocationSlice& l : s.locations) {
    l.location = static_cast<std::uint32_t>(take<std::uint64_t>(r, "location"));
    takeArray(r, l.regions, "regions");
    takeArray(r, l.messages, "messages");
    takeArray(r, l.collectives, "collectives");
    takeArray(r, l.epochs, "epochs");
    takeArray(r, l.transfers, "transfers");
    takeArray(r, l.instances, "instances");
    takeArray(r, l.path, "critical path");
    for (const RegionSpan& span : l.regions)
      if (static_cast<std::size_t>(span.group) >= kRegionGroupCount) throw SliceFormatError("slice: bad region group");
    for (const Epoch& e : l.epochs)
      if (e.kind > EpochKind::LockAll) throw SliceFormatError("slice: bad epoch kind");
    for (const Transfer& t : l.transfers)
      if (t.kind > TransferKind::Atomic) throw SliceFormatError("slice: bad transfer kind");
  }
  if (r.left() != 0) throw SliceFormatError("slice: trailing bytes");
  return s;
}

}  // namespace waitscope::timeline
