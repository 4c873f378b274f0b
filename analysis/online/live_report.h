#pragma once
// What the root place writes: the report in our usual format, rebuilt from the
// application ranks' call trees and the wait-state totals at every snapshot, and REPORT.live, a
// small JSON status the desktop app follows (docs/online.md). Both are replaced atomically.
#include <string>
#include <utility>
#include <vector>

#include "analysis/online/online_event.h"
#include "analysis/report/report.h"

namespace waitscope::online {

struct LiveStatus {
  std::string state = "running";  // running | finished | failed
  long snapshot = 0;
  double elapsedSeconds = 0.0;
  long pauses = 0;
  unsigned long long peakQueue = 0;
  double intervalSeconds = 2.0;
  std::string message;            // one line, when failed
};

// The JSON text of `s` (with "updated" = now, UTC).
std::string liveStatusJson(const LiveStatus& s);
// Writes `reportPath`.live atomically; throws report::ReportError naming the file.
void writeLiveStatus(const std::string& reportPath, const LiveStatus& s);

// trees[r]: application rank r's serialized call tree (profile record; empty when none came yet).
report::Report buildOnlineReport(const std::vector<std::string>& trees, const std::vector<MetricValue>& totals,
                                 std::vector<std::pair<std::string, std::string>> meta);

}  // namespace waitscope::online
