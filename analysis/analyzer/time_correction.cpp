#include "analysis/analyzer/time_correction.h"

#include <mpi.h>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "analysis/analyzer/controlled_logical_clock.h"
#include "analysis/patterns/rma_active_calls.h"
#include "analysis/patterns/rma_window_ranks.h"
#include "analysis/replay/yielding_wait.h"

namespace waitscope::analyzer {

namespace {

using patterns::Collectives;
using patterns::rma_active::CommRanks;
using patterns::rma_active::commRanks;
using patterns::rma_active::GroupCall;
using patterns::rma_active::groupCall;
using patterns::rma_active::groupInComm;
using patterns::rma_active::WindowCall;
using patterns::rma_active::windowCall;
using trace::EventKind;
using trace::kNone;

constexpr double kNever = -std::numeric_limits<double>::infinity();
constexpr std::size_t kBatch = 1 << 15;  // group operations per reduction: bounds memory, keeps messages large
constexpr int kMaxRounds = 1000;
constexpr std::uint64_t kRmaKey = std::uint64_t{1} << 63;  // channel keys of GATS epochs; others are (comm, tag)

// A message from an export slot of this location to a bound slot of another one, matched per
// (sender, receiver, key) in order.
struct Outgoing {
  std::uint32_t dest;  // world rank
  std::uint64_t key;
  std::uint32_t slot;  // export slot
};
struct Incoming {
  std::uint32_t source;  // world rank
  std::uint64_t key;
  std::uint32_t slot;  // bound slot
};

// Operations over a communicator whose members all contribute a time; a member's exit may wait
// for the maximum.
struct GroupOp {
  std::uint32_t enterSlot;  // export slot
  std::uint32_t leaveSlot;  // bound slot, kNone if this member's exit waits for nobody
  bool contributes;         // false: contributes -inf (1-to-N operations: only the root counts)
};
struct Group {
  const replay::LocationComm* comm;
  std::vector<GroupOp> ops;
  bool lowerRanks = false;  // a member's exit waits for the ranks below it only (scans)
};

// An RMA window as the active-target replay follows it.
struct Window {
  CommRanks ranks;
  int size = 0;
  bool accessOpen = false, exposureOpen = false;
  std::vector<int> targets, origins;
  std::vector<std::uint32_t> transfersTo;  // per target of the open access epoch
  int passiveEpochs = 0;
  std::uint64_t fences = 0;       // since creation
  std::vector<int> epochTargets;  // targets of transfers since the last epoch-closing fence
};
struct Fence {
  std::uint32_t enter, leave;  // events
  bool closes;
  std::vector<int> targets;  // this rank's transfer targets in the epoch it closes
};

class Edges {
 public:
  Edges(const replay::ReplayContext& ctx, const patterns::PointToPoint& p2p, const Collectives& collectives)
      : ctx_(ctx) {
    addMessages(p2p);
    addCollectives(collectives);
    addRma();
  }

  std::vector<std::uint32_t> exported, bounded;
  // Per bound slot, violations counted besides its event's own if the slot's relation is broken:
  // the transfers of an access epoch to a target that posted after the epoch ended.
  std::vector<std::uint32_t> extra;
  std::vector<Outgoing> outgoing;
  std::vector<Incoming> incoming;  // in matching order
  std::vector<Group> groups;       // in the same order on every member

 private:
  std::uint32_t exportSlot(std::uint32_t event) {
    exported.push_back(event);
    return static_cast<std::uint32_t>(exported.size() - 1);
  }
  std::uint32_t boundSlot(std::uint32_t event) {
    bounded.push_back(event);
    extra.push_back(0);
    return static_cast<std::uint32_t>(bounded.size() - 1);
  }

  void addMessages(const patterns::PointToPoint& p2p) {
    for (const auto& s : p2p.sends()) {
      const std::optional<replay::Call> call = ctx_.calls.callById(s.call);
      const std::uint32_t event = call ? call->enterEvent : s.event;
      outgoing.push_back({s.dest, std::uint64_t{s.comm} << 32 | s.tag, exportSlot(event)});
    }
    // Matched in posting order, as MPI matches them.
    const auto& receives = p2p.receives();
    std::vector<std::uint32_t> order(receives.size());
    for (std::uint32_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return receives[a].postKey < receives[b].postKey; });
    for (const std::uint32_t k : order) {
      const auto& r = receives[k];
      incoming.push_back({r.source, std::uint64_t{r.comm} << 32 | r.tag, boundSlot(r.event)});
    }
  }

  void addCollectives(const Collectives& collectives) {
    const auto& ops = collectives.operations();
    for (trace::CommId c = 0; c < ops.size(); ++c) {
      const replay::LocationComm* comm = ctx_.comms.get(c);
      if (!comm || comm->size() == 1) continue;
      const trace::Rank me = ctx_.comms.rank(c);
      Group g{comm, {}, false}, scans{comm, {}, true};
      for (const Collectives::Operation& o : ops[c]) {
        const bool isRoot = o.root == me;
        const std::uint32_t enter = o.enterEvent, leave = o.leaveEvent;
        switch (o.kind) {
          case Collectives::Kind::Barrier:
          case Collectives::Kind::NxN:
            g.ops.push_back({exportSlot(enter), boundSlot(leave), true});
            break;
          case Collectives::Kind::Scan:
            scans.ops.push_back({exportSlot(enter), me == 0 ? kNone : boundSlot(leave), true});
            break;
          case Collectives::Kind::OneToN:
            if (o.root == kNone) break;  // the same on every member
            g.ops.push_back({exportSlot(enter), isRoot ? kNone : boundSlot(leave), isRoot});
            break;
          case Collectives::Kind::NToOne:
            if (o.root == kNone) break;
            g.ops.push_back({exportSlot(enter), isRoot ? boundSlot(leave) : kNone, true});
            break;
          default:
            break;
        }
      }
      if (!g.ops.empty()) groups.push_back(std::move(g));
      if (!scans.ops.empty()) groups.push_back(std::move(scans));
    }
  }

  // The RMA active-target relations, walking the epochs as the active-target replay does
  // (rma_active_patterns.cpp): the same windows, epochs and transfers count.
  void addRma() {
    const auto& defs = ctx_.defs();
    if (defs.windows.empty()) return;
    std::unordered_map<trace::WinId, Window> windows;
    std::vector<std::vector<Fence>> fences(defs.windows.size());
    const auto& ev = ctx_.events;
    const std::vector<std::uint32_t>& nonRegion = ctx_.calls.nonRegionEvents();
    auto world = [&](const Window& w, int commRank) { return w.ranks.members[static_cast<std::size_t>(commRank)]; };
    for (std::size_t k = 0; k < nonRegion.size(); ++k) {
      const std::uint32_t i = nonRegion[k];
      const trace::Event& e = ctx_.calls.nonRegionEvent(k);
      switch (e.kind) {
        case EventKind::RmaCollectiveEnd: {
          const auto& rec = ev.collective(e);
          if (rec.object >= defs.windows.size()) break;
          const std::optional<replay::Call> call = ctx_.calls.callOf(i);  // a record outside every call stands for itself
          const WindowCall what = windowCall(rec.op);
          if (what == WindowCall::Create) {
            Window& w = windows[rec.object];
            w = Window{};
            w.ranks = commRanks(defs, defs.windows[rec.object].comm, ctx_.worldRank, ctx_.worldSize);
            w.size = static_cast<int>(w.ranks.members.size());
          } else if (what == WindowCall::Free) {
            windows.erase(rec.object);
          } else if (what == WindowCall::Fence) {
            Fence f{call ? call->enterEvent : i, call ? call->leaveEvent : i, false, {}};
            if (const auto it = windows.find(rec.object); it != windows.end()) {
              Window& w = it->second;
              if (w.fences++ > 0) {
                f.closes = true;
                f.targets.swap(w.epochTargets);
              }
            }
            fences[rec.object].push_back(std::move(f));
          }
          break;
        }
        case EventKind::RmaPut:
        case EventKind::RmaGet:
        case EventKind::RmaAtomic: {
          const auto& rec = ev.rmaRecord(e);
          const auto it = windows.find(rec.win);
          if (it == windows.end() || rec.remote >= static_cast<std::uint32_t>(it->second.size)) break;
          Window& w = it->second;
          const int target = static_cast<int>(rec.remote);
          if (w.accessOpen) {
            const auto t = std::find(w.targets.begin(), w.targets.end(), target);
            if (t != w.targets.end()) ++w.transfersTo[static_cast<std::size_t>(t - w.targets.begin())];
          } else if (w.passiveEpochs == 0) {
            w.epochTargets.push_back(target);
          }
          break;
        }
        case EventKind::RmaRequestLock:
          if (const auto it = windows.find(ev.rmaRecord(e).win); it != windows.end()) ++it->second.passiveEpochs;
          break;
        case EventKind::RmaReleaseLock:
          if (const auto it = windows.find(ev.rmaRecord(e).win); it != windows.end())
            it->second.passiveEpochs = std::max(0, it->second.passiveEpochs - 1);
          break;
        case EventKind::RmaGroupSync: {
          const auto& rec = ev.rmaRecord(e);
          const std::optional<replay::Call> call = ctx_.calls.callOf(i);
          const auto it = windows.find(rec.win);
          if (!call || it == windows.end()) break;
          Window& w = it->second;
          const std::uint64_t post = kRmaKey | std::uint64_t{rec.win} << 1, complete = post | 1;
          std::string problem;
          switch (groupCall(ctx_.regionName(call->path))) {
            case GroupCall::Post: {
              w.origins = groupInComm(defs, rec.group, w.ranks, problem);
              const std::uint32_t slot = exportSlot(call->enterEvent);
              for (const int o : w.origins) outgoing.push_back({world(w, o), post, slot});
              w.exposureOpen = true;
              break;
            }
            case GroupCall::Start:
              w.targets = groupInComm(defs, rec.group, w.ranks, problem);
              w.transfersTo.assign(w.targets.size(), 0);
              w.accessOpen = true;
              break;
            case GroupCall::Complete: {
              if (!w.accessOpen) break;
              const std::uint32_t slot = exportSlot(call->enterEvent);
              for (std::size_t t = 0; t < w.targets.size(); ++t) {
                const std::uint32_t bound = boundSlot(call->leaveEvent);
                extra[bound] = w.transfersTo[t];
                incoming.push_back({world(w, w.targets[t]), post, bound});
                outgoing.push_back({world(w, w.targets[t]), complete, slot});
              }
              w.accessOpen = false;
              break;
            }
            case GroupCall::Test:
              if (rec.syncLevel == trace::kSyncNone) break;
              [[fallthrough]];
            case GroupCall::Wait:
              if (!w.exposureOpen) break;
              for (const int o : w.origins) incoming.push_back({world(w, o), complete, boundSlot(call->leaveEvent)});
              w.exposureOpen = false;
              break;
            case GroupCall::Other:
              break;
          }
          break;
        }
        default:
          break;
      }
    }
    addFences(fences);
  }

  // Per window, in window order on every member: which fences closed an epoch in which another
  // member transferred to this one (one reduction over all of the window's fences), and the
  // fences as a group.
  void addFences(const std::vector<std::vector<Fence>>& fences) {
    const auto& defs = ctx_.defs();
    for (trace::WinId id = 0; id < fences.size(); ++id) {
      const auto& list = fences[id];
      if (list.empty()) continue;
      const CommRanks ranks = commRanks(defs, defs.windows[id].comm, ctx_.worldRank, ctx_.worldSize);
      if (ranks.self || !ranks.problem.empty()) continue;
      const replay::LocationComm* comm = ctx_.comms.get(defs.windows[id].comm);
      if (!comm || comm->size() == 1) continue;
      const std::size_t members = ranks.members.size(), n = list.size();
      std::vector<unsigned char> mine(members * n, 0), targeted(n, 0);
      for (std::size_t f = 0; f < n; ++f)
        for (const int t : list[f].targets) mine[static_cast<std::size_t>(t) * n + f] = 1;
      comm->reduceScatterBlock(mine.data(), targeted.data(), static_cast<int>(n), MPI_UNSIGNED_CHAR, MPI_MAX);
      Group g{comm, {}, false};
      for (std::size_t f = 0; f < n; ++f) {
        const bool waits = list[f].closes && targeted[f] != 0;
        g.ops.push_back({exportSlot(list[f].enter), waits ? boundSlot(list[f].leave) : kNone, true});
      }
      groups.push_back(std::move(g));
    }
  }

  const replay::ReplayContext& ctx_;
};

// The exchange of one round: the times of the export slots out, the latest time each bound slot
// waits for in (kNever where none).
class Exchange {
 public:
  Exchange(const replay::ReplayContext& ctx, const Edges& edges)
      : ctx_(ctx), edges_(edges) {
    const auto nu = static_cast<std::size_t>(ctx.worldSize);
    sendCount_.assign(nu, 0);
    recvCount_.assign(nu, 0);
    order_.resize(edges.outgoing.size());
    for (std::uint32_t k = 0; k < order_.size(); ++k) order_[k] = k;
    std::stable_sort(order_.begin(), order_.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return edges.outgoing[a].dest < edges.outgoing[b].dest; });
    for (const Outgoing& o : edges.outgoing) ++sendCount_[o.dest];
    const replay::LocationComm& world = ctx.comms.world();
    world.alltoall(sendCount_.data(), 1, MPI_INT, recvCount_.data(), 1, MPI_INT);
    sendOffset_.assign(nu + 1, 0);
    recvOffset_.assign(nu + 1, 0);
    for (std::size_t p = 0; p < nu; ++p) {
      sendOffset_[p + 1] = sendOffset_[p] + sendCount_[p];
      recvOffset_[p + 1] = recvOffset_[p] + recvCount_[p];
    }
    // The keys, once: each incoming message's position for its bound slot.
    std::vector<std::uint64_t> keys(order_.size()), theirs(static_cast<std::size_t>(recvOffset_[nu]));
    for (std::size_t k = 0; k < order_.size(); ++k) keys[k] = edges.outgoing[order_[k]].key;
    world.alltoallv(keys.data(), sendCount_.data(), sendOffset_.data(), MPI_UINT64_T, theirs.data(), recvCount_.data(),
                    recvOffset_.data(), MPI_UINT64_T);
    std::vector<std::map<std::uint64_t, std::vector<std::uint32_t>>> channels(nu);
    for (std::size_t src = 0; src < nu; ++src)
      for (int k = recvOffset_[src]; k < recvOffset_[src + 1]; ++k)
        channels[src][theirs[static_cast<std::size_t>(k)]].push_back(static_cast<std::uint32_t>(k));
    std::vector<std::map<std::uint64_t, std::size_t>> cursor(nu);
    position_.assign(edges.incoming.size(), kNone);
    for (std::size_t k = 0; k < edges.incoming.size(); ++k) {
      const Incoming& in = edges.incoming[k];
      if (in.source >= nu) continue;
      const auto it = channels[in.source].find(in.key);
      if (it == channels[in.source].end()) continue;
      std::size_t& c = cursor[in.source][in.key];
      if (c < it->second.size()) position_[k] = it->second[c++];
    }
    received_.resize(static_cast<std::size_t>(recvOffset_[nu]));
    outgoing_.resize(order_.size());
  }

  void run(const std::vector<double>& exported, std::vector<double>& waitsFor) {
    waitsFor.assign(edges_.bounded.size(), kNever);
    for (std::size_t k = 0; k < order_.size(); ++k) outgoing_[k] = exported[edges_.outgoing[order_[k]].slot];
    ctx_.comms.world().alltoallv(outgoing_.data(), sendCount_.data(), sendOffset_.data(), MPI_DOUBLE, received_.data(),
                                 recvCount_.data(), recvOffset_.data(), MPI_DOUBLE);
    for (std::size_t k = 0; k < edges_.incoming.size(); ++k)
      if (position_[k] != kNone) {
        double& w = waitsFor[edges_.incoming[k].slot];
        w = std::max(w, received_[position_[k]]);
      }
    for (const Group& g : edges_.groups) {
      for (std::size_t from = 0; from < g.ops.size(); from += kBatch) {
        const std::size_t n = std::min(kBatch, g.ops.size() - from);
        values_.resize(n);
        latest_.resize(n);
        for (std::size_t k = 0; k < n; ++k) {
          const GroupOp& o = g.ops[from + k];
          values_[k] = o.contributes ? exported[o.enterSlot] : kNever;
        }
        if (g.lowerRanks)
          g.comm->exscan(values_.data(), latest_.data(), static_cast<int>(n), MPI_DOUBLE, MPI_MAX);
        else
          g.comm->allreduce(values_.data(), latest_.data(), static_cast<int>(n), MPI_DOUBLE, MPI_MAX);
        for (std::size_t k = 0; k < n; ++k) {
          const GroupOp& o = g.ops[from + k];
          if (o.leaveSlot != kNone) waitsFor[o.leaveSlot] = std::max(waitsFor[o.leaveSlot], latest_[k]);
        }
      }
    }
  }

 private:
  const replay::ReplayContext& ctx_;
  const Edges& edges_;
  std::vector<std::uint32_t> order_;  // outgoing messages by destination
  std::vector<int> sendCount_, recvCount_, sendOffset_, recvOffset_;
  std::vector<std::uint32_t> position_;  // per incoming message: its place in received_, kNone if unmatched
  std::vector<double> outgoing_, received_, values_, latest_;
};

}  // namespace

TimeCorrection correctClocks(const replay::ReplayContext& ctx, const patterns::PointToPoint& p2p,
                             const patterns::Collectives& collectives) {
  TimeCorrection out;
  const Edges edges(ctx, p2p, collectives);
  const auto& events = ctx.events.events;
  const ControlledLogicalClock clock(events, edges.exported, edges.bounded);
  Exchange exchange(ctx, edges);
  const replay::LocationComm& world = ctx.comms.world();

  // Round 1 on the recorded times: a relation is broken where a bounded event is earlier than
  // what it waits for. Counted as the pattern search counts violations: once per event (a call
  // that completes several receives once per receive: each has its own completion record), and
  // once more per transfer of an access epoch that ended before its target posted.
  std::vector<double> exported, waitsFor, bounds(edges.bounded.size(), kNever);
  clock.forward(bounds, exported);
  exchange.run(exported, waitsFor);
  out.rounds = 1;
  {
    std::vector<std::uint32_t> broken;
    unsigned long long mine = 0;
    for (std::size_t k = 0; k < waitsFor.size(); ++k)
      if (waitsFor[k] > events[edges.bounded[k]].time) {
        broken.push_back(edges.bounded[k]);
        mine += edges.extra[k];
      }
    std::sort(broken.begin(), broken.end());
    mine += static_cast<unsigned long long>(std::unique(broken.begin(), broken.end()) - broken.begin());
    unsigned long long all = 0;
    world.allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM);
    out.violations = all;
  }
  if (out.violations == 0) return out;

  std::vector<double> next;
  for (;;) {
    for (std::size_t k = 0; k < bounds.size(); ++k) bounds[k] = waitsFor[k] + kMinLatency;
    clock.forward(bounds, exported);
    exchange.run(exported, next);
    ++out.rounds;
    int changed = next != waitsFor ? 1 : 0, anyChanged = 0;
    world.allreduce(&changed, &anyChanged, 1, MPI_INT, MPI_MAX);
    waitsFor.swap(next);
    if (!anyChanged) break;
    if (out.rounds >= kMaxRounds) {
      out.converged = false;
      for (std::size_t k = 0; k < bounds.size(); ++k) bounds[k] = waitsFor[k] + kMinLatency;
      break;
    }
  }
  out.applied = true;
  out.correction = clock.correction(bounds);
  return out;
}

}  // namespace waitscope::analyzer
