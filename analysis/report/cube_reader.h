#pragma once
// Reads a Cube 4 file (.cubex) of Score-P, Scalasca or `waitscope-report cube`
// into a Report, so the app and the command-line tools show it in the three
// trees. Read-only and without instances or critical path (Cube has none).
// What does not fit our model is named in the report's meta (docs/cube.md):
// "cube_skipped_metrics" (non-additive data types such as min/max time) and
// "cube_derived_metrics" (CubePL metrics without stored data, shown as zero).
#include <string>

#include "analysis/report/report.h"

namespace waitscope::report {

// Throws ReportError ("PATH: not a Cube file (...)", "PATH: damaged Cube file (...)").
Report readCube(const std::string& path);

// The same from the archive's bytes; `name` stands for the file in messages.
Report readCubeArchive(const std::string& bytes, const std::string& name);

}  // namespace waitscope::report
