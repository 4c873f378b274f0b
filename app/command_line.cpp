#include "app/command_line.h"

#include <vector>

#include <QCommandLineOption>
#include <QCommandLineParser>

namespace waitscope::app {
namespace {

// Every option of `waitscope`, in the order --help lists them.
struct Options {
  QCommandLineOption metric{QStringLiteral("select-metric"),
                            QStringLiteral("select the metric with this unique name (e.g. mpi_latesender)"),
                            QStringLiteral("NAME")};
  QCommandLineOption callPath{QStringLiteral("select-callpath"),
                              QStringLiteral("select a call path, e.g. main/foo/MPI_Recv; a call site as "
                                             "main/MPI_Win_fence@fence.c:42"), QStringLiteral("PATH")};
  QCommandLineOption mode{QStringLiteral("mode"),
                          QStringLiteral("absolute, percent (of total), selection (percent of selection), peer"),
                          QStringLiteral("MODE")};
  QCommandLineOption series{QStringLiteral("series"),
                            QStringLiteral("show the REPORTs, runs of one program on different process counts, as a "
                                           "scaling series (POP efficiencies, speed-up); the exports write its "
                                           "window and table")};
  QCommandLineOption compare{QStringLiteral("compare"),
                             QStringLiteral("compare REPORT (run A) with run B: every tree shows A, B and B - A"),
                             QStringLiteral("B")};
  QCommandLineOption compareView{QStringLiteral("compare-view"),
                                 QStringLiteral("with --compare, the run shown: a, b or difference (default)"),
                                 QStringLiteral("RUN")};
  QCommandLineOption flat{QStringLiteral("flat"), QStringLiteral("show the flat profile (by region) instead of the call tree")};
  QCommandLineOption size{QStringLiteral("size"), QStringLiteral("window size in pixels (default 1280x800)"),
                          QStringLiteral("WxH")};
  QCommandLineOption view{QStringLiteral("view"),
                          QStringLiteral("what the PNG/SVG/CSV exports show: browser (default), timeline "
                                         "(timeline CSV: the wait-state instances shown) or matrix (the "
                                         "communication matrix)"),
                          QStringLiteral("VIEW")};
  QCommandLineOption matrix{QStringLiteral("matrix"),
                            QStringLiteral("with --view matrix, the quantity: count, bytes (default) or waiting"),
                            QStringLiteral("QUANTITY")};
  QCommandLineOption timeWindow{QStringLiteral("time-window"),
                                QStringLiteral("only the time window T0:T1 (seconds): the trees, charts and exports "
                                               "hold its values; with --view timeline, the timeline's window"),
                                QStringLiteral("T0:T1")};
  QCommandLineOption exportPng{QStringLiteral("export-png"), QStringLiteral("write the window as PNG"),
                               QStringLiteral("FILE")};
  QCommandLineOption exportSvg{QStringLiteral("export-svg"), QStringLiteral("write the window as SVG"),
                               QStringLiteral("FILE")};
  QCommandLineOption exportCsv{QStringLiteral("export-csv"), QStringLiteral("write a tree as CSV, exactly as shown"),
                               QStringLiteral("FILE")};
  QCommandLineOption csvTree{QStringLiteral("csv-tree"),
                             QStringLiteral("the tree --export-csv writes: metric, call (default) or system"),
                             QStringLiteral("TREE")};
  QCommandLineOption quit{QStringLiteral("quit"),
                          QStringLiteral("exit after the exports (renders offscreen when there is no display)")};
  QCommandLineOption allowRemoteTimeline{
      QStringLiteral("allow-remote-timeline"),
      QStringLiteral("with --quit --view timeline: a report copied back from a remote analysis may connect to the "
                     "machine its trace is on, with your own connection profile of the name REPORT.remote.json "
                     "gives (same host only); without it a command-line run never connects anywhere")};
  QCommandLineOption help{{QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("show this help")};
  QCommandLineOption version{QStringLiteral("version"), QStringLiteral("show the version")};
  // Qt's own options (QGuiApplication and QApplication read them from argv): accepted, not listed.
  std::vector<QCommandLineOption> qt = qtOptions();

  static std::vector<QCommandLineOption> qtOptions() {
    std::vector<QCommandLineOption> out;
    for (const char* name : {"platform", "platformpluginpath", "platformtheme", "plugin", "qwindowgeometry",
                             "qwindowicon", "qwindowtitle", "session", "style", "stylesheet", "display", "geometry",
                             "title"})
      out.emplace_back(QString::fromLatin1(name), QString(), QStringLiteral("VALUE"));
    for (const char* name : {"reverse", "widgetcount", "nograb", "dograb", "sync"})
      out.emplace_back(QString::fromLatin1(name), QString());
    for (QCommandLineOption& o : out) o.setFlags(QCommandLineOption::HiddenFromHelp);
    return out;
  }

  // The parser knowing every option; `options` must outlive it.
  void addTo(QCommandLineParser& parser) const {
    parser.setApplicationDescription(QStringLiteral("Opens a Waitscope report in the desktop app."));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addPositionalArgument(QStringLiteral("REPORT"), QStringLiteral("the report to open"),
                                 QStringLiteral("[REPORT]"));
    for (const QCommandLineOption* o : {&metric, &callPath, &mode, &compare, &compareView,
                                        &series, &flat, &size, &view, &matrix, &timeWindow, &exportPng,
                                        &exportSvg, &exportCsv, &csvTree, &quit, &allowRemoteTimeline, &help,
                                        &version})
      parser.addOption(*o);
    for (const QCommandLineOption& o : qt) parser.addOption(o);
  }
};

bool readOptions(const QCommandLineParser& parser, const Options& o, CommandLine& cl, QString* error) {
  if (!parser.unknownOptionNames().isEmpty()) {
    const QString name = parser.unknownOptionNames().front();
    *error = QStringLiteral("unknown option %1%2").arg(name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--"), name);
    return false;
  }
  if (!parser.errorText().isEmpty()) {  // an option without its value
    *error = parser.errorText();
    return false;
  }
  const QStringList reports = parser.positionalArguments();
  if (parser.isSet(o.series)) {
    if (reports.isEmpty()) {
      *error = QStringLiteral("--series needs the reports of the runs (waitscope --series R1 R2 …)");
      return false;
    }
    if (parser.isSet(o.metric) || parser.isSet(o.callPath) || parser.isSet(o.flat) || parser.isSet(o.view) ||
        parser.isSet(o.exportSvg)) {
      *error = QStringLiteral("--series: only --size, --export-png, --export-csv and --quit apply to a series");
      return false;
    }
    cl.series = reports;
  } else if (reports.size() > 1) {
    *error = QStringLiteral("more than one report given ('%1' and '%2')").arg(reports[0], reports[1]);
    return false;
  }
  if (cl.series.isEmpty()) cl.report = reports.value(0);
  cl.metric = parser.value(o.metric);
  cl.callPath = parser.value(o.callPath);
  if (parser.isSet(o.mode)) {
    const QString v = parser.value(o.mode);
    if (!views::modeFromKey(v, &cl.mode)) {
      *error = QStringLiteral("--mode: unknown mode '%1' (absolute, percent, selection or peer)").arg(v);
      return false;
    }
    cl.modeGiven = true;
  }
  cl.compare = parser.value(o.compare);
  if (parser.isSet(o.compareView)) {
    const QString v = parser.value(o.compareView);
    if (!views::compareViewFromKey(v, &cl.compareView)) {
      *error = QStringLiteral("--compare-view: expected a, b or difference, got '%1'").arg(v);
      return false;
    }
    if (cl.compare.isEmpty()) {
      *error = QStringLiteral("--compare-view needs --compare B");
      return false;
    }
  }
  if (!cl.compare.isEmpty() && cl.report.isEmpty()) {
    *error = QStringLiteral("--compare needs a REPORT, run A (waitscope A.waitscope --compare B.waitscope)");
    return false;
  }
  cl.flat = parser.isSet(o.flat);
  if (parser.isSet(o.size)) {
    const QString v = parser.value(o.size);
    const QStringList parts = v.split(QLatin1Char('x'));
    bool okW = false, okH = false;
    const int w = parts.size() == 2 ? parts[0].toInt(&okW) : 0;
    const int h = parts.size() == 2 ? parts[1].toInt(&okH) : 0;
    if (!okW || !okH || w < 200 || h < 150 || w > 16384 || h > 16384) {
      *error = QStringLiteral("--size: expected WxH between 200x150 and 16384x16384, got '%1'").arg(v);
      return false;
    }
    cl.size = QSize(w, h);
  }
  if (parser.isSet(o.view)) {
    const QString v = parser.value(o.view);
    if (v != QLatin1String("browser") && v != QLatin1String("timeline") && v != QLatin1String("matrix")) {
      *error = QStringLiteral("--view: expected browser, timeline or matrix, got '%1'").arg(v);
      return false;
    }
    cl.timelineView = v == QLatin1String("timeline");
    cl.matrixView = v == QLatin1String("matrix");
  }
  if (parser.isSet(o.matrix)) {
    cl.matrixQuantity = parser.value(o.matrix);
    if (cl.matrixQuantity != QLatin1String("count") && cl.matrixQuantity != QLatin1String("bytes") &&
        cl.matrixQuantity != QLatin1String("waiting")) {
      *error = QStringLiteral("--matrix: expected count, bytes or waiting, got '%1'").arg(cl.matrixQuantity);
      return false;
    }
  }
  if (parser.isSet(o.timeWindow)) {
    const QString v = parser.value(o.timeWindow);
    const QStringList parts = v.split(QLatin1Char(':'));
    bool okFrom = false, okTo = false;
    cl.windowFrom = parts.size() == 2 ? parts[0].toDouble(&okFrom) : 0.0;
    cl.windowTo = parts.size() == 2 ? parts[1].toDouble(&okTo) : 0.0;
    if (!okFrom || !okTo || !(cl.windowTo > cl.windowFrom)) {
      *error = QStringLiteral("--time-window: expected T0:T1 in seconds with T1 > T0, got '%1'").arg(v);
      return false;
    }
  }
  cl.exportPng = parser.value(o.exportPng);
  cl.exportSvg = parser.value(o.exportSvg);
  cl.exportCsv = parser.value(o.exportCsv);
  if (parser.isSet(o.csvTree)) {
    cl.csvTree = parser.value(o.csvTree);
    if (cl.csvTree != QLatin1String("metric") && cl.csvTree != QLatin1String("call") &&
        cl.csvTree != QLatin1String("system")) {
      *error = QStringLiteral("--csv-tree: expected metric, call or system, got '%1'").arg(cl.csvTree);
      return false;
    }
  }
  cl.allowRemoteTimeline = parser.isSet(o.allowRemoteTimeline);
  if ((cl.exports() || !cl.metric.isEmpty() || !cl.callPath.isEmpty()) && cl.report.isEmpty() && cl.series.isEmpty()) {
    *error = QStringLiteral("selecting and exporting need a REPORT");
    return false;
  }
  return true;
}

}  // namespace

QString commandLineHelp() {
  const Options options;
  QCommandLineParser parser;
  options.addTo(parser);
  // Usage names the program as users call it, not argv[0]'s path.
  QString text = parser.helpText();
  text.replace(0, text.indexOf(QLatin1String(" [options]")), QStringLiteral("Usage: waitscope"));
  return text +
         QStringLiteral("\nExit status: 0 success, 1 unreadable report or failed export (one line on stderr), "
                        "2 wrong usage.\n");
}

bool parseCommandLine(const QStringList& arguments, CommandLine* out, QString* error) {
  const Options options;
  QCommandLineParser parser;
  options.addTo(parser);
  parser.parse(QStringList{QStringLiteral("waitscope")} + arguments);
  CommandLine cl;
  // What decides between help, version, a headless run and a window is read even from a
  // command line with a usage error.
  cl.help = parser.isSet(options.help);
  cl.version = parser.isSet(options.version);
  cl.quit = parser.isSet(options.quit);
  const bool ok = readOptions(parser, options, cl, error);
  *out = cl;
  return ok;
}

}  // namespace waitscope::app
