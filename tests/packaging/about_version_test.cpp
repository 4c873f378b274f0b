// The About dialog shows the version that app/main.cpp sets from project(VERSION)
// (WAITSCOPE_VERSION): the string every tool's --version prints (packaging_version).
#include <QAction>
#include <QApplication>
#include <QMessageBox>
#include <QTest>
#include <QTimer>

#include <functional>

#include "app/main_window.h"

class AboutVersionTest : public QObject {
  Q_OBJECT

 private slots:
  void aboutShowsTheProjectVersion() {
    QApplication::setApplicationVersion(QStringLiteral(WAITSCOPE_VERSION));  // as app/main.cpp does
    waitscope::app::MainWindow window;
    QAction* about = nullptr;
    for (QAction* action : window.findChildren<QAction*>())
      if (action->text().remove(QLatin1Char('&')) == QLatin1String("About Waitscope")) about = action;
    QVERIFY(about);

    // QMessageBox::about runs its own event loop: read and close the box from inside it.
    QString text;
    int attempts = 0;
    std::function<void()> closeBox = [&] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
        text = box->text();
        box->accept();
      } else if (++attempts < 200) {
        QTimer::singleShot(10, closeBox);
      }
    };
    QTimer::singleShot(0, closeBox);
    about->trigger();
    QVERIFY2(text.contains(QStringLiteral("Waitscope " WAITSCOPE_VERSION)), qPrintable(text));
  }
};

QTEST_MAIN(AboutVersionTest)
#include "about_version_test.moc"
