#include "scripted_export.h"

#include <cstdio>

#include <QApplication>
#include <QTreeView>

#include "command_line.h"
#include "main_window.h"
#include "model/selection.h"
#include "report_loader.h"
#include "timeline_view.h"
#include "widgets/report_browser.h"
#include "widgets/tree_pane.h"

namespace waitscope::app {

bool applySelection(MainWindow& window, const CommandLine& options, QString* error) {
  views::ReportBrowser* browser = window.browser();
  const QString report = window.selection()->report() ? window.selection()->report()->path() : options.report;
  if (options.modeGiven) window.selection()->setMode(options.mode);
  if (!options.metric.isEmpty() && !browser->selectMetric(options.metric)) {
    *error = QStringLiteral("%1: no metric named '%2' (waitscope-report print %1 lists them)").arg(report, options.metric);
    return false;
  }
  if (!options.callPath.isEmpty() && !browser->selectCallPath(options.callPath)) {
    *error = QStringLiteral("%1: no call path '%2' (write it as main/foo/MPI_Recv)").arg(report, options.callPath);
    return false;
  }
  if (options.flat) browser->setFlatProfile(true);
  return true;
}

int runScriptedExport(MainWindow& window, const CommandLine& options) {
  auto fail = [](const QString& message) {
    std::fprintf(stderr, "waitscope: %s\n", qPrintable(message));
    return 1;
  };
  window.setInteractive(false);
  window.resize(options.size.isValid() ? options.size : QSize(1280, 800));
  window.show();
  if (!options.report.isEmpty()) {
    LoadResult loaded = ReportLoader::loadNow(options.report);
    if (!loaded.report) return fail(loaded.error);
    window.showReport(std::move(loaded.report));
  }
  QString error;
  if (!applySelection(window, options, &error)) return fail(error);
  // Let layouts and charts settle before rendering; then show the selected items again, since
  // the trees were scrolled to them before the layout gave them their final height.
  for (int i = 0; i < 3; ++i) QApplication::processEvents();
  views::ReportBrowser* settled = window.browser();
  for (views::TreePane* pane : {settled->metricPane(), settled->callPane(), settled->systemPane()})
    if (pane->view()->currentIndex().isValid()) pane->view()->scrollTo(pane->view()->currentIndex());
  QApplication::processEvents();

  if (options.timelineView) {
    // The timeline alone: opened on this thread (building its index the first time).
    if (!window.loadTimelineNow()) return fail(window.timelineNotice());
    views::TimelineView* timeline = window.timelineView();
    timeline->resize(options.size.isValid() ? options.size : QSize(1280, 800));
    if (options.windowTo > options.windowFrom) timeline->setTimeWindow(options.windowFrom, options.windowTo);
    if (!options.exportPng.isEmpty() && !(error = timeline->exportPng(options.exportPng)).isEmpty()) return fail(error);
    if (!options.exportSvg.isEmpty() && !(error = timeline->exportSvg(options.exportSvg)).isEmpty()) return fail(error);
    if (!options.exportCsv.isEmpty() && !(error = timeline->exportInstancesCsv(options.exportCsv)).isEmpty())
      return fail(error);
    return 0;
  }
  if (!options.exportPng.isEmpty() && !(error = window.exportWindowPng(options.exportPng)).isEmpty()) return fail(error);
  if (!options.exportSvg.isEmpty() && !(error = window.exportWindowSvg(options.exportSvg)).isEmpty()) return fail(error);
  if (!options.exportCsv.isEmpty()) {
    views::ReportBrowser* b = window.browser();
    views::TreePane* pane = options.csvTree == QLatin1String("metric")   ? b->metricPane()
                            : options.csvTree == QLatin1String("system") ? b->systemPane()
                                                                         : b->callPane();
    if (!(error = window.exportTreeCsv(pane, options.exportCsv)).isEmpty()) return fail(error);
  }
  return 0;
}

}  // namespace waitscope::app
