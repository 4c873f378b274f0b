#include "bench/trace_generator.h"

#include <otf2/otf2.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <stdexcept>

namespace waitscope::bench {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kTicksPerSecond = 1'000'000'000;   // Score-P's usual clock: nanoseconds
constexpr std::uint64_t kClockOrigin = 1'700'000'000'000;  // a non-zero global offset, as in real traces
constexpr std::uint64_t kStepTicks = 500'000;              // one solver iteration: 0.5 ms
constexpr std::uint64_t kChunkSizeEvents = 1024 * 1024;
constexpr std::uint64_t kChunkSizeDefs = 4 * 1024 * 1024;
constexpr std::uint32_t kCollectiveEvery = 8;              // MPI_Allreduce every 8th iteration
constexpr std::uint32_t kFenceEpochEvery = 32;             // a fence / put / fence epoch every 32nd
constexpr std::uint64_t kPrologueEvents = 9;               // ProgramBegin, main, MPI_Init, MPI_Win_create
constexpr std::uint64_t kEpilogueEvents = 9;               // MPI_Win_free, MPI_Finalize, main, ProgramEnd

constexpr OTF2_CommRef kCommWorld = 0;
constexpr OTF2_CommRef kCommSelf = 1;
constexpr OTF2_RmaWinRef kWindow = 0;

void check(OTF2_ErrorCode code, const char* what) {
  if (code != OTF2_SUCCESS)
    throw std::runtime_error(std::string("trace generator: ") + what + ": " + OTF2_Error_GetDescription(code));
}

// Regions, in definition order; the index is the OTF2 region reference.
enum Region : OTF2_RegionRef {
  kMain, kSolverStep,
  kKernelFirst, kKernelLast = kKernelFirst + 5,
  kHelperFirst, kHelperLast = kHelperFirst + 4,
  kMpiInit, kMpiFinalize, kMpiSend, kMpiRecv, kMpiAllreduce, kMpiWinCreate, kMpiWinFence, kMpiPut, kMpiWinFree,
  kRegionCount
};

struct RegionDef {
  const char* name;
  OTF2_RegionRole role;
  OTF2_Paradigm paradigm;
  std::uint32_t line;  // 0: no source file (MPI)
};

constexpr std::array<RegionDef, kRegionCount> kRegions = {{
    {"main", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER, 12},
    {"solver_step", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER, 80},
    {"compute_fluxes", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER, 140},
    {"update_cells", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER, 210},
    {"apply_boundary", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER, 275},
    {"assemble_matrix", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER, 330},
    {"smooth_residual", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER, 402},
    {"compute_norms", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER, 468},
    {"interpolate", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER, 520},
    {"vector_axpy", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER, 561},
    {"dot_product", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER, 590},
    {"stencil_3d", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER, 622},
    {"flux_limiter", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER, 688},
    {"MPI_Init", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI, 0},
    {"MPI_Finalize", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI, 0},
    {"MPI_Send", OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI, 0},
    {"MPI_Recv", OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI, 0},
    {"MPI_Allreduce", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_PARADIGM_MPI, 0},
    {"MPI_Win_create", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI, 0},
    {"MPI_Win_fence", OTF2_REGION_ROLE_BARRIER, OTF2_PARADIGM_MPI, 0},
    {"MPI_Put", OTF2_REGION_ROLE_RMA, OTF2_PARADIGM_MPI, 0},
    {"MPI_Win_free", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI, 0},
}};

// splitmix64: tiny, fast and good enough for shaping a workload.
struct Rng {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }
};

// Writes the events of one rank, counting them and keeping its clock monotonic.
class RankWriter {
 public:
  RankWriter(OTF2_EvtWriter* w, std::uint32_t rank, std::uint32_t size, std::uint64_t seed, std::uint64_t skew)
      : w_(w), rank_(rank), size_(size), jitter_{seed * 0x2545F4914F6CDD1Dull + rank},
        slowdown_(1.0 + 0.04 * (rank % 16)), skew_(skew) {}

  std::uint64_t events() const { return events_; }
  OTF2_TimeStamp now() const { return t_ + skew_; }

  void prologue() {
    t_ = kClockOrigin + 1000 + 37 * rank_;
    check(OTF2_EvtWriter_ProgramBegin(w_, nullptr, t_ + skew_, programName_, 0, nullptr), "ProgramBegin");
    ++events_;
    advance(200);
    enter(kMain);
    enter(kMpiInit);
    advance(150'000 + jitter_.below(20'000));
    leave(kMpiInit);
    enter(kMpiWinCreate);
    rmaCollectiveBegin();
    check(OTF2_EvtWriter_RmaWinCreate(w_, nullptr, t_ + skew_, kWindow), "RmaWinCreate");
    ++events_;
    syncTo(kClockOrigin + 300'000);
    rmaCollectiveEnd(OTF2_COLLECTIVE_OP_CREATE_HANDLE, OTF2_RMA_SYNC_LEVEL_NONE);
    leave(kMpiWinCreate);
    begin_ = kClockOrigin + 400'000;
  }

  // One solver iteration; `shape` draws the call structure, identical on every rank.
  void step(std::uint64_t s, Rng shape) {
    const OTF2_TimeStamp T = begin_ + s * kStepTicks;
    syncTo(T);
    enter(kSolverStep);
    const std::uint32_t kernels = 2 + shape.below(4);
    for (std::uint32_t k = 0; k < kernels; ++k)
      compute(static_cast<OTF2_RegionRef>(kKernelFirst + shape.below(kKernelLast - kKernelFirst + 1)), 0, shape);

    // Halo exchange around a ring: even ranks send first, odd ranks receive first.
    const std::uint32_t right = (rank_ + 1) % size_;
    const std::uint32_t left = (rank_ + size_ - 1) % size_;
    const OTF2_TimeStamp exchanged = T + kStepTicks * 5 / 10 + jitter_.below(2000);
    if (rank_ % 2 == 0) {
      send(right, exchanged);
      recv(left, exchanged + 4000);
    } else {
      recv(left, exchanged);
      send(right, exchanged + 4000);
    }

    if (s % kCollectiveEvery == kCollectiveEvery - 1) {
      enter(kMpiAllreduce);
      advance(120);
      check(OTF2_EvtWriter_MpiCollectiveBegin(w_, nullptr, t_ + skew_), "MpiCollectiveBegin");
      ++events_;
      syncTo(T + kStepTicks * 65 / 100 + jitter_.below(500));
      check(OTF2_EvtWriter_MpiCollectiveEnd(w_, nullptr, t_ + skew_, OTF2_COLLECTIVE_OP_ALLREDUCE, kCommWorld,
                                            OTF2_UNDEFINED_UINT32, 8 * 16, 8 * 16),
            "MpiCollectiveEnd");
      ++events_;
      advance(150);
      leave(kMpiAllreduce);
    }

    if (s % kFenceEpochEvery == kFenceEpochEvery - 1) {
      const std::uint64_t id = ++matchingId_;
      enter(kMpiWinFence);  // opens the epoch
      rmaCollectiveBegin();
      syncTo(T + kStepTicks * 75 / 100 + jitter_.below(500));
      rmaCollectiveEnd(OTF2_COLLECTIVE_OP_BARRIER, OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY);
      leave(kMpiWinFence);
      enter(kMpiPut);
      advance(300);
      check(OTF2_EvtWriter_RmaPut(w_, nullptr, t_ + skew_, kWindow, right, 4096, id), "RmaPut");
      ++events_;
      advance(400);
      leave(kMpiPut);
      enter(kMpiWinFence);  // closes it: the put completes here
      rmaCollectiveBegin();
      syncTo(T + kStepTicks * 85 / 100 + jitter_.below(500));
      check(OTF2_EvtWriter_RmaOpCompleteNonBlocking(w_, nullptr, t_ + skew_, kWindow, id), "RmaOpCompleteNonBlocking");
      ++events_;
      advance(20);
      rmaCollectiveEnd(OTF2_COLLECTIVE_OP_BARRIER, OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY);
      leave(kMpiWinFence);
    }
    advance(500);
    leave(kSolverStep);
    if (t_ >= T + kStepTicks) throw std::logic_error("trace generator: an iteration overran its time slot");
  }

  void epilogue(std::uint64_t steps) {
    syncTo(begin_ + steps * kStepTicks);
    enter(kMpiWinFree);
    rmaCollectiveBegin();
    check(OTF2_EvtWriter_RmaWinDestroy(w_, nullptr, t_ + skew_, kWindow), "RmaWinDestroy");
    ++events_;
    syncTo(begin_ + steps * kStepTicks + 50'000);
    rmaCollectiveEnd(OTF2_COLLECTIVE_OP_DESTROY_HANDLE, OTF2_RMA_SYNC_LEVEL_NONE);
    leave(kMpiWinFree);
    enter(kMpiFinalize);
    syncTo(begin_ + steps * kStepTicks + 150'000);
    leave(kMpiFinalize);
    advance(300);
    leave(kMain);
    advance(100);
    check(OTF2_EvtWriter_ProgramEnd(w_, nullptr, t_ + skew_, 0), "ProgramEnd");
    ++events_;
  }

  void setProgramName(OTF2_StringRef name) { programName_ = name; }

 private:
  void advance(std::uint64_t ticks) { t_ += ticks; }
  void syncTo(OTF2_TimeStamp t) { t_ = std::max(t_ + 10, t); }
  void enter(OTF2_RegionRef r) {
    check(OTF2_EvtWriter_Enter(w_, nullptr, t_ + skew_, r), "Enter");
    ++events_;
    advance(40 + jitter_.below(40));
  }
  void leave(OTF2_RegionRef r) {
    check(OTF2_EvtWriter_Leave(w_, nullptr, t_ + skew_, r), "Leave");
    ++events_;
    advance(30 + jitter_.below(30));
  }
  // A kernel and the helpers it calls, up to two levels deep.
  void compute(OTF2_RegionRef region, int depth, Rng& shape) {
    enter(region);
    const std::uint32_t children = depth < 2 ? shape.below(3) : 0;
    for (std::uint32_t c = 0; c < children; ++c)
      compute(static_cast<OTF2_RegionRef>(kHelperFirst + shape.below(kHelperLast - kHelperFirst + 1)), depth + 1,
              shape);
    const std::uint64_t work = 400 + shape.below(2800);
    advance(static_cast<std::uint64_t>(static_cast<double>(work) * slowdown_) + jitter_.below(100));
    leave(region);
  }
  void send(std::uint32_t to, OTF2_TimeStamp) {
    enter(kMpiSend);
    advance(150);
    check(OTF2_EvtWriter_MpiSend(w_, nullptr, t_ + skew_, to, kCommWorld, 7, 65536), "MpiSend");
    ++events_;
    advance(1800 + jitter_.below(300));  // eager protocol: returns once buffered
    leave(kMpiSend);
  }
  void recv(std::uint32_t from, OTF2_TimeStamp arrival) {
    enter(kMpiRecv);
    syncTo(arrival);  // a late sender makes this rank wait
    check(OTF2_EvtWriter_MpiRecv(w_, nullptr, t_ + skew_, from, kCommWorld, 7, 65536), "MpiRecv");
    ++events_;
    advance(80);
    leave(kMpiRecv);
  }
  void rmaCollectiveBegin() {
    advance(100);
    check(OTF2_EvtWriter_RmaCollectiveBegin(w_, nullptr, t_ + skew_), "RmaCollectiveBegin");
    ++events_;
  }
  void rmaCollectiveEnd(OTF2_CollectiveOp op, OTF2_RmaSyncLevel level) {
    check(OTF2_EvtWriter_RmaCollectiveEnd(w_, nullptr, t_ + skew_, op, level, kWindow, OTF2_UNDEFINED_UINT32, 0, 0),
          "RmaCollectiveEnd");
    ++events_;
    advance(100);
  }

  OTF2_EvtWriter* w_;
  std::uint32_t rank_;
  std::uint32_t size_;
  Rng jitter_;  // timing noise, differs per rank
  double slowdown_;  // load imbalance: higher ranks (in each group of 16) compute a little slower
  std::uint64_t skew_;  // added to every timestamp written: this rank's clock runs ahead
  OTF2_TimeStamp t_ = 0;
  OTF2_TimeStamp begin_ = 0;
  std::uint64_t events_ = 0;
  std::uint64_t matchingId_ = 0;
  OTF2_StringRef programName_ = 0;
};

OTF2_FlushType preFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_TimeStamp postFlush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }
const OTF2_FlushCallbacks kFlushCallbacks = {preFlush, postFlush};

struct Strings {
  std::vector<std::string> all;
  OTF2_StringRef add(std::string s) {
    all.push_back(std::move(s));
    return static_cast<OTF2_StringRef>(all.size() - 1);
  }
};

}  // namespace

GeneratedTrace generateTrace(const std::string& dir, const GeneratorOptions& options) {
  if (options.locations == 0) throw std::runtime_error("trace generator: need at least one location");
  const fs::path root(dir);
  if (fs::exists(root / "traces.otf2"))
    throw std::runtime_error("trace generator: " + (root / "traces.otf2").string() + " exists already");
  fs::create_directories(root);

  OTF2_Archive* archive = OTF2_Archive_Open(root.string().c_str(), "traces", OTF2_FILEMODE_WRITE, kChunkSizeEvents,
                                            kChunkSizeDefs, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!archive) throw std::runtime_error("trace generator: cannot create an OTF2 archive in " + dir);
  struct Closer {
    OTF2_Archive*& a;
    ~Closer() {
      if (a) OTF2_Archive_Close(a);
    }
  } closer{archive};
  check(OTF2_Archive_SetFlushCallbacks(archive, &kFlushCallbacks, nullptr), "set flush callbacks");
  check(OTF2_Archive_SetSerialCollectiveCallbacks(archive), "set collective callbacks");
  check(OTF2_Archive_SetCreator(archive, "waitscope-bench-gen-trace"), "set creator");
  check(OTF2_Archive_SetDescription(archive, "synthetic MPI solver trace"), "set description");

  Strings strings;
  strings.add("");
  const OTF2_StringRef programName = strings.add("./solver");

  // Events first (like Score-P): then the definitions can announce exact event counts.
  const std::uint32_t L = options.locations;
  const std::uint64_t perLocation = (options.events + L - 1) / L;
  GeneratedTrace result;
  result.anchorPath = (root / "traces.otf2").string();
  check(OTF2_Archive_OpenEvtFiles(archive), "open event files");
  OTF2_TimeStamp lastTime = 0;
  for (std::uint32_t r = 0; r < L; ++r) {
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive, r);
    if (!w) throw std::runtime_error("trace generator: cannot create the event writer of location " + std::to_string(r));
    RankWriter rank(w, r, L, options.seed, r == 1 ? options.skewTicks : 0);
    rank.setProgramName(programName);
    rank.prologue();
    std::uint64_t s = 0;
    // Every rank draws the same call structure, so all ranks stop after the same iteration.
    while (rank.events() + kEpilogueEvents < perLocation || s == 0) {
      rank.step(s, Rng{options.seed * 0x9E3779B97F4A7C15ull ^ (s * 0xD1B54A32D192ED03ull)});
      ++s;
    }
    rank.epilogue(s);
    if (r == 0) result.steps = s;
    if (s != result.steps) throw std::logic_error("trace generator: ranks disagree on the iteration count");
    lastTime = std::max(lastTime, rank.now());
    result.eventsPerLocation.push_back(rank.events());
    result.events += rank.events();
    check(OTF2_Archive_CloseEvtWriter(archive, w), "close event writer");
  }
  check(OTF2_Archive_CloseEvtFiles(archive), "close event files");
  static_assert(kPrologueEvents + kEpilogueEvents == 18);

  // Local definitions: the reader wants one (here empty) file per location.
  check(OTF2_Archive_OpenDefFiles(archive), "open local definition files");
  for (std::uint32_t r = 0; r < L; ++r) {
    OTF2_DefWriter* dw = OTF2_Archive_GetDefWriter(archive, r);
    if (!dw) throw std::runtime_error("trace generator: cannot create the definition writer of location " + std::to_string(r));
    check(OTF2_Archive_CloseDefWriter(archive, dw), "close local definition writer");
  }
  check(OTF2_Archive_CloseDefFiles(archive), "close local definition files");

  OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive);
  if (!g) throw std::runtime_error("trace generator: cannot create the global definition writer");
  check(OTF2_GlobalDefWriter_WriteClockProperties(g, kTicksPerSecond, kClockOrigin, lastTime - kClockOrigin + 1,
                                                  OTF2_UNDEFINED_TIMESTAMP),
        "clock properties");

  // Strings are referenced by everything else, so collect them first.
  const OTF2_StringRef sourceFile = strings.add("/home/user/solver/solver.c");
  std::array<OTF2_StringRef, kRegionCount> regionNames{};
  for (std::size_t i = 0; i < kRegions.size(); ++i) regionNames[i] = strings.add(kRegions[i].name);
  const OTF2_StringRef machine = strings.add("generated cluster");
  const OTF2_StringRef machineClass = strings.add("machine");
  const OTF2_StringRef node = strings.add("node001");
  const OTF2_StringRef nodeClass = strings.add("node");
  const OTF2_StringRef masterThread = strings.add("Master thread");
  std::vector<OTF2_StringRef> rankNames;
  for (std::uint32_t r = 0; r < L; ++r) rankNames.push_back(strings.add("MPI Rank " + std::to_string(r)));
  const OTF2_StringRef commWorld = strings.add("MPI_COMM_WORLD");
  const OTF2_StringRef commSelf = strings.add("MPI_COMM_SELF");
  const OTF2_StringRef windowName = strings.add("MPI window 0");
  for (std::size_t i = 0; i < strings.all.size(); ++i)
    check(OTF2_GlobalDefWriter_WriteString(g, static_cast<OTF2_StringRef>(i), strings.all[i].c_str()), "string");

  for (std::size_t i = 0; i < kRegions.size(); ++i) {
    const RegionDef& d = kRegions[i];
    check(OTF2_GlobalDefWriter_WriteRegion(g, static_cast<OTF2_RegionRef>(i), regionNames[i], regionNames[i], 0, d.role,
                                           d.paradigm, OTF2_REGION_FLAG_NONE,
                                           d.line ? sourceFile : OTF2_UNDEFINED_STRING, d.line, d.line ? d.line + 20 : 0),
          "region");
  }
  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, machine, machineClass, OTF2_UNDEFINED_SYSTEM_TREE_NODE),
        "system tree node");
  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 1, node, nodeClass, 0), "system tree node");
  for (std::uint32_t r = 0; r < L; ++r)
    check(OTF2_GlobalDefWriter_WriteLocationGroup(g, r, rankNames[r], OTF2_LOCATION_GROUP_TYPE_PROCESS, 1,
                                                  OTF2_UNDEFINED_LOCATION_GROUP),
          "location group");
  for (std::uint32_t r = 0; r < L; ++r)
    check(OTF2_GlobalDefWriter_WriteLocation(g, r, masterThread, OTF2_LOCATION_TYPE_CPU_THREAD,
                                             result.eventsPerLocation[r], r),
          "location");

  std::vector<std::uint64_t> members(L);
  for (std::uint32_t r = 0; r < L; ++r) members[r] = r;  // location r is world rank r
  check(OTF2_GlobalDefWriter_WriteGroup(g, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                        OTF2_GROUP_FLAG_NONE, L, members.data()),
        "MPI locations group");
  check(OTF2_GlobalDefWriter_WriteGroup(g, 1, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                        L, members.data()),
        "MPI_COMM_WORLD group");
  check(OTF2_GlobalDefWriter_WriteGroup(g, 2, 0, OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                        0, nullptr),
        "MPI_COMM_SELF group");
  check(OTF2_GlobalDefWriter_WriteComm(g, kCommWorld, commWorld, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
        "MPI_COMM_WORLD");
  check(OTF2_GlobalDefWriter_WriteComm(g, kCommSelf, commSelf, 2, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
        "MPI_COMM_SELF");
  check(OTF2_GlobalDefWriter_WriteRmaWin(g, kWindow, windowName, kCommWorld, OTF2_RMA_WIN_FLAG_NONE), "RMA window");

  check(OTF2_Archive_CloseGlobalDefWriter(archive, g), "close global definition writer");
  OTF2_Archive* a = archive;
  archive = nullptr;
  check(OTF2_Archive_Close(a), "close archive");
  return result;
}

}  // namespace waitscope::bench
