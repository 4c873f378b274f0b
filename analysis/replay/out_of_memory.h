#pragma once
// Running out of memory during an analysis. The rank that fails says so in one
// line: which rank, which phase, and about how much memory it needed (what it
// held plus the request that failed, known because this library's operator new
// records the size it could not get). Before the analysis proper (reading the
// trace) the ranks agree on the failure and all exit with an error; during it,
// the other ranks may be waiting for this one inside a collective it will never
// join, so the job ends with MPI_Abort, which ends every rank with an error.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>

#include "analysis/replay/location_comm.h"

namespace waitscope::replay {

// Memory of this process as the out-of-memory line reports it.
struct MemoryState {
  std::size_t inUse = 0;          // address space (what `ulimit -v` limits)
  std::size_t failedRequest = 0;  // the allocation that failed; 0 if unknown
  std::size_t limit = 0;          // RLIMIT_AS; 0 if unlimited
};

MemoryState memoryState();

// "out of memory in the replay phase: about 1.9 GB needed (1.4 GB in use, a
// request for 512 MB failed; limit 1.5 GB); this rank holds 2500000 events; give
// each analysis rank more memory". `events` 0 leaves the event count out.
std::string outOfMemoryMessage(const std::string& phase, const MemoryState& memory, std::uint64_t events);

// Prints "waitscope-analyze: rank R: " + outOfMemoryMessage(...) on stderr and
// ends the job with MPI_Abort on `world`.
[[noreturn]] void abortOutOfMemory(MPI_Comm world, const std::string& phase, std::uint64_t events);
// The same for a location, which names itself ("rank R" is its trace rank).
[[noreturn]] void abortOutOfMemory(const LocationComm& world, const std::string& phase, std::uint64_t events);

// Runs `body` as `phase` of this rank's analysis; out of memory, abortOutOfMemory.
template <class World, class Body>
decltype(auto) runPhase(const World& world, const char* phase, std::uint64_t events, Body&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    abortOutOfMemory(world, phase, events);
  }
}

}  // namespace waitscope::replay
