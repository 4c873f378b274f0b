#pragma once
// Online mode's application side (`waitscope-run --online`; Hilbrich et al., "Memory Usage
// Optimizations for Online Event Analysis", EASC 2014). The job has N application ranks and K tool
// places; at MPI_Init every process duplicates MPI_COMM_WORLD for the tool's channels and splits it
// into the application's world and the places'. A place runs its analysis inside MPI_Init and never
// returns to a program; an application rank gets its own world wherever it names MPI_COMM_WORLD
// (every wrapper substitutes it) and runs in profile mode (call paths, visits, times) while it
// sends compact events (point-to-point envelopes, receive completions, collective instances) in
// batches to its first-layer place. A channel holds `capacity` batches in flight; a full channel
// blocks the rank until the place has received one. At each MPI call the rank reads its place's
// acknowledgements and pause/resume messages; while paused it generates nothing.
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <memory_resource>
#include <unordered_map>
#include <vector>

#include "analysis/online/online_event.h"

namespace waitscope::measure {

// A communicator as the tool names it: a key all members compute alike (a hash of the member
// list), the members' application ranks, and the number of collectives so far.
struct OnlineComm {
  std::uint32_t key = 0;
  bool inter = false;           // inter-communicators are not analyzed online
  std::shared_ptr<std::vector<int>> appRanks;  // comm rank -> application rank (pending receives share it)
  std::uint64_t collectives = 0;
};

struct PendingReceive {
  std::uint32_t comm;           // OnlineComm key
  std::shared_ptr<std::vector<int>> ranks;
  double post;
};

// Online mode's state on an application rank: its channel to the place and what it tracks.
struct OnlineState {
  MPI_Comm tool = MPI_COMM_NULL;      // the job's MPI_COMM_WORLD, duplicated: the channels
  MPI_Comm appWorld = MPI_COMM_NULL;  // what the application gets for MPI_COMM_WORLD
  int rank = 0;                       // application rank
  int place = 0;                      // world rank of the first-layer place
  int capacity = 4;
  std::size_t batchEvents = 64;
  double snapshotSeconds = 2.0;
  std::vector<std::vector<online::Event>> slots;  // one buffer per message a channel holds
  std::vector<MPI_Request> slotRequests;
  std::size_t slot = 0;               // the buffer being filled
  int inFlight = 0;                   // batches not yet acknowledged
  bool paused = false;
  double lastFlush = 0.0, lastTree = 0.0;
  std::uint64_t completingCalls = 0;
  std::unordered_map<MPI_Comm, OnlineComm> comms;
  // Receives posted and not yet completed. The nodes come from a pool that keeps freed ones: an
  // MPI_Irecv does not allocate once the program's usual number of receives is in flight.
  std::pmr::unsynchronized_pool_resource receivePool;
  std::pmr::unordered_map<MPI_Request, PendingReceive> receives{&receivePool};
};
extern OnlineState onlineState;

inline MPI_Comm onlineSubstitute(MPI_Comm c) { return c == MPI_COMM_WORLD ? onlineState.appWorld : c; }
template <class T>
inline T onlineSubstitute(T a) {
  return a;
}

double onlineNow();
// After PMPI_Init, on every process of an online run (WAITSCOPE_ONLINE set). Returns true on a
// tool place, which has then run its whole analysis.
bool startOnline();
// Acknowledgements and pause/resume from the place; blocks while the application is paused.
void serviceOnline();
void emitOnline(const online::Event& e);
OnlineComm& onlineComm(MPI_Comm c);
void forgetOnlineComm(MPI_Comm c);
// MPI_Finalize of an application rank: its visit (a barrier on its world, as in a trace), the
// final call tree, the Finish event, every acknowledgement; then online mode ends.
void finishOnline(std::uint32_t finalizeFn, void* returnAddress);

}  // namespace waitscope::measure
