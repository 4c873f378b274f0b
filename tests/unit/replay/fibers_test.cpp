// replay::Fibers: every body runs to its end, the fibers take turns at each yield in index
// order, and an exception ends only its own fiber, the lowest index's rethrown after all ended.
#include "analysis/replay/fibers.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace waitscope::replay {
namespace {

TEST(Fibers, TakeTurnsAtEveryYield) {
  std::vector<int> order;
  Fibers::run(
      3,
      [&](std::size_t i) {
        EXPECT_TRUE(Fibers::inFiber());
        for (int step = 0; step < 2; ++step) {
          order.push_back(static_cast<int>(10 * step + i));
          Fibers::yield();
        }
      },
      false);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 10, 11, 12}));
  EXPECT_FALSE(Fibers::inFiber());
}

// A fiber that waits for another (as a location waits for a message of one its process holds)
// gets it once the other has run.
TEST(Fibers, OneWaitsForAnother) {
  bool sent = false;
  int seen = 0;
  Fibers::run(
      2,
      [&](std::size_t i) {
        if (i == 0) {
          while (!sent) Fibers::yield();
          seen = 1;
        } else {
          for (int k = 0; k < 5; ++k) Fibers::yield();
          sent = true;
        }
      },
      true);
  EXPECT_EQ(seen, 1);
}

TEST(Fibers, LowestExceptionAfterAllEnded) {
  std::vector<bool> ended(4, false);
  try {
    Fibers::run(
        4,
        [&](std::size_t i) {
          Fibers::yield();
          if (i == 1 || i == 3) throw std::runtime_error("fiber " + std::to_string(i));
          ended[i] = true;
        },
        false);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "fiber 1");
  }
  EXPECT_TRUE(ended[0]);
  EXPECT_TRUE(ended[2]);
}

// Deep enough to need more than a page of the fiber's own stack.
int depth(int n) {
  volatile char pad[256] = {};
  return n == 0 ? pad[0] : 1 + depth(n - 1) + pad[1];
}

TEST(Fibers, RunOnTheirOwnStacks) {
  std::vector<int> got(2, 0);
  Fibers::run(2, [&](std::size_t i) { got[i] = depth(2000); }, false);
  EXPECT_EQ(got, (std::vector<int>{2000, 2000}));
}

}  // namespace
}  // namespace waitscope::replay
