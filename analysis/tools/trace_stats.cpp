#include "analysis/tools/trace_stats.h"

#include <iomanip>

namespace waitscope::tools {

using trace::EventKind;
using trace::kEventKindCount;
using trace::kEventKindNames;

namespace {

// Every RMA operation completion, whatever its kind: the number users compare
// with the number of transfers.
std::uint64_t rmaCompletions(const std::array<std::uint64_t, kEventKindCount>& counts) {
  return counts[index(EventKind::RmaOpCompleteBlocking)] + counts[index(EventKind::RmaOpCompleteNonBlocking)] +
         counts[index(EventKind::RmaOpCompleteRemote)];
}

}  // namespace

void printStatsText(const trace::Trace& trace, std::ostream& out) {
  const auto counts = trace.countByKind();
  out << "trace:      " << trace.anchorPath << '\n';
  out << "locations:  " << trace.locations.size() << '\n';
  out << "events:     " << trace.eventCount() << '\n';
  out << "duration:   " << std::fixed << std::setprecision(6)
      << static_cast<double>(trace.defs->clock.traceLength) / static_cast<double>(trace.defs->clock.ticksPerSecond)
      << " s\n";
  out << "call paths: " << trace.callTree.size() << '\n';
  for (std::size_t k = 0; k < kEventKindCount; ++k)
    if (counts[k] != 0) out << "  " << std::left << std::setw(30) << kEventKindNames[k] << counts[k] << '\n';
  if (trace.ignoredEvents != 0) out << "  " << std::left << std::setw(30) << "(not analyzed)" << trace.ignoredEvents << '\n';
}

void printStatsJson(const trace::Trace& trace, std::ostream& out) {
  const auto counts = trace.countByKind();
  out << "{\"locations\": " << trace.locations.size() << ", \"events\": {";
  for (std::size_t k = 0; k < kEventKindCount; ++k) out << '"' << kEventKindNames[k] << "\": " << counts[k] << ", ";
  out << "\"rma_op_complete\": " << rmaCompletions(counts) << "}, \"total_events\": " << trace.eventCount()
      << ", \"ignored_events\": " << trace.ignoredEvents << ", \"call_paths\": " << trace.callTree.size() << "}\n";
}

}  // namespace waitscope::tools
