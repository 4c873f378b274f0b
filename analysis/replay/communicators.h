#pragma once
// The trace's communicators rebuilt as MPI communicators of the analysis, so a
// collective of the application is replayed as the same collective over the
// same ranks (rank i of the rebuilt communicator analyzes rank i of the
// original). Communicators with equal member lists share one MPI communicator.
#include <mpi.h>

#include <vector>

#include "analysis/trace/definitions.h"

namespace waitscope::replay {

class Communicators {
 public:
  // Collective over `world` (rank r analyzes world rank r). Creates an MPI
  // communicator for every trace communicator with more than one member that
  // this rank belongs to.
  Communicators(const trace::Definitions& defs, MPI_Comm world);
  ~Communicators();
  Communicators(const Communicators&) = delete;
  Communicators& operator=(const Communicators&) = delete;

  // The MPI communicator of trace communicator `comm`: MPI_COMM_NULL when this
  // rank is no member or `comm` is an inter-communicator, MPI_COMM_SELF for
  // single-member communicators.
  MPI_Comm get(trace::CommId comm) const { return comm < mpi_.size() ? mpi_[comm] : MPI_COMM_NULL; }
  // This rank's rank in `comm` (in its group of an inter-communicator), or trace::kNone.
  trace::Rank rank(trace::CommId comm) const { return comm < rank_.size() ? rank_[comm] : trace::kNone; }
  MPI_Comm world() const { return world_; }
  // Whether this node runs more analysis ranks than it has cores (replay/yielding_wait.h).
  bool nodeOversubscribed() const { return nodeOversubscribed_; }

 private:
  MPI_Comm world_;
  bool nodeOversubscribed_;
  std::vector<MPI_Comm> mpi_;
  std::vector<trace::Rank> rank_;
  std::vector<MPI_Comm> owned_;
};

}  // namespace waitscope::replay
