#pragma once
// What the end-to-end GUI tests share for screenshots on a real X server: the
// window sizes they check, a program run on a fresh Xvfb display (xvfb-run),
// the real `waitscope` exporting its window there, this test program run again
// there for its in-process checks, a window shown at one of the sizes, and
// whether a picture is blank. The offscreen platform ctest gives would not
// test drawing on a real display.
#include <QCoreApplication>
#include <QImage>
#include <QList>
#include <QProcessEnvironment>
#include <QSet>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QTest>
#include <QWidget>

#include "app/main_window.h"
#include "tests/gui/support/tool_process.h"

namespace waitscope::test {

// The smallest window the app is made for, and a common large one.
inline const QList<QSize> kScreenSizes = {QSize(1024, 700), QSize(1600, 1000)};

// A program under xvfb-run may take this long (a window at each size, each filled).
constexpr int kXvfbTimeoutMs = 240000;

// "1024x700", as --size takes it and the pictures are named.
inline QString sizeText(const QSize& size) { return QStringLiteral("%1x%2").arg(size.width()).arg(size.height()); }

// `env` for xvfb-run: the xcb platform on Xvfb's own display.
inline QProcessEnvironment xvfbEnvironment(QProcessEnvironment env = QProcessEnvironment::systemEnvironment()) {
  env.remove(QStringLiteral("QT_QPA_PLATFORM"));
  env.remove(QStringLiteral("DISPLAY"));
  return env;
}

// Runs `command` to completion on a fresh Xvfb display of `screen` (every size above fits the
// default); on failure the warning shows everything it printed, and `output` (optional) gets it.
inline bool runOnXvfb(const QStringList& command, const QProcessEnvironment& env = xvfbEnvironment(),
                      QString* output = nullptr, const QString& screen = QStringLiteral("1600x1000x24")) {
  return runTool(QStringLiteral("xvfb-run"),
                 QStringList{QStringLiteral("-a"), QStringLiteral("-s"), QStringLiteral("-screen 0 ") + screen} + command,
                 xvfbEnvironment(env), kXvfbTimeoutMs, output);
}

// The real `waitscope` at `app` with `arguments` on Xvfb: its window at `size`, exported to `png`,
// then it quits.
inline bool exportOnXvfb(const QString& app, const QStringList& arguments, const QSize& size, const QString& png,
                         QString* output = nullptr) {
  return runOnXvfb(QStringList{app} + arguments +
                       QStringList{QStringLiteral("--size"), sizeText(size), QStringLiteral("--export-png"), png,
                                   QStringLiteral("--quit")},
                   xvfbEnvironment(), output);
}

// This test program again on Xvfb, running only its test `function`, with `variable` set to
// `value` (which tells the second run that it is the one on the X server).
inline bool runSelfOnXvfb(const QString& function, const char* variable, const QString& value) {
  QProcessEnvironment env = xvfbEnvironment();
  env.insert(QString::fromLatin1(variable), value);
  return runOnXvfb({QCoreApplication::applicationFilePath(), function}, env);
}

// Shows `widget` at `size` and waits until it is on the screen.
inline bool showOnScreen(QWidget& widget, const QSize& size) {
  widget.resize(size);
  widget.show();
  return QTest::qWaitForWindowExposed(&widget);
}

// The main window the same way, without message boxes.
inline bool showOnScreen(app::MainWindow& window, const QSize& size) {
  window.setInteractive(false);
  return showOnScreen(static_cast<QWidget&>(window), size);
}

// Distinct colours (every other pixel): text, colour boxes and lines give many, a blank picture few.
inline int colourCount(const QImage& image) {
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 2)
    for (int x = 0; x < image.width(); x += 2) colours.insert(image.pixel(x, y));
  return static_cast<int>(colours.size());
}

}  // namespace waitscope::test
