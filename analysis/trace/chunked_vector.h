#pragma once
// An append-only array in fixed chunks of 2^Shift elements: it grows to millions
// of entries without the copy and the brief 3x footprint of a vector's
// doubling, and, unlike std::deque (512-byte blocks: an allocation every few
// dozen elements), allocates once per chunk. The first chunk grows like a
// vector up to its full size, so the many small arrays of a trace with
// thousands of locations stay small.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

namespace waitscope::trace {

template <class T, unsigned Shift = 14>
class ChunkedVector {
 public:
  ChunkedVector() = default;
  ChunkedVector(ChunkedVector&&) noexcept = default;
  ChunkedVector& operator=(ChunkedVector&&) noexcept = default;
  ChunkedVector(const ChunkedVector& other) { *this = other; }
  ChunkedVector& operator=(const ChunkedVector& other) {
    if (this == &other) return *this;
    chunks_.clear();
    size_ = capacity_ = 0;
    for (std::size_t first = 0; first < other.size_; first += kChunk) {
      const std::size_t n = std::min(kChunk, other.size_ - first);
      chunks_.push_back(std::make_unique_for_overwrite<T[]>(n == kChunk ? kChunk : n));
      std::copy_n(&other[first], n, chunks_.back().get());
      capacity_ += n == kChunk ? kChunk : n;
    }
    size_ = other.size_;
    return *this;
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Elements allocated, as resident memory counts them at most.
  std::size_t capacity() const { return capacity_; }

  T& operator[](std::size_t i) { return chunks_[i >> Shift][i & kMask]; }
  const T& operator[](std::size_t i) const { return chunks_[i >> Shift][i & kMask]; }

  void push_back(const T& value) {
    if (size_ == capacity_) [[unlikely]]
      grow();
    (*this)[size_++] = value;
  }

  // Drops the elements from `n` on (n <= size()); keeps the memory.
  void shrinkTo(std::size_t n) {
    if (n < size_) size_ = n;
  }

  // Elements [i, i + n) lie in one chunk, contiguous from &(*this)[i], when n <= kChunk and `i` is
  // a multiple of kChunk: what sending them in pieces without a copy needs.
  static constexpr std::size_t kChunk = std::size_t{1} << Shift;

  // Reading in order, as a range-for does.
  class const_iterator {
   public:
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    const_iterator() = default;
    const_iterator(const ChunkedVector* v, std::size_t i) : v_(v), i_(i) {}
    const T& operator*() const { return (*v_)[i_]; }
    const T* operator->() const { return &(*v_)[i_]; }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator old = *this;
      ++i_;
      return old;
    }
    bool operator==(const const_iterator& other) const { return i_ == other.i_; }

   private:
    const ChunkedVector* v_ = nullptr;
    std::size_t i_ = 0;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size_}; }

 private:
  static constexpr std::size_t kMask = kChunk - 1;
  static constexpr std::size_t kFirstChunk = std::min<std::size_t>(16, kChunk);

  // Out of line, so push_back stays small enough to inline; not zeroed, since
  // every element is written before it is read. Only a partial last chunk can be
  // full here before the first chunk is (a copy ends in one), so it is the one
  // that grows.
  [[gnu::noinline]] void grow() {
    const std::size_t inLast = chunks_.empty() ? kChunk : capacity_ - ((chunks_.size() - 1) << Shift);
    if (inLast == kChunk) {
      const std::size_t n = chunks_.empty() ? kFirstChunk : kChunk;
      chunks_.push_back(std::make_unique_for_overwrite<T[]>(n));
      capacity_ += n;
      return;
    }
    const std::size_t larger = std::min(kChunk, 2 * inLast);
    auto chunk = std::make_unique_for_overwrite<T[]>(larger);
    std::copy_n(chunks_.back().get(), inLast, chunk.get());
    chunks_.back() = std::move(chunk);
    capacity_ += larger - inLast;
  }
  std::vector<std::unique_ptr<T[]>> chunks_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace waitscope::trace
