// waitscope: the desktop app. With exports and --quit it renders without a
// display and exits, for scripts and reproducible figures.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <QApplication>
#include <QIcon>
#include <QTextStream>

#include "app/command_line.h"
#include "app/main_window.h"
#include "app/report_loader.h"
#include "app/scripted_export.h"

namespace {

bool hasDisplay() {
  return std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY") || std::getenv("QT_QPA_PLATFORM");
}

void fail(const QString& message) { std::fprintf(stderr, "waitscope: %s\n", qPrintable(message)); }

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "-h") == 0 || std::strcmp(argv[i], "--help") == 0) {
      std::fputs(qPrintable(waitscope::app::commandLineHelp()), stdout);
      return 0;
    }
    if (std::strcmp(argv[i], "--version") == 0) {
      std::printf("waitscope %s\n", WAITSCOPE_VERSION);
      return 0;
    }
  }
  const bool headless = waitscope::app::wantsHeadless(argc, argv);
  if (!hasDisplay()) {
    if (!headless) {
      fail(QStringLiteral("no display (DISPLAY is not set): run it under xvfb-run, or export with "
                          "--export-png FILE --quit"));
      return 1;
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
  }

  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("Waitscope"));
  QApplication::setApplicationName(QStringLiteral("waitscope"));
  QApplication::setApplicationVersion(QStringLiteral(WAITSCOPE_VERSION));
  // The installed desktop file and icon (packaging/); the built-in SVG when not installed.
  QGuiApplication::setDesktopFileName(QStringLiteral("org.waitscope.Waitscope"));
  QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("org.waitscope.Waitscope"),
                                               QIcon(QStringLiteral(":/icons/org.waitscope.Waitscope.svg"))));

  waitscope::app::CommandLine options;
  QString error;
  if (!parseCommandLine(app.arguments().mid(1), &options, &error)) {
    fail(error + QStringLiteral(" (waitscope --help shows the options)"));
    return 2;
  }

  waitscope::app::MainWindow window;
  if (options.quit) return waitscope::app::runScriptedExport(window, options);

  window.restoreSettings();
  if (options.size.isValid()) window.resize(options.size);
  window.show();
  if (!options.report.isEmpty()) {
    QObject::connect(&window, &waitscope::app::MainWindow::reportLoaded, &window, [&window, options] {
      QString message;
      if (!waitscope::app::applySelection(window, options, &message)) fail(message);
    });
    window.openReport(options.report);
  }
  return app.exec();
}
