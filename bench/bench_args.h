#pragma once
// Command-line helpers shared by the benchmark executables.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace waitscope::bench {

// "200000", "200k", "10M": a positive count. Throws std::invalid_argument.
inline std::uint64_t parseCount(const std::string& option, const std::string& text) {
  std::size_t used = 0;
  std::uint64_t value = 0;
  try {
    value = std::stoull(text, &used);
  } catch (const std::exception&) {
    throw std::invalid_argument(option + ": expected a number, got '" + text + "'");
  }
  const std::string suffix = text.substr(used);
  if (suffix == "k" || suffix == "K") value *= 1000;
  else if (suffix == "m" || suffix == "M") value *= 1000 * 1000;
  else if (!suffix.empty()) throw std::invalid_argument(option + ": expected a number, got '" + text + "'");
  if (value == 0) throw std::invalid_argument(option + ": must be positive");
  return value;
}

// An option given last, without its value: "--events: missing value".
[[noreturn]] inline void throwMissingValue(const std::string& option) {
  throw std::invalid_argument(option + ": missing value");
}

}  // namespace waitscope::bench
