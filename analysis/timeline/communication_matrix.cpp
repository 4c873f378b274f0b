#include "analysis/timeline/communication_matrix.h"

#include <algorithm>

#include "analysis/metrics/metric_table.h"

namespace waitscope::timeline {

double CommunicationMatrix::largest(MatrixQuantity q) const {
  const std::vector<double>& c = cells(q);
  return c.empty() ? 0.0 : *std::max_element(c.begin(), c.end());
}

double CommunicationMatrix::total(MatrixQuantity q) const {
  double sum = 0.0;
  for (double v : cells(q)) sum += v;
  return sum;
}

CommunicationMatrix communicationMatrix(const TimelineIndex& index, const report::Report& report,
                                        const MatrixFilter& filter) {
  const auto n = static_cast<std::uint32_t>(report.locations.size());
  CommunicationMatrix matrix(n);
  const auto inWindow = [&](double t) { return t >= filter.from && t < filter.to; };
  const std::size_t nl = std::min<std::size_t>(index.locations.size(), n);
  for (std::size_t loc = 0; loc < nl; ++loc) {
    const LocationTimeline& lt = index.locations[loc];
    // Each message once: from its sender's list; each transfer from its origin's.
    if (filter.pointToPoint)
      for (const Message& m : lt.sends.items()) {
        if (!inWindow(m.start)) continue;
        matrix.add(MatrixQuantity::Count, m.sender, m.receiver, m.count);
        matrix.add(MatrixQuantity::Bytes, m.sender, m.receiver, static_cast<double>(m.bytes));
      }
    if (filter.rma)
      for (const Transfer& t : lt.outgoing.items()) {
        if (!inWindow(t.start)) continue;
        const bool get = t.kind == TransferKind::Get;
        const std::uint32_t from = get ? t.target : t.origin, to = get ? t.origin : t.target;
        matrix.add(MatrixQuantity::Count, from, to, t.count);
        matrix.add(MatrixQuantity::Bytes, from, to, static_cast<double>(t.bytes));
      }
  }

  // Waiting time: instances of patterns whose family names the cause.
  std::vector<metrics::WaitFamily> family(report.metrics.size(), metrics::WaitFamily::None);
  for (std::size_t m = 0; m < report.metrics.size(); ++m)
    for (const metrics::MetricDefinition& d : metrics::metricTable())
      if (d.uniqueName == report.metrics[m].uniqueName) family[m] = metrics::waitFamily(d.id);
  const auto wanted = [&](metrics::WaitFamily f) {
    if (f == metrics::WaitFamily::PointToPoint) return filter.pointToPoint;
    return (f == metrics::WaitFamily::RmaActive || f == metrics::WaitFamily::RmaPassive) && filter.rma;
  };
  for (const report::Instance& in : report.instances) {
    if (in.metric >= family.size() || !wanted(family[in.metric]) || in.cause == report::kNoId) continue;
    if (!filter.metrics.empty() && (in.metric >= filter.metrics.size() || !filter.metrics[in.metric])) continue;
    if (!filter.callPaths.empty() && (in.callPath >= filter.callPaths.size() || !filter.callPaths[in.callPath]))
      continue;
    const double d = std::min(in.end, filter.to) - std::max(in.start, filter.from);
    if (d > 0.0) matrix.add(MatrixQuantity::WaitingTime, in.cause, in.location, d);
  }
  return matrix;
}

}  // namespace waitscope::timeline
