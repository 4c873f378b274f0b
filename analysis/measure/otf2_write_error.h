#pragma once
// Failures to write an OTF2 archive (a full disk, a quota): OTF2 reports each one through a
// process-wide callback that prints a cascade of lines; the writers here keep the first failure
// instead and say it once.
#include <otf2/OTF2_ErrorCodes.h>

#include <cstdarg>
#include <cstdint>

namespace waitscope::measure {

// The errno an OTF2 code stands for (OTF2 names those codes by the number, "28": ENOSPC), or 0.
int errnoOf(OTF2_ErrorCode code);

// What went wrong, for one line: the system's text for an errno code ("No space left on
// device"), OTF2's description otherwise. No allocation (the abort path may be a signal handler).
const char* describeWriteError(int code);

// An OTF2_ErrorCallback; userData points to an int that keeps the first failure (0: none yet),
// replaced only by the first one that carries an errno (what the system refused, rather than
// OTF2's follow-up errors). Warnings are not failures. Prints nothing.
OTF2_ErrorCode noteWriteError(void* userData, const char* file, std::uint64_t line, const char* function,
                              OTF2_ErrorCode code, const char* format, va_list args);

}  // namespace waitscope::measure
