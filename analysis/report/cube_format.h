#pragma once
// What the Cube 4 writer and reader share: the member names and binary markers
// of a .cubex archive (docs/cube.md).
#include <cstdint>
#include <string>

namespace waitscope::report::cube {

inline constexpr char kAnchor[] = "anchor.xml";
inline constexpr char kIndexMarker[] = "CUBEX.INDEX";        // 11 bytes
inline constexpr char kDataMarker[] = "CUBEX.DATA";          // 10 bytes
inline constexpr char kZDataMarker[] = "ZCUBEX.DATA";        // 11 bytes: zlib-compressed blocks follow
inline constexpr std::uint8_t kIndexSparse = 1;             // a list of row positions follows
inline constexpr std::uint8_t kIndexDense = 3;              // every row is stored

inline std::string indexName(std::uint32_t metricId) { return std::to_string(metricId) + ".index"; }
inline std::string dataName(std::uint32_t metricId) { return std::to_string(metricId) + ".data"; }

}  // namespace waitscope::report::cube
