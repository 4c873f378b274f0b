#pragma once
// Applies the Selection's time filter: computes the shown report restricted to
// the filter window (analysis/timeline/time_window_profile.h) from the
// timeline index, off the GUI thread, and shows it in place
// (Selection::showRestricted), so the trees, charts and critical path follow.
// Metrics a window cannot restrict keep their place in the metric tree, without
// values (ReportData::metricAvailable; the trees show them as "n/a").
#include <cstdint>
#include <memory>

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include "analysis/timeline/timeline_query.h"
#include "views/model/report_data.h"
#include "views/model/selection.h"

namespace waitscope::views {

class TimeWindowFilter : public QObject {
  Q_OBJECT
 public:
  explicit TimeWindowFilter(Selection* selection, QObject* parent = nullptr);
  ~TimeWindowFilter() override;

  // The timeline of the shown report (nullptr: none). Only an index on this machine
  // (timeline::LocalSliceSource) can restrict values.
  void setSource(std::shared_ptr<timeline::SliceSource> source);
  bool canFilter() const;
  // Why the filter cannot be applied now ("" when it can).
  QString problem() const { return problem_; }

  // The same work on the calling thread (command line, tests): true when the restricted
  // report is shown, else problem() says why.
  bool applyNow();

  // The report restricted to [from, to] (its ReportData carries timeWindow()); nullptr
  // without an index.
  static ReportDataPtr restrict(const ReportDataPtr& whole, const timeline::TimelineIndex& index, double from,
                                double to);

 signals:
  // The restricted report is shown, or the filter cannot be applied (problem() says why).
  void applied();
  void failed(const QString& problem);

 private:
  struct Work;
  void onFilterChanged();
  const timeline::TimelineIndex* index() const;

  Selection* selection_;
  std::shared_ptr<timeline::SliceSource> source_;
  std::shared_ptr<Work> cache_;  // the profiler of (report, index): its whole-trace check runs once
  QFutureWatcher<ReportDataPtr>* watcher_ = nullptr;
  std::uint64_t generation_ = 0;  // a newer filter or report makes older answers stale
  std::uint64_t watched_ = 0;     // the generation the watcher's future answers
  QString problem_;
};

}  // namespace waitscope::views
