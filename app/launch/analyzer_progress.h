#pragma once
// The analyzer's progress lines ("progress PHASE PERCENT" on stderr, see
// analysis/tools/waitscope_analyze.cpp) as phase names and one overall percentage.
#include <optional>

#include <QString>

namespace waitscope::launch {

struct ProgressStep {
  QString phase;     // as printed: read, validate, replay, causes, write
  int percent = 0;   // within the phase
  int overall = 0;   // 0..100 over the whole analysis
};

// Parses one line; nullopt for any other line.
std::optional<ProgressStep> parseProgressLine(const QString& line);

// "Reading the trace", ... for the progress bar; unknown phases as printed.
QString phaseTitle(const QString& phase);

}  // namespace waitscope::launch
