#include "analysis/causes/critical_path_hops.h"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <utility>

#include "analysis/replay/search_near.h"
#include "analysis/replay/send_queue.h"

namespace waitscope::causes {
namespace {

// Rank 0 to a location, on kOrders: {kind, count, time}, all doubles. kFetch: send, on kSwitches,
// your `count` latest switches that ended at or before `time` among those not yet sent or skipped,
// as the index just above them and (end, cause) pairs. kLegs and kDone: `count` doubles of your
// legs follow on kOrders (none if 0); after kDone nothing more comes.
constexpr double kDone = 0.0, kFetch = 1.0, kLegs = 2.0;
constexpr int kOrders = 0;
constexpr int kSwitches = 1;
using OrderMessage = std::array<double, 3>;

// The switches [0, below) that ended at or before t: their number.
std::size_t endedBy(const std::vector<PathSwitch>& switches, std::size_t below, double t) {
  return replay::partitionPointNear(below, below, [&](std::size_t k) { return t < switches[k].end; });
}

// The chunk of `count` switches just below `above`, as the reply to kFetch.
void putChunk(const std::vector<PathSwitch>& switches, std::size_t above, std::size_t count, double* out) {
  out[0] = static_cast<double>(above);
  for (std::size_t j = 0, k = above - count; k < above; ++j, ++k) {
    out[1 + 2 * j] = switches[k].end;
    out[2 + 2 * j] = static_cast<double>(switches[k].cause);
  }
}

// A location other than rank 0: answers rank 0's orders until it is done.
void serve(const std::vector<PathSwitch>& switches, const replay::LocationComm& world,
           const std::function<void(const Leg&)>& onLeg) {
  std::size_t next = switches.size();  // switches [next, size) went to rank 0 or were skipped
  std::vector<double> buffer;
  for (;;) {
    OrderMessage order{};
    world.recv(order.data(), 3, MPI_DOUBLE, 0, kOrders);
    const auto count = static_cast<std::size_t>(order[1]);
    if (order[0] == kFetch) {
      const std::size_t above = endedBy(switches, next, order[2]);
      const std::size_t taken = std::min(count, above);
      buffer.resize(1 + 2 * taken);
      putChunk(switches, above, taken, buffer.data());
      world.send(buffer.data(), static_cast<int>(buffer.size()), MPI_DOUBLE, 0, kSwitches);
      next = above - taken;
      continue;
    }
    buffer.resize(count);
    if (count > 0) world.recv(buffer.data(), static_cast<int>(count), MPI_DOUBLE, 0, kOrders);
    for (std::size_t k = 0; k + 1 < count; k += 2) onLeg({buffer[k], buffer[k + 1]});
    if (order[0] == kDone) return;
  }
}

// Rank 0: the walk, over windows of the locations' switches. A location sends the chunk that
// ends at the walk's time, skipping the switches the walk has passed by in the meantime; the next
// chunk down is asked for as soon as the walk takes one (the first ones at the start), and legs go
// out without waiting for their receiver, so that the walk seldom waits for a location: with more
// locations than cores, one may need a time slice to answer.
class Planner {
 public:
  Planner(const std::vector<PathSwitch>& own, const std::vector<std::uint64_t>& counts,
          const replay::LocationComm& world, std::size_t chunk, const std::function<void(const Leg&)>& onLeg)
      : own_(own), world_(world), chunk_(chunk), onLeg_(onLeg), windows_(counts.size()), usable_(counts.size()),
        pending_(counts.size()) {
    for (std::size_t r = 0; r < counts.size(); ++r) {
      windows_[r].first = static_cast<std::size_t>(counts[r]);
      usable_[r] = static_cast<std::size_t>(counts[r]);
      if (r != 0 && counts[r] > 0) request(r, windows_[r], std::numeric_limits<double>::infinity());
    }
  }

  void walk(const PathEnds& ends) {
    const std::size_t n = windows_.size();
    std::vector<double> leftAt(n, std::numeric_limits<double>::infinity());  // when the token last left each location
    std::vector<char> warned(n, 0);
    auto at = static_cast<std::size_t>(ends.endRank);
    double t = ends.end;
    for (;;) {
      if (t == leftAt[at] && !warned[at]) {
        std::fprintf(stderr,
                     "waitscope-analyze: warning: critical path: rank %zu is its own cause at %.9f s "
                     "(a cycle of wait states); the path continues through the wait state\n",
                     at, t);
        warned[at] = 1;
      }
      const double arrived = t;
      std::size_t k = 0;
      if (!latestUsable(at, t, k)) {
        addLeg(at, arrived, ends.start);
        break;
      }
      // Switches [0, usable) of a location may still switch; one that switched is used up, so the
      // walk passes every wait state at most once and terminates.
      usable_[at] = k;
      const Window& w = windows_[at];
      t = w.end(k);
      const auto cause = static_cast<std::size_t>(w.cause(k));
      addLeg(at, arrived, t);
      leftAt[at] = t;
      at = cause;
    }
    for (std::size_t r = 1; r < n; ++r) sendLegs(r, kDone);
    // The chunks asked for and not used: their locations answer before they read kDone.
    for (Window& w : windows_)
      if (w.request != MPI_REQUEST_NULL) world_.waitAll({&w.request, 1});
    sends_.finish();
  }

 private:
  // The location's switches [first, first + count) as a kFetch reply holds them: the index above
  // them, then (end, cause) pairs; the next reply on its way into `ahead`.
  struct Window {
    std::vector<double> pairs;
    std::size_t first = 0;
    std::vector<double> ahead;
    MPI_Request request = MPI_REQUEST_NULL;
    double end(std::size_t k) const { return pairs[1 + 2 * (k - first)]; }
    double cause(std::size_t k) const { return pairs[2 + 2 * (k - first)]; }
  };

  // The latest usable switch of location r that ended at or before t, into k; false if none.
  bool latestUsable(std::size_t r, double t, std::size_t& k) {
    Window& w = windows_[r];
    for (;;) {
      const std::size_t usable = usable_[r];
      if (usable > w.first) {
        // The walk goes back in time: the answer lies just below the last switch used here.
        const std::size_t inWindow = usable - w.first;
        const std::size_t lo =
            replay::partitionPointNear(inWindow, inWindow, [&](std::size_t j) { return t < w.end(w.first + j); });
        if (lo > 0) {
          k = w.first + lo - 1;
          return true;
        }
      }
      // Every usable switch in the window ended after t, and t never grows again: none of them
      // will switch; go on below the window.
      usable_[r] = std::min(usable_[r], w.first);
      if (w.first == 0) return false;
      fetch(r, w, t);
    }
  }

  // Replaces r's window with the latest chunk below it of switches that ended at or before t
  // (those in between never switch: they ended after t), and asks for the next one down.
  void fetch(std::size_t r, Window& w, double t) {
    if (r == 0) {
      const std::size_t above = endedBy(own_, w.first, t), count = std::min(chunk_, above);
      w.pairs.resize(1 + 2 * count);
      putChunk(own_, above, count, w.pairs.data());
      take(r, w);
      return;
    }
    for (;;) {
      if (w.request == MPI_REQUEST_NULL) request(r, w, t);
      world_.waitAll({&w.request, 1});
      const auto above = static_cast<std::size_t>(w.ahead[0]);
      // Asked for at an earlier time of the walk, and all of it ended after this one: skipped.
      if (above > 0 && w.ahead[1] > t) continue;
      w.pairs.swap(w.ahead);
      take(r, w);
      if (w.first > 0) request(r, w, t);
      return;
    }
  }

  // The window now holds the reply in `pairs`.
  void take(std::size_t r, Window& w) {
    const auto above = static_cast<std::size_t>(w.pairs[0]);
    w.first = above - std::min(chunk_, above);
    usable_[r] = std::min(usable_[r], above);
  }

  void request(std::size_t r, Window& w, double t) {
    w.ahead.resize(1 + 2 * chunk_);
    const OrderMessage order{kFetch, static_cast<double>(chunk_), t};
    world_.send(order.data(), 3, MPI_DOUBLE, static_cast<int>(r), kOrders);
    w.request =
        world_.irecv(w.ahead.data(), static_cast<int>(w.ahead.size()), MPI_DOUBLE, static_cast<int>(r), kSwitches);
  }

  void addLeg(std::size_t r, double from, double to) {
    if (r == 0) {
      onLeg_({from, to});
      return;
    }
    std::vector<double>& legs = pending_[r];
    legs.push_back(from);
    legs.push_back(to);
    if (legs.size() >= 2 * chunk_) sendLegs(r, kLegs);
  }

  void sendLegs(std::size_t r, double kind) {
    const auto to = static_cast<int>(r);
    const std::size_t count = pending_[r].size();
    sends_.send({kind, static_cast<double>(count), 0.0}, to, kOrders);
    if (count > 0) sends_.send(std::exchange(pending_[r], {}), to, kOrders);
  }

  const std::vector<PathSwitch>& own_;
  const replay::LocationComm& world_;
  std::size_t chunk_;
  const std::function<void(const Leg&)>& onLeg_;
  std::vector<Window> windows_;
  std::vector<std::size_t> usable_;
  std::vector<std::vector<double>> pending_;  // per location, the legs not yet sent
  replay::SendQueue sends_{world_};
};

}  // namespace

std::size_t hopChunk(int locations) {
  return std::clamp<std::size_t>((std::size_t{1} << 16) / static_cast<std::size_t>(std::max(locations, 1)), 64,
                                 4096);
}

void walkHops(const std::vector<PathSwitch>& switches, const PathEnds& ends, const replay::LocationComm& world,
              std::size_t chunk, const std::function<void(const Leg&)>& onLeg) {
  // A chunk's count of doubles must fit an int.
  chunk = std::clamp<std::size_t>(chunk, 1, std::size_t{1} << 24);
  const std::uint64_t mine = switches.size();
  std::vector<std::uint64_t> counts(world.rank() == 0 ? static_cast<std::size_t>(world.size()) : 0);
  world.gather(&mine, 1, MPI_UINT64_T, counts.data(), 1, MPI_UINT64_T, 0);
  if (world.rank() == 0) Planner(switches, counts, world, chunk, onLeg).walk(ends);
  else serve(switches, world, onLeg);
}

}  // namespace waitscope::causes
