#include "analysis/timeline/region_group.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace waitscope::timeline {

namespace {

constexpr std::array<std::string_view, 10> kRmaCommunication = {
    "Put", "Get", "Accumulate", "Get_accumulate", "Fetch_and_op", "Compare_and_swap",
    "Rput", "Rget", "Raccumulate", "Rget_accumulate"};

constexpr std::array<std::string_view, 17> kCollective = {
    "Barrier", "Bcast", "Gather", "Gatherv", "Scatter", "Scatterv", "Allgather", "Allgatherv", "Alltoall",
    "Alltoallv", "Alltoallw", "Allreduce", "Reduce", "Reduce_scatter", "Reduce_scatter_block", "Scan", "Exscan"};

constexpr std::array<std::string_view, 33> kPointToPoint = {
    "Send", "Recv", "Isend", "Irecv", "Ssend", "Bsend", "Rsend", "Issend", "Ibsend", "Irsend", "Sendrecv",
    "Sendrecv_replace", "Wait", "Waitall", "Waitany", "Waitsome", "Test", "Testall", "Testany", "Testsome",
    "Probe", "Iprobe", "Mprobe", "Improbe", "Mrecv", "Imrecv", "Start", "Startall", "Send_init", "Recv_init",
    "Ssend_init", "Cancel", "Request_free"};

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

RegionGroup regionGroup(std::string_view regionName) {
  constexpr std::string_view kPrefix = "MPI_";
  if (!regionName.starts_with(kPrefix)) return RegionGroup::UserCode;
  const std::string_view f = regionName.substr(kPrefix.size());
  if (contains(kRmaCommunication, f)) return RegionGroup::RmaCommunication;
  if (f.starts_with("Win_")) return RegionGroup::RmaSynchronization;
  if (contains(kCollective, f)) return RegionGroup::MpiCollective;
  // Non-blocking collectives: MPI_Ibarrier, MPI_Iallreduce, ...
  if (f.size() > 1 && f[0] == 'I') {
    std::string blocking(f.substr(1));
    blocking[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(blocking[0])));
    if (contains(kCollective, blocking)) return RegionGroup::MpiCollective;
  }
  if (contains(kPointToPoint, f)) return RegionGroup::MpiPointToPoint;
  return RegionGroup::MpiOther;
}

std::vector<RegionGroup> callPathGroups(const report::Report& report) {
  std::vector<RegionGroup> groups(report.callPaths.size(), RegionGroup::MpiOther);
  for (std::size_t i = 0; i < report.callPaths.size(); ++i) {
    const std::uint32_t region = report.callPaths[i].region;
    if (region < report.regions.size()) groups[i] = regionGroup(report.regions[region].name);
  }
  return groups;
}

}  // namespace waitscope::timeline
