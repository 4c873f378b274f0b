#pragma once
// A path as a file URI (RFC 8089): every byte but unreserved ones and '/'
// percent-encoded, "file://" before an absolute path, a relative reference
// otherwise. SARIF results name source files so, and SQLite opens a report so
// (a name holding '?' or '#' cannot add URI parameters).
#include <string>

namespace waitscope::report {

std::string fileUri(const std::string& path);

}  // namespace waitscope::report
