#pragma once
// Opens the timeline of a report: the index of (trace, report), loaded from
// beside the report when fresh, else built from the trace and saved there
// (analysis/timeline). Runs off the GUI thread; `loadNow` is the same work on
// the calling thread (command-line export, tests).
#include <memory>

#include <QFutureWatcher>
#include <QObject>

#include "model/report_data.h"
#include "timeline/timeline_query.h"

namespace waitscope::app {

struct TimelineLoad {
  std::shared_ptr<timeline::SliceSource> source;
  QString error;  // why there is no timeline: one line naming the file
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
};

}  // namespace waitscope::app
