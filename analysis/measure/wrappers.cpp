// The MPI wrappers, generated from mpi_functions.def: each records ENTER (with the call site),
// calls Hook<F>::call (by default just the PMPI function) and records LEAVE. Functions that need
// more records specialise Hook<F>; the encoding follows Score-P 7.1 (see docs/recording.md).
// In profile and online mode a wrapper hands the call on to profiledMpi<F> / onlineMpi<F>
// (profile_wrappers.h, online_wrappers.h): a direct call into the other unit, compiled as a jump;
// the trace path stays inline here.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "analysis/measure/measure_internal.h"
#include "analysis/measure/online_runtime.h"
#include "analysis/measure/online_wrappers.h"
#include "analysis/measure/partial_trace.h"
#include "analysis/measure/profile_runtime.h"
#include "analysis/measure/profile_wrappers.h"
#include "analysis/measure/unrecorded_calls.h"
#include "analysis/measure/wrapper_support.h"

namespace waitscope::measure {
namespace {

struct Call {
  Fn fn;
  std::uint64_t enter;
};

inline void enterMpi(Call& c, void* returnAddress) {
  const OTF2_SourceCodeLocationRef site = callSite(returnAddress);
  boundary();
  c.enter = stamp();
  enterRegion(idx(c.fn), c.enter, site);
  recorder.openMpi = idx(c.fn);
}

inline void leaveMpi(Call& c) {
  boundary();
  const std::uint64_t t = recorder.stampedAfterCall ? recorder.lastTime : stamp();
  recorder.stampedAfterCall = false;
  leaveRegion(idx(c.fn), t);
  recorder.openMpi = OTF2_UNDEFINED_REGION;
}

// The default: just the region.
template <Fn F>
struct DefaultHook {
  static constexpr bool kCustom = false;
  static constexpr bool kWhole = false;
  template <class... A>
  static int call(Call&, A... a) {
    return Pmpi<F>::fn(a...);
  }
  template <class... A>
  static int whole(void*, A...) {
    return MPI_ERR_INTERN;  // never called
  }
};

template <Fn F>
struct Hook : DefaultHook<F> {};
template <Fn F>
struct Custom : DefaultHook<F> {
  static constexpr bool kCustom = true;
};
template <Fn F>
struct Whole : DefaultHook<F> {
  static constexpr bool kCustom = true;
  static constexpr bool kWhole = true;
};

// --- point-to-point ---------------------------------------------------------------------------
void recordSend(int dest, int count, MPI_Datatype type, int tag, MPI_Comm comm) {
  if (dest == MPI_PROC_NULL) return;
  const OTF2_CommRef id = commId(comm);
  if (id == OTF2_UNDEFINED_COMM) [[unlikely]] return noteUndefinedComm();
  OTF2_EvtWriter_MpiSend(recorder.evt, nullptr, stamp(), static_cast<std::uint32_t>(dest), id,
                         static_cast<std::uint32_t>(tag), bytesOf(count, type));
}
void recordRecv(const MPI_Status& st, MPI_Comm comm) {
  if (st.MPI_SOURCE == MPI_PROC_NULL || st.MPI_SOURCE < 0) return;
  const OTF2_CommRef id = commId(comm);
  if (id == OTF2_UNDEFINED_COMM) [[unlikely]] return noteUndefinedComm();
  OTF2_EvtWriter_MpiRecv(recorder.evt, nullptr, stamp(), static_cast<std::uint32_t>(st.MPI_SOURCE), id,
                         static_cast<std::uint32_t>(st.MPI_TAG), statusBytes(st));
  recorder.stampedAfterCall = true;
}
// Tracks a new request under its handle, after any live one it shares the handle with.
void trackRequest(MPI_Request req, const ReqInfo& r) {
  const auto [it, added] = recorder.requests.try_emplace(req, r);
  if (added) return;
  if (it->second.active && !it->second.persistent && !r.persistent) recorder.sharedRequests[req].push_back(r);
  else it->second = r;
}
// Forgets the request `it` tracks; the next one that shares its handle takes its place.
void untrackRequest(std::unordered_map<MPI_Request, ReqInfo>::iterator it) {
  const auto shared = recorder.sharedRequests.find(it->first);
  if (shared == recorder.sharedRequests.end()) {
    recorder.requests.erase(it);
    return;
  }
  it->second = shared->second.front();
  shared->second.pop_front();
  if (shared->second.empty()) recorder.sharedRequests.erase(shared);
}
void issueRequest(ReqInfo& r) {
  r.active = true;
  r.id = recorder.nextRequestId++;
  if (r.kind == ReqKind::Isend)
    OTF2_EvtWriter_MpiIsend(recorder.evt, nullptr, stamp(), static_cast<std::uint32_t>(r.peer), r.comm,
                            static_cast<std::uint32_t>(r.tag), r.bytes, r.id);
  else
    OTF2_EvtWriter_MpiIrecvRequest(recorder.evt, nullptr, stamp(), r.id);
}
void trackP2p(MPI_Request req, ReqKind kind, bool persistent, int peer, int count, MPI_Datatype type, int tag,
              MPI_Comm comm) {
  if (peer == MPI_PROC_NULL || req == MPI_REQUEST_NULL) return;
  if (commId(comm) == OTF2_UNDEFINED_COMM) [[unlikely]] return noteUndefinedComm();
  ReqInfo r{kind};
  r.persistent = persistent;
  r.peer = peer;
  r.comm = commId(comm);
  r.tag = tag;
  r.bytes = bytesOf(count, type);
  r.active = false;
  if (!persistent) issueRequest(r);
  trackRequest(req, r);
}

// --- RMA ----------------------------------------------------------------------------------------
enum class Completion { Local, LocalKeep, Remote };

// Writes the completion records of the pending operations on `w` to `target` (-1: all).
std::uint64_t completeOps(WinInfo& w, int target, Completion mode) {
  std::uint64_t last = 0;
  auto& ops = w.pending;
  std::size_t keep = 0;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    PendingRmaOp& op = ops[i];
    if (target >= 0 && op.target != target) {
      ops[keep++] = op;
      continue;
    }
    if (!op.localDone) OTF2_EvtWriter_RmaOpCompleteNonBlocking(recorder.evt, nullptr, last = stamp(), w.id, op.id);
    const bool remote = op.isGet || mode == Completion::Remote;
    if (remote) OTF2_EvtWriter_RmaOpCompleteRemote(recorder.evt, nullptr, last = stamp(), w.id, op.id);
    if (mode == Completion::LocalKeep && !remote) {
      op.localDone = true;
      ops[keep++] = op;
    }
  }
  ops.resize(keep);
  return last;
}

WinInfo* winOf(MPI_Win win) {
  auto it = recorder.winInfo.find(win);
  return it == recorder.winInfo.end() ? nullptr : &it->second;
}

std::uint64_t addOp(WinInfo& w, int target, bool isGet) {
  const std::uint64_t id = recorder.nextMatchingId++;
  w.pending.push_back({id, target, isGet, false});
  return id;
}

void completeRmaRequest(const ReqInfo& r) {
  WinInfo* w = winOf(r.win);
  if (!w) return;
  for (std::size_t i = 0; i < w->pending.size(); ++i) {
    PendingRmaOp& op = w->pending[i];
    if (op.id != r.id) continue;
    if (!op.localDone) OTF2_EvtWriter_RmaOpCompleteNonBlocking(recorder.evt, nullptr, stamp(), w->id, op.id);
    if (op.isGet) {
      OTF2_EvtWriter_RmaOpCompleteRemote(recorder.evt, nullptr, stamp(), w->id, op.id);
      w->pending.erase(w->pending.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      op.localDone = true;
    }
    return;
  }
}

// The completion of one request in a wait/test call (saved = the handle before PMPI).
void completed(MPI_Request saved, const MPI_Status& st) {
  auto it = recorder.requests.find(saved);
  if (it == recorder.requests.end()) return;
  ReqInfo& r = it->second;
  if (r.active) {
    int cancelled = 0;
    if (r.kind != ReqKind::Rma) PMPI_Test_cancelled(&st, &cancelled);
    if (cancelled) {
      OTF2_EvtWriter_MpiRequestCancelled(recorder.evt, nullptr, stamp(), r.id);
    } else if (r.kind == ReqKind::Isend) {
      OTF2_EvtWriter_MpiIsendComplete(recorder.evt, nullptr, stamp(), r.id);
    } else if (r.kind == ReqKind::Irecv) {
      if (st.MPI_SOURCE != MPI_PROC_NULL && st.MPI_SOURCE >= 0)
        OTF2_EvtWriter_MpiIrecv(recorder.evt, nullptr, stamp(), static_cast<std::uint32_t>(st.MPI_SOURCE), r.comm,
                                static_cast<std::uint32_t>(st.MPI_TAG), statusBytes(st), r.id);
    } else {
      completeRmaRequest(r);
    }
    r.active = false;
  }
  if (!r.persistent) untrackRequest(it);
}

// ================================================================================================
// Hooks. Environment.
template <>
struct Hook<Fn::MPI_Init> : Whole<Fn::MPI_Init> {
  static int whole(void* ra, int* argc, char*** argv) {
    const std::uint64_t t0 = now();
    const int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS) started(ra, t0, Fn::MPI_Init);
    return rc;
  }
  static void started(void* ra, std::uint64_t t0, Fn f) {
    startMeasurement(t0);
    if (recorder.profiling) {
      openProgramRegion(t0);
      profile::recordInit(idx(f), ra, now() - t0);
      return;
    }
    if (!recorder.recording) return;
    openProgramRegion(t0);
    enterRegion(idx(f), t0, callSite(ra));
    leaveRegion(idx(f), stamp());
  }
};
template <>
struct Hook<Fn::MPI_Init_thread> : Whole<Fn::MPI_Init_thread> {
  static int whole(void* ra, int* argc, char*** argv, int required, int* provided) {
    const std::uint64_t t0 = now();
    const int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS) Hook<Fn::MPI_Init>::started(ra, t0, Fn::MPI_Init_thread);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Finalize> : Whole<Fn::MPI_Finalize> {
  static int whole(void* ra) {
    if (recorder.online && tMainThread) {
      finishOnline(idx(Fn::MPI_Finalize), ra);
      return PMPI_Finalize();
    }
    if (recorder.placeExitCode != 0) {  // a tool place whose analysis failed (it said why)
      PMPI_Finalize();
      std::_Exit(recorder.placeExitCode);
    }
    if (recorder.profiling && tMainThread) {
      profile::finish(idx(Fn::MPI_Finalize), ra);
      return PMPI_Finalize();
    }
    if (active()) {
      Call c{Fn::MPI_Finalize, 0};
      enterMpi(c, ra);
      PMPI_Barrier(MPI_COMM_WORLD);  // MPI_Finalize is collective: its wait shows here
      leaveMpi(c);
      finishMeasurement();
    }
    return PMPI_Finalize();
  }
};
template <>
struct Hook<Fn::MPI_Abort> : Whole<Fn::MPI_Abort> {
  static int whole(void* ra, MPI_Comm comm, int code) {
    if (recorder.online) return PMPI_Abort(onlineSubstitute(comm), code);
    if (active()) {
      Call c{Fn::MPI_Abort, 0};
      enterMpi(c, ra);
      abortMeasurement("MPI_Abort");
    }
    return PMPI_Abort(comm, code);
  }
};

// --- point-to-point -----------------------------------------------------------------------------
#define WS_SEND_HOOK(NAME)                                                                                  \
  template <>                                                                                               \
  struct Hook<Fn::NAME> : Custom<Fn::NAME> {                                                                \
    static int call(Call&, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) { \
      recordSend(dest, count, type, tag, comm);                                                             \
      return P##NAME(buf, count, type, dest, tag, comm);                                                    \
    }                                                                                                       \
  };
WS_SEND_HOOK(MPI_Send)
WS_SEND_HOOK(MPI_Bsend)
WS_SEND_HOOK(MPI_Ssend)
WS_SEND_HOOK(MPI_Rsend)

#define WS_ISEND_HOOK(NAME, KIND, PERSISTENT)                                                              \
  template <>                                                                                              \
  struct Hook<Fn::NAME> : Custom<Fn::NAME> {                                                               \
    static int call(Call&, auto buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,        \
                    MPI_Request* req) {                                                                    \
      const int rc = P##NAME(buf, count, type, peer, tag, comm, req);                                      \
      if (rc == MPI_SUCCESS) trackP2p(*req, ReqKind::KIND, PERSISTENT, peer, count, type, tag, comm);      \
      return rc;                                                                                           \
    }                                                                                                      \
  };
WS_ISEND_HOOK(MPI_Isend, Isend, false)
WS_ISEND_HOOK(MPI_Ibsend, Isend, false)
WS_ISEND_HOOK(MPI_Issend, Isend, false)
WS_ISEND_HOOK(MPI_Irsend, Isend, false)
WS_ISEND_HOOK(MPI_Irecv, Irecv, false)
WS_ISEND_HOOK(MPI_Send_init, Isend, true)
WS_ISEND_HOOK(MPI_Bsend_init, Isend, true)
WS_ISEND_HOOK(MPI_Ssend_init, Isend, true)
WS_ISEND_HOOK(MPI_Rsend_init, Isend, true)
WS_ISEND_HOOK(MPI_Recv_init, Irecv, true)

// Matched probes: the probe takes the message off the queue (it matches there, in probe order) and
// the receive records it as MPI_RECV, or MPI_IRECV_REQUEST then MPI_IRECV, like MPI_Recv/MPI_Irecv.
void rememberMatched(MPI_Message message, MPI_Comm comm) {
  if (message == MPI_MESSAGE_NULL || message == MPI_MESSAGE_NO_PROC) return;
  if (commId(comm) == OTF2_UNDEFINED_COMM) [[unlikely]] return noteUndefinedComm();
  recorder.matchedMessages[message] = commId(comm);
}
// The communicator of a matched message (forgotten: MPI frees the handle in the receive).
OTF2_CommRef takeMatched(MPI_Message message) {
  const auto it = recorder.matchedMessages.find(message);
  if (it == recorder.matchedMessages.end()) return OTF2_UNDEFINED_COMM;
  const OTF2_CommRef comm = it->second;
  recorder.matchedMessages.erase(it);
  return comm;
}
template <>
struct Hook<Fn::MPI_Mprobe> : Custom<Fn::MPI_Mprobe> {
  static int call(Call&, int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
    const int rc = PMPI_Mprobe(source, tag, comm, message, status);
    if (rc == MPI_SUCCESS) rememberMatched(*message, comm);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Improbe> : Custom<Fn::MPI_Improbe> {
  static int call(Call&, int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status) {
    const int rc = PMPI_Improbe(source, tag, comm, flag, message, status);
    if (rc == MPI_SUCCESS && *flag) rememberMatched(*message, comm);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Mrecv> : Custom<Fn::MPI_Mrecv> {
  static int call(Call&, void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status) {
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    const OTF2_CommRef comm = takeMatched(*message);
    const int rc = PMPI_Mrecv(buf, count, type, message, st);
    if (rc == MPI_SUCCESS && comm != OTF2_UNDEFINED_COMM && st->MPI_SOURCE >= 0) {
      OTF2_EvtWriter_MpiRecv(recorder.evt, nullptr, stamp(), static_cast<std::uint32_t>(st->MPI_SOURCE), comm,
                             static_cast<std::uint32_t>(st->MPI_TAG), statusBytes(*st));
      recorder.stampedAfterCall = true;
    }
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Imrecv> : Custom<Fn::MPI_Imrecv> {
  static int call(Call&, void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Request* req) {
    const OTF2_CommRef comm = takeMatched(*message);
    const int rc = PMPI_Imrecv(buf, count, type, message, req);
    if (rc == MPI_SUCCESS && comm != OTF2_UNDEFINED_COMM && *req != MPI_REQUEST_NULL) {
      ReqInfo r{ReqKind::Irecv};
      r.comm = comm;
      r.bytes = bytesOf(count, type);
      issueRequest(r);
      trackRequest(*req, r);
    }
    return rc;
  }
};

template <>
struct Hook<Fn::MPI_Recv> : Custom<Fn::MPI_Recv> {
  static int call(Call&, void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                  MPI_Status* status) {
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    const int rc = PMPI_Recv(buf, count, type, source, tag, comm, st);
    if (rc == MPI_SUCCESS) recordRecv(*st, comm);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Sendrecv> : Custom<Fn::MPI_Sendrecv> {
  static int call(Call&, const void* sbuf, int scount, MPI_Datatype stype, int dest, int stag, void* rbuf,
                  int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm, MPI_Status* status) {
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    recordSend(dest, scount, stype, stag, comm);
    const int rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, st);
    if (rc == MPI_SUCCESS) recordRecv(*st, comm);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Sendrecv_replace> : Custom<Fn::MPI_Sendrecv_replace> {
  static int call(Call&, void* buf, int count, MPI_Datatype type, int dest, int stag, int source, int rtag,
                  MPI_Comm comm, MPI_Status* status) {
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    recordSend(dest, count, type, stag, comm);
    const int rc = PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm, st);
    if (rc == MPI_SUCCESS) recordRecv(*st, comm);
    return rc;
  }
};
void startRequest(MPI_Request req) {
  auto it = recorder.requests.find(req);
  if (it != recorder.requests.end()) issueRequest(it->second);
}
template <>
struct Hook<Fn::MPI_Start> : Custom<Fn::MPI_Start> {
  static int call(Call&, MPI_Request* req) {
    startRequest(*req);
    return PMPI_Start(req);
  }
};
template <>
struct Hook<Fn::MPI_Startall> : Custom<Fn::MPI_Startall> {
  static int call(Call&, int n, MPI_Request reqs[]) {
    for (int i = 0; i < n; ++i) startRequest(reqs[i]);
    return PMPI_Startall(n, reqs);
  }
};
template <>
struct Hook<Fn::MPI_Request_free> : Custom<Fn::MPI_Request_free> {
  static int call(Call&, MPI_Request* req) {
    const auto it = recorder.requests.find(*req);
    if (it != recorder.requests.end()) {
      if (it->second.kind == ReqKind::Irecv && it->second.active) warnFreedReceive();
      untrackRequest(it);
    }
    return PMPI_Request_free(req);
  }
};
template <>
struct Hook<Fn::MPI_Wait> : Custom<Fn::MPI_Wait> {
  static int call(Call&, MPI_Request* req, MPI_Status* status) {
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    const MPI_Request saved = *req;
    const int rc = PMPI_Wait(req, st);
    if (rc == MPI_SUCCESS) completed(saved, *st);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Test> : Custom<Fn::MPI_Test> {
  static int call(Call&, MPI_Request* req, int* flag, MPI_Status* status) {
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    const MPI_Request saved = *req;
    const int rc = PMPI_Test(req, flag, st);
    if (rc == MPI_SUCCESS && *flag) completed(saved, *st);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Waitall> : Custom<Fn::MPI_Waitall> {
  static int call(Call&, int n, MPI_Request reqs[], MPI_Status statuses[]) {
    MPI_Request* saved = saveRequests(n, reqs);
    MPI_Status* st = statusArray(n, statuses);
    const int rc = PMPI_Waitall(n, reqs, st);
    if (rc == MPI_SUCCESS)
      for (int i = 0; i < n; ++i) completed(saved[i], st[i]);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Testall> : Custom<Fn::MPI_Testall> {
  static int call(Call&, int n, MPI_Request reqs[], int* flag, MPI_Status statuses[]) {
    MPI_Request* saved = saveRequests(n, reqs);
    MPI_Status* st = statusArray(n, statuses);
    const int rc = PMPI_Testall(n, reqs, flag, st);
    if (rc == MPI_SUCCESS && *flag)
      for (int i = 0; i < n; ++i) completed(saved[i], st[i]);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Waitany> : Custom<Fn::MPI_Waitany> {
  static int call(Call&, int n, MPI_Request reqs[], int* index, MPI_Status* status) {
    MPI_Request* saved = saveRequests(n, reqs);
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    const int rc = PMPI_Waitany(n, reqs, index, st);
    if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED) completed(saved[*index], *st);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Testany> : Custom<Fn::MPI_Testany> {
  static int call(Call&, int n, MPI_Request reqs[], int* index, int* flag, MPI_Status* status) {
    MPI_Request* saved = saveRequests(n, reqs);
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    const int rc = PMPI_Testany(n, reqs, index, flag, st);
    if (rc == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED) completed(saved[*index], *st);
    return rc;
  }
};
#define WS_SOME_HOOK(NAME)                                                                          \
  template <>                                                                                       \
  struct Hook<Fn::NAME> : Custom<Fn::NAME> {                                                        \
    static int call(Call&, int n, MPI_Request reqs[], int* outcount, int indices[], MPI_Status statuses[]) { \
      MPI_Request* saved = saveRequests(n, reqs);                                                   \
      MPI_Status* st = statusArray(n, statuses);                                                    \
      const int rc = P##NAME(n, reqs, outcount, indices, st);                                       \
      if (rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED)                                          \
        for (int i = 0; i < *outcount; ++i) completed(saved[indices[i]], st[i]);                    \
      return rc;                                                                                    \
    }                                                                                               \
  };
WS_SOME_HOOK(MPI_Waitsome)
WS_SOME_HOOK(MPI_Testsome)

// --- collectives ----------------------------------------------------------------------------------
// At the ENTER time (the stamp just taken): one clock read less per collective.
// Neither record on a communicator the trace cannot define.
void collBegin(MPI_Comm comm) {
  if (commId(comm) == OTF2_UNDEFINED_COMM) [[unlikely]] return;
  OTF2_EvtWriter_MpiCollectiveBegin(recorder.evt, nullptr, recorder.lastTime);
}
// On an inter-communicator the root is MPI_ROOT at the root, MPI_PROC_NULL at the rest of its
// group and the root's rank in the other group there (OTF2 3's OTF2_COLLECTIVE_ROOT_*).
std::uint32_t collectiveRoot(int root) {
  if (root == MPI_ROOT) return OTF2_COLLECTIVE_ROOT_SELF;
  if (root == MPI_PROC_NULL) return OTF2_COLLECTIVE_ROOT_THIS_GROUP;
  return root < 0 ? OTF2_UNDEFINED_UINT32 : static_cast<std::uint32_t>(root);
}
void collEnd(OTF2_CollectiveOp op, MPI_Comm comm, int root, std::uint64_t sent, std::uint64_t received) {
  const OTF2_CommRef id = commId(comm);
  if (id == OTF2_UNDEFINED_COMM) [[unlikely]] return noteUndefinedComm();
  OTF2_EvtWriter_MpiCollectiveEnd(recorder.evt, nullptr, stamp(), op, id, collectiveRoot(root), sent, received);
  recorder.stampedAfterCall = true;
}
// Bytes (a convention shared with Score-P): "sent" is what this rank sends to all ranks, itself
// included; "received" what it receives from all.
template <>
struct Hook<Fn::MPI_Barrier> : Custom<Fn::MPI_Barrier> {
  static int call(Call&, MPI_Comm comm) {
    collBegin(comm);
    const int rc = PMPI_Barrier(comm);
    collEnd(OTF2_COLLECTIVE_OP_BARRIER, comm, -1, 0, 0);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Bcast> : Custom<Fn::MPI_Bcast> {
  static int call(Call&, void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    collBegin(comm);
    const int rc = PMPI_Bcast(buf, count, type, root, comm);
    const std::uint64_t b = bytesOf(count, type);
    collEnd(OTF2_COLLECTIVE_OP_BCAST, comm, root, isRootOf(comm, root) ? b * static_cast<std::uint64_t>(collectivePeers(comm)) : 0, b);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Gather> : Custom<Fn::MPI_Gather> {
  static int call(Call&, const void* sb, int sc, MPI_Datatype st, void* rb, int rc_, MPI_Datatype rt, int root,
                  MPI_Comm comm) {
    collBegin(comm);
    const int rc = PMPI_Gather(sb, sc, st, rb, rc_, rt, root, comm);
    const bool isRoot = isRootOf(comm, root);
    const std::uint64_t sent = sb == MPI_IN_PLACE ? bytesOf(rc_, rt) : bytesOf(sc, st);
    collEnd(OTF2_COLLECTIVE_OP_GATHER, comm, root, sent,
            isRoot ? bytesOf(rc_, rt) * static_cast<std::uint64_t>(collectivePeers(comm)) : 0);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Gatherv> : Custom<Fn::MPI_Gatherv> {
  static int call(Call&, const void* sb, int sc, MPI_Datatype st, void* rb, const int rcs[], const int displs[],
                  MPI_Datatype rt, int root, MPI_Comm comm) {
    collBegin(comm);
    const int rc = PMPI_Gatherv(sb, sc, st, rb, rcs, displs, rt, root, comm);
    const bool isRoot = isRootOf(comm, root);
    const std::uint64_t sent = sb == MPI_IN_PLACE ? bytesOf(rcs[root], rt) : bytesOf(sc, st);
    collEnd(OTF2_COLLECTIVE_OP_GATHERV, comm, root, sent, isRoot ? sumBytes(rcs, rt, collectivePeers(comm)) : 0);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Scatter> : Custom<Fn::MPI_Scatter> {
  static int call(Call&, const void* sb, int sc, MPI_Datatype st, void* rb, int rc_, MPI_Datatype rt, int root,
                  MPI_Comm comm) {
    collBegin(comm);
    const int rc = PMPI_Scatter(sb, sc, st, rb, rc_, rt, root, comm);
    const bool isRoot = isRootOf(comm, root);
    collEnd(OTF2_COLLECTIVE_OP_SCATTER, comm, root,
            isRoot ? bytesOf(sc, st) * static_cast<std::uint64_t>(collectivePeers(comm)) : 0,
            rb == MPI_IN_PLACE ? bytesOf(sc, st) : bytesOf(rc_, rt));
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Scatterv> : Custom<Fn::MPI_Scatterv> {
  static int call(Call&, const void* sb, const int scs[], const int displs[], MPI_Datatype st, void* rb, int rc_,
                  MPI_Datatype rt, int root, MPI_Comm comm) {
    collBegin(comm);
    const int rc = PMPI_Scatterv(sb, scs, displs, st, rb, rc_, rt, root, comm);
    const bool isRoot = isRootOf(comm, root);
    collEnd(OTF2_COLLECTIVE_OP_SCATTERV, comm, root, isRoot ? sumBytes(scs, st, collectivePeers(comm)) : 0,
            rb == MPI_IN_PLACE ? bytesOf(scs[root], st) : bytesOf(rc_, rt));
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Allgather> : Custom<Fn::MPI_Allgather> {
  static int call(Call&, const void* sb, int sc, MPI_Datatype st, void* rb, int rc_, MPI_Datatype rt, MPI_Comm comm) {
    collBegin(comm);
    const int rc = PMPI_Allgather(sb, sc, st, rb, rc_, rt, comm);
    const auto n = static_cast<std::uint64_t>(collectivePeers(comm));
    const std::uint64_t one = sb == MPI_IN_PLACE ? bytesOf(rc_, rt) : bytesOf(sc, st);
    collEnd(OTF2_COLLECTIVE_OP_ALLGATHER, comm, -1, n * one, n * bytesOf(rc_, rt));
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Allgatherv> : Custom<Fn::MPI_Allgatherv> {
  static int call(Call&, const void* sb, int sc, MPI_Datatype st, void* rb, const int rcs[], const int displs[],
                  MPI_Datatype rt, MPI_Comm comm) {
    collBegin(comm);
    const int rc = PMPI_Allgatherv(sb, sc, st, rb, rcs, displs, rt, comm);
    const int n = collectivePeers(comm);
    const std::uint64_t one = sb == MPI_IN_PLACE ? bytesOf(rcs[commRank(comm)], rt) : bytesOf(sc, st);
    collEnd(OTF2_COLLECTIVE_OP_ALLGATHERV, comm, -1, static_cast<std::uint64_t>(n) * one, sumBytes(rcs, rt, n));
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Alltoall> : Custom<Fn::MPI_Alltoall> {
  static int call(Call&, const void* sb, int sc, MPI_Datatype st, void* rb, int rc_, MPI_Datatype rt, MPI_Comm comm) {
    collBegin(comm);
    const int rc = PMPI_Alltoall(sb, sc, st, rb, rc_, rt, comm);
    const auto n = static_cast<std::uint64_t>(collectivePeers(comm));
    const std::uint64_t one = sb == MPI_IN_PLACE ? bytesOf(rc_, rt) : bytesOf(sc, st);
    collEnd(OTF2_COLLECTIVE_OP_ALLTOALL, comm, -1, n * one, n * bytesOf(rc_, rt));
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Alltoallv> : Custom<Fn::MPI_Alltoallv> {
  static int call(Call&, const void* sb, const int scs[], const int sd[], MPI_Datatype st, void* rb, const int rcs[],
                  const int rd[], MPI_Datatype rt, MPI_Comm comm) {
    collBegin(comm);
    const int rc = PMPI_Alltoallv(sb, scs, sd, st, rb, rcs, rd, rt, comm);
    const int n = collectivePeers(comm);
    collEnd(OTF2_COLLECTIVE_OP_ALLTOALLV, comm, -1, sb == MPI_IN_PLACE ? sumBytes(rcs, rt, n) : sumBytes(scs, st, n),
            sumBytes(rcs, rt, n));
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Alltoallw> : Custom<Fn::MPI_Alltoallw> {
  static int call(Call&, const void* sb, const int scs[], const int sd[], const MPI_Datatype sts[], void* rb,
                  const int rcs[], const int rd[], const MPI_Datatype rts[], MPI_Comm comm) {
    collBegin(comm);
    const int rc = PMPI_Alltoallw(sb, scs, sd, sts, rb, rcs, rd, rts, comm);
    const int n = collectivePeers(comm);
    std::uint64_t sent = 0, received = 0;
    for (int i = 0; i < n; ++i) {
      received += bytesOf(rcs[i], rts[i]);
      sent += sb == MPI_IN_PLACE ? bytesOf(rcs[i], rts[i]) : bytesOf(scs[i], sts[i]);
    }
    collEnd(OTF2_COLLECTIVE_OP_ALLTOALLW, comm, -1, sent, received);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Reduce> : Custom<Fn::MPI_Reduce> {
  static int call(Call&, const void* sb, void* rb, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
    collBegin(comm);
    const int rc = PMPI_Reduce(sb, rb, count, type, op, root, comm);
    const std::uint64_t b = bytesOf(count, type);
    collEnd(OTF2_COLLECTIVE_OP_REDUCE, comm, root, b,
            isRootOf(comm, root) ? b * static_cast<std::uint64_t>(collectivePeers(comm)) : 0);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Allreduce> : Custom<Fn::MPI_Allreduce> {
  static int call(Call&, const void* sb, void* rb, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    collBegin(comm);
    const int rc = PMPI_Allreduce(sb, rb, count, type, op, comm);
    const std::uint64_t b = bytesOf(count, type) * static_cast<std::uint64_t>(collectivePeers(comm));
    collEnd(OTF2_COLLECTIVE_OP_ALLREDUCE, comm, -1, b, b);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Reduce_scatter> : Custom<Fn::MPI_Reduce_scatter> {
  static int call(Call&, const void* sb, void* rb, const int rcs[], MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    collBegin(comm);
    const int rc = PMPI_Reduce_scatter(sb, rb, rcs, type, op, comm);
    const int n = commSize(comm);
    collEnd(OTF2_COLLECTIVE_OP_REDUCE_SCATTER, comm, -1, sumBytes(rcs, type, n),
            bytesOf(rcs[commRank(comm)], type) * static_cast<std::uint64_t>(n));
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Reduce_scatter_block> : Custom<Fn::MPI_Reduce_scatter_block> {
  static int call(Call&, const void* sb, void* rb, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    collBegin(comm);
    const int rc = PMPI_Reduce_scatter_block(sb, rb, count, type, op, comm);
    const std::uint64_t b = bytesOf(count, type) * static_cast<std::uint64_t>(commSize(comm));
    collEnd(OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK, comm, -1, b, b);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Scan> : Custom<Fn::MPI_Scan> {
  static int call(Call&, const void* sb, void* rb, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    collBegin(comm);
    const int rc = PMPI_Scan(sb, rb, count, type, op, comm);
    const std::uint64_t b = bytesOf(count, type);
    const auto me = static_cast<std::uint64_t>(commRank(comm)), n = static_cast<std::uint64_t>(commSize(comm));
    collEnd(OTF2_COLLECTIVE_OP_SCAN, comm, -1, (n - me) * b, (me + 1) * b);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Exscan> : Custom<Fn::MPI_Exscan> {
  static int call(Call&, const void* sb, void* rb, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    collBegin(comm);
    const int rc = PMPI_Exscan(sb, rb, count, type, op, comm);
    const std::uint64_t b = bytesOf(count, type);
    const auto me = static_cast<std::uint64_t>(commRank(comm)), n = static_cast<std::uint64_t>(commSize(comm));
    collEnd(OTF2_COLLECTIVE_OP_EXSCAN, comm, -1, (n - me - 1) * b, me * b);
    return rc;
  }
};

// --- communicators --------------------------------------------------------------------------------
// A hook that runs STATEMENT after a successful call; the arguments are the tuple `args`, their
// number sizeof...(A).
#define WS_AFTER_CALL_HOOK(NAME, STATEMENT)                                     \
  template <>                                                                   \
  struct Hook<Fn::NAME> : Custom<Fn::NAME> {                                    \
    template <class... A>                                                       \
    static int call(Call&, A... a) {                                            \
      const int rc = P##NAME(a...);                                             \
      auto args = std::make_tuple(a...);                                        \
      if (rc == MPI_SUCCESS) STATEMENT;                                         \
      return rc;                                                                \
    }                                                                           \
  };
// The new communicator's definition is agreed on inside the call (a PMPI_Bcast on it).
#define WS_NEWCOMM_HOOK(NAME, PARENT_ARG) \
  WS_AFTER_CALL_HOOK(NAME, registerComm(*std::get<sizeof...(A) - 1>(args), #NAME, std::get<PARENT_ARG>(args)))
WS_NEWCOMM_HOOK(MPI_Comm_dup, 0)
WS_NEWCOMM_HOOK(MPI_Comm_dup_with_info, 0)
WS_NEWCOMM_HOOK(MPI_Comm_split, 0)
WS_NEWCOMM_HOOK(MPI_Comm_split_type, 0)
WS_NEWCOMM_HOOK(MPI_Comm_create, 0)
WS_NEWCOMM_HOOK(MPI_Comm_create_group, 0)
WS_NEWCOMM_HOOK(MPI_Cart_create, 0)
WS_NEWCOMM_HOOK(MPI_Cart_sub, 0)
WS_NEWCOMM_HOOK(MPI_Graph_create, 0)
WS_NEWCOMM_HOOK(MPI_Dist_graph_create, 0)
WS_NEWCOMM_HOOK(MPI_Dist_graph_create_adjacent, 0)
// MPI_Intercomm_create: the peer communicator (the definition's common communicator) is known
// at the two leaders only.
template <>
struct Hook<Fn::MPI_Intercomm_create> : Custom<Fn::MPI_Intercomm_create> {
  static int call(Call&, MPI_Comm local, int localLeader, MPI_Comm peer, int remoteLeader, int tag, MPI_Comm* out) {
    const int rc = PMPI_Intercomm_create(local, localLeader, peer, remoteLeader, tag, out);
    if (rc == MPI_SUCCESS && commId(local) != OTF2_UNDEFINED_COMM)
      registerInterComm(*out, "MPI_Intercomm_create", commRank(local) == localLeader ? commId(peer) : OTF2_UNDEFINED_COMM);
    return rc;
  }
};
// The merged communicator is an intra-communicator (OTF2's parent must be one too: none).
template <>
struct Hook<Fn::MPI_Intercomm_merge> : Custom<Fn::MPI_Intercomm_merge> {
  static int call(Call&, MPI_Comm inter, int high, MPI_Comm* out) {
    const int rc = PMPI_Intercomm_merge(inter, high, out);
    if (rc == MPI_SUCCESS && commId(inter) != OTF2_UNDEFINED_COMM) registerComm(*out, "MPI_Intercomm_merge", MPI_COMM_NULL);
    return rc;
  }
};
// Non-blocking: the new communicator cannot be used to agree on its identity until the request
// completes, so its key is derived from the parent's without communicating (idup_key in
// measure.cpp).
template <>
struct Hook<Fn::MPI_Comm_idup> : Custom<Fn::MPI_Comm_idup> {
  static int call(Call&, MPI_Comm comm, MPI_Comm* out, MPI_Request* req) {
    const int rc = PMPI_Comm_idup(comm, out, req);
    if (rc == MPI_SUCCESS) registerIdup(*out, comm);
    return rc;
  }
};
// Communicators that reach another job's processes: the trace cannot define them.
#define WS_FOREIGN_COMM_HOOK(NAME, COMM_ARG) WS_AFTER_CALL_HOOK(NAME, warnForeignComm(#NAME, std::get<COMM_ARG>(args)))
WS_FOREIGN_COMM_HOOK(MPI_Comm_spawn, 5)
WS_FOREIGN_COMM_HOOK(MPI_Comm_spawn_multiple, 6)
WS_FOREIGN_COMM_HOOK(MPI_Comm_connect, 3)
WS_FOREIGN_COMM_HOOK(MPI_Comm_accept, 3)
template <>
struct Hook<Fn::MPI_Comm_join> : Custom<Fn::MPI_Comm_join> {
  static int call(Call&, int fd, MPI_Comm* out) {
    const int rc = PMPI_Comm_join(fd, out);
    if (rc == MPI_SUCCESS && *out != MPI_COMM_NULL) warnForeignComm("MPI_Comm_join", MPI_COMM_SELF);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Comm_get_parent> : Custom<Fn::MPI_Comm_get_parent> {
  static int call(Call&, MPI_Comm* parent) {
    const int rc = PMPI_Comm_get_parent(parent);
    if (rc == MPI_SUCCESS && *parent != MPI_COMM_NULL) warnForeignComm("MPI_Comm_get_parent", MPI_COMM_WORLD);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Comm_free> : Custom<Fn::MPI_Comm_free> {
  static int call(Call&, MPI_Comm* comm) {
    forgetComm(*comm);
    return PMPI_Comm_free(comm);
  }
};

// --- RMA windows ----------------------------------------------------------------------------------
void rmaCollBegin() { OTF2_EvtWriter_RmaCollectiveBegin(recorder.evt, nullptr, stamp()); }
void rmaCollEnd(OTF2_CollectiveOp op, OTF2_RmaSyncLevel level, OTF2_RmaWinRef win) {
  OTF2_EvtWriter_RmaCollectiveEnd(recorder.evt, nullptr, stamp(), op, level, win, OTF2_UNDEFINED_UINT32, 0, 0);
}
void windowCreated(MPI_Win win, MPI_Comm comm, const char* name, bool allocated) {
  WinDef def;
  def.key = agreeKey(comm);
  def.comm = commId(comm);
  def.name = name;
  logDefinition(partial::record(partial::kWin, partial::winPayload(def)));
  recorder.wins.push_back(std::move(def));
  WinInfo info;
  info.id = static_cast<OTF2_RmaWinRef>(recorder.wins.size() - 1);
  info.allocated = allocated;
  recorder.winInfo[win] = std::move(info);
  OTF2_EvtWriter_RmaWinCreate(recorder.evt, nullptr, stamp(), static_cast<OTF2_RmaWinRef>(recorder.wins.size() - 1));
  rmaCollEnd(allocated ? OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE : OTF2_COLLECTIVE_OP_CREATE_HANDLE,
             OTF2_RMA_SYNC_LEVEL_PROCESS, static_cast<OTF2_RmaWinRef>(recorder.wins.size() - 1));
}
#define WS_WINCREATE_HOOK(NAME, COMM_ARG, LABEL, ALLOCATED)                   \
  template <>                                                                 \
  struct Hook<Fn::NAME> : Custom<Fn::NAME> {                                  \
    template <class... A>                                                     \
    static int call(Call&, A... a) {                                          \
      auto args = std::make_tuple(a...);                                      \
      const bool known = commId(std::get<COMM_ARG>(args)) != OTF2_UNDEFINED_COMM; \
      if (known) rmaCollBegin();                                              \
      const int rc = P##NAME(a...);                                           \
      if (rc == MPI_SUCCESS && known)                                         \
        windowCreated(*std::get<sizeof...(A) - 1>(args), std::get<COMM_ARG>(args), LABEL, ALLOCATED); \
      else if (rc == MPI_SUCCESS)                                             \
        noteUndefinedComm();                                                  \
      return rc;                                                              \
    }                                                                         \
  };
WS_WINCREATE_HOOK(MPI_Win_create, 4, "MPI_Win_create window", false)
WS_WINCREATE_HOOK(MPI_Win_allocate, 3, "MPI_Win_allocate window", true)
WS_WINCREATE_HOOK(MPI_Win_allocate_shared, 3, "MPI_Win_allocate_shared window", true)
WS_WINCREATE_HOOK(MPI_Win_create_dynamic, 1, "MPI_Win_create_dynamic window", false)

template <>
struct Hook<Fn::MPI_Win_free> : Custom<Fn::MPI_Win_free> {
  static int call(Call&, MPI_Win* win) {
    WinInfo* w = winOf(*win);
    if (!w) return PMPI_Win_free(win);
    const OTF2_RmaWinRef id = w->id;
    const bool allocated = w->allocated;
    recorder.winInfo.erase(*win);
    rmaCollBegin();
    OTF2_EvtWriter_RmaWinDestroy(recorder.evt, nullptr, stamp(), id);
    const int rc = PMPI_Win_free(win);
    rmaCollEnd(allocated ? OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE : OTF2_COLLECTIVE_OP_DESTROY_HANDLE,
               OTF2_RMA_SYNC_LEVEL_PROCESS, id);
    return rc;
  }
};

// --- RMA synchronisation ---------------------------------------------------------------------------
constexpr OTF2_RmaSyncLevel kProcessMemory = OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY;

template <>
struct Hook<Fn::MPI_Win_fence> : Custom<Fn::MPI_Win_fence> {
  static int call(Call&, int assertion, MPI_Win win) {
    WinInfo* w = winOf(win);
    if (!w) return PMPI_Win_fence(assertion, win);
    rmaCollBegin();
    const int rc = PMPI_Win_fence(assertion, win);
    w = winOf(win);
    completeOps(*w, -1, Completion::Local);
    rmaCollEnd(OTF2_COLLECTIVE_OP_BARRIER, kProcessMemory, w->id);
    return rc;
  }
};
#define WS_GROUP_EPOCH_HOOK(NAME, FIELD)                                                         \
  template <>                                                                                    \
  struct Hook<Fn::NAME> : Custom<Fn::NAME> {                                                     \
    static int call(Call& c, MPI_Group group, int assertion, MPI_Win win) {                      \
      const int rc = P##NAME(group, assertion, win);                                             \
      WinInfo* w = winOf(win);                                                                   \
      if (w && rc == MPI_SUCCESS) {                                                              \
        w->FIELD = groupId(group);                                                               \
        OTF2_EvtWriter_RmaGroupSync(recorder.evt, nullptr, c.enter, OTF2_RMA_SYNC_LEVEL_PROCESS, w->id, w->FIELD); \
      }                                                                                          \
      return rc;                                                                                 \
    }                                                                                            \
  };
WS_GROUP_EPOCH_HOOK(MPI_Win_post, exposureGroup)
WS_GROUP_EPOCH_HOOK(MPI_Win_start, accessGroup)

template <>
struct Hook<Fn::MPI_Win_complete> : Custom<Fn::MPI_Win_complete> {
  static int call(Call& c, MPI_Win win) {
    const int rc = PMPI_Win_complete(win);
    if (WinInfo* w = winOf(win)) {
      const std::uint64_t last = completeOps(*w, -1, Completion::Local);
      OTF2_EvtWriter_RmaGroupSync(recorder.evt, nullptr, last ? last : c.enter, kProcessMemory, w->id, w->accessGroup);
    }
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Win_wait> : Custom<Fn::MPI_Win_wait> {
  static int call(Call& c, MPI_Win win) {
    const int rc = PMPI_Win_wait(win);
    if (WinInfo* w = winOf(win))
      OTF2_EvtWriter_RmaGroupSync(recorder.evt, nullptr, c.enter, kProcessMemory, w->id, w->exposureGroup);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Win_test> : Custom<Fn::MPI_Win_test> {
  static int call(Call& c, MPI_Win win, int* flag) {
    const int rc = PMPI_Win_test(win, flag);
    if (WinInfo* w = winOf(win))
      OTF2_EvtWriter_RmaGroupSync(recorder.evt, nullptr, c.enter, *flag ? kProcessMemory : OTF2_RmaSyncLevel{OTF2_RMA_SYNC_LEVEL_NONE}, w->id,
                                  w->exposureGroup);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Win_lock> : Custom<Fn::MPI_Win_lock> {
  static int call(Call& c, int type, int rank, int assertion, MPI_Win win) {
    if (WinInfo* w = winOf(win))
      OTF2_EvtWriter_RmaRequestLock(recorder.evt, nullptr, c.enter, w->id, static_cast<std::uint32_t>(rank), 0,
                                    type == MPI_LOCK_EXCLUSIVE ? OTF2_LOCK_EXCLUSIVE : OTF2_LOCK_SHARED);
    return PMPI_Win_lock(type, rank, assertion, win);
  }
};
template <>
struct Hook<Fn::MPI_Win_lock_all> : Custom<Fn::MPI_Win_lock_all> {
  static int call(Call& c, int assertion, MPI_Win win) {
    if (WinInfo* w = winOf(win))
      OTF2_EvtWriter_RmaRequestLock(recorder.evt, nullptr, c.enter, w->id, OTF2_UNDEFINED_UINT32, 0, OTF2_LOCK_SHARED);
    return PMPI_Win_lock_all(assertion, win);
  }
};
template <>
struct Hook<Fn::MPI_Win_unlock> : Custom<Fn::MPI_Win_unlock> {
  static int call(Call&, int rank, MPI_Win win) {
    const int rc = PMPI_Win_unlock(rank, win);
    if (WinInfo* w = winOf(win)) {
      completeOps(*w, rank, Completion::Remote);
      OTF2_EvtWriter_RmaReleaseLock(recorder.evt, nullptr, recorder.lastTime, w->id, static_cast<std::uint32_t>(rank), 0);
    }
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Win_unlock_all> : Custom<Fn::MPI_Win_unlock_all> {
  static int call(Call&, MPI_Win win) {
    const int rc = PMPI_Win_unlock_all(win);
    if (WinInfo* w = winOf(win)) {
      completeOps(*w, -1, Completion::Remote);
      OTF2_EvtWriter_RmaReleaseLock(recorder.evt, nullptr, recorder.lastTime, w->id, OTF2_UNDEFINED_UINT32, 0);
    }
    return rc;
  }
};
#define WS_FLUSH_HOOK(NAME, MODE)                             \
  template <>                                                 \
  struct Hook<Fn::NAME> : Custom<Fn::NAME> {                  \
    static int call(Call&, int rank, MPI_Win win) {           \
      const int rc = P##NAME(rank, win);                      \
      if (WinInfo* w = winOf(win)) completeOps(*w, rank, MODE); \
      return rc;                                              \
    }                                                         \
  };
WS_FLUSH_HOOK(MPI_Win_flush, Completion::Remote)
WS_FLUSH_HOOK(MPI_Win_flush_local, Completion::LocalKeep)
#define WS_FLUSH_ALL_HOOK(NAME, MODE)                        \
  template <>                                                \
  struct Hook<Fn::NAME> : Custom<Fn::NAME> {                 \
    static int call(Call&, MPI_Win win) {                    \
      const int rc = P##NAME(win);                           \
      if (WinInfo* w = winOf(win)) completeOps(*w, -1, MODE); \
      return rc;                                             \
    }                                                        \
  };
WS_FLUSH_ALL_HOOK(MPI_Win_flush_all, Completion::Remote)
WS_FLUSH_ALL_HOOK(MPI_Win_flush_local_all, Completion::LocalKeep)

// --- RMA communication -----------------------------------------------------------------------------
void trackRmaRequest(MPI_Request req, MPI_Win win, std::uint64_t id) {
  ReqInfo r{ReqKind::Rma};
  r.id = id;
  r.win = win;
  trackRequest(req, r);
}
#define WS_PUTGET_HOOK(NAME, IS_GET, RECORD, HAS_REQ)                                                          \
  template <>                                                                                                  \
  struct Hook<Fn::NAME> : Custom<Fn::NAME> {                                                                   \
    template <class... A>                                                                                      \
    static int call(Call&, A... a) {                                                                           \
      auto args = std::make_tuple(a...);                                                                       \
      const int count = std::get<1>(args);                                                                     \
      const MPI_Datatype type = std::get<2>(args);                                                             \
      const int target = std::get<3>(args);                                                                    \
      const MPI_Win win = std::get<7>(args);                                                                   \
      WinInfo* w = winOf(win);                                                                                 \
      std::uint64_t id = 0;                                                                                    \
      if (w && target != MPI_PROC_NULL) {                                                                      \
        id = addOp(*w, target, IS_GET);                                                                        \
        RECORD(recorder.evt, nullptr, stamp(), w->id, static_cast<std::uint32_t>(target), bytesOf(count, type), id);  \
      }                                                                                                        \
      const int rc = P##NAME(a...);                                                                            \
      if constexpr (HAS_REQ) {                                                                                 \
        if (rc == MPI_SUCCESS && id) trackRmaRequest(*std::get<8>(args), win, id);                             \
      }                                                                                                        \
      return rc;                                                                                               \
    }                                                                                                          \
  };
WS_PUTGET_HOOK(MPI_Put, false, OTF2_EvtWriter_RmaPut, false)
WS_PUTGET_HOOK(MPI_Rput, false, OTF2_EvtWriter_RmaPut, true)
WS_PUTGET_HOOK(MPI_Get, true, OTF2_EvtWriter_RmaGet, false)
WS_PUTGET_HOOK(MPI_Rget, true, OTF2_EvtWriter_RmaGet, true)

// Atomics: stamped with the ENTER time, like Score-P. Sent/received hold bytes (Score-P: elements).
std::uint64_t atomic(Call& c, MPI_Win win, int target, OTF2_RmaAtomicType type, std::uint64_t sent,
                     std::uint64_t received) {
  WinInfo* w = winOf(win);
  if (!w || target == MPI_PROC_NULL) return 0;
  const std::uint64_t id = addOp(*w, target, false);
  OTF2_EvtWriter_RmaAtomic(recorder.evt, nullptr, c.enter, w->id, static_cast<std::uint32_t>(target), type, sent, received, id);
  return id;
}
template <>
struct Hook<Fn::MPI_Accumulate> : Custom<Fn::MPI_Accumulate> {
  static int call(Call& c, const void* oa, int oc, MPI_Datatype ot, int target, MPI_Aint disp, int tc, MPI_Datatype tt,
                  MPI_Op op, MPI_Win win) {
    atomic(c, win, target, OTF2_RMA_ATOMIC_TYPE_ACCUMULATE, bytesOf(oc, ot), 0);
    return PMPI_Accumulate(oa, oc, ot, target, disp, tc, tt, op, win);
  }
};
template <>
struct Hook<Fn::MPI_Raccumulate> : Custom<Fn::MPI_Raccumulate> {
  static int call(Call& c, const void* oa, int oc, MPI_Datatype ot, int target, MPI_Aint disp, int tc, MPI_Datatype tt,
                  MPI_Op op, MPI_Win win, MPI_Request* req) {
    const std::uint64_t id = atomic(c, win, target, OTF2_RMA_ATOMIC_TYPE_ACCUMULATE, bytesOf(oc, ot), 0);
    const int rc = PMPI_Raccumulate(oa, oc, ot, target, disp, tc, tt, op, win, req);
    if (rc == MPI_SUCCESS && id) trackRmaRequest(*req, win, id);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Get_accumulate> : Custom<Fn::MPI_Get_accumulate> {
  static int call(Call& c, const void* oa, int oc, MPI_Datatype ot, void* ra, int rc_, MPI_Datatype rt, int target,
                  MPI_Aint disp, int tc, MPI_Datatype tt, MPI_Op op, MPI_Win win) {
    atomic(c, win, target, OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE, bytesOf(oc, ot), bytesOf(rc_, rt));
    return PMPI_Get_accumulate(oa, oc, ot, ra, rc_, rt, target, disp, tc, tt, op, win);
  }
};
template <>
struct Hook<Fn::MPI_Rget_accumulate> : Custom<Fn::MPI_Rget_accumulate> {
  static int call(Call& c, const void* oa, int oc, MPI_Datatype ot, void* ra, int rc_, MPI_Datatype rt, int target,
                  MPI_Aint disp, int tc, MPI_Datatype tt, MPI_Op op, MPI_Win win, MPI_Request* req) {
    const std::uint64_t id =
        atomic(c, win, target, OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE, bytesOf(oc, ot), bytesOf(rc_, rt));
    const int rc = PMPI_Rget_accumulate(oa, oc, ot, ra, rc_, rt, target, disp, tc, tt, op, win, req);
    if (rc == MPI_SUCCESS && id) trackRmaRequest(*req, win, id);
    return rc;
  }
};
template <>
struct Hook<Fn::MPI_Fetch_and_op> : Custom<Fn::MPI_Fetch_and_op> {
  static int call(Call& c, const void* oa, void* ra, MPI_Datatype type, int target, MPI_Aint disp, MPI_Op op,
                  MPI_Win win) {
    atomic(c, win, target, OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE, bytesOf(1, type), bytesOf(1, type));
    return PMPI_Fetch_and_op(oa, ra, type, target, disp, op, win);
  }
};
template <>
struct Hook<Fn::MPI_Compare_and_swap> : Custom<Fn::MPI_Compare_and_swap> {
  static int call(Call& c, const void* oa, const void* ca, void* ra, MPI_Datatype type, int target, MPI_Aint disp,
                  MPI_Win win) {
    atomic(c, win, target, OTF2_RMA_ATOMIC_TYPE_COMPARE_AND_SWAP, bytesOf(2, type), bytesOf(1, type));
    return PMPI_Compare_and_swap(oa, ca, ra, type, target, disp, win);
  }
};

}  // namespace
}  // namespace waitscope::measure

// ================================================================================================
// The wrappers themselves, one per line of the table.
using namespace waitscope::measure;

#define WS_ARGS(...) __VA_OPT__(, ) __VA_ARGS__
// Categories whose calls, left out of the trace, leave their partners' records unmatched.
#define WS_COMMUNICATES_P2P true
#define WS_COMMUNICATES_COLL true
#define WS_COMMUNICATES_RMA_SYNC true
#define WS_COMMUNICATES_RMA_COMM true
#define WS_COMMUNICATES_ENV false
#define WS_COMMUNICATES_OTHER false
#define WS_COMMUNICATES_COMM_MGMT false
#define WS_COMMUNICATES_WIN_MGMT false
#define WS_COMMUNICATES_IO false
#define WS_MPI(category, role, name, params, args)                                                \
  extern "C" int name params {                                                                    \
    using H = Hook<Fn::name>;                                                                     \
    if constexpr (H::kWhole) {                                                                    \
      return H::whole(__builtin_return_address(0) WS_ARGS args);                                  \
    } else {                                                                                      \
      if (!active() || (!H::kCustom && recorder.mpiFiltered[static_cast<std::uint32_t>(Fn::name)])) [[unlikely]] { \
        if constexpr (WS_COMMUNICATES_##category) {                                               \
          if (recorder.recording && !tMainThread) noteOtherThread(static_cast<std::uint32_t>(Fn::name)); \
        }                                                                                         \
        if (recorder.online) return onlineMpi<Fn::name>(__builtin_return_address(0) WS_ARGS args);         \
        if (recorder.profiling && !recorder.mpiFiltered[static_cast<std::uint32_t>(Fn::name)])                  \
          return profiledMpi<Fn::name>(__builtin_return_address(0) WS_ARGS args);                    \
        return P##name args;                                                                      \
      }                                                                                           \
      Call c{Fn::name, 0};                                                                        \
      enterMpi(c, __builtin_return_address(0));                                                   \
      const int rc = H::call(c WS_ARGS args);                                                     \
      leaveMpi(c);                                                                                \
      return rc;                                                                                  \
    }                                                                                             \
  }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include "analysis/measure/mpi_functions.def"
#pragma GCC diagnostic pop
#undef WS_MPI
