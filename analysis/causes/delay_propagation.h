#pragma once
// The propagation and charging of the delay costs, in backward order: the propagated cost phi of
// every wait state (solved on rank 0 from all ranks' item sequences), then the charges of every
// remote wait state this rank caused to its call paths (short- and long-term delay) and to its
// own wait states (direct/indirect, propagating/terminal).
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/causes/analyzed_waits.h"
#include "analysis/causes/caused_waits.h"
#include "analysis/replay/path_sums.h"
#include "analysis/replay/replay_context.h"
#include "analysis/trace/ids.h"

namespace waitscope::causes::delay {

class DelayPropagation {
 public:
  DelayPropagation(replay::ReplayContext& ctx, const replay::LocationComm& comm, AnalyzedWaits& waits,
                   CausedWaits& caused);

  // Collective over `comm`: orders the items, solves phi, replays backward and
  // adds the delay_*, mpi_wait_* metrics to ctx.severities.
  void run();

 private:
  struct Item {
    double key;
    std::uint32_t index;  // into waits_ or incoming
    std::uint32_t from;   // 0: an own wait state (a send); else a remote one this rank caused, of waiter from - 1
  };

  // Rank 0's view of one rank's item stream: a window of it, refilled in chunks.
  struct StreamWindow {
    std::vector<double> buf;
    std::size_t at = 0;        // the next unread value in buf
    std::size_t received = 0;  // values of the stream taken into buf so far
    std::size_t total = 0;     // the stream's length
    std::size_t nextItem = 0;  // rank 0's own stream: the next entry of items_ to write
  };

  void orderItems();
  void solvePropagation();
  std::size_t streamLength() const;
  void appendStream(std::size_t& next, std::vector<double>& out, std::size_t upTo) const;
  void sendStream(std::size_t chunk) const;
  bool ensure(std::size_t r, StreamWindow& w, std::size_t need, std::size_t chunk) const;
  void exchangePhiAndIndirect(const std::vector<double>& phiOfMine);
  class Simulation;
  static std::size_t answerPiece(std::size_t ranks, std::size_t waits);
  void simulate(std::vector<StreamWindow>& windows, const std::vector<std::size_t>& waitCounts, std::size_t chunk,
                std::vector<double>& ownAnswers) const;
  void backwardReplay();
  void charge(std::size_t i, const double* phiOfIt);
  void chargePath(std::size_t family, trace::CallPathId path, double shortTerm,
                  const std::array<double, kFamilies>& longTerm);

  replay::ReplayContext& ctx_;
  const replay::LocationComm& comm_;
  std::vector<Wait>& waits_;
  const std::vector<std::uint32_t>& causeBegin_;
  const std::vector<std::uint32_t>& byCause_;
  CausedWaits& caused_;
  std::vector<Item> items_;
  std::vector<double> phiIn_;  // the incoming wait states' phi, as the exchange received them
  std::vector<std::size_t> phiEnd_;  // per waiter, the end of its part of phiIn_
  replay::PathSums sums_;
};

}  // namespace waitscope::causes::delay
