// Two calls of one function from one caller are told apart by their call site: in the call
// tree's text (and so in chart titles and CSV, which use it), and on the command line
// (--select-callpath main/MPI_Win_fence@fence.c:50); a path that names both is an error
// listing them. Names unique among their siblings stay as they are.
#include <QTest>

#include "app/call_path_selector.h"
#include "app/command_line.h"
#include "app/main_window.h"
#include "app/scripted_export.h"
#include "tests/gui/app/fence_sites_report.h"
#include "views/model/report_data.h"
#include "views/model/selection.h"
#include "views/model/value_tree_model.h"

using namespace waitscope;

class CallSiteTest : public QObject {
  Q_OBJECT
 private:
  views::ReportDataPtr data_ = std::make_shared<views::ReportData>(test::fenceSitesReport(), QStringLiteral("fence.waitscope"));

  // The call path the command line selects, or the error it gives.
  QString selectFromCommandLine(const QString& path, std::uint32_t* node) {
    app::MainWindow window;
    window.setInteractive(false);
    window.showReport(data_);
    app::CommandLine options;
    QString error;
    if (!app::parseCommandLine({QStringLiteral("fence.waitscope"), QStringLiteral("--select-callpath"), path,
                                QStringLiteral("--export-png"), QStringLiteral("x.png"), QStringLiteral("--quit")},
                               &options, &error))
      return error;
    if (!app::applySelection(window, options, &error)) return error;
    const views::TreePicks& picks = window.selection()->callPaths();
    *node = picks.size() == 1 ? picks.front().node : views::kNoNode;
    return {};
  }

 private slots:
  void sameNamedSiblingsShowTheirCallSite() {
    views::ValueTreeModel model(QStringLiteral("Call path"));
    model.setTree(&data_->callTree());
    const auto text = [&](std::uint32_t node) { return model.data(model.indexOfNode(node)).toString(); };
    QCOMPARE(text(test::kFence42), QStringLiteral("MPI_Win_fence (fence.c:42)"));
    QCOMPARE(text(test::kFence50), QStringLiteral("MPI_Win_fence (fence.c:50)"));
    // Unique among their siblings: no site, although one is known.
    QCOMPARE(text(test::kFenceBarrier), QStringLiteral("MPI_Barrier"));
    QCOMPARE(text(test::kFenceMain), QStringLiteral("main"));
  }

  void ordinaryTreesKeepTheirNames() {
    report::Report r = test::fenceSitesReport();
    r.callPaths.pop_back();
    r.callPaths.pop_back();  // one fence left
    r.severities = {{0, test::kFenceMain, {1}}, {0, test::kFence42, {0.25}}};
    const views::ReportData data(std::move(r), QString());
    QCOMPARE(data.callTree().names[test::kFence42], QStringLiteral("MPI_Win_fence"));
  }

  void commandLineSelectsByCallSite() {
    std::uint32_t node = views::kNoNode;
    QCOMPARE(selectFromCommandLine(QStringLiteral("main/MPI_Win_fence@fence.c:50"), &node), QString());
    QCOMPARE(node, std::uint32_t(test::kFence50));
    QCOMPARE(selectFromCommandLine(QStringLiteral("main/MPI_Win_fence@src/fence.c:42"), &node), QString());
    QCOMPARE(node, std::uint32_t(test::kFence42));  // a path suffix of the recorded file
    QCOMPARE(selectFromCommandLine(QStringLiteral("main/MPI_Win_fence@/home/u/src/fence.c:50"), &node), QString());
    QCOMPARE(node, std::uint32_t(test::kFence50));  // the recorded path
    QCOMPARE(selectFromCommandLine(QStringLiteral("main/MPI_Barrier@fence.c"), &node), QString());
    QCOMPARE(node, std::uint32_t(test::kFenceBarrier));  // a site without a line
    QCOMPARE(selectFromCommandLine(QStringLiteral("main/MPI_Barrier"), &node), QString());
    QCOMPARE(node, std::uint32_t(test::kFenceBarrier));  // unique: no site needed
  }

  void anAmbiguousPathListsTheCandidates() {
    std::uint32_t node = views::kNoNode;
    QCOMPARE(selectFromCommandLine(QStringLiteral("main/MPI_Win_fence"), &node),
             QStringLiteral("fence.waitscope: call path 'main/MPI_Win_fence' is ambiguous: "
                            "main/MPI_Win_fence@fence.c:42, main/MPI_Win_fence@fence.c:50"));
    QString error;
    QVERIFY(!app::findCallPath(data_->report(), QStringLiteral("main/MPI_Win_fence@fence.c:51"), &error));
    QVERIFY2(error.startsWith(QStringLiteral("no call path 'main/MPI_Win_fence@fence.c:51'")), qPrintable(error));
    QVERIFY(!app::findCallPath(data_->report(), QStringLiteral("main/MPI_Win_fence@other.c:42"), &error));
  }

  void candidatesNameOnlyThemselves() {
    for (std::uint32_t c = 0; c < data_->report().callPaths.size(); ++c) {
      QString error;
      QCOMPARE(app::findCallPath(data_->report(), app::callPathSpec(data_->report(), c), &error), std::optional(c));
    }
  }
};

QTEST_MAIN(CallSiteTest)
#include "call_site_test.moc"
