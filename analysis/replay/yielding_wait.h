#pragma once
// Waiting for a collective without taking a core from the ranks that still
// work. Open MPI's shared-memory transport polls; on a node that runs more
// analysis ranks than it has cores (an analysis on a laptop or a login node,
// or 16 ranks on 2 cores in CI), a rank that waits in a blocking call keeps
// taking time slices from the ones it waits for. There, a wait tests the
// request and sleeps in between (20 µs, backing off to 200 µs); with a core
// per rank it is a plain MPI_Wait.
#include <mpi.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <span>

#include "analysis/replay/fibers.h"

namespace waitscope::replay {

// Whether this node runs more ranks of `world` than it has online cores.
// Collective over `world`.
inline bool nodeOversubscribed(MPI_Comm world) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local = 1;
  MPI_Comm_size(node, &local);
  MPI_Comm_free(&node);
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return cores > 0 && local > cores;
}

// Waits for every request of an exchange (its sends and receives): tested with
// short sleeps in between where yieldCore, else MPI_Waitall. waitFor() is the
// one-request case.
inline void waitAllFor(std::span<MPI_Request> requests, bool yieldCore) {
  const int count = static_cast<int>(requests.size());
  if (Fibers::inFiber()) {
    int done = 0;
    MPI_Testall(count, requests.data(), &done, MPI_STATUSES_IGNORE);
    if (done) return;
    while (!done) {
      Fibers::yield();
      MPI_Testall(count, requests.data(), &done, MPI_STATUSES_IGNORE);
    }
    Fibers::progressed();
    return;
  }
  if (!yieldCore) {
    MPI_Waitall(count, requests.data(), MPI_STATUSES_IGNORE);
    return;
  }
  int done = 0;
  MPI_Testall(count, requests.data(), &done, MPI_STATUSES_IGNORE);
  for (long ns = 20'000; !done; ns = std::min(2 * ns, 200'000L)) {
    const timespec pause{0, ns};
    nanosleep(&pause, nullptr);
    MPI_Testall(count, requests.data(), &done, MPI_STATUSES_IGNORE);
  }
}

inline void waitFor(MPI_Request& request, bool yieldCore) { waitAllFor({&request, 1}, yieldCore); }

// Starts a nonblocking MPI call (its request is the last argument, left out
// here) and waits for it with waitFor():
// callAndWait(yieldCore, MPI_Iallreduce, send, recv, 1, MPI_INT, MPI_MAX, comm).
template <class Start, class... Args>
void callAndWait(bool yieldCore, Start start, Args... args) {
  MPI_Request request = MPI_REQUEST_NULL;
  start(args..., &request);
  waitFor(request, yieldCore);
}

}  // namespace waitscope::replay
