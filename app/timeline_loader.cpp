#include "timeline_loader.h"

#include <QFileInfo>
#include <QtConcurrent>

#include "remote_timeline.h"
#include "timeline/region_group.h"
#include "timeline/timeline_index_file.h"

namespace waitscope::app {

TimelineLoader::TimelineLoader(QObject* parent) : QObject(parent) {}

TimelineLoader::~TimelineLoader() {
  if (watcher_) watcher_->waitForFinished();
}

QString TimelineLoader::tracePathOf(const views::ReportData& report) {
  const QString trace = QString::fromStdString(report.report().metaValue("trace"));
  if (trace.isEmpty() || QFileInfo(trace).isAbsolute()) return trace;
  return QFileInfo(report.path()).dir().filePath(trace);  // relative: beside the report
}

TimelineLoad TimelineLoader::loadNow(const views::ReportDataPtr& report) {
  TimelineLoad result;
  if (!report) return result;
  if (report->report().metaValue("format") == "cube") {
    result.error = QStringLiteral("%1: a Cube profile has no timeline (analyze the trace to get one)").arg(report->path());
    return result;
  }
  if (std::optional<launch::RemoteOrigin> origin = launch::readRemoteOrigin(report->path())) {
    result.callPathGroups = timeline::callPathGroups(report->report());
    result.error = QStringLiteral("%1: the trace is on %2; its timeline is shown in the app only (it asks %2 for slices)")
                       .arg(origin->trace, origin->profile.displayHost());
    result.remote = std::move(origin);
    return result;
  }
  const QString trace = tracePathOf(*report);
  if (trace.isEmpty()) {
    result.error = QStringLiteral("%1 names no trace: the timeline needs the trace it was made from").arg(report->path());
    return result;
  }
  if (!QFileInfo::exists(trace)) {
    result.error = QStringLiteral("%1: trace not found on this machine; the timeline needs it (copy it back, "
                                  "or analyze on the cluster with File > Analyze Trace…)")
                       .arg(trace);
    return result;
  }
  try {
    timeline::OpenedIndex opened = timeline::openTimelineIndex(trace.toStdString(), report->path().toStdString(),
                                                               report->report(), [](const std::string&) {});
    result.source = std::make_shared<timeline::LocalSliceSource>(std::move(opened.index));
  } catch (const std::exception& e) {
    result.error = QString::fromStdString(e.what());
  }
  return result;
}

void TimelineLoader::load(views::ReportDataPtr report) {
  if (watcher_) {
    disconnect(watcher_, nullptr, this, nullptr);
    watcher_->deleteLater();  // its result is no longer wanted
  }
  watcher_ = new QFutureWatcher<TimelineLoad>(this);
  QFutureWatcher<TimelineLoad>* watcher = watcher_;
  const std::uint64_t generation = ++generation_;
  connect(watcher, &QFutureWatcher<TimelineLoad>::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    if (watcher == watcher_) watcher_ = nullptr;
    const TimelineLoad result = watcher->result();
    if (result.remote) {
      // Asynchronous over SSH; an answer for an older report is dropped.
      RemoteSliceSource::open(*result.remote, result.callPathGroups, this,
                              [this, generation](std::shared_ptr<RemoteSliceSource> source, const QString& error) {
                                if (generation != generation_) return;
                                if (source)
                                  emit loaded(std::move(source));
                                else
                                  emit failed(error);
                              });
      return;
    }
    if (result.source)
      emit loaded(result.source);
    else
      emit failed(result.error);
  });
  watcher->setFuture(QtConcurrent::run([report] { return loadNow(report); }));
}

}  // namespace waitscope::app
