#pragma once
// The command line of `waitscope`: a report to open, what to select, and
// exports for scripts and reproducible figures (rendered offscreen with --quit).
#include <QSize>
#include <QString>
#include <QStringList>

#include "views/model/compare_view.h"
#include "views/model/value_mode.h"

namespace waitscope::app {

struct CommandLine {
  QString report;
  QString compare;       // --compare B: REPORT is run A, B run B
  views::CompareView compareView = views::CompareView::Difference;  // --compare-view
  QStringList series;    // --series R1 R2 …: runs of one program to show as a scaling series
  QString metric;        // unique name, e.g. mpi_latesender
  QString callPath;      // "main/foo/MPI_Recv"
  views::ValueMode mode = views::ValueMode::Absolute;
  bool modeGiven = false;
  bool flat = false;
  QString exportPng, exportSvg, exportCsv;
  QString csvTree = QStringLiteral("call");  // metric, call or system
  QSize size;            // invalid: the default (or remembered) size
  bool timelineView = false;             // --view timeline: exports show the timeline
  bool matrixView = false;               // --view matrix: exports show the communication matrix
  QString matrixQuantity = QStringLiteral("bytes");  // --matrix count|bytes|waiting
  double windowFrom = 0.0, windowTo = 0.0;  // --time-window T0:T1 (to > from when given)
  bool quit = false;
  bool help = false, version = false;  // -h/--help, --version: print and exit
  // --allow-remote-timeline: with --quit --view timeline, a copied-back report's timeline may ask
  // the machine its trace is on (over the user's own profile named beside it); never without it.
  bool allowRemoteTimeline = false;

  bool exports() const { return !exportPng.isEmpty() || !exportSvg.isEmpty() || !exportCsv.isEmpty(); }
};

// Parses arguments (without the program name) with QCommandLineParser. On a usage error
// returns false and sets `error` to one line; `help`, `version` and `quit` are set even then.
bool parseCommandLine(const QStringList& arguments, CommandLine* out, QString* error);
// The --help text: usage, every option, exit status.
QString commandLineHelp();

}  // namespace waitscope::app
