// The source pane and "Open in editor": the selected call path's file with its
// line highlighted and the selected metric per line in the margin; a file
// recorded on another machine mapped through a source root (remembered per
// report); the editor started without a shell with the right arguments; the code never
// drawn under the margin when the margin changes width.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>

#include "analysis/report/report_io.h"
#include "app/editor_launcher.h"
#include "app/main_window.h"
#include "tests/gui/views/sample_report.h"
#include "views/model/selection.h"
#include "views/source/source_pane.h"
#include "views/widgets/report_browser.h"

using namespace waitscope;
using namespace waitscope::test;
using waitscope::app::MainWindow;

class SourcePaneTest : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString sourceDir_;  // with a space: arguments must survive it

  std::unique_ptr<MainWindow> open(const QString& report) {
    auto window = std::make_unique<MainWindow>();
    window->setInteractive(false);
    QSignalSpy loaded(window.get(), &MainWindow::reportLoaded);
    window->openReport(report);
    if (!loaded.wait(10000)) qFatal("report did not load");
    return window;
  }

  static void writeSource(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    for (int line = 1; line <= 60; ++line) file.write(QStringLiteral("line %1\n").arg(line).toUtf8());
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    writeSource(dir_.filePath(QStringLiteral("app.c")));  // sampleReport() records "app.c", relative
    sourceDir_ = dir_.filePath(QStringLiteral("my src"));
    QVERIFY(QDir().mkpath(sourceDir_));
    writeSource(sourceDir_ + QStringLiteral("/app.c"));
  }

  void showsTheLineAndValuesPerLine() {
    const QString path = dir_.filePath(QStringLiteral("sample.waitscope"));
    report::writeReport(sampleReport(), path.toStdString());
    auto window = open(path);
    window->browser()->selectMetric(QStringLiteral("mpi"));
    QVERIFY(window->browser()->selectCallPath(QStringLiteral("main/MPI_Recv")));
    views::SourcePane* pane = window->sourcePane();
    QVERIFY(!pane->showsNotice());
    QCOMPARE(pane->shownFile(), dir_.filePath(QStringLiteral("app.c")));
    QCOMPARE(pane->highlightedLine(), 20);
    QCOMPARE(pane->editor()->textCursor().blockNumber(), 19);
    // mpi (with Late Sender) per call site in app.c: main/MPI_Recv at 20, main/foo/MPI_Recv at 55.
    QCOMPARE(pane->marginText(20), QStringLiteral("1.25 s"));
    QCOMPARE(pane->marginText(55), QStringLiteral("1.50 s"));
    QCOMPARE(pane->marginText(30), QString());  // foo itself spends no MPI time
    QCOMPARE(pane->marginText(10), QString());
  }

  // A metric without values narrows the margin: the text's left edge follows it, so the
  // first column of code stays visible right of the margin.
  void theCodeStartsRightOfTheMargin() {
    report::Report r = sampleReport();
    r.metrics.push_back({"mpi_rma", "RMA", "Time in one-sided communication", report::MetricUnit::Seconds, 1});
    const QString path = dir_.filePath(QStringLiteral("margin.waitscope"));
    report::writeReport(r, path.toStdString());
    auto window = open(path);
    window->resize(1000, 700);
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    window->browser()->selectMetric(QStringLiteral("mpi"));
    QVERIFY(window->browser()->selectCallPath(QStringLiteral("main/MPI_Recv")));
    views::SourcePane* pane = window->sourcePane();
    QVERIFY(!pane->showsNotice());
    QPlainTextEdit* editor = pane->editor();
    auto* margin = editor->findChild<QWidget*>(QStringLiteral("sourceMargin"));
    QVERIFY(margin);
    const auto codeIsRightOfTheMargin = [&] {
      QTextCursor first(editor->document()->findBlockByNumber(pane->highlightedLine() - 1));
      const QRect column = editor->cursorRect(first).translated(editor->viewport()->pos());
      return editor->viewport()->x() == margin->geometry().right() + 1 && column.left() > margin->geometry().right();
    };
    QVERIFY(codeIsRightOfTheMargin());
    const int wide = margin->width();

    window->browser()->selectMetric(QStringLiteral("mpi_rma"));
    QVERIFY(!pane->showsNotice());
    QCOMPARE(pane->marginText(20), QString());
    QVERIFY(margin->width() < wide);
    QVERIFY(codeIsRightOfTheMargin());

    window->browser()->selectMetric(QStringLiteral("mpi"));  // and wider again
    QCOMPARE(margin->width(), wide);
    QVERIFY(codeIsRightOfTheMargin());
  }

  // A live run's next snapshot changes the margin's values but leaves the file where the user
  // scrolled it (it is not read again).
  void aSnapshotUpdatesTheValuesAndKeepsTheScroll() {
    const QString liveDir = dir_.filePath(QStringLiteral("live"));
    QVERIFY(QDir().mkpath(liveDir));
    const QString source = liveDir + QStringLiteral("/app.c");
    writeSource(source);
    const QString path = liveDir + QStringLiteral("/live.waitscope");
    report::writeReport(sampleReport(), path.toStdString());
    auto window = open(path);
    window->resize(800, 600);
    window->browser()->selectMetric(QStringLiteral("mpi"));
    QVERIFY(window->browser()->selectCallPath(QStringLiteral("main/MPI_Recv")));
    views::SourcePane* pane = window->sourcePane();
    QCOMPARE(pane->marginText(20), QStringLiteral("1.25 s"));
    QPlainTextEdit* editor = pane->editor();
    editor->verticalScrollBar()->setValue(0);
    const int scrolled = editor->verticalScrollBar()->value();

    const QString shownText = editor->toPlainText();
    {
      QFile changed(source);  // edited since: a snapshot does not reload it
      QVERIFY(changed.open(QIODevice::WriteOnly));
      changed.write("edited\n");
    }

    report::Report next = sampleReport();
    for (auto& severity : next.severities)
      for (double& value : severity.values) value *= 2;
    window->selection()->updateReport(std::make_shared<views::ReportData>(std::move(next), path));
    QCOMPARE(pane->marginText(20), QStringLiteral("2.50 s"));
    QCOMPARE(pane->highlightedLine(), 20);
    QCOMPARE(editor->verticalScrollBar()->value(), scrolled);
    QCOMPARE(editor->toPlainText(), shownText);
  }

  void mapsFilesRecordedElsewhere() {
    report::Report r = sampleReport();
    for (report::CallPath& c : r.callPaths)
      if (!c.callSiteFile.empty()) c.callSiteFile = "/scratch/u1/proj/app.c";
    for (report::Region& region : r.regions)
      if (!region.file.empty()) region.file = "/scratch/u1/proj/app.c";
    const QString path = dir_.filePath(QStringLiteral("elsewhere.waitscope"));
    report::writeReport(r, path.toStdString());
    auto window = open(path);
    QVERIFY(window->browser()->selectCallPath(QStringLiteral("main/foo/MPI_Recv")));
    views::SourcePane* pane = window->sourcePane();
    QVERIFY(pane->showsNotice());
    QVERIFY(pane->notice().contains(QStringLiteral("/scratch/u1/proj/app.c")));
    QCOMPARE(pane->recordedFile(), QStringLiteral("/scratch/u1/proj/app.c"));

    window->sourcePane()->addSourceRoot(QStringLiteral("/scratch/u1/proj=") + sourceDir_);
    QVERIFY(!pane->showsNotice());
    QCOMPARE(pane->shownFile(), sourceDir_ + QStringLiteral("/app.c"));
    QCOMPARE(pane->highlightedLine(), 55);
    // Remembered for this report.
    auto reopened = open(path);
    QCOMPARE(reopened->sourcePane()->sourceRoots(), QStringList{QStringLiteral("/scratch/u1/proj=") + sourceDir_});

    // Open in editor: a fake editor records its arguments; no shell, so the space stays inside one.
    const QString argsFile = dir_.filePath(QStringLiteral("editor-args.txt"));
    const QString editor = dir_.filePath(QStringLiteral("fake-editor"));
    QFile script(editor);
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write(QStringLiteral("#!/bin/sh\nprintf '%s\\n' \"$@\" > '%1.tmp' && mv '%1.tmp' '%1'\n").arg(argsFile).toUtf8());
    script.close();
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    app::setConfiguredEditorCommand(editor + QStringLiteral(" --line %l %f"));
    QCOMPARE(window->openSelectionInEditor(), QString());
    QElapsedTimer waited;
    waited.start();
    while (!QFile::exists(argsFile) && waited.elapsed() < 10000) QTest::qWait(20);
    QFile args(argsFile);
    QVERIFY(args.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(args.readAll()),
             QStringLiteral("--line\n55\n%1/app.c\n").arg(sourceDir_));

    app::setConfiguredEditorCommand(QStringLiteral("no-such-editor-xyz %f"));
    QVERIFY(window->openSelectionInEditor().contains(QStringLiteral("no-such-editor-xyz: editor not found")));
  }

  void editorTemplatesKeepArgumentsWhole() {
    QCOMPARE(app::editorArguments(QStringLiteral("code -g %f:%l:%c"), QStringLiteral("/a b/x.c"), 3, 7),
             (QStringList{QStringLiteral("code"), QStringLiteral("-g"), QStringLiteral("/a b/x.c:3:7")}));
    const QString hostile = QStringLiteral("/tmp/x\"; rm -rf ~; \".c");
    QCOMPARE(app::editorArguments(QStringLiteral("emacsclient -n +%l %f"), hostile, 9),
             (QStringList{QStringLiteral("emacsclient"), QStringLiteral("-n"), QStringLiteral("+9"), hostile}));
    QCOMPARE(app::editorArguments(QStringLiteral("clion --line %l %f"), QStringLiteral("a.c"), 4),
             (QStringList{QStringLiteral("clion"), QStringLiteral("--line"), QStringLiteral("4"), QStringLiteral("a.c")}));
    QVERIFY(app::editorArguments(QString(), QStringLiteral("a.c"), 1).isEmpty());
    QCOMPARE(app::editorTemplates().size(), 11);  // ten presets and Custom
  }
};

QTEST_MAIN(SourcePaneTest)
#include "source_pane_test.moc"
