// The dialogs, offscreen: the profile editor's operations and its "Test
// connection", the trace browser, and "Analyze trace…" running the real
// analyzer on this machine up to reportReady.
#include <algorithm>

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QListWidget>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include "app/launch/analyze_dialog.h"
#include "app/launch/connection_tester.h"
#include "app/launch/profile_editor.h"
#include "app/launch/profile_list_model.h"
#include "app/launch/remote_connect_dialog.h"
#include "app/launch/remote_file_dialog.h"
#include "app/launch/shell_command.h"
#include "tests/gui/launch/launch_test_support.h"

using namespace waitscope::launch;
using namespace launchtest;

class LaunchDialogsTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void editorEditsAndSavesProfiles() {
    QTemporaryDir dir;
    const ProfileStore store(dir.filePath(QStringLiteral("profiles.json")));
    ProfileEditor editor(store);
    ProfileListModel* model = editor.model();
    QCOMPARE(model->rowCount(), 1);  // "This computer"
    editor.addProfile();
    QCOMPARE(model->rowCount(), 2);
    QCOMPARE(editor.currentRow(), 1);
    // Typing in the form changes the selected profile.
    auto* host = editor.findChild<QComboBox*>(QStringLiteral("host"));
    QVERIFY(host);
    host->setCurrentText(QStringLiteral("login.example.org"));
    QCOMPARE(model->profile(1).host, QStringLiteral("login.example.org"));
    ConnectionProfile p = editor.formProfile();
    p.name = QStringLiteral("Cluster");
    p.user = QStringLiteral("me");
    p.setupLines = {QStringLiteral("module load openmpi")};
    editor.setFormProfile(p);
    QCOMPARE(model->profile(1).name, QStringLiteral("Cluster"));
    QCOMPARE(model->profile(1).setupLines, QStringList{QStringLiteral("module load openmpi")});
    editor.duplicateProfile();
    QCOMPARE(model->rowCount(), 3);
    QCOMPARE(model->profile(2).name, QStringLiteral("Cluster copy"));
    QCOMPARE(model->profile(2).host, QStringLiteral("login.example.org"));
    QVERIFY(model->renameProfile(2, QStringLiteral("Cluster (batch)")));
    editor.moveProfile(-1);
    QCOMPARE(model->profile(1).name, QStringLiteral("Cluster (batch)"));
    QCOMPARE(editor.currentRow(), 1);
    editor.selectRow(0);
    editor.deleteProfile();
    QCOMPARE(model->rowCount(), 2);
    QVERIFY(editor.exportTo(dir.filePath(QStringLiteral("shared.json"))));
    QVERIFY(editor.importFrom(dir.filePath(QStringLiteral("shared.json"))));
    QCOMPARE(model->rowCount(), 4);
    QCOMPARE(model->profile(2).name, QStringLiteral("Cluster (batch) (2)"));
    QSignalSpy saved(&editor, &ProfileEditor::profilesSaved);
    QVERIFY(editor.save());
    QCOMPARE(saved.size(), 1);
    QCOMPARE(store.load(), model->profiles());
  }

  void editorOffersSshConfigAliases() {
    QTemporaryDir dir;
    QFile config(dir.filePath(QStringLiteral("ssh_config")));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write("Host cluster\n  HostName login.example.org\nHost *.example.org\n  User me\nHost gpu-node\n");
    config.close();
    launchSettings().sshConfigFile = config.fileName();
    ProfileEditor editor(ProfileStore(dir.filePath(QStringLiteral("profiles.json"))));
    launchSettings().sshConfigFile.clear();
    auto* host = editor.findChild<QComboBox*>(QStringLiteral("host"));
    QStringList offered;
    for (int i = 0; i < host->count(); ++i) offered << host->itemText(i);
    QCOMPARE(offered, (QStringList{"cluster", "gpu-node"}));
  }

  void editorTestsTheConnection() {
    QTemporaryDir dir;
    const ProfileStore store(dir.filePath(QStringLiteral("profiles.json")));
    QVERIFY(store.save({localProfile()}));
    ProfileEditor editor(store);
    QSignalSpy done(editor.tester(), &ConnectionTester::finished);
    editor.testConnection();
    QTRY_VERIFY_WITH_TIMEOUT(done.size() == 1, 60000);
    const QString text = editor.testResultText();
    QVERIFY2(text.contains(QStringLiteral("The analyzer is installed: waitscope-analyze ")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("mpiexec is available")), qPrintable(text));

    ConnectionProfile broken = localProfile();
    broken.analyzerPath = dir.filePath(QStringLiteral("missing"));
    editor.setFormProfile(broken);
    editor.testConnection();
    QTRY_VERIFY_WITH_TIMEOUT(done.size() == 2, 60000);
    QVERIFY2(editor.testResultText().contains(QStringLiteral("was not found")), qPrintable(editor.testResultText()));
  }

  void fileDialogBrowsesAndPicksATrace() {
    QTemporaryDir dir;
    const QString trace = copyTrace(dir.filePath(QStringLiteral("runs/a b")));
    RemoteFileDialog dialog(localProfile(), dir.filePath(QStringLiteral("runs")));
    QSignalSpy loaded(&dialog, &RemoteFileDialog::directoryLoaded);
    QTRY_VERIFY_WITH_TIMEOUT(loaded.size() == 1, 30000);
    QCOMPARE(dialog.currentDirectory(), dir.filePath(QStringLiteral("runs")));
    auto* list = dialog.findChild<QListWidget*>(QStringLiteral("entries"));
    QCOMPARE(list->count(), 1);
    emit list->itemActivated(list->item(0));  // into "a b"
    QTRY_VERIFY_WITH_TIMEOUT(loaded.size() == 2, 30000);
    QList<QListWidgetItem*> anchors = list->findItems(QStringLiteral("traces.otf2"), Qt::MatchExactly);
    QCOMPARE(anchors.size(), 1);
    QVERIFY(!(list->findItems(QStringLiteral("traces.def"), Qt::MatchExactly)[0]->flags() & Qt::ItemIsEnabled));
    emit list->itemActivated(anchors[0]);
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(dialog.selectedPath(), trace);
  }

  // The question before a copied-back report's timeline connects: the file's words as plain
  // text, the user's own profiles to pick from, "Don't Connect" as the default.
  void remoteConnectDialogOffersTheUsersProfiles() {
    ConnectionProfile mine = localProfile();
    mine.name = QStringLiteral("Cluster");
    mine.kind = ConnectionKind::Ssh;
    mine.host = QStringLiteral("login.example.org");
    ConnectionProfile other = mine;
    other.name = QStringLiteral("Other");
    other.host = QStringLiteral("other.example.org");
    RemoteOrigin origin;
    origin.profileName = QStringLiteral("<b>Cluster</b>\nsecond line");
    origin.host = QStringLiteral("other.example.org");
    origin.trace = QStringLiteral("t.otf2");
    origin.report = QStringLiteral("r.waitscope");
    const QList<ConnectionProfile> profiles{mine, other};
    RemoteConnectDialog unknown(origin, resolveRemoteOrigin(origin, profiles), profiles);
    QVERIFY2(unknown.message().contains(QStringLiteral("<b>Cluster</b> second line")), qPrintable(unknown.message()));
    QCOMPARE(unknown.findChild<QLabel*>(QStringLiteral("message"))->textFormat(), Qt::PlainText);
    QCOMPARE(unknown.chosenProfile().name, QStringLiteral("Other"));  // the one going where the file says
    QVERIFY(unknown.findChild<QPushButton*>(QStringLiteral("dontConnect"))->isDefault());
    QVERIFY(unknown.selectProfile(QStringLiteral("Cluster")));
    QCOMPARE(unknown.chosenProfile(), mine);  // exactly the user's profile, nothing of the file
    QVERIFY(!unknown.selectProfile(QStringLiteral("nobody")));

    origin.profileName = QStringLiteral("Cluster");
    RemoteConnectDialog moved(origin, resolveRemoteOrigin(origin, profiles), profiles);
    QVERIFY2(moved.message().contains(QStringLiteral("now connects to login.example.org")), qPrintable(moved.message()));
    QCOMPARE(moved.chosenProfile().name, QStringLiteral("Cluster"));

    RemoteConnectDialog none(origin, {}, {});
    QVERIFY(!none.findChild<QPushButton*>(QStringLiteral("connect"))->isEnabled());
  }

  // Typing the trace's path is enough for its rank count (no focus change); the report is
  // named after the trace, never over a file that is not a report; a chosen report is used.
  void analyzeDialogFollowsTheTypedTrace() {
    QTemporaryDir dir;
    const QString trace = copyTrace(dir.filePath(QStringLiteral("fence run")));
    const ProfileStore store(dir.filePath(QStringLiteral("profiles.json")));
    QVERIFY(store.save({localProfile()}));
    AnalyzeDialog dialog(store);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QSignalSpy ranks(&dialog, &AnalyzeDialog::rankCountKnown);
    dialog.setRanks(7);
    auto* field = dialog.findChild<QLineEdit*>(QStringLiteral("trace"));
    QVERIFY(field);
    // Typed (no Return, no focus change: no editingFinished); on a slow machine a pause
    // in the typing may ask for a partial path first, so the last answer counts.
    QTest::keyClicks(field, trace);
    QTRY_VERIFY_WITH_TIMEOUT(!ranks.isEmpty() && ranks.last()[0].toInt() == 2, 60000);
    QCOMPARE(dialog.ranks(), std::min(2, QThread::idealThreadCount()));  // a local profile: one per core
    QCOMPARE(dialog.reportPath(), dir.filePath(QStringLiteral("fence run/fence run.waitscope")));

    // A file of that name that is not a report is never the default, nor replaced when chosen.
    const QString notAReport = dir.filePath(QStringLiteral("fence run/fence run.waitscope"));
    {
      QFile f(notAReport);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("my notes\n");
    }
    dialog.setTrace(trace);
    QCOMPARE(dialog.reportPath(), dir.filePath(QStringLiteral("fence run/fence run-2.waitscope")));
    dialog.setReportPath(notAReport);
    dialog.start();
    QVERIFY(!dialog.runner()->isActive());
    QVERIFY2(dialog.statusText().startsWith(notAReport + QStringLiteral(" exists and is not a Waitscope report")),
             qPrintable(dialog.statusText()));
    QFile kept(notAReport);
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), QByteArray("my notes\n"));

    // A chosen report stays when the trace changes, and the analysis writes it.
    const QString chosen = dir.filePath(QStringLiteral("reports/first.waitscope"));
    QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("reports"))));
    dialog.setReportPath(chosen);
    dialog.setTrace(trace);
    QCOMPARE(dialog.reportPath(), chosen);
    QSignalSpy ready(&dialog, &AnalyzeDialog::reportReady);
    dialog.start();
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.runner()->isActive(), 120000);
    QCOMPARE(ready.size(), 1);
    QCOMPARE(ready[0][0].toString(), chosen);
  }

  void analyzeDialogRunsUpToReportReady() {
    QTemporaryDir dir;
    const QString trace = copyTrace(dir.filePath(QStringLiteral("t")));
    const ProfileStore store(dir.filePath(QStringLiteral("profiles.json")));
    QVERIFY(store.save({localProfile()}));
    AnalyzeDialog dialog(store);
    QSignalSpy ranks(&dialog, &AnalyzeDialog::rankCountKnown);
    QSignalSpy ready(&dialog, &AnalyzeDialog::reportReady);
    dialog.setRanks(7);
    dialog.setTrace(trace);
    QTRY_VERIFY_WITH_TIMEOUT(ranks.size() == 1, 60000);
    QCOMPARE(ranks[0][0].toInt(), 2);  // from `waitscope-report stats --json`
    QCOMPARE(dialog.ranks(), std::min(2, QThread::idealThreadCount()));
    dialog.start();
    QTRY_VERIFY_WITH_TIMEOUT(ready.size() == 1, 120000);
    QCOMPARE(ready[0][0].toString(), dir.filePath(QStringLiteral("t/t.waitscope")));  // named after the trace's archive
    QVERIFY(dialog.statusText().startsWith(QStringLiteral("The report is ready")));
    QVERIFY2(dialog.progressText().startsWith(QStringLiteral("Done")), qPrintable(dialog.progressText()));
    QVERIFY(dialog.logText().contains(QStringLiteral("waitscope-analyze: wrote")));

    dialog.setRanks(5);
    dialog.start();
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.runner()->isActive(), 120000);
    QVERIFY2(dialog.statusText().startsWith(QStringLiteral("Wrong number of ranks")), qPrintable(dialog.statusText()));
    QCOMPARE(ready.size(), 1);
  }
};

QTEST_MAIN(LaunchDialogsTest)
#include "launch_dialogs_test.moc"
