#pragma once
// The timeline index as a file beside the report (REPORT.timeline): written
// once, loaded by every later query. Versioned, checksummed and tied to the
// files it was built from (size and modification time of the trace's anchor
// and .def files and of the report), so a stale or damaged index is rebuilt
// instead of being trusted. Format: docs/timeline.md.
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/report/report.h"
#include "analysis/timeline/timeline_index.h"

namespace waitscope::timeline {

// Raised whenever what an index holds changes, so an index cached by an older build is rebuilt.
inline constexpr std::uint64_t kIndexFormatVersion = 2;

// Size and modification time of each source file, in a fixed order.
struct SourceStamp {
  std::uint64_t size = 0;
  std::int64_t modifiedNs = 0;
  bool operator==(const SourceStamp&) const = default;
};
using Fingerprint = std::vector<SourceStamp>;

// The files an index depends on: the trace anchor, its .def file, the report.
std::vector<std::string> indexSources(const std::string& tracePath, const std::string& reportPath);
// Throws IndexError when a source file cannot be read.
Fingerprint fingerprintOf(const std::vector<std::string>& files);

std::string defaultIndexPath(const std::string& reportPath);

class IndexError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes atomically (temporary file, then rename). Throws IndexError.
void writeTimelineIndex(const TimelineIndex& index, const Fingerprint& sources, const std::string& path);

enum class IndexLoad { Loaded, Missing, Stale, Corrupt };

struct LoadedIndex {
  IndexLoad status = IndexLoad::Missing;
  std::string problem;  // why it is not Loaded: one phrase
  TimelineIndex index;
};

// Loads `path` if it exists, is intact and was built from files with this fingerprint.
LoadedIndex loadTimelineIndex(const std::string& path, const Fingerprint& expected);

struct OpenedIndex {
  TimelineIndex index;
  bool built = false;   // built from the trace now (else loaded)
  std::string clockWarning;  // the report's clock correction could not be applied: one line naming the file
};

// The index of (trace, report): loaded from `indexPath` (default: beside the
// report) when fresh, else built from the trace and written there; at the
// corrected times when the report was corrected (clock_corrected_trace.h).
// `note` receives one line when an index is rebuilt or cannot be saved, or
// the clock correction cannot be read.
OpenedIndex openTimelineIndex(const std::string& tracePath, const std::string& reportPath,
                              const report::Report& report, const std::function<void(const std::string&)>& note,
                              const std::string& indexPath = {});

}  // namespace waitscope::timeline
