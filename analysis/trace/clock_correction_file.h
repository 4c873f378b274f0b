#pragma once
// The clock correction of a whole trace beside its report (REPORT.clock-correction), for the
// views that draw events at their corrected times: waitscope-analyze writes it when it corrected
// clock-condition violations; readClockCorrections() and LocationClockCorrection::correctedTimes()
// turn a location's recorded event times into the corrected ones.
//
// Binary, little-endian as the machine writes it: the 8 bytes "WSCLOCK1", a uint32 location
// count, then per location (world rank order) a uint32 anchor count, a uint32 ramp count, the
// anchors (uint32 event, float64 offset) and the ramps (uint32 from, uint32 to, float64 jump).
#include <string>
#include <vector>

#include "analysis/trace/clock_correction.h"

namespace waitscope::trace {

// The side file's path for a report.
std::string clockCorrectionPath(const std::string& reportPath);

// Whether `path` exists and is not a clock-correction file (then nothing may replace it).
bool isForeignFile(const std::string& path);

// Writes `perLocation` to `path`. Throws std::runtime_error (naming the file) if `path` exists and
// is not a clock-correction file, or cannot be written.
void writeClockCorrections(const std::string& path, const std::vector<LocationClockCorrection>& perLocation);

// Reads a file writeClockCorrections() wrote; one entry per location. Throws std::runtime_error
// naming the file if it is missing, of another kind or truncated.
std::vector<LocationClockCorrection> readClockCorrections(const std::string& path);

// Removes `path` if it is a clock-correction file (a report analyzed again without correction
// must not keep the old one); leaves any other file alone.
void removeClockCorrections(const std::string& path);

}  // namespace waitscope::trace
