#pragma once
// What every wrapper mode (trace, profile, online) shares: the PMPI function of a table entry and
// the few facts the wrappers read from call arguments. Inline: these run inside the wrappers.
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/measure/measure_internal.h"

namespace waitscope::measure {

constexpr std::uint32_t idx(Fn f) { return static_cast<std::uint32_t>(f); }

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
// Pmpi<F>::fn: the PMPI function of table entry F.
template <Fn F>
struct Pmpi;
#define WS_MPI(category, role, name, params, args) \
  template <>                                      \
  struct Pmpi<Fn::name> {                          \
    static constexpr auto fn = &P##name;           \
  };
#include "analysis/measure/mpi_functions.def"
#undef WS_MPI
#pragma GCC diagnostic pop

inline std::uint64_t bytesOf(long count, MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL || count <= 0) return 0;
  int size = 0;
  PMPI_Type_size(type, &size);
  return static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(size);
}
inline std::uint64_t sumBytes(const int counts[], MPI_Datatype type, int n) {
  long total = 0;
  for (int i = 0; i < n; ++i) total += counts[i];
  return bytesOf(total, type);
}
inline int commSize(MPI_Comm comm) {
  int n = 1;
  PMPI_Comm_size(comm, &n);
  return n;
}
// The ranks a collective's per-rank counts and payloads refer to: the communicator's, or an
// inter-communicator's remote group.
inline int collectivePeers(MPI_Comm comm) {
  int inter = 0, n = 1;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) PMPI_Comm_remote_size(comm, &n);
  else PMPI_Comm_size(comm, &n);
  return n;
}
inline int commRank(MPI_Comm comm) {
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  return r;
}
// Whether this rank is the root of a rooted collective: MPI_ROOT on an inter-communicator (whose
// other ranks pass MPI_PROC_NULL or a rank of the other group), its own rank on an intra-communicator.
inline bool isRootOf(MPI_Comm comm, int root) {
  if (root == MPI_ROOT) return true;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  return !inter && root >= 0 && commRank(comm) == root;
}
inline std::uint64_t statusBytes(const MPI_Status& st) {
  int count = 0;
  PMPI_Get_count(&st, MPI_BYTE, &count);
  return count == MPI_UNDEFINED ? 0 : static_cast<std::uint64_t>(count);
}

// Thread-local scratch buffers: wait/test families copy the request handles before PMPI frees
// them. They keep their capacity, so a program's usual request counts do not allocate.
inline thread_local std::vector<MPI_Request> tRequests;
inline thread_local std::vector<MPI_Status> tStatuses;
inline MPI_Request* saveRequests(int n, const MPI_Request* reqs) {
  tRequests.assign(reqs, reqs + std::max(n, 0));
  return tRequests.data();
}
inline MPI_Status* statusArray(int n, MPI_Status* user) {
  if (user != MPI_STATUSES_IGNORE) return user;
  if (tStatuses.size() < static_cast<std::size_t>(std::max(n, 1))) tStatuses.resize(static_cast<std::size_t>(std::max(n, 1)));
  return tStatuses.data();
}

}  // namespace waitscope::measure
