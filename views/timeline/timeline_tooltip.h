#pragma once
// The tooltip of a timeline item: what it is, where and when, in a few lines.
#include <QString>

#include "analysis/report/report.h"
#include "views/timeline/timeline_hit.h"
#include "views/timeline/timeline_style.h"

namespace waitscope::views {

// The text for `hit` in `slice` (empty for nothing and for node headers);
// names come from `report` and `style`.
QString describeHit(const TimelineHit& hit, const timeline::Slice& slice, const report::Report* report,
                    const TimelineStyle& style);

}  // namespace waitscope::views
