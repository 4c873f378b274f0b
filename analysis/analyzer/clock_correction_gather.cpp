// gatherClockCorrections (analyzer.h): each rank's anchors and ramps to rank 0, in two gathers.
#include <mpi.h>

#include <cstddef>
#include <vector>

#include "analysis/analyzer/analyzer.h"
#include "analysis/replay/yielding_wait.h"

namespace waitscope::analyzer {

namespace {

// Every rank's `mine` on rank 0, concatenated in rank order, with each rank's count.
template <typename T>
std::vector<T> gatherAll(const std::vector<T>& mine, const replay::LocationComm& world, std::vector<int>& counts) {
  const int me = world.rank(), size = world.size();
  const int bytes = static_cast<int>(mine.size() * sizeof(T));
  std::vector<int> byteCounts(me == 0 ? static_cast<std::size_t>(size) : 0), offsets;
  world.gather(&bytes, 1, MPI_INT, byteCounts.data(), 1, MPI_INT, 0);
  std::vector<T> all;
  if (me == 0) {
    int total = 0;
    for (const int c : byteCounts) {
      offsets.push_back(total);
      total += c;
      counts.push_back(c / static_cast<int>(sizeof(T)));
    }
    all.resize(static_cast<std::size_t>(total) / sizeof(T));
  }
  world.gatherv(mine.data(), bytes, MPI_BYTE, all.data(), byteCounts.data(), offsets.data(), MPI_BYTE, 0);
  return all;
}

}  // namespace

std::vector<trace::LocationClockCorrection> gatherClockCorrections(const LocalResult& result, MPI_Comm world) {
  const replay::LocationComm locations(world, replay::nodeOversubscribed(world));
  return gatherClockCorrections(result, locations);
}

std::vector<trace::LocationClockCorrection> gatherClockCorrections(const LocalResult& result,
                                                                   const replay::LocationComm& world) {
  const trace::LocationClockCorrection& mine = result.timeCorrection.correction;
  std::vector<int> anchorCounts, rampCounts;
  const auto anchors = gatherAll(mine.anchors, world, anchorCounts);
  const auto ramps = gatherAll(mine.ramps, world, rampCounts);
  std::vector<trace::LocationClockCorrection> out(anchorCounts.size());
  std::size_t a = 0, r = 0;
  for (std::size_t l = 0; l < out.size(); ++l) {
    out[l].anchors.assign(anchors.begin() + static_cast<std::ptrdiff_t>(a),
                          anchors.begin() + static_cast<std::ptrdiff_t>(a + static_cast<std::size_t>(anchorCounts[l])));
    out[l].ramps.assign(ramps.begin() + static_cast<std::ptrdiff_t>(r),
                        ramps.begin() + static_cast<std::ptrdiff_t>(r + static_cast<std::size_t>(rampCounts[l])));
    a += static_cast<std::size_t>(anchorCounts[l]);
    r += static_cast<std::size_t>(rampCounts[l]);
  }
  return out;
}

}  // namespace waitscope::analyzer
