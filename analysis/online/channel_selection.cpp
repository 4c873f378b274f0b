#include "analysis/online/channel_selection.h"

#include <algorithm>
#include <numeric>

namespace waitscope::online {

ChannelSelector::ChannelSelector(Selection selection, double alpha, double beta, std::vector<Channel> channels)
    : selection_(selection), alpha_(alpha), beta_(beta), channels_(std::move(channels)) {
  penalty_.assign(channels_.size(), 0.0);
  order_.resize(channels_.size());
  std::iota(order_.begin(), order_.end(), std::size_t{0});
  for (std::size_t i = 0; i < channels_.size(); ++i)
    (channels_[i].direction == Direction::Application ? apps_ : others_).push_back(i);
  // the intralayer channel before the root direction
  std::stable_sort(others_.begin(), others_.end(), [&](std::size_t a, std::size_t b) {
    return channels_[a].direction == Direction::Intralayer && channels_[b].direction != Direction::Intralayer;
  });
  const std::size_t n = std::max<std::size_t>(channels_.size(), 1);
  idleAfter_ = selection_ == Selection::IntraRootApp ? (others_.size() + 1) * std::max<std::size_t>(apps_.size(), 1) : n;
  advance();
}

void ChannelSelector::empty() {
  ++emptyStreak_;
  if (selection_ == Selection::Heuristic) penalty_[current_] += beta_;
  ++pos_;
  advance();
}

void ChannelSelector::delivered(std::size_t raisedEvents) {
  emptyStreak_ = 0;
  switch (selection_) {
    case Selection::Heuristic:
      penalty_[current_] += alpha_ * static_cast<double>(raisedEvents);
      reorder();
      pos_ = 0;
      break;
    case Selection::RoundRobin:
    case Selection::IntraRootApp:
      ++pos_;
      break;
    case Selection::AppIntraRoot:
      pos_ = 0;  // back to the application direction
      break;
  }
  advance();
}

void ChannelSelector::reorder() {
  std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) { return penalty_[a] < penalty_[b]; });
}

// Sets current_ from pos_ (wrapping around the strategy's cycle).
void ChannelSelector::advance() {
  if (channels_.empty()) return;
  switch (selection_) {
    case Selection::Heuristic:
      if (pos_ >= order_.size()) {  // a full pass without a message: reorder, start again
        reorder();
        pos_ = 0;
      }
      current_ = order_[pos_];
      break;
    case Selection::RoundRobin:
      pos_ %= order_.size();
      current_ = order_[pos_];
      break;
    case Selection::IntraRootApp: {
      // a round: the intralayer channel, the root direction, then one application channel
      const std::size_t round = others_.size() + (apps_.empty() ? 0 : 1);
      if (pos_ >= round) pos_ = 0;
      if (pos_ < others_.size()) {
        current_ = others_[pos_];
      } else {
        current_ = apps_[appCursor_ % apps_.size()];
        ++appCursor_;
      }
      break;
    }
    case Selection::AppIntraRoot:
      // every application channel first (from a rotating start), then intralayer and root
      if (pos_ >= apps_.size() + others_.size()) pos_ = 0;
      if (pos_ < apps_.size()) {
        if (pos_ == 0) ++appCursor_;
        current_ = apps_[(appCursor_ + pos_) % apps_.size()];
      } else {
        current_ = others_[pos_ - apps_.size()];
      }
      break;
  }
}

}  // namespace waitscope::online
