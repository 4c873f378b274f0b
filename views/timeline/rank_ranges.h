#pragma once
// Rank ranges as a user types them ("0-3, 6, 10-12"): which locations of a
// report they show (every location of a listed MPI rank: its process and its
// threads or streams).
#include <vector>

#include <QString>

#include "analysis/report/report.h"

namespace waitscope::views {

// Per location of `report`, nonzero when its rank is not in `ranges`. On a
// typing error (not a number, a range running backwards, nothing listed)
// returns an empty vector and sets `error` to one line saying what to type.
std::vector<char> hiddenOutsideRanks(const QString& ranges, const report::Report& report, QString* error);

}  // namespace waitscope::views
