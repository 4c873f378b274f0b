#pragma once
// The default output name of a run, stamped with the local start time so that
// successive runs do not overwrite each other ("waitscope-trace-20261121-094100").
#include <ctime>
#include <string>

namespace waitscope::report {

// `format` is a strftime format, e.g. "waitscope-trace-%Y%m%d-%H%M%S".
inline std::string timestampedName(const char* format) {
  char buf[96];
  const std::time_t t = std::time(nullptr);
  std::tm tm;
  localtime_r(&t, &tm);
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

}  // namespace waitscope::report
