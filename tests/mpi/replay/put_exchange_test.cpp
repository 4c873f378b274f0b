// replay::PutExchange: every rank's bytes arrive at their destination whole, in order, from the
// right source, whatever the sizes (none, to itself only, uneven), over the whole world and over
// a split of it.
#include "analysis/replay/put_exchange.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstddef>
#include <vector>

namespace waitscope::replay {
namespace {

// The byte at position k of what `from` sends to `to`.
std::byte pattern(int from, int to, std::size_t k) {
  return static_cast<std::byte>((from * 31 + to * 7 + static_cast<int>(k % 251)) & 0xff);
}

// Each rank sends `length(from, to)` bytes to every rank; checks what arrives.
template <class Length>
void exchangeAndCheck(MPI_Comm comm, Length length) {
  int size = 1, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  std::vector<std::vector<std::byte>> out(static_cast<std::size_t>(size));
  for (int to = 0; to < size; ++to)
    for (std::size_t k = 0; k < length(rank, to); ++k) out[static_cast<std::size_t>(to)].push_back(pattern(rank, to, k));
  const PutExchange in(out, comm, true);
  ASSERT_EQ(in.sources(), size);
  for (int from = 0; from < size; ++from) {
    const auto got = in.from(from);
    ASSERT_EQ(got.size(), length(from, rank)) << "from rank " << from;
    for (std::size_t k = 0; k < got.size(); ++k) ASSERT_EQ(got[k], pattern(from, rank, k)) << "byte " << k;
  }
}

TEST(PutExchange, NothingToSend) {
  exchangeAndCheck(MPI_COMM_WORLD, [](int, int) { return std::size_t{0}; });
}

TEST(PutExchange, OnlyToItself) {
  exchangeAndCheck(MPI_COMM_WORLD, [](int from, int to) { return from == to ? std::size_t{1000} : 0; });
}

TEST(PutExchange, UnevenSizesBetweenAllPairs) {
  exchangeAndCheck(MPI_COMM_WORLD, [](int from, int to) {
    return static_cast<std::size_t>((from + 1) * 1013 + to * 4099 + (from == to ? 0 : 70000));
  });
}

TEST(PutExchange, OneWayOnly) {  // rank 0 sends, the others receive and send nothing
  exchangeAndCheck(MPI_COMM_WORLD, [](int from, int to) { return from == 0 ? std::size_t(17 + to) : 0; });
}

// One half after the other: Open MPI 4.1 may give windows created at once on disjoint
// communicators one shared segment (put_exchange.h).
TEST(PutExchange, OnEachHalfOfASplit) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm half = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  for (int turn = 0; turn < 2; ++turn) {
    if (rank % 2 == turn)
      exchangeAndCheck(half, [](int from, int to) { return static_cast<std::size_t>(3 + from * 5 + to); });
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Comm_free(&half);
}

}  // namespace
}  // namespace waitscope::replay
