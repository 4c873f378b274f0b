// libwaitscope-measure: measurement life cycle, OTF2 archive (streaming, bounded buffer),
// call sites and user regions (libdw), and unification of the rank-local definitions at
// MPI_Finalize into Score-P-like global definitions.
#include "measure_internal.h"
#include "profile_runtime.h"
#include "waitscope.h"

#define OTF2_MPI_USE_PMPI
#include <otf2/OTF2_MPI_Collectives.h>

#include <cxxabi.h>
#include <elfutils/libdwfl.h>
#include <fnmatch.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string_view>

namespace waitscope::measure {

State g;
[[gnu::tls_model("initial-exec")]] thread_local bool tMainThread = false;

namespace {

constexpr const char* kMpiNames[] = {
#define WS_MPI(category, role, name, params, args) #name,
#include "mpi_functions.def"
#undef WS_MPI
};
constexpr OTF2_RegionRole kMpiRoles[] = {
#define WS_MPI(category, role, name, params, args) OTF2_REGION_ROLE_##role,
#include "mpi_functions.def"
#undef WS_MPI
};

// ---------------------------------------------------------------------------------------------
// Bounded event buffer: a pool of WAITSCOPE_BUFFER_MB one-MiB chunks. When the pool is empty OTF2
// flushes the buffer to disk and releases its chunks (free_all), then asks again.
constexpr std::uint64_t kChunk = 1024 * 1024;
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
  if (type == OTF2_FILETYPE_EVENTS && !final) g.flushStart = now();
  return OTF2_FLUSH;
}

OTF2_TimeStamp postFlush(void*, OTF2_FileType type, OTF2_LocationRef) {
  const std::uint64_t t = now();
  if (type == OTF2_FILETYPE_EVENTS && g.flushStart != 0) {
    g.flushEnd = t;
    g.flushPending = true;
  }
  return t;
}

OTF2_FlushCallbacks gFlushCallbacks = {preFlush, postFlush};
OTF2_MemoryCallbacks gMemoryCallbacks = {poolAllocate, poolFreeAll};

// ---------------------------------------------------------------------------------------------
// Symbols and source lines (libdw), resolved once per address.
Dwfl* gDwfl = nullptr;
char* gDebugInfoPath = nullptr;
Dwfl_Callbacks gDwflCallbacks = {dwfl_linux_proc_find_elf, dwfl_standard_find_debuginfo, nullptr, &gDebugInfoPath};

Dwfl* dwfl() {
  if (!gDwfl) {
    gDwfl = dwfl_begin(&gDwflCallbacks);
    if (gDwfl) {
      dwfl_report_begin(gDwfl);
      dwfl_linux_proc_report(gDwfl, getpid());
      dwfl_report_end(gDwfl, nullptr, nullptr);
    }
  }
  return gDwfl;
}

bool sourceLine(std::uintptr_t address, std::string& file, std::uint32_t& line) {
  Dwfl* d = dwfl();
  if (!d) return false;
  Dwfl_Module* module = dwfl_addrmodule(d, address);
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
  if (Dwfl* d = dwfl()) {
    if (Dwfl_Module* module = dwfl_addrmodule(d, address)) {
      if (const char* name = dwfl_module_addrname(module, address)) return demangle(name);
    }
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%zx", static_cast<std::size_t>(address));
  return buf;
}

bool filtered(const std::string& name) {
  for (const std::string& f : g.filters)
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
    g.filters.push_back(line.substr(begin, end - begin + 1));
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
  g.userRegions.push_back(std::move(def));
  return kFirstUserRegion + static_cast<OTF2_RegionRef>(g.userRegions.size() - 1);
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
  if (g.recording || g.profiling) return tMainThread;
  return !g.archive && (!enter || gEarly.size() < kMaxEarly) && (tMainThread || gEarly.empty());
}

void userEnter(OTF2_RegionRef region) {
  if (region == kFilteredRegion) return;
  if (gDepth < kMaxDepth) gStack[gDepth] = region;
  ++gDepth;
  if (g.profiling) {
    profile::enterUser(region);
  } else if (g.recording) {
    boundary();
    OTF2_EvtWriter_Enter(g.evt, nullptr, stamp(), region);
  } else {
    tMainThread = true;
    gEarly.push_back({true, now(), region});
  }
}

void userLeave(OTF2_RegionRef region) {
  if (region == kFilteredRegion || gDepth == 0) return;
  --gDepth;
  if (g.profiling) {
    profile::leaveUser();
  } else if (g.recording) {
    boundary();
    OTF2_EvtWriter_Leave(g.evt, nullptr, stamp(), region);
  } else {
    gEarly.push_back({false, now(), region});
  }
}

// ---------------------------------------------------------------------------------------------
// Abnormal ends: flush what is buffered so the events reach the disk.
void onFatalSignal(int sig) {
  abortMeasurement(sig == SIGTERM ? "terminated (SIGTERM)" : "crashed");
  signal(sig, SIG_DFL);
  raise(sig);
}

std::string defaultDir() {
  char buf[64];
  const std::time_t t = std::time(nullptr);
  std::tm tm;
  localtime_r(&t, &tm);
  std::strftime(buf, sizeof buf, "waitscope-trace-%Y%m%d-%H%M%S", &tm);
  return buf;
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
void writeFlushRegion() {
  g.flushPending = false;
  OTF2_EvtWriter_Enter(g.evt, nullptr, g.flushStart, kFlushRegion);
  OTF2_EvtWriter_Leave(g.evt, nullptr, g.flushEnd, kFlushRegion);
  g.lastTime = g.flushEnd;
  g.flushStart = 0;
}

bool sourceLineOf(std::uintptr_t address, std::string& file, std::uint32_t& line) {
  return sourceLine(address, file, line);
}

OTF2_SourceCodeLocationRef callSite(void* returnAddress) {
  const auto pc = reinterpret_cast<std::uintptr_t>(returnAddress);
  auto it = g.callSites.find(pc);
  if (it != g.callSites.end()) [[likely]] return it->second;
  std::string file;
  std::uint32_t line = 0;
  OTF2_SourceCodeLocationRef id = OTF2_UNDEFINED_SOURCE_CODE_LOCATION;
  if (sourceLine(pc - 1, file, line)) {  // the call instruction, not the one after it
    g.sourceLocations.emplace_back(std::move(file), line);
    id = static_cast<OTF2_SourceCodeLocationRef>(g.sourceLocations.size() - 1);
  }
  g.callSites.emplace(pc, id);
  return id;
}

void enterRegion(OTF2_RegionRef region, std::uint64_t time, OTF2_SourceCodeLocationRef site) {
  if (site != OTF2_UNDEFINED_SOURCE_CODE_LOCATION) {
    OTF2_AttributeList_AddSourceCodeLocationRef(g.attrs, 0, site);
    OTF2_EvtWriter_Enter(g.evt, g.attrs, time, region);
  } else {
    OTF2_EvtWriter_Enter(g.evt, nullptr, time, region);
  }
}

void leaveRegion(OTF2_RegionRef region, std::uint64_t time) { OTF2_EvtWriter_Leave(g.evt, nullptr, time, region); }

// ---------------------------------------------------------------------------------------------
std::uint64_t agreeKey(MPI_Comm comm) {
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  std::uint64_t key = 0;
  if (rank == 0) key = (static_cast<std::uint64_t>(g.worldRank) << 32) | ++g.keyCounter;
  PMPI_Bcast(&key, 1, MPI_UINT64_T, 0, comm);
  return key;
}

OTF2_CommRef commId(MPI_Comm comm) {
  if (comm == MPI_COMM_WORLD) return kWorldComm;
  auto it = g.commIds.find(comm);
  return it == g.commIds.end() ? OTF2_UNDEFINED_COMM : it->second;
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
  auto it = g.groupIds.find(members);
  if (it != g.groupIds.end()) return it->second;
  const auto id = static_cast<OTF2_GroupRef>(g.groups.size());
  g.groups.push_back(members);
  g.groupIds.emplace(std::move(members), id);
  return id;
}

OTF2_GroupRef groupId(MPI_Group group) {
  if (group == MPI_GROUP_NULL || group == MPI_GROUP_EMPTY) return groupOfMembers({});
  return groupOfMembers(worldRanksOf(group));
}

void registerComm(MPI_Comm comm, const char* creator, MPI_Comm parent) {
  if (comm == MPI_COMM_NULL) return;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) return;  // intercommunicators are not recorded (see docs/recording.md)
  CommDef def;
  def.key = agreeKey(comm);
  def.creator = creator;
  def.parent = commId(parent);
  MPI_Group group;
  PMPI_Comm_group(comm, &group);
  def.members = worldRanksOf(group);
  PMPI_Group_free(&group);
  g.comms.push_back(std::move(def));
  g.commIds[comm] = static_cast<OTF2_CommRef>(g.comms.size() - 1);
}

void forgetComm(MPI_Comm comm) { g.commIds.erase(comm); }

// ---------------------------------------------------------------------------------------------
void startMeasurement(std::uint64_t initEnter) {
  std::lock_guard lock(gInitMutex);
  tMainThread = true;
  PMPI_Comm_rank(MPI_COMM_WORLD, &g.worldRank);
  PMPI_Comm_size(MPI_COMM_WORLD, &g.worldSize);
  loadFilter();
  for (std::uint32_t i = 0; i < kNumMpi; ++i) g.mpiFiltered[i] = filtered(kMpiNames[i]);
  if (profile::requested()) {
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

  // The output directory: rank 0 decides (and creates it), everybody learns the result.
  char dirBuf[4096] = {};
  int ok = 1;
  if (g.worldRank == 0) {
    const char* env = std::getenv("WAITSCOPE_TRACE_DIR");
    std::string dir = env && *env ? env : defaultDir();
    if (!makeDirs(dir)) {
      std::fprintf(stderr, "waitscope: cannot write the trace to %s: %s; not recording\n", dir.c_str(),
                   std::strerror(errno));
      ok = 0;
    }
    std::snprintf(dirBuf, sizeof dirBuf, "%s", dir.c_str());
  }
  PMPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  PMPI_Bcast(dirBuf, sizeof dirBuf, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (!ok) return;
  g.dir = dirBuf;
  // A previous trace in the same directory would confuse readers: rank 0 removes its files.
  if (g.worldRank == 0) {
    std::remove((g.dir + "/traces.otf2").c_str());
    std::remove((g.dir + "/traces.def").c_str());
    std::string cmd = "rm -rf '" + g.dir + "/traces'";
    if (g.dir.find('\'') == std::string::npos && std::system(cmd.c_str()) != 0) { /* best effort */ }
  }
  PMPI_Barrier(MPI_COMM_WORLD);

  long mb = 64;
  if (const char* env = std::getenv("WAITSCOPE_BUFFER_MB")) mb = std::max(1L, std::strtol(env, nullptr, 10));
  for (long i = 0; i < mb; ++i) gFreeChunks.push_back(std::malloc(kChunk));

  g.archive = OTF2_Archive_Open(g.dir.c_str(), "traces", OTF2_FILEMODE_WRITE, kChunk,
                                OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!g.archive) {
    std::fprintf(stderr, "waitscope: cannot open the OTF2 archive in %s; not recording\n", g.dir.c_str());
    return;
  }
  OTF2_Archive_SetFlushCallbacks(g.archive, &gFlushCallbacks, nullptr);
  OTF2_Archive_SetMemoryCallbacks(g.archive, &gMemoryCallbacks, nullptr);
  OTF2_MPI_Archive_SetCollectiveCallbacks(g.archive, MPI_COMM_WORLD, MPI_COMM_NULL);
  OTF2_Archive_SetCreator(g.archive, "waitscope-measure");
  OTF2_Archive_OpenEvtFiles(g.archive);
  g.evt = OTF2_Archive_GetEvtWriter(g.archive, static_cast<OTF2_LocationRef>(g.worldRank));
  g.attrs = OTF2_AttributeList_New();

  g.comms.resize(2);  // 0 = MPI_COMM_WORLD, 1 = MPI_COMM_SELF (global by construction)
  g.commIds[MPI_COMM_WORLD] = kWorldComm;
  g.commIds[MPI_COMM_SELF] = kSelfComm;
  g.startTime = initEnter;
  for (const EarlyEvent& e : gEarly) {
    const std::uint64_t t = std::min(e.time, initEnter);
    if (e.enter) OTF2_EvtWriter_Enter(g.evt, nullptr, t, e.region);
    else OTF2_EvtWriter_Leave(g.evt, nullptr, t, e.region);
    g.startTime = std::min(g.startTime, t);
  }
  gEarly.clear();
  g.recording = true;

  struct sigaction sa = {};
  sa.sa_handler = onFatalSignal;
  for (int sig : {SIGTERM, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) sigaction(sig, &sa, nullptr);
}

void abortMeasurement(const char* why) {
  if (!g.recording) return;
  g.recording = false;
  g.incomplete = true;
  // Write the buffered events; the definitions (written at MPI_Finalize) are missing, so
  // waitscope-run and readers report the trace as incomplete.
  if (g.evt) {
    OTF2_Archive_CloseEvtWriter(g.archive, g.evt);
    g.evt = nullptr;
  }
  std::fprintf(stderr, "waitscope: rank %d %s: the trace in %s is incomplete (buffered events were flushed)\n",
               g.worldRank, why, g.dir.c_str());
}

// ---------------------------------------------------------------------------------------------
// Unification at MPI_Finalize.
namespace {

struct Blob {
  std::string data;
  void u64(std::uint64_t v) { data.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void str(const std::string& s) {
    u64(s.size());
    data += s;
  }
  void vec(const std::vector<std::uint64_t>& v) {
    u64(v.size());
    for (auto x : v) u64(x);
  }
};

struct BlobReader {
  const char* p;
  std::uint64_t u64() {
    std::uint64_t v;
    std::memcpy(&v, p, sizeof v);
    p += sizeof v;
    return v;
  }
  std::string str() {
    const std::uint64_t n = u64();
    std::string s(p, n);
    p += n;
    return s;
  }
  std::vector<std::uint64_t> vec() {
    std::vector<std::uint64_t> v(u64());
    for (auto& x : v) x = u64();
    return v;
  }
};

// Global definition tables built on rank 0.
struct Global {
  std::map<std::string, OTF2_StringRef> strings;
  std::vector<std::string> stringList;
  OTF2_StringRef str(const std::string& s) {
    auto [it, added] = strings.emplace(s, static_cast<OTF2_StringRef>(stringList.size()));
    if (added) stringList.push_back(s);
    return it->second;
  }
  std::map<std::tuple<std::string, std::string, std::uint32_t, bool>, OTF2_RegionRef> regions;
  std::vector<UserRegionDef> regionList;
  std::map<std::pair<std::string, std::uint32_t>, OTF2_SourceCodeLocationRef> scls;
  std::vector<std::pair<std::string, std::uint32_t>> sclList;
  std::map<std::vector<std::uint64_t>, OTF2_GroupRef> groups;  // COMM_GROUP ids from 2 on
  std::vector<std::vector<std::uint64_t>> groupList;
  std::map<std::uint64_t, OTF2_CommRef> comms;
  std::vector<CommDef> commList;
  std::map<std::uint64_t, OTF2_RmaWinRef> wins;
  std::vector<WinDef> winList;
  OTF2_GroupRef group(const std::vector<std::uint64_t>& members) {
    auto [it, added] = groups.emplace(members, static_cast<OTF2_GroupRef>(groupList.size() + 2));
    if (added) groupList.push_back(members);
    return it->second;
  }
};

Blob localDefinitions() {
  Blob b;
  b.u64(g.userRegions.size());
  for (const auto& r : g.userRegions) {
    b.str(r.name);
    b.str(r.file);
    b.u64(r.line);
    b.u64(r.compiler);
  }
  b.u64(g.sourceLocations.size());
  for (const auto& [file, line] : g.sourceLocations) {
    b.str(file);
    b.u64(line);
  }
  b.u64(g.groups.size());
  for (const auto& members : g.groups) b.vec(members);
  b.u64(g.comms.size() - 2);
  for (std::size_t i = 2; i < g.comms.size(); ++i) {
    const CommDef& c = g.comms[i];
    b.u64(c.key);
    b.str(c.creator);
    b.u64(c.parent == OTF2_UNDEFINED_COMM ? ~0ULL : c.parent);
    b.vec(c.members);
  }
  b.u64(g.wins.size());
  for (const WinDef& w : g.wins) {
    b.u64(w.key);
    b.u64(w.comm);
    b.str(w.name);
  }
  return b;
}

// Rank 0: merges one rank's local definitions and returns that rank's mapping tables
// (region, source location, group, comm, window), each as a dense array local -> global.
Blob unify(Global& gl, const char* data) {
  BlobReader r{data};
  Blob maps;
  std::vector<std::uint64_t> regionMap(kFirstUserRegion);
  for (std::uint32_t i = 0; i < kFirstUserRegion; ++i) regionMap[i] = i;
  for (std::uint64_t n = r.u64(); n-- > 0;) {
    UserRegionDef def;
    def.name = r.str();
    def.file = r.str();
    def.line = static_cast<std::uint32_t>(r.u64());
    def.compiler = r.u64() != 0;
    auto key = std::make_tuple(def.name, def.file, def.line, def.compiler);
    auto [it, added] = gl.regions.emplace(key, static_cast<OTF2_RegionRef>(kFirstUserRegion + gl.regionList.size()));
    if (added) gl.regionList.push_back(def);
    regionMap.push_back(it->second);
  }
  std::vector<std::uint64_t> sclMap;
  for (std::uint64_t n = r.u64(); n-- > 0;) {
    std::string file = r.str();
    const auto line = static_cast<std::uint32_t>(r.u64());
    auto key = std::make_pair(file, line);
    auto [it, added] = gl.scls.emplace(key, static_cast<OTF2_SourceCodeLocationRef>(gl.sclList.size()));
    if (added) gl.sclList.push_back(key);
    sclMap.push_back(it->second);
  }
  std::vector<std::uint64_t> groupMap;
  for (std::uint64_t n = r.u64(); n-- > 0;) groupMap.push_back(gl.group(r.vec()));
  std::vector<std::uint64_t> commMap = {kWorldComm, kSelfComm};
  for (std::uint64_t n = r.u64(); n-- > 0;) {
    CommDef c;
    c.key = r.u64();
    c.creator = r.str();
    const std::uint64_t parent = r.u64();
    c.parent = parent == ~0ULL ? OTF2_UNDEFINED_COMM : static_cast<OTF2_CommRef>(commMap.at(parent));
    c.members = r.vec();
    auto [it, added] = gl.comms.emplace(c.key, static_cast<OTF2_CommRef>(gl.commList.size() + 2));
    if (added) gl.commList.push_back(std::move(c));
    commMap.push_back(it->second);
  }
  std::vector<std::uint64_t> winMap;
  for (std::uint64_t n = r.u64(); n-- > 0;) {
    WinDef w;
    w.key = r.u64();
    w.comm = static_cast<OTF2_CommRef>(commMap.at(r.u64()));
    w.name = r.str();
    auto [it, added] = gl.wins.emplace(w.key, static_cast<OTF2_RmaWinRef>(gl.winList.size()));
    if (added) gl.winList.push_back(std::move(w));
    winMap.push_back(it->second);
  }
  for (const auto* m : {&regionMap, &sclMap, &groupMap, &commMap, &winMap}) maps.vec(*m);
  return maps;
}

void writeMapping(OTF2_DefWriter* w, OTF2_MappingType type, const std::vector<std::uint64_t>& map) {
  if (map.empty()) return;
  bool identity = true;
  for (std::size_t i = 0; i < map.size(); ++i) identity = identity && map[i] == i;
  if (identity) return;
  OTF2_IdMap* idMap = OTF2_IdMap_CreateFromUint64Array(map.size(), map.data(), true);
  OTF2_DefWriter_WriteMappingTable(w, type, idMap);
  OTF2_IdMap_Free(idMap);
}

void writeGlobalDefinitions(Global& gl, const std::vector<std::uint64_t>& events,
                            const std::vector<std::string>& hosts, std::uint64_t offset, std::uint64_t length) {
  OTF2_GlobalDefWriter* w = OTF2_Archive_GetGlobalDefWriter(g.archive);
  const int n = g.worldSize;
  std::vector<std::uint64_t> all(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) all[static_cast<std::size_t>(r)] = static_cast<std::uint64_t>(r);
  // strings first, then everything that refers to them
  gl.str("");
  const OTF2_StringRef sMpi = gl.str("MPI");
  for (const char* name : kMpiNames) gl.str(name);
  std::map<std::string, OTF2_SystemTreeNodeRef> nodes;
  for (const auto& h : hosts) nodes.emplace(h, 0);
  OTF2_SystemTreeNodeRef nextNode = 1;
  for (auto& [h, id] : nodes) id = nextNode++;
  // collect all strings
  gl.str("machine"), gl.str("Linux"), gl.str("node"), gl.str("Master thread"), gl.str("TRACE BUFFER FLUSH");
  gl.str("SOURCE_CODE_LOCATION"), gl.str("Source code location"), gl.str("MPI_COMM_WORLD"), gl.str("MPI_COMM_SELF");
  gl.str("Comm ${id}"), gl.str("Win ${id}");
  for (const auto& [h, id] : nodes) gl.str(h);
  for (int r = 0; r < n; ++r) gl.str("MPI Rank " + std::to_string(r));
  for (const auto& r : gl.regionList) gl.str(r.name), gl.str(r.file);
  for (const auto& s : gl.sclList) gl.str(s.first);
  for (const auto& c : gl.commList) gl.str(c.creator);
  for (const auto& w2 : gl.winList) gl.str(w2.name);
  for (std::size_t i = 0; i < gl.stringList.size(); ++i)
    OTF2_GlobalDefWriter_WriteString(w, static_cast<OTF2_StringRef>(i), gl.stringList[i].c_str());

  OTF2_GlobalDefWriter_WriteClockProperties(w, 1000000000ULL, offset, length, OTF2_UNDEFINED_TIMESTAMP);
  OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, sMpi, OTF2_PARADIGM_CLASS_PROCESS);
  OTF2_AttributeValue v;
  v.stringRef = gl.str("Comm ${id}");
  OTF2_GlobalDefWriter_WriteParadigmProperty(w, OTF2_PARADIGM_MPI, OTF2_PARADIGM_PROPERTY_COMM_NAME_TEMPLATE,
                                             OTF2_TYPE_STRING, v);
  v.stringRef = gl.str("Win ${id}");
  OTF2_GlobalDefWriter_WriteParadigmProperty(w, OTF2_PARADIGM_MPI, OTF2_PARADIGM_PROPERTY_RMA_WIN_NAME_TEMPLATE,
                                             OTF2_TYPE_STRING, v);

  OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, gl.str("Linux"), gl.str("machine"), OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(w, 0, OTF2_SYSTEM_TREE_DOMAIN_MACHINE);
  for (const auto& [h, id] : nodes) {
    OTF2_GlobalDefWriter_WriteSystemTreeNode(w, id, gl.str(h), gl.str("node"), 0);
    OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(w, id, OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY);
  }
  for (int r = 0; r < n; ++r)
    OTF2_GlobalDefWriter_WriteLocationGroup(w, static_cast<OTF2_LocationGroupRef>(r),
                                            gl.str("MPI Rank " + std::to_string(r)), OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                            nodes[hosts[static_cast<std::size_t>(r)]], OTF2_UNDEFINED_LOCATION_GROUP);
  for (int r = 0; r < n; ++r)
    OTF2_GlobalDefWriter_WriteLocation(w, static_cast<OTF2_LocationRef>(r), gl.str("Master thread"),
                                       OTF2_LOCATION_TYPE_CPU_THREAD, events[static_cast<std::size_t>(r)],
                                       static_cast<OTF2_LocationGroupRef>(r));

  // regions
  for (std::uint32_t i = 0; i < kNumMpi; ++i)
    OTF2_GlobalDefWriter_WriteRegion(w, i, gl.str(kMpiNames[i]), gl.str(kMpiNames[i]), gl.str(""), kMpiRoles[i],
                                     OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, sMpi, 0, 0);
  OTF2_GlobalDefWriter_WriteRegion(w, kFlushRegion, gl.str("TRACE BUFFER FLUSH"), gl.str("TRACE BUFFER FLUSH"),
                                   gl.str(""), OTF2_REGION_ROLE_ARTIFICIAL, OTF2_PARADIGM_MEASUREMENT_SYSTEM,
                                   OTF2_REGION_FLAG_NONE, OTF2_UNDEFINED_STRING, 0, 0);
  for (std::size_t i = 0; i < gl.regionList.size(); ++i) {
    const auto& r = gl.regionList[i];
    OTF2_GlobalDefWriter_WriteRegion(
        w, static_cast<OTF2_RegionRef>(kFirstUserRegion + i), gl.str(r.name), gl.str(r.name), gl.str(""),
        OTF2_REGION_ROLE_FUNCTION, r.compiler ? OTF2_PARADIGM_COMPILER : OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE,
        r.file.empty() ? OTF2_UNDEFINED_STRING : gl.str(r.file), r.line, r.line);
  }
  for (std::size_t i = 0; i < gl.sclList.size(); ++i)
    OTF2_GlobalDefWriter_WriteSourceCodeLocation(w, static_cast<OTF2_SourceCodeLocationRef>(i),
                                                 gl.str(gl.sclList[i].first), gl.sclList[i].second);
  OTF2_GlobalDefWriter_WriteAttribute(w, 0, gl.str("SOURCE_CODE_LOCATION"), gl.str("Source code location"),
                                      OTF2_TYPE_SOURCE_CODE_LOCATION);

  gl.group(all);
  for (const CommDef& c : gl.commList) gl.group(c.members);
  // groups: 0 = the MPI locations, 1 = COMM_SELF, 2.. = COMM_GROUPs of world ranks
  OTF2_GlobalDefWriter_WriteGroup(w, 0, gl.str(""), OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, static_cast<std::uint32_t>(n), all.data());
  OTF2_GlobalDefWriter_WriteGroup(w, 1, gl.str(""), OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, 0, nullptr);
  for (std::size_t i = 0; i < gl.groupList.size(); ++i)
    OTF2_GlobalDefWriter_WriteGroup(w, static_cast<OTF2_GroupRef>(i + 2), gl.str(""), OTF2_GROUP_TYPE_COMM_GROUP,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    static_cast<std::uint32_t>(gl.groupList[i].size()), gl.groupList[i].data());
  OTF2_GlobalDefWriter_WriteComm(w, kWorldComm, gl.str("MPI_COMM_WORLD"), gl.group(all), OTF2_UNDEFINED_COMM,
                                 OTF2_COMM_FLAG_NONE);
  OTF2_GlobalDefWriter_WriteComm(w, kSelfComm, gl.str("MPI_COMM_SELF"), 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  for (std::size_t i = 0; i < gl.commList.size(); ++i) {
    const CommDef& c = gl.commList[i];
    OTF2_GlobalDefWriter_WriteComm(w, static_cast<OTF2_CommRef>(i + 2), gl.str(c.creator), gl.group(c.members),
                                   c.parent, OTF2_COMM_FLAG_NONE);
  }
  for (std::size_t i = 0; i < gl.winList.size(); ++i)
    OTF2_GlobalDefWriter_WriteRmaWin(w, static_cast<OTF2_RmaWinRef>(i), gl.str(gl.winList[i].name),
                                     gl.winList[i].comm, OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS);
  OTF2_Archive_CloseGlobalDefWriter(g.archive, w);
}

}  // namespace

void openProgramRegion(std::uint64_t time) {
  if (gDepth != 0 || !(g.recording || g.profiling)) return;
  const OTF2_RegionRef region = namedRegion("main");
  if (region == kFilteredRegion) return;
  gStack[0] = region;
  gDepth = 1;
  if (g.profiling) profile::enterUser(region);
  else OTF2_EvtWriter_Enter(g.evt, nullptr, time, region);
}

void finishMeasurement() {
  // Close regions still open (e.g. main, when MPI_Finalize is called from it).
  const std::uint64_t t = stamp();
  for (std::size_t i = std::min(gDepth, kMaxDepth); i-- > 0;) OTF2_EvtWriter_Leave(g.evt, nullptr, t, gStack[i]);
  g.recording = false;
  gFinished = true;
  std::uint64_t events = 0;
  OTF2_EvtWriter_GetNumberOfEvents(g.evt, &events);
  OTF2_Archive_CloseEvtWriter(g.archive, g.evt);
  g.evt = nullptr;
  OTF2_Archive_CloseEvtFiles(g.archive);

  // Gather definitions, event counts, host names and times at rank 0.
  const Blob local = localDefinitions();
  const int n = g.worldSize;
  int size = static_cast<int>(local.data.size());
  std::vector<int> sizes(static_cast<std::size_t>(n)), displs(static_cast<std::size_t>(n));
  PMPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string all;
  if (g.worldRank == 0) {
    int total = 0;
    for (int r = 0; r < n; ++r) displs[static_cast<std::size_t>(r)] = total, total += sizes[static_cast<std::size_t>(r)];
    all.resize(static_cast<std::size_t>(total));
  }
  PMPI_Gatherv(local.data.data(), size, MPI_BYTE, all.data(), sizes.data(), displs.data(), MPI_BYTE, 0, MPI_COMM_WORLD);
  std::vector<std::uint64_t> eventCounts(static_cast<std::size_t>(n));
  PMPI_Gather(&events, 1, MPI_UINT64_T, eventCounts.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  std::string hosts(static_cast<std::size_t>(n) * sizeof host, '\0');
  PMPI_Gather(host, sizeof host, MPI_CHAR, hosts.data(), sizeof host, MPI_CHAR, 0, MPI_COMM_WORLD);
  std::uint64_t start = g.startTime, end = t, minStart = 0, maxEnd = 0;
  PMPI_Reduce(&start, &minStart, 1, MPI_UINT64_T, MPI_MIN, 0, MPI_COMM_WORLD);
  PMPI_Reduce(&end, &maxEnd, 1, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);

  Global gl;
  std::string mapsAll;
  std::vector<int> mapSizes(static_cast<std::size_t>(n)), mapDispls(static_cast<std::size_t>(n));
  if (g.worldRank == 0) {
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
  std::string mine(static_cast<std::size_t>(mySize), '\0');
  PMPI_Scatterv(mapsAll.data(), mapSizes.data(), mapDispls.data(), MPI_BYTE, mine.data(), mySize, MPI_BYTE, 0,
                MPI_COMM_WORLD);

  // Local definitions: mapping tables from this rank's ids to the global ones.
  OTF2_Archive_OpenDefFiles(g.archive);
  OTF2_DefWriter* dw = OTF2_Archive_GetDefWriter(g.archive, static_cast<OTF2_LocationRef>(g.worldRank));
  BlobReader mr{mine.data()};
  for (OTF2_MappingType type : {OTF2_MAPPING_REGION, OTF2_MAPPING_SOURCE_CODE_LOCATION, OTF2_MAPPING_GROUP,
                                OTF2_MAPPING_COMM, OTF2_MAPPING_RMA_WIN}) {
    std::vector<std::uint64_t> map = mr.vec();
    writeMapping(dw, type, map);
  }
  OTF2_Archive_CloseDefWriter(g.archive, dw);
  OTF2_Archive_CloseDefFiles(g.archive);

  if (g.worldRank == 0) {
    std::vector<std::string> hostNames;
    for (int r = 0; r < n; ++r) hostNames.emplace_back(hosts.data() + static_cast<std::size_t>(r) * sizeof host);
    writeGlobalDefinitions(gl, eventCounts, hostNames, minStart, maxEnd - minStart);
  }
  OTF2_AttributeList_Delete(g.attrs);
  OTF2_Archive_Close(g.archive);
  g.archive = nullptr;
  if (g.worldRank == 0 && !std::getenv("WAITSCOPE_QUIET"))
    std::fprintf(stderr, "waitscope: trace written to %s/traces.otf2\n", g.dir.c_str());
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
