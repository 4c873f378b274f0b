#pragma once
// The app's main window with a report opened (offscreen, no message boxes), for
// the tests of the browser, its trees and its docks.
#include <memory>

#include <QSignalSpy>
#include <QSize>
#include <QTest>

#include "app/main_window.h"

namespace waitscope::test {

// Opened at `size` if given (the size it starts with: --size, or the screen's), else at the
// window's default size.
inline std::unique_ptr<app::MainWindow> openedWindow(const QString& reportPath, const QSize& size = {}) {
  auto window = std::make_unique<app::MainWindow>();
  window->setInteractive(false);
  if (size.isValid()) window->resize(size);
  window->show();
  if (!QTest::qWaitForWindowExposed(window.get())) qFatal("window not exposed");
  QSignalSpy loaded(window.get(), &app::MainWindow::reportLoaded);
  window->openReport(reportPath);
  if (!loaded.wait(20000)) qFatal("report did not load: %s", qPrintable(reportPath));
  return window;
}

}  // namespace waitscope::test
