#include "analysis/patterns/collective_patterns.h"

#include <mpi.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <sstream>
#include <vector>

#include "analysis/replay/yielding_wait.h"

namespace waitscope::patterns {

using metrics::Metric;
namespace {

using trace::CollectiveOp;
using trace::EventKind;
constexpr double kInf = std::numeric_limits<double>::infinity();
// Operations per exchange: keeps the messages large (64 KiB of maxima) and the memory small (half
// a megabyte), whatever the number of operations.
constexpr std::size_t kBatch = 1 << 12;

using Kind = Collectives::Kind;
using Operation = Collectives::Operation;

Kind kindOf(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::Barrier:
      return Kind::Barrier;
    case CollectiveOp::Allgather:
    case CollectiveOp::Allgatherv:
    case CollectiveOp::Alltoall:
    case CollectiveOp::Alltoallv:
    case CollectiveOp::Alltoallw:
    case CollectiveOp::Allreduce:
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::ReduceScatterBlock:
      return Kind::NxN;
    case CollectiveOp::Bcast:
    case CollectiveOp::Scatter:
    case CollectiveOp::Scatterv:
      return Kind::OneToN;
    case CollectiveOp::Reduce:
    case CollectiveOp::Gather:
    case CollectiveOp::Gatherv:
      return Kind::NToOne;
    case CollectiveOp::Scan:
    case CollectiveOp::Exscan:
      return Kind::Scan;
    default:
      return Kind::Other;
  }
}

// MPI_COMM_WORLD among the trace's communicators: the first one whose rank i
// is world rank i for every rank.
trace::CommId worldComm(const trace::Definitions& defs) {
  const std::size_t n = defs.worldLocations.size();
  for (trace::CommId c = 0; c < defs.comms.size(); ++c) {
    if (!defs.isMpiComm(c) || defs.commSize(c) != n) continue;  // a CUDA group may number 0..n-1 too
    bool identity = true;
    for (trace::Rank r = 0; r < n && identity; ++r) identity = defs.worldRank(c, r) == r;
    if (identity) return c;
  }
  return trace::kNone;
}

// The collective operations of this location per trace communicator, in order,
// from one pass over the events. MPI_Init and MPI_Finalize count as operations on
// MPI_COMM_WORLD: they carry no collective record, so they are found by region.
std::vector<std::vector<Operation>> operationsByComm(const replay::ReplayContext& ctx) {
  const auto& defs = ctx.defs();
  std::vector<std::vector<Operation>> ops(defs.comms.size());
  // MPI_Init and MPI_Finalize synchronize MPI_COMM_WORLD (those the trace left).
  std::vector<Operation> init, finalize;
  for (const replay::Call& call : ctx.calls.initCalls())
    if (replay::CallIndex::left(call))
      init.push_back({Kind::Init, false, 0xfffffffeu, trace::kNone, call.enterEvent, call.leaveEvent});
  for (const replay::Call& call : ctx.calls.finalizeCalls())
    if (replay::CallIndex::left(call))
      finalize.push_back({Kind::Finalize, false, 0xffffffffu, trace::kNone, call.enterEvent, call.leaveEvent});
  const auto& ev = ctx.events;
  const std::vector<std::uint32_t>& nonRegion = ctx.calls.nonRegionEvents();
  for (std::size_t k = 0; k < nonRegion.size(); ++k) {
    const trace::Event& e = ctx.calls.nonRegionEvent(k);
    if (e.kind != EventKind::MpiCollectiveEnd) continue;
    const std::optional<replay::Call> call = ctx.calls.callOfEntry(k);
    const auto& c = ev.collective(e);
    // Collectives on inter-communicators are not analyzed (the reader says so).
    if (!call || c.object >= ops.size() || defs.isInterComm(c.object)) continue;
    ops[c.object].push_back({kindOf(c.op), c.sent > 0, static_cast<std::uint32_t>(c.op) << 24 | (c.root & 0xffffff),
                             c.root, call->enterEvent, call->leaveEvent});
  }
  if (const trace::CommId w = worldComm(defs); w != trace::kNone) {
    init.insert(init.end(), ops[w].begin(), ops[w].end());
    init.insert(init.end(), finalize.begin(), finalize.end());
    ops[w] = std::move(init);
  }
  return ops;
}

// Communicators this rank takes part in with others.
bool exchanged(const replay::ReplayContext& ctx, trace::CommId c) {
  const replay::LocationComm* comm = ctx.comms.get(c);
  return comm && comm->size() > 1;
}

struct DoubleInt {
  double value;
  int rank;
};

}  // namespace

Collectives::Collectives(replay::ReplayContext& ctx) : ctx_(ctx), ops_(operationsByComm(ctx)) {}

std::string Collectives::validate() const {
  const auto& ctx = ctx_;
  const auto& ops = ops_;
  std::string error;
  for (trace::CommId c = 0; c < ops.size(); ++c) {
    if (!exchanged(ctx, c)) {
      if (!ops[c].empty() && !ctx.comms.get(c) && error.empty()) {
        std::ostringstream out;
        out.precision(9);
        const replay::Call call = ops[c][0].call(ctx.events.events);
        out << "rank " << ctx.worldRank << ": " << ctx.regionName(call.path) << " at " << std::fixed
            << call.enter << " s uses communicator " << c << ", which the trace does not define for this rank";
        error = out.str();
      }
      continue;
    }
    const replay::LocationComm& comm = *ctx.comms.get(c);
    // Count, then a checksum-free comparison of every operation's code via min/max.
    long long count[2] = {static_cast<long long>(ops[c].size()), -static_cast<long long>(ops[c].size())};
    long long extreme[2];
    comm.allreduce(count, extreme, 2, MPI_LONG_LONG, MPI_MIN);
    if (extreme[0] != -extreme[1]) {
      if (error.empty()) {
        std::ostringstream out;
        out << "rank " << ctx.worldRank << ": communicator " << c << " (" << ctx.defs().comms[c].name
            << "): its members recorded different numbers of collective operations (" << extreme[0] << " to "
            << -extreme[1] << "; this rank " << ops[c].size() << ")";
        error = out.str();
      }
      continue;
    }
    std::vector<long long> codes(2 * ops[c].size()), mins(codes.size());
    for (std::size_t k = 0; k < ops[c].size(); ++k) {
      codes[2 * k] = ops[c][k].code;
      codes[2 * k + 1] = -static_cast<long long>(ops[c][k].code);
    }
    comm.allreduce(codes.data(), mins.data(), static_cast<int>(codes.size()), MPI_LONG_LONG, MPI_MIN);
    for (std::size_t k = 0; k < ops[c].size(); ++k) {
      if (mins[2 * k] == -mins[2 * k + 1]) continue;
      if (error.empty()) {
        std::ostringstream out;
        out.precision(9);
        const replay::Call call = ops[c][k].call(ctx.events.events);
        out << "rank " << ctx.worldRank << ": " << ctx.regionName(call.path) << " at " << std::fixed
            << call.enter << " s (collective " << k + 1 << " on communicator " << c
            << ") does not match the operation or root the other members recorded";
        error = out.str();
      }
      break;
    }
  }
  return error;
}

std::uint64_t Collectives::detect() {
  auto& ctx = ctx_;
  std::uint64_t violations = 0;
  const auto& ops = ops_;
  auto& sev = ctx.severities;
  const auto& defs = ctx.defs();
  const std::vector<trace::Event>& events = ctx.events.events;
  // Per operation of a batch: latest enter (and who), earliest leave, the root's enter, the latest
  // enter of a process that sends data (and who), the latest enter of lower ranks.
  std::vector<DoubleInt> enter, maxEnter, negLeave, minLeave, sender, lastSender, lowerMax;
  std::vector<double> rootEnter, rootMax;
  for (trace::CommId c = 0; c < ops.size(); ++c) {
    if (!exchanged(ctx, c)) continue;
    const replay::LocationComm& comm = *ctx.comms.get(c);
    const trace::Rank me = ctx.comms.rank(c);
    auto world = [&](int rank) { return defs.worldRank(c, static_cast<trace::Rank>(rank)); };
    const auto& list = ops[c];
    for (std::size_t from = 0; from < list.size(); from += kBatch) {
      const std::size_t n = std::min(kBatch, list.size() - from);
      for (auto* v : {&enter, &maxEnter, &negLeave, &minLeave, &sender, &lastSender}) v->resize(n);
      rootEnter.resize(n);
      rootMax.resize(n);
      bool anyScan = false;
      for (std::size_t k = 0; k < n; ++k) {
        const Operation& o = list[from + k];
        const replay::Call call = o.call(events);
        const int r = static_cast<int>(me);
        enter[k] = {call.enter, r};
        negLeave[k] = {-call.leave, r};
        const bool isRoot = o.root == me;
        rootEnter[k] = isRoot ? call.enter : -kInf;
        sender[k] = {o.sends ? call.enter : -kInf, r};
        anyScan = anyScan || o.kind == Kind::Scan;
      }
      const int count = static_cast<int>(n);
      MPI_Request requests[4] = {
          comm.iallreduce(enter.data(), maxEnter.data(), count, MPI_DOUBLE_INT, MPI_MAXLOC),
          comm.iallreduce(negLeave.data(), minLeave.data(), count, MPI_DOUBLE_INT, MPI_MAXLOC),
          comm.iallreduce(rootEnter.data(), rootMax.data(), count, MPI_DOUBLE, MPI_MAX),
          comm.iallreduce(sender.data(), lastSender.data(), count, MPI_DOUBLE_INT, MPI_MAXLOC)};
      comm.waitAll(requests);
      lowerMax.assign(n, DoubleInt{-kInf, -1});
      // Every member knows whether the batch has a scan (same operations everywhere).
      if (anyScan) comm.exscan(enter.data(), lowerMax.data(), count, MPI_DOUBLE_INT, MPI_MAXLOC);
      if (me == 0) std::fill(lowerMax.begin(), lowerMax.end(), DoubleInt{-kInf, -1});

      for (std::size_t k = 0; k < n; ++k) {
        const Operation& o = list[from + k];
        const replay::Call call = o.call(events);
        const double earliestLeave = -minLeave[k].value;
        auto waitUntil = [&](Metric metric, double until, int causeRank) {
          if (until > call.enter)
            sev.addWait(metric, call.path, call.enter, std::min(until, call.leave),
                        causeRank >= 0 ? world(causeRank) : trace::kNone);
        };
        // Completion starts when the wait ends at the earliest: only a clock violation puts
        // the earliest leave before the latest enter, and then the two must not overlap.
        auto completion = [&](Metric metric, double waitEnd) {
          const double begin = std::max({earliestLeave, call.enter, waitEnd});
          if (call.leave > begin) sev.addWait(metric, call.path, begin, call.leave, trace::kNone);
        };
        // Left before `partner` entered: impossible unless the clocks disagree.
        auto leftBefore = [&](double partner) {
          if (call.leave >= partner) return;
          ++violations;
          sev.add(Metric::ClockViolationsCollective, call.path, 1.0);
        };
        switch (o.kind) {
          case Kind::Barrier:
            waitUntil(Metric::MpiBarrierWait, maxEnter[k].value, maxEnter[k].rank);
            completion(Metric::MpiBarrierCompletion, maxEnter[k].value);
            leftBefore(maxEnter[k].value);
            break;
          case Kind::NxN:
            waitUntil(Metric::MpiWaitNxN, maxEnter[k].value, maxEnter[k].rank);
            completion(Metric::MpiNxNCompletion, maxEnter[k].value);
            leftBefore(maxEnter[k].value);
            break;
          case Kind::OneToN:
            if (o.root != me && o.root != trace::kNone) {
              waitUntil(Metric::MpiLateBroadcast, rootMax[k], static_cast<int>(o.root));
              leftBefore(rootMax[k]);
            }
            break;
          case Kind::NToOne:
            // Scalasca's definition: the root waits for the latest process that sends it data
            // (a process sending nothing, as in an MPI_Gatherv with a zero count, does not count).
            if (o.root == me) {
              waitUntil(Metric::MpiEarlyReduce, lastSender[k].value, lastSender[k].rank);
              leftBefore(maxEnter[k].value);
            }
            break;
          case Kind::Scan:
            waitUntil(Metric::MpiEarlyScan, lowerMax[k].value, lowerMax[k].rank);
            // Rank i's result needs the data of the ranks below it.
            leftBefore(lowerMax[k].value);
            break;
          case Kind::Init:
            completion(Metric::MpiInitCompletion, call.enter);
            break;
          case Kind::Finalize:
            waitUntil(Metric::MpiFinalizeWait, maxEnter[k].value, maxEnter[k].rank);
            break;
          case Kind::Other:
            break;
        }
      }
    }
  }
  return violations;
}

}  // namespace waitscope::patterns
