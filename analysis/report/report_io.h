#pragma once
// Reading and writing reports as one SQLite file. Writing is transactional: the
// report goes to a temporary file in the same directory and is renamed over
// `path` only when complete, so a killed analyzer never leaves a file that
// reads as a complete report.
#include <stdexcept>
#include <string>

#include "analysis/report/report.h"

namespace waitscope::report {

// A report that cannot be read or written; what() is one line naming the file
// and what to do.
class ReportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void writeReport(const Report& report, const std::string& path);
Report readReport(const std::string& path);

}  // namespace waitscope::report
