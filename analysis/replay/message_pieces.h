#pragma once
// MPI counts are int: a buffer of any size travels as pieces of at most 1 GiB, which arrive in
// the order sent between one pair of processes on one tag and communicator.
#include <algorithm>
#include <cstddef>

namespace waitscope::replay {

inline constexpr std::size_t kLargestPiece = std::size_t{1} << 30;

// Calls piece(offset, bytes) for each piece of a buffer of `size` bytes, in order.
template <class Piece>
void forEachPiece(std::size_t size, Piece&& piece) {
  for (std::size_t offset = 0; offset < size; offset += kLargestPiece)
    piece(offset, static_cast<int>(std::min(kLargestPiece, size - offset)));
}

}  // namespace waitscope::replay
