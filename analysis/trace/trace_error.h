#pragma once
#include <stdexcept>
#include <string>

namespace waitscope::trace {

// A trace that cannot be read or written. what() is one line naming the file
// and the problem, ready to show to a user.
class TraceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace waitscope::trace
