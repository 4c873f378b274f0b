#pragma once
// How far each rank's clock is from rank 0's, measured as Score-P does at
// MPI_Init and MPI_Finalize and written as OTF2 ClockOffset definitions, which
// OTF2's reader applies to every timestamp (interpolating between the two).
// Ranks whose kernel booted with rank 0's share its CLOCK_MONOTONIC: their
// offset is 0, and nothing is measured. The others ping rank 0 a few times and
// keep the exchange with the shortest round trip (Cristian's method): the
// offset's error is at most half of that round trip.
#include <mpi.h>

#include <cstdint>

namespace waitscope::measure {

struct ClockOffsetSample {
  std::uint64_t time = 0;     // on this rank's clock, the middle of the exchange
  std::int64_t offset = 0;    // rank 0's clock minus this rank's
  double deviation = 0.0;     // half the round trip, in ticks: the bound of the error
};

// Collective over `comm` (a communicator only this code uses; rank 0 of it is the reference).
// `measureAll` measures even ranks that share rank 0's clock (WAITSCOPE_CLOCK_SYNC=measure; to
// test the exchange on one machine).
ClockOffsetSample measureClockOffset(MPI_Comm comm, std::uint64_t (*now)(), bool measureAll);

}  // namespace waitscope::measure
