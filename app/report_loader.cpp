#include "app/report_loader.h"

#include <QFileInfo>
#include <QtConcurrent>

#include "analysis/report/open_report.h"
#include "analysis/report/report_algebra.h"

namespace waitscope::app {

ReportLoader::ReportLoader(QObject* parent) : QObject(parent) {}

ReportLoader::~ReportLoader() {
  // The worker holds no pointer to us; waiting keeps shutdown orderly.
  if (watcher_) watcher_->waitForFinished();
}

LoadResult ReportLoader::loadNow(const QString& path) {
  LoadResult result;
  const QFileInfo info(path);
  if (!info.exists()) {
    result.error = QStringLiteral("%1: no such file (check the path)").arg(path);
    return result;
  }
  if (info.isDir()) {
    result.error = QStringLiteral("%1: is a folder; open the .waitscope report file in it").arg(path);
    return result;
  }
  try {
    // A Waitscope report, or a Cube 4 profile of Score-P or Scalasca (read-only, no instances).
    report::Report r = report::openAnyReport(path.toStdString());
    result.report = std::make_shared<const views::ReportData>(std::move(r), info.absoluteFilePath());
  } catch (const std::exception& e) {
    result.error = QString::fromStdString(e.what());
  }
  return result;
}

LoadResult ReportLoader::compareNow(const views::ReportDataPtr& a, const QString& pathB) {
  LoadResult b = loadNow(pathB);
  if (!b.report) return b;
  LoadResult result;
  try {
    result.comparison = std::make_shared<const views::ComparisonData>(
        report::alignReports(a->report(), b.report->report()), a, b.report->path(), b.report->report().processCount());
  } catch (const std::exception& e) {
    result.error = QStringLiteral("%1 cannot be compared with %2: %3").arg(pathB, a->path(), QString::fromStdString(e.what()));
  }
  return result;
}

void ReportLoader::load(const QString& path) {
  start(path, [path] { return loadNow(path); });
}

void ReportLoader::compare(views::ReportDataPtr a, const QString& pathB) {
  start(pathB, [a = std::move(a), pathB] { return compareNow(a, pathB); });
}

void ReportLoader::start(const QString& path, std::function<LoadResult()> work) {
  cancel();
  path_ = path;
  loading_ = true;
  watcher_ = new QFutureWatcher<LoadResult>(this);
  QFutureWatcher<LoadResult>* watcher = watcher_;
  connect(watcher, &QFutureWatcher<LoadResult>::finished, this, [this, watcher] {
    watcher->deleteLater();
    if (watcher != watcher_) return;  // cancelled: a newer load or none owns the state now
    watcher_ = nullptr;
    loading_ = false;
    const LoadResult result = watcher->result();
    if (result.comparison)
      emit comparisonLoaded(result.comparison);
    else if (result.report)
      emit loaded(result.report);
    else
      emit failed(result.error);
  });
  watcher->setFuture(QtConcurrent::run(std::move(work)));
}

void ReportLoader::cancel() {
  if (!loading_) return;
  loading_ = false;
  watcher_ = nullptr;  // the running read finishes in the background; its result is dropped
  emit cancelled();
}

}  // namespace waitscope::app
