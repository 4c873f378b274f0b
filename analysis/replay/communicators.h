#pragma once
// The trace's communicators rebuilt for the analysis, so a collective of the application is
// replayed as the same collective over the same ranks (rank i of the rebuilt communicator
// analyzes rank i of the original). One per analysis location. With one location per process
// they are MPI communicators (equal member lists share one); with several per process
// (HeldLocations) they are LocationComms over the process' point-to-point links.
#include <mpi.h>

#include <memory>
#include <vector>

#include "analysis/replay/location_comm.h"
#include "analysis/trace/definitions.h"

namespace waitscope::replay {

class Communicators {
 public:
  // Collective over `world`, whose rank r is world rank r of the trace (kept by reference).
  // With one location per process, creates an MPI communicator for every trace communicator
  // with more than one member that this rank belongs to.
  Communicators(const trace::Definitions& defs, const LocationComm& world);
  ~Communicators();
  Communicators(const Communicators&) = delete;
  Communicators& operator=(const Communicators&) = delete;

  // The communicator of trace communicator `comm`: nullptr when this location is no member or
  // `comm` is an inter-communicator; of size 1 for single-member communicators.
  const LocationComm* get(trace::CommId comm) const { return comm < byComm_.size() ? byComm_[comm] : nullptr; }
  // This location's rank in `comm` (in its group of an inter-communicator), or trace::kNone.
  trace::Rank rank(trace::CommId comm) const { return comm < rank_.size() ? rank_[comm] : trace::kNone; }
  const LocationComm& world() const { return world_; }
  // Whether this node runs more analysis processes than it has cores (replay/yielding_wait.h).
  bool nodeOversubscribed() const { return world_.yieldCore(); }

 private:
  // The members (world ranks) of each MPI intra-communicator of the trace this location
  // belongs to; calls `make(c, members, rankInIt)` for each that has more than one.
  template <class Make>
  void walk(const trace::Definitions& defs, trace::Rank me, int worldSize, Make make);

  const LocationComm& world_;
  std::unique_ptr<LocationComm> self_;
  std::vector<const LocationComm*> byComm_;
  std::vector<trace::Rank> rank_;
  std::vector<std::unique_ptr<LocationComm>> owned_;
};

}  // namespace waitscope::replay
