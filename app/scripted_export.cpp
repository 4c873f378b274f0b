#include "app/scripted_export.h"

#include <cstdio>
#include <memory>

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QTreeView>

#include "analysis/timeline/region_group.h"
#include "app/call_path_selector.h"
#include "app/command_line.h"
#include "app/launch/profile_store.h"
#include "app/launch/remote_origin.h"
#include "app/main_window.h"
#include "app/remote_timeline.h"
#include "app/report_loader.h"
#include "app/timeline_loader.h"
#include "views/model/selection.h"
#include "views/model/time_window_filter.h"
#include "views/timeline/timeline_view.h"
#include "views/widgets/communication_matrix_pane.h"
#include "views/widgets/report_browser.h"
#include "views/widgets/tree_pane.h"

namespace waitscope::app {

bool applySelection(MainWindow& window, const CommandLine& options, QString* error) {
  views::ReportBrowser* browser = window.browser();
  const QString report = window.selection()->report() ? window.selection()->report()->path() : options.report;
  if (options.modeGiven) window.selection()->setMode(options.mode);
  if (!options.compare.isEmpty()) window.selection()->setCompareView(options.compareView);
  if (!options.metric.isEmpty() && !browser->selectMetric(options.metric)) {
    *error = QStringLiteral("%1: no metric named '%2' (waitscope-report print %1 lists them)").arg(report, options.metric);
    return false;
  }
  if (!options.callPath.isEmpty()) {
    const views::ReportDataPtr& shown = window.selection()->report();
    QString why = QStringLiteral("no report is shown");
    const std::optional<std::uint32_t> node =
        shown ? findCallPath(shown->report(), options.callPath, &why) : std::nullopt;
    if (!node) {
      *error = QStringLiteral("%1: %2").arg(report, why);
      return false;
    }
    browser->setFlatProfile(false);
    browser->callPane()->selectNode(*node);
  }
  if (options.flat) browser->setFlatProfile(true);
  return true;
}

namespace {

// The timeline of a report whose trace is on another machine, in `view`: only
// with --allow-remote-timeline, and only over the user's own profile of the
// name the report's origin gives, connecting to the host it records (no one
// can be asked here). Empty on success, else one line.
QString showRemoteTimeline(views::TimelineView* view, const views::ReportDataPtr& report,
                           const launch::RemoteOrigin& origin, bool allowed) {
  const QString where = launch::recordedDestination(origin).left(80);
  if (!allowed)
    return QStringLiteral("%1: the trace is on %2; a command-line export connects there only with "
                          "--allow-remote-timeline")
        .arg(report->path(), where);
  QString why;
  const std::optional<launch::ConnectionProfile> profile =
      TimelineLoader::profileWithoutAsking(origin, launch::ProfileStore().load(), &why);
  if (!profile) return QStringLiteral("%1: %2").arg(report->path(), why);
  std::shared_ptr<RemoteSliceSource> source =
      RemoteSliceSource::openNow(*profile, origin, timeline::callPathGroups(report->report()), &why);
  if (!source) return why;
  view->setData(std::move(source), std::shared_ptr<const report::Report>(report, &report->report()));
  return {};
}

// Paints `view` until its asynchronous source has answered for what it shows;
// in between it sleeps until the next event (the answer, or the source's slice
// timeout, always brings one). False when it failed.
bool waitForSlices(views::TimelineView* view) {
  QImage scratch(view->size(), QImage::Format_ARGB32_Premultiplied);
  for (;;) {
    {
      QPainter painter(&scratch);
      view->paintTo(painter, view->size());
    }
    const timeline::SliceStatus status = view->sliceStatus();
    if (status == timeline::SliceStatus::Exact) return true;
    if (status == timeline::SliceStatus::Failed) return false;
    QApplication::processEvents(QEventLoop::WaitForMoreEvents);
  }
}

}  // namespace

int runScriptedExport(MainWindow& window, const CommandLine& options) {
  auto fail = [](const QString& message) {
    std::fprintf(stderr, "waitscope: %s\n", qPrintable(message));
    return 1;
  };
  window.setInteractive(false);
  // The window's own timeline never connects to another machine here: nothing could be asked,
  // and nothing waits for it. --view timeline opens a remote one below, when allowed.
  if (auto* loader = window.findChild<TimelineLoader*>()) loader->setRemoteConnectionsAllowed(false);
  window.resize(options.size.isValid() ? options.size : QSize(1280, 800));
  window.show();
  if (!options.report.isEmpty()) {
    LoadResult loaded = ReportLoader::loadNow(options.report);
    if (!loaded.report) return fail(loaded.error);
    window.showReport(std::move(loaded.report));
  }
  if (!options.compare.isEmpty()) {
    const LoadResult compared = ReportLoader::compareNow(window.selection()->report(), options.compare);
    if (!compared.comparison) return fail(compared.error);
    window.selection()->setCompareView(options.compareView);
    window.showComparison(compared.comparison);
  }
  QString error;
  // --time-window restricts the trees, charts and CSV to the window (the timeline view is zoomed to it below).
  if (options.windowTo > options.windowFrom && !options.timelineView) {
    if (window.selection()->comparison())
      return fail(QStringLiteral("--time-window restricts one run: export it without --compare"));
    if (!window.loadTimelineNow())
      return fail(QStringLiteral("--time-window needs the report's timeline: %1").arg(window.timelineNotice()));
    window.selection()->setTimeFilter(options.windowFrom, options.windowTo);
    auto* filter = window.findChild<views::TimeWindowFilter*>();
    if (!filter->applyNow()) return fail(QStringLiteral("--time-window: %1").arg(filter->problem()));
  }
  if (!applySelection(window, options, &error)) return fail(error);
  // Let layouts and charts settle before rendering; then show the selected items again, since
  // the trees were scrolled to them before the layout gave them their final height.
  for (int i = 0; i < 3; ++i) QApplication::processEvents();
  views::ReportBrowser* settled = window.browser();
  for (views::TreePane* pane : {settled->metricPane(), settled->callPane(), settled->systemPane()})
    if (pane->view()->currentIndex().isValid()) pane->view()->scrollTo(pane->view()->currentIndex());
  QApplication::processEvents();

  if (options.matrixView) {
    if (window.selection()->comparison())
      return fail(QStringLiteral("--view matrix shows one run: export it without --compare"));
    auto* matrix = window.findChild<views::CommunicationMatrixPane*>();
    if (!matrix->model()->hasData() && !window.loadTimelineNow())
      return fail(QStringLiteral("--view matrix needs the report's timeline: %1").arg(window.timelineNotice()));
    using timeline::MatrixQuantity;
    const QString& q = options.matrixQuantity;
    matrix->model()->setQuantity(q == QLatin1String("count")     ? MatrixQuantity::Count
                                 : q == QLatin1String("waiting") ? MatrixQuantity::WaitingTime
                                                                 : MatrixQuantity::Bytes);
    matrix->setParent(nullptr);  // exported alone, at the requested size (its dock forgets it)
    const std::unique_ptr<views::CommunicationMatrixPane> alone(matrix);
    matrix->resize(options.size.isValid() ? options.size : QSize(1280, 800));
    matrix->show();
    QApplication::processEvents();
    if (!options.exportPng.isEmpty() && !(error = matrix->exportPng(options.exportPng)).isEmpty()) return fail(error);
    if (!options.exportSvg.isEmpty() && !(error = matrix->exportSvg(options.exportSvg)).isEmpty()) return fail(error);
    if (!options.exportCsv.isEmpty() && !(error = matrix->exportCsv(options.exportCsv)).isEmpty()) return fail(error);
    return 0;
  }
  if (options.timelineView) {
    if (window.selection()->comparison())
      return fail(QStringLiteral("--view timeline shows one run: export it without --compare"));
    // The timeline alone: opened on this thread (building its index the first time).
    views::TimelineView* timeline = window.timelineView();
    const views::ReportDataPtr report = window.selection()->report();
    const std::optional<launch::RemoteOrigin> origin =
        report ? launch::readRemoteOrigin(report->path()) : std::nullopt;
    if (origin) {
      if (!(error = showRemoteTimeline(timeline, report, *origin, options.allowRemoteTimeline)).isEmpty())
        return fail(error);
    } else if (!window.loadTimelineNow()) {
      return fail(window.timelineNotice());
    }
    timeline->resize(options.size.isValid() ? options.size : QSize(1280, 800));
    if (options.windowTo > options.windowFrom) timeline->setTimeWindow(options.windowFrom, options.windowTo);
    if (origin && !waitForSlices(timeline)) return fail(timeline->statusText());
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
    if (!(error = pane->exportCsv(options.exportCsv)).isEmpty()) return fail(error);
  }
  return 0;
}

}  // namespace waitscope::app
