#pragma once
// `waitscope-report cube`: a report as a Cube 4 file (.cubex) that Cube's GUI
// and command-line tools open. Metrics keep their (Scalasca) unique names;
// call tree, system tree and exclusive severities map one to one; instances
// and the critical-path segments have no place in Cube and are left out.
#include <string>

#include "analysis/report/report.h"

namespace waitscope::report {

// The .cubex bytes of `report` (a tar of anchor.xml and N.index/N.data per metric).
std::string cubeArchive(const Report& report);

// Writes cubeArchive(report) to `path` (via a temporary file and a rename);
// throws ReportError naming the file.
void writeCube(const Report& report, const std::string& path);

}  // namespace waitscope::report
