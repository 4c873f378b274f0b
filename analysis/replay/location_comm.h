#pragma once
// The communicators of the replay, whose ranks are trace locations (application ranks), not
// necessarily analysis processes. With one location per process (M = N, the default) a
// LocationComm is an MPI communicator and every operation is the MPI call of the same name.
// An analysis process may also hold several locations (M < N, HeldLocations): each runs on a
// fiber of its own (replay/fibers.h), and the operations between locations become
// point-to-point messages, to another process or to the same one, whose waits let the
// process' other locations run; all-to-alls, all-reductions and broadcasts meet in memory
// first and send one message per pair of processes and step. Every operation blocks
// (nonblocking underneath: waits yield, replay/yielding_wait.h) but the point-to-point ones,
// which return MPI requests.
#include <mpi.h>

#include <cstddef>
#include <map>
#include <memory>
#include <span>
#include <tuple>
#include <vector>

#include "analysis/trace/ids.h"

namespace waitscope::replay {

// The analysis processes and the trace ranks each holds: process p holds the contiguous block
// [first(p), first(p + 1)) of world ranks, so that rank-ordered streams to rank 0 come from
// the processes in order. Collective over `processes` to create and to destroy.
class HeldLocations {
 public:
  HeldLocations(MPI_Comm processes, int locations, bool yieldCore);
  ~HeldLocations();
  HeldLocations(const HeldLocations&) = delete;
  HeldLocations& operator=(const HeldLocations&) = delete;

  int locations() const { return locations_; }
  int process() const { return process_; }
  trace::Rank first() const { return first_[static_cast<std::size_t>(process_)]; }
  int held() const { return static_cast<int>(first_[static_cast<std::size_t>(process_) + 1] - first()); }
  int processOf(trace::Rank location) const;
  int indexOf(trace::Rank location) const { return static_cast<int>(location - first_[processOf(location)]); }
  bool yieldCore() const { return yieldCore_; }
  MPI_Comm processes() const { return processes_; }

  // Messages to a location travel on the communicator of its index within its process, with
  // the sender's index, a context and a channel in the tag.
  MPI_Comm towards(int index) const { return towards_[static_cast<std::size_t>(index)]; }
  int tag(int senderIndex, int context, int channel) const {
    return (senderIndex << (kChannelBits + kContextBits)) | (context << kChannelBits) | channel;
  }
  static constexpr int kChannelBits = 15;
  static constexpr int kContextBits = 2;
  static constexpr int kContexts = 1 << kContextBits;

  // A collective operation of this process' members of one communicator meets in memory:
  // each member leaves its buffers here, and the last to arrive combines or moves them for
  // every member and exchanges with the other processes that hold members, one message per
  // pair of processes and step (a message per pair of locations would be tens of thousands of
  // requests per all-to-all, which Open MPI walks on every test).
  // Where an all-to-all buffer holds the block of each member of the communicator, in bytes: by
  // 64-bit byte counts and displacements, by MPI's int counts of elements of `extent` bytes, or,
  // without arrays, `extent` bytes each with member k's at k * extent. The callers' arrays are
  // read where they are: converting them took four arrays over every rank of the world per
  // location and call, which a process holding many locations of a large world paid for each.
  struct Blocks {
    const std::size_t* bytes = nullptr;
    const std::size_t* byteDispls = nullptr;
    const int* counts = nullptr;
    const int* displs = nullptr;
    std::size_t extent = 0;

    std::size_t size(std::size_t k) const {
      if (bytes) return bytes[k];
      return counts ? static_cast<std::size_t>(counts[k]) * extent : extent;
    }
    std::size_t displ(std::size_t k) const {
      if (bytes) return byteDispls[k];
      return counts ? static_cast<std::size_t>(displs[k]) * extent : k * extent;
    }
  };
  struct MeetingPart {
    const std::byte* send = nullptr;
    std::byte* recv = nullptr;
    Blocks sent, received;  // all-to-alls
  };
  struct Meeting {
    std::vector<MeetingPart> parts;  // per member held here, in the communicator's order
    std::size_t arrived = 0;
    std::size_t left = 0;
    bool done = false;
  };
  // The communicator (group, context and size) and its call number name a meeting.
  using MeetingKey = std::tuple<int, int, int, long>;
  Meeting& meeting(const MeetingKey& key, std::size_t members) const;
  void leave(const MeetingKey& key) const;
  // Where the processes' messages of the meetings travel, tagged by group and context. Member
  // lists of different groups must not share a tag: a process completes the meetings of
  // communicators with different members in whichever order its locations reach them, which
  // another process need not share, and MPI would match their messages in that order.
  MPI_Comm meetings() const { return meetingComm_; }
  int meetingTag(int group, int context) const { return (group % meetingGroups_) * kContexts + context; }

 private:
  MPI_Comm processes_;
  int process_ = 0;
  int locations_ = 0;
  bool yieldCore_ = false;
  std::vector<trace::Rank> first_;  // per process, and the end
  std::vector<MPI_Comm> towards_;   // per location index
  MPI_Comm meetingComm_ = MPI_COMM_NULL;
  int meetingGroups_ = 1;  // the groups that have tags of their own (MPI_TAG_UB / kContexts: 2^26 or more)
  // The fibers of one thread share it: no lock.
  mutable std::map<MeetingKey, Meeting> meetings_;
};

class LocationComm {
 public:
  // One location per process: the ranks of `comm` are the locations.
  LocationComm(MPI_Comm comm, bool yieldCore, bool owned = false);
  // Location `rank` of a communicator whose members are the world ranks `members`, held by
  // the process of `held`; `group` numbers the member list among the trace's (the same on
  // every process) and keeps its internal messages apart from other communicators'.
  LocationComm(const HeldLocations& held, std::shared_ptr<const std::vector<trace::Rank>> members, int rank,
               int group);
  ~LocationComm();
  LocationComm(const LocationComm&) = delete;
  LocationComm& operator=(const LocationComm&) = delete;

  // Collective: a copy whose messages never meet this one's (MPI_Comm_dup).
  std::unique_ptr<LocationComm> dup() const;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool yieldCore() const { return yieldCore_; }
  // With one location per process: the MPI communicator; else MPI_COMM_NULL.
  MPI_Comm mpi() const { return held_ ? MPI_COMM_NULL : comm_; }
  // With several: the process' locations; else nullptr.
  const HeldLocations* held() const { return held_; }
  // The world rank of member `rank`.
  trace::Rank member(int rank) const {
    return held_ ? (*members_)[static_cast<std::size_t>(rank)] : static_cast<trace::Rank>(rank);
  }

  // Collective operations, as the MPI calls of the same names (no communicator, no request).
  // iallreduce() may overlap several reductions where the MPI library does them (with one
  // location per process); with several it completes before it returns.
  MPI_Request iallreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op) const;
  void allreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op) const;
  void exscan(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op) const;
  void reduceScatterBlock(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op) const;
  void bcast(void* buffer, int count, MPI_Datatype type, int root) const;
  void gather(const void* send, int sendCount, MPI_Datatype sendType, void* recv, int recvCount,
              MPI_Datatype recvType, int root) const;
  void gatherv(const void* send, int sendCount, MPI_Datatype sendType, void* recv, const int* recvCounts,
               const int* displs, MPI_Datatype recvType, int root) const;
  void scatter(const void* send, int sendCount, MPI_Datatype sendType, void* recv, int recvCount,
               MPI_Datatype recvType, int root) const;
  void scatterv(const void* send, const int* sendCounts, const int* displs, MPI_Datatype sendType, void* recv,
                int recvCount, MPI_Datatype recvType, int root) const;
  void alltoall(const void* send, int sendCount, MPI_Datatype sendType, void* recv, int recvCount,
                MPI_Datatype recvType) const;
  void alltoallv(const void* send, const int* sendCounts, const int* sendDispls, MPI_Datatype sendType, void* recv,
                 const int* recvCounts, const int* recvDispls, MPI_Datatype recvType) const;
  // alltoallv() of bytes, with counts and displacements beyond int (Open MPI 4.1 has no
  // MPI_Alltoallv_c): pieces between processes.
  void alltoallvBytes(const std::byte* send, const std::size_t* sendCounts, const std::size_t* sendDispls,
                      std::byte* recv, const std::size_t* recvCounts, const std::size_t* recvDispls) const;

  // Point-to-point on `channel` (0 ≤ channel < kUserChannels): requests to wait for with
  // waitAll() or to test.
  static constexpr int kUserChannels = 30000;
  MPI_Request isend(const void* buffer, int count, MPI_Datatype type, int dest, int channel) const;
  MPI_Request issend(const void* buffer, int count, MPI_Datatype type, int dest, int channel) const;
  MPI_Request irecv(void* buffer, int count, MPI_Datatype type, int source, int channel) const;
  void send(const void* buffer, int count, MPI_Datatype type, int dest, int channel) const;
  void recv(void* buffer, int count, MPI_Datatype type, int source, int channel) const;
  void waitAll(std::span<MPI_Request> requests) const;

 private:
  MPI_Request post(bool receive, bool synchronous, const void* buffer, int count, MPI_Datatype type, int peer,
                   int channel, int context) const;
  // Gathers (toRoot) or scatters between the root's `rootBuffer` (counts and displacements per
  // member) and each member's `own`, one message per member.
  void throughRoot(bool toRoot, void* rootBuffer, const int* counts, const int* displs, MPI_Datatype rootType,
                   void* own, int ownCount, MPI_Datatype ownType, int root) const;
  // The members of this communicator by the process that holds them (they never change).
  struct ProcessLayout {
    std::vector<int> processes;             // that hold members, ascending
    std::vector<std::vector<int>> members;  // per entry of `processes`, in the communicator's order
    std::size_t here = 0;                   // this process' entry
  };
  const ProcessLayout& layout() const;
  // Leaves `mine` in this process' meeting of the call. The last member to arrive gets the
  // meeting back, does the work of every member held here and then calls close(); the others
  // get nullptr once it has.
  HeldLocations::Meeting* arrive(const HeldLocations::MeetingPart& mine, const HeldLocations::MeetingKey& key) const;
  void close(HeldLocations::Meeting& meeting, const HeldLocations::MeetingKey& key) const;
  HeldLocations::MeetingKey nextMeeting() const { return {group_, context_, size_, meetings_++}; }
  int meetingTag() const { return held_->meetingTag(group_, context_); }
  // Between the processes that hold members, on the meetings' communicator: a binomial tree.
  void reduceAcrossProcesses(void* buffer, int count, MPI_Datatype type, MPI_Op op) const;
  void bcastAcrossProcesses(void* buffer, int count, MPI_Datatype type, std::size_t rootEntry) const;
  void meetForAlltoall(const HeldLocations::MeetingPart& mine) const;
  int internalChannel() const { return kUserChannels + group_ % 2000; }

  MPI_Comm comm_ = MPI_COMM_NULL;
  bool owned_ = false;
  const HeldLocations* held_ = nullptr;
  std::shared_ptr<const std::vector<trace::Rank>> members_;
  int rank_ = 0;
  int size_ = 1;
  int group_ = 0;
  int context_ = 0;
  mutable int dups_ = 0;
  mutable long meetings_ = 0;
  mutable std::shared_ptr<const ProcessLayout> layout_;
  mutable std::size_t place_ = 0;  // this member's among the layout's members here
  bool yieldCore_ = false;
};

}  // namespace waitscope::replay
