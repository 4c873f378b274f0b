#include "analysis/metrics/mpi_category.h"

#include <array>
#include <initializer_list>

namespace waitscope::metrics {
namespace {

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool isOneOf(std::string_view name, std::initializer_list<std::string_view> names) {
  for (const std::string_view n : names)
    if (name == n) return true;
  return false;
}

Metric mpiCategory(std::string_view f) {
  if (isOneOf(f, {"Init", "Init_thread", "Finalize"})) return Metric::MpiInitExit;
  if (startsWith(f, "File_") || startsWith(f, "Register_datarep")) return Metric::MpiIo;
  if (isOneOf(f, {"Win_fence", "Win_post", "Win_start", "Win_complete", "Win_wait", "Win_test"}))
    return Metric::MpiRmaSyncActive;
  if (isOneOf(f, {"Win_lock", "Win_unlock", "Win_lock_all", "Win_unlock_all", "Win_flush", "Win_flush_all",
                  "Win_flush_local", "Win_flush_local_all", "Win_sync"}))
    return Metric::MpiRmaSyncPassive;
  if (isOneOf(f, {"Win_create", "Win_allocate", "Win_allocate_shared", "Win_create_dynamic", "Win_free",
                  "Win_attach", "Win_detach"}))
    return Metric::MpiMgmtWin;
  if (isOneOf(f, {"Put", "Get", "Accumulate", "Get_accumulate", "Fetch_and_op", "Compare_and_swap", "Rput", "Rget",
                  "Raccumulate", "Rget_accumulate"}))
    return Metric::MpiRmaCommunication;
  if (f == "Barrier") return Metric::MpiSyncCollective;
  static constexpr std::array<std::string_view, 19> kCollectives = {
      "Bcast",     "Reduce",         "Allreduce",           "Gather",       "Gatherv",
      "Scatter",   "Scatterv",       "Allgather",           "Allgatherv",   "Alltoall",
      "Alltoallv", "Alltoallw",      "Reduce_scatter",      "Reduce_scatter_block", "Scan",
      "Exscan",    "Reduce_local",   "Neighbor_allgather",  "Ibarrier"};
  for (const std::string_view c : kCollectives)
    if (f == c) return Metric::MpiCollective;
  if (startsWith(f, "Neighbor_") || startsWith(f, "Ineighbor_")) return Metric::MpiCollective;
  // Non-blocking collectives: I + a collective's name.
  if (f.size() > 1 && f[0] == 'I')
    for (const std::string_view c : kCollectives)
      if (f.substr(1) == c) return Metric::MpiCollective;
  if (startsWith(f, "Comm_") || startsWith(f, "Group_") || startsWith(f, "Cart_") || startsWith(f, "Graph_") ||
      startsWith(f, "Dist_graph_") || startsWith(f, "Intercomm_") || f == "Cartdim_get" || f == "Graphdims_get")
    return Metric::MpiMgmtComm;
  static constexpr std::array<std::string_view, 22> kPointToPoint = {
      "Send",   "Ssend",    "Bsend",   "Rsend",   "Isend",     "Issend",   "Ibsend",  "Irsend",
      "Recv",   "Irecv",    "Sendrecv", "Sendrecv_replace", "Probe", "Iprobe", "Mprobe", "Improbe",
      "Mrecv",  "Imrecv",   "Start",   "Startall", "Cancel",   "Request_free"};
  for (const std::string_view p : kPointToPoint)
    if (f == p) return Metric::MpiPoint2Point;
  if (startsWith(f, "Wait") || startsWith(f, "Test") || (f.size() > 5 && f.substr(f.size() - 5) == "_init"))
    return Metric::MpiPoint2Point;
  return Metric::Mpi;
}

}  // namespace

Metric mpiTimeCategory(std::string_view name) {
  if (!startsWith(name, "MPI_")) return Metric::Mpi;
  return mpiCategory(name.substr(4));
}

}  // namespace waitscope::metrics
