#include "analysis/analyzer/analyzer.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <optional>
#include <sstream>

#include "analysis/analyzer/time_correction.h"
#include "analysis/causes/causes.h"
#include "analysis/patterns/collective_patterns.h"
#include "analysis/patterns/p2p_patterns.h"
#include "analysis/patterns/rma_active_patterns.h"
#include "analysis/patterns/rma_passive_patterns.h"
#include "analysis/patterns/time_metrics.h"
#include "analysis/replay/call_index.h"
#include "analysis/replay/communicators.h"
#include "analysis/replay/fibers.h"
#include "analysis/replay/out_of_memory.h"
#include "analysis/replay/replay_context.h"
#include "analysis/replay/yielding_wait.h"

namespace waitscope::analyzer {

using replay::abortOutOfMemory;
using replay::Call;
using replay::CallIndex;
using replay::Communicators;
using replay::LocationComm;
using replay::ReplayContext;

namespace {

// Every rank learns the first (lowest-rank) error, and all throw it together,
// so no rank walks on into an exchange the others have left.
void agree(const std::string& error, const LocationComm& world) {
  const int me = world.rank();
  const int mine = error.empty() ? INT_MAX : me;
  int first = INT_MAX;
  world.allreduce(&mine, &first, 1, MPI_INT, MPI_MIN);
  if (first == INT_MAX) return;
  int length = first == me ? static_cast<int>(error.size()) : 0;
  world.bcast(&length, 1, MPI_INT, first);
  std::string message = first == me ? error : std::string(static_cast<std::size_t>(length), ' ');
  world.bcast(message.data(), length, MPI_CHAR, first);
  throw AnalysisError(message);
}

// References every event makes must exist: communicators, peers, windows.
std::string validateReferences(const ReplayContext& ctx) {
  const auto& defs = ctx.defs();
  const auto& ev = ctx.events;
  const std::vector<std::uint32_t>& nonRegion = ctx.calls.nonRegionEvents();
  for (std::size_t k = 0; k < nonRegion.size(); ++k) {
    const trace::Event& e = ctx.calls.nonRegionEvent(k);
    const char* problem = nullptr;  // no string per event: this runs for every communication event
    switch (trace::payloadFamily(e.kind)) {
      case trace::PayloadFamily::Message: {
        const auto& m = ev.message(e);
        if (e.kind == trace::EventKind::MpiRequestTest || e.kind == trace::EventKind::MpiRequestCancelled ||
            e.kind == trace::EventKind::MpiIsendComplete || e.kind == trace::EventKind::MpiIrecvRequest)
          break;
        if (m.comm >= defs.comms.size()) problem = "uses a communicator the trace does not define";
        else if (ctx.comms.rank(m.comm) == trace::kNone) problem = "uses a communicator this rank is not part of";
        else if (m.peer >= defs.peerCount(m.comm, ctx.worldRank)) problem = "names a peer outside its communicator";
        break;
      }
      case trace::PayloadFamily::Rma: {
        const auto& r = ev.rmaRecord(e);
        if (r.win >= defs.windows.size()) problem = "uses a window the trace does not define";
        else if (defs.windows[r.win].comm >= defs.comms.size()) problem = "uses a window on an undefined communicator";
        else if (ctx.comms.rank(defs.windows[r.win].comm) == trace::kNone)
          problem = "uses a window whose communicator this rank is not part of";
        break;
      }
      default:
        break;
    }
    if (!problem) continue;
    std::ostringstream out;
    out.precision(9);
    const std::optional<Call> call = ctx.calls.callOfEntry(k);
    out << "rank " << ctx.worldRank << ": " << trace::name(e.kind) << " record";
    if (call) out << " in " << ctx.regionName(call->path);
    out << " at " << std::fixed << e.time << " s " << problem;
    return out.str();
  }
  return {};
}

// The pattern families over this location's events, validated: every rank builds and validates
// them in the same order.
struct Families {
  CallIndex calls;
  ReplayContext ctx;
  patterns::TimeMetrics timeMetrics;
  patterns::RmaPassive rmaPassive;
  patterns::RmaActive rmaActive;
  std::optional<patterns::Collectives> collectives;
  std::optional<patterns::PointToPoint> p2p;

  Families(const trace::Trace& local, const trace::LocationEvents& events, trace::Rank me, int size,
           const Communicators& comms, replay::Severities& severities)
      : calls(events, local.callTree, local.defs),
        ctx{local, events, me, size, comms, calls, severities},
        timeMetrics(ctx),
        rmaPassive(ctx),
        rmaActive(ctx) {}

  // Every family runs validate -> exchange -> detect, phase by phase and in the same order on
  // every rank, so the collective operations match. The local checks (references, passive-target
  // locks) are agreed on together before anything reads the communicators and peers they check:
  // the collective checks, and the collective and point-to-point families, which collect their
  // operations when built.
  void validate(const LocationComm& world, const std::function<void(int)>& progress) {
    std::string error = validateReferences(ctx);
    if (error.empty()) error = rmaPassive.validate();
    agree(error, world);
    collectives.emplace(ctx);
    agree(collectives->validate(), world);
    agree(rmaActive.validate(), world);
    progress(50);
    p2p.emplace(ctx);
    agree(p2p->exchange(), world);
  }

  // After the times of the events changed in place: validate() passed on the same events (the
  // correction moves times, never the order), so its checks are not repeated; the call index
  // takes the new times, and the point-to-point family, which holds times, is built again (the
  // collective operations read theirs from the events).
  void retime(const trace::Trace& local, const LocationComm& world) {
    calls.retime(ctx.events, local.callTree);
    p2p.emplace(ctx);
    agree(p2p->exchange(), world);
  }
};

// Corrects clock-condition violations (time_correction.h) in `events`, the location's events the
// families were built over; returns whether any relation was broken (then the times changed).
bool correctTimes(trace::LocationEvents& events, const Families& families, replay::TimeCorrectionSummary& summary) {
  TimeCorrection tc = correctClocks(families.ctx, *families.p2p, *families.collectives);
  summary.violations = tc.violations;
  summary.rounds = tc.rounds;
  if (!tc.applied) return false;
  summary.applied = true;
  const trace::ClockShifts shifts = tc.correction.apply(events.events);
  summary.movedEvents = shifts.moved;
  summary.largestShift = shifts.largest;
  summary.correction = std::move(tc.correction);
  return true;
}

// The time metrics of this rank's locations, then the point-to-point and collective patterns.
template <typename Progress>
void searchMessagesAndCollectives(Families& f, const trace::Trace& local, int me, int size, const Communicators& comms,
                                  LocalResult& result, const Progress& progress) {
  progress("replay", 0);
  result.exclusiveTime = f.timeMetrics.detect();
  // The threads and streams of this rank's process: their own events only, no exchange.
  for (const trace::LocationEvents& thread : local.threadLocations) {
    replay::ThreadResult& out = result.threads.emplace_back();
    out.location = thread.location;
    const CallIndex threadCalls(thread, local.callTree, local.defs);
    ReplayContext threadCtx{local, thread, static_cast<trace::Rank>(me), size, comms, threadCalls, out.severities};
    patterns::TimeMetrics(threadCtx).detect();
  }
  result.clockViolations.p2p = f.p2p->detect();
  progress("replay", 25);
  result.clockViolations.collective = f.collectives->detect();
  progress("replay", 50);
}

// analyzeLocation; `phase` follows the progress reports, for the out-of-memory line.
LocalResult analyzePhases(trace::Trace& local, const LocationComm& world, const AnalysisOptions& options,
                          std::string_view& phase) {
  auto progress = [&](std::string_view name, int percent) {
    phase = name;
    if (options.progress) options.progress(name, percent);
  };
  const int me = world.rank(), size = world.size();
  if (static_cast<std::size_t>(size) != local.defs->worldLocations.size()) {
    std::ostringstream out;
    out << "the trace has " << local.defs->worldLocations.size() << " MPI locations but the analysis runs on " << size
        << " ranks; run it with mpiexec -n " << local.defs->worldLocations.size();
    throw AnalysisError(out.str());
  }
  if (local.locations.size() != 1) throw AnalysisError("internal error: one location per analysis rank expected");

  LocalResult result;
  progress("validate", 0);
  const Communicators comms(local.defs, world);
  const auto rank = static_cast<trace::Rank>(me);
  Families f(local, local.locations[0], rank, size, comms, result.severities);
  f.validate(world, [&](int percent) { progress("validate", percent); });
  // Without windows, the only relations the correction keeps are those of messages and
  // collective operations, and their pattern search counts exactly the violations the
  // correction's first round would: searching first and correcting only if it found any spares
  // a trace without violations (the usual one) the correction's exchange and its memory. The
  // search runs in its usual order, so the results are the same bit for bit.
  bool searched = false;
  if (options.timeCorrection && local.defs->windows.empty()) {
    searchMessagesAndCollectives(f, local, me, size, comms, result, [](std::string_view, int) {});
    const unsigned long long mine = result.clockViolations.p2p + result.clockViolations.collective;
    unsigned long long all = 0;
    world.allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM);
    searched = all == 0;
    if (searched) {
      result.timeCorrection.rounds = 1;
    } else {
      result.severities = {};
      result.threads.clear();
      result.clockViolations = {};
    }
  }
  if (!searched && options.timeCorrection && correctTimes(local.locations[0], f, result.timeCorrection))
    f.retime(local, world);
  progress("validate", 100);

  if (searched) {
    for (const int percent : {0, 25, 50}) progress("replay", percent);
  } else {
    searchMessagesAndCollectives(f, local, me, size, comms, result, progress);
  }
  result.clockViolations.rma = f.rmaActive.detect();
  progress("replay", 75);
  f.rmaPassive.detect();
  progress("replay", 100);
  if (!options.causes) return result;
  // The causes need the events, the call index and the wait states, not the pattern families'
  // lists of operations: those go before the backward replay builds its own (a fifth of the
  // peak memory on message-heavy traces).
  f.p2p.reset();
  f.collectives.reset();
  // The critical path first: it reads the events, and the delay costs' propagation, their
  // largest memory, does not; the events can go before it.
  progress("causes", 0);
  causes::analyzeCriticalPath(f.ctx, result);
  progress("causes", 50);
  causes::analyzeDelays(
      f.ctx, result,
      [&] {
        if (options.releaseTrace) local.locations[0].releasePayloads();
      },
      [&] {
        if (options.releaseTrace) local.locations[0].releaseEvents();
      });
  progress("causes", 100);
  return result;
}

}  // namespace

LocalResult analyzeLocation(trace::Trace& local, const LocationComm& world, const AnalysisOptions& options) {
  std::string_view phase = "validate";
  try {
    return analyzePhases(local, world, options, phase);
  } catch (const std::bad_alloc&) {
    abortOutOfMemory(world, std::string(phase), local.eventCount());
  }
}

LocalResult analyzeLocation(trace::Trace& local, MPI_Comm world, const AnalysisOptions& options) {
  const LocationComm locations(world, replay::nodeOversubscribed(world));
  return analyzeLocation(local, locations, options);
}

void analyzeHeldLocations(const replay::HeldLocations& held, std::vector<trace::Trace>& traces,
                          const std::function<void(trace::Trace&, const LocationComm&)>& analyze) {
  auto everyone = std::make_shared<std::vector<trace::Rank>>();
  for (trace::Rank r = 0; r < static_cast<trace::Rank>(held.locations()); ++r) everyone->push_back(r);
  replay::Fibers::run(
      traces.size(),
      [&](std::size_t i) {
        const LocationComm world(held, everyone, static_cast<int>(held.first() + i), 0);
        try {
          analyze(traces[i], world);
        } catch (const AnalysisError&) {
          throw;  // every location throws it (agree): they all end
        } catch (const std::exception& e) {
          // Only this location failed: the process' others would wait for it for ever.
          std::fprintf(stderr, "waitscope-analyze: rank %d: %s\n", world.rank(), e.what());
          std::fflush(stderr);
          MPI_Abort(held.processes(), 1);
        }
      },
      held.yieldCore());
}

}  // namespace waitscope::analyzer
