#pragma once
// MPI_MAXLOC over (time, rank) by MPI_Accumulate with MPI_MAX on two unsigned
// 64-bit keys: every MPI-3 RMA implementation accumulates basic integer types,
// while some refuse MPI_DOUBLE_INT with MPI_MAXLOC (Open MPI's osc pt2pt).
//   value:   the time's order-preserving key, so the maximum is the latest time, exactly;
//   located: the same key with its lowest bits replaced by (mask - rank), so the maximum
//            names the rank of the latest time, the lowest rank among equal times, as
//            MPI_MAXLOC does. Times closer than 2^bits units in the last place (10^-12
//            relative at 1024 ranks) count as equal for the rank only.
#include <bit>
#include <cstdint>
#include <limits>

namespace waitscope::patterns {

// The order of doubles as the order of unsigned integers (negative ones reversed).
inline std::uint64_t orderedKey(double time) {
  const auto bits = std::bit_cast<std::uint64_t>(time);
  return (bits >> 63) != 0 ? ~bits : bits | (std::uint64_t{1} << 63);
}
inline double timeOfKey(std::uint64_t key) {
  return std::bit_cast<double>((key >> 63) != 0 ? key & ~(std::uint64_t{1} << 63) : ~key);
}

struct MaxLocKey {
  std::uint64_t value;
  std::uint64_t located;
};
static_assert(sizeof(MaxLocKey) == 16);

// The keys of the ranks of a communicator of `size` ranks.
class MaxLocCoder {
 public:
  explicit MaxLocCoder(int size) : mask_((std::uint64_t{1} << std::bit_width(static_cast<unsigned>(size))) - 1) {}
  MaxLocKey encode(double time, int rank) const {
    const std::uint64_t key = orderedKey(time);
    return {key, (key & ~mask_) | (mask_ - static_cast<std::uint64_t>(rank))};
  }
  // What nobody has written yet: below every encoded time, no rank.
  MaxLocKey none() const { return {0, 0}; }
  // -infinity when nobody wrote the key.
  double time(const MaxLocKey& k) const {
    return k.value == 0 ? -std::numeric_limits<double>::infinity() : timeOfKey(k.value);
  }
  // -1 when nobody wrote the key.
  int rank(const MaxLocKey& k) const {
    return k.value == 0 ? -1 : static_cast<int>(mask_ - (k.located & mask_));
  }

 private:
  std::uint64_t mask_;
};

}  // namespace waitscope::patterns
