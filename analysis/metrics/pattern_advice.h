#pragma once
// What to change when a wait-state pattern costs time: one short paragraph per
// pattern, keyed by the metric's unique name. One table for every consumer:
// SARIF's rule help (`waitscope-report sarif`), the app's pattern tooltips and
// docs. Lives beside the metric table, without dependencies, so the app can use it.
#include <string_view>

namespace waitscope::metrics {

// The advice for `uniqueName` ("mpi_latesender"); a profiler estimate
// ("mpi_latesender_estimate") gets its pattern's advice. Empty when the metric
// is no wait-state pattern (time categories, counts, derived metrics).
std::string_view patternAdvice(std::string_view uniqueName);

}  // namespace waitscope::metrics
