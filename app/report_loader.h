#pragma once
// Reads a report off the GUI thread (QtConcurrent) and builds the browser's
// indices there too. Cancel abandons the result; the window keeps what it shows.
#include <QFutureWatcher>
#include <QObject>

#include "views/model/report_data.h"

namespace waitscope::app {

// A finished load: the report, or one line saying what is wrong with which file.
struct LoadResult {
  views::ReportDataPtr report;
  QString error;
};

class ReportLoader : public QObject {
  Q_OBJECT
 public:
  explicit ReportLoader(QObject* parent = nullptr);
  ~ReportLoader() override;

  void load(const QString& path);
  void cancel();
  const QString& path() const { return path_; }

  // The same work on the calling thread (command-line export, tests).
  static LoadResult loadNow(const QString& path);

 signals:
  void loaded(waitscope::views::ReportDataPtr report);
  void failed(const QString& message);
  void cancelled();

 private:
  QFutureWatcher<LoadResult>* watcher_ = nullptr;
  QString path_;
  bool loading_ = false;
};

}  // namespace waitscope::app
