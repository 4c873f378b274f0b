#pragma once
// An append-only array in fixed chunks of 16384 elements: it grows to millions
// of entries without the copy and the brief 3x footprint of a vector's
// doubling, and, unlike std::deque (512-byte blocks: an allocation every few
// dozen elements), allocates once per chunk.
#include <cstddef>
#include <memory>
#include <vector>

namespace waitscope::replay {

template <class T>
class ChunkedVector {
 public:
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  T& operator[](std::size_t i) { return chunks_[i >> kShift][i & kMask]; }
  const T& operator[](std::size_t i) const { return chunks_[i >> kShift][i & kMask]; }

  void push_back(const T& value) {
    if ((size_ >> kShift) == chunks_.size()) [[unlikely]]
      addChunk();
    (*this)[size_++] = value;
  }

  // Drops the elements from `n` on (n <= size()); keeps the memory.
  void shrinkTo(std::size_t n) {
    if (n < size_) size_ = n;
  }

 private:
  static constexpr std::size_t kShift = 14;
  static constexpr std::size_t kChunk = std::size_t{1} << kShift;
  static constexpr std::size_t kMask = kChunk - 1;

  // Out of line, so push_back stays small enough to inline; not zeroed, since
  // every element is written before it is read.
  [[gnu::noinline]] void addChunk() { chunks_.push_back(std::make_unique_for_overwrite<T[]>(kChunk)); }
  std::vector<std::unique_ptr<T[]>> chunks_;
  std::size_t size_ = 0;
};

}  // namespace waitscope::replay
