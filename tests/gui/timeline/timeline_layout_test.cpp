// The timeline's layout as a Vampir user expects it, offscreen, on a
// builder-made trace of eight ranks on two nodes: rows fitted to the plot
// (and their height set by Ctrl+wheel and keys), a details line of fixed
// height that never shrinks the plot while hovering, a legend of every drawn
// kind that wraps instead of being clipped, layer toggles (kept in QSettings),
// hidden ranks, rank ranges, grouping by node and child rows under their
// process, and colours of drawn categories that are pairwise distinct.
#include <QAction>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

#include "analysis/timeline/timeline_query.h"
#include "tests/unit/timeline/timeline_scenarios.h"
#include "views/model/report_data.h"
#include "views/model/selection.h"
#include "views/timeline/details_line.h"
#include "views/timeline/rank_ranges.h"
#include "views/timeline/timeline_colors.h"
#include "views/timeline/timeline_geometry.h"
#include "views/timeline/timeline_legend.h"
#include "views/timeline/timeline_pane.h"
#include "views/timeline/timeline_style.h"
#include "views/timeline/timeline_view.h"

using namespace waitscope;
using views::TimelineRows;
using views::TimelineView;

namespace {

constexpr std::uint32_t kRanks = 8;

// Eight ranks, main [0, 8] each; rank r sends to r + 1 at [1 + r/8, 1 + r/8 + 1/16] and
// receives from r - 1; ranks 0-3 on node0, 4-7 on node1. Instances of Late Post (1),
// Late Sender (2) and of metrics 14 and 26 (as many metrics as a real report has;
// 2, 14 and 26 are alike modulo the palette's twelve colours).
struct Eight {
  trace::TraceBuilder builder{kRanks};
  std::shared_ptr<report::Report> report;
  std::shared_ptr<timeline::LocalSliceSource> source;
  Eight() {
    for (trace::Rank r = 0; r < kRanks; ++r) builder.rank(r).enter(0.0, "main");
    for (trace::Rank r = 0; r + 1 < kRanks; ++r) {
      const double t = 1.0 + r / 8.0;
      builder.rank(r).send(t, t + 0.0625, r + 1, 64, 0);
      builder.rank(r + 1).recv(t, t + 0.125, r, 64, 0);
    }
    for (trace::Rank r = 0; r < kRanks; ++r) builder.rank(r).leave(8.0, "main");
    report = std::make_shared<report::Report>(test::reportSkeleton(builder.trace()));
    for (int m = 3; m < 40; ++m)
      report->metrics.push_back({"metric" + std::to_string(m), "Pattern number " + std::to_string(m), "",
                                 report::MetricUnit::Seconds, 0});
    report->systemNodes.push_back({"node1", "node", report::kNoId});
    for (std::uint32_t l = 4; l < kRanks; ++l) report->locations[l].systemNode = 1;
    const std::uint32_t main = test::callPathOf(*report, "main");
    report->instances.push_back({1, 0, main, 2.0, 3.0, 1});
    report->instances.push_back({2, 1, main, 2.0, 3.0, 0});
    report->instances.push_back({14, 2, main, 2.0, 3.0, 0});
    report->instances.push_back({26, 3, main, 2.0, 3.0, 0});
    report->criticalPath.push_back({0, main, 0.0, 4.0});
    source = std::make_shared<timeline::LocalSliceSource>(timeline::buildTimelineIndex(builder.trace(), *report));
  }
  void attach(TimelineView& view) const { view.setData(source, report); }
};

// `view` shown at 900x400 with the timeline of `trace` and `report`.
bool showTimeline(TimelineView& view, const trace::Trace& trace, const std::shared_ptr<report::Report>& report) {
  view.resize(900, 400);
  view.show();
  if (!QTest::qWaitForWindowExposed(&view)) return false;
  view.setData(std::make_shared<timeline::LocalSliceSource>(timeline::buildTimelineIndex(trace, *report)), report);
  return true;
}

QImage painted(TimelineView& view) {
  QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  QPainter p(&image);
  view.paintTo(p, view.size());
  return image;
}

int pixelsOf(const QImage& image, const QRect& area, const QColor& colour) {
  int n = 0;
  const QRect r = area.intersected(image.rect());
  for (int y = r.top(); y <= r.bottom(); ++y)
    for (int x = r.left(); x <= r.right(); ++x) n += image.pixel(x, y) == colour.rgb();
  return n;
}

void wheel(QWidget* w, QPoint pos, int delta, Qt::KeyboardModifiers modifiers) {
  QWheelEvent e(pos, w->mapToGlobal(pos), QPoint(), QPoint(0, delta), Qt::NoButton, modifiers, Qt::NoScrollPhase, false);
  QApplication::sendEvent(w, &e);
}

}  // namespace

class TimelineLayoutTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("waitscope-test"));
    QCoreApplication::setApplicationName(QStringLiteral("timeline_layout_test"));
    QSettings().clear();
  }

  void rowsFitThePlotWhenReadable() {
    const Eight f;
    views::Selection selection;
    TimelineView view(&selection);
    view.resize(900, 400);
    view.show();  // resize events reach a shown widget
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    f.attach(view);
    // Two node headers and eight rows share the plot.
    const int plot = view.plotRect().height();
    const int fitted = std::min((plot - 2 * TimelineRows::kNodeHeight) / int(kRanks), TimelineView::kMaxFitHeight);
    QVERIFY(view.fitRows());
    QCOMPARE(view.rowHeight(), fitted);
    QVERIFY(view.allRowsVisible());
    for (std::uint32_t l = 0; l < kRanks; ++l) {
      const double y = view.positionOf(l, 1.0).y();
      QVERIFY2(y > view.plotRect().top() && y < view.plotRect().bottom(), qPrintable(QString::number(l)));
    }
    // Resizing fits again.
    view.resize(900, 300);
    QCOMPARE(view.rowHeight(), (view.plotRect().height() - 2 * TimelineRows::kNodeHeight) / int(kRanks));
    QVERIFY(view.allRowsVisible());
    // Too low to fit at a readable height: the default height, scrolling.
    view.resize(900, 170);
    QVERIFY((view.plotRect().height() - 2 * TimelineRows::kNodeHeight) / int(kRanks) < TimelineView::kMinFitHeight);
    QCOMPARE(view.rowHeight(), TimelineRows::kLocationHeight);
    QVERIFY(!view.allRowsVisible());
  }

  void rowHeightByCtrlWheelAndKeys() {
    const Eight f;
    views::Selection selection;
    TimelineView view(&selection);
    view.resize(900, 400);
    f.attach(view);
    const int fitted = view.rowHeight();
    const views::TimeWindow window = view.timeWindow();
    wheel(&view, QPoint(40, 100), 120, Qt::ControlModifier);  // on the row labels
    QCOMPARE(view.rowHeight(), fitted + TimelineView::kRowHeightStep);
    QVERIFY(!view.fitRows());
    QVERIFY(view.timeWindow() == window);  // not a time zoom
    wheel(&view, QPoint(400, 100), -240, Qt::ControlModifier);
    QCOMPARE(view.rowHeight(), fitted - TimelineView::kRowHeightStep);
    QTest::keyClick(&view, Qt::Key_Plus, Qt::ControlModifier);
    QCOMPARE(view.rowHeight(), fitted);
    QTest::keyClick(&view, Qt::Key_Minus, Qt::ControlModifier);
    QCOMPARE(view.rowHeight(), fitted - TimelineView::kRowHeightStep);
    QVERIFY(view.timeWindow() == window);
    // The bands scale with the row: the region band's middle is where positionOf says.
    const views::RowBands bands = views::RowBands::forHeight(view.rowHeight());
    QVERIFY(bands.epochTop + bands.epochHeight <= view.rowHeight());
    QVERIFY(bands.bandTop + bands.bandHeight < bands.epochTop);
    QTest::keyClick(&view, Qt::Key_0, Qt::ControlModifier);
    QVERIFY(view.fitRows());
    QCOMPARE(view.rowHeight(), fitted);
    // Very small and very large heights stay within bounds.
    view.setRowHeight(1);
    QCOMPARE(view.rowHeight(), TimelineRows::kMinLocationHeight);
    view.setRowHeight(1000);
    QCOMPARE(view.rowHeight(), TimelineRows::kMaxLocationHeight);
  }

  void bandsAtTheDefaultHeightAreTheClassicOnes() {
    const views::RowBands b = views::RowBands::forHeight(TimelineRows::kLocationHeight);
    QCOMPARE(b.bandTop, 2);
    QCOMPARE(b.bandHeight, 12);
    QCOMPARE(b.epochTop, 15);
    QCOMPARE(b.epochHeight, 5);
    for (int h = TimelineRows::kMinLocationHeight; h <= TimelineRows::kMaxLocationHeight; ++h) {
      const views::RowBands r = views::RowBands::forHeight(h);
      QVERIFY2(r.bandTop >= 1 && r.bandHeight >= 1 && r.bandTop + r.bandHeight < r.epochTop &&
                   r.epochTop + r.epochHeight < h,
               qPrintable(QString::number(h)));
    }
  }

  void detailsLineKeepsItsHeightAndThePlotItsSize() {
    const Eight f;
    views::Selection selection;
    views::TimelinePane pane(&selection);
    pane.resize(320, 400);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    f.attach(*pane.view());
    const QSize viewBefore = pane.view()->size();
    const int detailsBefore = pane.details()->height();
    // Hover over the instance on rank 0 (a tooltip of several lines, longer than the width).
    const QPointF at = pane.view()->positionOf(0, 2.5);
    QMouseEvent move(QEvent::MouseMove, at, pane.view()->mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(pane.view(), &move);
    QApplication::processEvents();
    const QString full = pane.view()->describeAt(at.toPoint());
    QVERIFY(full.contains(QLatin1Char('\n')));
    QCOMPARE(pane.details()->toolTip(), full);
    QCOMPARE(pane.details()->height(), detailsBefore);
    QCOMPARE(pane.view()->size(), viewBefore);
    // One line, elided to the width.
    QVERIFY(!pane.details()->text().contains(QLatin1Char('\n')));
    QVERIFY(pane.details()->fontMetrics().horizontalAdvance(pane.details()->text()) <= pane.details()->width());
    QCOMPARE(pane.details()->details(), QString(full).replace(QLatin1Char('\n'), QStringLiteral(" · ")));
    // Resizing re-elides; the full text stays the tooltip.
    pane.resize(1400, 400);
    QApplication::processEvents();
    QCOMPARE(pane.details()->toolTip(), full);
    QCOMPARE(pane.details()->height(), detailsBefore);
  }

  void legendShowsEveryDrawnKindAndWraps() {
    const Eight f;
    views::Selection selection;
    TimelineView view(&selection);
    view.resize(1024, 400);
    f.attach(view);
    const views::TimelineLegend& legend = view.legend();
    const views::TimelineColors& c = view.colors();
    // Six groups, message, transfer, a heading and five epochs, a heading and four patterns, critical path.
    QCOMPARE(int(legend.entries().size()), 6 + 2 + 6 + 5 + 1);
    QStringList labels;
    for (const views::LegendEntry& e : legend.entries()) labels << e.label;
    for (const char* name : {"message", "RMA transfer", "Late Post", "Late Sender", "Pattern number 14",
                             "Pattern number 26", "critical path", "fence", "GATS exposure"})
      QVERIFY2(labels.contains(QLatin1String(name)), name);
    // Every entry within the width, on as many lines as needed.
    int right = 0, lines = 0, placed = 0;
    legend.flow(view.width(), view.layers(), [&](const views::LegendEntry& e, int x, int line) {
      right = std::max(right, x + (e.swatch == views::LegendEntry::Swatch::None
                                       ? 0
                                       : views::TimelineLegend::kSwatch + views::TimelineLegend::kTextGap) +
                                  e.textWidth);
      lines = std::max(lines, line + 1);
      ++placed;
    });
    QCOMPARE(placed, int(legend.entries().size()));
    QVERIFY(right <= view.width());
    QVERIFY(lines >= 2);
    QCOMPARE(view.legendHeight(), lines * views::kLegendHeight);
    QCOMPARE(view.plotRect().bottom() + 1, view.height() - view.legendHeight());
    // The last entry (critical path) is drawn: its swatch in the picture.
    QRect lastSwatch;
    legend.flow(view.width(), view.layers(), [&](const views::LegendEntry&, int x, int line) {
      lastSwatch = QRect(x, view.height() - view.legendHeight() + line * views::kLegendHeight + 5,
                         views::TimelineLegend::kSwatch, views::TimelineLegend::kSwatch);
    });
    const QImage image = painted(view);
    QCOMPARE(pixelsOf(image, lastSwatch, c.criticalPath), lastSwatch.width() * lastSwatch.height());
    // Wider: fewer lines, a taller plot.
    const int plotAt1024 = view.plotRect().height();
    view.resize(2400, 400);
    QVERIFY(view.legendHeight() < lines * views::kLegendHeight);
    QVERIFY(view.plotRect().height() > plotAt1024);
  }

  void layersCanBeSwitchedOffAndAreRemembered() {
    QSettings().clear();
    const Eight f;
    views::Selection selection;
    {
      views::TimelinePane pane(&selection);
      pane.resize(900, 400);
      pane.show();
      QVERIFY(QTest::qWaitForWindowExposed(&pane));
      f.attach(*pane.view());
      TimelineView& view = *pane.view();
      const QRect plot = view.plotRect();
      QVERIFY(pixelsOf(painted(view), plot, view.colors().message) > 0);
      QVERIFY(pixelsOf(painted(view), plot, view.colors().criticalPath) > 0);
      const int entries = [&] {
        int n = 0;
        view.legend().flow(100000, view.layers(), [&](const views::LegendEntry&, int, int) { ++n; });
        return n;
      }();
      QAction* messages = pane.findChild<QAction*>(QStringLiteral("layer_messages"));
      QAction* path = pane.findChild<QAction*>(QStringLiteral("layer_criticalPath"));
      QVERIFY(messages && path && messages->isChecked() && path->isChecked());
      messages->setChecked(false);
      path->setChecked(false);
      QVERIFY(!view.layerVisible(timeline::kSliceMessages));
      const QImage off = painted(view);
      QCOMPARE(pixelsOf(off, view.plotRect(), view.colors().message), 0);
      QCOMPARE(pixelsOf(off, view.plotRect(), view.colors().criticalPath), 0);
      int shown = 0;
      view.legend().flow(100000, view.layers(), [&](const views::LegendEntry&, int, int) { ++shown; });
      QCOMPARE(shown, entries - 2);  // no message and no critical-path entry
      // A message cannot be hovered where none is drawn.
      const QPointF send = view.positionOf(0, 1.03125);
      QVERIFY(!view.describeAt(send.toPoint()).contains(QStringLiteral("message")));
    }
    // A new pane (the next start) reads them back.
    views::TimelinePane again(&selection);
    QVERIFY(!again.findChild<QAction*>(QStringLiteral("layer_messages"))->isChecked());
    QVERIFY(!again.view()->layerVisible(timeline::kSliceMessages));
    QVERIFY(again.view()->layerVisible(timeline::kSliceEpochs));
    QSettings().clear();
  }

  void ranksCanBeHiddenRangedAndUngrouped() {
    const Eight f;
    views::Selection selection;
    TimelineView view(&selection);
    view.resize(900, 400);
    f.attach(view);
    QCOMPARE(view.rows().nodeRowCount(), 2);
    QCOMPARE(view.rows().locationRowCount(), int(kRanks));
    // The context menu of rank 2's label hides it; the rest are fitted again.
    const QPoint label(40, int(view.positionOf(2, 0.0).y()));
    std::unique_ptr<QMenu> menu(view.createRowMenu(label));
    QAction* hide = menu->findChild<QAction*>(QStringLiteral("hideRow"));
    QVERIFY(hide);
    QVERIFY(hide->text().contains(QString::fromStdString(f.report->locations[2].name)));
    hide->trigger();
    QCOMPARE(view.rows().locationRowCount(), int(kRanks) - 1);
    QCOMPARE(view.rows().rowOfLocation(2), -1);
    QCOMPARE(view.positionOf(2, 1.0).y(), -1.0);
    QCOMPARE(view.rowHeight(), std::min((view.plotRect().height() - 2 * TimelineRows::kNodeHeight) / int(kRanks - 1),
                                        TimelineView::kMaxFitHeight));
    // A range: ranks 0-1 and 6 only; node1 keeps its header for rank 6.
    QString error;
    view.setHiddenLocations(views::hiddenOutsideRanks(QStringLiteral("0-1, 6"), *f.report, &error));
    QVERIFY(error.isEmpty());
    QCOMPARE(view.rows().locationRowCount(), 3);
    for (std::uint32_t l = 0; l < kRanks; ++l) QCOMPARE(view.rows().rowOfLocation(l) >= 0, l <= 1 || l == 6);
    // Only ranks of one node: the other node has no header.
    view.setHiddenLocations(views::hiddenOutsideRanks(QStringLiteral("4-7"), *f.report, &error));
    QCOMPARE(view.rows().nodeRowCount(), 1);
    // Not grouped: no headers at all.
    menu.reset(view.createRowMenu(label));
    menu->findChild<QAction*>(QStringLiteral("showAllRows"))->trigger();
    QAction* group = menu->findChild<QAction*>(QStringLiteral("groupByNode"));
    QVERIFY(group->isChecked());
    group->trigger();
    QCOMPARE(view.rows().nodeRowCount(), 0);
    QCOMPARE(view.rows().locationRowCount(), int(kRanks));
    QCOMPARE(view.rowHeight(), std::min(view.plotRect().height() / int(kRanks), TimelineView::kMaxFitHeight));
    // Show only one rank.
    menu.reset(view.createRowMenu(QPoint(40, int(view.positionOf(5, 0.0).y()))));
    menu->findChild<QAction*>(QStringLiteral("showOnlyRow"))->trigger();
    QCOMPARE(view.rows().locationRowCount(), 1);
    QCOMPARE(view.rows().rowOfLocation(5), 0);
  }

  void rankRangesAreParsedOrRefusedWithOneLine() {
    const Eight f;
    QString error;
    const std::vector<char> hidden = views::hiddenOutsideRanks(QStringLiteral(" 2-3,5 ,7"), *f.report, &error);
    QVERIFY(error.isEmpty());
    QCOMPARE(hidden, (std::vector<char>{1, 1, 0, 0, 1, 0, 1, 0}));
    for (const char* bad : {"3-1", "a", "1-2-3", "", " , "}) {
      QVERIFY(views::hiddenOutsideRanks(QString::fromLatin1(bad), *f.report, &error).empty());
      QVERIFY2(error.contains(QStringLiteral("0-3, 6")), bad);
    }
  }

  void childRowsFollowTheirProcess() {
    const Eight f;
    views::Selection selection;
    TimelineView view(&selection);
    view.resize(900, 400);
    f.attach(view);
    // Locations 1 and 3 are threads (or streams) of location 0; 5 of 4.
    std::vector<std::uint32_t> parents(kRanks, report::kNoId);
    parents[1] = parents[3] = 0;
    parents[5] = 4;
    view.setLocationParents(parents);
    std::vector<std::uint32_t> order;
    std::vector<int> depth;
    for (const views::TimelineRow& r : view.rows().rows())
      if (!r.isNode) {
        order.push_back(r.location);
        depth.push_back(r.depth);
      }
    QCOMPARE(order, (std::vector<std::uint32_t>{0, 1, 3, 2, 4, 5, 6, 7}));
    QCOMPARE(depth, (std::vector<int>{0, 1, 1, 0, 0, 1, 0, 0}));
    // Hiding a process hides its threads.
    std::vector<char> hidden(kRanks, 0);
    hidden[0] = 1;
    view.setHiddenLocations(hidden);
    QCOMPARE(view.rows().rowOfLocation(1), -1);
    QCOMPARE(view.rows().rowOfLocation(3), -1);
    QCOMPARE(view.rows().locationRowCount(), int(kRanks) - 3);
  }

  void fewRowsFillThePlot() {
    // Two ranks on one node: fitted rows grow past the default height until the plot is
    // full (up to kMaxLocationHeight), leaving less than a pixel per row below them.
    trace::TraceBuilder b(2);
    test::buildMessages(b);
    auto report = std::make_shared<report::Report>(test::reportSkeleton(b.trace()));
    views::Selection selection;
    TimelineView view(&selection);
    QVERIFY(showTimeline(view, b.trace(), report));
    const int plot = view.plotRect().height();
    const int expected = (plot - TimelineRows::kNodeHeight) / 2;
    QVERIFY2(expected > 48 && expected < TimelineRows::kMaxLocationHeight, qPrintable(QString::number(expected)));
    QCOMPARE(view.rowHeight(), expected);
    QVERIFY(plot - view.rows().contentHeight() < 2);
    // A taller plot: still filled, up to the largest height.
    view.resize(900, 1200);
    QCOMPARE(view.rowHeight(), std::min((view.plotRect().height() - TimelineRows::kNodeHeight) / 2,
                                        TimelineRows::kMaxLocationHeight));
    QCOMPARE(view.rowHeight(), TimelineRows::kMaxLocationHeight);
    // Taller rows draw taller region bands.
    QVERIFY(view.rows().bands().bandHeight > TimelineRows::kMaxLocationHeight - 20);
    // Fit All Rows in the labels' menu fits again after a height of the user's.
    view.resize(900, 400);
    view.setRowHeight(30);
    QVERIFY(!view.fitRows());
    std::unique_ptr<QMenu> menu(view.createRowMenu(QPoint(40, view.plotRect().top() + 30)));
    menu->findChild<QAction*>(QStringLiteral("fitRows"))->trigger();
    QCOMPARE(view.rowHeight(), expected);
  }

  void threadsAndStreamsAreRowsUnderTheirProcess() {
    // Two ranks; rank 0 has an OpenMP thread, rank 1 a CUDA stream and a thread; the report
    // lists them after the processes (as the analyzer writes hybrid reports).
    trace::TraceBuilder b(2);
    for (trace::Rank r = 0; r < 2; ++r) b.rank(r).enter(0.0, "main").enter(1.0, "work").leave(2.0, "work").leave(4.0, "main");
    b.addThread(0, "OMP thread 1").enter(0.5, "work").leave(1.5, "work");
    b.addThread(1, "CUDA[0:7]", trace::LocationType::AcceleratorStream).enter(1.0, "kernel").leave(3.0, "kernel");
    b.addThread(1, "OMP thread 1").enter(0.5, "work").leave(1.5, "work");
    auto report = std::make_shared<report::Report>(test::reportSkeleton(b.trace()));
    report->locations.push_back({"MPI Rank 0 / OMP thread 1", 0, 0, report::LocationKind::Thread});
    report->locations.push_back({"MPI Rank 1 / CUDA[0:7]", 1, 0, report::LocationKind::Accelerator});
    report->locations.push_back({"MPI Rank 1 / OMP thread 1", 1, 0, report::LocationKind::Thread});
    QCOMPARE(views::processParents(*report), (std::vector<std::uint32_t>{report::kNoId, report::kNoId, 0, 1, 1}));
    // Labels: a child's name without its process's (tooltips and exports keep the full name).
    {
      views::TimelineRows rows;
      rows.setReport(report.get());
      views::TimelineStyle style;
      style.setNames(report.get(), rows);
      QCOMPARE(style.locationLabels, (std::vector<QString>{QStringLiteral("MPI Rank 0"), QStringLiteral("MPI Rank 1"),
                                                           QStringLiteral("OMP thread 1"), QStringLiteral("CUDA[0:7]"),
                                                           QStringLiteral("OMP thread 1")}));
      QCOMPARE(style.locationNames[3], QStringLiteral("MPI Rank 1 / CUDA[0:7]"));
    }
    views::Selection selection;
    TimelineView view(&selection);
    QVERIFY(showTimeline(view, b.trace(), report));
    const auto shownRows = [&] {
      std::vector<std::pair<std::uint32_t, int>> rows;  // location, depth
      for (const views::TimelineRow& r : view.rows().rows())
        if (!r.isNode) rows.emplace_back(r.location, r.depth);
      return rows;
    };
    using Rows = std::vector<std::pair<std::uint32_t, int>>;
    QCOMPARE(shownRows(), (Rows{{0, 0}, {2, 1}, {1, 0}, {3, 1}, {4, 1}}));
    // The stream's kernel is drawn on its own row, at its times.
    QVERIFY(view.positionOf(3, 2.0).y() > view.positionOf(1, 2.0).y());
    QCOMPARE(view.describeAt(view.positionOf(3, 2.0).toPoint()).contains(QStringLiteral("kernel")), true);
    // A click on rank 1's label folds its stream and thread; another unfolds them.
    const QPoint label(60, int(view.positionOf(1, 0.0).y()));
    QCOMPARE(view.describeAt(label), QStringLiteral("MPI Rank 1: click to fold or unfold its threads and streams"));
    QCOMPARE(view.describeAt(QPoint(60, int(view.positionOf(2, 0.0).y()))), QString());
    QTest::mouseClick(&view, Qt::LeftButton, {}, label);
    QCOMPARE(shownRows(), (Rows{{0, 0}, {2, 1}, {1, 0}}));
    QVERIFY(view.rows().childrenCollapsed(1));
    QCOMPARE(view.positionOf(3, 2.0).y(), -1.0);
    // Three rows fitted again: rank 1's label has moved.
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(60, int(view.positionOf(1, 0.0).y())));
    QCOMPARE(shownRows(), (Rows{{0, 0}, {2, 1}, {1, 0}, {3, 1}, {4, 1}}));
    // A click on a thread's label does nothing (it has no rows under it).
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(60, int(view.positionOf(2, 0.0).y())));
    QCOMPARE(view.rows().locationRowCount(), 5);
    // The labels' menu folds and unfolds every process's rows.
    std::unique_ptr<QMenu> menu(view.createRowMenu(label));
    menu->findChild<QAction*>(QStringLiteral("foldChildRows"))->trigger();
    QCOMPARE(shownRows(), (Rows{{0, 0}, {1, 0}}));
    // Selecting a folded stream (in the system tree) unfolds its process to show it.
    selection.setReport(std::make_shared<const views::ReportData>(*report, QStringLiteral("hybrid.waitscope")));
    view.setAllChildrenCollapsed(true);
    const views::ReportDataPtr data = selection.report();
    selection.setSystemItems({{data->systemNodeOfLocation(3), true}});
    QVERIFY(view.rows().rowOfLocation(3) >= 0);
    QVERIFY(!view.rows().childrenCollapsed(1));
    QVERIFY(view.rows().childrenCollapsed(0));
    // Folding a node hides its processes' threads with them; a rank range keeps a rank's threads.
    view.setAllChildrenCollapsed(false);
    view.setCollapsed(0, true);
    QCOMPARE(view.rows().locationRowCount(), 0);
    view.setCollapsed(0, false);
    QString error;
    view.setHiddenLocations(views::hiddenOutsideRanks(QStringLiteral("1"), *report, &error));
    QCOMPARE(shownRows(), (Rows{{1, 0}, {3, 1}, {4, 1}}));
  }

  void drawnColoursArePairwiseDistinct() {
    const views::TimelineColors c;
    std::vector<std::pair<QString, QColor>> drawn;
    for (std::size_t g = 0; g < c.groups.size(); ++g)
      drawn.emplace_back(views::groupLabel(static_cast<timeline::RegionGroup>(g)), c.groups[g]);
    for (std::size_t k = 0; k < c.epochs.size(); ++k)
      drawn.emplace_back(views::epochLabel(static_cast<timeline::EpochKind>(k)), c.epochs[k]);
    drawn.emplace_back(QStringLiteral("message"), c.message);
    drawn.emplace_back(QStringLiteral("transfer"), c.transfer);
    drawn.emplace_back(QStringLiteral("critical path"), c.criticalPath);
    for (std::size_t p = 0; p < views::TimelineColors::kPatternColors; ++p)
      drawn.emplace_back(QStringLiteral("pattern colour %1").arg(p), views::TimelineColors::kPatternPalette[p]);
    for (std::size_t i = 0; i < drawn.size(); ++i)
      for (std::size_t j = i + 1; j < drawn.size(); ++j) {
        const double d = views::colorDistance(drawn[i].second, drawn[j].second);
        QVERIFY2(d >= views::TimelineColors::kMinDistance,
                 qPrintable(QStringLiteral("%1 and %2: %3").arg(drawn[i].first, drawn[j].first).arg(d)));
      }
    // The distance itself: black and white are 100 apart, a colour 0 from itself.
    QVERIFY(std::abs(views::colorDistance(Qt::black, Qt::white) - 100.0) < 0.01);
    QCOMPARE(views::colorDistance(c.transfer, c.transfer), 0.0);
  }

  void thePatternsOfAReportGetDistinctColours() {
    const Eight f;
    views::Selection selection;
    TimelineView view(&selection);
    f.attach(view);
    // Metrics 1, 2, 14 and 26 have instances: the first four palette colours, in metric order.
    const views::TimelineColors& c = view.colors();
    QCOMPARE(c.pattern(1), views::TimelineColors::kPatternPalette[0]);
    QCOMPARE(c.pattern(2), views::TimelineColors::kPatternPalette[1]);
    QCOMPARE(c.pattern(14), views::TimelineColors::kPatternPalette[2]);
    QCOMPARE(c.pattern(26), views::TimelineColors::kPatternPalette[3]);
    // The legend shows them in those colours.
    for (const views::LegendEntry& e : view.legend().entries())
      if (e.label == QStringLiteral("Pattern number 26")) QCOMPARE(e.pen.color(), views::TimelineColors::kPatternPalette[3]);
  }
};

QTEST_MAIN(TimelineLayoutTest)
#include "timeline_layout_test.moc"
