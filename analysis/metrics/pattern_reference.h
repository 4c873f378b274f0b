#pragma once
// The pattern reference (docs/pattern-reference.md), written from the metric table and the
// pattern advice the analyzer and the app use, so the documentation cannot drift from them.
#include <ostream>

namespace waitscope::metrics {

// Writes the whole Markdown page: the metric tree, a section per wait-state pattern
// (description, parent, unit, what to change) and a table of the other metrics.
void writePatternReference(std::ostream& out);

}  // namespace waitscope::metrics
