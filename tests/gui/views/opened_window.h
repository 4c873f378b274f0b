#pragma once
// The app's main window with a report opened (offscreen, no message boxes), for
// the tests of the browser and its trees.
#include <memory>

#include <QSignalSpy>

#include "app/main_window.h"

namespace waitscope::test {

inline std::unique_ptr<app::MainWindow> openedWindow(const QString& reportPath) {
  auto window = std::make_unique<app::MainWindow>();
  window->setInteractive(false);
  window->show();
  QSignalSpy loaded(window.get(), &app::MainWindow::reportLoaded);
  window->openReport(reportPath);
  if (!loaded.wait(10000)) qFatal("report did not load");
  return window;
}

}  // namespace waitscope::test
