#pragma once
// The binary form both timeline files share (the index beside a report, the slices on the wire):
// values and arrays of trivially copyable records in this machine's byte order, an array as its
// record count (8 bytes) followed by the records.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace waitscope::timeline {

// Hands every byte run to `sink(const void* data, std::size_t bytes)`: a stream, a file, a
// checksum.
template <class Sink>
class BinaryWriter {
 public:
  explicit BinaryWriter(Sink sink) : sink_(std::move(sink)) {}
  Sink& sink() { return sink_; }
  void bytes(const void* data, std::size_t n) { sink_(data, n); }
  template <class T>
  void value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes(&v, sizeof v);
  }
  template <class T>
  void array(std::span<const T> items) {
    static_assert(std::is_trivially_copyable_v<T>);
    value<std::uint64_t>(items.size());
    bytes(items.data(), items.size() * sizeof(T));
  }

 private:
  Sink sink_;
};

// Reads what BinaryWriter wrote from bytes in memory. Every read says whether the bytes held it;
// a count is checked against what is left before anything is allocated or viewed.
class BinaryReader {
 public:
  BinaryReader(const void* data, std::uint64_t size) : p_(static_cast<const unsigned char*>(data)), left_(size) {}
  bool bytes(void* data, std::uint64_t n) {
    if (n == 0) return true;  // empty arrays have no storage (memcpy must not see a null pointer)
    if (n > left_) return false;
    std::memcpy(data, p_, n);
    p_ += n;
    left_ -= n;
    return true;
  }
  template <class T>
  bool value(T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    return bytes(&v, sizeof v);
  }
  // An array, copied: the bytes need no alignment.
  template <class T>
  bool array(std::vector<T>& items) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::uint64_t n = 0;
    if (!value(n) || n > left_ / sizeof(T)) return false;
    items.resize(n);
    return bytes(items.data(), n * sizeof(T));
  }
  // An array in place, for bytes aligned for T (a mapped file whose records are multiples of 8
  // bytes at offsets that are multiples of 8).
  template <class T>
  bool view(std::span<const T>& items) {
    std::uint64_t n = 0;
    if (!value(n) || n > left_ / sizeof(T)) return false;
    items = std::span<const T>(reinterpret_cast<const T*>(p_), n);
    p_ += n * sizeof(T);
    left_ -= n * sizeof(T);
    return true;
  }
  std::uint64_t left() const { return left_; }

 private:
  const unsigned char* p_;
  std::uint64_t left_;
};

}  // namespace waitscope::timeline
