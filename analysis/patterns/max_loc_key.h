#pragma once
// MPI_MAXLOC over (time, rank) as the word-by-word maximum of two signed 64-bit
// keys: an exact integer maximum, the same in any order of combination, that still
// names the rank (the RMA notes of rma_active_patterns.cpp carry such keys).
//   value:   the time's order-preserving key, so the maximum is the latest time, exactly;
//   located: the same key with its lowest bits replaced by (mask - rank), so the maximum
//            names the rank of the latest time, the lowest rank among equal times, as
//            MPI_MAXLOC does. Times closer than 2^bits units in the last place (10^-12
//            relative at 1024 ranks) count as equal for the rank only.
#include <bit>
#include <cstdint>
#include <limits>

namespace waitscope::patterns {

// The order of doubles as the order of signed integers: a negative double's
// magnitude bits are reversed, so that larger magnitudes are smaller keys.
constexpr std::int64_t kMagnitudeBits = std::numeric_limits<std::int64_t>::max();
inline std::int64_t orderedKey(double time) {
  const auto bits = std::bit_cast<std::int64_t>(time);
  return bits < 0 ? bits ^ kMagnitudeBits : bits;
}
inline double timeOfKey(std::int64_t key) {
  return std::bit_cast<double>(key < 0 ? key ^ kMagnitudeBits : key);
}

struct MaxLocKey {
  std::int64_t value;
  std::int64_t located;
};
static_assert(sizeof(MaxLocKey) == 16);

// MPI_MAXLOC of two keys: each word's maximum.
inline MaxLocKey latest(const MaxLocKey& a, const MaxLocKey& b) {
  return {a.value > b.value ? a.value : b.value, a.located > b.located ? a.located : b.located};
}

// The keys of the ranks of a communicator of `size` ranks.
class MaxLocCoder {
 public:
  explicit MaxLocCoder(int size) : mask_((std::int64_t{1} << std::bit_width(static_cast<unsigned>(size))) - 1) {}
  MaxLocKey encode(double time, int rank) const {
    const std::int64_t key = orderedKey(time);
    return {key, (key & ~mask_) | (mask_ - rank)};
  }
  // What nobody has written yet: below every encoded time, no rank.
  static constexpr MaxLocKey none() { return {kNobody, kNobody}; }
  // -infinity when nobody wrote the key.
  double time(const MaxLocKey& k) const {
    return k.value == kNobody ? -std::numeric_limits<double>::infinity() : timeOfKey(k.value);
  }
  // -1 when nobody wrote the key.
  int rank(const MaxLocKey& k) const {
    return k.value == kNobody ? -1 : static_cast<int>(mask_ - (k.located & mask_));
  }

 private:
  // Below the key of every double but the negative NaN whose bits are all set.
  static constexpr std::int64_t kNobody = std::numeric_limits<std::int64_t>::min();
  std::int64_t mask_;
};

}  // namespace waitscope::patterns
