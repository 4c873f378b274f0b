// Placeholder until the module lands (being written alongside).
#include "causes.h"

namespace waitscope::causes {

void analyzeCriticalPath(replay::ReplayContext&, replay::LocalResult&) {}

}  // namespace waitscope::causes
