#include "analysis/trace/otf2_reader_mpi.h"

#include <otf2/OTF2_MPI_Collectives.h>

#include "analysis/trace/otf2_reader_impl.h"

namespace waitscope::trace {

Trace readTraceForRank(const std::string& anchorPath, MPI_Comm comm, const ReadOptions& options) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const std::vector<Rank> mine{static_cast<Rank>(rank)};
  return readTraceWith(anchorPath, &mine, options, [comm](OTF2_Reader* reader) {
    OTF2_MPI_Reader_SetCollectiveCallbacks(reader, comm);
  });
}

}  // namespace waitscope::trace
