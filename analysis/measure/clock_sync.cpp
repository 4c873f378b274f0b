#include "analysis/measure/clock_sync.h"

#include <cstdio>
#include <cstring>
#include <vector>

namespace waitscope::measure {
namespace {

constexpr int kExchanges = 8;
constexpr int kTag = 1;
constexpr int kBootIdLength = 40;

// The kernel's boot id: processes with the same one read the same CLOCK_MONOTONIC.
void bootId(char (&out)[kBootIdLength]) {
  std::memset(out, 0, sizeof out);
  if (std::FILE* f = std::fopen("/proc/sys/kernel/random/boot_id", "r")) {
    if (!std::fgets(out, sizeof out, f)) out[0] = '\0';
    std::fclose(f);
  }
}

}  // namespace

ClockOffsetSample measureClockOffset(MPI_Comm comm, std::uint64_t (*now)(), bool measureAll) {
  int rank = 0, size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  char mine[kBootIdLength], root[kBootIdLength];
  bootId(mine);
  std::memcpy(root, mine, sizeof root);
  PMPI_Bcast(root, kBootIdLength, MPI_CHAR, 0, comm);
  // Without a boot id (not Linux, no /proc) nothing says the clocks are one: measure.
  const int measure = rank != 0 && (measureAll || mine[0] == '\0' || std::strcmp(mine, root) != 0) ? 1 : 0;
  std::vector<int> measured(rank == 0 ? static_cast<std::size_t>(size) : 0);
  PMPI_Gather(&measure, 1, MPI_INT, measured.data(), 1, MPI_INT, 0, comm);

  ClockOffsetSample sample;
  if (rank == 0) {
    for (int r = 1; r < size; ++r) {
      if (!measured[static_cast<std::size_t>(r)]) continue;
      for (int k = 0; k < kExchanges; ++k) {
        char ping = 0;
        PMPI_Recv(&ping, 1, MPI_CHAR, r, kTag, comm, MPI_STATUS_IGNORE);
        const std::uint64_t t = now();
        PMPI_Send(&t, 1, MPI_UINT64_T, r, kTag, comm);
      }
    }
    sample.time = now();
    return sample;
  }
  if (!measure) {
    sample.time = now();
    return sample;
  }
  std::uint64_t best = ~std::uint64_t{0};
  for (int k = 0; k < kExchanges; ++k) {
    const char ping = 0;
    std::uint64_t rootTime = 0;
    const std::uint64_t sent = now();
    PMPI_Send(&ping, 1, MPI_CHAR, 0, kTag, comm);
    PMPI_Recv(&rootTime, 1, MPI_UINT64_T, 0, kTag, comm, MPI_STATUS_IGNORE);
    const std::uint64_t received = now();
    const std::uint64_t roundTrip = received - sent;
    if (roundTrip < best) {
      best = roundTrip;
      sample.time = sent + roundTrip / 2;
      sample.offset = static_cast<std::int64_t>(rootTime - sample.time);
      sample.deviation = static_cast<double>(roundTrip) / 2.0;
    }
  }
  return sample;
}

}  // namespace waitscope::measure
