#pragma once
// Writes a synthetic but realistic MPI trace with the OTF2 writer API, shaped like
// what Score-P records for an iterative MPI solver: nested user-function calls,
// MPI_Send/MPI_Recv ring exchanges, MPI_Allreduce, and MPI_Win_fence epochs with
// MPI_Put. Used by the read-limit benchmark; also available as the executable
// waitscope-bench-gen-trace.
#include <cstdint>
#include <string>
#include <vector>

namespace waitscope::bench {

struct GeneratorOptions {
  std::uint64_t events = 10'000'000;  // total over all locations (at least this many)
  std::uint32_t locations = 8;        // MPI ranks, one "Master thread" each
  std::uint64_t seed = 1;
  // Location 1's clock runs this many ticks (ns) ahead of the others', with no offsets recorded:
  // its messages seem to arrive before they were sent, its collectives to be left early
  // (clock-condition violations, for timing their correction).
  std::uint64_t skewTicks = 0;
};

struct GeneratedTrace {
  std::string anchorPath;                       // DIR/traces.otf2
  std::uint64_t events = 0;                     // total event records written
  std::vector<std::uint64_t> eventsPerLocation;
  std::uint64_t steps = 0;                      // solver iterations per rank
};

// Writes the archive DIR/traces.otf2 (+ traces.def, traces/<rank>.evt|.def).
// DIR must not hold an archive already. Throws std::runtime_error on failure.
GeneratedTrace generateTrace(const std::string& dir, const GeneratorOptions& options = {});

}  // namespace waitscope::bench
