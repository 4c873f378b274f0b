#pragma once
// An exchange of byte strings between all ranks of a communicator, carried by one-sided
// communication: every rank exposes one window of what it receives, and each sender writes its
// bytes there with MPI_Put in a single fence epoch. The RMA patterns exchange the raw times of
// their epochs this way, so the replay of one-sided synchronization rides on one-sided
// communication, as the events it evaluates did (Hermanns et al., EuroPVM/MPI 2009).
#include <mpi.h>

#include <cstddef>
#include <span>
#include <vector>

#include "analysis/replay/location_comm.h"

namespace waitscope::replay {

class PutExchange {
 public:
  // Collective over `comm`. `outgoing[r]` goes to rank r (its own entry is copied in memory).
  // Never at the same time on disjoint communicators: Open MPI 4.1's osc sm and osc rdma may
  // give windows created at once on them one shared segment (docs/patterns/rma_active.md).
  PutExchange(const std::vector<std::vector<std::byte>>& outgoing, MPI_Comm comm, bool yieldCore);
  // The same between locations: by RMA with one location per process, else by one all-to-all
  // (a process that holds several locations would be one window member for all of them).
  PutExchange(const std::vector<std::vector<std::byte>>& outgoing, const LocationComm& comm);

  // What rank `source` sent to this rank, in its order.
  std::span<const std::byte> from(int source) const {
    return {bytes_.data() + offsets_[static_cast<std::size_t>(source)],
            offsets_[static_cast<std::size_t>(source) + 1] - offsets_[static_cast<std::size_t>(source)]};
  }
  int sources() const { return static_cast<int>(offsets_.size()) - 1; }

 private:
  std::vector<std::byte> bytes_;
  std::vector<std::size_t> offsets_;  // per source, and the end
};

}  // namespace waitscope::replay
