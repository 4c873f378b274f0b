#include "analysis/replay/put_exchange.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

#include "analysis/replay/yielding_wait.h"

namespace waitscope::replay {

PutExchange::PutExchange(const std::vector<std::vector<std::byte>>& outgoing, MPI_Comm comm, bool yieldCore) {
  int size = 1, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  const auto n = static_cast<std::size_t>(size);
  const auto me = static_cast<std::size_t>(rank);

  // Every target tells each sender where in its window the sender's bytes start.
  std::vector<std::uint64_t> sendCounts(n), recvCounts(n), displacements(n), myPlaces(n);
  for (std::size_t r = 0; r < n; ++r) sendCounts[r] = outgoing[r].size();
  callAndWait(yieldCore, MPI_Ialltoall, sendCounts.data(), 1, MPI_UINT64_T, recvCounts.data(), 1, MPI_UINT64_T,
              comm);
  offsets_.assign(n + 1, 0);
  for (std::size_t r = 0; r < n; ++r) offsets_[r + 1] = offsets_[r] + recvCounts[r];
  for (std::size_t r = 0; r < n; ++r) displacements[r] = offsets_[r];
  callAndWait(yieldCore, MPI_Ialltoall, displacements.data(), 1, MPI_UINT64_T, myPlaces.data(), 1, MPI_UINT64_T,
              comm);
  bytes_.resize(offsets_[n]);

  if (size > 1) {
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "true");
    std::byte spare{};
    MPI_Win win = MPI_WIN_NULL;
    MPI_Win_create(bytes_.empty() ? &spare : bytes_.data(), static_cast<MPI_Aint>(bytes_.size()), 1, info, comm,
                   &win);
    MPI_Info_free(&info);
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    constexpr std::size_t kPiece = std::size_t{1} << 30;  // MPI counts are int
    for (std::size_t r = 0; r < n; ++r) {
      if (r == me) continue;
      const std::vector<std::byte>& out = outgoing[r];
      for (std::size_t at = 0; at < out.size(); at += kPiece) {
        const int count = static_cast<int>(std::min(kPiece, out.size() - at));
        MPI_Put(out.data() + at, count, MPI_BYTE, static_cast<int>(r), static_cast<MPI_Aint>(myPlaces[r] + at),
                count, MPI_BYTE, win);
      }
    }
    // Wait for the slowest sender without spinning on a shared core, then close the epoch.
    callAndWait(yieldCore, MPI_Ibarrier, comm);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Win_free(&win);
  }
  std::copy(outgoing[me].begin(), outgoing[me].end(), bytes_.begin() + static_cast<std::ptrdiff_t>(offsets_[me]));
}

PutExchange::PutExchange(const std::vector<std::vector<std::byte>>& outgoing, const LocationComm& comm) {
  if (comm.mpi() != MPI_COMM_NULL) {
    *this = PutExchange(outgoing, comm.mpi(), comm.yieldCore());
    return;
  }
  const auto n = static_cast<std::size_t>(comm.size());
  const auto me = static_cast<std::size_t>(comm.rank());
  std::vector<std::uint64_t> sendCounts(n), recvCounts(n);
  for (std::size_t r = 0; r < n; ++r) sendCounts[r] = outgoing[r].size();
  comm.alltoall(sendCounts.data(), 1, MPI_UINT64_T, recvCounts.data(), 1, MPI_UINT64_T);
  offsets_.assign(n + 1, 0);
  for (std::size_t r = 0; r < n; ++r) offsets_[r + 1] = offsets_[r] + recvCounts[r];
  bytes_.resize(offsets_[n]);
  // One all-to-all, which meets in memory within a process (LocationComm::alltoallv), where
  // every location's bytes in and out fit MPI's int counts; else a message per pair, in pieces.
  std::size_t sent = 0;
  for (std::size_t r = 0; r < n; ++r) sent += outgoing[r].size();
  std::uint64_t largest = std::max<std::uint64_t>(offsets_[n], sent);
  comm.allreduce(MPI_IN_PLACE, &largest, 1, MPI_UINT64_T, MPI_MAX);
  if (largest <= static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
    std::vector<std::byte> flat;
    flat.reserve(sent);
    std::vector<int> counts(n), displs(n), inCounts(n), inDispls(n);
    for (std::size_t r = 0; r < n; ++r) {
      displs[r] = static_cast<int>(flat.size());
      counts[r] = static_cast<int>(outgoing[r].size());
      flat.insert(flat.end(), outgoing[r].begin(), outgoing[r].end());
      inCounts[r] = static_cast<int>(recvCounts[r]);
      inDispls[r] = static_cast<int>(offsets_[r]);
    }
    comm.alltoallv(flat.data(), counts.data(), displs.data(), MPI_BYTE, bytes_.data(), inCounts.data(),
                   inDispls.data(), MPI_BYTE);
    return;
  }
  constexpr std::size_t kPiece = std::size_t{1} << 30;  // MPI counts are int
  constexpr int kChannel = 3001;
  std::vector<MPI_Request> requests;
  for (std::size_t r = 0; r < n; ++r) {
    if (r == me) continue;
    for (std::size_t at = 0; at < recvCounts[r]; at += kPiece)
      requests.push_back(comm.irecv(bytes_.data() + offsets_[r] + at,
                                    static_cast<int>(std::min(kPiece, recvCounts[r] - at)), MPI_BYTE,
                                    static_cast<int>(r), kChannel));
    for (std::size_t at = 0; at < outgoing[r].size(); at += kPiece)
      requests.push_back(comm.isend(outgoing[r].data() + at, static_cast<int>(std::min(kPiece, outgoing[r].size() - at)),
                                    MPI_BYTE, static_cast<int>(r), kChannel));
  }
  std::copy(outgoing[me].begin(), outgoing[me].end(), bytes_.begin() + static_cast<std::ptrdiff_t>(offsets_[me]));
  comm.waitAll(requests);
}

}  // namespace waitscope::replay
