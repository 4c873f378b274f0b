#pragma once
// Builds traces with exact timestamps for tests: C++ code states what each MPI
// rank did and when, and gets the record sequence Score-P 7.1 writes for those
// calls (docs/trace-format.md). Times are seconds; every helper that models an
// MPI call takes its ENTER and LEAVE times first.
//
//   TraceBuilder b(2);
//   b.rank(0).enter(0.0, "main");
//   b.rank(0).send(1.0, 1.5, /*dest*/ 1, /*bytes*/ 1024, /*tag*/ 0);
//   b.rank(1).enter(0.0, "main");
//   b.rank(1).recv(0.5, 1.6, /*source*/ 0, 1024, 0);
//   b.rank(0).leave(2.0, "main");
//   b.rank(1).leave(2.0, "main");
//   b.write(dir);
//
// Input errors (time going backwards on a rank, a leave without its enter, an
// unknown rank, window or request) throw std::invalid_argument.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/trace/trace.h"

namespace waitscope::trace {

class TraceBuilder;

// A non-blocking request (MPI_Isend/Irecv/Rput/Rget), completed by wait()/test().
struct Request {
  std::uint64_t id = 0;
};

// How a window was created; decides the operation of its create and free records.
enum class WindowKind : std::uint8_t { Create, Allocate };

// The events of one MPI rank. Obtained from TraceBuilder::rank(); stays valid
// as long as the builder.
class RankBuilder {
 public:
  // ---- regions ----
  // `callSite` (file, line) is where the caller calls `region`; empty file = none.
  RankBuilder& enter(double time, const std::string& region, const SourceLocation& callSite = {});
  RankBuilder& leave(double time, const std::string& region);
  // Sets the call site of the next ENTER this rank writes (user region or MPI call).
  RankBuilder& at(const std::string& file, std::uint32_t line);

  // ---- MPI environment ----
  RankBuilder& init(double enter, double leave);
  RankBuilder& finalize(double enter, double leave);
  // A ClockOffset definition: at `localTime` (this rank's clock, as its event times are given) the
  // global clock was `offset` seconds ahead. Written to the archive's local definitions only:
  // an in-memory analysis of the builder's trace sees the times as given.
  RankBuilder& clockOffset(double localTime, double offset);

  // ---- point-to-point (peer: rank in `comm`; comm defaults to MPI_COMM_WORLD) ----
  RankBuilder& send(double enter, double leave, Rank dest, std::uint64_t bytes, std::uint32_t tag, CommId comm = 0);
  RankBuilder& ssend(double enter, double leave, Rank dest, std::uint64_t bytes, std::uint32_t tag, CommId comm = 0);
  RankBuilder& recv(double enter, double leave, Rank source, std::uint64_t bytes, std::uint32_t tag, CommId comm = 0);
  Request isend(double enter, double leave, Rank dest, std::uint64_t bytes, std::uint32_t tag, CommId comm = 0);
  Request irecv(double enter, double leave, Rank source, std::uint64_t bytes, std::uint32_t tag, CommId comm = 0);
  // MPI_Wait / MPI_Waitall: the completion records of the requests, at the leave time.
  RankBuilder& wait(double enter, double leave, Request request);
  RankBuilder& waitAll(double enter, double leave, const std::vector<Request>& requests);
  // MPI_Test: completes the request if `completed`, else writes MPI_REQUEST_TEST.
  RankBuilder& test(double enter, double leave, Request request, bool completed);
  // MPI_Cancel: the request's completion will be written as MPI_REQUEST_CANCELLED.
  RankBuilder& cancel(double enter, double leave, Request request);

  // ---- collectives (MPI_COLLECTIVE_BEGIN at enter, _END at leave). `bytes` is
  // this rank's payload; see docs/trace-format.md for the sent/received values. ----
  RankBuilder& barrier(double enter, double leave, CommId comm = 0);
  RankBuilder& bcast(double enter, double leave, Rank root, std::uint64_t bytes, CommId comm = 0);
  RankBuilder& reduce(double enter, double leave, Rank root, std::uint64_t bytes, CommId comm = 0);
  RankBuilder& allreduce(double enter, double leave, std::uint64_t bytes, CommId comm = 0);
  RankBuilder& scan(double enter, double leave, std::uint64_t bytes, CommId comm = 0);
  RankBuilder& alltoall(double enter, double leave, std::uint64_t bytes, CommId comm = 0);
  // Any collective: region `mpiFunction` with one MPI_COLLECTIVE_END(op, comm, root, sent, received).
  RankBuilder& collective(double enter, double leave, const std::string& mpiFunction, CollectiveOp op, Rank root,
                          std::uint64_t sent, std::uint64_t received, CommId comm = 0);

  // ---- RMA window management (the window is defined by TraceBuilder::defineWindow) ----
  RankBuilder& winCreate(double enter, double leave, WinId win);
  RankBuilder& winFree(double enter, double leave, WinId win);

  // ---- RMA active target (ranks: ranks in the window's communicator) ----
  RankBuilder& fence(double enter, double leave, WinId win);
  RankBuilder& post(double enter, double leave, WinId win, const std::vector<Rank>& origins);
  RankBuilder& start(double enter, double leave, WinId win, const std::vector<Rank>& targets);
  RankBuilder& complete(double enter, double leave, WinId win);
  RankBuilder& wait(double enter, double leave, WinId win);
  // MPI_Win_test on the exposure epoch: a successful test closes it like wait().
  RankBuilder& winTest(double enter, double leave, WinId win, bool completed);

  // ---- RMA passive target ----
  RankBuilder& lock(double enter, double leave, WinId win, Rank target, RmaLockType type);
  RankBuilder& unlock(double enter, double leave, WinId win, Rank target);
  RankBuilder& lockAll(double enter, double leave, WinId win);
  RankBuilder& unlockAll(double enter, double leave, WinId win);
  RankBuilder& flush(double enter, double leave, WinId win, Rank target);
  RankBuilder& flushAll(double enter, double leave, WinId win);
  RankBuilder& flushLocal(double enter, double leave, WinId win, Rank target);
  RankBuilder& flushLocalAll(double enter, double leave, WinId win);
  RankBuilder& winSync(double enter, double leave, WinId win);

  // ---- RMA communication (the transfer record is stamped with the enter time) ----
  RankBuilder& put(double enter, double leave, WinId win, Rank target, std::uint64_t bytes);
  RankBuilder& get(double enter, double leave, WinId win, Rank target, std::uint64_t bytes);
  Request rput(double enter, double leave, WinId win, Rank target, std::uint64_t bytes);
  Request rget(double enter, double leave, WinId win, Rank target, std::uint64_t bytes);
  // MPI_Accumulate: RMA_ATOMIC(ACCUMULATE) with element counts, as Score-P writes them.
  RankBuilder& accumulate(double enter, double leave, WinId win, Rank target, std::uint64_t elements);
  RankBuilder& getAccumulate(double enter, double leave, WinId win, Rank target, std::uint64_t elements);
  RankBuilder& fetchAndOp(double enter, double leave, WinId win, Rank target);
  RankBuilder& compareAndSwap(double enter, double leave, WinId win, Rank target);

  // ---- low level: any record, as it is (no epoch or request bookkeeping) ----
  RankBuilder& event(EventKind kind, double time);  // MpiCollectiveBegin, RmaCollectiveBegin
  RankBuilder& event(EventKind kind, double time, const MessageRecord& payload);
  RankBuilder& event(EventKind kind, double time, const CollectiveRecord& payload);
  RankBuilder& event(EventKind kind, double time, const RmaRecord& payload);
  // The next matching id this rank would give an RMA operation (for low-level records).
  std::uint64_t nextMatchingId() { return nextMatchingId_++; }

  Rank worldRank() const { return rank_; }
  double lastTime() const { return lastTime_; }
  // The location it writes: the rank's own, or a thread's (TraceBuilder::addThread).
  LocationId location() const;

 private:
  friend class TraceBuilder;
  RankBuilder(TraceBuilder& builder, Rank rank, std::uint32_t thread = kNone);

  // An RMA operation whose completion records are still to be written.
  struct PendingOp {
    WinId win;
    Rank target;
    EventKind kind;  // RmaPut, RmaGet or RmaAtomic
    std::uint64_t matchingId;
    bool locallyComplete = false;
  };
  // Which completion records a synchronization call writes.
  enum class Completion { Local, LocalAndRemote };

  struct PendingRequest {
    EventKind completion;  // MpiIsendComplete, MpiIrecv or, for Rput/Rget, RmaOpCompleteNonBlocking
    MessageRecord message;
    std::uint64_t rmaMatchingId = 0;
    bool cancelled = false;
  };

  LocationEvents& events();
  void advance(double time, const char* what);
  void checkInterval(double enter, double leave, const std::string& call) const;
  void beginCall(double enter, double leave, const std::string& mpiFunction);
  void endCall(double leave, const std::string& mpiFunction);
  void addRma(EventKind kind, double time, const RmaRecord& record);
  Rank checkWindowRank(WinId win, Rank rank, const char* call) const;
  CommId checkComm(CommId comm, const char* call) const;
  Rank checkCommRank(CommId comm, Rank rank, const char* call) const;
  // Writes the completion records of this rank's pending operations on `win`
  // (to `target` only, unless kNone) at `time`; returns whether it wrote any.
  bool completeOperations(double time, WinId win, Rank target, Completion completion, bool endsEpoch);
  std::uint64_t rmaOperation(double enter, double leave, const std::string& mpiFunction, EventKind kind, WinId win,
                             Rank target, std::uint64_t bytes, std::uint64_t received, RmaAtomicType atomic);
  Request addRequest(PendingRequest request);
  void completeRequest(double time, Request request);
  RankBuilder& groupSync(double enter, double leave, const std::string& mpiFunction, WinId win,
                         const std::vector<Rank>& ranks, std::map<WinId, GroupId>& epochs);
  RankBuilder& closeEpoch(double enter, double leave, const std::string& mpiFunction, WinId win,
                          std::map<WinId, GroupId>& epochs, bool completed);

  TraceBuilder& builder_;
  Rank rank_;
  std::uint32_t thread_ = kNone;  // index into Trace::threadLocations, kNone for the rank itself
  double lastTime_ = 0.0;
  bool hasEvents_ = false;
  std::vector<CallPathId> stack_;
  SourceLocation nextCallSite_;
  std::uint64_t nextMatchingId_ = 1;
  std::uint64_t nextRequestId_ = 1;
  std::vector<PendingOp> pendingOps_;
  std::unordered_map<std::uint64_t, PendingRequest> requests_;
  std::map<WinId, GroupId> accessEpochs_;    // window -> group of MPI_Win_start
  std::map<WinId, GroupId> exposureEpochs_;  // window -> group of MPI_Win_post
};

class TraceBuilder {
 public:
  // `ranks` MPI ranks, each one location ("Master thread" of "MPI Rank N");
  // MPI_COMM_WORLD and MPI_COMM_SELF defined; clock in ns unless given.
  explicit TraceBuilder(std::size_t ranks, std::uint64_t ticksPerSecond = 1'000'000'000);
  TraceBuilder(const TraceBuilder&) = delete;
  TraceBuilder& operator=(const TraceBuilder&) = delete;
  ~TraceBuilder();

  RankBuilder& rank(Rank worldRank);
  std::size_t size() const { return ranks_.size(); }

  // ---- hybrid traces (as Score-P writes MPI + OpenMP/pthreads + CUDA) ----
  // A thread or accelerator stream of `worldRank`'s process: a location of its own in the
  // rank's location group. Its builder writes regions and low-level records.
  RankBuilder& addThread(Rank worldRank, const std::string& name, LocationType type = LocationType::CpuThread);
  // A region of another paradigm (an OpenMP construct, a CUDA kernel), entered by name.
  RegionId paradigmRegion(const std::string& name, Paradigm paradigm);
  // A window of another paradigm, as Score-P's CUDA windows: a COMM_LOCATIONS group of `paradigm`
  // over `locations`, a COMM_GROUP of that paradigm numbering them 0, 1, ..., its communicator and
  // the window. Its RMA records ("remote" = index into `locations`) go through the low-level event().
  WinId defineParadigmWindow(Paradigm paradigm, const std::vector<LocationId>& locations);

  CommId world() const { return 0; }
  CommId self() const { return 1; }
  // A communicator of the given world ranks (its rank i is worldRanks[i]), e.g. from a split or dup.
  CommId defineComm(const std::string& name, const std::vector<Rank>& worldRanks, CommId parent = 0);
  // An inter-communicator (MPI_Intercomm_create) between two disjoint groups of world ranks: a
  // point-to-point peer of a member of one group is a rank of the other. `parent` is the peer
  // communicator it was created over.
  CommId defineInterComm(const std::string& name, const std::vector<Rank>& groupA, const std::vector<Rank>& groupB,
                         CommId parent = 0);
  // A COMM_GROUP of world ranks, shared by equal member lists.
  GroupId defineGroup(const std::vector<Rank>& worldRanks);
  // Defines a window; its create/free records come from RankBuilder::winCreate/winFree.
  WinId defineWindow(CommId comm, WindowKind kind = WindowKind::Create);
  // Defines a window and writes MPI_Win_create (or _allocate) on every member;
  // times are indexed by rank in `comm`.
  WinId createWindow(CommId comm, const std::vector<double>& enter, const std::vector<double>& leave,
                     WindowKind kind = WindowKind::Create);
  void freeWindow(WinId win, const std::vector<double>& enter, const std::vector<double>& leave);

  // Region definitions by name: MPI functions get Score-P's role and paradigm,
  // others are compiler-instrumented functions. defineRegion sets a user region's source.
  RegionId region(const std::string& name);
  RegionId defineRegion(const std::string& name, const std::string& file, std::uint32_t beginLine,
                        std::uint32_t endLine);
  SourceLocationId sourceLocation(const SourceLocation& location);

  // The trace built so far: times rounded to whole clock ticks (as the archive
  // holds them), location event counts updated.
  const Trace& trace();
  // Writes the OTF2 archive `dir/traces.otf2`; returns the anchor path.
  std::string write(const std::string& dir);

 private:
  friend class RankBuilder;
  const Communicator& comm(CommId id) const;

  Trace trace_;
  std::vector<std::unique_ptr<RankBuilder>> ranks_;
  std::vector<std::unique_ptr<RankBuilder>> threads_;  // parallel to trace_.threadLocations
  std::vector<WindowKind> windowKinds_;
  std::unordered_map<std::string, RegionId> regionIds_;
  std::map<std::vector<Rank>, GroupId> groupIds_;
  std::map<std::pair<std::string, std::uint32_t>, SourceLocationId> sourceLocationIds_;
};

}  // namespace waitscope::trace
