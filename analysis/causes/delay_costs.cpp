// Placeholder until the module lands (being written alongside).
#include "causes.h"

namespace waitscope::causes {

void analyzeDelays(replay::ReplayContext&, replay::LocalResult&) {}

}  // namespace waitscope::causes
