#include "analysis/patterns/p2p_patterns.h"

#include <mpi.h>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "analysis/replay/yielding_wait.h"

namespace waitscope::patterns {

using metrics::Metric;
namespace {

using trace::EventKind;
constexpr double kInf = std::numeric_limits<double>::infinity();

// What a sender tells a receiver about one message.
struct WireSend {
  double enter;
  std::uint32_t comm;
  std::uint32_t tag;
};
static_assert(sizeof(WireSend) == 16);

std::string where(const replay::ReplayContext& ctx, std::uint32_t event) {
  std::ostringstream out;
  const std::optional<replay::Call> call = ctx.calls.callOf(event);
  out << "rank " << ctx.worldRank << ": ";
  if (call) out << ctx.regionName(call->path) << ' ';
  out.precision(9);
  out << "at " << std::fixed << (call ? call->enter : ctx.events.events[event].time) << " s";
  return out.str();
}

// How a call completes sends, for Late Receiver (Scalasca's classification: a blocking standard
// or synchronous send, one request, or several; MPI_Bsend, MPI_Rsend and the tests never wait for
// the receiver).
enum class SendCompletion : std::uint8_t { None, Blocking, WaitOne, WaitMany };
SendCompletion sendCompletion(const std::string& name) {
  if (name == "MPI_Send" || name == "MPI_Ssend") return SendCompletion::Blocking;
  if (name == "MPI_Wait") return SendCompletion::WaitOne;
  if (name == "MPI_Waitall" || name == "MPI_Waitany" || name == "MPI_Waitsome") return SendCompletion::WaitMany;
  return SendCompletion::None;
}

// Per world rank a slot, and one more for anything else (validation rejects
// such receives before detect() runs; be safe anyway).
std::size_t sourceSlot(std::uint32_t source, std::size_t ranks) { return source < ranks ? source : ranks; }

}  // namespace

PointToPoint::PointToPoint(replay::ReplayContext& ctx) : ctx_(ctx) {
  const auto& ev = ctx.events;
  const std::vector<std::uint32_t>& nonRegion = ctx.calls.nonRegionEvents();
  std::unordered_set<std::uint64_t> cancelled;
  std::size_t sends = 0, receives = 0;  // reserved exactly: no array is copied as it grows
  for (std::size_t k = 0; k < nonRegion.size(); ++k) {
    const trace::Event& e = ctx.calls.nonRegionEvent(k);
    const EventKind kind = e.kind;
    if (kind == EventKind::MpiRequestCancelled) cancelled.insert(ev.message(e).request);
    sends += kind == EventKind::MpiSend || kind == EventKind::MpiIsend;
    receives += kind == EventKind::MpiRecv || kind == EventKind::MpiIrecv;
  }
  sends_.reserve(sends);
  receives_.reserve(receives);

  struct Posted {
    std::uint32_t event;
    double enter;
  };
  std::unordered_map<std::uint64_t, Posted> irecvs;  // request id -> posting
  std::unordered_map<std::uint64_t, std::uint32_t> isends;  // request id -> index into sends_
  for (std::size_t k = 0; k < nonRegion.size(); ++k) {
    const std::uint32_t i = nonRegion[k];
    const trace::Event& e = ctx.calls.nonRegionEvent(k);
    const std::uint32_t callId = ctx.calls.callIdOfEntry(k);
    const std::optional<replay::Call> call = ctx.calls.callById(callId);
    const double callEnter = call ? call->enter : e.time;
    switch (e.kind) {
      case EventKind::MpiSend:
      case EventKind::MpiIsend: {
        const auto& m = ev.message(e);
        if (e.kind == EventKind::MpiIsend && cancelled.count(m.request)) break;
        const bool blocking = e.kind == EventKind::MpiSend;
        if (!blocking) isends[m.request] = static_cast<std::uint32_t>(sends_.size());
        sends_.push_back(
            {ctx.worldRankOf(m.comm, m.peer), m.comm, m.tag, i, callId, blocking ? callId : trace::kNone, callEnter});
        break;
      }
      case EventKind::MpiIsendComplete:
        if (const auto it = isends.find(ev.message(e).request); it != isends.end()) {
          sends_[it->second].completion = callId;
          isends.erase(it);
        }
        break;
      case EventKind::MpiIrecvRequest:
        irecvs[ev.message(e).request] = {i, callEnter};
        break;
      case EventKind::MpiRecv:
      case EventKind::MpiIrecv: {
        const auto& m = ev.message(e);
        Receive r{ctx.worldRankOf(m.comm, m.peer), m.comm, m.tag, i, i, callId, callEnter};
        if (e.kind == EventKind::MpiIrecv) {
          if (const auto it = irecvs.find(m.request); it != irecvs.end()) {
            r.postKey = it->second.event;
            r.postEnter = it->second.enter;
            irecvs.erase(it);
          }
        }
        receives_.push_back(r);
        break;
      }
      default:
        break;
    }
  }
}

std::string PointToPoint::exchange() {
  const replay::LocationComm& world = ctx_.comms.world();
  const int n = ctx_.worldSize;
  const auto nu = static_cast<std::size_t>(n);
  std::string error;

  // Outgoing envelopes per destination, in send order.
  std::vector<int> sendCount(nu, 0), recvCount(nu, 0);
  for (const Send& s : sends_) {
    if (s.dest >= nu) {
      if (error.empty()) error = where(ctx_, s.event) + ": send to a rank outside the communicator";
      continue;
    }
    ++sendCount[s.dest];
  }
  world.alltoall(sendCount.data(), 1, MPI_INT, recvCount.data(), 1, MPI_INT);

  std::vector<std::size_t> sendOffset(nu + 1, 0), recvOffset(nu + 1, 0);
  for (std::size_t p = 0; p < nu; ++p) {
    sendOffset[p + 1] = sendOffset[p] + static_cast<std::size_t>(sendCount[p]);
    recvOffset[p + 1] = recvOffset[p] + static_cast<std::size_t>(recvCount[p]);
  }
  std::vector<WireSend> outgoing(sendOffset[nu]);
  std::vector<std::uint32_t> outgoingSend(sendOffset[nu]);  // position -> index into sends_
  {
    std::vector<std::size_t> fill(sendOffset.begin(), sendOffset.end() - 1);
    for (std::uint32_t i = 0; i < sends_.size(); ++i) {
      const Send& s = sends_[i];
      if (s.dest >= nu) continue;
      outgoingSend[fill[s.dest]] = i;
      outgoing[fill[s.dest]++] = {s.enter, s.comm, s.tag};
    }
  }
  std::vector<WireSend> incoming(recvOffset[nu]);
  std::vector<MPI_Request> requests;
  requests.reserve(2 * nu);
  constexpr int kTagEnvelopes = 1001;
  constexpr int kTagPostTimes = 1002;
  for (int p = 0; p < n; ++p) {
    const auto pu = static_cast<std::size_t>(p);
    if (recvCount[pu] > 0)
      requests.push_back(world.irecv(incoming.data() + recvOffset[pu],
                                     recvCount[pu] * static_cast<int>(sizeof(WireSend)), MPI_BYTE, p, kTagEnvelopes));
    if (sendCount[pu] > 0)
      requests.push_back(world.isend(outgoing.data() + sendOffset[pu],
                                     sendCount[pu] * static_cast<int>(sizeof(WireSend)), MPI_BYTE, p, kTagEnvelopes));
  }
  world.waitAll(requests);
  // Each buffer goes as soon as it is read: the exchange is the forward replay's memory peak.
  outgoing = {};

  // Match: per source, the k-th receive posted on (comm, tag) gets the k-th
  // message sent on it (MPI's non-overtaking rule).
  std::vector<std::vector<std::uint32_t>> bySource(nu);
  for (std::uint32_t i = 0; i < receives_.size(); ++i) {
    const Receive& r = receives_[i];
    if (r.source >= nu) {
      if (error.empty()) error = where(ctx_, r.event) + ": receive from a rank outside the communicator";
      continue;
    }
    bySource[r.source].push_back(i);
  }
  std::vector<double> replies(recvOffset[nu], kInf);  // posting time per incoming message
  for (std::size_t src = 0; src < nu; ++src) {
    auto& list = bySource[src];
    std::stable_sort(list.begin(), list.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return receives_[a].postKey < receives_[b].postKey; });
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::uint32_t>> channels;  // (comm, tag) -> msgs
    for (std::size_t k = recvOffset[src]; k < recvOffset[src + 1]; ++k)
      channels[{incoming[k].comm, incoming[k].tag}].push_back(static_cast<std::uint32_t>(k - recvOffset[src]));
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> cursor;
    for (const std::uint32_t ri : list) {
      Receive& r = receives_[ri];
      const auto key = std::make_pair(r.comm, r.tag);
      const auto it = channels.find(key);
      std::size_t& c = cursor[key];
      if (it == channels.end() || c >= it->second.size()) {
        if (error.empty()) {
          std::ostringstream out;
          out << where(ctx_, r.event) << ": receive from rank " << src << " (tag " << r.tag << ", communicator "
              << r.comm << ") has no matching send";
          error = out.str();
        }
        r.sendEnter = -kInf;
        continue;
      }
      const std::uint32_t k = it->second[c++];
      r.sendEnter = incoming[recvOffset[src] + k].enter;
      replies[recvOffset[src] + k] = r.postEnter;
    }
    for (const auto& [key, msgs] : channels) {
      if (cursor[key] < msgs.size() && error.empty()) {
        std::ostringstream out;
        out.precision(9);
        out << "rank " << src << ": send to rank " << ctx_.worldRank << " (tag " << key.second << ", communicator "
            << key.first << ") at " << std::fixed << incoming[recvOffset[src] + msgs[cursor[key]]].enter
            << " s has no matching receive";
        error = out.str();
      }
    }
  }

  incoming = {};
  bySource = {};

  // Reply with the posting time of every message's receive (for Late Receiver).
  std::vector<double> postTimes(sendOffset[nu], kInf);
  requests.clear();
  for (int p = 0; p < n; ++p) {
    const auto pu = static_cast<std::size_t>(p);
    if (sendCount[pu] > 0)
      requests.push_back(world.irecv(postTimes.data() + sendOffset[pu], sendCount[pu], MPI_DOUBLE, p, kTagPostTimes));
    if (recvCount[pu] > 0)
      requests.push_back(world.isend(replies.data() + recvOffset[pu], recvCount[pu], MPI_DOUBLE, p, kTagPostTimes));
  }
  world.waitAll(requests);
  recvPostOfSend_.assign(sends_.size(), kInf);
  for (std::size_t k = 0; k < outgoingSend.size(); ++k) recvPostOfSend_[outgoingSend[k]] = postTimes[k];
  return error;
}

std::uint64_t PointToPoint::detect() {
  auto& sev = ctx_.severities;
  std::uint64_t violations = 0;

  // Receives completed by one call (a Waitall) form a group, which waits for the latest of its
  // senders. For Messages in Wrong Order each group needs the earliest send among the receives
  // completed after it: overall (the best two with different sources) and from its latest
  // sender. One backward pass keeps them per source and overall and notes them at each group's
  // end: a value per group, not per receive.
  const std::size_t count = receives_.size();
  struct Best2 {
    double v1 = kInf;
    std::uint32_t s1 = trace::kNone;
    double v2 = kInf;  // best with a source other than s1
  };
  struct Later {
    Best2 overall;
    double fromLatestSender;
  };
  const auto ranks = static_cast<std::size_t>(ctx_.worldSize);
  std::size_t groups = 0;
  for (std::size_t i = 0; i < count; ++i) groups += i + 1 == count || receives_[i + 1].call != receives_[i].call;
  // The receive whose send entered last, the first of them at equal times.
  auto latestOf = [&](std::size_t first, std::size_t end) {
    std::size_t latest = first;
    for (std::size_t k = first; k < end; ++k)
      if (receives_[k].sendEnter > receives_[latest].sendEnter) latest = k;
    return latest;
  };
  std::vector<Later> later(groups);  // by group, in completion order
  {
    std::vector<double> fromSource(ranks + 1, kInf);  // per source slot, over the receives passed
    Best2 b;
    std::size_t end = count, g = groups;
    while (end > 0) {
      std::size_t first = end - 1;
      while (first > 0 && receives_[first - 1].call == receives_[end - 1].call) --first;
      later[--g] = {b, fromSource[sourceSlot(receives_[latestOf(first, end)].source, ranks)]};
      for (std::size_t i = end; i-- > first;) {
        const Receive& r = receives_[i];
        if (r.sendEnter < b.v1) {
          if (r.source != b.s1) b.v2 = b.v1;
          b.v1 = r.sendEnter;
          b.s1 = r.source;
        } else if (r.source != b.s1 && r.sendEnter < b.v2) {
          b.v2 = r.sendEnter;
        }
        double& min = fromSource[sourceSlot(r.source, ranks)];
        min = std::min(min, r.sendEnter);
      }
      end = first;
    }
  }

  // Late Sender per group.
  const std::vector<trace::Event>& events = ctx_.events.events;
  for (std::size_t i = 0, g = 0; i < count; ++g) {
    const std::optional<replay::Call> call = ctx_.calls.callById(receives_[i].call);
    std::size_t end = i + 1;
    while (end < count && receives_[end].call == receives_[i].call) ++end;
    const std::size_t latest = latestOf(i, end);
    for (std::size_t k = i; k < end; ++k) {
      const Receive& r = receives_[k];
      if (r.sendEnter > events[r.event].time && r.sendEnter != kInf) {  // sent after its completion
        ++violations;
        if (call) sev.add(Metric::ClockViolationsP2p, call->path, 1.0);
      }
    }
    const Receive& r = receives_[latest];
    if (call && r.sendEnter > call->enter) {
      const double waitEnd = std::min(r.sendEnter, call->leave);
      // The most specific pattern keeps the instance.
      Metric specific = Metric::MpiLateSender;
      if (later[g].fromLatestSender < r.sendEnter) {
        specific = Metric::MpiLswoSame;
      } else {
        const Best2& b = later[g].overall;
        const double other = b.s1 != r.source ? b.v1 : b.v2;
        if (other < r.sendEnter) specific = Metric::MpiLswoDifferent;
      }
      const double wait = waitEnd - call->enter;
      sev.add(Metric::MpiLateSender, call->path, wait);
      if (specific != Metric::MpiLateSender) {
        sev.add(Metric::MpiLateSenderWo, call->path, wait);
        sev.add(specific, call->path, wait);
      }
      sev.addInstance({specific, call->path, call->enter, waitEnd, r.source});
    }
    i = end;
  }

  // Late Receiver, Scalasca's definition: the call that completes a send (a blocking MPI_Send or
  // MPI_Ssend, or the MPI_Wait of an MPI_Isend) returned only after the receive was posted, so it
  // waited from its enter to the posting (under the rendezvous protocol, until the receiver
  // arrived). A call completing several requests (MPI_Waitall) counts its longest such wait, and
  // none if it also waited for a late sender.
  const auto& regions = ctx_.defs().regions;
  std::vector<SendCompletion> completionKind(regions.size());  // per region: no string compare per send
  for (std::size_t r = 0; r < regions.size(); ++r) completionKind[r] = sendCompletion(regions[r].name);
  // A bit per call, not a node per call: this runs over every receive of the trace.
  std::vector<bool> lateSenderCalls(ctx_.calls.callCount());
  for (const Receive& r : receives_) {
    const std::optional<replay::Call> call = ctx_.calls.callById(r.call);
    if (call && r.sendEnter > call->enter) lateSenderCalls[r.call] = true;
  }
  struct Wait {
    std::uint32_t call;
    std::uint32_t dest;
    double post;
  };
  std::vector<Wait> waits;  // the sends' waits, then ordered by call: per call the first longest counts
  for (std::size_t i = 0; i < sends_.size(); ++i) {
    const std::uint32_t id = sends_[i].completion;
    const std::optional<replay::Call> call = ctx_.calls.callById(id);
    if (!call) continue;
    const SendCompletion kind = completionKind[ctx_.trace.callTree[call->path].region];
    if (kind == SendCompletion::None || (kind == SendCompletion::WaitMany && lateSenderCalls[id])) continue;
    const double post = recvPostOfSend_[i];
    if (!(post > call->enter && post < call->leave)) continue;
    waits.push_back({id, sends_[i].dest, post});
  }
  std::stable_sort(waits.begin(), waits.end(), [](const Wait& a, const Wait& b) { return a.call < b.call; });
  for (std::size_t i = 0; i < waits.size();) {
    Wait longest = waits[i];
    for (++i; i < waits.size() && waits[i].call == longest.call; ++i)
      if (waits[i].post > longest.post) longest = waits[i];
    const std::optional<replay::Call> call = ctx_.calls.callById(longest.call);
    sev.addWait(Metric::MpiLateReceiver, call->path, call->enter, longest.post, longest.dest);
  }
  return violations;
}

}  // namespace waitscope::patterns
