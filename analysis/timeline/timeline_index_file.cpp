#include "analysis/timeline/timeline_index_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>

#include "analysis/timeline/binary_io.h"
#include "analysis/timeline/clock_corrected_trace.h"
#include "analysis/trace/clock_correction_file.h"

namespace waitscope::timeline {

namespace {

constexpr char kMagic[8] = {'W', 'S', 'T', 'L', 'I', 'D', 'X', '\0'};
constexpr std::uint64_t kEndianTag = 0x0102030405060708ull;
constexpr std::size_t kHeaderBytes = 40;

// A 64-bit hash over 8-byte words (every record of the file is a multiple of 8 bytes).
struct Checksum {
  std::uint64_t h = 0x9E3779B97F4A7C15ull;
  void add(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i + 8 <= bytes; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      h = (h ^ w) * 0x100000001B3ull;
      h ^= h >> 29;
    }
  }
};

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// The index's bytes go to the file, each record a multiple of 8 bytes, and into its checksum.
struct IndexFileSink {
  std::FILE* f;
  const std::string& path;
  Checksum sum;
  std::uint64_t written = 0;
  void operator()(const void* data, std::size_t n) {
    if (n % 8 != 0) throw IndexError(path + ": internal error: unaligned index record");
    if (n != 0 && std::fwrite(data, 1, n, f) != n)
      throw IndexError("cannot write the timeline index " + path + ": " + std::strerror(errno));
    sum.add(data, n);
    written += n;
  }
};
using Writer = BinaryWriter<IndexFileSink>;

// The index file mapped read-only; unmapped when the last index using it goes.
struct Mapping {
  void* address = MAP_FAILED;
  std::size_t length = 0;
  Mapping() = default;
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  ~Mapping() {
    if (address != MAP_FAILED) ::munmap(address, length);
  }
  const unsigned char* bytes() const { return static_cast<const unsigned char*>(address); }
};

template <class T>
void writeList(Writer& w, const IntervalList<T>& list) {
  static_assert(sizeof(T) % 8 == 0);
  w.array(std::span<const T>(list.items()));
}

template <class T>
bool readList(BinaryReader& r, IntervalList<T>& list) {
  std::vector<T> items;
  if (!r.array(items)) return false;
  list.assignSorted(std::move(items));
  return list.isSorted();
}

bool validCallPath(std::uint32_t path, std::size_t count) {
  return path < count || path == kNoId || path == kUnknownCallPath;
}

// Reads the payload after the header; returns a problem phrase or empty.
std::string readPayload(BinaryReader& r, const Fingerprint& expected, TimelineIndex& index, bool& stale) {
  std::uint64_t files = 0;
  if (!r.value(files) || files > 64) return "bad source list";
  Fingerprint stamps(files);
  for (SourceStamp& s : stamps) {
    std::uint64_t mtime = 0;
    if (!r.value(s.size) || !r.value(mtime)) return "truncated source list";
    s.modifiedNs = static_cast<std::int64_t>(mtime);
  }
  if (stamps != expected) {
    stale = true;
    return "the trace or the report changed since it was built";
  }
  if (!r.value(index.begin) || !r.value(index.end)) return "truncated time range";
  std::vector<std::uint64_t> groupWords;
  std::uint64_t groupCount = 0;
  if (!r.value(groupCount) || groupCount > r.left()) return "bad call-path count";
  groupWords.resize((groupCount + 7) / 8);
  if (!r.bytes(groupWords.data(), groupWords.size() * 8)) return "truncated call-path groups";
  index.callPathGroups.resize(groupCount);
  if (groupCount != 0) std::memcpy(index.callPathGroups.data(), groupWords.data(), groupCount);
  for (RegionGroup g : index.callPathGroups)
    if (static_cast<std::size_t>(g) >= kRegionGroupCount) return "bad region group";
  std::uint64_t locations = 0;
  if (!r.value(locations) || locations > r.left() / 8) return "bad location count";
  index.locations.resize(locations);
  for (LocationTimeline& loc : index.locations) {
    std::uint64_t levels = 0;
    if (!r.value(levels) || levels == 0 || levels > 64) return "bad level count";
    loc.levels.resize(levels);
    for (RegionLevel& level : loc.levels) {
      double resolution = 0.0;
      std::span<const RegionPoint> points;
      if (!r.value(resolution) || !r.view(points)) return "truncated region level";
      for (std::size_t i = 0; i < points.size(); ++i) {
        if (!validCallPath(points[i].callPath, groupCount)) return "call path out of range";
        if (i > 0 && !(points[i - 1].start <= points[i].start)) return "region points out of order";
      }
      level = RegionLevel(resolution, points);
    }
    if (!readList(r, loc.sends) || !readList(r, loc.receives) || !readList(r, loc.collectives) ||
        !readList(r, loc.epochs) || !readList(r, loc.outgoing) || !readList(r, loc.incoming) ||
        !readList(r, loc.instances) || !readList(r, loc.path))
      return "truncated or unsorted item list";
  }
  if (r.left() != 0) return "trailing bytes";
  buildListLevels(index);  // derived data: rebuilt on load rather than stored
  return {};
}

}  // namespace

std::vector<std::string> indexSources(const std::string& tracePath, const std::string& reportPath) {
  std::filesystem::path def(tracePath);
  def.replace_extension(".def");
  return {tracePath, def.string(), reportPath};
}

Fingerprint fingerprintOf(const std::vector<std::string>& files) {
  Fingerprint out;
  for (const std::string& f : files) {
    struct stat st {};
    if (::stat(f.c_str(), &st) != 0)
      throw IndexError("cannot read " + f + ": " + std::strerror(errno) + " (check the path)");
    out.push_back({static_cast<std::uint64_t>(st.st_size),
                   static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec});
  }
  return out;
}

std::string defaultIndexPath(const std::string& reportPath) { return reportPath + ".timeline"; }

void writeTimelineIndex(const TimelineIndex& index, const Fingerprint& sources, const std::string& path) {
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  {
    File f(std::fopen(tmp.c_str(), "wb"));
    if (!f) throw IndexError("cannot write the timeline index " + path + ": " + std::strerror(errno));
    try {
      std::uint64_t header[5] = {0, kIndexFormatVersion, kEndianTag, 0, 0};
      std::memcpy(&header[0], kMagic, 8);
      if (std::fwrite(header, 1, sizeof header, f.get()) != sizeof header)
        throw IndexError("cannot write the timeline index " + path + ": " + std::strerror(errno));
      Writer w(IndexFileSink{f.get(), path, {}, 0});
      w.value<std::uint64_t>(sources.size());
      for (const SourceStamp& s : sources) {
        w.value<std::uint64_t>(s.size);
        w.value<std::uint64_t>(static_cast<std::uint64_t>(s.modifiedNs));
      }
      w.value<double>(index.begin);
      w.value<double>(index.end);
      w.value<std::uint64_t>(index.callPathGroups.size());
      std::vector<std::uint64_t> groupWords((index.callPathGroups.size() + 7) / 8, 0);
      if (!groupWords.empty())
        std::memcpy(groupWords.data(), index.callPathGroups.data(), index.callPathGroups.size());
      w.bytes(groupWords.data(), groupWords.size() * 8);
      w.value<std::uint64_t>(index.locations.size());
      for (const LocationTimeline& loc : index.locations) {
        w.value<std::uint64_t>(loc.levels.size());
        for (const RegionLevel& level : loc.levels) {
          w.value<double>(level.resolution);
          w.array(level.points());
        }
        writeList(w, loc.sends);
        writeList(w, loc.receives);
        writeList(w, loc.collectives);
        writeList(w, loc.epochs);
        writeList(w, loc.outgoing);
        writeList(w, loc.incoming);
        writeList(w, loc.instances);
        writeList(w, loc.path);
      }
      header[3] = w.sink().written;
      header[4] = w.sink().sum.h;
      if (std::fseek(f.get(), 0, SEEK_SET) != 0 || std::fwrite(header, 1, sizeof header, f.get()) != sizeof header ||
          std::fflush(f.get()) != 0)
        throw IndexError("cannot write the timeline index " + path + ": " + std::strerror(errno));
    } catch (...) {
      std::remove(tmp.c_str());
      throw;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    throw IndexError("cannot write the timeline index " + path + ": " + why);
  }
}

LoadedIndex loadTimelineIndex(const std::string& path, const Fingerprint& expected) {
  LoadedIndex out;
  // O_NONBLOCK: a FIFO in the index's place must not block the open; only a regular file is read.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    out.problem = "no index file";
    return out;
  }
  const auto fail = [&](IndexLoad status, std::string problem) {
    out.status = status;
    out.problem = std::move(problem);
    out.index = {};
    return std::move(out);
  };
  struct stat st {};
  auto mapping = std::make_shared<Mapping>();
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return fail(IndexLoad::Corrupt, "not a regular file");
  }
  if (static_cast<std::uint64_t>(st.st_size) >= kHeaderBytes) {
    mapping->length = static_cast<std::size_t>(st.st_size);
    mapping->address = ::mmap(nullptr, mapping->length, PROT_READ, MAP_PRIVATE, fd, 0);
  }
  ::close(fd);
  if (mapping->address == MAP_FAILED) return fail(IndexLoad::Corrupt, "truncated header");
  std::uint64_t header[5] = {};
  std::memcpy(header, mapping->bytes(), sizeof header);
  if (std::memcmp(&header[0], kMagic, 8) != 0) return fail(IndexLoad::Corrupt, "not a timeline index");
  if (header[2] != kEndianTag) return fail(IndexLoad::Stale, "written on a machine of other byte order");
  if (header[1] != kIndexFormatVersion)
    return fail(IndexLoad::Stale, "format version " + std::to_string(header[1]) + ", this program reads " +
                                      std::to_string(kIndexFormatVersion));
  if (mapping->length != kHeaderBytes + header[3])
    return fail(IndexLoad::Corrupt, "file size does not match its header (truncated?)");
  const unsigned char* payload = mapping->bytes() + kHeaderBytes;
  BinaryReader r(payload, header[3]);
  bool stale = false;
  std::string problem = readPayload(r, expected, out.index, stale);
  if (stale) return fail(IndexLoad::Stale, problem);
  if (problem.empty()) {
    Checksum sum;
    sum.add(payload, header[3]);
    if (sum.h != header[4]) problem = "checksum mismatch";
  }
  if (!problem.empty()) return fail(IndexLoad::Corrupt, problem);
  // Checked: let the kernel drop the pages again; queries fault in only what they read.
  ::madvise(mapping->address, mapping->length, MADV_DONTNEED);
  out.index.storage = std::move(mapping);
  out.status = IndexLoad::Loaded;
  return out;
}

OpenedIndex openTimelineIndex(const std::string& tracePath, const std::string& reportPath,
                              const report::Report& report, const std::function<void(const std::string&)>& note,
                              const std::string& indexPath) {
  const std::string path = indexPath.empty() ? defaultIndexPath(reportPath) : indexPath;
  Fingerprint sources = fingerprintOf(indexSources(tracePath, reportPath));
  // A corrected report's index depends on its clock-correction file too (stamp 0 while it is
  // missing), so an index of recorded times is rebuilt once the file is back.
  std::string clockWarning;
  const std::optional<std::vector<trace::LocationClockCorrection>> corrections =
      reportClockCorrections(reportPath, report, [&](const std::string& line) {
        clockWarning = line;
        if (note) note(line);
      });
  if (!report.metaValue("time_correction").empty()) {
    const std::string side = trace::clockCorrectionPath(reportPath);
    sources.push_back(std::filesystem::exists(side) ? fingerprintOf({side}).front() : SourceStamp{});
  }
  LoadedIndex loaded = loadTimelineIndex(path, sources);
  if (loaded.status == IndexLoad::Loaded && loaded.index.locations.size() == report.locations.size() &&
      loaded.index.callPathGroups.size() == report.callPaths.size())
    return {std::move(loaded.index), false, clockWarning};
  if (loaded.status == IndexLoad::Loaded) loaded.problem = "it does not fit the report";
  if (loaded.status != IndexLoad::Missing && note)
    note("rebuilding the timeline index " + path + ": " + loaded.problem);
  OpenedIndex out{buildTimelineIndex(tracePath, report, corrections ? &*corrections : nullptr), true, clockWarning};
  try {
    writeTimelineIndex(out.index, sources, path);
  } catch (const IndexError& e) {
    if (note) note(std::string(e.what()) + " (the index is kept in memory only; it is rebuilt next time)");
  }
  return out;
}

}  // namespace waitscope::timeline
