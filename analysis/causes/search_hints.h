#pragma once
// Where the last searches for one peer ended, on the waiter side or the cause side: each side
// queries in (roughly) increasing time order, so a search starts near the last answer.
#include <cstddef>

namespace waitscope::causes::delay {

struct SearchHints {
  std::size_t event = 0;      // IntervalProfile: the event where the last interval ended
  std::size_t waitStart = 0;  // SyncIndex: the wait state starting at the last synchronization
  std::size_t waitEnd = 0;    // firstWaitEndingAfter
};

}  // namespace waitscope::causes::delay
