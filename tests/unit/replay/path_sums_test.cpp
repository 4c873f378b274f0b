// PathSums: dense per-call-path sums added to the severities once, with the
// same entries as adding them one by one.
#include <gtest/gtest.h>

#include "analysis/replay/path_sums.h"

using waitscope::metrics::Metric;
using waitscope::replay::PathSums;
using waitscope::replay::Severities;

namespace {

double valueOf(const Severities& s, Metric m, unsigned path) {
  for (const auto& e : s.entries())
    if (e.metric == m && e.path == path) return e.value;
  return -1.0;  // no entry
}

}  // namespace

TEST(PathSums, AddsTheSameEntriesAsSeverities) {
  PathSums sums(4, {Metric::DelayP2p, Metric::DelayP2pLongterm});
  Severities direct;
  const struct {
    std::size_t metric;
    unsigned path;
    double value;
  } adds[] = {{0, 1, 0.25}, {1, 1, 0.125}, {0, 3, 1.5}, {0, 1, 0.5}, {1, 2, 0.0}};
  const Metric metrics[] = {Metric::DelayP2p, Metric::DelayP2pLongterm};
  for (const auto& a : adds) {
    sums.add(a.metric, a.path, a.value);
    direct.add(metrics[a.metric], a.path, a.value);
  }
  Severities viaSums;
  sums.addTo(viaSums);
  const auto want = direct.entries(), got = viaSums.entries();
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].metric, want[i].metric);
    EXPECT_EQ(got[i].path, want[i].path);
    EXPECT_DOUBLE_EQ(got[i].value, want[i].value);
  }
  EXPECT_DOUBLE_EQ(valueOf(viaSums, Metric::DelayP2p, 1), 0.75);
  EXPECT_DOUBLE_EQ(valueOf(viaSums, Metric::DelayP2pLongterm, 1), 0.125);
  EXPECT_EQ(valueOf(viaSums, Metric::DelayP2pLongterm, 2), -1.0);  // zero: no entry
}
