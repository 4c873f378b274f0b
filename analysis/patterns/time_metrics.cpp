#include "time_metrics.h"

#include "mpi_category.h"

#include <array>
#include <string>
#include <vector>

namespace waitscope::patterns {
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

void addTimeAndCounts(replay::ReplayContext& ctx) {
  const auto& defs = ctx.defs();
  const auto& tree = ctx.trace.callTree;
  std::vector<Metric> category(defs.regions.size());
  for (std::size_t r = 0; r < defs.regions.size(); ++r) category[r] = timeCategory(defs.regions[r]);

  // Exclusive time and visits per call path: one pass with a stack of open
  // regions; a region's exclusive time is its duration minus its children's.
  std::vector<double> exclusive(tree.size(), 0.0);
  std::vector<double> visits(tree.size(), 0.0);
  struct Open {
    trace::CallPathId path;
    double enter;
    double children;
  };
  std::vector<Open> stack;
  const auto& events = ctx.events;
  auto& sev = ctx.severities;
  for (std::size_t i = 0; i < events.events.size(); ++i) {
    const trace::Event& e = events.events[i];
    switch (e.kind) {
      case EventKind::Enter:
        stack.push_back({e.ref, e.time, 0.0});
        visits[e.ref] += 1.0;
        break;
      case EventKind::Leave: {
        if (stack.empty()) break;
        const Open open = stack.back();
        stack.pop_back();
        const double duration = e.time - open.enter;
        exclusive[open.path] += duration - open.children;
        if (!stack.empty()) stack.back().children += duration;
        break;
      }
      case EventKind::MpiSend:
      case EventKind::MpiIsend:
      case EventKind::MpiRecv:
      case EventKind::MpiIrecv: {
        const replay::Call* call = ctx.calls.callOf(i);
        if (!call) break;
        const auto& m = events.message(e);
        sev.add(m.bytes > 0 ? Metric::CommsP2p : Metric::SyncsP2p, call->path, 1.0);
        sev.add(Metric::BytesP2p, call->path, static_cast<double>(m.bytes));
        break;
      }
      case EventKind::MpiCollectiveEnd: {
        const replay::Call* call = ctx.calls.callOf(i);
        if (!call) break;
        const auto& c = events.collective(e);
        sev.add(c.op == trace::CollectiveOp::Barrier ? Metric::SyncsColl : Metric::CommsColl, call->path, 1.0);
        sev.add(Metric::BytesColl, call->path, static_cast<double>(c.sent + c.received));
        break;
      }
      case EventKind::RmaPut:
      case EventKind::RmaGet:
      case EventKind::RmaAtomic: {
        const replay::Call* call = ctx.calls.callOf(i);
        if (!call) break;
        const auto& r = events.rmaRecord(e);
        if (e.kind == EventKind::RmaPut) {
          sev.add(Metric::CommsRmaPuts, call->path, 1.0);
          sev.add(Metric::BytesPut, call->path, static_cast<double>(r.bytes));
        } else if (e.kind == EventKind::RmaGet) {
          sev.add(Metric::CommsRmaGets, call->path, 1.0);
          sev.add(Metric::BytesGet, call->path, static_cast<double>(r.bytes));
        } else {
          sev.add(Metric::CommsRmaAtomics, call->path, 1.0);
          // Score-P writes element counts here, not bytes (docs/decisions.md).
          sev.add(Metric::BytesRma, call->path, static_cast<double>(r.bytes + r.received));
        }
        break;
      }
      default:
        break;
    }
  }
  for (trace::CallPathId p = 0; p < tree.size(); ++p) {
    if (visits[p] == 0.0) continue;
    const Metric cat = category[tree[p].region];
    sev.add(cat, p, exclusive[p]);
    sev.add(Metric::Visits, p, visits[p]);
    if (cat == Metric::MpiRmaSyncActive) sev.add(Metric::SyncsRmaActive, p, visits[p]);
    if (cat == Metric::MpiRmaSyncPassive) sev.add(Metric::SyncsRmaPassive, p, visits[p]);
  }
}

}  // namespace waitscope::patterns
