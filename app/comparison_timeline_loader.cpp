#include "app/comparison_timeline_loader.h"

#include <QFileInfo>
#include <QtConcurrent>

#include "app/report_loader.h"
#include "app/timeline_loader.h"

namespace waitscope::app {

ComparisonTimelineLoader::ComparisonTimelineLoader(QObject* parent) : QObject(parent) {}

ComparisonTimelineLoader::~ComparisonTimelineLoader() {
  if (watcher_) watcher_->waitForFinished();
}

QString ComparisonTimelineLoader::runLabel(const QString& tag, const QString& path) {
  return QStringLiteral("%1: %2").arg(tag, QFileInfo(path).fileName());
}

views::ComparedRun ComparisonTimelineLoader::loadRun(const QString& tag, const QString& path) {
  views::ComparedRun run;
  run.label = runLabel(tag, path);
  const LoadResult report = ReportLoader::loadNow(path);
  if (!report.report) {
    run.notice = report.error;
    return run;
  }
  const TimelineLoad timeline = TimelineLoader::loadNow(report.report);
  if (timeline.remote) {
    run.notice = QStringLiteral("%1; open %2 alone to see it").arg(timeline.error, path);
    return run;
  }
  if (!timeline.source) {
    run.notice = timeline.error;
    return run;
  }
  run.source = timeline.source;
  run.report = std::shared_ptr<const report::Report>(report.report, &report.report->report());
  return run;
}

ComparedRuns ComparisonTimelineLoader::loadNow(const QString& pathA, const QString& pathB) {
  return {loadRun(QStringLiteral("A"), pathA), loadRun(QStringLiteral("B"), pathB)};
}

void ComparisonTimelineLoader::load(const QString& pathA, const QString& pathB) {
  if (watcher_) {
    disconnect(watcher_, nullptr, this, nullptr);
    watcher_->deleteLater();  // its result is no longer wanted
  }
  watcher_ = new QFutureWatcher<ComparedRuns>(this);
  QFutureWatcher<ComparedRuns>* watcher = watcher_;
  connect(watcher, &QFutureWatcher<ComparedRuns>::finished, this, [this, watcher] {
    watcher->deleteLater();
    if (watcher == watcher_) watcher_ = nullptr;
    emit loaded(watcher->result());
  });
  watcher->setFuture(QtConcurrent::run([pathA, pathB] { return loadNow(pathA, pathB); }));
}

}  // namespace waitscope::app
