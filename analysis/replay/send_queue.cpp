#include "analysis/replay/send_queue.h"

#include <utility>

namespace waitscope::replay {

void SendQueue::send(std::vector<double> values, int dest, int channel) {
  InFlight& f = inFlight_.emplace_back();
  f.values = std::move(values);
  f.request = comm_.isend(f.values.data(), static_cast<int>(f.values.size()), MPI_DOUBLE, dest, channel);
  while (!inFlight_.empty()) {
    int finished = 0;
    MPI_Test(&inFlight_.front().request, &finished, MPI_STATUS_IGNORE);
    if (!finished) break;
    inFlight_.pop_front();
  }
}

void SendQueue::finish() {
  std::vector<MPI_Request> requests;
  requests.reserve(inFlight_.size());
  for (InFlight& f : inFlight_) requests.push_back(f.request);
  comm_.waitAll(requests);
  inFlight_.clear();
}

}  // namespace waitscope::replay
