// Root causes of wait states (seed 001, after Böhme et al., ICPP 2010): delay
// costs (short-term and long-term, per family) and the classification of wait
// states (direct/indirect, propagating/terminal). docs/causes-delay.md has the
// definitions; in short:
//
// * Every wait state W of this location with a remote cause c (the forward
//   patterns' instances of p2p, collective and RMA active-target families; a
//   sub-pattern contained in another instance of the same call is the same
//   wait) is an edge of the synchronization graph. Its synchronization point on
//   c is the time t_S = W.end (c's arrival: the send enter of a Late Sender, the
//   last enter of a collective, the post of a Late Post, the last complete of an
//   Early Wait).
// * Synchronization interval: on each side, from the synchronization time
//   (enter, or the end of its own wait state) of the latest synchronizing call
//   involving the other location (a message with it, a
//   collective, fence, window create/free on a communicator containing both,
//   a post/start/complete/wait whose group names it, MPI_Init/Finalize, or the
//   start of the trace) up to the waiter's enter of W, or up to t_S on c.
// * Time profiles per call path over those intervals exclude the time of the
//   analyzed wait states. Delay d(p) = max(0, t_c(p) - t_w(p)); the wait states
//   of c inside its interval count with their waiting time v_k. D = sum d + sum v.
// * W explains its waiting time omega plus the cost phi propagated to it from
//   later wait states. Path p on c gets omega*d(p)/D short-term and phi*d(p)/D
//   long-term; wait state k on c gets (omega+phi)*v_k/D as its own phi, which it
//   passes on when the backward replay reaches it. So the delay costs add up
//   exactly to the waiting time of all analyzed wait states.
// * Indirect part of W: omega * sum v / D (direct: the rest). Propagating part
//   of a wait state: min(omega, sum of omega'*v/D over the later wait states it
//   explains); terminal: the rest.
//
// Exchange (backward replay, as seed 001): announcements of the graph edges in
// one batched all-to-all; then each rank walks its synchronization items from
// the end of the trace: at its own wait state it sends (non-blocking, p2p) the
// waiting time, propagated cost and interval profile to the cause; at a
// synchronization point that caused a remote wait it receives that message and
// charges costs. The direct/indirect split goes back to the waiters in one
// final all-to-all.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <unordered_map>
#include <vector>

#include "causes.h"

namespace waitscope::causes {
namespace {

using patterns::Metric;
using trace::CallPathId;
using trace::EventKind;
using trace::kNone;
using trace::Rank;

enum Family : int { kNoFamily = -1, kP2p = 0, kCollective = 1, kRma = 2 };

Family familyOf(Metric m) {
  switch (m) {
    case Metric::MpiLateSender:
    case Metric::MpiLateSenderWo:
    case Metric::MpiLswoDifferent:
    case Metric::MpiLswoSame:
    case Metric::MpiLateReceiver:
      return kP2p;
    case Metric::MpiBarrierWait:
    case Metric::MpiWaitNxN:
    case Metric::MpiLateBroadcast:
    case Metric::MpiEarlyReduce:
    case Metric::MpiEarlyScan:
    case Metric::MpiFinalizeWait:
      return kCollective;
    case Metric::MpiRmaSyncLatePost:
    case Metric::MpiRmaEarlyWait:
    case Metric::MpiRmaLateComplete:
    case Metric::MpiRmaWaitAtFence:
    case Metric::MpiRmaEarlyFence:
    case Metric::MpiRmaWaitAtCreate:
    case Metric::MpiRmaWaitAtFree:
    case Metric::MpiRmaEarlyTransfer:
      return kRma;
    default:
      return kNoFamily;  // passive target: contention, not delay (seed 001, future work)
  }
}

constexpr Metric kDelay[3] = {Metric::DelayP2p, Metric::DelayCollective, Metric::DelayRma};
constexpr Metric kDelayLong[3] = {Metric::DelayP2pLongterm, Metric::DelayCollectiveLongterm,
                                  Metric::DelayRmaLongterm};

// One analyzed wait state of this location.
struct Wait {
  CallPathId path;
  double start;
  double end;
  Rank cause;
  Family family;
  double phi = 0.0;          // cost of later wait states it explains (long-term)
  double directShare = 0.0;  // later waiting time it explains directly
};

// Wire format of one wait state, waiter -> cause.
struct WireHeader {
  std::uint64_t waitId;
  std::uint32_t family;
  std::uint32_t entries;
  double omega;
  double phi;
  double syncTime;
};
struct WireEntry {
  std::uint64_t pathKey;
  double time;
};
struct Announce {
  double waitId;
  double syncTime;
};
struct Reply {
  double waitId;
  double indirect;  // fraction of the waiting time
};

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 29);
}

class DelayAnalysis {
 public:
  DelayAnalysis(replay::ReplayContext& ctx, replay::LocalResult& result) : ctx_(ctx), result_(result) {}

  void run() {
    MPI_Comm_dup(ctx_.comms.world(), &comm_);
    collectWaits();
    buildSegments();
    buildSyncIndex();
    announce();
    backwardReplay();
    replyIndirect();
    MPI_Comm_free(&comm_);
  }

 private:
  // ---- local preparation ----
  void collectWaits() {
    std::vector<Wait> candidates;
    for (const replay::WaitInstance& w : result_.severities.instances()) {
      const Family f = familyOf(w.metric);
      if (f == kNoFamily || w.cause == kNone || w.cause == ctx_.worldRank ||
          w.cause >= static_cast<Rank>(ctx_.worldSize) || !(w.end > w.start) || w.callPath == kNone)
        continue;
      candidates.push_back({w.callPath, w.start, w.end, w.cause, f});
    }
    std::stable_sort(candidates.begin(), candidates.end(), [](const Wait& a, const Wait& b) {
      return a.start != b.start ? a.start < b.start : a.end > b.end;
    });
    for (const Wait& w : candidates) {
      // A sub-pattern (Late Complete in Early Wait, Early Fence in Wait at Fence) is the same wait.
      if (!waits_.empty() && w.start >= waits_.back().start && w.end <= waits_.back().end) continue;
      waits_.push_back(w);
    }
  }

  // Innermost call path over time: segment i is [segStart_[i], segStart_[i+1]).
  void buildSegments() {
    const auto& ev = ctx_.events.events;
    std::vector<CallPathId> stack;
    traceStart_ = ev.empty() ? 0.0 : ev.front().time;
    for (const trace::Event& e : ev) {
      if (e.kind != EventKind::Enter && e.kind != EventKind::Leave) continue;
      if (e.kind == EventKind::Enter) {
        stack.push_back(e.ref);
        const std::string& name = ctx_.regionName(e.ref);
        if (name == "MPI_Init" || name == "MPI_Init_thread" || name == "MPI_Finalize") globalSyncs_.push_back(e.time);
      } else if (!stack.empty()) {
        stack.pop_back();
      }
      const CallPathId top = stack.empty() ? kNone : stack.back();
      if (!segStart_.empty() && segStart_.back() == e.time) {
        segPath_.back() = top;
      } else {
        segStart_.push_back(e.time);
        segPath_.push_back(top);
      }
    }
    segStart_.push_back(ev.empty() ? 0.0 : ev.back().time);
    segPath_.push_back(kNone);
  }

  void buildSyncIndex() {
    const auto& defs = ctx_.defs();
    const auto& ev = ctx_.events;
    for (std::size_t i = 0; i < ev.events.size(); ++i) {
      const trace::Event& e = ev.events[i];
      const replay::Call* call = ctx_.calls.callOf(i);
      const double at = call ? call->enter : e.time;
      switch (e.kind) {
        case EventKind::MpiSend:
        case EventKind::MpiIsend:
        case EventKind::MpiRecv:
        case EventKind::MpiIrecv: {
          const auto& m = ev.message(e);
          const Rank peer = ctx_.worldRankOf(m.comm, m.peer);
          if (peer != kNone) perPeer_[peer].push_back(at);
          break;
        }
        case EventKind::MpiCollectiveEnd:
          perComm_[ev.collective(e).object].push_back(at);
          break;
        case EventKind::RmaCollectiveEnd: {
          const trace::WinId win = ev.collective(e).object;
          if (win < defs.windows.size()) perComm_[defs.windows[win].comm].push_back(at);
          break;
        }
        case EventKind::RmaWinCreate:
        case EventKind::RmaWinDestroy: {
          const trace::WinId win = ev.rmaRecord(e).win;
          if (win < defs.windows.size()) perComm_[defs.windows[win].comm].push_back(at);
          break;
        }
        case EventKind::RmaGroupSync: {
          const trace::GroupId g = ev.rmaRecord(e).group;
          if (g < defs.groups.size() && defs.groups[g].type != trace::GroupType::CommSelf)
            for (const Rank r : defs.groups[g].members) perPeer_[r].push_back(at);
          break;
        }
        default:
          break;
      }
    }
    for (auto& [peer, list] : perPeer_) std::sort(list.begin(), list.end());
    for (auto& [comm, list] : perComm_) {
      std::sort(list.begin(), list.end());
      std::vector<char> members(static_cast<std::size_t>(ctx_.worldSize), 0);
      if (comm < defs.comms.size()) {
        const trace::GroupId g = defs.comms[comm].group;
        if (g < defs.groups.size() && defs.groups[g].type != trace::GroupType::CommSelf)
          for (const Rank r : defs.groups[g].members)
            if (r < members.size()) members[r] = 1;
      }
      commMembers_[comm] = std::move(members);
    }
    std::sort(globalSyncs_.begin(), globalSyncs_.end());
  }

  static double before(const std::vector<double>& list, double t, double best) {
    const auto it = std::lower_bound(list.begin(), list.end(), t);
    if (it != list.begin()) best = std::max(best, *(it - 1));
    return best;
  }

  // Enter of the latest synchronizing call with `peer` entered before t.
  double previousSync(Rank peer, double t) const {
    double best = std::min(traceStart_, t);
    best = before(globalSyncs_, t, best);
    if (const auto it = perPeer_.find(peer); it != perPeer_.end()) best = before(it->second, t, best);
    for (const auto& [comm, list] : perComm_)
      if (commMembers_.at(comm)[peer]) best = before(list, t, best);
    // Synchronized where that call's own wait state ended (after a barrier wait,
    // both sides start from the last arrival; the completion parts count).
    const auto it = std::lower_bound(waits_.begin(), waits_.end(), best,
                                     [](const Wait& w, double v) { return w.start < v; });
    if (it != waits_.end() && it->start == best) best = std::min(it->end, t);
    return best;
  }

  // Time per call path in [a, b), without the analyzed wait states.
  std::map<CallPathId, double> profile(double a, double b) const {
    std::map<CallPathId, double> out;
    if (!(b > a) || segStart_.size() < 2) return out;
    std::size_t i = static_cast<std::size_t>(std::upper_bound(segStart_.begin(), segStart_.end(), a) -
                                             segStart_.begin());
    if (i > 0) --i;
    // First wait that ends after a.
    std::size_t k = static_cast<std::size_t>(
        std::partition_point(waits_.begin(), waits_.end(), [&](const Wait& w) { return w.end <= a; }) -
        waits_.begin());
    for (; i + 1 < segStart_.size() && segStart_[i] < b; ++i) {
      const double s = std::max(a, segStart_[i]);
      const double e = std::min(b, segStart_[i + 1]);
      if (!(e > s) || segPath_[i] == kNone) continue;
      double t = e - s;
      while (k < waits_.size() && waits_[k].end <= s) ++k;
      for (std::size_t j = k; j < waits_.size() && waits_[j].start < e; ++j)
        t -= std::max(0.0, std::min(e, waits_[j].end) - std::max(s, waits_[j].start));
      if (t > 0.0) out[segPath_[i]] += t;
    }
    return out;
  }

  std::uint64_t pathKey(CallPathId p) {
    if (p == kNone) return 0;
    if (const auto it = keys_.find(p); it != keys_.end()) return it->second;
    const trace::CallPath& cp = ctx_.trace.callTree[p];
    const std::uint64_t k = mix(mix(pathKey(cp.parent), cp.region), cp.callSite);
    keys_[p] = k;
    return k;
  }

  // ---- the synchronization graph ----
  void announce() {
    const auto n = static_cast<std::size_t>(ctx_.worldSize);
    std::vector<int> sendCount(n, 0), recvCount(n, 0);
    for (const Wait& w : waits_) ++sendCount[w.cause];
    MPI_Alltoall(sendCount.data(), 1, MPI_INT, recvCount.data(), 1, MPI_INT, comm_);
    std::vector<int> sdispl(n, 0), rdispl(n, 0), sbytes(n), rbytes(n), sdb(n), rdb(n);
    for (std::size_t p = 1; p < n; ++p) {
      sdispl[p] = sdispl[p - 1] + sendCount[p - 1];
      rdispl[p] = rdispl[p - 1] + recvCount[p - 1];
    }
    std::vector<Announce> out(waits_.size());
    {
      std::vector<int> fill(sdispl);
      for (std::size_t i = 0; i < waits_.size(); ++i)
        out[static_cast<std::size_t>(fill[waits_[i].cause]++)] = {static_cast<double>(i), waits_[i].end};
    }
    std::vector<Announce> in(static_cast<std::size_t>(rdispl[n - 1] + recvCount[n - 1]));
    const int size = static_cast<int>(sizeof(Announce));
    for (std::size_t p = 0; p < n; ++p) {
      sbytes[p] = sendCount[p] * size;
      rbytes[p] = recvCount[p] * size;
      sdb[p] = sdispl[p] * size;
      rdb[p] = rdispl[p] * size;
    }
    MPI_Alltoallv(out.data(), sbytes.data(), sdb.data(), MPI_BYTE, in.data(), rbytes.data(), rdb.data(), MPI_BYTE,
                  comm_);
    for (std::size_t p = 0; p < n; ++p)
      for (int k = 0; k < recvCount[p]; ++k) {
        const Announce& a = in[static_cast<std::size_t>(rdispl[p] + k)];
        incoming_.push_back({static_cast<Rank>(p), static_cast<std::uint64_t>(a.waitId), a.syncTime});
      }
  }

  // ---- backward replay ----
  struct Incoming {
    Rank waiter;
    std::uint64_t waitId;
    double syncTime;
  };

  void backwardReplay() {
    struct Item {
      double key;
      bool send;  // own wait state (send) or a remote wait state this rank caused (receive)
      std::size_t index;
    };
    std::vector<Item> items;
    items.reserve(waits_.size() + incoming_.size());
    for (std::size_t i = 0; i < waits_.size(); ++i) items.push_back({waits_[i].start, true, i});
    for (std::size_t i = 0; i < incoming_.size(); ++i) items.push_back({incoming_[i].syncTime, false, i});
    // Latest first; at equal times the (non-blocking) sends first.
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
      return a.key != b.key ? a.key > b.key : (a.send && !b.send);
    });
    for (const Item& item : items) {
      if (item.send) sendWait(item.index);
      else receiveWait(incoming_[item.index]);
    }
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
    requests_.clear();
    buffers_.clear();
  }

  void sendWait(std::size_t id) {
    Wait& w = waits_[id];
    const double omega = w.end - w.start;
    // Propagating / terminal (the later waiting time this one explains, at most itself).
    const double propagating = std::min(omega, w.directShare);
    if (propagating > 0.0) ctx_.severities.add(Metric::MpiWaitPropagating, w.path, propagating);
    if (omega - propagating > 0.0) ctx_.severities.add(Metric::MpiWaitTerminal, w.path, omega - propagating);

    const auto prof = profile(previousSync(w.cause, w.start), w.start);
    std::vector<char>& buf = buffers_.emplace_back(sizeof(WireHeader) + prof.size() * sizeof(WireEntry));
    WireHeader h{id, static_cast<std::uint32_t>(w.family), static_cast<std::uint32_t>(prof.size()), omega, w.phi,
                 w.end};
    std::memcpy(buf.data(), &h, sizeof h);
    std::size_t at = sizeof h;
    for (const auto& [path, t] : prof) {
      const WireEntry e{pathKey(path), t};
      std::memcpy(buf.data() + at, &e, sizeof e);
      at += sizeof e;
    }
    requests_.emplace_back();
    MPI_Isend(buf.data(), static_cast<int>(buf.size()), MPI_BYTE, static_cast<int>(w.cause), kTag, comm_,
              &requests_.back());
  }

  void receiveWait(const Incoming& in) {
    // Messages of one waiter may arrive in another order than needed: stash them.
    auto& pending = stash_[in.waiter];
    while (pending.find(in.waitId) == pending.end()) {
      MPI_Status status;
      MPI_Probe(static_cast<int>(in.waiter), kTag, comm_, &status);
      int count = 0;
      MPI_Get_count(&status, MPI_BYTE, &count);
      std::vector<char> buf(static_cast<std::size_t>(count));
      MPI_Recv(buf.data(), count, MPI_BYTE, static_cast<int>(in.waiter), kTag, comm_, MPI_STATUS_IGNORE);
      WireHeader h;
      std::memcpy(&h, buf.data(), sizeof h);
      pending.emplace(h.waitId, std::move(buf));
    }
    const auto node = pending.extract(in.waitId);
    const std::vector<char>& buf = node.mapped();
    WireHeader h;
    std::memcpy(&h, buf.data(), sizeof h);
    std::unordered_map<std::uint64_t, double> theirs;
    for (std::uint32_t k = 0; k < h.entries; ++k) {
      WireEntry e;
      std::memcpy(&e, buf.data() + sizeof h + k * sizeof e, sizeof e);
      theirs[e.pathKey] += e.time;
    }
    charge(in, h, theirs);
  }

  // Charges one remote wait state to this (causing) location's interval.
  void charge(const Incoming& in, const WireHeader& h, const std::unordered_map<std::uint64_t, double>& theirs) {
    const double a = previousSync(in.waiter, h.syncTime);
    const double b = h.syncTime;
    const auto mine = profile(a, b);
    std::vector<std::pair<CallPathId, double>> delays;
    double sum = 0.0;
    for (const auto& [path, t] : mine) {
      const auto it = theirs.find(pathKey(path));
      const double d = t - (it == theirs.end() ? 0.0 : it->second);
      if (d > 0.0) {
        delays.emplace_back(path, d);
        sum += d;
      }
    }
    std::vector<std::pair<std::size_t, double>> propagated;  // own wait states in the interval
    double waited = 0.0;
    const auto first = static_cast<std::size_t>(
        std::partition_point(waits_.begin(), waits_.end(), [&](const Wait& w) { return w.end <= a; }) -
        waits_.begin());
    for (std::size_t k = first; k < waits_.size() && waits_[k].start < b; ++k) {
      const double v = std::min(b, waits_[k].end) - std::max(a, waits_[k].start);
      if (v > 0.0) {
        propagated.emplace_back(k, v);
        waited += v;
      }
    }
    const double total = sum + waited;
    const auto family = static_cast<std::size_t>(h.family);
    double indirect = 0.0;
    if (total > 0.0) {
      for (const auto& [path, d] : delays) chargePath(family, path, h.omega * d / total, h.phi * d / total);
      for (const auto& [k, v] : propagated) {
        waits_[k].phi += (h.omega + h.phi) * v / total;
        waits_[k].directShare += h.omega * v / total;
      }
      indirect = waited / total;
    } else {
      // No excess time and no wait states in the interval (skewed or equal
      // intervals): the interval's own time takes the cost, else the call at t_S.
      double all = 0.0;
      for (const auto& [path, t] : mine) all += t;
      if (all > 0.0) {
        for (const auto& [path, t] : mine) chargePath(family, path, h.omega * t / all, h.phi * t / all);
      } else {
        chargePath(family, pathAt(b), h.omega, h.phi);
      }
    }
    replies_[in.waiter].push_back({static_cast<double>(in.waitId), indirect});
  }

  void chargePath(std::size_t family, CallPathId path, double shortTerm, double longTerm) {
    if (path == kNone) return;
    ctx_.severities.add(kDelay[family], path, shortTerm + longTerm);
    if (longTerm > 0.0) ctx_.severities.add(kDelayLong[family], path, longTerm);
  }

  // The call path active at t (else the nearest one before, else after).
  CallPathId pathAt(double t) const {
    std::size_t i = static_cast<std::size_t>(std::upper_bound(segStart_.begin(), segStart_.end(), t) -
                                             segStart_.begin());
    for (std::size_t j = i; j-- > 0;)
      if (segPath_[j] != kNone) return segPath_[j];
    for (std::size_t j = i; j < segPath_.size(); ++j)
      if (segPath_[j] != kNone) return segPath_[j];
    return kNone;
  }

  // ---- direct / indirect, back to the waiters ----
  void replyIndirect() {
    const auto n = static_cast<std::size_t>(ctx_.worldSize);
    std::vector<int> sendCount(n, 0), recvCount(n, 0), sdispl(n, 0), rdispl(n, 0);
    for (const auto& [p, list] : replies_) sendCount[p] = static_cast<int>(list.size() * 2);
    MPI_Alltoall(sendCount.data(), 1, MPI_INT, recvCount.data(), 1, MPI_INT, comm_);
    for (std::size_t p = 1; p < n; ++p) {
      sdispl[p] = sdispl[p - 1] + sendCount[p - 1];
      rdispl[p] = rdispl[p - 1] + recvCount[p - 1];
    }
    std::vector<double> out(static_cast<std::size_t>(sdispl[n - 1] + sendCount[n - 1]));
    std::vector<double> in(static_cast<std::size_t>(rdispl[n - 1] + recvCount[n - 1]));
    for (const auto& [p, list] : replies_)
      for (std::size_t k = 0; k < list.size(); ++k) {
        out[static_cast<std::size_t>(sdispl[p]) + 2 * k] = list[k].waitId;
        out[static_cast<std::size_t>(sdispl[p]) + 2 * k + 1] = list[k].indirect;
      }
    MPI_Alltoallv(out.data(), sendCount.data(), sdispl.data(), MPI_DOUBLE, in.data(), recvCount.data(),
                  rdispl.data(), MPI_DOUBLE, comm_);
    for (std::size_t k = 0; k + 1 < in.size(); k += 2) {
      const Wait& w = waits_[static_cast<std::size_t>(in[k])];
      const double omega = w.end - w.start;
      const double indirect = std::clamp(in[k + 1], 0.0, 1.0) * omega;
      if (indirect > 0.0) ctx_.severities.add(Metric::MpiWaitIndirect, w.path, indirect);
      if (omega - indirect > 0.0) ctx_.severities.add(Metric::MpiWaitDirect, w.path, omega - indirect);
    }
  }

  static constexpr int kTag = 4201;

  replay::ReplayContext& ctx_;
  replay::LocalResult& result_;
  MPI_Comm comm_ = MPI_COMM_NULL;

  std::vector<Wait> waits_;  // by start time, non-overlapping
  std::vector<double> segStart_;
  std::vector<CallPathId> segPath_;
  double traceStart_ = 0.0;
  std::vector<double> globalSyncs_;
  std::unordered_map<Rank, std::vector<double>> perPeer_;
  std::map<trace::CommId, std::vector<double>> perComm_;
  std::map<trace::CommId, std::vector<char>> commMembers_;
  std::unordered_map<CallPathId, std::uint64_t> keys_;

  std::vector<Incoming> incoming_;
  std::deque<std::vector<char>> buffers_;
  std::vector<MPI_Request> requests_;
  std::map<Rank, std::map<std::uint64_t, std::vector<char>>> stash_;
  std::map<Rank, std::vector<Reply>> replies_;
};

}  // namespace

void analyzeDelays(replay::ReplayContext& ctx, replay::LocalResult& result) { DelayAnalysis(ctx, result).run(); }

}  // namespace waitscope::causes
