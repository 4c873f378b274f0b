#include "tests/e2e/recorded_waits.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <set>
#include <unordered_map>
#include <utility>

#include "analysis/trace/otf2_reader.h"
#include "analysis/trace/trace.h"
#include "tests/e2e/recorded_calls.h"

namespace waitscope::test {

namespace {

using trace::CollectiveOp;
using trace::EventKind;

using Call = RecordedCall;

// A point-to-point channel: messages match in order per (source, destination, communicator, tag).
using Channel = std::tuple<int, int, std::uint32_t, std::uint32_t>;

struct Send {
  std::size_t call;
  std::size_t completion;  // the call that completed it: itself if blocking, else the MPI_Wait* / MPI_Test*
};
constexpr std::size_t kNoCall = static_cast<std::size_t>(-1);
struct Receive {
  double post;            // the MPI_Recv's enter, or the time the MPI_Irecv posted its request
  std::size_t sequence;   // posting order on this rank, for equal times
  std::size_t completion; // the call that completed it (MPI_Recv, MPI_Wait*, MPI_Test*)
};

struct CollectiveCall {
  std::size_t call;
  CollectiveOp op;
  int root;  // world rank, -1 without one
  bool sends = false;  // sent data in it
};

struct Rank {
  std::vector<Call> calls;
  std::map<Channel, std::vector<Send>> sends;
  std::map<Channel, std::vector<Receive>> receives;
  std::map<std::uint32_t, std::vector<CollectiveCall>> collectives;     // by communicator
  std::map<std::uint32_t, std::vector<CollectiveCall>> windowCalls;     // by window
};

// World rank of a message's peer: on an inter-communicator a rank of the other group.
int peerOf(const trace::Trace& t, const trace::MessageRecord& m, int me) {
  const trace::Definitions& defs = *t.defs;
  return static_cast<int>(defs.isInterComm(m.comm) ? defs.peerWorldRank(m.comm, m.peer, static_cast<trace::Rank>(me))
                                                   : defs.worldRank(m.comm, m.peer));
}

// The calls and communication records of one location.
Rank collect(const trace::Trace& t, const trace::LocationEvents& loc, int me) {
  Rank out;
  std::unordered_map<std::uint64_t, std::pair<double, std::size_t>> postedIrecvs;  // request -> post time, sequence
  std::unordered_map<std::uint64_t, std::pair<Channel, std::size_t>> openIsends;  // request -> its send
  std::size_t sequence = 0;
  walkCalls(t, loc, out.calls, [&](const trace::Event& e, std::size_t call) {
    switch (e.kind) {
      case EventKind::MpiSend:
      case EventKind::MpiIsend: {
        const trace::MessageRecord& m = loc.message(e);
        const int peer = peerOf(t, m, me);
        const Channel channel{me, peer, m.comm, m.tag};
        auto& list = out.sends[channel];
        if (e.kind == EventKind::MpiIsend) openIsends[m.request] = {channel, list.size()};
        list.push_back({call, e.kind == EventKind::MpiSend ? call : kNoCall});
        break;
      }
      case EventKind::MpiIsendComplete: {
        const auto it = openIsends.find(loc.message(e).request);
        if (it != openIsends.end()) {
          out.sends[it->second.first][it->second.second].completion = call;
          openIsends.erase(it);
        }
        break;
      }
      case EventKind::MpiIrecvRequest:
        postedIrecvs[loc.message(e).request] = {e.time, sequence++};
        break;
      case EventKind::MpiRecv:
      case EventKind::MpiIrecv: {
        const trace::MessageRecord& m = loc.message(e);
        const int peer = peerOf(t, m, me);
        Receive r{out.calls[call].enter, sequence, call};
        if (e.kind == EventKind::MpiIrecv) {
          auto posted = postedIrecvs.find(m.request);
          if (posted != postedIrecvs.end()) {
            r.post = posted->second.first;
            r.sequence = posted->second.second;
            postedIrecvs.erase(posted);
          }
        } else {
          ++sequence;
        }
        out.receives[{peer, me, m.comm, m.tag}].push_back(r);
        break;
      }
      case EventKind::MpiCollectiveEnd: {
        const trace::CollectiveRecord& c = loc.collective(e);
        if (t.defs->isInterComm(c.object)) break;  // not analyzed (docs/recording.md)
        const int root = c.root == trace::kNone ? -1 : static_cast<int>(t.defs->worldRank(c.object, c.root));
        out.collectives[c.object].push_back({call, c.op, root, c.sent > 0});
        break;
      }
      case EventKind::RmaCollectiveEnd: {
        const trace::CollectiveRecord& c = loc.collective(e);
        out.windowCalls[c.object].push_back({call, c.op, -1});
        break;
      }
      default:
        break;
    }
  });
  for (auto& [channel, receives] : out.receives)
    std::sort(receives.begin(), receives.end(),
              [](const Receive& a, const Receive& b) { return a.sequence < b.sequence; });
  return out;
}

// `wait` limited to the call it happens in, never negative.
double clipped(double wait, const Call& c) { return std::max(0.0, std::min(wait, c.duration())); }

bool isNxN(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::Allgather:
    case CollectiveOp::Allgatherv:
    case CollectiveOp::Alltoall:
    case CollectiveOp::Alltoallv:
    case CollectiveOp::Alltoallw:
    case CollectiveOp::Allreduce:
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::ReduceScatterBlock:
      return true;
    default:
      return false;
  }
}
bool isOneToN(CollectiveOp op) {
  return op == CollectiveOp::Bcast || op == CollectiveOp::Scatter || op == CollectiveOp::Scatterv;
}
bool isNToOne(CollectiveOp op) {
  return op == CollectiveOp::Reduce || op == CollectiveOp::Gather || op == CollectiveOp::Gatherv;
}

const char* const kLateSender = "mpi_latesender";
const char* const kLateReceiver = "mpi_latereceiver";
const char* const kBarrier = "mpi_barrier_wait";
const char* const kNxN = "mpi_wait_nxn";
const char* const kLateBroadcast = "mpi_latebroadcast";
const char* const kEarlyReduce = "mpi_earlyreduce";
const char* const kWaitAtFence = "mpi_rma_wait_at_fence";
const char* const kWaitAtCreate = "mpi_rma_wait_at_create";
const char* const kWaitAtFree = "mpi_rma_wait_at_free";

bool isReceivingCall(const std::string& region) {
  return region == "MPI_Recv" || region.rfind("MPI_Wait", 0) == 0 || region.rfind("MPI_Test", 0) == 0;
}
// Calls whose wait for a receiver Scalasca counts: blocking standard and synchronous sends, and the
// waits that complete non-blocking ones.
bool completesSends(const std::string& region) {
  return region == "MPI_Send" || region == "MPI_Ssend" || region == "MPI_Wait" || region == "MPI_Waitall" ||
         region == "MPI_Waitany" || region == "MPI_Waitsome";
}

}  // namespace

const std::vector<std::string>& RecordedWaits::metrics() {
  static const std::vector<std::string> all = {kLateSender,    kLateReceiver, kBarrier,      kNxN,      kLateBroadcast,
                                               kEarlyReduce,   kWaitAtFence,  kWaitAtCreate, kWaitAtFree};
  return all;
}

void RecordedWaits::add(const std::string& metric, int rank, const std::string& path, std::uint32_t line,
                        double seconds) {
  const Key key{metric, rank, path, line};
  seconds_[key] += seconds;
  ++calls_[key];
}

RecordedWaits::RecordedWaits(const std::string& anchor) {
  trace::ReadOptions options;
  options.warn = [](const std::string&) {};
  const trace::Trace t = trace::readTrace(anchor, options);
  std::vector<Rank> ranks;
  for (std::size_t r = 0; r < t.locations.size(); ++r) ranks.push_back(collect(t, t.locations[r], static_cast<int>(r)));
  const int n = static_cast<int>(ranks.size());

  // Point to point: the k-th receive posted on a channel gets the k-th message sent on it.
  std::map<std::pair<int, std::size_t>, double> latestSenderOfCall;  // receiving call -> latest send enter
  std::map<std::pair<int, std::size_t>, double> latestPostOfCall;    // send-completing call -> latest posting
  for (int me = 0; me < n; ++me) {
    for (const auto& [channel, receives] : ranks[me].receives) {
      const int source = std::get<0>(channel);
      if (source < 0 || source >= n) continue;
      const auto sent = ranks[source].sends.find(channel);
      if (sent == ranks[source].sends.end()) continue;
      const std::size_t matched = std::min(receives.size(), sent->second.size());
      for (std::size_t k = 0; k < matched; ++k) {
        const Receive& r = receives[k];
        const Call& s = ranks[source].calls[sent->second[k].call];
        double& latest = latestSenderOfCall.try_emplace({me, r.completion}, -std::numeric_limits<double>::infinity())
                             .first->second;
        latest = std::max(latest, s.enter);
        const std::size_t completion = sent->second[k].completion;
        if (completion != kNoCall) {
          double& post = latestPostOfCall.try_emplace({source, completion}, -std::numeric_limits<double>::infinity())
                             .first->second;
          post = std::max(post, r.post);
        }
      }
    }
  }
  std::set<std::pair<int, std::size_t>> lateSenderCalls;
  for (const auto& [where, sendEnter] : latestSenderOfCall) {
    const Call& c = ranks[where.first].calls[where.second];
    if (!isReceivingCall(c.region)) continue;
    const double wait = sendEnter > c.enter ? std::min(sendEnter, c.leave) - c.enter : 0.0;
    add(kLateSender, where.first, c.path, c.line, wait);
    if (wait > 0.0) lateSenderCalls.insert(where);
  }
  // Late Receiver (Scalasca): the call completing sends waited from its enter until the latest
  // posting inside it; a multiple wait that also waited for a late sender counts none.
  for (const auto& [where, post] : latestPostOfCall) {
    const Call& c = ranks[where.first].calls[where.second];
    if (!completesSends(c.region)) continue;
    if (c.region != "MPI_Wait" && c.region.rfind("MPI_Wait", 0) == 0 && lateSenderCalls.count(where)) continue;
    add(kLateReceiver, where.first, c.path, c.line, post > c.enter && post < c.leave ? post - c.enter : 0.0);
  }

  // Collectives: the k-th operation of each member on one communicator is one instance.
  auto instances = [&](auto member, auto evaluate) {
    std::map<std::uint32_t, std::size_t> counts;
    for (int r = 0; r < n; ++r)
      for (const auto& [object, list] : member(ranks[r])) counts[object] = std::max(counts[object], list.size());
    for (const auto& [object, count] : counts) {
      for (std::size_t k = 0; k < count; ++k) {
        std::vector<std::pair<int, const CollectiveCall*>> members;
        for (int r = 0; r < n; ++r) {
          const auto& byObject = member(ranks[r]);
          const auto it = byObject.find(object);
          if (it != byObject.end() && k < it->second.size()) members.emplace_back(r, &it->second[k]);
        }
        evaluate(members);
      }
    }
  };
  using Members = std::vector<std::pair<int, const CollectiveCall*>>;
  auto callOf = [&](const std::pair<int, const CollectiveCall*>& m) -> const Call& {
    return ranks[m.first].calls[m.second->call];
  };
  instances([](const Rank& r) -> const auto& { return r.collectives; },
            [&](const Members& members) {
              if (members.empty()) return;
              const CollectiveOp op = members.front().second->op;
              double latest = -std::numeric_limits<double>::infinity();
              double rootEnter = latest, latestSender = latest;
              const int root = members.front().second->root;
              for (const auto& m : members) {
                const double enter = callOf(m).enter;
                latest = std::max(latest, enter);
                if (m.first == root) rootEnter = enter;
                if (m.second->sends) latestSender = std::max(latestSender, enter);
              }
              for (const auto& m : members) {
                const Call& c = callOf(m);
                if (op == CollectiveOp::Barrier) add(kBarrier, m.first, c.path, c.line, clipped(latest - c.enter, c));
                else if (isNxN(op)) add(kNxN, m.first, c.path, c.line, clipped(latest - c.enter, c));
                else if (isOneToN(op) && m.first != root && root >= 0)
                  add(kLateBroadcast, m.first, c.path, c.line, clipped(rootEnter - c.enter, c));
                else if (isNToOne(op) && m.first == root)
                  add(kEarlyReduce, m.first, c.path, c.line, clipped(latestSender - c.enter, c));
              }
            });
  // Window collectives: fences (recorded as barriers on the window), creation and freeing.
  instances([](const Rank& r) -> const auto& { return r.windowCalls; },
            [&](const Members& members) {
              if (members.empty()) return;
              const CollectiveOp op = members.front().second->op;
              const char* metric = nullptr;
              if (op == CollectiveOp::Barrier) metric = kWaitAtFence;
              else if (op == CollectiveOp::CreateHandle || op == CollectiveOp::CreateHandleAndAllocate)
                metric = kWaitAtCreate;
              else if (op == CollectiveOp::DestroyHandle || op == CollectiveOp::DestroyHandleAndDeallocate)
                metric = kWaitAtFree;
              if (!metric) return;
              double latest = -std::numeric_limits<double>::infinity();
              double earliestExit = std::numeric_limits<double>::infinity();
              for (const auto& m : members) {
                latest = std::max(latest, callOf(m).enter);
                earliestExit = std::min(earliestExit, callOf(m).leave);
              }
              for (const auto& m : members) {
                const Call& c = callOf(m);
                add(metric, m.first, c.path, c.line, latest < earliestExit ? latest - c.enter : 0.0);
              }
            });
}

double RecordedWaits::value(const std::string& metric, int rank, const std::string& path, std::uint32_t line) const {
  double sum = 0.0;
  for (const auto& [key, seconds] : seconds_) {
    const auto& [m, r, p, l] = key;
    if (m == metric && r == rank && p == path && (line == 0 || l == line)) sum += seconds;
  }
  return sum;
}

std::vector<RecordedWaits::Cell> RecordedWaits::cells(const std::string& metric) const {
  std::vector<Cell> out;
  for (const auto& [key, seconds] : seconds_) {
    const auto& [m, r, p, l] = key;
    if (m == metric) out.push_back({r, p, l, seconds});
  }
  return out;
}

std::size_t RecordedWaits::calls(const std::string& metric, int rank, const std::string& path) const {
  std::size_t sum = 0;
  for (const auto& [key, count] : calls_) {
    const auto& [m, r, p, l] = key;
    if (m == metric && r == rank && p == path) sum += count;
  }
  return sum;
}

}  // namespace waitscope::test
