#pragma once
// Which channel a place probes next (Hilbrich et al., EASC 2014, section 4). A channel is one
// direction's source: each application rank (or child place) is one channel of the application
// direction; the intralayer direction is one wildcard channel; the root direction is the parent.
//
// Heuristic: every channel has a penalty score, starting at 0; a probe that finds nothing adds
// beta and moves on to the next channel of the list; a message whose analysis raised the place's
// memory adds alpha to its channel; after a message the list is reordered by increasing penalty
// (stable, so ties keep their order) and probing starts again at its head.
// The static strategies of the paper's study, and round-robin, are there for comparison.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/online/online_config.h"

namespace waitscope::online {

enum class Direction : std::uint8_t { Application, Intralayer, Root };

struct Channel {
  Direction direction;
  int source;  // world rank, or -1 for the intralayer wildcard
  int tag;
};

class ChannelSelector {
 public:
  ChannelSelector(Selection selection, double alpha, double beta, std::vector<Channel> channels);

  // The channel to probe now (an index into channels()).
  std::size_t next() const { return current_; }
  // The probe of next() found nothing.
  void empty();
  // The probe of next() delivered a message; `raisedEvents`: how many of its events left the
  // place's analysis holding more entries than before (each adds alpha).
  void delivered(std::size_t raisedEvents);
  // True when the probes since the last delivery have covered every channel without finding
  // anything: the place may sleep a little.
  bool idle() const { return emptyStreak_ >= idleAfter_; }

  const std::vector<Channel>& channels() const { return channels_; }
  double penalty(std::size_t channel) const { return penalty_[channel]; }
  // The heuristic's list, head first (for tests and the log).
  const std::vector<std::size_t>& order() const { return order_; }

 private:
  void advance();
  void reorder();

  Selection selection_;
  double alpha_, beta_;
  std::vector<Channel> channels_;
  std::vector<double> penalty_;
  std::vector<std::size_t> order_;        // heuristic: by increasing penalty; others: a fixed cycle
  std::vector<std::size_t> apps_, others_;  // application channels; intralayer then root
  std::size_t pos_ = 0;       // position in order_ (heuristic, round-robin) or in the round
  std::size_t appCursor_ = 0; // static strategies: the next application channel
  std::size_t current_ = 0;
  std::size_t emptyStreak_ = 0, idleAfter_ = 1;
};

}  // namespace waitscope::online
