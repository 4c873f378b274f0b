#include "analysis/causes/delay_propagation.h"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdio>
#include <deque>
#include <unordered_map>
#include <utility>

#include "analysis/replay/merge_runs.h"
#include "analysis/replay/send_queue.h"

namespace waitscope::causes::delay {
namespace {

using metrics::Metric;
using trace::CallPathId;
using trace::kNone;
using trace::Rank;

// What the backward replay adds up, as indices into its PathSums.
enum Sum : std::size_t {
  kDelay = 0,      // + family: delay cost (short- and long-term)
  kDelayLong = 3,  // + family: its long-term part
  kPropagating = 6,
  kTerminal,
  kIndirect,
  kDirect,
};
replay::PathSums sumsFor(std::size_t paths) {
  return replay::PathSums(paths, {Metric::DelayP2p, Metric::DelayCollective, Metric::DelayRma,
                                  Metric::DelayP2pLongterm, Metric::DelayCollectiveLongterm,
                                  Metric::DelayRmaLongterm, Metric::MpiWaitPropagating, Metric::MpiWaitTerminal,
                                  Metric::MpiWaitIndirect, Metric::MpiWaitDirect});
}

}  // namespace

DelayPropagation::DelayPropagation(replay::ReplayContext& ctx, const replay::LocationComm& comm,
                                   AnalyzedWaits& waits, CausedWaits& caused)
    : ctx_(ctx),
      comm_(comm),
      waits_(waits.waits),
      causeBegin_(waits.causeBegin),
      byCause_(waits.byCause),
      caused_(caused),
      sums_(sumsFor(ctx.trace.callTree.size())) {}

void DelayPropagation::run() {
  orderItems();
  solvePropagation();
  backwardReplay();
  sums_.addTo(ctx_.severities);
}

// Latest first; at equal times the own wait states first, then by waiter
// (not by arrival, so that the order does not depend on the rounds). Own
// wait states and each waiter's are already in time order (see
// collectWaits): the items are those runs, reversed, merged.
void DelayPropagation::orderItems() {
  const auto n = static_cast<std::size_t>(ctx_.worldSize);
  std::vector<std::size_t> runEnd(n, 0);  // per waiter; its run follows the own one and those of lower ranks
  for (std::size_t i = 0; i < caused_.incoming.size(); ++i) ++runEnd[caused_.incoming[i].waiter];
  for (std::size_t p = 0, end = waits_.size(); p < n; ++p) runEnd[p] = end += runEnd[p];
  items_.resize(waits_.size() + caused_.incoming.size());
  for (std::size_t k = 0; k < waits_.size(); ++k)
    items_[waits_.size() - 1 - k] = {waits_[k].start, static_cast<std::uint32_t>(k), 0};
  for (std::size_t i = 0; i < caused_.incoming.size(); ++i) {
    const Rank waiter = caused_.incoming[i].waiter;
    items_[--runEnd[waiter]] = {caused_.incoming[i].syncTime, static_cast<std::uint32_t>(i), waiter + 1};
  }
  replay::sortByMergingRuns(items_, [](const Item& a, const Item& b) {
    return a.key != b.key ? a.key > b.key : a.from < b.from;
  });
}

// The propagated costs phi. phi of a wait state W is complete once its rank
// has replayed every item before W (later in time); the cause needs it at its
// receive item. Only these scalars follow the backward order, and they are
// cheap: every rank sends rank 0 its item sequence, cut to what moves phi
// (its own wait states, and the remote ones with the own wait states in their
// interval, without profiles); rank 0 replays all ranks' sequences in the order
// of the distributed replay (a receive item waits until its waiter has passed
// the wait state) and returns each rank the phi of its own wait states, which
// each waiter then sends to the causes. The sequences travel in fixed chunks
// that rank 0 takes as its replay reaches them, and the answers go back in
// pieces as their wait states are passed, so that neither the senders nor rank 0
// hold a whole sequence, and rank 0's memory does not grow with the number of
// ranks times their wait states.
void DelayPropagation::solvePropagation() {
  const int n = ctx_.worldSize;
  const int me = ctx_.worldRank;
  // Chunk length in doubles: 64 KiB at a few ranks (large enough that the messages' latency does
  // not count), 8 KiB at many, so that rank 0's windows (at most two chunks each) stay small.
  const std::size_t chunk = std::clamp<std::size_t>((std::size_t{1} << 19) / static_cast<std::size_t>(n),
                                                    std::size_t{1} << 10, std::size_t{1} << 13);
  const std::array<std::uint64_t, 2> mine{streamLength(), waits_.size()};
  std::vector<std::uint64_t> sizes(me == 0 ? 2 * static_cast<std::size_t>(n) : 0);
  comm_.gather(mine.data(), 2, MPI_UINT64_T, sizes.data(), 2, MPI_UINT64_T, 0);
  std::vector<double> phiOfMine(kFamilies * waits_.size());
  if (me == 0) {
    std::vector<StreamWindow> windows(static_cast<std::size_t>(n));
    std::vector<std::size_t> waitCounts(static_cast<std::size_t>(n));
    for (std::size_t r = 0; r < windows.size(); ++r) {
      windows[r].total = sizes[2 * r];
      waitCounts[r] = sizes[2 * r + 1];
      windows[r].buf.reserve(std::min<std::size_t>(2 * chunk, windows[r].total));
    }
    simulate(windows, waitCounts, chunk, phiOfMine);
  } else {
    // The answers arrive piece by piece, in the order rank 0 completes them, each tagged with
    // its piece's index; all are received while the stream goes out.
    const std::size_t piece = answerPiece(static_cast<std::size_t>(n), waits_.size());
    std::vector<MPI_Request> answers;
    answers.reserve((waits_.size() + piece - 1) / piece);
    for (std::size_t first = 0, k = 0; first < waits_.size(); first += piece, ++k) {
      const std::size_t count = std::min(piece, waits_.size() - first);
      answers.push_back(comm_.irecv(phiOfMine.data() + kFamilies * first, static_cast<int>(kFamilies * count),
                                    MPI_DOUBLE, 0, static_cast<int>(k)));
    }
    sendStream(chunk);
    comm_.waitAll(answers);
  }
  exchangePhiAndIndirect(phiOfMine);
}

// Wait states per answer piece: larger at few ranks (fewer messages), smaller at many (rank 0
// holds about one open piece per rank), and never more than 30000 pieces per rank, so that a
// piece's index is a valid tag (MPI guarantees tags up to 32767).
std::size_t DelayPropagation::answerPiece(std::size_t ranks, std::size_t waits) {
  const std::size_t byRanks = std::max<std::size_t>(512, (std::size_t{1} << 16) / std::max<std::size_t>(ranks, 1));
  return std::max(byRanks, (waits + 29999) / 30000);
}

// The item stream, doubles: an own wait state is -1 - its index; a remote one
// {waiter, id, omega, D, family, count} and count (own wait, v) pairs. A remote one
// that adds to no phi here is {ranks + waiter, id}: it only tells rank 0 that nobody
// reads the waiter's phi, which it may then drop once the waiter has passed the wait state.
std::size_t DelayPropagation::streamLength() const {
  std::size_t length = 0;
  for (const Item& item : items_) {
    if (item.from == 0) {
      length += 1;
      continue;
    }
    const std::size_t props = caused_.propsEnd(item.index) - caused_.incoming[item.index].firstProp;
    length += props == 0 ? 2 : 6 + 2 * props;
  }
  return length;
}

// Appends whole items from items_[next] on to `out` until it holds at least `upTo` values or
// the items run out.
void DelayPropagation::appendStream(std::size_t& next, std::vector<double>& out, std::size_t upTo) const {
  const auto ranks = static_cast<double>(ctx_.worldSize);
  for (; next < items_.size() && out.size() < upTo; ++next) {
    const Item& item = items_[next];
    if (item.from == 0) {
      out.push_back(-1.0 - static_cast<double>(item.index));
      continue;
    }
    const Incoming& in = caused_.incoming[item.index];
    const std::size_t firstProp = in.firstProp, endProp = caused_.propsEnd(item.index);
    if (endProp == firstProp) {
      out.push_back(ranks + static_cast<double>(in.waiter));
      out.push_back(static_cast<double>(in.waitId));
      continue;
    }
    out.push_back(static_cast<double>(in.waiter));
    out.push_back(static_cast<double>(in.waitId));
    out.push_back(in.omega);
    out.push_back(caused_.denom(item.index));
    out.push_back(static_cast<double>(in.family));
    out.push_back(static_cast<double>(endProp - firstProp));
    for (std::size_t j = firstProp; j < endProp; ++j) {
      out.push_back(static_cast<double>(caused_.props.waits[j]));
      out.push_back(caused_.props.values[j]);
    }
  }
}

// A rank other than 0: its stream to rank 0 in chunks of exactly `chunk` values but the last,
// each sent synchronously, so that at most one of them waits at rank 0 before it is needed.
void DelayPropagation::sendStream(std::size_t chunk) const {
  std::vector<double> out;
  out.reserve(2 * chunk);
  std::size_t next = 0;
  for (;;) {
    appendStream(next, out, chunk);
    const std::size_t count = std::min(chunk, out.size());
    if (count == 0) break;
    MPI_Request sent = comm_.issend(out.data(), static_cast<int>(count), MPI_DOUBLE, 0, 0);
    comm_.waitAll({&sent, 1});
    out.erase(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(count));
  }
}

// Rank 0: makes rank r's window hold at least `need` unread values, taking in chunks of its
// stream as needed (from rank r, or rank 0's own items); false if the stream ends before.
bool DelayPropagation::ensure(std::size_t r, StreamWindow& w, std::size_t need, std::size_t chunk) const {
  if (w.buf.size() - w.at >= need) return true;
  w.buf.erase(w.buf.begin(), w.buf.begin() + static_cast<std::ptrdiff_t>(w.at));
  w.at = 0;
  while (w.buf.size() < need && w.received < w.total) {
    const std::size_t before = w.buf.size();
    if (r == 0) {
      appendStream(w.nextItem, w.buf, before + chunk);
    } else {
      w.buf.resize(before + std::min(chunk, w.total - w.received));
      comm_.recv(w.buf.data() + before, static_cast<int>(w.buf.size() - before), MPI_DOUBLE, static_cast<int>(r), 0);
    }
    w.received += w.buf.size() - before;
  }
  return w.buf.size() >= need;
}

// Each waiter sends each cause the phi of the wait states it caused (kFamilies values each), and
// each cause sends each waiter the indirect fraction of those, both in the
// waiter's wait-list order (the order in which the cause received them): one
// all-to-all, whose counts both sides know.
void DelayPropagation::exchangePhiAndIndirect(const std::vector<double>& phiOfMine) {
  const auto n = static_cast<std::size_t>(ctx_.worldSize);
  std::vector<std::size_t> fromWaiter(n + 1, 0);  // incoming per waiter, then their positions
  for (std::size_t i = 0; i < caused_.incoming.size(); ++i) ++fromWaiter[caused_.incoming[i].waiter + 1];
  // To p: phi of the own wait states p caused, then the indirect fractions of
  // the ones p waited in. From p: the phi of those, then the fractions.
  std::vector<int> sendCounts(n), sendDispls(n + 1, 0), recvCounts(n), recvDispls(n + 1, 0);
  for (std::size_t p = 0; p < n; ++p) {
    const std::size_t causedByP = causeBegin_[p + 1] - causeBegin_[p], waitedByP = fromWaiter[p + 1];
    sendCounts[p] = static_cast<int>(kFamilies * causedByP + waitedByP);
    recvCounts[p] = static_cast<int>(kFamilies * waitedByP + causedByP);
    sendDispls[p + 1] = sendDispls[p] + sendCounts[p];
    recvDispls[p + 1] = recvDispls[p] + recvCounts[p];
  }
  // `in` has at least one element: MPICH refuses aliased buffers, and two empty vectors give two nullptr.
  std::vector<double> out(static_cast<std::size_t>(sendDispls[n])),
      in(std::max<std::size_t>(static_cast<std::size_t>(recvDispls[n]), 1));
  for (std::size_t p = 0; p < n; ++p)
    for (std::uint32_t j = causeBegin_[p]; j < causeBegin_[p + 1]; ++j)
      for (std::size_t g = 0; g < kFamilies; ++g)
        out[static_cast<std::size_t>(sendDispls[p]) + kFamilies * (j - causeBegin_[p]) + g] =
            phiOfMine[kFamilies * byCause_[j] + g];
  std::vector<std::size_t> at(n);
  for (std::size_t p = 0; p < n; ++p)
    at[p] = static_cast<std::size_t>(sendDispls[p]) + kFamilies * (causeBegin_[p + 1] - causeBegin_[p]);
  for (std::size_t i = 0; i < caused_.incoming.size(); ++i)
    out[at[caused_.incoming[i].waiter]++] = caused_.indirect(i);
  comm_.alltoallv(out.data(), sendCounts.data(), sendDispls.data(), MPI_DOUBLE, in.data(), recvCounts.data(),
                  recvDispls.data(), MPI_DOUBLE);
  out = {};
  // Each incoming wait state's phi stays where it arrived (kFamilies values each, per waiter in
  // the order the waiter sent them) until the backward replay has charged it.
  phiEnd_.resize(n);
  for (std::size_t p = 0; p < n; ++p) phiEnd_[p] = static_cast<std::size_t>(recvDispls[p]) + kFamilies * fromWaiter[p + 1];
  // Direct / indirect, per cause in the order in which the cause replayed
  // them (latest first).
  for (std::size_t p = 0; p < n; ++p) {
    const double* const fraction = in.data() + recvDispls[p] + kFamilies * fromWaiter[p + 1];
    for (std::uint32_t j = causeBegin_[p + 1]; j-- > causeBegin_[p];) {
      const Wait& w = waits_[byCause_[j]];
      const double omega = w.end - w.start;
      const double indirect = std::clamp(fraction[j - causeBegin_[p]], 0.0, 1.0) * omega;
      if (indirect > 0.0) sums_.add(kIndirect, w.path, indirect);
      if (omega - indirect > 0.0) sums_.add(kDirect, w.path, omega - indirect);
    }
  }
  phiIn_ = std::move(in);
}

// Rank 0's state of the replay of every rank's stream, in memory that follows the replay's front,
// not the wait states behind or ahead of it: per rank, phi of the own wait states from the latest
// one still needed (not yet passed, or passed and not yet read by its cause) down to the earliest
// that collects contributions, and the answer pieces being filled. Whether a wait state is passed,
// and whether its cause has read it or said it never will, are a bit each.
class DelayPropagation::Simulation {
 public:
  using Phi = std::array<double, kFamilies>;

  Simulation(const DelayPropagation& owner, const std::vector<std::size_t>& waitCounts, std::vector<double>& ownAnswers)
      : waitCounts_(waitCounts), ownAnswers_(ownAnswers), ranks_(waitCounts.size()), waitDispls_(ranks_ + 1, 0),
        windows_(ranks_), pieces_(ranks_), pieceSize_(ranks_), sent_(ranks_), sends_(owner.comm_) {
    for (std::size_t r = 0; r < ranks_; ++r) {
      waitDispls_[r + 1] = waitDispls_[r] + waitCounts[r];
      pieceSize_[r] = answerPiece(ranks_, waitCounts[r]);
      sent_[r].assign((waitCounts[r] + pieceSize_[r] - 1) / pieceSize_[r], 0);
    }
    done_.assign(waitDispls_[ranks_], false);
    consumed_.assign(waitDispls_[ranks_], false);
  }

  bool valid(std::size_t r, std::size_t id) const { return r < ranks_ && id < waitCounts_[r]; }
  bool done(std::size_t r, std::size_t id) const { return done_[slot(r, id)]; }

  // phi of rank r's own wait state `id`, not yet passed, to add to.
  double* collecting(std::size_t r, std::size_t id) {
    Window& w = windows_[r];
    if (w.values.empty()) {
      w.top = id;
      w.values.emplace_back();
    } else if (id > w.top) {
      w.values.insert(w.values.begin(), id - w.top, Phi{});
      w.top = id;
    } else if (w.top - id >= w.values.size()) {
      w.values.resize(w.top - id + 1);
    }
    return w.values[w.top - id].data();
  }

  // The waiter passes its wait state: its phi so far is what the waiter sends; later additions,
  // which only a cycle brings, are dropped (nothing reads them).
  void pass(std::size_t r, std::size_t id) {
    if (!valid(r, id) || done_[slot(r, id)]) return;
    done_[slot(r, id)] = true;
    answer(r, id, value(r, id));
    retire(r);
  }

  // The cause reads phi of a passed wait state, once.
  Phi read(std::size_t r, std::size_t id) {
    const Phi phi = value(r, id);
    consumed_[slot(r, id)] = true;
    retire(r);
    return phi;
  }
  // The cause will not read phi of this wait state (it adds to no phi there).
  void unread(std::size_t r, std::size_t id) {
    consumed_[slot(r, id)] = true;
    retire(r);
  }

  // After the replay: every piece not yet sent goes out with what it has (a wait state its rank
  // never passed sends nothing: zeros), and every send completes.
  void finish() {
    for (std::size_t r = 1; r < ranks_; ++r)
      for (std::size_t k = 0; k < sent_[r].size(); ++k)
        if (!sent_[r][k]) send(r, k, openPiece(r, k));
    sends_.finish();
  }

 private:
  struct Window {
    std::deque<Phi> values;  // values[i]: own wait state top - i
    std::size_t top = 0;
  };
  struct Piece {
    std::vector<double> values;
    std::size_t passed = 0;
  };
  std::size_t slot(std::size_t r, std::size_t id) const { return waitDispls_[r] + id; }

  Phi value(std::size_t r, std::size_t id) const {
    const Window& w = windows_[r];
    if (w.values.empty() || id > w.top || w.top - id >= w.values.size()) return Phi{};
    return w.values[w.top - id];
  }

  // Drops the window's latest wait states while they are passed and read (or never to be read).
  void retire(std::size_t r) {
    Window& w = windows_[r];
    while (!w.values.empty() && done_[slot(r, w.top)] && consumed_[slot(r, w.top)]) {
      w.values.pop_front();
      if (w.top == 0) break;
      --w.top;
    }
  }

  void answer(std::size_t r, std::size_t id, const Phi& phi) {
    if (r == 0) {
      std::copy(phi.begin(), phi.end(), ownAnswers_.begin() + static_cast<std::ptrdiff_t>(kFamilies * id));
      return;
    }
    const std::size_t k = id / pieceSize_[r];
    Piece& piece = openPiece(r, k);
    std::copy(phi.begin(), phi.end(),
              piece.values.begin() + static_cast<std::ptrdiff_t>(kFamilies * (id % pieceSize_[r])));
    if (++piece.passed == piece.values.size() / kFamilies) send(r, k, piece);
  }

  Piece& openPiece(std::size_t r, std::size_t k) {
    auto [it, added] = pieces_[r].try_emplace(k);
    if (added) {
      const std::size_t first = k * pieceSize_[r];
      it->second.values.assign(kFamilies * std::min(pieceSize_[r], waitCounts_[r] - first), 0.0);
    }
    return it->second;
  }

  // Sends piece k of rank r (which receives it with tag k) and forgets it; reaps finished sends.
  void send(std::size_t r, std::size_t k, Piece& piece) {
    sends_.send(std::move(piece.values), static_cast<int>(r), static_cast<int>(k));
    sent_[r][k] = 1;
    pieces_[r].erase(k);
  }

  const std::vector<std::size_t>& waitCounts_;
  std::vector<double>& ownAnswers_;
  std::size_t ranks_;
  std::vector<std::size_t> waitDispls_;  // the ranks' wait states, flat
  std::vector<bool> done_, consumed_;
  std::vector<Window> windows_;
  std::vector<std::unordered_map<std::size_t, Piece>> pieces_;  // per rank, the pieces being filled
  std::vector<std::size_t> pieceSize_;
  std::vector<std::vector<char>> sent_;
  replay::SendQueue sends_;
};

// Rank 0: replays the ranks' item streams (through `windows`) and answers each rank the phi of
// its own wait states as its rank passed them (what its waiter sends), kFamilies values each
// (rank 0's own into `ownAnswers`): the cost a wait state passes on keeps the family of the wait
// state it came from.
void DelayPropagation::simulate(std::vector<StreamWindow>& windows, const std::vector<std::size_t>& waitCounts,
                                std::size_t chunk, std::vector<double>& ownAnswers) const {
  const std::size_t n = waitCounts.size();
  Simulation sim(*this, waitCounts, ownAnswers);
  auto finished = [&](std::size_t r) { return !ensure(r, windows[r], 1, chunk); };
  bool warned = false;
  for (;;) {
    bool progress = false, open = false;
    for (std::size_t r = 0; r < n; ++r) {
      StreamWindow& w = windows[r];
      while (!finished(r)) {
        if (w.buf[w.at] < 0.0) {
          sim.pass(r, static_cast<std::size_t>(-1.0 - w.buf[w.at]));
          w.at += 1;
          progress = true;
          continue;
        }
        ensure(r, w, 2, chunk);
        if (w.buf[w.at] >= static_cast<double>(n)) {  // reads nothing and adds nothing: need not wait
          const auto waiter = static_cast<std::size_t>(w.buf[w.at]) - n;
          const auto id = static_cast<std::size_t>(w.buf[w.at + 1]);
          if (sim.valid(waiter, id)) sim.unread(waiter, id);
          w.at += 2;
          progress = true;
          continue;
        }
        ensure(r, w, 6, chunk);
        const auto waiter = static_cast<std::size_t>(w.buf[w.at]);
        const auto id = static_cast<std::size_t>(w.buf[w.at + 1]);
        const bool valid = sim.valid(waiter, id);
        const auto props = static_cast<std::size_t>(w.buf[w.at + 5]);
        if (valid && !sim.done(waiter, id)) break;  // the waiter has not reached it yet
        ensure(r, w, 6 + 2 * props, chunk);
        const double* const item = w.buf.data() + w.at;
        const Simulation::Phi carried = valid ? sim.read(waiter, id) : Simulation::Phi{};
        const double omega = item[2], total = item[3];
        const auto family = static_cast<std::size_t>(item[4]);
        for (std::size_t k = 0; k < props; ++k) {
          const auto own = static_cast<std::size_t>(item[6 + 2 * k]);
          if (!sim.valid(r, own) || sim.done(r, own)) continue;
          const double v = item[7 + 2 * k];
          double* const into = sim.collecting(r, own);
          for (std::size_t g = 0; g < kFamilies; ++g) {
            if (g == family) into[g] += (omega + carried[g]) * v / total;
            else if (carried[g] != 0.0) into[g] += carried[g] * v / total;
          }
        }
        w.at += 6 + 2 * props;
        progress = true;
      }
      if (!finished(r)) open = true;
    }
    if (!open) break;
    if (!progress) {
      // A cycle (impossible for a valid trace: every edge goes back in time):
      // the distributed replay would wait forever; take the blocked item with
      // the phi collected so far.
      if (!warned) {
        std::fprintf(stderr, "waitscope-analyze: warning: delay costs: cyclic wait states; long-term costs on "
                             "the cycle are incomplete\n");
        warned = true;
      }
      for (std::size_t r = 0; r < n; ++r)
        if (!finished(r)) {
          const StreamWindow& w = windows[r];
          sim.pass(static_cast<std::size_t>(w.buf[w.at]), static_cast<std::size_t>(w.buf[w.at + 1]));
          break;
        }
    }
  }
  sim.finish();
}

// The local replay in backward order, with every phi known: the same charges
// in the same order as the message-driven replay.
void DelayPropagation::backwardReplay() {
  // A waiter's wait states end strictly later one after the other, so its items come in the
  // reverse of the order it sent them: its phi are taken from the end of its part of phiIn_.
  for (const Item& item : items_) {
    if (item.from == 0) {
      Wait& w = waits_[item.index];
      const double omega = w.end - w.start;
      // Propagating / terminal (the later waiting time this one explains, at most itself).
      const double propagating = std::min(omega, w.directShare);
      if (propagating > 0.0) sums_.add(kPropagating, w.path, propagating);
      if (omega - propagating > 0.0) sums_.add(kTerminal, w.path, omega - propagating);
    } else {
      charge(item.index, phiIn_.data() + (phiEnd_[item.from - 1] -= kFamilies));
    }
  }
}

// Short-term cost to the family of the wait state; long-term cost to the family of the later wait
// state it propagated to (Scalasca's delay_<pattern>_longterm).
void DelayPropagation::charge(std::size_t i, const double* phiOfIt) {
  const Incoming& in = caused_.incoming[i];
  const auto family = static_cast<std::size_t>(in.family);
  const double omega = in.omega, total = caused_.denom(i);
  const std::size_t endCharge = caused_.chargesEnd(i);
  std::array<double, kFamilies> longTerm{}, phi{};
  std::copy_n(phiOfIt, kFamilies, phi.begin());
  if (total > 0.0) {
    for (std::size_t j = in.firstCharge; j < endCharge; ++j) {
      const CallPathId path = caused_.chargePath(i, j);
      const double d = caused_.charges[j];
      for (std::size_t g = 0; g < kFamilies; ++g) longTerm[g] = phi[g] * d / total;
      chargePath(family, path, omega * d / total, longTerm);
    }
    for (std::size_t j = in.firstProp, end = caused_.propsEnd(i); j < end; ++j) {
      waits_[caused_.props.waits[j]].directShare += omega * caused_.props.values[j] / total;
    }
  } else {
    for (std::size_t j = in.firstCharge; j < endCharge; ++j) chargePath(family, caused_.chargePath(i, j), omega, phi);
  }
}

void DelayPropagation::chargePath(std::size_t family, CallPathId path, double shortTerm,
                                  const std::array<double, kFamilies>& longTerm) {
  if (path == kNone) return;
  for (std::size_t g = 0; g < kFamilies; ++g) {
    if (g == family) sums_.add(kDelay + g, path, shortTerm + longTerm[g]);
    else if (longTerm[g] > 0.0) sums_.add(kDelay + g, path, longTerm[g]);
    if (longTerm[g] > 0.0) sums_.add(kDelayLong + g, path, longTerm[g]);
  }
}

}  // namespace waitscope::causes::delay
