#pragma once
// The colour group of a region, from its name (Score-P's and our recorder's
// MPI regions are named after the MPI function).
#include <string_view>
#include <vector>

#include "analysis/report/report.h"
#include "analysis/timeline/timeline_types.h"

namespace waitscope::timeline {

RegionGroup regionGroup(std::string_view regionName);

// The group of every call path of `report` (by its region), indexed like Report::callPaths.
std::vector<RegionGroup> callPathGroups(const report::Report& report);

}  // namespace waitscope::timeline
