#include "analysis/timeline/clock_corrected_trace.h"

#include <algorithm>
#include <exception>

#include "analysis/trace/clock_correction_file.h"

namespace waitscope::timeline {

namespace {

// A rank's shift (corrected minus recorded time) as a function of recorded time: the points
// where it changes, linear in between, constant beyond the ends.
struct ShiftCurve {
  std::vector<double> times;
  std::vector<double> shifts;

  void add(double time, double shift) {
    times.push_back(time);
    shifts.push_back(shift);
  }
  double at(double time) const {
    if (times.empty()) return 0.0;
    const auto it = std::upper_bound(times.begin(), times.end(), time);
    if (it == times.begin()) return shifts.front();
    if (it == times.end()) return shifts.back();
    const std::size_t hi = static_cast<std::size_t>(it - times.begin()), lo = hi - 1;
    const double span = times[hi] - times[lo];
    if (!(span > 0.0)) return shifts[hi];
    return shifts[lo] + (shifts[hi] - shifts[lo]) * (time - times[lo]) / span;
  }
};

// Corrects `events` in place and returns their shift curve (only the points where the shift
// bends, so an uncorrected stretch costs nothing).
ShiftCurve correct(std::vector<trace::Event>& events, const trace::LocationClockCorrection& correction) {
  ShiftCurve curve;
  if (correction.empty() || events.empty()) return curve;
  const std::vector<double> corrected = correction.correctedTimes(events);
  const std::size_t n = events.size();
  const auto shift = [&](std::size_t i) { return corrected[i] - events[i].time; };
  for (std::size_t i = 0; i < n; ++i) {
    const double s = shift(i);
    const bool bends = i == 0 || i + 1 == n || s != shift(i - 1) || s != shift(i + 1);
    if (bends) curve.add(events[i].time, s);
  }
  for (std::size_t i = 0; i < n; ++i) events[i].time = corrected[i];
  return curve;
}

void shiftBy(std::vector<trace::Event>& events, const ShiftCurve& curve) {
  if (curve.times.empty()) return;
  for (trace::Event& e : events) e.time += curve.at(e.time);
}

}  // namespace

void applyClockCorrections(trace::Trace& trace, const std::vector<trace::LocationClockCorrection>& corrections) {
  const std::vector<trace::Rank> rankOf = trace.defs->processRanks();
  const auto rankOfLocation = [&](trace::LocationId l) { return l < rankOf.size() ? rankOf[l] : trace::kNone; };
  std::vector<ShiftCurve> curves(corrections.size());
  for (std::size_t i = 0; i < trace.locations.size(); ++i) {
    const trace::Rank r = rankOfLocation(trace.locations[i].location);
    if (r >= corrections.size()) continue;
    curves[r] = correct(trace.locations[i].events, corrections[r]);
    if (i < trace.otherParadigmRecords.size()) shiftBy(trace.otherParadigmRecords[i].events, curves[r]);
  }
  for (trace::LocationEvents& thread : trace.threadLocations) {
    const trace::Rank r = rankOfLocation(thread.location);
    if (r < curves.size()) shiftBy(thread.events, curves[r]);
  }
}

std::optional<std::vector<trace::LocationClockCorrection>> reportClockCorrections(
    const std::string& reportPath, const report::Report& report, const std::function<void(const std::string&)>& warn) {
  if (report.metaValue("time_correction").empty()) return std::nullopt;
  const std::string path = trace::clockCorrectionPath(reportPath);
  try {
    return trace::readClockCorrections(path);
  } catch (const std::exception& e) {
    if (warn)
      warn(std::string(e.what()) + " (the timeline shows the recorded times)");
    return std::nullopt;
  }
}

}  // namespace waitscope::timeline
