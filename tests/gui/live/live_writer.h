#pragma once
// A fake live writer for the tests, doing what `waitscope-run --online -o REPORT`
// does (docs/app.md, "Following a live run"): REPORT replaced atomically with
// growing values (writeReport writes a temporary file and renames it), then
// REPORT.live replaced atomically (QSaveFile) with the growing snapshot number.
#include <QDateTime>
#include <QString>

#include "analysis/report/report.h"

namespace livetest {

class LiveWriter {
 public:
  // Creates REPORT's directory.
  explicit LiveWriter(QString report);

  // The sample report (tests/gui/views/sample_report.h) with every value times `snapshot`;
  // with `initCallPath`, a call path main/init is inserted before main/MPI_Recv, so the
  // later call paths get new numbers.
  static waitscope::report::Report snapshotReport(qint64 snapshot, bool initCallPath = false);

  // REPORT of `snapshot`, then REPORT.live saying so ("running").
  void writeSnapshot(qint64 snapshot, bool initCallPath = false);
  // Bytes that are no report, renamed over REPORT (as atomically as a real snapshot).
  void writeCorruptReport();
  void writeStatus(const QString& state, qint64 snapshot, const QDateTime& updated = QDateTime::currentDateTimeUtc(),
                   double intervalSeconds = 1.0, const QString& message = {});

  const QString& report() const { return report_; }
  QString statusFile() const { return report_ + QStringLiteral(".live"); }

 private:
  QString report_;
};

}  // namespace livetest
