// The menus as docs/app.md documents them, whatever the style or platform theme: every
// documented shortcut is set explicitly; Help lists the shortcuts (read from the menus) and
// finds the user guide; View > Reset Layout brings back the default docks and splitters and
// forgets the saved ones; the Timeline Colours dialog speaks the legend's names; the default
// editor is one that is installed; a headless export prints nothing on stderr.
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenuBar>
#include <QProcess>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStyleFactory>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "analysis/report/report_io.h"
#include "app/editor_launcher.h"
#include "app/main_window.h"
#include "app/user_guide.h"
#include "tests/gui/app/fence_sites_report.h"
#include "views/timeline/timeline_colors.h"
#include "views/widgets/report_browser.h"

using namespace waitscope;

namespace {

// The action of the menus whose text (without '&') is `text`.
QAction* menuAction(const app::MainWindow& window, const QString& text) {
  for (QAction* a : window.menuBar()->findChildren<QAction*>())
    if (a->text().remove(QLatin1Char('&')) == text) return a;
  for (QAction* a : window.findChildren<QAction*>())
    if (a->text().remove(QLatin1Char('&')) == text) return a;
  return nullptr;
}

// Runs `trigger`, and once the modal dialog it opens is up, `inspect` on it and closes it.
template <typename Dialog>
void inspectModal(const std::function<void()>& trigger, const std::function<void(Dialog*)>& inspect) {
  bool seen = false;
  QTimer poll;
  QObject::connect(&poll, &QTimer::timeout, [&] {
    if (auto* dialog = qobject_cast<Dialog*>(QApplication::activeModalWidget())) {
      poll.stop();
      seen = true;
      inspect(dialog);
      dialog->reject();
    }
  });
  poll.start(10);
  trigger();
  QVERIFY(seen);
}

}  // namespace

class MainWindowMenusTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // settings go to a test location
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QSettings().clear();
  }

  void documentedShortcutsAreSetWhateverTheStyle() {
    app::MainWindow window;
    // docs/app.md, "Shortcuts".
    const QList<QPair<QString, QString>> documented = {
        {QStringLiteral("Open Report…"), QStringLiteral("Ctrl+O")},
        {QStringLiteral("Close Report"), QStringLiteral("Ctrl+W")},
        {QStringLiteral("Quit"), QStringLiteral("Ctrl+Q")},
        {QStringLiteral("User Guide"), QStringLiteral("F1")},
        {QStringLiteral("Analyze Trace…"), QStringLiteral("Ctrl+Shift+A")},
        {QStringLiteral("Compare With…"), QStringLiteral("Ctrl+Shift+D")},
        {QStringLiteral("Flat Profile (by Region)"), QStringLiteral("Ctrl+L")},
        {QStringLiteral("Sort by Value"), QStringLiteral("Ctrl+Shift+S")},
        {QStringLiteral("Hide Small Values…"), QStringLiteral("Ctrl+T")},
        {QStringLiteral("Find…"), QStringLiteral("Ctrl+F")},
        {QStringLiteral("Find Next"), QStringLiteral("F3")},
        {QStringLiteral("Find Previous"), QStringLiteral("Shift+F3")},
        {QStringLiteral("Expand Hot Path"), QStringLiteral("Ctrl+H")},
        {QStringLiteral("Open in Editor"), QStringLiteral("Ctrl+E")},
        {QStringLiteral("Window as PNG…"), QStringLiteral("Ctrl+Shift+P")},
        {QStringLiteral("Window as SVG…"), QStringLiteral("Ctrl+Shift+G")},
        {QStringLiteral("Current tree as CSV…"), QStringLiteral("Ctrl+Shift+C")},
    };
    for (const auto& [text, keys] : documented) {
      QAction* action = menuAction(window, text);
      QVERIFY2(action, qPrintable(text));
      QCOMPARE(action->shortcut(), QKeySequence(keys));
    }
    // The value modes, Ctrl+1..4.
    QStringList modeKeys;
    for (const auto& [text, keys] : window.keyboardShortcuts())
      if (text.startsWith(QStringLiteral("View > Value Mode > "))) modeKeys << keys.toString(QKeySequence::PortableText);
    QCOMPARE(modeKeys, (QStringList{QStringLiteral("Ctrl+1"), QStringLiteral("Ctrl+2"), QStringLiteral("Ctrl+3"),
                                    QStringLiteral("Ctrl+4")}));
  }

  void keyboardShortcutsListEveryActionWithOne() {
    app::MainWindow window;
    QVERIFY(menuAction(window, QStringLiteral("Keyboard Shortcuts")));
    // Generated from the menus: an action added later is listed too.
    QMenu* help = nullptr;
    for (QAction* top : window.menuBar()->actions())
      if (top->text().remove(QLatin1Char('&')) == QStringLiteral("Help")) help = top->menu();
    QVERIFY(help);
    help->addAction(QStringLiteral("Extra"))->setShortcut(QKeySequence(QStringLiteral("Ctrl+Alt+X")));
    // Every menu action with a shortcut, counted independently of keyboardShortcuts().
    int withShortcut = 0;
    for (QMenu* menu : window.menuBar()->findChildren<QMenu*>())
      for (QAction* a : menu->actions())
        if (!a->menu() && !a->shortcut().isEmpty()) ++withShortcut;
    QDialog* dialog = window.showKeyboardShortcuts();
    auto* table = dialog->findChild<QTableWidget*>();
    QVERIFY(table);
    QCOMPARE(table->rowCount(), withShortcut);
    QStringList rows;
    for (int r = 0; r < table->rowCount(); ++r)
      rows << table->item(r, 0)->text() + QStringLiteral(" = ") + table->item(r, 1)->text();
    const auto native = [](const char* keys) { return QKeySequence(QString::fromLatin1(keys)).toString(QKeySequence::NativeText); };
    QVERIFY2(rows.contains(QStringLiteral("File > Quit = ") + native("Ctrl+Q")), qPrintable(rows.join('\n')));
    QVERIFY(rows.contains(QStringLiteral("File > Export > Window as PNG… = ") + native("Ctrl+Shift+P")));
    QVERIFY(rows.contains(QStringLiteral("Help > User Guide = ") + native("F1")));
    QVERIFY(rows.contains(QStringLiteral("Help > Extra = ") + native("Ctrl+Alt+X")));
    delete dialog;
  }

  void userGuideIsFoundAndAMissingOneIsNamed() {
    app::MainWindow window;
    QAction* guide = menuAction(window, QStringLiteral("User Guide"));
    QVERIFY(guide);
    const QStringList candidates = app::userGuideCandidates();
    const QString source = QFileInfo(QStringLiteral(WAITSCOPE_SOURCE_DIR "/docs/user-guide.md")).canonicalFilePath();
    QVERIFY(candidates.contains(source));
    // The first candidate that exists, here at the latest the source tree's.
    QString first;
    for (const QString& c : candidates)
      if (first.isEmpty() && QFileInfo(c).isFile()) first = c;
    QCOMPARE(app::findUserGuide(), first);
    QVERIFY(!first.isEmpty());
    const QString missing = app::userGuideMissingMessage();
    QVERIFY(missing.startsWith(QStringLiteral("user-guide.md is missing")));
    for (const QString& c : candidates) QVERIFY2(missing.contains(c), qPrintable(missing));
  }

  void resetLayoutRestoresTheDefaultArrangement() {
    app::MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* source = window.findChild<QDockWidget*>(QStringLiteral("sourceDock"));
    auto* timeline = window.findChild<QDockWidget*>(QStringLiteral("timelineDock"));
    auto* assessment = window.findChild<QDockWidget*>(QStringLiteral("assessmentDock"));
    auto* compared = window.findChild<QDockWidget*>(QStringLiteral("compareTimelinesDock"));
    QVERIFY(source && timeline && assessment && compared);
    // Rearranged, and saved so.
    window.addDockWidget(Qt::LeftDockWidgetArea, source);
    assessment->hide();
    compared->show();
    window.browser()->treeSplitter()->setSizes({10, 600, 50});
    window.saveSettings();
    QVERIFY(QSettings().contains(QStringLiteral("window/state")));

    QAction* reset = menuAction(window, QStringLiteral("Reset Layout"));
    QVERIFY(reset);
    reset->trigger();
    QCOMPARE(window.dockWidgetArea(source), Qt::BottomDockWidgetArea);
    QVERIFY(window.tabifiedDockWidgets(timeline).contains(source));
    QVERIFY(!assessment->isHidden());
    QVERIFY(compared->isHidden());
    const QList<int> sizes = window.browser()->treeSplitter()->sizes();
    QCOMPARE(sizes.size(), 3);
    QVERIFY2(std::abs(sizes[0] - sizes[1]) <= 2 && std::abs(sizes[1] - sizes[2]) <= 2, qPrintable(QString::number(sizes[0])));
    for (const char* key : {"window/state", "window/treeSplitter", "window/chartSplitter"})
      QVERIFY2(!QSettings().contains(QLatin1String(key)), key);
  }

  void timelineColoursDialogShowsTheLegendsNames() {
    app::MainWindow window;
    QAction* colours = menuAction(window, QStringLiteral("Timeline Colours…"));
    QVERIFY(colours);
    QStringList items;
    inspectModal<QInputDialog>([&] { colours->trigger(); }, [&](QInputDialog* d) { items = d->comboBoxItems(); });
    QStringList legend;
    for (std::size_t g = 0; g < timeline::kRegionGroupCount; ++g)
      legend << views::groupLabel(static_cast<timeline::RegionGroup>(g));
    QCOMPARE(items, legend);
    QVERIFY(items.contains(QStringLiteral("User code")));
    QVERIFY(!items.contains(QStringLiteral("user")));
  }

  void defaultEditorIsAnInstalledOne() {
    const QByteArray path = qgetenv("PATH");
    QTemporaryDir bin;
    const auto install = [&](const QString& program) {
      QFile f(bin.filePath(program));
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("#!/bin/sh\nexit 0\n");
      f.close();
      f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    };
    qputenv("PATH", bin.path().toLocal8Bit());
    QSettings().remove(QStringLiteral("editor/command"));
    // Nothing installed: no editor detected, VS Code's command whose "not found" names the menu item.
    QCOMPARE(app::detectedEditor(), nullptr);
    QCOMPARE(app::configuredEditorCommand(), app::editorTemplates().front().command);
    const QString error = app::openInEditor(app::configuredEditorCommand(), QStringLiteral("/tmp/x.c"), 3);
    app::MainWindow window;
    QAction* choose = menuAction(window, QStringLiteral("Choose Editor…"));
    QVERIFY(choose);
    QVERIFY2(error.contains(QStringLiteral("View > Choose Editor…")), qPrintable(error));
    // Only the desktop default, then gedit, then Kate: the first in order of preference wins.
    install(QStringLiteral("xdg-open"));
    QCOMPARE(app::detectedEditor()->name, QStringLiteral("Desktop default (no line)"));
    install(QStringLiteral("vim"));  // without a terminal: not usable
    QCOMPARE(app::detectedEditor()->name, QStringLiteral("Desktop default (no line)"));
    install(QStringLiteral("x-terminal-emulator"));
    QCOMPARE(app::detectedEditor()->name, QStringLiteral("Vim (in a terminal)"));
    install(QStringLiteral("gedit"));
    QCOMPARE(app::detectedEditor()->name, QStringLiteral("gedit"));
    install(QStringLiteral("kate"));
    QCOMPARE(app::detectedEditor()->name, QStringLiteral("Kate"));
    QCOMPARE(app::configuredEditorCommand(), app::detectedEditor()->command);
    // The Choose Editor dialog says what was found.
    QString label;
    inspectModal<QInputDialog>([&] { choose->trigger(); }, [&](QInputDialog* d) { label = d->labelText(); });
    QVERIFY2(label.contains(QStringLiteral("Kate")), qPrintable(label));
    // A choice made stays, installed or not.
    app::setConfiguredEditorCommand(QStringLiteral("code -g %f:%l:%c"));
    QCOMPARE(app::configuredEditorCommand(), QStringLiteral("code -g %f:%l:%c"));
    QSettings().remove(QStringLiteral("editor/command"));
    qputenv("PATH", path);
  }

  void headlessExportPrintsNothingOnStderr() {
    QTemporaryDir dir;
    const QString report = dir.filePath(QStringLiteral("fence.waitscope"));
    report::writeReport(test::fenceSitesReport(), report.toStdString());
    const QString png = dir.filePath(QStringLiteral("x.png"));
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    process.setProcessEnvironment(env);
    const QString binary = QStringLiteral(WAITSCOPE_BINARY_DIR "/app/waitscope");
    process.start(binary, {report, QStringLiteral("--export-png"), png, QStringLiteral("--quit")});
    QVERIFY(process.waitForFinished(120000));
    QCOMPARE(QString::fromLocal8Bit(process.readAllStandardError()), QString());
    QCOMPARE(process.exitCode(), 0);
    QVERIFY(QFileInfo(png).size() > 0);
    // Its own errors still get through: one line.
    process.start(binary, {report, QStringLiteral("--select-callpath"), QStringLiteral("main/MPI_Win_fence"),
                           QStringLiteral("--export-png"), png, QStringLiteral("--quit")});
    QVERIFY(process.waitForFinished(120000));
    QCOMPARE(process.exitCode(), 1);
    QCOMPARE(QString::fromLocal8Bit(process.readAllStandardError()),
             QStringLiteral("waitscope: %1: call path 'main/MPI_Win_fence' is ambiguous: "
                            "main/MPI_Win_fence@fence.c:42, main/MPI_Win_fence@fence.c:50\n")
                 .arg(report));
  }
};

QTEST_MAIN(MainWindowMenusTest)
#include "main_window_menus_test.moc"
