#include "app/scaling_series_opener.h"

#include <cstdio>
#include <memory>

#include <QApplication>
#include <QFileInfo>

#include "app/command_line.h"
#include "app/report_loader.h"
#include "views/widgets/scaling_series_window.h"

namespace waitscope::app {

views::ScalingSeriesWindow* openScalingSeries(const QStringList& paths, QWidget* parent) {
  std::vector<views::SeriesRun> runs;
  QStringList unreadable;
  QApplication::setOverrideCursor(Qt::WaitCursor);
  for (const QString& path : paths) {
    LoadResult loaded = ReportLoader::loadNow(path);
    if (loaded.report)
      runs.push_back({QFileInfo(path).completeBaseName(), std::move(loaded.report)});
    else
      unreadable << loaded.error;
  }
  QApplication::restoreOverrideCursor();
  auto* window = new views::ScalingSeriesWindow(parent);
  window->setAttribute(Qt::WA_DeleteOnClose);
  window->setRuns(std::move(runs), unreadable);
  return window;
}

int runScalingSeriesExport(const CommandLine& options) {
  views::ScalingSeriesWindow* window = openScalingSeries(options.series, nullptr);
  window->setAttribute(Qt::WA_DeleteOnClose, false);
  const std::unique_ptr<views::ScalingSeriesWindow> owner(window);
  for (const QString& problem : window->problems()) std::fprintf(stderr, "waitscope: %s\n", qPrintable(problem));
  if (window->model()->rowCount() == 0) {
    std::fprintf(stderr, "waitscope: --series: none of the %lld reports could be used\n",
                 static_cast<long long>(options.series.size()));
    return 1;
  }
  window->resize(options.size.isValid() ? options.size : QSize(1280, 800));
  window->show();
  for (int i = 0; i < 3; ++i) QApplication::processEvents();  // layouts and charts settle
  QString error;
  if (!options.exportPng.isEmpty() && !(error = window->exportPng(options.exportPng)).isEmpty()) {
    std::fprintf(stderr, "waitscope: %s\n", qPrintable(error));
    return 1;
  }
  if (!options.exportCsv.isEmpty() && !(error = window->exportCsv(options.exportCsv)).isEmpty()) {
    std::fprintf(stderr, "waitscope: %s\n", qPrintable(error));
    return 1;
  }
  return 0;
}

}  // namespace waitscope::app
