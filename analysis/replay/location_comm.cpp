#include "analysis/replay/location_comm.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <span>
#include <stdexcept>
#include <string>

#include "analysis/replay/message_pieces.h"
#include "analysis/replay/yielding_wait.h"

namespace waitscope::replay {
namespace {

std::size_t extentOf(MPI_Datatype type) {
  MPI_Aint lb = 0, extent = 0;
  MPI_Type_get_extent(type, &lb, &extent);
  return static_cast<std::size_t>(extent);
}

const std::byte* at(const void* base, std::size_t elements, MPI_Datatype type) {
  return static_cast<const std::byte*>(base) + elements * extentOf(type);
}
std::byte* at(void* base, std::size_t elements, MPI_Datatype type) {
  return static_cast<std::byte*>(base) + elements * extentOf(type);
}

// Whether the type's elements lie end to end without gaps (every type the analysis exchanges).
bool contiguous(MPI_Datatype type) {
  int size = 0;
  MPI_Type_size(type, &size);
  return static_cast<std::size_t>(size) == extentOf(type);
}

// Copies `count` elements, and nothing of the gaps between them (MPI copies a message to
// oneself as any other).
void copyElements(const void* from, void* to, int count, MPI_Datatype type) {
  if (from == to || count == 0) return;
  if (contiguous(type)) {
    std::memcpy(to, from, static_cast<std::size_t>(count) * extentOf(type));
    return;
  }
  MPI_Sendrecv(from, count, type, 0, 0, to, count, type, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
}

}  // namespace

// ---------------------------------------------------------------- HeldLocations

HeldLocations::HeldLocations(MPI_Comm processes, int locations, bool yieldCore)
    : processes_(processes), locations_(locations), yieldCore_(yieldCore) {
  int size = 1;
  MPI_Comm_size(processes, &size);
  MPI_Comm_rank(processes, &process_);
  first_.resize(static_cast<std::size_t>(size) + 1);
  for (std::size_t p = 0; p <= first_.size() - 1; ++p)
    first_[p] = static_cast<trace::Rank>(p * static_cast<std::size_t>(locations) / static_cast<std::size_t>(size));
  int most = 0;
  for (std::size_t p = 0; p + 1 < first_.size(); ++p) most = std::max(most, static_cast<int>(first_[p + 1] - first_[p]));
  int* tagUpperBound = nullptr;
  int found = 0;
  MPI_Comm_get_attr(processes, MPI_TAG_UB, &tagUpperBound, &found);
  const long long highestTag = static_cast<long long>(std::max(most - 1, 0)) << (kChannelBits + kContextBits) |
                               ((1LL << (kChannelBits + kContextBits)) - 1);
  if (found && highestTag > *tagUpperBound) {
    const long long perProcess = (static_cast<long long>(*tagUpperBound) >> (kChannelBits + kContextBits)) + 1;
    throw std::runtime_error("an analysis process can hold at most " + std::to_string(perProcess) +
                             " ranks under this MPI library, but " + std::to_string(most) +
                             " fall to one; run the analysis with more processes (mpiexec -n M, M >= " +
                             std::to_string((locations + perProcess - 1) / perProcess) + ")");
  }
  // MPI guarantees tags up to 32767 at least.
  meetingGroups_ = (found ? *tagUpperBound / kContexts : 32767 / kContexts) + 1;
  towards_.resize(static_cast<std::size_t>(most));
  for (MPI_Comm& comm : towards_) MPI_Comm_dup(processes, &comm);
  MPI_Comm_dup(processes, &meetingComm_);
}

HeldLocations::~HeldLocations() {
  for (MPI_Comm& comm : towards_) MPI_Comm_free(&comm);
  MPI_Comm_free(&meetingComm_);
}

HeldLocations::Meeting& HeldLocations::meeting(const MeetingKey& key, std::size_t members) const {
  // A meeting of the same name that is over (another communicator of the same group, context
  // and size; every location calls the all-to-alls in the same order) still has members to
  // leave it: each does on its next turn.
  for (auto it = meetings_.find(key); it != meetings_.end() && it->second.done; it = meetings_.find(key)) {
    if (!Fibers::inFiber()) throw std::logic_error("a collective of several held locations outside their fibers");
    Fibers::yield();
  }
  Meeting& m = meetings_[key];
  m.parts.resize(members);
  return m;
}

void HeldLocations::leave(const MeetingKey& key) const {
  const auto it = meetings_.find(key);
  if (++it->second.left == it->second.parts.size()) meetings_.erase(it);
}

int HeldLocations::processOf(trace::Rank location) const {
  return static_cast<int>(std::upper_bound(first_.begin(), first_.end(), location) - first_.begin()) - 1;
}

// ---------------------------------------------------------------- LocationComm

LocationComm::LocationComm(MPI_Comm comm, bool yieldCore, bool owned)
    : comm_(comm), owned_(owned), yieldCore_(yieldCore) {
  MPI_Comm_rank(comm, &rank_);
  MPI_Comm_size(comm, &size_);
}

LocationComm::LocationComm(const HeldLocations& held, std::shared_ptr<const std::vector<trace::Rank>> members,
                           int rank, int group)
    : held_(&held),
      members_(std::move(members)),
      rank_(rank),
      size_(static_cast<int>(members_->size())),
      group_(group),
      yieldCore_(held.yieldCore()) {}

LocationComm::~LocationComm() {
  if (owned_) MPI_Comm_free(&comm_);
}

std::unique_ptr<LocationComm> LocationComm::dup() const {
  if (!held_) {
    // Nonblocking, so that a rank that gets here first does not spin on a core the others need.
    MPI_Comm copy = MPI_COMM_NULL;
    callAndWait(yieldCore_, MPI_Comm_idup, comm_, &copy);
    return std::make_unique<LocationComm>(copy, yieldCore_, true);
  }
  auto copy = std::make_unique<LocationComm>(*held_, members_, rank_, group_);
  copy->context_ = (context_ + ++dups_) % HeldLocations::kContexts;
  copy->layout_ = layout_;
  copy->place_ = place_;
  return copy;
}

MPI_Request LocationComm::post(bool receive, bool synchronous, const void* buffer, int count, MPI_Datatype type,
                               int peer, int channel, int context) const {
  MPI_Request request = MPI_REQUEST_NULL;
  void* data = const_cast<void*>(buffer);
  if (!held_) {
    if (receive) MPI_Irecv(data, count, type, peer, channel, comm_, &request);
    else if (synchronous) MPI_Issend(data, count, type, peer, channel, comm_, &request);
    else MPI_Isend(data, count, type, peer, channel, comm_, &request);
    return request;
  }
  const trace::Rank self = (*members_)[static_cast<std::size_t>(rank_)];
  const trace::Rank other = (*members_)[static_cast<std::size_t>(peer)];
  const int process = held_->processOf(other);
  if (receive) {
    MPI_Irecv(data, count, type, process, held_->tag(held_->indexOf(other), context, channel),
              held_->towards(held_->indexOf(self)), &request);
  } else {
    const MPI_Comm comm = held_->towards(held_->indexOf(other));
    const int tag = held_->tag(held_->indexOf(self), context, channel);
    if (synchronous) MPI_Issend(data, count, type, process, tag, comm, &request);
    else MPI_Isend(data, count, type, process, tag, comm, &request);
  }
  return request;
}

MPI_Request LocationComm::isend(const void* buffer, int count, MPI_Datatype type, int dest, int channel) const {
  return post(false, false, buffer, count, type, dest, channel, context_);
}
MPI_Request LocationComm::issend(const void* buffer, int count, MPI_Datatype type, int dest, int channel) const {
  return post(false, true, buffer, count, type, dest, channel, context_);
}
MPI_Request LocationComm::irecv(void* buffer, int count, MPI_Datatype type, int source, int channel) const {
  return post(true, false, buffer, count, type, source, channel, context_);
}
void LocationComm::send(const void* buffer, int count, MPI_Datatype type, int dest, int channel) const {
  MPI_Request r = isend(buffer, count, type, dest, channel);
  waitAll({&r, 1});
}
void LocationComm::recv(void* buffer, int count, MPI_Datatype type, int source, int channel) const {
  MPI_Request r = irecv(buffer, count, type, source, channel);
  waitAll({&r, 1});
}
void LocationComm::waitAll(std::span<MPI_Request> requests) const { waitAllFor(requests, yieldCore_); }

// ---- collectives: MPI's with one location per process, else point-to-point between locations

MPI_Request LocationComm::iallreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op) const {
  MPI_Request request = MPI_REQUEST_NULL;
  if (!held_) MPI_Iallreduce(send, recv, count, type, op, comm_, &request);
  else allreduce(send, recv, count, type, op);
  return request;
}

void LocationComm::allreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op) const {
  if (!held_) return callAndWait(yieldCore_, MPI_Iallreduce, send, recv, count, type, op, comm_);
  const HeldLocations::MeetingKey key = nextMeeting();
  const void* in = send == MPI_IN_PLACE ? recv : send;
  HeldLocations::Meeting* meeting =
      arrive({.send = static_cast<const std::byte*>(in), .recv = static_cast<std::byte*>(recv), .sent = {},
              .received = {}},
             key);
  if (!meeting) return;
  // The members' contributions, then the processes': every operation the analysis reduces
  // with is exact and commutative (MAX, MIN, MAXLOC, integer SUM and BOR), so the order of
  // combination does not change the result. Every send is read before any receive is written
  // (a member may reduce in place).
  const std::vector<HeldLocations::MeetingPart>& parts = meeting->parts;
  std::vector<std::byte> result(static_cast<std::size_t>(count) * extentOf(type));
  if (!result.empty()) std::memcpy(result.data(), parts.front().send, result.size());
  for (std::size_t i = 1; i < parts.size(); ++i) MPI_Reduce_local(parts[i].send, result.data(), count, type, op);
  reduceAcrossProcesses(result.data(), count, type, op);
  bcastAcrossProcesses(result.data(), count, type, 0);
  for (const HeldLocations::MeetingPart& part : parts) copyElements(result.data(), part.recv, count, type);
  close(*meeting, key);
}

void LocationComm::bcast(void* buffer, int count, MPI_Datatype type, int root) const {
  if (!held_) return callAndWait(yieldCore_, MPI_Ibcast, buffer, count, type, root, comm_);
  const HeldLocations::MeetingKey key = nextMeeting();
  HeldLocations::Meeting* meeting = arrive({.recv = static_cast<std::byte*>(buffer), .sent = {}, .received = {}}, key);
  if (!meeting) return;
  const ProcessLayout& processes = layout();
  const int rootProcess = held_->processOf(member(root));
  const auto rootEntry = static_cast<std::size_t>(
      std::lower_bound(processes.processes.begin(), processes.processes.end(), rootProcess) -
      processes.processes.begin());
  // The root's buffer where the root is held here, else the first member's, which receives.
  const std::vector<int>& here = processes.members[processes.here];
  const std::size_t source =
      rootEntry == processes.here
          ? static_cast<std::size_t>(std::find(here.begin(), here.end(), root) - here.begin())
          : 0;
  std::byte* data = meeting->parts[source].recv;
  bcastAcrossProcesses(data, count, type, rootEntry);
  for (const HeldLocations::MeetingPart& part : meeting->parts) copyElements(data, part.recv, count, type);
  close(*meeting, key);
}

void LocationComm::exscan(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op) const {
  if (!held_) return callAndWait(yieldCore_, MPI_Iexscan, send, recv, count, type, op, comm_);
  // A chain: rank r receives the combination of ranks 0..r-1 and passes it on with its own.
  const int ch = internalChannel();
  const std::size_t bytes = static_cast<std::size_t>(count) * extentOf(type);
  if (rank_ > 0) {
    MPI_Request r = post(true, false, recv, count, type, rank_ - 1, ch, context_);
    waitAll({&r, 1});
  }
  if (rank_ + 1 >= size_) return;
  std::vector<std::byte> onward(bytes);
  if (bytes > 0) std::memcpy(onward.data(), rank_ > 0 ? recv : send, bytes);
  if (rank_ > 0) MPI_Reduce_local(send, onward.data(), count, type, op);
  MPI_Request r = post(false, false, onward.data(), count, type, rank_ + 1, ch, context_);
  waitAll({&r, 1});
}

void LocationComm::reduceScatterBlock(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op) const {
  if (!held_) return callAndWait(yieldCore_, MPI_Ireduce_scatter_block, send, recv, count, type, op, comm_);
  const std::size_t block = static_cast<std::size_t>(count) * extentOf(type);
  std::vector<std::byte> all(block * static_cast<std::size_t>(size_));
  allreduce(send, all.data(), count * size_, type, op);
  if (block > 0) std::memcpy(recv, all.data() + block * static_cast<std::size_t>(rank_), block);
}

void LocationComm::gather(const void* send, int sendCount, MPI_Datatype sendType, void* recv, int recvCount,
                          MPI_Datatype recvType, int root) const {
  if (!held_)
    return callAndWait(yieldCore_, MPI_Igather, send, sendCount, sendType, recv, recvCount, recvType, root, comm_);
  std::vector<int> counts(static_cast<std::size_t>(size_), recvCount), displs(static_cast<std::size_t>(size_));
  for (int r = 0; r < size_; ++r) displs[static_cast<std::size_t>(r)] = r * recvCount;
  gatherv(send, sendCount, sendType, recv, counts.data(), displs.data(), recvType, root);
}

void LocationComm::gatherv(const void* send, int sendCount, MPI_Datatype sendType, void* recv,
                           const int* recvCounts, const int* displs, MPI_Datatype recvType, int root) const {
  if (!held_)
    return callAndWait(yieldCore_, MPI_Igatherv, send, sendCount, sendType, recv, recvCounts, displs, recvType, root,
                       comm_);
  throughRoot(true, recv, recvCounts, displs, recvType, const_cast<void*>(send), sendCount, sendType, root);
}

void LocationComm::throughRoot(bool toRoot, void* rootBuffer, const int* counts, const int* displs,
                               MPI_Datatype rootType, void* own, int ownCount, MPI_Datatype ownType, int root) const {
  const int ch = internalChannel();
  std::vector<MPI_Request> requests;
  if (rank_ == root) {
    for (int r = 0; r < size_; ++r) {
      const auto k = static_cast<std::size_t>(r);
      if (r == root || counts[k] == 0) continue;
      requests.push_back(post(toRoot, false, at(rootBuffer, static_cast<std::size_t>(displs[k]), rootType), counts[k],
                              rootType, r, ch, context_));
    }
    const std::size_t bytes = static_cast<std::size_t>(ownCount) * extentOf(ownType);
    std::byte* place = at(rootBuffer, static_cast<std::size_t>(displs[root]), rootType);
    if (bytes > 0) std::memcpy(toRoot ? place : own, toRoot ? own : place, bytes);
  } else if (ownCount > 0) {
    requests.push_back(post(!toRoot, false, own, ownCount, ownType, root, ch, context_));
  }
  waitAll(requests);
}

void LocationComm::scatter(const void* send, int sendCount, MPI_Datatype sendType, void* recv, int recvCount,
                           MPI_Datatype recvType, int root) const {
  if (!held_)
    return callAndWait(yieldCore_, MPI_Iscatter, send, sendCount, sendType, recv, recvCount, recvType, root, comm_);
  std::vector<int> counts(static_cast<std::size_t>(size_), sendCount), displs(static_cast<std::size_t>(size_));
  for (int r = 0; r < size_; ++r) displs[static_cast<std::size_t>(r)] = r * sendCount;
  scatterv(send, counts.data(), displs.data(), sendType, recv, recvCount, recvType, root);
}

void LocationComm::scatterv(const void* send, const int* sendCounts, const int* displs, MPI_Datatype sendType,
                            void* recv, int recvCount, MPI_Datatype recvType, int root) const {
  if (!held_)
    return callAndWait(yieldCore_, MPI_Iscatterv, send, sendCounts, displs, sendType, recv, recvCount, recvType, root,
                       comm_);
  throughRoot(false, const_cast<void*>(send), sendCounts, displs, sendType, recv, recvCount, recvType, root);
}

void LocationComm::alltoall(const void* send, int sendCount, MPI_Datatype sendType, void* recv, int recvCount,
                            MPI_Datatype recvType) const {
  if (!held_)
    return callAndWait(yieldCore_, MPI_Ialltoall, send, sendCount, sendType, recv, recvCount, recvType, comm_);
  if (contiguous(sendType) && contiguous(recvType)) {
    HeldLocations::MeetingPart part{static_cast<const std::byte*>(send), static_cast<std::byte*>(recv), {}, {}};
    part.sent.extent = static_cast<std::size_t>(sendCount) * extentOf(sendType);
    part.received.extent = static_cast<std::size_t>(recvCount) * extentOf(recvType);
    return meetForAlltoall(part);
  }
  std::vector<int> sendCounts(static_cast<std::size_t>(size_), sendCount), recvCounts(sendCounts.size(), recvCount);
  std::vector<int> sendDispls(sendCounts.size()), recvDispls(sendCounts.size());
  for (int r = 0; r < size_; ++r) {
    sendDispls[static_cast<std::size_t>(r)] = r * sendCount;
    recvDispls[static_cast<std::size_t>(r)] = r * recvCount;
  }
  alltoallv(send, sendCounts.data(), sendDispls.data(), sendType, recv, recvCounts.data(), recvDispls.data(),
            recvType);
}

void LocationComm::alltoallv(const void* send, const int* sendCounts, const int* sendDispls, MPI_Datatype sendType,
                             void* recv, const int* recvCounts, const int* recvDispls, MPI_Datatype recvType) const {
  if (!held_)
    return callAndWait(yieldCore_, MPI_Ialltoallv, send, sendCounts, sendDispls, sendType, recv, recvCounts,
                       recvDispls, recvType, comm_);
  if (contiguous(sendType) && contiguous(recvType)) {
    HeldLocations::MeetingPart part{static_cast<const std::byte*>(send), static_cast<std::byte*>(recv), {}, {}};
    part.sent = {.counts = sendCounts, .displs = sendDispls, .extent = extentOf(sendType)};
    part.received = {.counts = recvCounts, .displs = recvDispls, .extent = extentOf(recvType)};
    return meetForAlltoall(part);
  }
  // Its own block too: a copy of count times the extent would write the gaps.
  const int ch = internalChannel();
  std::vector<MPI_Request> requests;
  for (int r = 0; r < size_; ++r) {
    const auto k = static_cast<std::size_t>(r);
    if (recvCounts[k] == 0) continue;
    requests.push_back(post(true, false, at(recv, static_cast<std::size_t>(recvDispls[k]), recvType), recvCounts[k],
                            recvType, r, ch, context_));
  }
  for (int r = 0; r < size_; ++r) {
    const auto k = static_cast<std::size_t>(r);
    if (sendCounts[k] == 0) continue;
    requests.push_back(post(false, false, at(send, static_cast<std::size_t>(sendDispls[k]), sendType), sendCounts[k],
                            sendType, r, ch, context_));
  }
  waitAll(requests);
}

void LocationComm::alltoallvBytes(const std::byte* send, const std::size_t* sendCounts, const std::size_t* sendDispls,
                                  std::byte* recv, const std::size_t* recvCounts,
                                  const std::size_t* recvDispls) const {
  if (held_) {
    HeldLocations::MeetingPart part{send, recv, {}, {}};
    part.sent = {.bytes = sendCounts, .byteDispls = sendDispls};
    part.received = {.bytes = recvCounts, .byteDispls = recvDispls};
    return meetForAlltoall(part);
  }
  const int tag = internalChannel();
  std::vector<MPI_Request> requests;
  for (int r = 0; r < size_; ++r) {
    const auto k = static_cast<std::size_t>(r);
    if (r == rank_) continue;
    forEachPiece(recvCounts[k], [&](std::size_t offset, int bytes) {
      MPI_Irecv(recv + recvDispls[k] + offset, bytes, MPI_BYTE, r, tag, comm_, &requests.emplace_back());
    });
    forEachPiece(sendCounts[k], [&](std::size_t offset, int bytes) {
      MPI_Isend(send + sendDispls[k] + offset, bytes, MPI_BYTE, r, tag, comm_, &requests.emplace_back());
    });
  }
  const auto me = static_cast<std::size_t>(rank_);
  if (sendCounts[me] > 0) std::memmove(recv + recvDispls[me], send + sendDispls[me], sendCounts[me]);
  waitAll(requests);
}

// ---- meetings of the locations a process holds

const LocationComm::ProcessLayout& LocationComm::layout() const {
  if (!layout_) {
    std::map<int, std::vector<int>> byProcess;
    for (int r = 0; r < size_; ++r) byProcess[held_->processOf(member(r))].push_back(r);
    auto computed = std::make_shared<ProcessLayout>();
    for (auto& [process, members] : byProcess) {
      if (process == held_->process()) {
        computed->here = computed->processes.size();
        place_ = static_cast<std::size_t>(std::find(members.begin(), members.end(), rank_) - members.begin());
      }
      computed->processes.push_back(process);
      computed->members.push_back(std::move(members));
    }
    layout_ = std::move(computed);
  }
  return *layout_;
}

HeldLocations::Meeting* LocationComm::arrive(const HeldLocations::MeetingPart& mine,
                                             const HeldLocations::MeetingKey& key) const {
  const ProcessLayout& processes = layout();
  const std::size_t members = processes.members[processes.here].size();
  HeldLocations::Meeting& meeting = held_->meeting(key, members);
  meeting.parts[place_] = mine;
  if (++meeting.arrived == members) return &meeting;
  if (!Fibers::inFiber()) throw std::logic_error("a collective of several held locations outside their fibers");
  while (!meeting.done) Fibers::yield();
  Fibers::progressed();
  held_->leave(key);
  return nullptr;
}

void LocationComm::close(HeldLocations::Meeting& meeting, const HeldLocations::MeetingKey& key) const {
  meeting.done = true;
  held_->leave(key);
}

void LocationComm::reduceAcrossProcesses(void* buffer, int count, MPI_Datatype type, MPI_Op op) const {
  const ProcessLayout& processes = layout();
  const auto size = processes.processes.size(), entry = processes.here;
  std::vector<std::byte> partner(size > 1 ? static_cast<std::size_t>(count) * extentOf(type) : 0);
  for (std::size_t mask = 1; mask < size; mask <<= 1) {
    MPI_Request request = MPI_REQUEST_NULL;
    if (entry & mask) {
      MPI_Isend(buffer, count, type, processes.processes[entry - mask], meetingTag(), held_->meetings(), &request);
      waitAll({&request, 1});
      return;
    }
    if (entry + mask < size) {
      MPI_Irecv(partner.data(), count, type, processes.processes[entry + mask], meetingTag(), held_->meetings(),
                &request);
      waitAll({&request, 1});
      MPI_Reduce_local(partner.data(), buffer, count, type, op);
    }
  }
}

void LocationComm::bcastAcrossProcesses(void* buffer, int count, MPI_Datatype type, std::size_t rootEntry) const {
  const ProcessLayout& processes = layout();
  const auto size = processes.processes.size();
  const std::size_t relative = (processes.here + size - rootEntry) % size;
  const auto process = [&](std::size_t relativeEntry) { return processes.processes[(relativeEntry + rootEntry) % size]; };
  std::size_t mask = 1;
  for (; mask < size; mask <<= 1)
    if (relative & mask) {
      MPI_Request request = MPI_REQUEST_NULL;
      MPI_Irecv(buffer, count, type, process(relative - mask), meetingTag(), held_->meetings(), &request);
      waitAll({&request, 1});
      break;
    }
  std::vector<MPI_Request> sends;
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (relative + mask < size)
      MPI_Isend(buffer, count, type, process(relative + mask), meetingTag(), held_->meetings(), &sends.emplace_back());
  waitAll(sends);
}

void LocationComm::meetForAlltoall(const HeldLocations::MeetingPart& mine) const {
  const HeldLocations::MeetingKey key = nextMeeting();
  HeldLocations::Meeting* meeting = arrive(mine, key);
  if (!meeting) return;
  // Member i's block for member j lies at i's displacement j.
  const std::vector<HeldLocations::MeetingPart>& parts = meeting->parts;
  const auto sendBlock = [&](std::size_t i, int j) {
    const auto k = static_cast<std::size_t>(j);
    return std::span<const std::byte>(parts[i].send + parts[i].sent.displ(k), parts[i].sent.size(k));
  };
  const auto recvBlock = [&](std::size_t i, int j) {
    const auto k = static_cast<std::size_t>(j);
    return std::span<std::byte>(parts[i].recv + parts[i].received.displ(k), parts[i].received.size(k));
  };
  const ProcessLayout& processes = layout();
  const std::vector<int>& here = processes.members[processes.here];
  // The loops read one member's arrays at a time (a process may hold thousands of members, each
  // with arrays over every rank: going across the members for each index missed the cache at
  // every step).
  for (std::size_t j = 0; j < here.size(); ++j)
    for (std::size_t i = 0; i < here.size(); ++i) {
      const std::span<const std::byte> from = sendBlock(j, here[i]);
      if (!from.empty()) std::memmove(recvBlock(i, here[j]).data(), from.data(), from.size());
    }
  // To each other process one message: the blocks of this process' members for that process'
  // members, sender by sender, each in receiver order; from each, the same the other way.
  std::vector<std::vector<std::byte>> outgoing(processes.processes.size()), incoming(outgoing.size());
  std::vector<MPI_Request> requests;
  for (std::size_t e = 0; e < processes.processes.size(); ++e) {
    if (e == processes.here) continue;
    const std::vector<int>& there = processes.members[e];
    std::size_t in = 0;
    for (std::size_t i = 0; i < here.size(); ++i)
      for (const int j : there) {
        const std::span<const std::byte> block = sendBlock(i, j);
        outgoing[e].insert(outgoing[e].end(), block.begin(), block.end());
        in += recvBlock(i, j).size();
      }
    incoming[e].resize(in);
    const int process = processes.processes[e];
    forEachPiece(outgoing[e].size(), [&](std::size_t offset, int bytes) {
      MPI_Isend(outgoing[e].data() + offset, bytes, MPI_BYTE, process, meetingTag(), held_->meetings(),
                &requests.emplace_back());
    });
    forEachPiece(in, [&](std::size_t offset, int bytes) {
      MPI_Irecv(incoming[e].data() + offset, bytes, MPI_BYTE, process, meetingTag(), held_->meetings(),
                &requests.emplace_back());
    });
  }
  waitAll(requests);
  // Sender by sender, each in receiver order; taken receiver by receiver, with a cursor per
  // sender into its part of the message.
  std::vector<std::size_t> cursor;
  for (std::size_t e = 0; e < processes.processes.size(); ++e) {
    if (e == processes.here) continue;
    const std::vector<int>& there = processes.members[e];
    cursor.assign(there.size() + 1, 0);
    for (std::size_t i = 0; i < here.size(); ++i)
      for (std::size_t j = 0; j < there.size(); ++j) cursor[j + 1] += recvBlock(i, there[j]).size();
    for (std::size_t j = 0; j < there.size(); ++j) cursor[j + 1] += cursor[j];
    for (std::size_t i = 0; i < here.size(); ++i)
      for (std::size_t j = 0; j < there.size(); ++j) {
        const std::span<std::byte> to = recvBlock(i, there[j]);
        if (!to.empty()) std::memcpy(to.data(), incoming[e].data() + cursor[j], to.size());
        cursor[j] += to.size();
      }
  }
  close(*meeting, key);
}

}  // namespace waitscope::replay
