#pragma once
// A command line that cannot be run as given: waitscope-report prints the
// message and the usage, and exits with 2 (bad input exits with 1).
#include <stdexcept>

namespace waitscope::tools {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace waitscope::tools
