#pragma once
// Slices on the wire: what `waitscope-report timeline` prints for the app on
// another machine. JSON for people and scripts; a compact binary form
// (records byte for byte, docs/timeline.md) that parseBinarySlice reads back.
#include <ostream>
#include <stdexcept>
#include <string_view>

#include "analysis/timeline/timeline_slice.h"

namespace waitscope::timeline {

inline constexpr std::uint64_t kSliceFormatVersion = 1;

void writeSliceJson(const Slice& slice, std::ostream& out);
void writeSliceBinary(const Slice& slice, std::ostream& out);

class SliceFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// Throws SliceFormatError naming what is wrong.
Slice parseBinarySlice(std::string_view data);

}  // namespace waitscope::timeline
