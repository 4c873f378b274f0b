#include "analysis/online/collective_aggregation.h"

#include <algorithm>

namespace waitscope::online {

using metrics::Metric;

void mergePartial(Partial& into, const Partial& from) {
  if (into.count == 0) {
    into = from;
    return;
  }
  into.count += from.count;
  if (from.maxEnter > into.maxEnter) {
    into.maxEnter = from.maxEnter;
    into.lastRank = from.lastRank;
  }
  into.minLeave = std::min(into.minLeave, from.minLeave);
  into.rootEnter = std::max(into.rootEnter, from.rootEnter);
}

Partial partialOf(const Event& e) {
  Partial p;
  p.comm = e.comm;
  p.size = static_cast<std::uint32_t>(e.tag);
  p.seq = e.seq;
  p.count = 1;
  p.lastRank = static_cast<std::int32_t>(e.rank);
  p.maxEnter = e.t0;
  p.minLeave = e.t1;
  if (e.peer == static_cast<std::int32_t>(e.rank)) p.rootEnter = e.t0;
  return p;
}

void CollectiveTable::addMember(const Event& e) {
  const std::uint64_t k = key(e.comm, e.seq);
  open_[k].push_back({e.rank, e.node, e.collective, e.peer == static_cast<std::int32_t>(e.rank), e.t0, e.t1});
  ++members_;
  addPartial(partialOf(e));
}

void CollectiveTable::addPartial(const Partial& p) { mergePartial(deltas_[key(p.comm, p.seq)], p); }

std::vector<Partial> CollectiveTable::takeDeltas() {
  std::vector<Partial> out;
  out.reserve(deltas_.size());
  for (const auto& [k, p] : deltas_) out.push_back(p);
  deltas_.clear();
  return out;
}

bool CollectiveTable::applyResult(const Partial& total, WaitTotals& totals) {
  const auto it = open_.find(key(total.comm, total.seq));
  if (it == open_.end()) return false;
  for (const Member& m : it->second) {
    auto waitUntil = [&](Metric metric, double until) {
      if (until > m.enter) totals.add(metric, m.rank, m.node, std::min(until, m.leave) - m.enter);
    };
    auto completion = [&](Metric metric) {
      if (m.leave > total.minLeave) totals.add(metric, m.rank, m.node, m.leave - std::max(total.minLeave, m.enter));
    };
    switch (m.kind) {
      case CollectiveKind::Barrier:
        waitUntil(Metric::MpiBarrierWait, total.maxEnter);
        completion(Metric::MpiBarrierCompletion);
        break;
      case CollectiveKind::NxN:
        waitUntil(Metric::MpiWaitNxN, total.maxEnter);
        completion(Metric::MpiNxNCompletion);
        break;
      case CollectiveKind::OneToN:
        if (!m.isRoot) waitUntil(Metric::MpiLateBroadcast, total.rootEnter);
        break;
      case CollectiveKind::NToOne:
        // Scalasca's definition: the root waits for the latest sender (online events carry no
        // byte counts, so every member counts as one).
        if (m.isRoot) waitUntil(Metric::MpiEarlyReduce, total.maxEnter);
        break;
      case CollectiveKind::Other:
        break;
    }
  }
  members_ -= it->second.size();
  open_.erase(it);
  return true;
}

bool CollectiveCompletion::add(const Partial& delta, Partial& complete) {
  const std::uint64_t k = delta.seq << 32 ^ delta.comm;
  Partial& p = open_[k];
  mergePartial(p, delta);
  if (p.count < p.size) return false;
  complete = p;
  open_.erase(k);
  return true;
}

}  // namespace waitscope::online
