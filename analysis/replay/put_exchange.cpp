#include "analysis/replay/put_exchange.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "analysis/replay/message_pieces.h"
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
    for (std::size_t r = 0; r < n; ++r) {
      if (r == me) continue;
      const std::vector<std::byte>& out = outgoing[r];
      forEachPiece(out.size(), [&](std::size_t offset, int bytes) {
        MPI_Put(out.data() + offset, bytes, MPI_BYTE, static_cast<int>(r), static_cast<MPI_Aint>(myPlaces[r] + offset),
                bytes, MPI_BYTE, win);
      });
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
  // One all-to-all of the counts, one of the bytes, which meets in memory within a process
  // (LocationComm::alltoallvBytes).
  static_assert(sizeof(std::size_t) == sizeof(std::uint64_t));
  const auto n = static_cast<std::size_t>(comm.size());
  std::vector<std::size_t> sendCounts(n), sendDispls(n), recvCounts(n);
  std::size_t sent = 0;
  for (std::size_t r = 0; r < n; ++r) {
    sendDispls[r] = sent;
    sendCounts[r] = outgoing[r].size();
    sent += sendCounts[r];
  }
  std::vector<std::byte> flat;
  flat.reserve(sent);
  for (const std::vector<std::byte>& out : outgoing) flat.insert(flat.end(), out.begin(), out.end());
  comm.alltoall(sendCounts.data(), 1, MPI_UINT64_T, recvCounts.data(), 1, MPI_UINT64_T);
  offsets_.assign(n + 1, 0);
  for (std::size_t r = 0; r < n; ++r) offsets_[r + 1] = offsets_[r] + recvCounts[r];
  bytes_.resize(offsets_[n]);
  comm.alltoallvBytes(flat.data(), sendCounts.data(), sendDispls.data(), bytes_.data(), recvCounts.data(),
                      offsets_.data());
}

}  // namespace waitscope::replay
