#pragma once
// Sends that the sender does not wait for: each keeps its buffer here until it completes, so that
// a rank that hands out results as it finds them (rank 0 in the delay propagation and in the
// critical path's hop planning) goes on with its work while the receivers take them in.
#include <mpi.h>

#include <deque>
#include <vector>

#include "analysis/replay/location_comm.h"

namespace waitscope::replay {

class SendQueue {
 public:
  explicit SendQueue(const LocationComm& comm) : comm_(comm) {}
  SendQueue(const SendQueue&) = delete;
  SendQueue& operator=(const SendQueue&) = delete;

  // Sends `values` to `dest` on `channel` without waiting; forgets the sends that completed.
  void send(std::vector<double> values, int dest, int channel);
  // Waits until every send has completed.
  void finish();

 private:
  struct InFlight {
    std::vector<double> values;
    MPI_Request request = MPI_REQUEST_NULL;
  };

  const LocationComm& comm_;
  std::deque<InFlight> inFlight_;  // oldest first; a deque keeps the buffers in place
};

}  // namespace waitscope::replay
