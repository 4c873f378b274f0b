#include "analysis/online/live_report.h"

#include <cstdio>
#include <fstream>

#include "analysis/profile/profile_output.h"
#include "analysis/report/report_io.h"
#include "analysis/report/text_output.h"

namespace waitscope::online {

using report::jsonString;

std::string liveStatusJson(const LiveStatus& s) {
  char numbers[256];
  std::snprintf(numbers, sizeof numbers,
                "\"snapshot\": %ld, \"elapsed_seconds\": %.3f, \"pauses\": %ld, \"peak_queue\": %llu, "
                "\"interval_seconds\": %.3f",
                s.snapshot, s.elapsedSeconds, s.pauses, s.peakQueue, s.intervalSeconds);
  return "{\"state\": " + jsonString(s.state) + ", " + numbers + ", \"updated\": " + jsonString(report::isoUtcNow()) +
         ", \"message\": " + jsonString(s.message) + "}\n";
}

void writeLiveStatus(const std::string& reportPath, const LiveStatus& s) {
  const std::string path = reportPath + ".live", tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << liveStatusJson(s);
    if (!out) throw report::ReportError("cannot write " + tmp + ": check that the directory is writable");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw report::ReportError("cannot replace " + path + ": check that the directory is writable");
}

report::Report buildOnlineReport(const std::vector<std::string>& trees, const std::vector<MetricValue>& totals,
                                 std::vector<std::pair<std::string, std::string>> meta) {
  using profile::RankOut;
  std::vector<RankOut> ranks(trees.size());
  for (std::size_t r = 0; r < trees.size(); ++r) {
    if (!trees[r].empty()) ranks[r] = profile::deserialize(trees[r]);
    if (ranks[r].host.empty()) ranks[r].host = "unknown host";
  }
  profile::ReportSettings settings;
  settings.estimates = false;
  settings.kind = "online";
  settings.meta = std::move(meta);
  for (const MetricValue& v : totals) {
    // a wait on a node the rank's last tree does not have yet shows at the next snapshot
    if (v.rank >= ranks.size() || v.node >= ranks[v.rank].nodes.size()) continue;
    settings.waits.push_back({v.rank, v.node, static_cast<metrics::Metric>(v.metric), v.value});
  }
  return profile::buildProfileReport(ranks, settings);
}

}  // namespace waitscope::online
