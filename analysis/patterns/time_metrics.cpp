#include "analysis/patterns/time_metrics.h"

#include "analysis/metrics/mpi_category.h"
#include "analysis/replay/path_sums.h"

#include <optional>
#include <string>
#include <vector>

namespace waitscope::patterns {

using metrics::Metric;
using metrics::mpiTimeCategory;
namespace {

using trace::EventKind;

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

}  // namespace

Metric timeCategory(const trace::Region& region) {
  const std::string_view name = region.canonicalName.empty() ? region.name : region.canonicalName;
  if (region.paradigm != trace::Paradigm::Mpi && !startsWith(name, "MPI_")) return Metric::Comp;
  if (!startsWith(name, "MPI_")) return Metric::Mpi;
  return mpiTimeCategory(name);
}

std::vector<double> TimeMetrics::detect() {
  const auto& defs = ctx_.defs();
  const auto& tree = ctx_.trace.callTree;
  std::vector<Metric> category(defs.regions.size());
  for (std::size_t r = 0; r < defs.regions.size(); ++r) category[r] = timeCategory(defs.regions[r]);

  // Exclusive time, visits and stretches per call path: summed by the call
  // index's pass over every event.
  const replay::RegionTimes& times = ctx_.calls.regionTimes();
  const std::vector<double>& exclusive = times.exclusive;
  const std::vector<double>& visits = times.visits;
  const auto& events = ctx_.events;
  auto& sev = ctx_.severities;

  // Counts and bytes: only the communication events, each with its call at
  // hand, summed per call path (exact: whole numbers) and added once.
  enum : std::size_t { kCommsP2p, kSyncsP2p, kBytesP2p, kSyncsColl, kCommsColl, kBytesColl, kPuts, kBytesPut, kGets,
                       kBytesGet, kAtomics, kBytesRma };
  replay::PathSums counts(tree.size(), {Metric::CommsP2p, Metric::SyncsP2p, Metric::BytesP2p, Metric::SyncsColl,
                                        Metric::CommsColl, Metric::BytesColl, Metric::CommsRmaPuts, Metric::BytesPut,
                                        Metric::CommsRmaGets, Metric::BytesGet, Metric::CommsRmaAtomics,
                                        Metric::BytesRma});
  const std::vector<std::uint32_t>& nonRegion = ctx_.calls.nonRegionEvents();
  for (std::size_t k = 0; k < nonRegion.size(); ++k) {
    const trace::Event& e = ctx_.calls.nonRegionEvent(k);
    const std::optional<replay::Call> call = ctx_.calls.callOfEntry(k);
    if (!call) continue;
    switch (e.kind) {
      case EventKind::MpiSend:
      case EventKind::MpiIsend:
      case EventKind::MpiRecv:
      case EventKind::MpiIrecv: {
        const auto& m = events.message(e);
        counts.add(m.bytes > 0 ? kCommsP2p : kSyncsP2p, call->path, 1.0);
        counts.add(kBytesP2p, call->path, static_cast<double>(m.bytes));
        break;
      }
      case EventKind::MpiCollectiveEnd: {
        const auto& c = events.collective(e);
        counts.add(c.op == trace::CollectiveOp::Barrier ? kSyncsColl : kCommsColl, call->path, 1.0);
        counts.add(kBytesColl, call->path, static_cast<double>(c.sent + c.received));
        break;
      }
      case EventKind::RmaPut: {
        counts.add(kPuts, call->path, 1.0);
        counts.add(kBytesPut, call->path, static_cast<double>(events.rmaRecord(e).bytes));
        break;
      }
      case EventKind::RmaGet: {
        counts.add(kGets, call->path, 1.0);
        counts.add(kBytesGet, call->path, static_cast<double>(events.rmaRecord(e).bytes));
        break;
      }
      case EventKind::RmaAtomic: {
        const auto& r = events.rmaRecord(e);
        counts.add(kAtomics, call->path, 1.0);
        // Score-P writes element counts here, not bytes (docs/decisions.md).
        counts.add(kBytesRma, call->path, static_cast<double>(r.bytes + r.received));
        break;
      }
      default:
        break;
    }
  }
  counts.addTo(sev);
  for (trace::CallPathId p = 0; p < tree.size(); ++p) {
    if (visits[p] == 0.0) continue;
    const Metric cat = category[tree[p].region];
    sev.add(cat, p, exclusive[p]);
    sev.add(Metric::Visits, p, visits[p]);
    if (cat == Metric::MpiRmaSyncActive) sev.add(Metric::SyncsRmaActive, p, visits[p]);
    if (cat == Metric::MpiRmaSyncPassive) sev.add(Metric::SyncsRmaPassive, p, visits[p]);
  }
  return times.stretches;
}

}  // namespace waitscope::patterns
