#include "open_report.h"

#include <fstream>

#include "cube_reader.h"
#include "report_io.h"

namespace waitscope::report {

bool looksLikeCube(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char header[512] = {};
  in.read(header, sizeof header);
  const std::string start(header, static_cast<std::size_t>(in.gcount()));
  if (start.rfind("SQLite format 3", 0) == 0) return false;     // our reports
  if (start.size() == sizeof header && start.compare(257, 5, "ustar") == 0) return true;  // POSIX tar
  return path.ends_with(".cubex");  // old-style tar, or damaged: let the Cube reader say what is wrong
}

Report openAnyReport(const std::string& path) { return looksLikeCube(path) ? readCube(path) : readReport(path); }

}  // namespace waitscope::report
