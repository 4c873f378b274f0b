// libwaitscope-measure: measurement life cycle, OTF2 archive (streaming, bounded buffer),
// call sites and user regions (libdw), and unification of the rank-local definitions at
// MPI_Finalize into Score-P-like global definitions.
#include "analysis/measure/measure_internal.h"
#include "analysis/measure/online_runtime.h"
#include "analysis/measure/otf2_write_error.h"
#include "analysis/measure/partial_trace.h"
#include "analysis/measure/profile_runtime.h"
#include "analysis/measure/unrecorded_calls.h"
#include "analysis/measure/waitscope.h"
#include "analysis/online/online_config.h"
#include "analysis/report/timestamped_name.h"

#define OTF2_MPI_USE_PMPI
#include <otf2/OTF2_MPI_Collectives.h>

#include <cxxabi.h>
#include <dlfcn.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <link.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <mutex>
#include <string_view>

namespace waitscope::measure {

RecorderState recorder;
[[gnu::tls_model("initial-exec")]] thread_local bool tMainThread = false;

namespace {


// ---------------------------------------------------------------------------------------------
// Bounded event buffer: a pool of WAITSCOPE_BUFFER_MB MiB in 256-KiB chunks. When the pool is empty
// OTF2 flushes the buffer to disk and releases its chunks (free_all), then asks again. Small
// chunks: at MPI_Finalize OTF2 clears the rest of the last chunk, i.e. faults its fresh pages in
// (a 1-MiB chunk cost ~1 ms there).
constexpr std::uint64_t kChunk = OTF2_CHUNK_SIZE_MIN;
constexpr std::uint64_t kChunksPerMb = (1024 * 1024) / kChunk;
std::vector<void*> gFreeChunks;
struct BufferChunks {
  std::vector<void*> chunks;
};

void* poolAllocate(void*, OTF2_FileType type, OTF2_LocationRef, void** perBuffer, std::uint64_t size) {
  if (!*perBuffer) *perBuffer = new BufferChunks;
  auto* mine = static_cast<BufferChunks*>(*perBuffer);
  void* chunk = nullptr;
  if (type != OTF2_FILETYPE_EVENTS || size != kChunk) {
    chunk = std::malloc(size);  // definitions: written once at finalize, not bounded
  } else if (!gFreeChunks.empty()) {
    chunk = gFreeChunks.back();
    gFreeChunks.pop_back();
  } else {
    return nullptr;  // pool exhausted: OTF2 flushes
  }
  mine->chunks.push_back(chunk);
  return chunk;
}

void poolFreeAll(void*, OTF2_FileType type, OTF2_LocationRef, void** perBuffer, bool final) {
  auto* mine = static_cast<BufferChunks*>(*perBuffer);
  if (!mine) return;
  for (void* c : mine->chunks) {
    if (type == OTF2_FILETYPE_EVENTS) gFreeChunks.push_back(c);
    else std::free(c);
  }
  mine->chunks.clear();
  if (final) {
    delete mine;
    *perBuffer = nullptr;
  }
}

OTF2_FlushType preFlush(void*, OTF2_FileType type, OTF2_LocationRef, void*, bool final) {
  if (type == OTF2_FILETYPE_EVENTS && !final) recorder.flushStart = now();
  return OTF2_FLUSH;
}

OTF2_TimeStamp postFlush(void*, OTF2_FileType type, OTF2_LocationRef) {
  const std::uint64_t t = now();
  if (type == OTF2_FILETYPE_EVENTS && recorder.flushStart != 0) {
    recorder.flushEnd = t;
    recorder.flushPending = true;
  }
  return t;
}

OTF2_FlushCallbacks gFlushCallbacks = {preFlush, postFlush};
OTF2_MemoryCallbacks gMemoryCallbacks = {poolAllocate, poolFreeAll};

// Leaves DIR/traces.failed with its reason; only open/write/close (the abort path may be a signal handler).
void writeFailedMarker(const char* reason) {
  const int fd = open(recorder.failedMarker, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);  // an inode: fits a full disk
  if (fd < 0) return;
  if (write(fd, reason, std::strlen(reason)) < 0 || write(fd, "\n", 1) < 0) { /* the empty marker still says it */ }
  close(fd);
}

// ---------------------------------------------------------------------------------------------
// Symbols and source lines (libdw), resolved once per address. Only the objects that hold an
// address asked about are reported to libdw (the program, rarely a library), not every mapping
// of the process: dwfl_linux_proc_report read ~40 ELF files at the first call site (~1.5 ms).
Dwfl* gDwfl = nullptr;
char* gDebugInfoPath = nullptr;
Dwfl_Callbacks gDwflCallbacks = {dwfl_linux_proc_find_elf, dwfl_standard_find_debuginfo, nullptr, &gDebugInfoPath};

Dwfl_Module* moduleOf(std::uintptr_t address) {
  if (!gDwfl && !(gDwfl = dwfl_begin(&gDwflCallbacks))) return nullptr;
  if (Dwfl_Module* m = dwfl_addrmodule(gDwfl, address)) return m;
  Dl_info info;
  link_map* object = nullptr;
  if (!dladdr1(reinterpret_cast<void*>(address), &info, reinterpret_cast<void**>(&object), RTLD_DL_LINKMAP) ||
      !object)
    return nullptr;
  // The program's own link map has no name; its real path lets libdw find separate debug info.
  std::string path;
  if (object->l_name && *object->l_name) {
    path = object->l_name;
  } else {
    char exe[4096];
    const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    path = len > 0 ? std::string(exe, static_cast<std::size_t>(len)) : "/proc/self/exe";
  }
  dwfl_report_begin_add(gDwfl);
  // add_p_vaddr: l_addr is the load bias, as /proc/PID/maps reporting computes it.
  dwfl_report_elf(gDwfl, path.c_str(), path.c_str(), -1, object->l_addr, true);
  dwfl_report_end(gDwfl, nullptr, nullptr);
  return dwfl_addrmodule(gDwfl, address);
}

bool sourceLine(std::uintptr_t address, std::string& file, std::uint32_t& line) {
  Dwfl_Module* module = moduleOf(address);
  if (!module) return false;
  Dwfl_Line* l = dwfl_module_getsrc(module, address);
  if (!l) return false;
  int lineNo = 0;
  const char* src = dwfl_lineinfo(l, nullptr, &lineNo, nullptr, nullptr, nullptr);
  if (!src || lineNo <= 0) return false;
  file = src;
  line = static_cast<std::uint32_t>(lineNo);
  return true;
}

std::string demangle(const char* name) {
  int status = 0;
  char* out = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || !out) return name;
  std::string result(out);
  std::free(out);
  return result;
}

std::string functionName(std::uintptr_t address) {
  if (Dwfl_Module* module = moduleOf(address)) {
    if (const char* name = dwfl_module_addrname(module, address)) return demangle(name);
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%zx", static_cast<std::size_t>(address));
  return buf;
}

bool filtered(const std::string& name) {
  for (const std::string& f : recorder.filters)
    if (fnmatch(f.c_str(), name.c_str(), 0) == 0) return true;
  return false;
}

void loadFilter() {
  const char* path = std::getenv("WAITSCOPE_FILTER");
  if (!path || !*path) return;
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "waitscope: cannot read filter file %s (WAITSCOPE_FILTER): %s\n", path, std::strerror(errno));
    return;
  }
  std::string line;
  while (std::getline(in, line)) {
    const auto begin = line.find_first_not_of(" \t\r");
    if (begin == std::string::npos || line[begin] == '#') continue;
    const auto end = line.find_last_not_of(" \t\r");
    recorder.filters.push_back(line.substr(begin, end - begin + 1));
  }
}

// ---------------------------------------------------------------------------------------------
// User regions. Before MPI_Init (and before the writer exists) events are kept in a small buffer.
struct EarlyEvent {
  bool enter;
  std::uint64_t time;
  OTF2_RegionRef region;
};
std::vector<EarlyEvent> gEarly;
constexpr std::size_t kMaxEarly = 4096;
bool gFinished = false;

constexpr std::size_t kMaxDepth = 1024;
OTF2_RegionRef gStack[kMaxDepth];
std::size_t gDepth = 0;

std::unordered_map<std::uintptr_t, OTF2_RegionRef> gFunctionRegions;
std::unordered_map<std::string, OTF2_RegionRef> gNamedRegions;
std::unordered_map<const char*, OTF2_RegionRef> gNamedRegionsByPointer;
std::mutex gInitMutex;

OTF2_RegionRef newUserRegion(UserRegionDef def) {
  if (filtered(def.name)) return kFilteredRegion;
  logDefinition(partial::record(partial::kRegion, partial::regionPayload(def)));
  recorder.userRegions.push_back(std::move(def));
  return kFirstUserRegion + static_cast<OTF2_RegionRef>(recorder.userRegions.size() - 1);
}

OTF2_RegionRef functionRegion(void* fn) {
  const auto address = reinterpret_cast<std::uintptr_t>(fn);
  auto it = gFunctionRegions.find(address);
  if (it != gFunctionRegions.end()) return it->second;
  UserRegionDef def;
  def.name = functionName(address);
  sourceLine(address, def.file, def.line);
  const OTF2_RegionRef id = newUserRegion(std::move(def));
  gFunctionRegions.emplace(address, id);
  return id;
}

OTF2_RegionRef namedRegion(const char* name) {
  auto it = gNamedRegionsByPointer.find(name);
  if (it != gNamedRegionsByPointer.end()) return it->second;
  auto byName = gNamedRegions.find(name);
  OTF2_RegionRef id;
  if (byName != gNamedRegions.end()) {
    id = byName->second;
  } else {
    UserRegionDef def;
    def.name = name;
    def.compiler = false;
    id = newUserRegion(std::move(def));
    gNamedRegions.emplace(name, id);
  }
  gNamedRegionsByPointer.emplace(name, id);
  return id;
}

bool userEventsWanted(bool enter) {
  // The main thread only: before MPI_Init we cannot know it, so the first thread that records is it.
  if (gFinished) return false;
  if (recorder.recording || recorder.profiling) return tMainThread;
  return !recorder.archive && (!enter || gEarly.size() < kMaxEarly) && (tMainThread || gEarly.empty());
}

void userEnter(OTF2_RegionRef region) {
  if (region == kFilteredRegion) return;
  if (gDepth < kMaxDepth) gStack[gDepth] = region;
  ++gDepth;
  if (recorder.profiling) {
    profile::enterUser(region);
  } else if (recorder.recording) {
    boundary();
    OTF2_EvtWriter_Enter(recorder.evt, nullptr, stamp(), region);
  } else {
    tMainThread = true;
    gEarly.push_back({true, now(), region});
  }
}

void userLeave(OTF2_RegionRef region) {
  if (region == kFilteredRegion || gDepth == 0) return;
  --gDepth;
  if (recorder.profiling) {
    profile::leaveUser();
  } else if (recorder.recording) {
    boundary();
    OTF2_EvtWriter_Leave(recorder.evt, nullptr, stamp(), region);
  } else {
    gEarly.push_back({false, now(), region});
  }
}

// ---------------------------------------------------------------------------------------------
// Abnormal ends: flush what is buffered so the events reach the disk.
// What was installed before us (Open MPI's backtrace printer, the program's own handler): after
// the trace is flushed it gets the signal, or the default action ends the process.
struct sigaction gPreviousAction[NSIG];

void onFatalSignal(int sig) {
  const char* why = "a fatal signal";
  switch (sig) {
    case SIGTERM: why = "SIGTERM (terminated)"; break;
    case SIGINT: why = "SIGINT (interrupted)"; break;
    case SIGABRT: why = "SIGABRT (aborted)"; break;
    case SIGSEGV: why = "SIGSEGV (crashed)"; break;
    case SIGBUS: why = "SIGBUS (crashed)"; break;
    case SIGFPE: why = "SIGFPE (crashed)"; break;
    case SIGILL: why = "SIGILL (crashed)"; break;
    default: break;
  }
  abortMeasurement(why);
  sigaction(sig, &gPreviousAction[sig], nullptr);
  raise(sig);
}


bool makeDirs(const std::string& path) {
  std::string cur;
  for (std::size_t i = 0; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      if (!cur.empty() && mkdir(cur.c_str(), 0777) != 0 && errno != EEXIST) return false;
    }
    if (i < path.size()) cur += path[i];
  }
  return access(path.c_str(), W_OK) == 0;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
void logDefinition(const std::string& record) {
  if (recorder.logFd < 0) return;
  for (std::size_t done = 0; done < record.size();) {
    const ssize_t n = write(recorder.logFd, record.data() + done, record.size() - done);
    if (n <= 0 && errno != EINTR) return;
    if (n > 0) done += static_cast<std::size_t>(n);
  }
}

void writeFlushRegion() {
  recorder.flushPending = false;
  // Records of the same MPI call written after the flush (e.g. MPI_COLLECTIVE_END) may carry
  // later times than the flush: OTF2 refuses a time earlier than the last one written, and
  // recorder.lastTime is the latest time taken, so the region starts no earlier (then it is shorter).
  const std::uint64_t start = std::max(recorder.flushStart, recorder.lastTime);
  const std::uint64_t end = std::max(recorder.flushEnd, start);
  OTF2_EvtWriter_Enter(recorder.evt, nullptr, start, kFlushRegion);
  OTF2_EvtWriter_Leave(recorder.evt, nullptr, end, kFlushRegion);
  recorder.lastTime = end;
  recorder.flushStart = 0;
}

bool sourceLineOf(std::uintptr_t address, std::string& file, std::uint32_t& line) {
  return sourceLine(address, file, line);
}

OTF2_SourceCodeLocationRef callSite(void* returnAddress) {
  const auto pc = reinterpret_cast<std::uintptr_t>(returnAddress);
  // Loops call MPI from the same few sites again and again: a small direct-mapped cache
  // answers them without hashing into the table.
  struct Cached {
    std::uintptr_t pc;
    OTF2_SourceCodeLocationRef id;
  };
  static Cached cache[64] = {};
  Cached& slot = cache[(pc ^ (pc >> 6)) & 63];
  if (slot.pc == pc) [[likely]] return slot.id;
  auto it = recorder.callSites.find(pc);
  if (it != recorder.callSites.end()) [[likely]] {
    slot = {pc, it->second};
    return it->second;
  }
  std::string file;
  std::uint32_t line = 0;
  OTF2_SourceCodeLocationRef id = OTF2_UNDEFINED_SOURCE_CODE_LOCATION;
  if (sourceLine(pc - 1, file, line)) {  // the call instruction, not the one after it
    logDefinition(partial::record(partial::kSource, partial::sourcePayload(file, line)));
    recorder.sourceLocations.emplace_back(std::move(file), line);
    id = static_cast<OTF2_SourceCodeLocationRef>(recorder.sourceLocations.size() - 1);
  }
  recorder.callSites.emplace(pc, id);
  return id;
}

void enterRegion(OTF2_RegionRef region, std::uint64_t time, OTF2_SourceCodeLocationRef site) {
  if (site != OTF2_UNDEFINED_SOURCE_CODE_LOCATION) {
    OTF2_AttributeList_AddSourceCodeLocationRef(recorder.attrs, 0, site);
    OTF2_EvtWriter_Enter(recorder.evt, recorder.attrs, time, region);
  } else {
    OTF2_EvtWriter_Enter(recorder.evt, nullptr, time, region);
  }
}

void leaveRegion(OTF2_RegionRef region, std::uint64_t time) { OTF2_EvtWriter_Leave(recorder.evt, nullptr, time, region); }

// ---------------------------------------------------------------------------------------------
std::uint64_t agreeKey(MPI_Comm comm) {
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  std::uint64_t key = 0;
  if (rank == 0) key = (static_cast<std::uint64_t>(recorder.worldRank) << 32) | ++recorder.keyCounter;
  PMPI_Bcast(&key, 1, MPI_UINT64_T, 0, comm);
  return key;
}

OTF2_CommRef commId(MPI_Comm comm) {
  if (comm == MPI_COMM_WORLD) return kWorldComm;
  if (comm == MPI_COMM_SELF) return kSelfComm;
  auto it = recorder.commIds.find(comm);
  return it == recorder.commIds.end() ? OTF2_UNDEFINED_COMM : it->second;
}

static std::vector<std::uint64_t> worldRanksOf(MPI_Group group) {
  int n = 0;
  PMPI_Group_size(group, &n);
  std::vector<int> local(static_cast<std::size_t>(n)), world(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) local[static_cast<std::size_t>(i)] = i;
  MPI_Group worldGroup;
  PMPI_Comm_group(MPI_COMM_WORLD, &worldGroup);
  PMPI_Group_translate_ranks(group, n, local.data(), worldGroup, world.data());
  PMPI_Group_free(&worldGroup);
  return {world.begin(), world.end()};
}

static OTF2_GroupRef groupOfMembers(std::vector<std::uint64_t> members) {
  auto it = recorder.groupIds.find(members);
  if (it != recorder.groupIds.end()) return it->second;
  const auto id = static_cast<OTF2_GroupRef>(recorder.groups.size());
  logDefinition(partial::record(partial::kGroup, partial::groupPayload(members)));
  recorder.groups.push_back(members);
  recorder.groupIds.emplace(std::move(members), id);
  return id;
}

OTF2_GroupRef groupId(MPI_Group group) {
  if (group == MPI_GROUP_NULL || group == MPI_GROUP_EMPTY) return groupOfMembers({});
  return groupOfMembers(worldRanksOf(group));
}

static bool allInWorld(const std::vector<std::uint64_t>& worldRanks) {
  for (const std::uint64_t r : worldRanks)
    if (r >= static_cast<std::uint64_t>(recorder.worldSize)) return false;  // MPI_UNDEFINED: another job's process
  return true;
}

static void defineComm(MPI_Comm comm, CommDef def) {
  logDefinition(partial::record(partial::kComm, partial::commPayload(def)));
  recorder.comms.push_back(std::move(def));
  recorder.commIds[comm] = static_cast<OTF2_CommRef>(recorder.comms.size() - 1);
}

// An inter-communicator: both groups, the one with the lowest world rank first. Its key is agreed
// over a merged intra-communicator of both groups (a broadcast over an inter-communicator only
// reaches the other group).
void registerInterComm(MPI_Comm comm, const char* creator, OTF2_CommRef parent) {
  CommDef def;
  MPI_Group local, remote;
  PMPI_Comm_group(comm, &local);
  PMPI_Comm_remote_group(comm, &remote);
  def.members = worldRanksOf(local);
  def.remoteMembers = worldRanksOf(remote);
  PMPI_Group_free(&local);
  PMPI_Group_free(&remote);
  const bool known = allInWorld(def.members) && allInWorld(def.remoteMembers);
  if (known && *std::min_element(def.remoteMembers.begin(), def.remoteMembers.end()) <
                   *std::min_element(def.members.begin(), def.members.end()))
    std::swap(def.members, def.remoteMembers);
  if (!known) return;  // another job's processes: nothing collective with them here
  MPI_Comm merged;
  if (PMPI_Intercomm_merge(comm, 0, &merged) != MPI_SUCCESS) return;
  def.key = agreeKey(merged);
  // The common communicator: where a rank knows it (MPI_Intercomm_create's leaders), the same one.
  // As a signed value: MPICH 4.0 built without yaksa takes MPI_MIN on unsigned types as signed,
  // which would make OTF2_UNDEFINED_COMM (all bits set) the minimum.
  const std::int64_t mine = parent == OTF2_UNDEFINED_COMM ? std::numeric_limits<std::int64_t>::max() : parent;
  std::int64_t common = 0;
  PMPI_Allreduce(&mine, &common, 1, MPI_INT64_T, MPI_MIN, merged);
  def.parent = common == std::numeric_limits<std::int64_t>::max() ? OTF2_UNDEFINED_COMM
                                                                  : static_cast<OTF2_CommRef>(common);
  PMPI_Comm_free(&merged);
  def.creator = creator;
  defineComm(comm, std::move(def));
}

void registerComm(MPI_Comm comm, const char* creator, MPI_Comm parent) {
  if (comm == MPI_COMM_NULL) return;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (parent != MPI_COMM_NULL && commId(parent) == OTF2_UNDEFINED_COMM) return;  // derived from another job's
  if (inter) {
    registerInterComm(comm, creator, commId(parent));
    return;
  }
  CommDef def;
  def.key = agreeKey(comm);
  def.creator = creator;
  def.parent = commId(parent);
  MPI_Group group;
  PMPI_Comm_group(comm, &group);
  def.members = worldRanksOf(group);
  PMPI_Group_free(&group);
  if (!allInWorld(def.members)) return;  // merged with another job's processes: warned where they joined
  defineComm(comm, std::move(def));
}

// The key of the n-th MPI_Comm_idup of a communicator: every member calls its collectives in the
// same order, so every member computes the same key from the parent's without communicating
// (splitmix64 of both; bit 63 keeps it apart from agreeKey's rank << 32 | counter).
static std::uint64_t idupKey(OTF2_CommRef parent, MPI_Comm parentComm) {
  const auto mix = [](std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  };
  if (parentComm == MPI_COMM_SELF) return (static_cast<std::uint64_t>(recorder.worldRank) << 32) | ++recorder.keyCounter;
  const std::uint64_t base = parent == kWorldComm ? ~0ULL : recorder.comms[parent].key;
  const std::uint64_t n = ++recorder.idupCounts[parent];
  return mix(mix(base) ^ n) | (1ULL << 63);
}

void registerIdup(MPI_Comm comm, MPI_Comm parent) {
  const OTF2_CommRef parentId = commId(parent);
  if (comm == MPI_COMM_NULL || parentId == OTF2_UNDEFINED_COMM) return;
  CommDef def;
  def.key = idupKey(parentId, parent);
  def.creator = "MPI_Comm_idup";
  def.parent = parentId;
  int inter = 0;
  PMPI_Comm_test_inter(parent, &inter);
  if (inter) {
    def.members = recorder.comms[parentId].members;  // the same two groups
    def.remoteMembers = recorder.comms[parentId].remoteMembers;
  } else {
    MPI_Group group;
    PMPI_Comm_group(parent, &group);  // the parent's group is the new one's: usable before completion
    def.members = worldRanksOf(group);
    PMPI_Group_free(&group);
  }
  defineComm(comm, std::move(def));
}

void forgetComm(MPI_Comm comm) { recorder.commIds.erase(comm); }

// ---------------------------------------------------------------------------------------------
// The definition log (partial_trace.h): header, then what was defined before MPI_Init.
static void openDefinitionLog(std::uint64_t start) {
  recorder.logFd = open(partial::logPath(recorder.dir, recorder.worldRank).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC,
                 0666);
  if (recorder.logFd < 0) return;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  logDefinition(partial::record(partial::kHeader, partial::headerPayload(recorder.worldRank, recorder.worldSize, host, start)));
  for (const UserRegionDef& r : recorder.userRegions) logDefinition(partial::record(partial::kRegion, partial::regionPayload(r)));
}

void startMeasurement(std::uint64_t initEnter) {
  std::lock_guard lock(gInitMutex);
  tMainThread = true;
  PMPI_Comm_rank(MPI_COMM_WORLD, &recorder.worldRank);
  PMPI_Comm_size(MPI_COMM_WORLD, &recorder.worldSize);
  loadFilter();
  for (std::uint32_t i = 0; i < kNumMpi; ++i) recorder.mpiFiltered[i] = filtered(kMpiNames[i]);
  // Online mode: a tool place runs its analysis here; an application rank runs in profile mode.
  if (online::requested() && startOnline()) return;
  if (recorder.online || profile::requested()) {
    // Profile mode: no trace directory, no archive; user regions seen before MPI_Init
    // start (and those closed end) here.
    profile::start();
    for (const EarlyEvent& e : gEarly) {
      if (e.enter) profile::enterUser(e.region);
      else profile::leaveUser();
    }
    gEarly.clear();
    return;
  }

  // The output directory: rank 0 decides, creates it and removes a previous trace there (it
  // would confuse readers); then one broadcast tells everybody (an empty name: not recording).
  char dirBuf[4096] = {};
  if (recorder.worldRank == 0) {
    const char* env = std::getenv("WAITSCOPE_TRACE_DIR");
    const std::string dir = env && *env ? env : report::timestampedName("waitscope-trace-%Y%m%d-%H%M%S");
    if (!makeDirs(dir)) {
      std::fprintf(stderr, "waitscope: cannot write the trace to %s: %s; not recording\n", dir.c_str(),
                   std::strerror(errno));
    } else {
      // No shell: fork()ing an MPI process costs tens of milliseconds and upsets some networks.
      partial::removeTraceFiles(dir);  // best effort
      mkdir(partial::logDir(dir).c_str(), 0777);
      std::snprintf(dirBuf, sizeof dirBuf, "%s", dir.c_str());
    }
  }
  PMPI_Bcast(dirBuf, sizeof dirBuf, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (!dirBuf[0]) return;
  recorder.dir = dirBuf;
  std::snprintf(recorder.failedMarker, sizeof recorder.failedMarker, "%s", partial::failedMarkerPath(recorder.dir).c_str());

  long mb = 64;
  if (const char* env = std::getenv("WAITSCOPE_BUFFER_MB")) mb = std::max(1L, std::strtol(env, nullptr, 10));
  const std::size_t chunks = static_cast<std::size_t>(mb) * kChunksPerMb;
  gFreeChunks.reserve(chunks);  // the abort path returns chunks without allocating
  // One mapping for the pool (not an mmap per chunk): its pages are touched only when OTF2
  // writes to them, so a short run does not pay for the whole pool.
  const std::size_t poolBytes = chunks * kChunk;
  void* pool = mmap(nullptr, poolBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (pool == MAP_FAILED) {
    std::fprintf(stderr, "waitscope: cannot allocate the %ld MiB event buffer (WAITSCOPE_BUFFER_MB): %s; not recording\n",
                 mb, std::strerror(errno));
    return;
  }
  for (std::size_t i = chunks; i-- > 0;) gFreeChunks.push_back(static_cast<char*>(pool) + i * kChunk);

  // Definition chunks: the smallest size. OTF2 clears a writer's chunk as it flushes it at close,
  // and the default 4 MiB meant 1024 fresh pages faulted in per definition writer at
  // MPI_Finalize (~4 ms each) for definitions that are mostly a few kB.
  OTF2_Error_RegisterCallback(noteWriteError, &recorder.writeError);
  recorder.archive = OTF2_Archive_Open(recorder.dir.c_str(), "traces", OTF2_FILEMODE_WRITE, kChunk, OTF2_CHUNK_SIZE_MIN,
                                OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!recorder.archive) {
    std::fprintf(stderr, "waitscope: cannot open the OTF2 archive in %s; not recording\n", recorder.dir.c_str());
    return;
  }
  OTF2_Archive_SetFlushCallbacks(recorder.archive, &gFlushCallbacks, nullptr);
  OTF2_Archive_SetMemoryCallbacks(recorder.archive, &gMemoryCallbacks, nullptr);
  OTF2_MPI_Archive_SetCollectiveCallbacks(recorder.archive, MPI_COMM_WORLD, MPI_COMM_NULL);
  OTF2_Archive_SetCreator(recorder.archive, "waitscope-measure");
  OTF2_Archive_OpenEvtFiles(recorder.archive);
  recorder.evt = OTF2_Archive_GetEvtWriter(recorder.archive, static_cast<OTF2_LocationRef>(recorder.worldRank));
  recorder.attrs = OTF2_AttributeList_New();
  openDefinitionLog(initEnter);

  recorder.comms.resize(2);  // 0 = MPI_COMM_WORLD, 1 = MPI_COMM_SELF (global by construction)
  recorder.commIds[MPI_COMM_WORLD] = kWorldComm;
  recorder.commIds[MPI_COMM_SELF] = kSelfComm;
  recorder.startTime = initEnter;
  for (const EarlyEvent& e : gEarly) {
    const std::uint64_t t = std::min(e.time, initEnter);
    if (e.enter) OTF2_EvtWriter_Enter(recorder.evt, nullptr, t, e.region);
    else OTF2_EvtWriter_Leave(recorder.evt, nullptr, t, e.region);
    recorder.startTime = std::min(recorder.startTime, t);
  }
  gEarly.clear();
  if (PMPI_Comm_dup(MPI_COMM_WORLD, &recorder.clockComm) == MPI_SUCCESS) {
    const char* sync = std::getenv("WAITSCOPE_CLOCK_SYNC");
    recorder.measureAllClocks = sync && std::strcmp(sync, "measure") == 0;
    recorder.clockOffsets.push_back(measureClockOffset(recorder.clockComm, now, recorder.measureAllClocks));
  }
  recorder.recording = true;

  struct sigaction sa = {};
  sa.sa_handler = onFatalSignal;
  for (int sig : {SIGTERM, SIGINT, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) sigaction(sig, &sa, &gPreviousAction[sig]);
}

// The abort path (MPI_Abort or a fatal signal handler): close the regions open now, flush the
// event buffer and append the end record to the definition log, so that waitscope-run can
// complete the trace. Only write(2) and OTF2's flush; the pool gives chunks back without
// allocating. Best effort if the signal interrupted the recorder itself.
void abortMeasurement(const char* why) {
  if (!recorder.recording) return;
  recorder.recording = false;
  recorder.incomplete = true;
  const std::uint64_t t = std::max(now(), recorder.lastTime);
  std::uint64_t events = 0;
  if (recorder.evt) {
    if (recorder.openMpi != OTF2_UNDEFINED_REGION) OTF2_EvtWriter_Leave(recorder.evt, nullptr, t, recorder.openMpi);
    for (std::size_t i = std::min(gDepth, kMaxDepth); i-- > 0;) OTF2_EvtWriter_Leave(recorder.evt, nullptr, t, gStack[i]);
    OTF2_EvtWriter_GetNumberOfEvents(recorder.evt, &events);
    OTF2_Archive_CloseEvtWriter(recorder.archive, recorder.evt);
    recorder.evt = nullptr;
  }
  char buf[512];
  if (recorder.writeError != 0) writeFailedMarker(describeWriteError(recorder.writeError));
  if (recorder.logFd >= 0) {
    const std::size_t n = partial::endRecord(buf, sizeof buf, events, t, why);
    if (n > 0 && write(recorder.logFd, buf, n) < 0) { /* nothing more to do */ }
    close(recorder.logFd);
    recorder.logFd = -1;
  }
  const int len =
      recorder.writeError != 0
          ? std::snprintf(buf, sizeof buf, "waitscope: rank %d ended by %s; writing the trace to %s had failed (%s)\n",
                          recorder.worldRank, why, recorder.dir.c_str(), describeWriteError(recorder.writeError))
          : std::snprintf(buf, sizeof buf,
                          "waitscope: rank %d ended by %s: the trace in %s is incomplete (%llu events up to now were "
                          "written)\n",
                          recorder.worldRank, why, recorder.dir.c_str(), static_cast<unsigned long long>(events));
  if (len > 0 && write(STDERR_FILENO, buf, std::min(static_cast<std::size_t>(len), sizeof buf - 1)) < 0) { /* */ }
}

// ---------------------------------------------------------------------------------------------
// Unification at MPI_Finalize (global_definitions.h).
namespace {
Blob localDefinitions() {
  return encodeLocalDefinitions({recorder.userRegions, recorder.sourceLocations, recorder.groups, recorder.comms, recorder.wins});
}
}  // namespace


void openProgramRegion(std::uint64_t time) {
  if (gDepth != 0 || !(recorder.recording || recorder.profiling)) return;
  const OTF2_RegionRef region = namedRegion("main");
  if (region == kFilteredRegion) return;
  gStack[0] = region;
  gDepth = 1;
  if (recorder.profiling) profile::enterUser(region);
  else OTF2_EvtWriter_Enter(recorder.evt, nullptr, time, region);
}

void finishMeasurement() {
  if (recorder.clockComm != MPI_COMM_NULL) {
    recorder.clockOffsets.push_back(measureClockOffset(recorder.clockComm, now, recorder.measureAllClocks));
    PMPI_Comm_free(&recorder.clockComm);
  }
  // Close regions still open (e.g. main, when MPI_Finalize is called from it).
  const std::uint64_t t = stamp();
  for (std::size_t i = std::min(gDepth, kMaxDepth); i-- > 0;) OTF2_EvtWriter_Leave(recorder.evt, nullptr, t, gStack[i]);
  recorder.recording = false;
  gFinished = true;
  std::uint64_t events = 0;
  OTF2_EvtWriter_GetNumberOfEvents(recorder.evt, &events);
  if (OTF2_Archive_CloseEvtWriter(recorder.archive, recorder.evt) != OTF2_SUCCESS && recorder.writeError == 0)
    recorder.writeError = OTF2_ERROR_PROCESSED_WITH_FAULTS;
  recorder.evt = nullptr;
  OTF2_Archive_CloseEvtFiles(recorder.archive);

  // Gather definitions, event counts, host names and times at rank 0: the fixed-size part in
  // one gather, the definitions in one gatherv (few messages: every collective here is a point
  // where a rank descheduled on a busy machine holds up the others).
  struct RankSummary {
    std::int64_t defBytes;
    std::uint64_t events, start, end;
    std::uint64_t unrecorded;  // unrecorded_calls.h
    std::uint32_t firstUnrecorded;
    char host[256];
  };
  const Blob local = localDefinitions();
  const int n = recorder.worldSize;
  // First and last event on rank 0's clock, for the trace's global clock properties.
  const auto onRootClock = [](std::uint64_t time, std::size_t sample) {
    return sample < recorder.clockOffsets.size()
               ? time + static_cast<std::uint64_t>(recorder.clockOffsets[sample].offset)
               : time;
  };
  std::uint32_t myFirstUnrecorded = kNumMpi;
  const std::uint64_t myUnrecorded = unrecordedCalls(myFirstUnrecorded);
  RankSummary mine{static_cast<std::int64_t>(local.data.size()), events, onRootClock(recorder.startTime, 0),
                   onRootClock(t, recorder.clockOffsets.empty() ? 0 : recorder.clockOffsets.size() - 1),
                   myUnrecorded, myFirstUnrecorded, {}};
  gethostname(mine.host, sizeof mine.host - 1);
  std::vector<RankSummary> ranks(recorder.worldRank == 0 ? static_cast<std::size_t>(n) : 0);
  PMPI_Gather(&mine, sizeof mine, MPI_BYTE, ranks.data(), sizeof mine, MPI_BYTE, 0, MPI_COMM_WORLD);
  std::vector<int> sizes(static_cast<std::size_t>(n)), displs(static_cast<std::size_t>(n));
  std::string all;
  std::vector<std::uint64_t> eventCounts;
  std::vector<std::string> hostNames;
  std::uint64_t minStart = 0, maxEnd = 0;
  std::uint64_t unrecorded = 0;
  std::uint32_t firstUnrecorded = kNumMpi;
  if (recorder.worldRank == 0) {
    int total = 0;
    minStart = ranks[0].start;
    maxEnd = ranks[0].end;
    for (int r = 0; r < n; ++r) {
      const RankSummary& rs = ranks[static_cast<std::size_t>(r)];
      sizes[static_cast<std::size_t>(r)] = static_cast<int>(rs.defBytes);
      displs[static_cast<std::size_t>(r)] = total;
      total += static_cast<int>(rs.defBytes);
      eventCounts.push_back(rs.events);
      hostNames.emplace_back(rs.host);
      minStart = std::min(minStart, rs.start);
      maxEnd = std::max(maxEnd, rs.end);
      if (unrecorded == 0 && rs.unrecorded != 0) firstUnrecorded = rs.firstUnrecorded;
      unrecorded += rs.unrecorded;
    }
    all.resize(static_cast<std::size_t>(total));
  }
  PMPI_Gatherv(local.data.data(), static_cast<int>(local.data.size()), MPI_BYTE, all.data(), sizes.data(),
               displs.data(), MPI_BYTE, 0, MPI_COMM_WORLD);

  Global gl;
  std::string mapsAll;
  std::vector<int> mapSizes(static_cast<std::size_t>(n)), mapDispls(static_cast<std::size_t>(n));
  if (recorder.worldRank == 0) {
    std::vector<Blob> maps;
    for (int r = 0; r < n; ++r) maps.push_back(unify(gl, all.data() + displs[static_cast<std::size_t>(r)]));
    for (int r = 0; r < n; ++r) {
      mapDispls[static_cast<std::size_t>(r)] = static_cast<int>(mapsAll.size());
      mapSizes[static_cast<std::size_t>(r)] = static_cast<int>(maps[static_cast<std::size_t>(r)].data.size());
      mapsAll += maps[static_cast<std::size_t>(r)].data;
    }
  }
  int mySize = 0;
  PMPI_Scatter(mapSizes.data(), 1, MPI_INT, &mySize, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string myMap(static_cast<std::size_t>(mySize), '\0');
  PMPI_Scatterv(mapsAll.data(), mapSizes.data(), mapDispls.data(), MPI_BYTE, myMap.data(), mySize, MPI_BYTE, 0,
                MPI_COMM_WORLD);

  // Local definitions: mapping tables from this rank's ids to the global ones.
  OTF2_Archive_OpenDefFiles(recorder.archive);
  OTF2_DefWriter* dw = OTF2_Archive_GetDefWriter(recorder.archive, static_cast<OTF2_LocationRef>(recorder.worldRank));
  writeMappings(dw, myMap.data());
  for (const ClockOffsetSample& c : recorder.clockOffsets)
    OTF2_DefWriter_WriteClockOffset(dw, c.time, c.offset, c.deviation);
  OTF2_Archive_CloseDefWriter(recorder.archive, dw);
  OTF2_Archive_CloseDefFiles(recorder.archive);

  // Did every rank write all of its events and definitions? Where ranks differ, an errno-like
  // code (it says what the system refused) wins over OTF2's generic ones.
  constexpr int kSaysWhy = 1 << 20;
  const int ranked = recorder.writeError + (errnoOf(static_cast<OTF2_ErrorCode>(recorder.writeError)) != 0 ? kSaysWhy : 0);
  int failure = 0;
  PMPI_Allreduce(&ranked, &failure, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  failure %= kSaysWhy;
  if (recorder.worldRank == 0 && failure == 0)
    writeGlobalDefinitions(recorder.archive, gl, eventCounts, hostNames, minStart, maxEnd - minStart);
  OTF2_AttributeList_Delete(recorder.attrs);
  if (OTF2_Archive_Close(recorder.archive) != OTF2_SUCCESS && recorder.worldRank == 0 && failure == 0)
    failure = recorder.writeError != 0 ? recorder.writeError : OTF2_ERROR_PROCESSED_WITH_FAULTS;
  if (recorder.worldRank == 0 && failure == 0 && recorder.writeError != 0) failure = recorder.writeError;  // the anchor or global definitions
  recorder.archive = nullptr;
  OTF2_Error_RegisterCallback(nullptr, nullptr);
  if (failure != 0 && recorder.worldRank == 0) {
    // A trace with a hole where a write failed is not worth the space it takes: it goes, and
    // the marker says why (waitscope-run reports it; a linked program's rank 0 does here).
    partial::removeTraceFiles(recorder.dir);
    const char* reason = describeWriteError(failure);
    writeFailedMarker(reason);
    if (!std::getenv("WAITSCOPE_QUIET"))
      std::fprintf(stderr,
                   "waitscope: no trace written: writing it to %s failed (%s); what was written is removed: free "
                   "space there or set WAITSCOPE_TRACE_DIR to another directory\n",
                   recorder.dir.c_str(), reason);
  }
  // The trace is complete (or removed): the definition logs are not needed. Every rank removes its log, then
  // tries the directory: the last one to get there removes it (no barrier needed).
  if (recorder.logFd >= 0) {
    close(recorder.logFd);
    recorder.logFd = -1;
    unlink(partial::logPath(recorder.dir, recorder.worldRank).c_str());
  }
  rmdir(partial::logDir(recorder.dir).c_str());
  if (recorder.worldRank == 0) printUnrecordedSummary(unrecorded, firstUnrecorded);
  if (recorder.worldRank == 0 && failure == 0 && !std::getenv("WAITSCOPE_QUIET"))
    std::fprintf(stderr, "waitscope: trace written to %s/traces.otf2\n", recorder.dir.c_str());
}

}  // namespace waitscope::measure

// ---------------------------------------------------------------------------------------------
// Compiler instrumentation and the manual-region API.
using namespace waitscope::measure;

extern "C" {

__attribute__((no_instrument_function)) void __cyg_profile_func_enter(void* fn, void*) {
  if (!userEventsWanted(true)) return;
  userEnter(functionRegion(fn));
}

__attribute__((no_instrument_function)) void __cyg_profile_func_exit(void* fn, void*) {
  if (!userEventsWanted(false)) return;
  userLeave(functionRegion(fn));
}

void waitscope_region_begin(const char* name) {
  if (!userEventsWanted(true) || !name) return;
  userEnter(namedRegion(name));
}

void waitscope_region_end(const char* name) {
  if (!userEventsWanted(false) || !name) return;
  userLeave(namedRegion(name));
}

}  // extern "C"
