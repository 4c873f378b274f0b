// Channel selection (seed 002, section 4): the heuristic's penalties and list order, and the
// static strategies' probing sequences.
#include "channel_selection.h"

#include <gtest/gtest.h>

#include <vector>

using namespace waitscope::online;

namespace {

std::vector<Channel> threeAppsIntraRoot() {
  return {{Direction::Application, 0, -1}, {Direction::Application, 1, -1}, {Direction::Application, 2, -1},
          {Direction::Intralayer, -1, 7}, {Direction::Root, 9, 6}};
}

// The next `n` channels probed when every probe finds nothing.
std::vector<std::size_t> emptySequence(ChannelSelector& s, int n) {
  std::vector<std::size_t> out;
  for (int i = 0; i < n; ++i) {
    out.push_back(s.next());
    s.empty();
  }
  return out;
}

}  // namespace

TEST(ChannelSelection, HeuristicAddsBetaForEmptyProbesAndAlphaPerRaisingEvent) {
  ChannelSelector s(Selection::Heuristic, 10.0, 1.0, threeAppsIntraRoot());
  EXPECT_EQ(s.next(), 0u);
  s.empty();  // channel 0: +beta
  EXPECT_EQ(s.next(), 1u);
  s.delivered(3);  // channel 1: three events raised memory: +3 alpha; list reordered, head again
  EXPECT_DOUBLE_EQ(s.penalty(0), 1.0);
  EXPECT_DOUBLE_EQ(s.penalty(1), 30.0);
  EXPECT_EQ(s.order(), (std::vector<std::size_t>{2, 3, 4, 0, 1}));
  EXPECT_EQ(s.next(), 2u);
  s.delivered(0);  // a message that lowered memory: no penalty, stays at the head
  EXPECT_DOUBLE_EQ(s.penalty(2), 0.0);
  EXPECT_EQ(s.next(), 2u);
}

TEST(ChannelSelection, HeuristicPrefersTheChannelThatLowersMemory) {
  // Two senders whose events raise memory and a receiver whose events match them.
  ChannelSelector s(Selection::Heuristic, 10.0, 1.0,
                    {{Direction::Application, 0, -1}, {Direction::Application, 1, -1}, {Direction::Application, 2, -1}});
  s.delivered(1);  // sender 0
  EXPECT_EQ(s.next(), 1u);
  s.delivered(0);  // receiver 1 matched: stays first
  EXPECT_EQ(s.next(), 1u);
  s.empty();       // receiver empty: +1
  EXPECT_EQ(s.next(), 2u);
  s.delivered(1);  // sender 2
  EXPECT_EQ(s.order().front(), 1u);  // the receiver (penalty 1) before the senders (10 each)
}

TEST(ChannelSelection, RoundRobinVisitsEveryChannelInTurn) {
  ChannelSelector s(Selection::RoundRobin, 1.0, 1.0, threeAppsIntraRoot());
  EXPECT_EQ(emptySequence(s, 7), (std::vector<std::size_t>{0, 1, 2, 3, 4, 0, 1}));
  s.delivered(5);  // no penalties, just the next channel
  EXPECT_EQ(s.next(), 3u);
  EXPECT_DOUBLE_EQ(s.penalty(2), 0.0);
}

TEST(ChannelSelection, IntraRootAppProbesIntralayerRootThenOneApplicationChannel) {
  ChannelSelector s(Selection::IntraRootApp, 1.0, 1.0, threeAppsIntraRoot());
  EXPECT_EQ(emptySequence(s, 8), (std::vector<std::size_t>{3, 4, 0, 3, 4, 1, 3, 4}));
  EXPECT_FALSE(s.idle());
  EXPECT_EQ(emptySequence(s, 1), (std::vector<std::size_t>{2}));
  EXPECT_TRUE(s.idle());  // every channel probed without a message
}

TEST(ChannelSelection, AppIntraRootServesApplicationChannelsWhilePossible) {
  ChannelSelector s(Selection::AppIntraRoot, 1.0, 1.0, threeAppsIntraRoot());
  const std::size_t first = s.next();
  EXPECT_LT(first, 3u);
  s.delivered(0);
  EXPECT_LT(s.next(), 3u);  // back to the application direction after a message
  // all application channels empty: then intralayer, then root
  std::vector<std::size_t> seq = emptySequence(s, 5);
  EXPECT_LT(seq[0], 3u);
  EXPECT_LT(seq[1], 3u);
  EXPECT_LT(seq[2], 3u);
  EXPECT_EQ(seq[3], 3u);
  EXPECT_EQ(seq[4], 4u);
}
