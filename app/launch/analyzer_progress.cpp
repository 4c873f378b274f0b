#include "app/launch/analyzer_progress.h"

#include <QRegularExpression>

namespace waitscope::launch {

namespace {

struct Phase {
  const char* name;
  const char* title;
  int start;  // overall percent where the phase begins
  int end;
};

// Rough shares of the analysis time (the replay dominates, see DESIGN.md).
constexpr Phase kPhases[] = {
    {"read", "Reading the trace", 0, 15},          {"validate", "Checking the trace", 15, 25},
    {"replay", "Replaying the communication", 25, 70}, {"causes", "Finding root causes", 70, 90},
    {"write", "Writing the report", 90, 100},
};

const Phase* findPhase(const QString& name) {
  for (const Phase& p : kPhases)
    if (name == QLatin1String(p.name)) return &p;
  return nullptr;
}

}  // namespace

std::optional<ProgressStep> parseProgressLine(const QString& line) {
  static const QRegularExpression re(QStringLiteral("^progress (\\S+) (\\d{1,3})\\s*$"));
  const auto match = re.match(line);
  if (!match.hasMatch()) return std::nullopt;
  ProgressStep step;
  step.phase = match.captured(1);
  step.percent = qBound(0, match.captured(2).toInt(), 100);
  if (const Phase* p = findPhase(step.phase)) step.overall = p->start + (p->end - p->start) * step.percent / 100;
  else step.overall = step.percent;
  return step;
}

QString phaseTitle(const QString& phase) {
  const Phase* p = findPhase(phase);
  return p ? QString::fromLatin1(p->title) : phase;
}

}  // namespace waitscope::launch
