// The charts below the trees stay readable in small windows and in the headless PNG
// export: a plot of useful height, no axis label or title elided to "...", numbers
// without exponents and in the unit of their magnitude.
#include <memory>

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLocale>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "analysis/report/report_io.h"
#include "app/command_line.h"
#include "app/main_window.h"
#include "app/scripted_export.h"
#include "tests/gui/views/sample_report.h"
#include "views/widgets/chart_pane.h"
#include "views/widgets/report_browser.h"

using namespace waitscope;
using namespace waitscope::test;
using waitscope::app::MainWindow;
using waitscope::views::ChartPane;

namespace {

// Every text Qt Charts drew for a chart: title, axis titles and tick labels.
QStringList chartTexts(const QChart* chart) {
  QStringList texts;
  for (QGraphicsItem* item : chart->scene()->items()) {
    if (!item->isVisible()) continue;
    if (auto* text = dynamic_cast<QGraphicsTextItem*>(item)) texts << text->toPlainText();
    if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item)) texts << text->text();
  }
  texts.removeAll(QString());
  return texts;
}

bool elided(const QString& text) { return text.contains(QStringLiteral("...")) || text.contains(QChar(0x2026)); }

// The first elided text of a chart, or an empty string. Qt Charts lays out after the
// event loop ran, so callers wait for this with QTRY_*: it must become empty.
QString firstElided(const QChart* chart) {
  for (const QString& text : chartTexts(chart))
    if (elided(text)) return text;
  return {};
}

// Five value-axis labels and the bars between them: below this the labels crowd.
constexpr qreal kMinimumPlotHeight = 80.0;

}  // namespace

class ChartReadabilityTest : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString reportPath_;

  // The charts of a window: a plot of useful height and every text whole.
  void checkReadable(ChartPane* pane, const QString& where) {
    for (QChart* chart : {pane->barChart(), pane->boxChart()}) {
      QTRY_VERIFY2(chart->plotArea().height() >= kMinimumPlotHeight,
                   qPrintable(QStringLiteral("%1: plot %2 px high").arg(where).arg(chart->plotArea().height())));
      QVERIFY2(chartTexts(chart).size() >= 4, qPrintable(where + QStringLiteral(": no axis labels")));
      QTRY_VERIFY2(firstElided(chart).isEmpty(), qPrintable(where + QStringLiteral(": ") + firstElided(chart)));
    }
    // The rank labels of the three bars are shown, whole.
    const QStringList texts = chartTexts(pane->barChart());
    for (const QString& rank : {QStringLiteral("0"), QStringLiteral("1"), QStringLiteral("2")})
      QVERIFY2(texts.contains(rank), qPrintable(where + QStringLiteral(": no label ") + rank));
  }

 private slots:
  void initTestCase() {
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("WaitscopeTest"));
    QApplication::setApplicationName(QStringLiteral("chart_readability_test"));
    QVERIFY(dir_.isValid());
    reportPath_ = dir_.filePath(QStringLiteral("sample.waitscope"));
    report::writeReport(sampleReport(), reportPath_.toStdString());
  }

  void smallWindowsKeepTheChartsReadable() {
    for (const QSize size : {QSize(1024, 700), QSize(1280, 800)}) {
      MainWindow window;
      window.setInteractive(false);
      window.resize(size);
      window.show();
      QVERIFY(QTest::qWaitForWindowExposed(&window));
      QSignalSpy loaded(&window, &MainWindow::reportLoaded);
      window.openReport(reportPath_);
      QVERIFY(loaded.wait(10000));
      QCOMPARE(window.size(), size);
      checkReadable(window.browser()->chartPane(),
                    QStringLiteral("%1x%2").arg(size.width()).arg(size.height()));
      if (QTest::currentTestFailed()) return;
    }
  }

  void headlessExportKeepsTheChartsReadable() {
    MainWindow window;
    app::CommandLine options;
    options.report = reportPath_;
    options.metric = QStringLiteral("mpi_latesender");
    options.exportPng = dir_.filePath(QStringLiteral("window.png"));
    QCOMPARE(app::runScriptedExport(window, options), 0);
    QVERIFY(QFile::exists(options.exportPng));
    checkReadable(window.browser()->chartPane(), QStringLiteral("export"));
  }

  void axesUseUnitsAndSeparatorsNotExponents() {
    ChartPane pane;
    pane.resize(900, 300);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    pane.setValues({0.0021, 0.00477, 0.0}, {QStringLiteral("0"), QStringLiteral("1"), QStringLiteral("2")},
                   QStringLiteral("Time"), report::MetricUnit::Seconds);
    // 4.77 ms at most: the axis counts milliseconds, ticks at whole or half ones.
    QTRY_VERIFY(chartTexts(pane.barChart()).contains(QStringLiteral("ms")));
    QVERIFY(chartTexts(pane.boxChart()).contains(QStringLiteral("ms")));
    // Hovering a bar tells its value in the formatter's words.
    QCOMPARE(pane.barToolTip(1), QStringLiteral("Rank 1: 4.77 ms"));
    QCOMPARE(pane.barToolTip(2), QStringLiteral("Rank 2: 0"));
    QCOMPARE(pane.barToolTip(3), QString());
    for (QChart* chart : {pane.barChart(), pane.boxChart()}) {
      QTRY_VERIFY2(firstElided(chart).isEmpty(), qPrintable(firstElided(chart)));
      for (const QString& text : chartTexts(chart)) QVERIFY2(!text.contains(QStringLiteral("e-")), qPrintable(text));
    }

    pane.setValues({9460.0, 31554.0, 120.0}, {QStringLiteral("0"), QStringLiteral("1"), QStringLiteral("2")},
                   QStringLiteral("Visits"), report::MetricUnit::Occurrences);
    QTRY_VERIFY(chartTexts(pane.barChart()).contains(QStringLiteral("occ.")));
    for (QChart* chart : {pane.barChart(), pane.boxChart()})
      QTRY_VERIFY2(firstElided(chart).isEmpty(), qPrintable(firstElided(chart)));
    bool separated = false;
    for (const QString& text : chartTexts(pane.barChart())) {
      QVERIFY2(!text.contains(QStringLiteral("e+")), qPrintable(text));
      separated = separated || text.contains(QStringLiteral(",000"));
    }
    QVERIFY(separated);  // ticks at round ten thousands: "10,000"
    QCOMPARE(pane.barToolTip(1), QStringLiteral("Rank 1: 31,554"));

    // Many ranks: their labels are left out rather than elided.
    std::vector<double> many(512, 1.0);
    QStringList labels;
    for (int i = 0; i < 512; ++i) labels << QString::number(i);
    pane.setValues(many, labels, QStringLiteral("Time"), report::MetricUnit::Seconds);
    QTRY_VERIFY(!chartTexts(pane.barChart()).contains(QStringLiteral("511")));
    QTRY_VERIFY2(firstElided(pane.barChart()).isEmpty(), qPrintable(firstElided(pane.barChart())));
  }
};

QTEST_MAIN(ChartReadabilityTest)
#include "chart_readability_test.moc"
