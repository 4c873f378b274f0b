#pragma once
// Reads a report off the GUI thread (QtConcurrent) and builds the browser's
// indices there too; so does a comparison, which reads run B and aligns it with
// the shown run A. Cancel abandons the result; the window keeps what it shows.
#include <functional>

#include <QFutureWatcher>
#include <QObject>

#include "views/model/comparison_data.h"
#include "views/model/report_data.h"

namespace waitscope::app {

// A finished load: the report (or the comparison), or one line saying what is wrong with which file.
struct LoadResult {
  views::ReportDataPtr report;
  views::ComparisonDataPtr comparison;
  QString error;
};

class ReportLoader : public QObject {
  Q_OBJECT
 public:
  explicit ReportLoader(QObject* parent = nullptr);
  ~ReportLoader() override;

  void load(const QString& path);
  // Reads `pathB` and aligns it with `a` (the shown report, run A): comparisonLoaded or failed.
  void compare(views::ReportDataPtr a, const QString& pathB);
  void cancel();
  const QString& path() const { return path_; }

  // The same work on the calling thread (command-line export, tests).
  static LoadResult loadNow(const QString& path);
  static LoadResult compareNow(const views::ReportDataPtr& a, const QString& pathB);

 signals:
  void loaded(waitscope::views::ReportDataPtr report);
  void comparisonLoaded(waitscope::views::ComparisonDataPtr comparison);
  void failed(const QString& message);
  void cancelled();

 private:
  void start(const QString& path, std::function<LoadResult()> work);

  QFutureWatcher<LoadResult>* watcher_ = nullptr;
  QString path_;
  bool loading_ = false;
};

}  // namespace waitscope::app
