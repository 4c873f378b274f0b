#include "analysis/report/open_report.h"

#include "analysis/report/cube_reader.h"
#include "analysis/report/input_file.h"
#include "analysis/report/report_io.h"

namespace waitscope::report {

bool looksLikeCube(const std::string& path) {
  std::string start;
  try {
    start = readRegularFile(path, 512);
  } catch (const ReportError&) {
    return path.ends_with(".cubex");  // the reader says what is wrong with it
  }
  if (start.rfind("SQLite format 3", 0) == 0) return false;     // our reports
  if (start.size() == 512 && start.compare(257, 5, "ustar") == 0) return true;  // POSIX tar
  return path.ends_with(".cubex");  // old-style tar, or damaged: let the Cube reader say what is wrong
}

Report openAnyReport(const std::string& path) { return looksLikeCube(path) ? readCube(path) : readReport(path); }

}  // namespace waitscope::report
