#include "tests/e2e/recorded_gats_waits.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "analysis/trace/otf2_reader.h"
#include "analysis/trace/trace.h"
#include "tests/e2e/recorded_calls.h"

namespace waitscope::test {

namespace {

using trace::EventKind;

const char* const kLatePost = "mpi_rma_sync_late_post";
const char* const kEarlyWait = "mpi_rma_early_wait";
const char* const kLateComplete = "mpi_rma_late_complete";

using Call = RecordedCall;

// An access epoch (start ... complete) or an exposure epoch (post ... wait) of one rank.
struct Epoch {
  trace::WinId win = trace::kNone;
  std::vector<int> members;        // world ranks of the start or post group
  std::size_t open = 0;            // the MPI_Win_start or MPI_Win_post call
  std::size_t close = kOpen;       // the MPI_Win_complete or MPI_Win_wait call
  std::map<int, std::size_t> lastTransfer;  // access epochs: target -> its last transfer call
  std::map<int, const Epoch*> partners;     // the matched epochs of the other side, by rank
  static constexpr std::size_t kOpen = std::numeric_limits<std::size_t>::max();
};

struct Rank {
  std::vector<Call> calls;
  std::vector<Epoch> access, exposure;
};

std::vector<int> groupMembers(const trace::Definitions& defs, trace::GroupId group, int me) {
  if (group >= defs.groups.size()) throw std::runtime_error("a GATS call names an undefined group");
  const trace::Group& g = defs.groups[group];
  if (g.type == trace::GroupType::CommSelf) return {me};
  return {g.members.begin(), g.members.end()};
}

Epoch* openEpoch(std::vector<Epoch>& epochs, trace::WinId win) {
  for (auto it = epochs.rbegin(); it != epochs.rend(); ++it)
    if (it->win == win && it->close == Epoch::kOpen) return &*it;
  return nullptr;
}

// The calls and GATS epochs of one location.
Rank collect(const trace::Trace& t, const trace::LocationEvents& loc, int me) {
  Rank out;
  walkCalls(t, loc, out.calls, [&](const trace::Event& e, std::size_t call) {
    const std::string& region = out.calls[call].region;
    if (e.kind == EventKind::RmaGroupSync) {
      const trace::RmaRecord& r = loc.rmaRecord(e);
      if (region == "MPI_Win_post" || region == "MPI_Win_start") {
        Epoch epoch;
        epoch.win = r.win;
        epoch.members = groupMembers(t.defs, r.group, me);
        epoch.open = call;
        (region == "MPI_Win_post" ? out.exposure : out.access).push_back(std::move(epoch));
      } else if (region == "MPI_Win_complete") {
        if (Epoch* epoch = openEpoch(out.access, r.win)) epoch->close = call;
      } else if (region == "MPI_Win_wait" || (region == "MPI_Win_test" && r.syncLevel != trace::kSyncNone)) {
        if (Epoch* epoch = openEpoch(out.exposure, r.win)) epoch->close = call;
      }
    } else if (e.kind == EventKind::RmaPut || e.kind == EventKind::RmaGet || e.kind == EventKind::RmaAtomic) {
      const trace::RmaRecord& r = loc.rmaRecord(e);
      if (Epoch* epoch = openEpoch(out.access, r.win)) {
        const trace::CommId comm = r.win < t.defs->windows.size() ? t.defs->windows[r.win].comm : trace::kNone;
        epoch->lastTransfer[static_cast<int>(t.defs->worldRank(comm, r.remote))] = call;
      }
    }
  });
  return out;
}

// Pairs the k-th access epoch of o towards t with the k-th exposure epoch of t towards o.
void match(std::vector<Rank>& ranks) {
  using Pair = std::tuple<trace::WinId, int, int>;  // window, this side's rank, the other side's rank
  std::map<Pair, std::vector<Epoch*>> access, exposure;
  for (int r = 0; r < static_cast<int>(ranks.size()); ++r) {
    for (Epoch& e : ranks[r].access)
      for (int target : e.members) access[{e.win, r, target}].push_back(&e);
    for (Epoch& e : ranks[r].exposure)
      for (int origin : e.members) exposure[{e.win, r, origin}].push_back(&e);
  }
  for (const auto& [pair, epochs] : access) {
    const auto& [win, origin, target] = pair;
    const auto other = exposure.find({win, target, origin});
    const std::size_t exposed = other == exposure.end() ? 0 : other->second.size();
    if (exposed != epochs.size())
      throw std::runtime_error("rank " + std::to_string(origin) + " has " + std::to_string(epochs.size()) +
                               " access epochs towards rank " + std::to_string(target) + ", which has " +
                               std::to_string(exposed) + " exposure epochs towards it");
    for (std::size_t k = 0; k < epochs.size(); ++k) {
      epochs[k]->partners[target] = other->second[k];
      other->second[k]->partners[origin] = epochs[k];
    }
  }
}

}  // namespace

const std::vector<std::string>& RecordedGatsWaits::metrics() {
  static const std::vector<std::string> all = {kLatePost, kEarlyWait, kLateComplete};
  return all;
}

RecordedGatsWaits::RecordedGatsWaits(const std::string& anchor) {
  trace::ReadOptions quiet;
  quiet.warn = [](const std::string&) {};
  const trace::Trace t = trace::readTrace(anchor, quiet);
  auto add = [this](const char* metric, int rank, const Call& call, double seconds) {
    Sum& sum = sums_[{metric, rank, call.region, call.line}];
    sum.seconds += seconds;
    ++sum.calls;
  };
  std::vector<Rank> ranks;
  for (std::size_t r = 0; r < t.locations.size(); ++r) ranks.push_back(collect(t, t.locations[r], static_cast<int>(r)));
  match(ranks);

  const double none = -std::numeric_limits<double>::infinity();
  for (int me = 0; me < static_cast<int>(ranks.size()); ++me) {
    const std::vector<Call>& calls = ranks[me].calls;
    // Late Post: the latest post of the epoch's targets, if it falls inside start or complete.
    for (const Epoch& e : ranks[me].access) {
      if (e.close == Epoch::kOpen || e.partners.empty()) continue;
      double post = none;
      for (const auto& [target, exposure] : e.partners)
        post = std::max(post, ranks[target].calls[exposure->open].enter);
      const Call& start = calls[e.open];
      const Call& complete = calls[e.close];
      const bool inStart = start.enter < post && post < start.leave;
      const bool inComplete = !inStart && complete.enter < post && post < complete.leave;
      add(kLatePost, me, start, inStart ? post - start.enter : 0.0);
      add(kLatePost, me, complete, inComplete ? post - complete.enter : 0.0);
    }
    // Early Wait: until the latest complete of the epoch's origins; Late Complete: the part of it
    // after the origins' last transfers to this rank (or their start, without one).
    for (const Epoch& e : ranks[me].exposure) {
      if (e.close == Epoch::kOpen || e.partners.empty()) continue;
      double complete = none, lastTransfer = none;
      for (const auto& [origin, access] : e.partners) {
        const std::vector<Call>& theirs = ranks[origin].calls;
        complete = std::max(complete, theirs[access->close].enter);
        const auto transfer = access->lastTransfer.find(me);
        lastTransfer = std::max(lastTransfer, transfer == access->lastTransfer.end() ? theirs[access->open].leave
                                                                                    : theirs[transfer->second].leave);
      }
      const Call& wait = calls[e.close];
      const double end = std::min(complete, wait.leave);
      const double from = std::max(lastTransfer, wait.enter);
      add(kEarlyWait, me, wait, end > wait.enter ? end - wait.enter : 0.0);
      add(kLateComplete, me, wait, end > from ? end - from : 0.0);
    }
  }
}

std::vector<RecordedGatsWaits::Cell> RecordedGatsWaits::cells(const std::string& metric) const {
  std::vector<Cell> out;
  for (const auto& [key, sum] : sums_) {
    const auto& [m, rank, region, line] = key;
    if (m == metric) out.push_back({rank, region, line, sum.seconds, sum.calls});
  }
  return out;
}

double RecordedGatsWaits::total(const std::string& metric, int rank) const {
  double sum = 0.0;
  for (const auto& [key, s] : sums_)
    if (std::get<0>(key) == metric && std::get<1>(key) == rank) sum += s.seconds;
  return sum;
}

}  // namespace waitscope::test
