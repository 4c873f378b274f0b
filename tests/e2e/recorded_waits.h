#pragma once
// What a recorded trace itself says about its wait states: the MPI-1 and fence rules of
// docs/patterns.md and docs/patterns/rma_active.md evaluated serially, in the simplest way, on
// the enter and leave times the program actually had. The end-to-end tests compare the
// analyzer's report with these values, so their exact checks hold however busy the machine was
// while the program ran (a nominal sleep length does not).
//
// Covered: Late Sender (MPI_Recv and the waits completing an MPI_Irecv), Late Receiver (MPI_Send,
// MPI_Ssend and the waits completing an MPI_Isend, Scalasca's definition), Wait at
// Barrier, Wait at N x N, Late Broadcast, Early Reduce, and the synchronizing part of Wait at
// Fence, Wait at Create and Wait at Free (latest enter - enter when the latest enter precedes the
// earliest exit). Not covered: Early Fence, the GATS and lock patterns; the tests check those by
// design only (the pattern appears on the expected rank and call path and dominates there).
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace waitscope::test {

class RecordedWaits {
 public:
  // Reads the trace at `anchor` serially; throws what the trace reader throws.
  explicit RecordedWaits(const std::string& anchor);

  // The metrics this oracle computes (report unique names).
  static const std::vector<std::string>& metrics();

  // Seconds of `metric` on `rank` at the call path written "main/MPI_Recv" (region names joined
  // by '/'), at call-site line `line` (0: every call site of the path).
  double value(const std::string& metric, int rank, const std::string& path, std::uint32_t line = 0) const;

  // Every (rank, path, line) with a value of `metric`, zero values included: every call of the
  // metric's kind shows up, so a report value where the trace says nothing is also found.
  struct Cell {
    int rank;
    std::string path;
    std::uint32_t line;
    double seconds;
  };
  std::vector<Cell> cells(const std::string& metric) const;

  // Number of calls that took part (a tolerance of a few ns per call covers rounding).
  std::size_t calls(const std::string& metric, int rank, const std::string& path) const;

 private:
  using Key = std::tuple<std::string, int, std::string, std::uint32_t>;  // metric, rank, path, line
  void add(const std::string& metric, int rank, const std::string& path, std::uint32_t line, double seconds);
  std::map<Key, double> seconds_;
  std::map<Key, std::size_t> calls_;
};

}  // namespace waitscope::test
