// Profile mode's MPI wrappers (WAITSCOPE_PROFILE): ProfileHook<F>::call runs the PMPI function and
// says what the size class needs (the message size) and, for rooted collectives, whether this
// process is the root. Functions without an estimate keep the default (time only).
//
// Message size per call (docs/profiling.md): received bytes (from the status) for
// receives and request completions; the send buffer for sends; the process' own data
// for collectives (count x type size; v-variants: the sum of the receive counts); the RMA
// bytes issued in the epoch for MPI_Win_fence and MPI_Win_complete.
#include "analysis/measure/profile_wrappers.h"

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <tuple>

#include "analysis/measure/measure_internal.h"
#include "analysis/measure/profile_runtime.h"
#include "analysis/measure/wrapper_support.h"

namespace waitscope::measure {
namespace {

template <Fn F>
struct ProfileHook {
  template <class... A>
  static int call(profile::Visit&, A... a) {
    return Pmpi<F>::fn(a...);
  }
};

// Bytes of a completed receive. Open MPI keeps them in the status (what MPI_Get_count
// reads, without the call and its argument checks); elsewhere MPI_Get_count.
inline std::uint64_t receivedBytes(int n, const MPI_Status* st) {
  std::uint64_t total = 0;
  for (int i = 0; i < n; ++i) {
    if (st[i].MPI_SOURCE < 0) continue;
#ifdef OPEN_MPI
    total += st[i]._ucount;
#else
    total += statusBytes(st[i]);
#endif
  }
  return total;
}

// count x type size, with the sizes of the last few datatypes cached (MPI_Type_size checks
// its arguments each time); MPI_Type_free empties the cache, as a freed handle can come back
// as another type.
struct TypeSizeCache {
  static constexpr int kEntries = 8;
  MPI_Datatype type[kEntries] = {};
  int size[kEntries] = {};
};
TypeSizeCache recentTypeSizes;
inline std::uint64_t profileBytes(long count, MPI_Datatype type) {
  if (count <= 0 || type == MPI_DATATYPE_NULL) return 0;
  // Handles are pointers in Open MPI (aligned: the low bits are zero) and integers in MPICH (the
  // type's index in the low bits): both contribute.
  const std::size_t h = std::hash<MPI_Datatype>{}(type);
  const auto slot = (h ^ (h >> 4)) % TypeSizeCache::kEntries;
  if (recentTypeSizes.type[slot] != type) {
    int size = 0;
    PMPI_Type_size(type, &size);
    recentTypeSizes.type[slot] = type;
    recentTypeSizes.size[slot] = size;
  }
  return static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(recentTypeSizes.size[slot]);
}
inline std::uint64_t profileSumBytes(const int counts[], MPI_Datatype type, int n) {
  long total = 0;
  for (int i = 0; i < n; ++i) total += counts[i];
  return profileBytes(total, type);
}
template <>
struct ProfileHook<Fn::MPI_Type_free> {
  static int call(profile::Visit&, MPI_Datatype* type) {
    recentTypeSizes = {};
    return PMPI_Type_free(type);
  }
};

// --- point-to-point ------------------------------------------------------------------------------
template <>
struct ProfileHook<Fn::MPI_Recv> {
  static int call(profile::Visit& v, void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                  MPI_Status* status) {
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    const int rc = PMPI_Recv(buf, count, type, source, tag, comm, st);
    v.bytes = receivedBytes(1, st);
    return rc;
  }
};
template <>
struct ProfileHook<Fn::MPI_Sendrecv> {
  static int call(profile::Visit& v, const void* sbuf, int scount, MPI_Datatype stype, int dest, int stag, void* rbuf,
                  int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm, MPI_Status* status) {
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    const int rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, st);
    v.bytes = receivedBytes(1, st);
    return rc;
  }
};
template <>
struct ProfileHook<Fn::MPI_Sendrecv_replace> {
  static int call(profile::Visit& v, void* buf, int count, MPI_Datatype type, int dest, int stag, int source, int rtag,
                  MPI_Comm comm, MPI_Status* status) {
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    const int rc = PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm, st);
    v.bytes = receivedBytes(1, st);
    return rc;
  }
};
#define WS_PROFILE_SEND_HOOK(NAME)                                                                          \
  template <>                                                                                               \
  struct ProfileHook<Fn::NAME> {                                                                            \
    static int call(profile::Visit& v, const void* buf, int count, MPI_Datatype type, int dest, int tag,     \
                    MPI_Comm comm) {                                                                        \
      v.bytes = profileBytes(count, type);                                                                       \
      return P##NAME(buf, count, type, dest, tag, comm);                                                    \
    }                                                                                                       \
  };
WS_PROFILE_SEND_HOOK(MPI_Send)
WS_PROFILE_SEND_HOOK(MPI_Ssend)

// MPI_Wait / MPI_Waitall, with the test-based exclusion when asked for: a test first;
// when it completes everything, the wait was not needed and the visit is excluded from
// the second estimate (the test's time counts as the visit's time).
template <>
struct ProfileHook<Fn::MPI_Wait> {
  static int call(profile::Visit& v, MPI_Request* req, MPI_Status* status) {
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    if (profile::profiler.testFirst) {
      int flag = 0;
      const int rc = PMPI_Test(req, &flag, st);
      if (rc != MPI_SUCCESS || flag) {
        v.excluded = true;
        v.bytes = receivedBytes(1, st);
        return rc;
      }
    }
    const int rc = PMPI_Wait(req, st);
    v.bytes = receivedBytes(1, st);
    return rc;
  }
};
template <>
struct ProfileHook<Fn::MPI_Waitall> {
  static int call(profile::Visit& v, int n, MPI_Request reqs[], MPI_Status statuses[]) {
    MPI_Status* st = statusArray(n, statuses);
    if (profile::profiler.testFirst) {
      // Open MPI's MPI_Testall runs the progress engine only after finding a request
      // incomplete and then answers without looking again: the first test delivers what
      // has arrived, the second tells.
      int flag = 0;
      int rc = PMPI_Testall(n, reqs, &flag, st);
      if (rc == MPI_SUCCESS && !flag) rc = PMPI_Testall(n, reqs, &flag, st);
      if (rc != MPI_SUCCESS || flag) {
        v.excluded = true;
        v.bytes = receivedBytes(n, st);
        return rc;
      }
    }
    const int rc = PMPI_Waitall(n, reqs, st);
    v.bytes = receivedBytes(n, st);
    return rc;
  }
};
template <>
struct ProfileHook<Fn::MPI_Waitany> {
  static int call(profile::Visit& v, int n, MPI_Request reqs[], int* index, MPI_Status* status) {
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    const int rc = PMPI_Waitany(n, reqs, index, st);
    if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED) v.bytes = receivedBytes(1, st);
    return rc;
  }
};
template <>
struct ProfileHook<Fn::MPI_Waitsome> {
  static int call(profile::Visit& v, int n, MPI_Request reqs[], int* outcount, int indices[], MPI_Status statuses[]) {
    MPI_Status* st = statusArray(n, statuses);
    const int rc = PMPI_Waitsome(n, reqs, outcount, indices, st);
    if (rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED) v.bytes = receivedBytes(*outcount, st);
    return rc;
  }
};

// --- collectives ---------------------------------------------------------------------------------
template <>
struct ProfileHook<Fn::MPI_Allreduce> {
  static int call(profile::Visit& v, const void* sb, void* rb, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    v.bytes = profileBytes(count, type);
    return PMPI_Allreduce(sb, rb, count, type, op, comm);
  }
};
template <>
struct ProfileHook<Fn::MPI_Reduce_scatter_block> {
  static int call(profile::Visit& v, const void* sb, void* rb, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    v.bytes = profileBytes(count, type);
    return PMPI_Reduce_scatter_block(sb, rb, count, type, op, comm);
  }
};
template <>
struct ProfileHook<Fn::MPI_Reduce_scatter> {
  static int call(profile::Visit& v, const void* sb, void* rb, const int rcs[], MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm) {
    v.bytes = profileSumBytes(rcs, type, commSize(comm));
    return PMPI_Reduce_scatter(sb, rb, rcs, type, op, comm);
  }
};
#define WS_PROFILE_ALL_HOOK(NAME)                                                                               \
  template <>                                                                                                   \
  struct ProfileHook<Fn::NAME> {                                                                                \
    static int call(profile::Visit& v, const void* sb, int sc, MPI_Datatype st, void* rb, int rc_, MPI_Datatype rt, \
                    MPI_Comm comm) {                                                                            \
      v.bytes = sb == MPI_IN_PLACE ? profileBytes(rc_, rt) : profileBytes(sc, st);                                        \
      return P##NAME(sb, sc, st, rb, rc_, rt, comm);                                                            \
    }                                                                                                           \
  };
WS_PROFILE_ALL_HOOK(MPI_Allgather)
WS_PROFILE_ALL_HOOK(MPI_Alltoall)
template <>
struct ProfileHook<Fn::MPI_Allgatherv> {
  static int call(profile::Visit& v, const void* sb, int sc, MPI_Datatype st, void* rb, const int rcs[],
                  const int displs[], MPI_Datatype rt, MPI_Comm comm) {
    v.bytes = profileSumBytes(rcs, rt, commSize(comm));
    return PMPI_Allgatherv(sb, sc, st, rb, rcs, displs, rt, comm);
  }
};
template <>
struct ProfileHook<Fn::MPI_Alltoallv> {
  static int call(profile::Visit& v, const void* sb, const int scs[], const int sd[], MPI_Datatype st, void* rb,
                  const int rcs[], const int rd[], MPI_Datatype rt, MPI_Comm comm) {
    v.bytes = profileSumBytes(rcs, rt, commSize(comm));
    return PMPI_Alltoallv(sb, scs, sd, st, rb, rcs, rd, rt, comm);
  }
};
template <>
struct ProfileHook<Fn::MPI_Alltoallw> {
  static int call(profile::Visit& v, const void* sb, const int scs[], const int sd[], const MPI_Datatype sts[],
                  void* rb, const int rcs[], const int rd[], const MPI_Datatype rts[], MPI_Comm comm) {
    const int n = commSize(comm);
    for (int i = 0; i < n; ++i) v.bytes += profileBytes(rcs[i], rts[i]);
    return PMPI_Alltoallw(sb, scs, sd, sts, rb, rcs, rd, rts, comm);
  }
};
template <>
struct ProfileHook<Fn::MPI_Bcast> {
  static int call(profile::Visit& v, void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    v.bytes = profileBytes(count, type);
    v.role = commRank(comm) == root ? profile::Role::Root : profile::Role::NonRoot;
    return PMPI_Bcast(buf, count, type, root, comm);
  }
};
template <>
struct ProfileHook<Fn::MPI_Scatter> {
  static int call(profile::Visit& v, const void* sb, int sc, MPI_Datatype st, void* rb, int rc_, MPI_Datatype rt,
                  int root, MPI_Comm comm) {
    v.bytes = rb == MPI_IN_PLACE ? profileBytes(sc, st) : profileBytes(rc_, rt);
    v.role = commRank(comm) == root ? profile::Role::Root : profile::Role::NonRoot;
    return PMPI_Scatter(sb, sc, st, rb, rc_, rt, root, comm);
  }
};
template <>
struct ProfileHook<Fn::MPI_Scatterv> {
  static int call(profile::Visit& v, const void* sb, const int scs[], const int displs[], MPI_Datatype st, void* rb,
                  int rc_, MPI_Datatype rt, int root, MPI_Comm comm) {
    const bool isRoot = commRank(comm) == root;
    v.bytes = isRoot && rb == MPI_IN_PLACE ? profileBytes(scs[root], st) : profileBytes(rc_, rt);
    v.role = isRoot ? profile::Role::Root : profile::Role::NonRoot;
    return PMPI_Scatterv(sb, scs, displs, st, rb, rc_, rt, root, comm);
  }
};
template <>
struct ProfileHook<Fn::MPI_Reduce> {
  static int call(profile::Visit& v, const void* sb, void* rb, int count, MPI_Datatype type, MPI_Op op, int root,
                  MPI_Comm comm) {
    v.bytes = profileBytes(count, type);
    v.role = commRank(comm) == root ? profile::Role::Root : profile::Role::NonRoot;
    return PMPI_Reduce(sb, rb, count, type, op, root, comm);
  }
};
template <>
struct ProfileHook<Fn::MPI_Gather> {
  static int call(profile::Visit& v, const void* sb, int sc, MPI_Datatype st, void* rb, int rc_, MPI_Datatype rt,
                  int root, MPI_Comm comm) {
    v.bytes = sb == MPI_IN_PLACE ? profileBytes(rc_, rt) : profileBytes(sc, st);
    v.role = commRank(comm) == root ? profile::Role::Root : profile::Role::NonRoot;
    return PMPI_Gather(sb, sc, st, rb, rc_, rt, root, comm);
  }
};
template <>
struct ProfileHook<Fn::MPI_Gatherv> {
  static int call(profile::Visit& v, const void* sb, int sc, MPI_Datatype st, void* rb, const int rcs[],
                  const int displs[], MPI_Datatype rt, int root, MPI_Comm comm) {
    const bool isRoot = commRank(comm) == root;
    v.bytes = isRoot && sb == MPI_IN_PLACE ? profileBytes(rcs[root], rt) : profileBytes(sc, st);
    v.role = isRoot ? profile::Role::Root : profile::Role::NonRoot;
    return PMPI_Gatherv(sb, sc, st, rb, rcs, displs, rt, root, comm);
  }
};

// --- RMA -----------------------------------------------------------------------------------------
// Transfers add their bytes to the epoch; the fence or complete that closes it uses them
// as its size (a fence completing large puts takes longer without waiting).
#define WS_PROFILE_RMA_HOOK(NAME)                                                  \
  template <>                                                                      \
  struct ProfileHook<Fn::NAME> {                                                   \
    template <class... A>                                                          \
    static int call(profile::Visit&, A... a) {                                     \
      auto args = std::make_tuple(a...);                                           \
      profile::profiler.rmaBytes += profileBytes(std::get<1>(args), std::get<2>(args));       \
      return P##NAME(a...);                                                        \
    }                                                                              \
  };
WS_PROFILE_RMA_HOOK(MPI_Put)
WS_PROFILE_RMA_HOOK(MPI_Get)
WS_PROFILE_RMA_HOOK(MPI_Accumulate)
WS_PROFILE_RMA_HOOK(MPI_Rput)
WS_PROFILE_RMA_HOOK(MPI_Rget)
WS_PROFILE_RMA_HOOK(MPI_Raccumulate)
template <>
struct ProfileHook<Fn::MPI_Win_fence> {
  static int call(profile::Visit& v, int assertion, MPI_Win win) {
    v.bytes = profile::profiler.rmaBytes;
    profile::profiler.rmaBytes = 0;
    return PMPI_Win_fence(assertion, win);
  }
};
template <>
struct ProfileHook<Fn::MPI_Win_complete> {
  static int call(profile::Visit& v, MPI_Win win) {
    v.bytes = profile::profiler.rmaBytes;
    profile::profiler.rmaBytes = 0;
    return PMPI_Win_complete(win);
  }
};

}  // namespace

// The profile-mode wrapper body: time the call, file the visit under its call path.
template <Fn F, class... A>
int profiledMpi(void* returnAddress, A... a) {
  if (!tMainThread || profile::profiler.inMpi) return Pmpi<F>::fn(a...);
  profile::profiler.inMpi = true;
  profile::Visit v;
  const std::uint64_t t0 = profile::ticks();
  const int rc = ProfileHook<F>::call(v, a...);
  const std::uint64_t t1 = profile::ticks();
  profile::record(idx(F), returnAddress, t1 - t0, v);
  profile::profiler.inMpi = false;
  return rc;
}

// Every entry of the table, with the argument types its wrapper passes (the PMPI function's).
template <Fn F, class Signature>
struct ProfiledInstance;
template <Fn F, class... A>
struct ProfiledInstance<F, int(A...)> {
  static constexpr int (*fn)(void*, A...) = &profiledMpi<F, A...>;
};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#define WS_MPI(category, role, name, params, args) template struct ProfiledInstance<Fn::name, decltype(P##name)>;
#include "analysis/measure/mpi_functions.def"
#undef WS_MPI
#pragma GCC diagnostic pop

}  // namespace waitscope::measure
