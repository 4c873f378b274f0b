#pragma once
// How a live run stands: REPORT.live, the small JSON file that
// `waitscope-run --online -o REPORT` replaces atomically beside REPORT at every
// snapshot (the contract is in docs/app.md, "Following a live run"):
//   {"state": "running" | "finished" | "failed", "snapshot": 7, "elapsed_seconds": 12.3,
//    "pauses": 0, "peak_queue": 812, "updated": "2026-11-21T10:41:34Z",
//    "interval_seconds": 2.0, "message": ""}
#include <optional>

#include <QByteArray>
#include <QDateTime>
#include <QString>

namespace waitscope::app {

struct LiveStatus {
  enum class State { Running, Finished, Failed };
  State state = State::Running;
  qint64 snapshot = 0;          // grows with every new REPORT
  double elapsedSeconds = 0.0;
  qint64 pauses = 0;            // application pauses so far
  qint64 peakQueue = 0;
  QDateTime updated;            // when the writer last replaced the file (UTC)
  double intervalSeconds = 0.0; // between snapshots
  QString message;              // why the run failed; empty otherwise

  // A running job that is killed leaves "running" behind: no update for more than
  // 3 x interval + 10 s means it has probably ended.
  QDateTime staleAfter() const;
  bool isStaleAt(const QDateTime& now) const;
};

// Parses REPORT.live; nullopt and `error` (a short phrase) when it is not such a file.
std::optional<LiveStatus> parseLiveStatus(const QByteArray& json, QString* error);

// The status bar's line: "Live: snapshot 7 · 12.3 s · 0 pauses · peak queue 812",
// "Live run finished (snapshot 9 · 20.0 s · …)", "Live run failed: MESSAGE".
QString liveStatusLine(const LiveStatus& status);

// "no update from SOURCE since TIME; the run may have ended" (SOURCE: host:path or the local path).
QString staleLine(const QString& source, const QDateTime& updated);

}  // namespace waitscope::app
