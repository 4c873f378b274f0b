// Online mode's MPI wrappers (WAITSCOPE_ONLINE): OnlineHook<F>::call runs the PMPI function (the
// application's world already substituted for MPI_COMM_WORLD) and emits what the places analyze:
// sends with their envelope, receive completions with the call that completed them, collective
// instances. Persistent requests and inter-communicators are not analyzed online (docs/online.md).
#include "analysis/measure/online_wrappers.h"

#include <mpi.h>

#include <cstdint>
#include <tuple>
#include <vector>

#include "analysis/measure/measure_internal.h"
#include "analysis/measure/online_runtime.h"
#include "analysis/measure/profile_runtime.h"
#include "analysis/measure/wrapper_support.h"
#include "analysis/online/online_event.h"

namespace waitscope::measure {
namespace {

struct OnlineCall {
  std::uint32_t fn;
  void* returnAddress;
  double enter;
  // The call's node in the profile tree (what profile::record files the visit under).
  std::uint32_t node() const {
    return profile::profiler.tree.child(profile::profiler.current, fn, reinterpret_cast<std::uintptr_t>(returnAddress));
  }
};

template <Fn F>
struct OnlineHook {
  template <class... A>
  static int call(OnlineCall&, A... a) {
    return Pmpi<F>::fn(a...);
  }
};

// What every event of a call carries: its kind, the call's profile node and the communicator.
online::Event callEvent(const OnlineCall& c, online::EventKind kind, std::uint32_t comm) {
  online::Event e;
  e.kind = kind;
  e.node = c.node();
  e.comm = comm;
  return e;
}

void emitSend(const OnlineCall& c, int dest, int tag, MPI_Comm comm, bool blocking) {
  if (dest < 0) return;  // MPI_PROC_NULL
  const OnlineComm& info = onlineComm(comm);
  if (info.inter || static_cast<std::size_t>(dest) >= info.appRanks->size()) return;
  online::Event e = callEvent(c, online::EventKind::Send, info.key);
  e.blocking = blocking;
  e.peer = (*info.appRanks)[static_cast<std::size_t>(dest)];
  e.tag = tag;
  e.t0 = c.enter;
  e.t1 = onlineNow();
  emitOnline(e);
}

void emitReceive(const OnlineCall& c, const MPI_Status& st, std::uint32_t comm, const std::vector<int>& ranks,
                 double post, std::uint32_t group, std::uint64_t call, double leave) {
  if (st.MPI_SOURCE < 0 || static_cast<std::size_t>(st.MPI_SOURCE) >= ranks.size()) return;
  online::Event e = callEvent(c, online::EventKind::Recv, comm);
  e.group = group;
  e.peer = ranks[static_cast<std::size_t>(st.MPI_SOURCE)];
  e.tag = st.MPI_TAG;
  e.seq = call;
  e.t0 = post;
  e.t1 = c.enter;
  e.t2 = leave;
  emitOnline(e);
}

// The receives among `n` completed requests (saved[at(k)], statuses[k]) complete together.
template <class At>
void completedReceives(const OnlineCall& c, const MPI_Request* saved, const MPI_Status* statuses, int n, At at) {
  if (onlineState.receives.empty() || n <= 0) return;
  std::uint32_t group = 0;
  for (int k = 0; k < n; ++k) group += onlineState.receives.count(saved[at(k)]) ? 1u : 0u;
  if (group == 0) return;
  const double leave = onlineNow();
  const std::uint64_t call = ++onlineState.completingCalls;
  for (int k = 0; k < n; ++k) {
    const auto it = onlineState.receives.find(saved[at(k)]);
    if (it == onlineState.receives.end()) continue;
    emitReceive(c, statuses[k], it->second.comm, *it->second.ranks, it->second.post, group, call, leave);
    onlineState.receives.erase(it);
  }
}
inline int identity(int k) { return k; }

// --- point-to-point ------------------------------------------------------------------------------
#define WS_ONLINE_SEND(NAME, BLOCKING)                                         \
  template <>                                                                  \
  struct OnlineHook<Fn::NAME> {                                                \
    template <class... A>                                                      \
    static int call(OnlineCall& c, A... a) {                                   \
      const int rc = P##NAME(a...);                                            \
      const auto args = std::make_tuple(a...);                                 \
      if (rc == MPI_SUCCESS)                                                   \
        emitSend(c, std::get<3>(args), std::get<4>(args), std::get<5>(args), BLOCKING); \
      return rc;                                                               \
    }                                                                          \
  };
WS_ONLINE_SEND(MPI_Send, true)
WS_ONLINE_SEND(MPI_Ssend, true)
WS_ONLINE_SEND(MPI_Rsend, true)
WS_ONLINE_SEND(MPI_Bsend, false)
WS_ONLINE_SEND(MPI_Isend, false)
WS_ONLINE_SEND(MPI_Issend, false)
WS_ONLINE_SEND(MPI_Irsend, false)
WS_ONLINE_SEND(MPI_Ibsend, false)
#undef WS_ONLINE_SEND

template <>
struct OnlineHook<Fn::MPI_Recv> {
  static int call(OnlineCall& c, void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                  MPI_Status* status) {
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    const int rc = PMPI_Recv(buf, count, type, source, tag, comm, st);
    const OnlineComm& info = onlineComm(comm);
    if (rc == MPI_SUCCESS && !info.inter) emitReceive(c, *st, info.key, *info.appRanks, c.enter, 1, 0, onlineNow());
    return rc;
  }
};
template <>
struct OnlineHook<Fn::MPI_Irecv> {
  static int call(OnlineCall& c, void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                  MPI_Request* req) {
    const int rc = PMPI_Irecv(buf, count, type, source, tag, comm, req);
    const OnlineComm& info = onlineComm(comm);
    if (rc == MPI_SUCCESS && !info.inter && source != MPI_PROC_NULL)
      onlineState.receives[*req] = PendingReceive{info.key, info.appRanks, c.enter};
    return rc;
  }
};
// MPI_Sendrecv(_replace): a non-blocking-like send (never a Late Receiver) and a receive.
void emitSendrecv(const OnlineCall& c, int dest, int tag, MPI_Comm comm, const MPI_Status& st) {
  emitSend(c, dest, tag, comm, false);
  const OnlineComm& info = onlineComm(comm);
  if (!info.inter) emitReceive(c, st, info.key, *info.appRanks, c.enter, 1, 0, onlineNow());
}
template <>
struct OnlineHook<Fn::MPI_Sendrecv> {
  static int call(OnlineCall& c, const void* sbuf, int scount, MPI_Datatype stype, int dest, int stag, void* rbuf,
                  int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm, MPI_Status* status) {
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    const int rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, st);
    if (rc == MPI_SUCCESS) emitSendrecv(c, dest, stag, comm, *st);
    return rc;
  }
};
template <>
struct OnlineHook<Fn::MPI_Sendrecv_replace> {
  static int call(OnlineCall& c, void* buf, int count, MPI_Datatype type, int dest, int stag, int source, int rtag,
                  MPI_Comm comm, MPI_Status* status) {
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    const int rc = PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm, st);
    if (rc == MPI_SUCCESS) emitSendrecv(c, dest, stag, comm, *st);
    return rc;
  }
};

// Request completion: the receives among the completed requests.
template <>
struct OnlineHook<Fn::MPI_Wait> {
  static int call(OnlineCall& c, MPI_Request* req, MPI_Status* status) {
    const MPI_Request saved = *req;
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    const int rc = PMPI_Wait(req, st);
    completedReceives(c, &saved, st, 1, identity);
    return rc;
  }
};
template <>
struct OnlineHook<Fn::MPI_Test> {
  static int call(OnlineCall& c, MPI_Request* req, int* flag, MPI_Status* status) {
    const MPI_Request saved = *req;
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    const int rc = PMPI_Test(req, flag, st);
    if (*flag) completedReceives(c, &saved, st, 1, identity);
    return rc;
  }
};
template <>
struct OnlineHook<Fn::MPI_Waitall> {
  static int call(OnlineCall& c, int n, MPI_Request reqs[], MPI_Status statuses[]) {
    const MPI_Request* saved = saveRequests(n, reqs);
    MPI_Status* st = statusArray(n, statuses);
    const int rc = PMPI_Waitall(n, reqs, st);
    completedReceives(c, saved, st, n, identity);
    return rc;
  }
};
template <>
struct OnlineHook<Fn::MPI_Testall> {
  static int call(OnlineCall& c, int n, MPI_Request reqs[], int* flag, MPI_Status statuses[]) {
    const MPI_Request* saved = saveRequests(n, reqs);
    MPI_Status* st = statusArray(n, statuses);
    const int rc = PMPI_Testall(n, reqs, flag, st);
    if (*flag) completedReceives(c, saved, st, n, identity);
    return rc;
  }
};
template <>
struct OnlineHook<Fn::MPI_Waitany> {
  static int call(OnlineCall& c, int n, MPI_Request reqs[], int* index, MPI_Status* status) {
    const MPI_Request* saved = saveRequests(n, reqs);
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    const int rc = PMPI_Waitany(n, reqs, index, st);
    if (*index != MPI_UNDEFINED) completedReceives(c, saved, st, 1, [&](int) { return *index; });
    return rc;
  }
};
template <>
struct OnlineHook<Fn::MPI_Testany> {
  static int call(OnlineCall& c, int n, MPI_Request reqs[], int* index, int* flag, MPI_Status* status) {
    const MPI_Request* saved = saveRequests(n, reqs);
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    const int rc = PMPI_Testany(n, reqs, index, flag, st);
    if (*flag && *index != MPI_UNDEFINED) completedReceives(c, saved, st, 1, [&](int) { return *index; });
    return rc;
  }
};
#define WS_ONLINE_SOME(NAME)                                                                                \
  template <>                                                                                               \
  struct OnlineHook<Fn::NAME> {                                                                             \
    static int call(OnlineCall& c, int n, MPI_Request reqs[], int* outcount, int indices[], MPI_Status statuses[]) { \
      const MPI_Request* saved = saveRequests(n, reqs);                                                     \
      MPI_Status* st = statusArray(n, statuses);                                                            \
      const int rc = P##NAME(n, reqs, outcount, indices, st);                                               \
      if (*outcount != MPI_UNDEFINED) completedReceives(c, saved, st, *outcount, [&](int k) { return indices[k]; }); \
      return rc;                                                                                            \
    }                                                                                                       \
  };
WS_ONLINE_SOME(MPI_Waitsome)
WS_ONLINE_SOME(MPI_Testsome)
#undef WS_ONLINE_SOME
// A cancelled or freed receive request never completes as a receive.
#define WS_ONLINE_DROP_REQUEST(NAME)                  \
  template <>                                         \
  struct OnlineHook<Fn::NAME> {                       \
    static int call(OnlineCall&, MPI_Request* req) {  \
      onlineState.receives.erase(*req);                        \
      return P##NAME(req);                            \
    }                                                 \
  };
WS_ONLINE_DROP_REQUEST(MPI_Cancel)
WS_ONLINE_DROP_REQUEST(MPI_Request_free)
#undef WS_ONLINE_DROP_REQUEST
template <>
struct OnlineHook<Fn::MPI_Comm_free> {
  static int call(OnlineCall&, MPI_Comm* comm) {
    forgetOnlineComm(*comm);
    return PMPI_Comm_free(comm);
  }
};

// --- collectives: the communicator is the last argument, the root (rooted ones) the one before --
void emitCollective(const OnlineCall& c, online::CollectiveKind kind, MPI_Comm comm, int root) {
  OnlineComm& info = onlineComm(comm);
  if (info.inter) return;
  online::Event e = callEvent(c, online::EventKind::Collective, info.key);
  e.collective = kind;
  e.tag = static_cast<std::int32_t>(info.appRanks->size());
  e.peer = root >= 0 && static_cast<std::size_t>(root) < info.appRanks->size() ? (*info.appRanks)[static_cast<std::size_t>(root)] : -1;
  e.seq = ++info.collectives;
  e.t0 = c.enter;
  e.t1 = onlineNow();
  emitOnline(e);
}

#define WS_ONLINE_COLLECTIVE(NAME, KIND, ROOTED)                          \
  template <>                                                             \
  struct OnlineHook<Fn::NAME> {                                           \
    template <class... A>                                                 \
    static int call(OnlineCall& c, A... a) {                              \
      const int rc = P##NAME(a...);                                       \
      const auto args = std::make_tuple(a...);                            \
      constexpr std::size_t n = sizeof...(A);                             \
      int root = -1;                                                      \
      if constexpr (ROOTED) root = std::get<n - 2>(args);                 \
      if (rc == MPI_SUCCESS) emitCollective(c, online::CollectiveKind::KIND, std::get<n - 1>(args), root); \
      return rc;                                                          \
    }                                                                     \
  };
WS_ONLINE_COLLECTIVE(MPI_Barrier, Barrier, false)
WS_ONLINE_COLLECTIVE(MPI_Allreduce, NxN, false)
WS_ONLINE_COLLECTIVE(MPI_Allgather, NxN, false)
WS_ONLINE_COLLECTIVE(MPI_Allgatherv, NxN, false)
WS_ONLINE_COLLECTIVE(MPI_Alltoall, NxN, false)
WS_ONLINE_COLLECTIVE(MPI_Alltoallv, NxN, false)
WS_ONLINE_COLLECTIVE(MPI_Alltoallw, NxN, false)
WS_ONLINE_COLLECTIVE(MPI_Reduce_scatter, NxN, false)
WS_ONLINE_COLLECTIVE(MPI_Reduce_scatter_block, NxN, false)
WS_ONLINE_COLLECTIVE(MPI_Bcast, OneToN, true)
WS_ONLINE_COLLECTIVE(MPI_Scatter, OneToN, true)
WS_ONLINE_COLLECTIVE(MPI_Scatterv, OneToN, true)
WS_ONLINE_COLLECTIVE(MPI_Reduce, NToOne, true)
WS_ONLINE_COLLECTIVE(MPI_Gather, NToOne, true)
WS_ONLINE_COLLECTIVE(MPI_Gatherv, NToOne, true)
#undef WS_ONLINE_COLLECTIVE

}  // namespace

// The online-mode wrapper body: MPI_COMM_WORLD becomes the application's world everywhere; the
// call is timed and filed under its call path like in profile mode, and emits its events.
template <Fn F, class... A>
int onlineMpi(void* returnAddress, A... a) {
  if (!tMainThread || profile::profiler.inMpi || recorder.mpiFiltered[idx(F)]) return Pmpi<F>::fn(onlineSubstitute(a)...);
  profile::profiler.inMpi = true;
  serviceOnline();
  OnlineCall c{idx(F), returnAddress, onlineNow()};
  const std::uint64_t t0 = profile::ticks();
  const int rc = OnlineHook<F>::call(c, onlineSubstitute(a)...);
  profile::record(idx(F), returnAddress, profile::ticks() - t0, profile::Visit{});
  profile::profiler.inMpi = false;
  return rc;
}

// Every entry of the table, with the argument types its wrapper passes (the PMPI function's).
template <Fn F, class Signature>
struct OnlineInstance;
template <Fn F, class... A>
struct OnlineInstance<F, int(A...)> {
  static constexpr int (*fn)(void*, A...) = &onlineMpi<F, A...>;
};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#define WS_MPI(category, role, name, params, args) template struct OnlineInstance<Fn::name, decltype(P##name)>;
#include "analysis/measure/mpi_functions.def"
#undef WS_MPI
#pragma GCC diagnostic pop

}  // namespace waitscope::measure
