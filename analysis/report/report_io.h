#pragma once
// Reading and writing reports as one SQLite file. Writing is transactional: the
// report goes to a temporary file in the same directory and is renamed over
// `path` only when complete, so a killed analyzer never leaves a file that
// reads as a complete report.
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/report/report.h"

namespace waitscope::report {

// A report that cannot be read or written; what() is one line naming the file
// and what to do.
class ReportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void writeReport(const Report& report, const std::string& path);

// Wait-state instances that follow the report's own, run by run: an analysis hands them
// over from its ranks as the writer asks for them, so that no process holds all of them.
// Each call replaces `into` with the next run; false when there is none left.
using InstanceSource = std::function<bool(std::vector<Instance>& into)>;
// writeReport with `more` instances after report.instances, checked as they come.
void writeReport(const Report& report, const std::string& path, const InstanceSource& more);
Report readReport(const std::string& path);

}  // namespace waitscope::report
