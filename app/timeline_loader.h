#pragma once
// Opens the timeline of a report: the index of (trace, report), loaded from
// beside the report when fresh, else built from the trace and saved there
// (analysis/timeline). Runs off the GUI thread; `loadNow` is the same work on
// the calling thread (command-line export, tests).
//
// A report copied back from a remote analysis (REPORT.remote.json beside it,
// launch/remote_origin.h) gets a RemoteSliceSource instead: its slices come
// from the machine where the trace is, over SSH (load() only: loadNow says so).
#include <memory>

#include <QFutureWatcher>
#include <QObject>

#include <optional>
#include <vector>

#include "model/report_data.h"
#include "remote_origin.h"
#include "timeline/timeline_query.h"

namespace waitscope::app {

struct TimelineLoad {
  std::shared_ptr<timeline::SliceSource> source;
  QString error;  // why there is no timeline: one line naming the file
  std::optional<launch::RemoteOrigin> remote;           // the trace is there: load() opens a remote source
  std::vector<timeline::RegionGroup> callPathGroups;    // for the remote source
};

class TimelineLoader : public QObject {
  Q_OBJECT
 public:
  explicit TimelineLoader(QObject* parent = nullptr);
  ~TimelineLoader() override;

  void load(views::ReportDataPtr report);
  static TimelineLoad loadNow(const views::ReportDataPtr& report);
  // The trace a report was made from ("" when it names none).
  static QString tracePathOf(const views::ReportData& report);

 signals:
  void loaded(std::shared_ptr<waitscope::timeline::SliceSource> source);
  void failed(const QString& message);

 private:
  QFutureWatcher<TimelineLoad>* watcher_ = nullptr;
  std::uint64_t generation_ = 0;  // a newer load() makes older answers stale
};

}  // namespace waitscope::app
