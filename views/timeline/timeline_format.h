#pragma once
// Times and sizes as the timeline writes them (ruler, tooltips, export titles).
#include <cstdint>

#include <QString>

namespace waitscope::views {

// "1.5 ms", "250 µs", "3.25 s": the unit that keeps the number readable.
QString formatTime(double seconds);
QString formatBytes(std::uint64_t bytes);

}  // namespace waitscope::views
