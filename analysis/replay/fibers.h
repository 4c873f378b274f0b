#pragma once
// Cooperative fibers on one thread. An analysis process that holds several trace locations runs
// each location's analysis on a fiber of its own, unchanged: where a location waits for MPI
// (replay/yielding_wait.h), its fiber lets the others run, so locations of one process can wait
// for each other as analysis ranks of their own would. MPI sees one thread.
#include <cstddef>
#include <functional>

namespace waitscope::replay {

class Fibers {
 public:
  // Runs body(i) for every i < count, each on its own fiber, round robin from wait to wait,
  // until all have returned; then rethrows the exception of the lowest i that threw, if any.
  // With `yieldCore`, a round in which no fiber got further sleeps a little (20 µs, backing off
  // to 200 µs), as a lone waiting rank would. Not nested.
  static void run(std::size_t count, const std::function<void(std::size_t)>& body, bool yieldCore);

  // Whether the caller runs on a fiber of run().
  static bool inFiber();
  // On a fiber: lets the other fibers run once.
  static void yield();
  // On a fiber: a wait it was in has completed (the round was not idle).
  static void progressed();
};

}  // namespace waitscope::replay
