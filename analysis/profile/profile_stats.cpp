#include "analysis/profile/profile_stats.h"

#include <algorithm>
#include <initializer_list>

namespace waitscope::profile {
namespace {

bool isOneOf(std::string_view name, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

EstimateRule estimateRule(std::string_view f) {
  // Point-to-point: the process's own minimum (the paper: the alternative, global, was
  // not better). Wait/Waitall complete receives posted earlier: Late Sender too.
  if (isOneOf(f, {"MPI_Recv", "MPI_Sendrecv", "MPI_Sendrecv_replace", "MPI_Waitany", "MPI_Waitsome"}))
    return {Pattern::LateSender, Scope::Local, Role::Any, false};
  if (isOneOf(f, {"MPI_Wait", "MPI_Waitall"})) return {Pattern::LateSender, Scope::Local, Role::Any, true};
  // A blocking send waits for its receiver when it is synchronous (MPI_Ssend, MPI_Send
  // above the eager limit): the local minimum of the sends (Mao et al., EuroMPI/ASIA 2014, 3.3).
  if (isOneOf(f, {"MPI_Send", "MPI_Ssend"})) return {Pattern::LateReceiver, Scope::Local, Role::Any, false};
  // Collectives: the minimum over all processes, taken in MPI_Finalize.
  if (isOneOf(f, {"MPI_Allreduce", "MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall", "MPI_Alltoallv",
                  "MPI_Alltoallw", "MPI_Reduce_scatter", "MPI_Reduce_scatter_block"}))
    return {Pattern::WaitNxN, Scope::Global, Role::Any, false};
  if (f == "MPI_Barrier") return {Pattern::BarrierWait, Scope::Global, Role::Any, false};
  // The root of a broadcast never waits: only non-root visits, and their minimum.
  if (isOneOf(f, {"MPI_Bcast", "MPI_Scatter", "MPI_Scatterv"}))
    return {Pattern::LateBroadcast, Scope::Global, Role::NonRoot, false};
  // Only the root of a reduction can enter too early: only root visits.
  if (isOneOf(f, {"MPI_Reduce", "MPI_Gather", "MPI_Gatherv"}))
    return {Pattern::EarlyReduce, Scope::Global, Role::Root, false};
  // RMA (future work of Mao et al., EuroMPI/ASIA 2014): the fence synchronizes the window's whole
  // group like a collective; start/complete and wait synchronize pairs, like point-to-point.
  if (f == "MPI_Win_fence") return {Pattern::WaitAtFence, Scope::Global, Role::Any, false};
  if (isOneOf(f, {"MPI_Win_start", "MPI_Win_complete"})) return {Pattern::LatePost, Scope::Local, Role::Any, false};
  if (f == "MPI_Win_wait") return {Pattern::EarlyWait, Scope::Local, Role::Any, false};
  return {};
}

std::string_view baseMetric(Pattern pattern) {
  switch (pattern) {
    case Pattern::LateSender: return "mpi_latesender";
    case Pattern::LateReceiver: return "mpi_latereceiver";
    case Pattern::WaitNxN: return "mpi_wait_nxn";
    case Pattern::BarrierWait: return "mpi_barrier_wait";
    case Pattern::LateBroadcast: return "mpi_latebroadcast";
    case Pattern::EarlyReduce: return "mpi_earlyreduce";
    case Pattern::WaitAtFence: return "mpi_rma_wait_at_fence";
    case Pattern::LatePost: return "mpi_rma_sync_late_post";
    case Pattern::EarlyWait: return "mpi_rma_early_wait";
    case Pattern::None: break;
  }
  return {};
}

std::string sizeClassLabel(std::uint8_t k) {
  if (k <= 1) return std::to_string(k) + " B";
  const std::uint64_t low = std::uint64_t{1} << (k - 1);
  const std::uint64_t high = k == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << k) - 1;
  return std::to_string(low) + "-" + std::to_string(high) + " B";
}

// ---------------------------------------------------------------------------------------------
ProfileTree::ProfileTree() : table_(1024) {}

std::uint32_t ProfileTree::childSlow(std::uint32_t parent, std::uint32_t region, std::uintptr_t callSite) {
  const std::size_t mask = table_.size() - 1;
  for (std::size_t i = hash(parent, region, callSite) & mask;; i = (i + 1) & mask) {
    Entry& e = table_[i];
    if (e.node == kNone) {
      const auto id = static_cast<std::uint32_t>(nodes_.size());
      Node n;
      n.parent = parent;
      n.region = region;
      n.callSite = callSite;
      nodes_.push_back(n);
      e = {callSite, parent, region, id};
      if (2 * nodes_.size() > table_.size()) grow();
      return id;
    }
    if (e.callSite == callSite && e.parent == parent && e.region == region) return e.node;
  }
}

void ProfileTree::grow() {
  std::vector<Entry> old(table_.size() * 2);
  old.swap(table_);
  const std::size_t mask = table_.size() - 1;
  for (const Entry& e : old) {
    if (e.node == kNone) continue;
    std::size_t i = hash(e.parent, e.region, e.callSite) & mask;
    while (table_[i].node != kNone) i = (i + 1) & mask;
    table_[i] = e;
  }
}

BinSlot& ProfileTree::slotSlow(std::uint32_t node, std::uint8_t sizeClass) {
  Node& n = nodes_[node];
  std::uint32_t s = n.firstSlot;
  std::uint32_t last = kNone;
  for (; s != kNone; last = s, s = slots_[s].next)
    if (slots_[s].sizeClass == sizeClass) break;
  if (s == kNone) {
    s = static_cast<std::uint32_t>(slots_.size());
    BinSlot fresh;
    fresh.sizeClass = sizeClass;
    slots_.push_back(fresh);
    if (last == kNone) n.firstSlot = s;
    else slots_[last].next = s;
  }
  n.lastSlot = s;
  return slots_[s];
}

std::vector<std::uint64_t> ProfileTree::exclusive() const {
  std::vector<std::uint64_t> out(nodes_.size());
  for (std::size_t i = 0; i < nodes_.size(); ++i) out[i] = nodes_[i].inclusive;
  for (const Node& n : nodes_)
    if (n.parent != kNone) out[n.parent] = out[n.parent] > n.inclusive ? out[n.parent] - n.inclusive : 0;
  return out;
}

std::size_t ProfileTree::memoryBytes() const {
  return nodes_.capacity() * sizeof(Node) + slots_.capacity() * sizeof(BinSlot) + table_.capacity() * sizeof(Entry);
}

// ---------------------------------------------------------------------------------------------
void MinimumTable::combine(const MinimumTable& other) {
  for (std::size_t i = 0; i < values_.size() && i < other.values_.size(); ++i)
    values_[i] = std::min(values_[i], other.values_[i]);
}

}  // namespace waitscope::profile
