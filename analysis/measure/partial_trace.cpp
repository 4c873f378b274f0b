// Definition logs of the recording ranks and the completion of an aborted run's trace
// (see partial_trace.h).
#include "analysis/measure/partial_trace.h"

#include "analysis/measure/otf2_write_error.h"

#include <sys/statvfs.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

namespace fs = std::filesystem;

namespace waitscope::measure::partial {

std::string logDir(const std::string& traceDir) { return traceDir + "/traces.partial"; }
std::string logPath(const std::string& traceDir, int rank) {
  return logDir(traceDir) + "/" + std::to_string(rank) + ".log";
}

std::string record(Tag tag, const Blob& payload) {
  Blob r;
  r.data.push_back(static_cast<char>(tag));
  r.u64(payload.data.size());
  r.data += payload.data;
  return std::move(r.data);
}

Blob headerPayload(int rank, int size, const std::string& host, std::uint64_t start) {
  Blob b;
  b.u64(static_cast<std::uint64_t>(rank));
  b.u64(static_cast<std::uint64_t>(size));
  b.str(host);
  b.u64(start);
  return b;
}
Blob regionPayload(const UserRegionDef& r) {
  Blob b;
  b.str(r.name);
  b.str(r.file);
  b.u64(r.line);
  b.u64(r.compiler);
  return b;
}
Blob sourcePayload(const std::string& file, std::uint32_t line) {
  Blob b;
  b.str(file);
  b.u64(line);
  return b;
}
Blob groupPayload(const std::vector<std::uint64_t>& members) {
  Blob b;
  b.vec(members);
  return b;
}
Blob commPayload(const CommDef& c) {
  Blob b;
  b.u64(c.key);
  b.str(c.creator);
  b.u64(c.parent == OTF2_UNDEFINED_COMM ? ~0ULL : c.parent);
  b.vec(c.members);
  b.vec(c.remoteMembers);
  return b;
}
Blob winPayload(const WinDef& w) {
  Blob b;
  b.u64(w.key);
  b.u64(w.comm);
  b.str(w.name);
  return b;
}

std::size_t endRecord(char* buf, std::size_t size, std::uint64_t events, std::uint64_t end, const char* reason) {
  const std::uint64_t reasonLength = std::strlen(reason);
  const std::uint64_t payload = 8 + 8 + 8 + reasonLength;
  const std::size_t total = 1 + 8 + payload;
  if (total > size) return 0;
  char* p = buf;
  *p++ = static_cast<char>(kEnd);
  for (std::uint64_t v : {payload, events, end, reasonLength}) {
    std::memcpy(p, &v, 8);
    p += 8;
  }
  std::memcpy(p, reason, reasonLength);
  return total;
}

namespace {

OTF2_FlushType preFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_TimeStamp postFlush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }
const OTF2_FlushCallbacks kFlush = {preFlush, postFlush};

struct RankLog {
  bool header = false, ended = false;
  int rank = -1, size = 0;
  std::string host;
  std::uint64_t start = 0, events = 0, end = 0;
  std::string reason;
  LocalDefinitions defs;
};

// Reads one log; a record cut short at the end (the process died while writing it) is dropped.
RankLog readLog(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  RankLog log;
  log.defs.comms.resize(2);
  std::size_t pos = 0;
  while (pos + 9 <= data.size()) {
    const char tag = data[pos];
    std::uint64_t length = 0;
    std::memcpy(&length, data.data() + pos + 1, 8);
    if (length > data.size() - pos - 9) break;
    // Payloads are the encoder's own; a copy with padding guards the reader against a torn tail.
    const std::string payload = data.substr(pos + 9, length) + std::string(64, '\0');
    pos += 9 + length;
    BlobReader r{payload.data()};
    switch (tag) {
      case kHeader:
        log.header = true;
        log.rank = static_cast<int>(r.u64());
        log.size = static_cast<int>(r.u64());
        log.host = r.str();
        log.start = r.u64();
        break;
      case kRegion: {
        UserRegionDef d;
        d.name = r.str();
        d.file = r.str();
        d.line = static_cast<std::uint32_t>(r.u64());
        d.compiler = r.u64() != 0;
        log.defs.userRegions.push_back(std::move(d));
        break;
      }
      case kSource: {
        std::string file = r.str();
        const auto line = static_cast<std::uint32_t>(r.u64());
        log.defs.sourceLocations.emplace_back(std::move(file), line);
        break;
      }
      case kGroup:
        log.defs.groups.push_back(r.vec());
        break;
      case kComm: {
        CommDef c;
        c.key = r.u64();
        c.creator = r.str();
        const std::uint64_t parent = r.u64();
        c.parent = parent == ~0ULL ? OTF2_UNDEFINED_COMM : static_cast<OTF2_CommRef>(parent);
        c.members = r.vec();
        c.remoteMembers = r.vec();
        log.defs.comms.push_back(std::move(c));
        break;
      }
      case kWin: {
        WinDef w;
        w.key = r.u64();
        w.comm = static_cast<OTF2_CommRef>(r.u64());
        w.name = r.str();
        log.defs.wins.push_back(std::move(w));
        break;
      }
      case kEnd: {
        log.ended = true;
        log.events = r.u64();
        log.end = r.u64();
        const std::uint64_t n = r.u64();
        log.reason.assign(payload.data() + 24, std::min<std::uint64_t>(n, length - 24));
        break;
      }
      default:
        pos = data.size();  // unknown: stop
    }
  }
  return log;
}

}  // namespace

std::string failedMarkerPath(const std::string& traceDir) { return traceDir + "/traces.failed"; }

std::string failedReason(const std::string& traceDir) {
  std::error_code ec;
  const std::string marker = failedMarkerPath(traceDir);
  if (!fs::is_regular_file(marker, ec)) return {};
  std::ifstream in(marker);
  std::string line;
  std::getline(in, line);
  if (!line.empty()) return line;
  // The marker could not take its line either: a full file system, most likely.
  struct statvfs fs {};
  if (statvfs(traceDir.c_str(), &fs) == 0 && fs.f_bavail == 0) return std::strerror(ENOSPC);
  return "a write failed";
}

void removeTraceFiles(const std::string& traceDir, bool keepMarker) {
  std::error_code ignored;
  fs::remove(traceDir + "/traces.otf2", ignored);
  fs::remove(traceDir + "/traces.def", ignored);
  fs::remove_all(traceDir + "/traces", ignored);
  fs::remove_all(logDir(traceDir), ignored);
  if (!keepMarker) fs::remove(failedMarkerPath(traceDir), ignored);
}

bool hasLogs(const std::string& traceDir) {
  std::error_code ec;
  return fs::exists(logPath(traceDir, 0), ec);
}

Completed completeTrace(const std::string& traceDir) {
  const RankLog first = readLog(logPath(traceDir, 0));
  if (!first.header || first.size < 1)
    throw std::runtime_error(logPath(traceDir, 0) + ": no usable definition log; the trace cannot be completed");
  const int n = first.size;
  std::vector<RankLog> logs;
  for (int r = 0; r < n; ++r) {
    RankLog log = r == 0 ? first : readLog(logPath(traceDir, r));
    if (!log.header) {  // the rank never got as far as writing its log: it has no events
      log.rank = r;
      log.host = first.host;
      log.start = first.start;
    }
    logs.push_back(std::move(log));
  }

  Completed done;
  done.ranks = n;
  std::map<std::string, std::set<int>> reasons;  // reason -> ranks
  Global gl;
  std::vector<Blob> maps;
  std::vector<std::uint64_t> events(static_cast<std::size_t>(n));
  std::vector<std::string> hosts;
  std::uint64_t minStart = std::numeric_limits<std::uint64_t>::max(), maxEnd = 0;
  const fs::path evtDir = fs::path(traceDir) / "traces";
  for (int r = 0; r < n; ++r) {
    RankLog& log = logs[static_cast<std::size_t>(r)];
    maps.push_back(unify(gl, encodeLocalDefinitions(log.defs).data.data()));
    hosts.push_back(log.host);
    minStart = std::min(minStart, log.start);
    maxEnd = std::max({maxEnd, log.start, log.end});
    if (log.ended) {
      events[static_cast<std::size_t>(r)] = log.events;
      reasons[log.reason].insert(r);
    } else {
      // Killed before it could flush (SIGKILL): the chunks it wrote earlier end in the middle
      // of its run and are not announced; they are kept aside, not read.
      done.ranksWithoutEvents.push_back(r);
      std::error_code ec;
      const fs::path evt = evtDir / (std::to_string(r) + ".evt");
      if (fs::exists(evt, ec)) fs::rename(evt, evtDir / (std::to_string(r) + ".evt.unannounced"), ec);
    }
  }
  for (const auto& [reason, ranks] : reasons) {
    if (!done.reason.empty()) done.reason += "; ";
    done.reason += (ranks.size() == 1 ? "rank " : "ranks ");
    bool firstRank = true;
    for (int r : ranks) done.reason += (firstRank ? "" : ",") + std::to_string(r), firstRank = false;
    done.reason += ": " + reason;
  }
  if (!done.ranksWithoutEvents.empty()) {
    if (!done.reason.empty()) done.reason += "; ";
    done.reason += std::to_string(done.ranksWithoutEvents.size()) + " rank(s) killed before flushing their events";
  }
  if (done.reason.empty()) done.reason = "the run ended before MPI_Finalize";

  // OTF2 creates DIR/traces itself and refuses an existing one: the event files wait aside.
  const fs::path aside = fs::path(logDir(traceDir)) / "events";
  std::error_code ec;
  fs::remove_all(aside, ec);
  if (fs::exists(evtDir, ec)) {
    fs::rename(evtDir, aside, ec);
    if (ec) throw std::runtime_error(evtDir.string() + ": cannot move the event files aside: " + ec.message());
  }
  // OTF2's messages are kept off stderr: a failure (a full disk) is said once. It is noted
  // through the callback, as OTF2_Archive_Close can succeed for an anchor it could not write.
  int failure = 0;
  struct Restore {
    OTF2_ErrorCallback callback;
    ~Restore() { OTF2_Error_RegisterCallback(callback, nullptr); }
  } restore{OTF2_Error_RegisterCallback(noteWriteError, &failure)};
  OTF2_Archive* archive = OTF2_Archive_Open(traceDir.c_str(), "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
                                            OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT, OTF2_SUBSTRATE_POSIX,
                                            OTF2_COMPRESSION_NONE);
  if (!archive) throw std::runtime_error(traceDir + ": cannot open the OTF2 archive to complete it");
  OTF2_Archive_SetSerialCollectiveCallbacks(archive);
  OTF2_Archive_SetFlushCallbacks(archive, &kFlush, nullptr);
  OTF2_Archive_SetCreator(archive, "waitscope-measure");
  OTF2_Archive_SetProperty(archive, kProperty, done.reason.c_str(), true);
  // Ranks without events get an empty event file, so that the archive is complete.
  if (!done.ranksWithoutEvents.empty()) {
    OTF2_Archive_OpenEvtFiles(archive);
    for (int r : done.ranksWithoutEvents) {
      OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive, static_cast<OTF2_LocationRef>(r));
      if (w) OTF2_Archive_CloseEvtWriter(archive, w);
    }
    OTF2_Archive_CloseEvtFiles(archive);
  }
  OTF2_Archive_OpenDefFiles(archive);
  for (int r = 0; r < n; ++r) {
    OTF2_DefWriter* dw = OTF2_Archive_GetDefWriter(archive, static_cast<OTF2_LocationRef>(r));
    writeMappings(dw, maps[static_cast<std::size_t>(r)].data.data());
    OTF2_Archive_CloseDefWriter(archive, dw);
  }
  OTF2_Archive_CloseDefFiles(archive);
  writeGlobalDefinitions(archive, gl, events, hosts, minStart, maxEnd - minStart);
  if (OTF2_Archive_Close(archive) != OTF2_SUCCESS && failure == 0) failure = OTF2_ERROR_PROCESSED_WITH_FAULTS;
  if (failure != 0) {
    // Back to how the run left it (logs and event files), so that it can be completed once
    // there is space.
    fs::remove(traceDir + "/traces.otf2", ec);
    fs::remove(traceDir + "/traces.def", ec);
    fs::remove_all(evtDir, ec);
    if (fs::is_directory(aside, ec)) fs::rename(aside, evtDir, ec);
    throw std::runtime_error(traceDir + ": cannot complete the trace (" + describeWriteError(failure) +
                             "); free space there, then run waitscope-run --complete " + traceDir);
  }
  fs::create_directories(evtDir, ec);
  if (fs::is_directory(aside, ec))
    for (const auto& e : fs::directory_iterator(aside, ec)) {
      const fs::path to = evtDir / e.path().filename();
      if (fs::exists(to)) continue;  // OTF2's own (the empty event file of a rank without events)
      fs::rename(e.path(), to, ec);
      if (ec) throw std::runtime_error(to.string() + ": cannot move the event file back: " + ec.message());
    }
  fs::remove_all(logDir(traceDir), ec);
  return done;
}

}  // namespace waitscope::measure::partial
