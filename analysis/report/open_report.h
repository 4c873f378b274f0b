#pragma once
// Opens what a user points at: a Waitscope report or a Cube 4 file (.cubex of
// Score-P, Scalasca or `waitscope-report cube`). The app and waitscope-report
// call this instead of readReport where a profile is enough.
#include <string>

#include "analysis/report/report.h"

namespace waitscope::report {

// True when `path` holds a tar archive (a .cubex), judged by content, or,
// when the file cannot be read, by its extension.
bool looksLikeCube(const std::string& path);

// readCube for a .cubex, readReport otherwise; throws ReportError.
Report openAnyReport(const std::string& path);

}  // namespace waitscope::report
