#include "app/command_line.h"

#include <cstring>

namespace waitscope::app {

QString commandLineHelp() {
  return QStringLiteral(
      "usage: waitscope [REPORT] [options]\n"
      "\n"
      "Opens a Waitscope report in the desktop app.\n"
      "\n"
      "options:\n"
      "  --select-metric NAME     select the metric with this unique name (e.g. mpi_latesender)\n"
      "  --select-callpath PATH   select a call path, e.g. main/foo/MPI_Recv\n"
      "  --mode MODE              absolute, percent (of total), selection (percent of selection), peer\n"
      "  --flat                   show the flat profile (by region) instead of the call tree\n"
      "  --size WxH               window size in pixels (default 1280x800)\n"
      "  --view VIEW              what the PNG/SVG/CSV exports show: browser (default) or timeline\n"
      "                           (timeline CSV: the wait-state instances shown)\n"
      "  --time-window T0:T1      the timeline's time window in seconds\n"
      "  --export-png FILE        write the window as PNG\n"
      "  --export-svg FILE        write the window as SVG\n"
      "  --export-csv FILE        write a tree as CSV, exactly as shown\n"
      "  --csv-tree TREE          the tree --export-csv writes: metric, call (default) or system\n"
      "  --quit                   exit after the exports (renders offscreen when there is no display)\n"
      "  --allow-remote-timeline  with --quit --view timeline: a report copied back from a remote analysis\n"
      "                           may connect to the machine its trace is on, with your own connection\n"
      "                           profile of the name REPORT.remote.json gives (same host only); without\n"
      "                           it a command-line run never connects anywhere\n"
      "  -h, --help               show this help\n"
      "  --version                show the version\n"
      "\n"
      "Exit status: 0 success, 1 unreadable report or failed export (one line on stderr), 2 wrong usage.\n");
}

bool parseCommandLine(const QStringList& arguments, CommandLine* out, QString* error) {
  CommandLine cl;
  auto value = [&](qsizetype& i, QString* target) {
    if (i + 1 >= arguments.size()) {
      *error = QStringLiteral("%1 needs a value").arg(arguments[i]);
      return false;
    }
    *target = arguments[++i];
    return true;
  };
  for (qsizetype i = 0; i < arguments.size(); ++i) {
    const QString& a = arguments[i];
    QString v;
    if (a == QLatin1String("--select-metric")) {
      if (!value(i, &cl.metric)) return false;
    } else if (a == QLatin1String("--select-callpath")) {
      if (!value(i, &cl.callPath)) return false;
    } else if (a == QLatin1String("--mode")) {
      if (!value(i, &v)) return false;
      if (!views::modeFromKey(v, &cl.mode)) {
        *error = QStringLiteral("--mode: unknown mode '%1' (absolute, percent, selection or peer)").arg(v);
        return false;
      }
      cl.modeGiven = true;
    } else if (a == QLatin1String("--flat")) {
      cl.flat = true;
    } else if (a == QLatin1String("--size")) {
      if (!value(i, &v)) return false;
      const QStringList parts = v.split(QLatin1Char('x'));
      bool okW = false, okH = false;
      const int w = parts.size() == 2 ? parts[0].toInt(&okW) : 0;
      const int h = parts.size() == 2 ? parts[1].toInt(&okH) : 0;
      if (!okW || !okH || w < 200 || h < 150 || w > 16384 || h > 16384) {
        *error = QStringLiteral("--size: expected WxH between 200x150 and 16384x16384, got '%1'").arg(v);
        return false;
      }
      cl.size = QSize(w, h);
    } else if (a == QLatin1String("--view")) {
      if (!value(i, &v)) return false;
      if (v != QLatin1String("browser") && v != QLatin1String("timeline")) {
        *error = QStringLiteral("--view: expected browser or timeline, got '%1'").arg(v);
        return false;
      }
      cl.timelineView = v == QLatin1String("timeline");
    } else if (a == QLatin1String("--time-window")) {
      if (!value(i, &v)) return false;
      const QStringList parts = v.split(QLatin1Char(':'));
      bool okFrom = false, okTo = false;
      cl.windowFrom = parts.size() == 2 ? parts[0].toDouble(&okFrom) : 0.0;
      cl.windowTo = parts.size() == 2 ? parts[1].toDouble(&okTo) : 0.0;
      if (!okFrom || !okTo || !(cl.windowTo > cl.windowFrom)) {
        *error = QStringLiteral("--time-window: expected T0:T1 in seconds with T1 > T0, got '%1'").arg(v);
        return false;
      }
    } else if (a == QLatin1String("--export-png")) {
      if (!value(i, &cl.exportPng)) return false;
    } else if (a == QLatin1String("--export-svg")) {
      if (!value(i, &cl.exportSvg)) return false;
    } else if (a == QLatin1String("--export-csv")) {
      if (!value(i, &cl.exportCsv)) return false;
    } else if (a == QLatin1String("--csv-tree")) {
      if (!value(i, &cl.csvTree)) return false;
      if (cl.csvTree != QLatin1String("metric") && cl.csvTree != QLatin1String("call") &&
          cl.csvTree != QLatin1String("system")) {
        *error = QStringLiteral("--csv-tree: expected metric, call or system, got '%1'").arg(cl.csvTree);
        return false;
      }
    } else if (a == QLatin1String("--quit")) {
      cl.quit = true;
    } else if (a == QLatin1String("--allow-remote-timeline")) {
      cl.allowRemoteTimeline = true;
    } else if (a.startsWith(QLatin1Char('-')) && a.size() > 1) {
      *error = QStringLiteral("unknown option %1").arg(a);
      return false;
    } else if (cl.report.isEmpty()) {
      cl.report = a;
    } else {
      *error = QStringLiteral("more than one report given ('%1' and '%2')").arg(cl.report, a);
      return false;
    }
  }
  if ((cl.exports() || !cl.metric.isEmpty() || !cl.callPath.isEmpty()) && cl.report.isEmpty()) {
    *error = QStringLiteral("selecting and exporting need a REPORT");
    return false;
  }
  *out = cl;
  return true;
}

bool wantsHeadless(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--quit") == 0) return true;
  return false;
}

}  // namespace waitscope::app
