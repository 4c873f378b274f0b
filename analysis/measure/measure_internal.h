#pragma once
// Internal state of libwaitscope-measure: the per-rank OTF2 event writer, the local definition
// tables (unified into global definitions at MPI_Finalize), and the record helpers the MPI
// wrappers use. One recorded thread per process: the one that called MPI_Init.
#include <mpi.h>
#include <otf2/otf2.h>

#include <cstdint>
#include <ctime>
#include <deque>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/measure/clock_sync.h"
#include "analysis/measure/global_definitions.h"

namespace waitscope::measure {

enum class Fn : std::uint32_t {
#define WS_MPI(category, role, name, params, args) name,
#include "analysis/measure/mpi_functions.def"
#undef WS_MPI
  kCount
};
static_assert(static_cast<std::uint32_t>(Fn::kCount) == kNumMpi);
constexpr OTF2_RegionRef kFilteredRegion = OTF2_UNDEFINED_REGION;

inline std::uint64_t now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<std::uint64_t>(ts.tv_nsec);
}


struct PendingRmaOp {
  std::uint64_t id;
  int target;
  bool isGet;
  bool localDone;
};

struct WinInfo {
  OTF2_RmaWinRef id = 0;
  OTF2_GroupRef accessGroup = OTF2_UNDEFINED_GROUP;    // from MPI_Win_start
  OTF2_GroupRef exposureGroup = OTF2_UNDEFINED_GROUP;  // from MPI_Win_post
  bool allocated = false;
  std::vector<PendingRmaOp> pending;
};


enum class ReqKind : std::uint8_t { Isend, Irecv, Rma };
struct ReqInfo {
  ReqKind kind;
  bool persistent = false;
  bool active = true;
  std::uint64_t id = 0;           // OTF2 request id, or RMA matching id
  // p2p (persistent requests re-issue these at MPI_Start)
  int peer = 0;
  OTF2_CommRef comm = 0;
  int tag = 0;
  std::uint64_t bytes = 0;
  MPI_Win win = MPI_WIN_NULL;     // RMA
};


// The recording library's state in this process: the mode, the trace being written, the local
// definitions and the MPI handle tables.
struct RecorderState {
  bool recording = false;
  bool profiling = false;  // profile mode (profile_runtime.h): no trace, no records
  bool online = false;     // online mode (online_runtime.h): profile mode plus events to a tool place
  int placeExitCode = 0;   // a tool place of an online run: its result, the process' exit code
  bool incomplete = false;
  int worldRank = 0;
  int worldSize = 1;
  std::string dir;
  std::uint64_t startTime = 0;
  std::uint64_t lastTime = 0;
  OTF2_Archive* archive = nullptr;
  OTF2_EvtWriter* evt = nullptr;
  OTF2_AttributeList* attrs = nullptr;
  bool flushPending = false;
  int logFd = -1;  // the definition log (partial_trace.h)
  // The first failure to write the trace (an OTF2 error code: a full disk, a quota), 0 if none.
  // OTF2's own messages are kept off stderr: the run says it once, at the end.
  int writeError = 0;
  char failedMarker[4200] = {};  // partial::failedMarkerPath(dir), ready for the abort path
  OTF2_RegionRef openMpi = OTF2_UNDEFINED_REGION;  // the MPI call in progress, closed by an abort
  // A record written after the PMPI call took the time (MPI_RECV, MPI_COLLECTIVE_END): the
  // LEAVE that follows at once uses it too, one clock read less per call.
  bool stampedAfterCall = false;
  std::uint64_t flushStart = 0, flushEnd = 0;
  std::uint64_t nextRequestId = 1;
  std::uint64_t nextMatchingId = 1;
  std::uint32_t keyCounter = 0;
  bool mpiFiltered[kNumMpi] = {};
  std::vector<std::string> filters;
  // Clock offsets to rank 0 (clock_sync.h), measured at MPI_Init and MPI_Finalize over a
  // communicator of their own, written as the location's ClockOffset definitions.
  MPI_Comm clockComm = MPI_COMM_NULL;
  bool measureAllClocks = false;
  std::vector<ClockOffsetSample> clockOffsets;

  // definitions, local ids = indices
  std::vector<UserRegionDef> userRegions;
  std::vector<std::pair<std::string, std::uint32_t>> sourceLocations;
  std::vector<CommDef> comms;
  std::vector<WinDef> wins;
  std::vector<std::vector<std::uint64_t>> groups;
  std::map<std::vector<std::uint64_t>, OTF2_GroupRef> groupIds;

  // handle tables
  std::unordered_map<MPI_Comm, OTF2_CommRef> commIds;
  std::unordered_map<MPI_Win, WinInfo> winInfo;
  std::unordered_map<MPI_Request, ReqInfo> requests;
  // The later live requests of a handle that `requests` already tracks, oldest first: Open MPI and
  // MPICH return one shared, already completed request from every MPI_Isend that completed at
  // once, so several live requests may have one handle; each completion on it takes the oldest.
  std::unordered_map<MPI_Request, std::deque<ReqInfo>> sharedRequests;
  // Messages matched by MPI_Mprobe/MPI_Improbe, until MPI_Mrecv/MPI_Imrecv receives them: the
  // message handle alone does not say its communicator.
  std::unordered_map<MPI_Message, OTF2_CommRef> matchedMessages;
  std::unordered_map<std::uintptr_t, OTF2_SourceCodeLocationRef> callSites;
  std::unordered_map<OTF2_CommRef, std::uint64_t> idupCounts;  // MPI_Comm_idup calls per parent
  // Calls whose messages or collectives could not be recorded (unrecorded_calls.h).
  std::uint64_t unrecordedCalls = 0;
  std::uint32_t firstUnrecorded = kNumMpi;  // its table index
};

extern RecorderState recorder;
// Initial-exec TLS: the library is preloaded or linked, never dlopen'ed late, and every
// wrapper reads this (the default model would call __tls_get_addr each time).
[[gnu::tls_model("initial-exec")]] extern thread_local bool tMainThread;

inline bool active() { return recorder.recording && tMainThread; }

// Writes the "TRACE BUFFER FLUSH" region of a flush that happened since the last region boundary.
void writeFlushRegion();
inline void boundary() {
  if (recorder.flushPending) [[unlikely]] writeFlushRegion();
}
inline std::uint64_t stamp() { return recorder.lastTime = now(); }

// Appends a record to this rank's definition log, so that an aborted run's trace can be completed.
void logDefinition(const std::string& record);

OTF2_SourceCodeLocationRef callSite(void* returnAddress);
// Source file and line of a code address (libdw); false when unknown.
bool sourceLineOf(std::uintptr_t address, std::string& file, std::uint32_t& line);
void enterRegion(OTF2_RegionRef region, std::uint64_t time, OTF2_SourceCodeLocationRef site);
void leaveRegion(OTF2_RegionRef region, std::uint64_t time);

// Definitions
OTF2_CommRef commId(MPI_Comm comm);                   // OTF2_UNDEFINED_COMM if unknown
void registerComm(MPI_Comm comm, const char* creator, MPI_Comm parent);
// An inter-communicator's two groups; `parent` is its common communicator where this rank knows
// it (OTF2_UNDEFINED_COMM elsewhere). Collective over both groups.
void registerInterComm(MPI_Comm comm, const char* creator, OTF2_CommRef parent);
// MPI_Comm_idup's communicator, defined without communicating.
void registerIdup(MPI_Comm comm, MPI_Comm parent);
void forgetComm(MPI_Comm comm);
OTF2_GroupRef groupId(MPI_Group group);               // COMM_GROUP of world ranks
std::uint64_t agreeKey(MPI_Comm comm);                // collective over comm

// Measurement life cycle
void startMeasurement(std::uint64_t initEnter);
void finishMeasurement();
// Programs without user instrumentation record only MPI calls, so their time between
// MPI calls would belong to no region and count nowhere. If no user region is open at
// MPI_Init, an artificial "main" is opened at its enter (and closed at the end of
// MPI_Finalize like every open region): that time becomes computation, as with an
// instrumented main.
void openProgramRegion(std::uint64_t time);
void abortMeasurement(const char* why);

}  // namespace waitscope::measure
