#pragma once
// The speed limit OTF2 sets: a reader loop that decodes and dispatches every
// record of a trace with callbacks that do nothing, as readTrace() must, minus
// building anything. The benchmarks measure our reading and analysis against it.
#include <cstdint>
#include <limits>
#include <string>

namespace waitscope::bench {

inline constexpr std::uint32_t kAllLocations = std::numeric_limits<std::uint32_t>::max();

// Reads the archive's definitions and the events of every location (or only of
// the `onlyLocation`-th location defined, as one analysis rank does). Returns the
// number of event records read. Throws std::runtime_error.
std::uint64_t bareRead(const std::string& anchor, std::uint32_t onlyLocation = kAllLocations);

}  // namespace waitscope::bench
