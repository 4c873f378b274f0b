// waitscope: the desktop app. With exports and --quit it renders without a
// display and exits, for scripts and reproducible figures.
#include <cstdio>
#include <cstdlib>

#include <QApplication>
#include <QIcon>

#include "app/command_line.h"
#include "app/main_window.h"
#include "app/report_loader.h"
#include "app/scaling_series_opener.h"
#include "app/scripted_export.h"
#include "views/widgets/scaling_series_window.h"

namespace {

bool hasDisplay() {
  return std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY") || std::getenv("QT_QPA_PLATFORM");
}

void fail(const QString& message) { std::fprintf(stderr, "waitscope: %s\n", qPrintable(message)); }

// Qt's offscreen and minimal platforms warn "This plugin does not support propagateSizeHints()"
// for every window shown; a headless export must print only its own errors. Everything else
// goes to Qt's handler.
QtMessageHandler qtHandler = nullptr;
void dropSizeHintNoise(QtMsgType type, const QMessageLogContext& context, const QString& message) {
  if (type == QtWarningMsg && message.contains(QLatin1String("propagateSizeHints"))) return;
  if (qtHandler) qtHandler(type, context, message);
  else std::fprintf(stderr, "%s\n", qPrintable(message));
}

}  // namespace

int main(int argc, char** argv) {
  // Parsed before QApplication exists: --help, --version and a headless run need no display.
  QStringList arguments;
  for (int i = 1; i < argc; ++i) arguments << QString::fromLocal8Bit(argv[i]);
  waitscope::app::CommandLine options;
  QString error;
  const bool parsed = waitscope::app::parseCommandLine(arguments, &options, &error);
  if (options.help) {
    std::fputs(qPrintable(waitscope::app::commandLineHelp()), stdout);
    return 0;
  }
  if (options.version) {
    std::printf("waitscope %s\n", WAITSCOPE_VERSION);
    return 0;
  }
  if (!hasDisplay()) {
    if (!options.quit) {
      fail(QStringLiteral("no display (DISPLAY is not set): run it under xvfb-run, or export with "
                          "--export-png FILE --quit"));
      return 1;
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
  }

  QApplication app(argc, argv);
  if (QGuiApplication::platformName() == QLatin1String("offscreen") ||
      QGuiApplication::platformName() == QLatin1String("minimal"))
    qtHandler = qInstallMessageHandler(dropSizeHintNoise);
  QApplication::setOrganizationName(QStringLiteral("Waitscope"));
  QApplication::setApplicationName(QStringLiteral("waitscope"));
  QApplication::setApplicationVersion(QStringLiteral(WAITSCOPE_VERSION));
  // The installed desktop file and icon (packaging/); the built-in SVG when not installed.
  QGuiApplication::setDesktopFileName(QStringLiteral("org.waitscope.Waitscope"));
  QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("org.waitscope.Waitscope"),
                                               QIcon(QStringLiteral(":/icons/org.waitscope.Waitscope.svg"))));
  if (!parsed) {
    fail(error + QStringLiteral(" (waitscope --help shows the options)"));
    return 2;
  }

  if (!options.series.isEmpty() && options.quit) return waitscope::app::runScalingSeriesExport(options);
  waitscope::app::MainWindow window;
  if (options.quit) return waitscope::app::runScriptedExport(window, options);

  window.restoreSettings();
  if (options.size.isValid()) window.resize(options.size);
  window.show();
  if (!options.series.isEmpty()) {
    waitscope::views::ScalingSeriesWindow* series = window.openScalingSeries(options.series);
    if (options.size.isValid()) series->resize(options.size);
    series->show();
    for (const QString& problem : series->problems()) fail(problem);
  }
  if (!options.report.isEmpty()) {
    // With --compare, run B follows run A and the selection applies to the comparison.
    const auto applySelection = [&window, options] {
      QString message;
      if (!waitscope::app::applySelection(window, options, &message)) fail(message);
    };
    if (options.compare.isEmpty()) {
      QObject::connect(&window, &waitscope::app::MainWindow::reportLoaded, &window, applySelection);
    } else {
      QObject::connect(&window, &waitscope::app::MainWindow::reportLoaded, &window,
                       [&window, options] { window.openComparison(options.compare); },
                       Qt::SingleShotConnection);
      QObject::connect(&window, &waitscope::app::MainWindow::comparisonOpened, &window, applySelection,
                       Qt::SingleShotConnection);
    }
    window.openReport(options.report);
  }
  return app.exec();
}
