#include "tests/support/trace_builder.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <unordered_set>

#include "analysis/trace/paradigms.h"
#include "tests/support/otf2_writer.h"

namespace waitscope::trace {
namespace {

bool isOneOf(std::string_view name, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The region role Score-P 7.1 gives an MPI function (read off its definitions).
RegionRole mpiRegionRole(std::string_view name) {
  if (isOneOf(name, {"MPI_Barrier", "MPI_Ibarrier"})) return RegionRole::Barrier;
  if (isOneOf(name, {"MPI_Accumulate", "MPI_Compare_and_swap", "MPI_Fetch_and_op", "MPI_Get_accumulate",
                     "MPI_Raccumulate", "MPI_Rget_accumulate"}))
    return RegionRole::Atomic;
  if (isOneOf(name, {"MPI_Put", "MPI_Get", "MPI_Rput", "MPI_Rget"})) return RegionRole::Rma;
  if (isOneOf(name, {"MPI_Bcast", "MPI_Ibcast", "MPI_Scatter", "MPI_Scatterv", "MPI_Iscatter", "MPI_Iscatterv"}))
    return RegionRole::CollOne2All;
  if (isOneOf(name, {"MPI_Gather", "MPI_Gatherv", "MPI_Igather", "MPI_Igatherv", "MPI_Reduce", "MPI_Ireduce"}))
    return RegionRole::CollAll2One;
  if (isOneOf(name, {"MPI_Scan", "MPI_Iscan", "MPI_Exscan", "MPI_Iexscan"})) return RegionRole::CollOther;
  if (isOneOf(name, {"MPI_Win_allocate", "MPI_Win_allocate_shared"})) return RegionRole::Allocate;
  if (isOneOf(name, {"MPI_File_close", "MPI_File_delete", "MPI_File_open", "MPI_File_seek", "MPI_File_seek_shared"}))
    return RegionRole::FileIoMetadata;
  const auto contains = [name](std::string_view part) { return name.find(part) != std::string_view::npos; };
  if (name.starts_with("MPI_File_") && (contains("read") || contains("write") || name == "MPI_File_sync"))
    return RegionRole::FileIo;
  if (contains("gather") || contains("alltoall") || contains("llreduce") || contains("educe_scatter"))
    return RegionRole::CollAll2All;
  if (isOneOf(name, {"MPI_Send", "MPI_Bsend", "MPI_Ssend", "MPI_Rsend", "MPI_Isend", "MPI_Ibsend", "MPI_Issend",
                     "MPI_Irsend", "MPI_Recv", "MPI_Irecv", "MPI_Sendrecv", "MPI_Sendrecv_replace", "MPI_Send_init",
                     "MPI_Bsend_init", "MPI_Ssend_init", "MPI_Rsend_init", "MPI_Recv_init", "MPI_Probe", "MPI_Iprobe",
                     "MPI_Mprobe", "MPI_Improbe", "MPI_Mrecv", "MPI_Imrecv"}))
    return RegionRole::Point2Point;
  return RegionRole::Function;
}

std::string formatTime(double seconds) {
  std::ostringstream out;
  out.precision(12);
  out << seconds;
  return out.str();
}

[[noreturn]] void invalid(Rank rank, const std::string& what) {
  throw std::invalid_argument("TraceBuilder: rank " + std::to_string(rank) + ": " + what);
}

}  // namespace

// ===================================================================== TraceBuilder

TraceBuilder::TraceBuilder(std::size_t ranks, std::uint64_t ticksPerSecond) {
  if (ranks == 0) throw std::invalid_argument("TraceBuilder: a trace needs at least one rank");
  if (ticksPerSecond == 0) throw std::invalid_argument("TraceBuilder: the clock needs a positive tick rate");
  Definitions& d = trace_.defs;
  d.clock = {ticksPerSecond, 0, 0};
  d.systemTree = {{"Waitscope", "machine", kNone}, {"localhost", "node", 0}};
  std::vector<Rank> all;
  for (Rank r = 0; r < ranks; ++r) {
    d.locationGroups.push_back({"MPI Rank " + std::to_string(r), true, 1});
    d.locations.push_back({"Master thread", LocationType::CpuThread, r, 0, r, {}});
    d.worldLocations.push_back(r);
    trace_.locations.emplace_back().location = r;
    all.push_back(r);
  }
  // As Score-P: the MPI locations by world rank, then the world and self groups.
  d.groups.push_back({"", GroupType::CommLocations, Paradigm::Mpi, all});
  const GroupId worldGroup = defineGroup(all);
  d.groups.push_back({"", GroupType::CommSelf, Paradigm::Mpi, {}});
  d.comms.push_back({"MPI_COMM_WORLD", worldGroup, kNone});
  d.comms.push_back({"MPI_COMM_SELF", static_cast<GroupId>(d.groups.size() - 1), kNone});
  for (Rank r = 0; r < ranks; ++r) ranks_.push_back(std::unique_ptr<RankBuilder>(new RankBuilder(*this, r)));
}

TraceBuilder::~TraceBuilder() = default;

RankBuilder& TraceBuilder::rank(Rank worldRank) {
  if (worldRank >= ranks_.size())
    throw std::invalid_argument("TraceBuilder: unknown rank " + std::to_string(worldRank) + " (the trace has " +
                                std::to_string(ranks_.size()) + " ranks)");
  return *ranks_[worldRank];
}

GroupId TraceBuilder::defineGroup(const std::vector<Rank>& worldRanks) {
  std::unordered_set<Rank> seen;
  for (Rank r : worldRanks) {
    if (r >= ranks_.size() && r >= trace_.defs->locations.size())
      throw std::invalid_argument("TraceBuilder: group member " + std::to_string(r) + " is no world rank");
    if (!seen.insert(r).second)
      throw std::invalid_argument("TraceBuilder: group member " + std::to_string(r) + " appears twice");
  }
  auto [it, inserted] = groupIds_.try_emplace(worldRanks, static_cast<GroupId>(trace_.defs->groups.size()));
  if (inserted) trace_.defs->groups.push_back({"", GroupType::CommGroup, Paradigm::Mpi, worldRanks});
  return it->second;
}

CommId TraceBuilder::defineComm(const std::string& name, const std::vector<Rank>& worldRanks, CommId parent) {
  if (worldRanks.empty()) throw std::invalid_argument("TraceBuilder: communicator " + name + " has no members");
  if (parent != kNone) comm(parent);
  const GroupId group = defineGroup(worldRanks);
  trace_.defs->comms.push_back({name, group, parent});
  return static_cast<CommId>(trace_.defs->comms.size() - 1);
}

CommId TraceBuilder::defineInterComm(const std::string& name, const std::vector<Rank>& groupA,
                                     const std::vector<Rank>& groupB, CommId parent) {
  if (groupA.empty() || groupB.empty())
    throw std::invalid_argument("TraceBuilder: inter-communicator " + name + " needs two non-empty groups");
  for (Rank a : groupA)
    for (Rank b : groupB)
      if (a == b)
        throw std::invalid_argument("TraceBuilder: inter-communicator " + name + ": rank " + std::to_string(a) +
                                    " is in both groups");
  if (parent != kNone) comm(parent);
  const GroupId a = defineGroup(groupA);
  const GroupId b = defineGroup(groupB);
  Communicator c{name, a, parent};
  c.remoteGroup = b;
  trace_.defs->comms.push_back(std::move(c));
  return static_cast<CommId>(trace_.defs->comms.size() - 1);
}

const Communicator& TraceBuilder::comm(CommId id) const {
  if (id >= trace_.defs->comms.size())
    throw std::invalid_argument("TraceBuilder: unknown communicator " + std::to_string(id));
  return trace_.defs->comms[id];
}

WinId TraceBuilder::defineWindow(CommId commId, WindowKind kind) {
  comm(commId);
  trace_.defs->windows.push_back(
      {kind == WindowKind::Allocate ? "MPI_Win_allocate window" : "MPI_Win_create window", commId});
  windowKinds_.push_back(kind);
  return static_cast<WinId>(trace_.defs->windows.size() - 1);
}

namespace {
// World rank of every member of a communicator, in communicator rank order.
// The ranks `caller` can name in `c`: for an inter-communicator the group it is not in.
std::vector<Rank> commMembers(const Definitions& d, CommId id, Rank caller) {
  const Communicator& c = d.comms[id];
  if (c.remoteGroup != kNone) {
    const GroupId peers = d.peerGroup(id, caller);
    return peers == kNone ? std::vector<Rank>{} : d.groups[peers].members;
  }
  const Group& g = d.groups[c.group];
  if (g.type == GroupType::CommSelf) return {caller};
  return g.members;
}
}  // namespace

WinId TraceBuilder::createWindow(CommId commId, const std::vector<double>& enter, const std::vector<double>& leave,
                                 WindowKind kind) {
  const WinId win = defineWindow(commId, kind);
  const auto& members = trace_.defs->groups[comm(commId).group].members;
  if (trace_.defs->groups[comm(commId).group].type == GroupType::CommSelf)
    throw std::invalid_argument("TraceBuilder: createWindow needs a communicator of known members, not MPI_COMM_SELF");
  if (enter.size() != members.size() || leave.size() != members.size())
    throw std::invalid_argument("TraceBuilder: createWindow needs one enter and one leave time per member (" +
                                std::to_string(members.size()) + ")");
  for (std::size_t i = 0; i < members.size(); ++i) rank(members[i]).winCreate(enter[i], leave[i], win);
  return win;
}

void TraceBuilder::freeWindow(WinId win, const std::vector<double>& enter, const std::vector<double>& leave) {
  if (win >= trace_.defs->windows.size())
    throw std::invalid_argument("TraceBuilder: unknown window " + std::to_string(win));
  const auto& group = trace_.defs->groups[comm(trace_.defs->windows[win].comm).group];
  if (enter.size() != group.members.size() || leave.size() != group.members.size())
    throw std::invalid_argument("TraceBuilder: freeWindow needs one enter and one leave time per member (" +
                                std::to_string(group.members.size()) + ")");
  for (std::size_t i = 0; i < group.members.size(); ++i) rank(group.members[i]).winFree(enter[i], leave[i], win);
}

RankBuilder& TraceBuilder::addThread(Rank worldRank, const std::string& name, LocationType type) {
  rank(worldRank);
  Definitions& d = trace_.defs;
  const auto id = static_cast<LocationId>(d.locations.size());
  // Score-P numbers a process's further locations (thread << 32) | rank; any unique id will do.
  d.locations.push_back({name, type, d.locations[d.worldLocations[worldRank]].group, 0, id, {}});
  const auto index = static_cast<std::uint32_t>(trace_.threadLocations.size());
  trace_.threadLocations.emplace_back().location = id;
  threads_.push_back(std::unique_ptr<RankBuilder>(new RankBuilder(*this, worldRank, index)));
  return *threads_.back();
}

RegionId TraceBuilder::paradigmRegion(const std::string& name, Paradigm paradigm) {
  const RegionId id = region(name);
  trace_.defs->regions[id].paradigm = paradigm;
  trace_.defs->regions[id].role = RegionRole::Code;
  return id;
}

WinId TraceBuilder::defineParadigmWindow(Paradigm paradigm, const std::vector<LocationId>& locations) {
  Definitions& d = trace_.defs;
  std::vector<std::uint32_t> numbers;
  for (const LocationId l : locations) {
    if (l >= d.locations.size()) throw std::invalid_argument("TraceBuilder: unknown location " + std::to_string(l));
    numbers.push_back(static_cast<std::uint32_t>(numbers.size()));
  }
  d.groups.push_back({paradigmDisplayName(paradigm), GroupType::CommLocations, paradigm, locations});
  d.groups.push_back({paradigmDisplayName(paradigm) + "_GROUP", GroupType::CommGroup, paradigm, numbers});
  d.comms.push_back({"", static_cast<GroupId>(d.groups.size() - 1), kNone});
  d.windows.push_back({"", static_cast<CommId>(d.comms.size() - 1)});
  windowKinds_.push_back(WindowKind::Create);
  return static_cast<WinId>(d.windows.size() - 1);
}

RegionId TraceBuilder::region(const std::string& name) {
  if (name.empty()) throw std::invalid_argument("TraceBuilder: a region needs a name");
  auto [it, inserted] = regionIds_.try_emplace(name, static_cast<RegionId>(trace_.defs->regions.size()));
  if (inserted) {
    Region r;
    r.name = name;
    r.canonicalName = name;
    if (name.starts_with("MPI_")) {
      r.role = mpiRegionRole(name);
      r.paradigm = Paradigm::Mpi;
      r.file = "MPI";  // what Score-P writes as the source file of MPI functions
    } else {
      r.role = RegionRole::Function;
      r.paradigm = Paradigm::Compiler;
    }
    trace_.defs->regions.push_back(std::move(r));
  }
  return it->second;
}

RegionId TraceBuilder::defineRegion(const std::string& name, const std::string& file, std::uint32_t beginLine,
                                    std::uint32_t endLine) {
  const RegionId id = region(name);
  Region& r = trace_.defs->regions[id];
  r.file = file;
  r.beginLine = beginLine;
  r.endLine = endLine;
  return id;
}

SourceLocationId TraceBuilder::sourceLocation(const SourceLocation& location) {
  const auto next = static_cast<SourceLocationId>(trace_.defs->sourceLocations.size());
  auto [it, inserted] = sourceLocationIds_.try_emplace({location.file, location.line}, next);
  if (inserted) trace_.defs->sourceLocations.push_back(location);
  return it->second;
}

const Trace& TraceBuilder::trace() {
  // Times are kept as the archive will hold them: whole clock ticks.
  const auto ticksPerSecond = static_cast<double>(trace_.defs->clock.ticksPerSecond);
  double last = 0.0;
  for (std::size_t r = 0; r < ranks_.size(); ++r) {
    for (Event& e : trace_.locations[r].events)
      e.time = static_cast<double>(std::llround(e.time * ticksPerSecond)) / ticksPerSecond;
    trace_.defs->locations[r].eventCount = trace_.locations[r].events.size();
    last = std::max(last, ranks_[r]->lastTime());
  }
  for (std::size_t t = 0; t < threads_.size(); ++t) {
    LocationEvents& thread = trace_.threadLocations[t];
    for (Event& e : thread.events)
      e.time = static_cast<double>(std::llround(e.time * ticksPerSecond)) / ticksPerSecond;
    trace_.defs->locations[thread.location].eventCount = thread.events.size();
    last = std::max(last, threads_[t]->lastTime());
  }
  trace_.defs->clock.traceLength = trace_.defs->clock.ticks(last) - trace_.defs->clock.globalOffset;
  return trace_;
}

std::string TraceBuilder::write(const std::string& dir) {
  trace();
  writeOtf2(trace_, dir);
  trace_.anchorPath = (std::filesystem::path(dir) / "traces.otf2").string();
  return trace_.anchorPath;
}

// ===================================================================== RankBuilder: basics

RankBuilder::RankBuilder(TraceBuilder& builder, Rank rank, std::uint32_t thread)
    : builder_(builder), rank_(rank), thread_(thread) {}

LocationEvents& RankBuilder::events() {
  return thread_ == kNone ? builder_.trace_.locations[rank_] : builder_.trace_.threadLocations[thread_];
}

LocationId RankBuilder::location() const {
  return thread_ == kNone ? builder_.trace_.locations[rank_].location
                          : builder_.trace_.threadLocations[thread_].location;
}

void RankBuilder::advance(double time, const char* what) {
  if (!std::isfinite(time)) invalid(rank_, std::string(what) + " has no finite time");
  if (hasEvents_ && time < lastTime_)
    invalid(rank_, std::string(what) + " at t=" + formatTime(time) + " is before the previous event at t=" +
                       formatTime(lastTime_));
  lastTime_ = time;
  hasEvents_ = true;
}

void RankBuilder::checkInterval(double enter, double leave, const std::string& call) const {
  if (leave < enter)
    invalid(rank_, call + " leaves at t=" + formatTime(leave) + " before it enters at t=" + formatTime(enter));
}

RankBuilder& RankBuilder::at(const std::string& file, std::uint32_t line) {
  nextCallSite_ = {file, line};
  return *this;
}

RankBuilder& RankBuilder::enter(double time, const std::string& region, const SourceLocation& callSite) {
  advance(time, ("enter of " + region).c_str());
  const SourceLocation& site = callSite.file.empty() ? nextCallSite_ : callSite;
  const SourceLocationId siteId = site.file.empty() ? kNone : builder_.sourceLocation(site);
  nextCallSite_ = {};
  const CallPathId parent = stack_.empty() ? kNone : stack_.back();
  const CallPathId path = builder_.trace_.callTree.intern(parent, builder_.region(region), siteId);
  stack_.push_back(path);
  events().addRegion(EventKind::Enter, time, path);
  return *this;
}

RankBuilder& RankBuilder::leave(double time, const std::string& region) {
  if (stack_.empty()) invalid(rank_, "leave of " + region + " at t=" + formatTime(time) + " without an enter");
  const RegionId open = builder_.trace_.callTree[stack_.back()].region;
  if (builder_.trace_.defs->regions[open].name != region)
    invalid(rank_, "leave of " + region + " at t=" + formatTime(time) + ", but the innermost open region is " +
                       builder_.trace_.defs->regions[open].name);
  advance(time, ("leave of " + region).c_str());
  events().addRegion(EventKind::Leave, time, stack_.back());
  stack_.pop_back();
  return *this;
}

void RankBuilder::beginCall(double enter, double leave, const std::string& mpiFunction) {
  checkInterval(enter, leave, mpiFunction);
  this->enter(enter, mpiFunction);
}

void RankBuilder::endCall(double leave, const std::string& mpiFunction) { this->leave(leave, mpiFunction); }

void RankBuilder::addRma(EventKind kind, double time, const RmaRecord& record) {
  advance(time, std::string(name(kind)).c_str());
  events().addRma(kind, time, record);
}

CommId RankBuilder::checkComm(CommId comm, const char* call) const {
  if (comm >= builder_.trace_.defs->comms.size())
    invalid(rank_, std::string(call) + ": unknown communicator " + std::to_string(comm));
  return comm;
}

Rank RankBuilder::checkCommRank(CommId comm, Rank rank, const char* call) const {
  const Definitions& d = *builder_.trace_.defs;
  const std::size_t size = commMembers(d, checkComm(comm, call), rank_).size();
  if (rank >= size)
    invalid(rank_, std::string(call) + ": rank " + std::to_string(rank) + " is not in communicator " +
                       d.comms[comm].name + " of size " + std::to_string(size));
  return rank;
}

Rank RankBuilder::checkWindowRank(WinId win, Rank rank, const char* call) const {
  const auto& windows = builder_.trace_.defs->windows;
  if (win >= windows.size()) invalid(rank_, std::string(call) + ": unknown window " + std::to_string(win));
  return rank == kNone ? rank : checkCommRank(windows[win].comm, rank, call);
}

// ===================================================================== MPI environment, p2p

RankBuilder& RankBuilder::init(double enter, double leave) {
  beginCall(enter, leave, "MPI_Init");
  endCall(leave, "MPI_Init");
  return *this;
}

RankBuilder& RankBuilder::clockOffset(double localTime, double offset) {
  const ClockProperties& clock = builder_.trace_.defs->clock;
  builder_.trace_.defs->locations[rank_].clockOffsets.push_back(
      {clock.ticks(localTime), std::llround(offset * static_cast<double>(clock.ticksPerSecond))});
  return *this;
}

RankBuilder& RankBuilder::finalize(double enter, double leave) {
  beginCall(enter, leave, "MPI_Finalize");
  endCall(leave, "MPI_Finalize");
  return *this;
}

RankBuilder& RankBuilder::send(double enter, double leave, Rank dest, std::uint64_t bytes, std::uint32_t tag,
                               CommId comm) {
  checkCommRank(comm, dest, "MPI_Send");
  beginCall(enter, leave, "MPI_Send");
  events().addMessage(EventKind::MpiSend, enter, {dest, comm, tag, bytes, 0});
  endCall(leave, "MPI_Send");
  return *this;
}

RankBuilder& RankBuilder::ssend(double enter, double leave, Rank dest, std::uint64_t bytes, std::uint32_t tag,
                                CommId comm) {
  checkCommRank(comm, dest, "MPI_Ssend");
  beginCall(enter, leave, "MPI_Ssend");
  events().addMessage(EventKind::MpiSend, enter, {dest, comm, tag, bytes, 0});
  endCall(leave, "MPI_Ssend");
  return *this;
}

RankBuilder& RankBuilder::recv(double enter, double leave, Rank source, std::uint64_t bytes, std::uint32_t tag,
                               CommId comm) {
  checkCommRank(comm, source, "MPI_Recv");
  beginCall(enter, leave, "MPI_Recv");
  // The receive record is written once the message has arrived, i.e. when the call returns.
  advance(leave, "MPI_RECV");
  events().addMessage(EventKind::MpiRecv, leave, {source, comm, tag, bytes, 0});
  endCall(leave, "MPI_Recv");
  return *this;
}

Request RankBuilder::addRequest(PendingRequest request) {
  const Request handle{nextRequestId_++};
  requests_.emplace(handle.id, std::move(request));
  return handle;
}

Request RankBuilder::isend(double enter, double leave, Rank dest, std::uint64_t bytes, std::uint32_t tag,
                           CommId comm) {
  checkCommRank(comm, dest, "MPI_Isend");
  beginCall(enter, leave, "MPI_Isend");
  const Request request{nextRequestId_};
  events().addMessage(EventKind::MpiIsend, enter, {dest, comm, tag, bytes, request.id});
  endCall(leave, "MPI_Isend");
  return addRequest({EventKind::MpiIsendComplete, {}, 0, false});
}

Request RankBuilder::irecv(double enter, double leave, Rank source, std::uint64_t bytes, std::uint32_t tag,
                           CommId comm) {
  checkCommRank(comm, source, "MPI_Irecv");
  beginCall(enter, leave, "MPI_Irecv");
  const Request request{nextRequestId_};
  MessageRecord requestOnly;
  requestOnly.request = request.id;
  events().addMessage(EventKind::MpiIrecvRequest, enter, requestOnly);
  endCall(leave, "MPI_Irecv");
  // Sender, tag and size are only known, and written, when the receive completes.
  return addRequest({EventKind::MpiIrecv, {source, comm, tag, bytes, request.id}, 0, false});
}

void RankBuilder::completeRequest(double time, Request request) {
  auto it = requests_.find(request.id);
  if (it == requests_.end()) invalid(rank_, "request " + std::to_string(request.id) + " is unknown or already complete");
  const PendingRequest pending = it->second;
  requests_.erase(it);
  advance(time, "request completion");
  MessageRecord requestOnly;
  requestOnly.request = request.id;
  if (pending.cancelled) {
    events().addMessage(EventKind::MpiRequestCancelled, time, requestOnly);
  } else if (pending.completion == EventKind::MpiIsendComplete) {
    events().addMessage(EventKind::MpiIsendComplete, time, requestOnly);
  } else if (pending.completion == EventKind::MpiIrecv) {
    events().addMessage(EventKind::MpiIrecv, time, pending.message);
  } else {
    // MPI_Rput / MPI_Rget: the request completes the operation locally.
    auto op = std::find_if(pendingOps_.begin(), pendingOps_.end(),
                           [&](const PendingOp& p) { return p.matchingId == pending.rmaMatchingId; });
    if (op == pendingOps_.end() || op->locallyComplete) return;  // already completed by a synchronization
    completeOperations(time, op->win, op->target, Completion::Local, false);
  }
}

RankBuilder& RankBuilder::wait(double enter, double leave, Request request) {
  beginCall(enter, leave, "MPI_Wait");
  completeRequest(leave, request);
  endCall(leave, "MPI_Wait");
  return *this;
}

RankBuilder& RankBuilder::waitAll(double enter, double leave, const std::vector<Request>& requests) {
  beginCall(enter, leave, "MPI_Waitall");
  for (const Request& request : requests) completeRequest(leave, request);
  endCall(leave, "MPI_Waitall");
  return *this;
}

RankBuilder& RankBuilder::test(double enter, double leave, Request request, bool completed) {
  beginCall(enter, leave, "MPI_Test");
  if (completed) {
    completeRequest(leave, request);
  } else {
    if (!requests_.contains(request.id))
      invalid(rank_, "MPI_Test: request " + std::to_string(request.id) + " is unknown or already complete");
    MessageRecord requestOnly;
    requestOnly.request = request.id;
    advance(leave, "MPI_REQUEST_TEST");
    events().addMessage(EventKind::MpiRequestTest, leave, requestOnly);
  }
  endCall(leave, "MPI_Test");
  return *this;
}

RankBuilder& RankBuilder::cancel(double enter, double leave, Request request) {
  auto it = requests_.find(request.id);
  if (it == requests_.end())
    invalid(rank_, "MPI_Cancel: request " + std::to_string(request.id) + " is unknown or already complete");
  beginCall(enter, leave, "MPI_Cancel");
  it->second.cancelled = true;
  endCall(leave, "MPI_Cancel");
  return *this;
}

// ===================================================================== collectives

RankBuilder& RankBuilder::collective(double enter, double leave, const std::string& mpiFunction, CollectiveOp op,
                                     Rank root, std::uint64_t sent, std::uint64_t received, CommId comm) {
  if (root != kNone) checkCommRank(comm, root, mpiFunction.c_str());
  checkComm(comm, mpiFunction.c_str());
  beginCall(enter, leave, mpiFunction);
  events().addMarker(EventKind::MpiCollectiveBegin, enter);
  advance(leave, "MPI_COLLECTIVE_END");
  events().addCollective(EventKind::MpiCollectiveEnd, leave, {op, 0, comm, root, sent, received});
  endCall(leave, mpiFunction);
  return *this;
}

namespace {
bool isRoot(const Definitions& d, CommId comm, Rank root, Rank caller) {
  const auto members = commMembers(d, comm, caller);
  return root < members.size() && members[root] == caller;
}
}  // namespace

RankBuilder& RankBuilder::barrier(double enter, double leave, CommId comm) {
  return collective(enter, leave, "MPI_Barrier", CollectiveOp::Barrier, kNone, 0, 0, comm);
}

RankBuilder& RankBuilder::bcast(double enter, double leave, Rank root, std::uint64_t bytes, CommId comm) {
  checkCommRank(comm, root, "MPI_Bcast");
  const bool atRoot = isRoot(builder_.trace_.defs, comm, root, rank_);
  return collective(enter, leave, "MPI_Bcast", CollectiveOp::Bcast, root, atRoot ? bytes : 0, atRoot ? 0 : bytes,
                    comm);
}

RankBuilder& RankBuilder::reduce(double enter, double leave, Rank root, std::uint64_t bytes, CommId comm) {
  checkCommRank(comm, root, "MPI_Reduce");
  const bool atRoot = isRoot(builder_.trace_.defs, comm, root, rank_);
  const std::size_t size = commMembers(builder_.trace_.defs, comm, rank_).size();
  return collective(enter, leave, "MPI_Reduce", CollectiveOp::Reduce, root, bytes, atRoot ? bytes * size : 0, comm);
}

RankBuilder& RankBuilder::allreduce(double enter, double leave, std::uint64_t bytes, CommId comm) {
  return collective(enter, leave, "MPI_Allreduce", CollectiveOp::Allreduce, kNone, bytes, bytes, comm);
}

RankBuilder& RankBuilder::scan(double enter, double leave, std::uint64_t bytes, CommId comm) {
  return collective(enter, leave, "MPI_Scan", CollectiveOp::Scan, kNone, bytes, bytes, comm);
}

RankBuilder& RankBuilder::alltoall(double enter, double leave, std::uint64_t bytes, CommId comm) {
  checkComm(comm, "MPI_Alltoall");
  const std::size_t size = commMembers(builder_.trace_.defs, comm, rank_).size();
  return collective(enter, leave, "MPI_Alltoall", CollectiveOp::Alltoall, kNone, bytes * size, bytes * size, comm);
}

// ===================================================================== RMA window management

RankBuilder& RankBuilder::winCreate(double enter, double leave, WinId win) {
  checkWindowRank(win, kNone, "MPI_Win_create");
  const bool allocate = builder_.windowKinds_[win] == WindowKind::Allocate;
  const std::string call = allocate ? "MPI_Win_allocate" : "MPI_Win_create";
  beginCall(enter, leave, call);
  events().addMarker(EventKind::RmaCollectiveBegin, enter);
  RmaRecord record;
  record.win = win;
  addRma(EventKind::RmaWinCreate, leave, record);
  events().addCollective(EventKind::RmaCollectiveEnd, leave,
                         {allocate ? CollectiveOp::CreateHandleAndAllocate : CollectiveOp::CreateHandle, kSyncProcess,
                          win, kNone, 0, 0});
  endCall(leave, call);
  return *this;
}

RankBuilder& RankBuilder::winFree(double enter, double leave, WinId win) {
  checkWindowRank(win, kNone, "MPI_Win_free");
  const bool allocated = builder_.windowKinds_[win] == WindowKind::Allocate;
  beginCall(enter, leave, "MPI_Win_free");
  events().addMarker(EventKind::RmaCollectiveBegin, enter);
  RmaRecord record;
  record.win = win;
  addRma(EventKind::RmaWinDestroy, leave, record);
  events().addCollective(
      EventKind::RmaCollectiveEnd, leave,
      {allocated ? CollectiveOp::DestroyHandleAndDeallocate : CollectiveOp::DestroyHandle, kSyncProcess, win, kNone,
       0, 0});
  endCall(leave, "MPI_Win_free");
  return *this;
}

// ===================================================================== RMA completion bookkeeping

bool RankBuilder::completeOperations(double time, WinId win, Rank target, Completion completion, bool endsEpoch) {
  bool wrote = false;
  RmaRecord record;
  record.win = win;
  auto op = pendingOps_.begin();
  while (op != pendingOps_.end()) {
    if (op->win != win || (target != kNone && op->target != target)) {
      ++op;
      continue;
    }
    record.matchingId = op->matchingId;
    if (!op->locallyComplete) {
      addRma(EventKind::RmaOpCompleteNonBlocking, time, record);
      op->locallyComplete = true;
      wrote = true;
    }
    // A get is complete at the target as soon as its data has arrived at the origin.
    const bool remote = completion == Completion::LocalAndRemote || op->kind == EventKind::RmaGet;
    if (remote) {
      addRma(EventKind::RmaOpCompleteRemote, time, record);
      wrote = true;
    }
    op = (remote || endsEpoch) ? pendingOps_.erase(op) : op + 1;
  }
  return wrote;
}

std::uint64_t RankBuilder::rmaOperation(double enter, double leave, const std::string& mpiFunction, EventKind kind,
                                        WinId win, Rank target, std::uint64_t bytes, std::uint64_t received,
                                        RmaAtomicType atomic) {
  if (target == kNone) invalid(rank_, mpiFunction + " needs a target rank");
  checkWindowRank(win, target, mpiFunction.c_str());
  beginCall(enter, leave, mpiFunction);
  RmaRecord record;
  record.win = win;
  record.remote = target;
  record.bytes = bytes;
  record.matchingId = nextMatchingId_++;
  if (kind == EventKind::RmaAtomic) {
    record.lockType = static_cast<std::uint8_t>(atomic);
    record.received = received;
  }
  addRma(kind, enter, record);
  pendingOps_.push_back({win, target, kind, record.matchingId, false});
  endCall(leave, mpiFunction);
  return record.matchingId;
}

// ===================================================================== RMA active target

RankBuilder& RankBuilder::fence(double enter, double leave, WinId win) {
  checkWindowRank(win, kNone, "MPI_Win_fence");
  beginCall(enter, leave, "MPI_Win_fence");
  events().addMarker(EventKind::RmaCollectiveBegin, enter);
  completeOperations(leave, win, kNone, Completion::Local, true);
  advance(leave, "RMA_COLLECTIVE_END");
  events().addCollective(EventKind::RmaCollectiveEnd, leave,
                         {CollectiveOp::Barrier, kSyncProcess | kSyncMemory, win, kNone, 0, 0});
  endCall(leave, "MPI_Win_fence");
  return *this;
}

RankBuilder& RankBuilder::groupSync(double enter, double leave, const std::string& mpiFunction, WinId win,
                                    const std::vector<Rank>& ranks, std::map<WinId, GroupId>& epochs) {
  checkWindowRank(win, kNone, mpiFunction.c_str());
  if (epochs.contains(win)) invalid(rank_, mpiFunction + ": an epoch of this kind is already open on window " +
                                               std::to_string(win));
  const Definitions& d = *builder_.trace_.defs;
  const auto members = commMembers(d, d.windows[win].comm, rank_);
  std::vector<Rank> worldRanks;
  for (Rank r : ranks) worldRanks.push_back(members[checkWindowRank(win, r, mpiFunction.c_str())]);
  const GroupId group = builder_.defineGroup(worldRanks);
  beginCall(enter, leave, mpiFunction);
  RmaRecord record;
  record.win = win;
  record.group = group;
  record.syncLevel = kSyncProcess;
  // Written after the call returns but stamped with the ENTER time, as Score-P does.
  addRma(EventKind::RmaGroupSync, enter, record);
  epochs[win] = group;
  endCall(leave, mpiFunction);
  return *this;
}

RankBuilder& RankBuilder::post(double enter, double leave, WinId win, const std::vector<Rank>& origins) {
  return groupSync(enter, leave, "MPI_Win_post", win, origins, exposureEpochs_);
}

RankBuilder& RankBuilder::start(double enter, double leave, WinId win, const std::vector<Rank>& targets) {
  return groupSync(enter, leave, "MPI_Win_start", win, targets, accessEpochs_);
}

RankBuilder& RankBuilder::closeEpoch(double enter, double leave, const std::string& mpiFunction, WinId win,
                                     std::map<WinId, GroupId>& epochs, bool completed) {
  checkWindowRank(win, kNone, mpiFunction.c_str());
  auto epoch = epochs.find(win);
  if (epoch == epochs.end()) invalid(rank_, mpiFunction + " on window " + std::to_string(win) + " without an open epoch");
  beginCall(enter, leave, mpiFunction);
  RmaRecord record;
  record.win = win;
  record.group = epoch->second;
  if (completed) {
    // The exposure side completes this rank's own operations only if no access epoch still holds them.
    const bool ownsOperations = &epochs == &accessEpochs_ || !accessEpochs_.contains(win);
    const bool wrote = ownsOperations && completeOperations(leave, win, kNone, Completion::Local, true);
    record.syncLevel = kSyncProcess | kSyncMemory;
    addRma(EventKind::RmaGroupSync, wrote ? leave : enter, record);
    epochs.erase(epoch);
  } else {
    record.syncLevel = kSyncNone;
    addRma(EventKind::RmaGroupSync, enter, record);
  }
  endCall(leave, mpiFunction);
  return *this;
}

RankBuilder& RankBuilder::complete(double enter, double leave, WinId win) {
  return closeEpoch(enter, leave, "MPI_Win_complete", win, accessEpochs_, true);
}

RankBuilder& RankBuilder::wait(double enter, double leave, WinId win) {
  return closeEpoch(enter, leave, "MPI_Win_wait", win, exposureEpochs_, true);
}

RankBuilder& RankBuilder::winTest(double enter, double leave, WinId win, bool completed) {
  return closeEpoch(enter, leave, "MPI_Win_test", win, exposureEpochs_, completed);
}

// ===================================================================== RMA passive target

RankBuilder& RankBuilder::lock(double enter, double leave, WinId win, Rank target, RmaLockType type) {
  if (target == kNone) invalid(rank_, "MPI_Win_lock needs a target rank");
  checkWindowRank(win, target, "MPI_Win_lock");
  beginCall(enter, leave, "MPI_Win_lock");
  RmaRecord record;
  record.win = win;
  record.remote = target;
  record.lockId = 0;
  record.lockType = static_cast<std::uint8_t>(type);
  addRma(EventKind::RmaRequestLock, enter, record);
  endCall(leave, "MPI_Win_lock");
  return *this;
}

RankBuilder& RankBuilder::lockAll(double enter, double leave, WinId win) {
  checkWindowRank(win, kNone, "MPI_Win_lock_all");
  beginCall(enter, leave, "MPI_Win_lock_all");
  RmaRecord record;
  record.win = win;
  record.lockType = static_cast<std::uint8_t>(RmaLockType::Shared);
  addRma(EventKind::RmaRequestLock, enter, record);
  endCall(leave, "MPI_Win_lock_all");
  return *this;
}

RankBuilder& RankBuilder::unlock(double enter, double leave, WinId win, Rank target) {
  if (target == kNone) invalid(rank_, "MPI_Win_unlock needs a target rank");
  checkWindowRank(win, target, "MPI_Win_unlock");
  beginCall(enter, leave, "MPI_Win_unlock");
  const bool wrote = completeOperations(leave, win, target, Completion::LocalAndRemote, true);
  RmaRecord record;
  record.win = win;
  record.remote = target;
  addRma(EventKind::RmaReleaseLock, wrote ? leave : enter, record);
  endCall(leave, "MPI_Win_unlock");
  return *this;
}

RankBuilder& RankBuilder::unlockAll(double enter, double leave, WinId win) {
  checkWindowRank(win, kNone, "MPI_Win_unlock_all");
  beginCall(enter, leave, "MPI_Win_unlock_all");
  const bool wrote = completeOperations(leave, win, kNone, Completion::LocalAndRemote, true);
  RmaRecord record;
  record.win = win;
  addRma(EventKind::RmaReleaseLock, wrote ? leave : enter, record);
  endCall(leave, "MPI_Win_unlock_all");
  return *this;
}

RankBuilder& RankBuilder::flush(double enter, double leave, WinId win, Rank target) {
  if (target == kNone) invalid(rank_, "MPI_Win_flush needs a target rank");
  checkWindowRank(win, target, "MPI_Win_flush");
  beginCall(enter, leave, "MPI_Win_flush");
  completeOperations(leave, win, target, Completion::LocalAndRemote, true);
  endCall(leave, "MPI_Win_flush");
  return *this;
}

RankBuilder& RankBuilder::flushAll(double enter, double leave, WinId win) {
  checkWindowRank(win, kNone, "MPI_Win_flush_all");
  beginCall(enter, leave, "MPI_Win_flush_all");
  completeOperations(leave, win, kNone, Completion::LocalAndRemote, true);
  endCall(leave, "MPI_Win_flush_all");
  return *this;
}

RankBuilder& RankBuilder::flushLocal(double enter, double leave, WinId win, Rank target) {
  if (target == kNone) invalid(rank_, "MPI_Win_flush_local needs a target rank");
  checkWindowRank(win, target, "MPI_Win_flush_local");
  beginCall(enter, leave, "MPI_Win_flush_local");
  completeOperations(leave, win, target, Completion::Local, false);
  endCall(leave, "MPI_Win_flush_local");
  return *this;
}

RankBuilder& RankBuilder::flushLocalAll(double enter, double leave, WinId win) {
  checkWindowRank(win, kNone, "MPI_Win_flush_local_all");
  beginCall(enter, leave, "MPI_Win_flush_local_all");
  completeOperations(leave, win, kNone, Completion::Local, false);
  endCall(leave, "MPI_Win_flush_local_all");
  return *this;
}

RankBuilder& RankBuilder::winSync(double enter, double leave, WinId win) {
  checkWindowRank(win, kNone, "MPI_Win_sync");
  beginCall(enter, leave, "MPI_Win_sync");
  endCall(leave, "MPI_Win_sync");
  return *this;
}

// ===================================================================== RMA communication

RankBuilder& RankBuilder::put(double enter, double leave, WinId win, Rank target, std::uint64_t bytes) {
  rmaOperation(enter, leave, "MPI_Put", EventKind::RmaPut, win, target, bytes, 0, RmaAtomicType::Accumulate);
  return *this;
}

RankBuilder& RankBuilder::get(double enter, double leave, WinId win, Rank target, std::uint64_t bytes) {
  rmaOperation(enter, leave, "MPI_Get", EventKind::RmaGet, win, target, bytes, 0, RmaAtomicType::Accumulate);
  return *this;
}

Request RankBuilder::rput(double enter, double leave, WinId win, Rank target, std::uint64_t bytes) {
  const auto id =
      rmaOperation(enter, leave, "MPI_Rput", EventKind::RmaPut, win, target, bytes, 0, RmaAtomicType::Accumulate);
  return addRequest({EventKind::RmaOpCompleteNonBlocking, {}, id, false});
}

Request RankBuilder::rget(double enter, double leave, WinId win, Rank target, std::uint64_t bytes) {
  const auto id =
      rmaOperation(enter, leave, "MPI_Rget", EventKind::RmaGet, win, target, bytes, 0, RmaAtomicType::Accumulate);
  return addRequest({EventKind::RmaOpCompleteNonBlocking, {}, id, false});
}

RankBuilder& RankBuilder::accumulate(double enter, double leave, WinId win, Rank target, std::uint64_t elements) {
  rmaOperation(enter, leave, "MPI_Accumulate", EventKind::RmaAtomic, win, target, elements, 0,
               RmaAtomicType::Accumulate);
  return *this;
}

RankBuilder& RankBuilder::getAccumulate(double enter, double leave, WinId win, Rank target, std::uint64_t elements) {
  rmaOperation(enter, leave, "MPI_Get_accumulate", EventKind::RmaAtomic, win, target, elements, elements,
               RmaAtomicType::FetchAndAccumulate);
  return *this;
}

RankBuilder& RankBuilder::fetchAndOp(double enter, double leave, WinId win, Rank target) {
  rmaOperation(enter, leave, "MPI_Fetch_and_op", EventKind::RmaAtomic, win, target, 1, 1,
               RmaAtomicType::FetchAndAccumulate);
  return *this;
}

RankBuilder& RankBuilder::compareAndSwap(double enter, double leave, WinId win, Rank target) {
  rmaOperation(enter, leave, "MPI_Compare_and_swap", EventKind::RmaAtomic, win, target, 1, 1,
               RmaAtomicType::CompareAndSwap);
  return *this;
}

// ===================================================================== low level

RankBuilder& RankBuilder::event(EventKind kind, double time) {
  if (payloadFamily(kind) != PayloadFamily::None)
    invalid(rank_, "event(" + std::string(name(kind)) + ") needs a payload");
  advance(time, std::string(name(kind)).c_str());
  events().addMarker(kind, time);
  return *this;
}

RankBuilder& RankBuilder::event(EventKind kind, double time, const MessageRecord& payload) {
  if (payloadFamily(kind) != PayloadFamily::Message)
    invalid(rank_, "event(" + std::string(name(kind)) + ") does not take a message payload");
  advance(time, std::string(name(kind)).c_str());
  events().addMessage(kind, time, payload);
  return *this;
}

RankBuilder& RankBuilder::event(EventKind kind, double time, const CollectiveRecord& payload) {
  if (payloadFamily(kind) != PayloadFamily::Collective)
    invalid(rank_, "event(" + std::string(name(kind)) + ") does not take a collective payload");
  advance(time, std::string(name(kind)).c_str());
  events().addCollective(kind, time, payload);
  return *this;
}

RankBuilder& RankBuilder::event(EventKind kind, double time, const RmaRecord& payload) {
  if (payloadFamily(kind) != PayloadFamily::Rma)
    invalid(rank_, "event(" + std::string(name(kind)) + ") does not take an RMA payload");
  addRma(kind, time, payload);
  return *this;
}

}  // namespace waitscope::trace
