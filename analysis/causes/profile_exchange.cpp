#include "analysis/causes/profile_exchange.h"

#include <mpi.h>

#include <algorithm>
#include <cstring>

namespace waitscope::causes::delay {
namespace {

using trace::CallPathId;
using trace::kNone;
using trace::Rank;

// Wire format, waiter -> cause, packed: before its first wait state for a
// cause, the waiter's call-path keys (a count, then the key of each of its
// path ids); then per wait state a WaitHeader and (path id, time) entries in
// the waiter's path ids, which the cause maps to its own through those keys.
constexpr std::size_t kHeaderBytes = 3 * sizeof(std::uint32_t) + 2 * sizeof(double);
constexpr std::size_t kEntryBytes = sizeof(CallPathId) + sizeof(double);

template <class T>
char* put(char* at, const T& value) {
  std::memcpy(at, &value, sizeof value);
  return at + sizeof value;
}
template <class T>
T take(const char*& at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  at += sizeof value;
  return value;
}

char* grow(std::vector<char>& buf, std::size_t bytes) {
  const std::size_t at = buf.size();
  buf.resize(at + bytes);
  return buf.data() + at;
}

}  // namespace

ProfileExchange::ProfileExchange(const replay::ReplayContext& ctx, const replay::LocationComm& comm,
                                 const AnalyzedWaits& waits, SyncIndex& syncs, IntervalProfile& profile,
                                 CausedWaits& caused)
    : ctx_(ctx),
      roundBytes_(std::max(kLeastRoundBytes,
                           kRoundBytes / static_cast<std::size_t>(comm.held() ? comm.held()->held() : 1))),
      comm_(comm),
      waits_(waits.waits),
      causeBegin_(waits.causeBegin),
      byCause_(waits.byCause),
      syncs_(syncs),
      profile_(profile),
      caused_(caused),
      keys_(ctx.trace.callTree) {}

void ProfileExchange::run() {
  const auto n = static_cast<std::size_t>(ctx_.worldSize);
  theirTime_.assign(ctx_.trace.callTree.size(), 0.0);
  nextOfCause_.assign(causeBegin_.begin(), causeBegin_.end() - 1);
  causeSlot_.assign(n, kNoSlot);
  waiterSlot_.assign(n, kNoSlot);
  sendCount_.assign(n, 0);
  recvCount_.assign(n, 0);
  sdispl_.assign(n + 1, 0);
  rdispl_.assign(n + 1, 0);
  out_.reserve(roundBytes_ + roundBytes_ / 4);  // a round and its last wait states, without doubling
  // A rank that caused the wait states of many would receive from all of them in one round:
  // each cause grants its waiters an equal part of a round, by how many still have wait states
  // for it, which each round's byte counts tell (until then every other rank may: a counting
  // collective of its own would cost more). Each gets at least kLeastRoundBytes: with many ranks
  // an equal part is so small that the exchange would take extra rounds, each a collective of
  // every rank, which on an oversubscribed node costs more than the memory.
  const std::size_t others = std::max<std::size_t>(n - 1, 1);
  grantOf_.assign(n, std::max(roundBytes_ / others, kLeastRoundBytes));
  waitersLeft_ = static_cast<int>(others);
  // In rounds of at most about roundBytes_ outgoing and incoming per rank: the buffers stay
  // small however many wait states there are, and the messages stay large.
  // Between two exchanges every rank prepares its next round (waiter side)
  // and takes in the last one (cause side), so the ranks that mostly wait
  // and those that mostly cause work at the same time, not in turn.
  bool more = prepareRound();
  for (;;) {
    const bool anyMore = alltoallBytes(more);
    if (anyMore) more = prepareRound();
    receiveProfiles();
    if (!anyMore) break;
  }
}

// The next round of this rank's wait states with their interval profiles,
// into out_ cause by cause (each cause's share of the round in wait-list
// order; a cause's wait states are profiled in time order, with their own
// search hints); returns whether any are left.
bool ProfileExchange::prepareRound() {
  const auto n = static_cast<std::size_t>(ctx_.worldSize);
  std::size_t causes = 0;
  for (std::size_t c = 0; c < n; ++c) causes += nextOfCause_[c] < causeBegin_[c + 1];
  const std::size_t mine = roundBytes_ / std::max<std::size_t>(causes, 1);
  out_.clear();
  bool more = false;
  for (std::size_t c = 0; c < n; ++c) {
    const std::size_t share = std::min(mine, grantOf_[c]);
    const std::size_t first = out_.size();
    sdispl_[c] = static_cast<int>(first);
    std::uint32_t& next = nextOfCause_[c];
    if (next < causeBegin_[c + 1] && causeSlot_[c] == kNoSlot) {
      causeSlot_[c] = static_cast<std::uint32_t>(causeHints_.size());
      causeHints_.emplace_back();
      const auto paths = static_cast<std::uint32_t>(keys_.keys().size());
      char* at = grow(out_, sizeof paths + paths * sizeof(std::uint64_t));
      at = put(at, paths);
      std::memcpy(at, keys_.keys().data(), paths * sizeof(std::uint64_t));
    }
    for (; next < causeBegin_[c + 1] && out_.size() - first < share; ++next) {
      const std::uint32_t id = byCause_[next];
      const Wait& w = waits_[id];
      SearchHints& hints = causeHints_[causeSlot_[c]];
      profile_.profile(syncs_.previousSync(w.cause, w.start, hints), w.start, hints);
      char* at = grow(out_, kHeaderBytes + profile_.profiled().size() * kEntryBytes);
      at = put(at, id);
      at = put(at, static_cast<std::uint32_t>(w.family));
      at = put(at, static_cast<std::uint32_t>(profile_.profiled().size()));
      at = put(at, w.end - w.start);
      at = put(at, w.end);
      for (const CallPathId p : profile_.profiled()) {
        at = put(at, p);
        at = put(at, profile_.time(p));
      }
      profile_.clear();
    }
    sendCount_[c] = static_cast<int>(out_.size() - first);
    more = more || next < causeBegin_[c + 1];
  }
  return more;
}

// Charge structure of every remote wait state this rank caused (all but the
// propagated cost phi, which follows the backward order).
void ProfileExchange::receiveProfiles() {
  const auto n = static_cast<std::size_t>(ctx_.worldSize);
  for (std::size_t p = 0; p < n; ++p) {
    const char* at = in_.data() + rdispl_[p];
    const char* const end = in_.data() + rdispl_[p + 1];
    if (at == end) continue;
    if (waiterSlot_[p] == kNoSlot) {
      waiterSlot_[p] = static_cast<std::uint32_t>(waiters_.size());
      std::vector<CallPathId>& local = waiters_.emplace_back().localPathOf;
      local.resize(take<std::uint32_t>(at));
      for (CallPathId& path : local) path = keys_.localPathOfKey(take<std::uint64_t>(at));
    }
    Waiter& waiter = waiters_[waiterSlot_[p]];
    const std::vector<CallPathId>& local = waiter.localPathOf;
    while (at < end) {
      WaitHeader h;
      h.waitId = take<std::uint32_t>(at);
      h.family = take<std::uint32_t>(at);
      h.entries = take<std::uint32_t>(at);
      h.omega = take<double>(at);
      h.syncTime = take<double>(at);
      // The waiter's time per call path of this rank, summed in arrival order.
      for (std::uint32_t k = 0; k < h.entries; ++k) {
        const auto theirs = take<CallPathId>(at);
        const auto time = take<double>(at);
        if (theirs >= local.size()) continue;
        if (const CallPathId mine = local[theirs]; mine != kNone) {
          if (theirTime_[mine] == 0.0) theirTouched_.push_back(mine);
          theirTime_[mine] += time;
        }
      }
      caused_.prepare(static_cast<Rank>(p), h, theirTime_, waiter.hints);
      for (const CallPathId path : theirTouched_) theirTime_[path] = 0.0;
      theirTouched_.clear();
    }
  }
}

// Sends every cause its part of out_ (sendCount_, sdispl_) into in_
// (recvCount_, rdispl_); returns whether any rank (this one: `more`) has
// another round to send, told along with the byte counts, whether this rank has more for
// that cause, and this rank's grant as a cause. A grant counts the waiters that had more a round
// before, a superset of those that send in the round it is used for.
bool ProfileExchange::alltoallBytes(bool more) {
  const auto n = static_cast<std::size_t>(ctx_.worldSize);
  // Two ints per peer: the byte count, then the grant with the two flags in its low bits
  // (with four ints the per-peer messages of a process holding many locations took a quarter
  // of a second longer on 256 locations).
  const auto grant = static_cast<unsigned>(
      std::max(roundBytes_ / static_cast<std::size_t>(std::max(waitersLeft_, 1)), kLeastRoundBytes));
  sendInfo_.resize(2 * n);
  recvInfo_.assign(2 * n, 0);
  for (std::size_t p = 0; p < n; ++p) {
    const bool moreForIt = nextOfCause_[p] < causeBegin_[p + 1];
    sendInfo_[2 * p] = sendCount_[p];
    sendInfo_[2 * p + 1] = static_cast<int>(grant << 2 | (moreForIt ? 2U : 0U) | (more ? 1U : 0U));
  }
  comm_.alltoall(sendInfo_.data(), 2, MPI_INT, recvInfo_.data(), 2, MPI_INT);
  bool anyMore = more;
  waitersLeft_ = 0;
  for (std::size_t p = 0; p < n; ++p) {
    const auto info = static_cast<unsigned>(recvInfo_[2 * p + 1]);
    recvCount_[p] = recvInfo_[2 * p];
    anyMore = anyMore || (info & 1U) != 0;
    waitersLeft_ += (info & 2U) != 0 ? 1 : 0;
    grantOf_[p] = info >> 2;
    rdispl_[p + 1] = rdispl_[p] + recvCount_[p];
  }
  // At least one byte: MPICH refuses aliased buffers, and two empty vectors give two nullptr.
  in_.resize(std::max<std::size_t>(static_cast<std::size_t>(rdispl_[n]), 1));
  comm_.alltoallv(out_.data(), sendCount_.data(), sdispl_.data(), MPI_BYTE, in_.data(), recvCount_.data(),
                  rdispl_.data(), MPI_BYTE);
  return anyMore;
}

}  // namespace waitscope::causes::delay
