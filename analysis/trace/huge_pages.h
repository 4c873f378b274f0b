#pragma once
// Large arrays filled once, front to back (a location's events while reading):
// asking the kernel for transparent huge pages before the first touch turns one
// page fault per 4 KiB into one per 2 MiB, which is a measurable share of the
// reading time. Only advice: without THP (or on other systems) nothing changes.
#include <cstddef>

namespace waitscope::trace {

void adviseHugePages(void* data, std::size_t bytes);

}  // namespace waitscope::trace
