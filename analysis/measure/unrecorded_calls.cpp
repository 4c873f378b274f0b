// Record-time warnings about communication a trace cannot hold (unrecorded_calls.h).
#include "analysis/measure/unrecorded_calls.h"

#include <atomic>
#include <cstdio>

#include "analysis/measure/measure_internal.h"

namespace waitscope::measure {

namespace {
const char* currentCall() {
  return recorder.openMpi < kNumMpi ? kMpiNames[recorder.openMpi] : "an MPI call";
}
void count() {
  if (recorder.unrecordedCalls++ == 0) recorder.firstUnrecorded = recorder.openMpi;
}
}  // namespace

void noteUndefinedComm() {
  if (recorder.unrecordedCalls == 0)
    std::fprintf(stderr,
                 "waitscope: warning: rank %d: %s on a communicator the trace does not define (from MPI_Comm_spawn, "
                 "_connect, _accept, _join or _get_parent) is recorded as a region only: its messages are not "
                 "analyzed (record each job by itself)\n",
                 recorder.worldRank, currentCall());
  count();
}

void warnForeignComm(const char* function, MPI_Comm comm) {
  static bool said = false;
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  if (!said && rank == 0)
    std::fprintf(stderr,
                 "waitscope: warning: %s: its communicator can reach processes outside this job's MPI_COMM_WORLD, which "
                 "the trace cannot hold; calls on it are recorded as regions only (record each job by itself)\n",
                 function);
  said = true;
}

void warnFreedReceive() {
  if (recorder.unrecordedCalls == 0)
    std::fprintf(stderr,
                 "waitscope: warning: rank %d: MPI_Request_free of a receive in progress: its message cannot be "
                 "recorded and the analysis will find its send unmatched; complete receives with MPI_Wait or "
                 "MPI_Test\n",
                 recorder.worldRank);
  count();
}

namespace {
std::atomic<std::uint64_t> gOtherThreadCalls{0};
std::atomic<std::uint32_t> gOtherThreadFirst{kNumMpi};
}  // namespace

void noteOtherThread(std::uint32_t fn) {
  if (gOtherThreadCalls.fetch_add(1, std::memory_order_relaxed) != 0) return;
  gOtherThreadFirst.store(fn, std::memory_order_relaxed);
  std::fprintf(stderr,
               "waitscope: warning: rank %d: %s from a thread other than the one that called MPI_Init is not "
               "recorded (only that thread is): its communication is missing from the trace and the analysis may "
               "reject it; make the MPI calls from that thread\n",
               recorder.worldRank, fn < kNumMpi ? kMpiNames[fn] : "an MPI call");
}

std::uint64_t unrecordedCalls(std::uint32_t& first) {
  const std::uint64_t other = gOtherThreadCalls.load(std::memory_order_relaxed);
  first = recorder.unrecordedCalls != 0 ? recorder.firstUnrecorded : gOtherThreadFirst.load(std::memory_order_relaxed);
  return recorder.unrecordedCalls + other;
}

void printUnrecordedSummary(std::uint64_t calls, std::uint32_t first) {
  if (calls == 0) return;
  std::fprintf(stderr,
               "waitscope: warning: %llu MPI call%s (the first: %s) could not be recorded in full: their messages "
               "are left out of the trace (see the warnings above and docs/recording.md)\n",
               static_cast<unsigned long long>(calls), calls == 1 ? "" : "s",
               first < kNumMpi ? kMpiNames[first] : "an MPI call");
}

}  // namespace waitscope::measure
