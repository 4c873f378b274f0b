#pragma once
// What a recorded trace itself says about its GATS wait states (post/start/complete/wait): Late
// Post, Early Wait and Late Complete as docs/patterns/rma_active.md defines them (Hermanns et al.,
// IJHPCA 2012; EuroMPI 2013), evaluated serially, in the simplest way, on the enter and leave
// times of the recorded calls. It complements RecordedWaits, which covers the MPI-1 and fence
// rules, so that an end-to-end test can check the analyzer's GATS values exactly, however busy
// the machine was while the program ran.
//
// Epochs match in order, per window and pair: the k-th access epoch of origin o whose start
// group holds t meets the k-th exposure epoch of t whose post group holds o.
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace waitscope::test {

class RecordedGatsWaits {
 public:
  // Reads the trace at `anchor` serially; throws what the trace reader throws, and
  // std::runtime_error when an epoch has no partner epoch in the trace.
  explicit RecordedGatsWaits(const std::string& anchor);

  // The metrics this oracle computes (report unique names).
  static const std::vector<std::string>& metrics();

  // Every (rank, MPI call, call-site line) with a value of `metric`, zero values included.
  struct Cell {
    int rank;
    std::string region;  // the MPI call the wait is attributed to, e.g. "MPI_Win_start"
    std::uint32_t line;
    double seconds;
    std::size_t calls;   // calls that took part (a tolerance of a few ns per call covers rounding)
  };
  std::vector<Cell> cells(const std::string& metric) const;

  // Seconds of `metric` on `rank`, summed over every call and call site.
  double total(const std::string& metric, int rank) const;

 private:
  using Key = std::tuple<std::string, int, std::string, std::uint32_t>;  // metric, rank, region, line
  struct Sum {
    double seconds = 0.0;
    std::size_t calls = 0;
  };
  std::map<Key, Sum> sums_;
};

}  // namespace waitscope::test
