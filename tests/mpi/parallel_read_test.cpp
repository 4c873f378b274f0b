// Run under mpiexec with one rank per trace location: each rank reads only its
// own location and must see exactly the events the serial reader sees for it.
#include <mpi.h>

#include <cstdio>
#include <string>

#include "analysis/trace/otf2_reader_mpi.h"

using namespace waitscope::trace;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 2) {
    if (rank == 0) std::fprintf(stderr, "usage: parallel_read_test TRACE.otf2\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int failures = 0;
  try {
    const Trace mine = readTraceForRank(argv[1], MPI_COMM_WORLD);
    const Trace all = readTrace(argv[1]);
    const auto& expected = all.locations.at(static_cast<std::size_t>(rank));
    if (mine.locations.size() != 1) ++failures;
    else {
      const auto& got = mine.locations[0];
      if (got.location != expected.location || got.events.size() != expected.events.size()) ++failures;
      for (std::size_t i = 0; failures == 0 && i < got.events.size(); ++i)
        if (got.events[i].time != expected.events[i].time || got.events[i].kind != expected.events[i].kind) ++failures;
    }
    if (static_cast<int>(all.defs->worldLocations.size()) != size) ++failures;
    if (failures) std::fprintf(stderr, "rank %d: parallel read differs from serial read\n", rank);
  } catch (const TraceError& e) {
    std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
    ++failures;
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("parallel read on %d ranks: %s\n", size, total ? "FAILED" : "ok");
  MPI_Finalize();
  return total ? 1 : 0;
}
