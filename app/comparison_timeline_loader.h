#pragma once
// Opens the timelines of the two runs of a comparison for the stacked view
// (views/timeline/stacked_timelines.h): each report (ReportLoader) and the
// timeline of its trace (TimelineLoader), off the GUI thread; `loadNow` is the
// same work on the calling thread (tests). A run whose report or trace cannot
// be opened comes with its one-line notice; the other run is still opened. A
// trace on another machine is not connected to from here: its notice says to
// open that report alone.
#include <QFutureWatcher>
#include <QMetaType>
#include <QObject>
#include <QString>

#include "views/timeline/stacked_timelines.h"

namespace waitscope::app {

struct ComparedRuns {
  views::ComparedRun a;
  views::ComparedRun b;
};

class ComparisonTimelineLoader : public QObject {
  Q_OBJECT
 public:
  explicit ComparisonTimelineLoader(QObject* parent = nullptr);
  ~ComparisonTimelineLoader() override;

  void load(const QString& pathA, const QString& pathB);
  static ComparedRuns loadNow(const QString& pathA, const QString& pathB);
  // One run: `tag` ("A", "B") heads its label.
  static views::ComparedRun loadRun(const QString& tag, const QString& path);
  // "A: fence.waitscope"
  static QString runLabel(const QString& tag, const QString& path);

 signals:
  void loaded(const waitscope::app::ComparedRuns& runs);

 private:
  QFutureWatcher<ComparedRuns>* watcher_ = nullptr;
};

}  // namespace waitscope::app

Q_DECLARE_METATYPE(waitscope::app::ComparedRuns)
