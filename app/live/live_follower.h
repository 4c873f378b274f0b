#pragma once
// Follows a live run (docs/app.md, "Following a live run"): polls REPORT.live
// and, when its snapshot number grows, reads REPORT. On this computer a
// QFileSystemWatcher sees the files change and a timer polls as a fallback
// (network file systems send no notices); on a profile's machine every poll is
// `cat REPORT.live` over the user's OpenSSH client, and a new REPORT comes home
// through ReportFetcher's verified copy. Files are read and reports built off
// the GUI thread. A snapshot that cannot be read keeps the last good one.
#include <optional>

#include <QDateTime>
#include <QObject>
#include <QPointer>
#include <QString>

#include "app/launch/connection_profile.h"
#include "app/live/live_status.h"
#include "views/model/report_data.h"

class QFileSystemWatcher;
class QTimer;

namespace waitscope::launch {
class ReportFetcher;
}

namespace waitscope::app {

struct LoadResult;

class LiveFollower : public QObject {
  Q_OBJECT
 public:
  explicit LiveFollower(QObject* parent = nullptr);
  ~LiveFollower() override;

  // Follows `report` on the profile's machine (a local profile: on this computer; a
  // relative path is relative to the profile's working directory). Stops any earlier run.
  void start(const launch::ConnectionProfile& profile, const QString& report);
  // Stops polling; nothing is emitted afterwards.
  void stop();
  // True from start() until stop() or until the run has ended and its last snapshot was read.
  bool isFollowing() const { return following_; }

  // Polls at least this often (default 2000 ms); locally, changes are seen at once.
  void setPollInterval(int ms);
  // Where copies of remote snapshots go (default: the cache location's "live" folder).
  void setCacheDirectory(const QString& directory) { cacheDirectory_ = directory; }

  // "host:path" for a remote run, else the local path.
  const QString& sourceName() const { return sourceName_; }
  const std::optional<LiveStatus>& status() const { return status_; }
  // The snapshot last handed out with snapshotReady (0: none yet).
  qint64 shownSnapshot() const { return shown_; }
  // Running, but no update for more than 3 x interval + 10 s.
  bool isStale() const;

 signals:
  void snapshotReady(waitscope::views::ReportDataPtr report, qint64 snapshot);
  // One line for the status bar: the run's figures, that it finished or failed, that it is
  // stale, or what went wrong.
  void statusLineChanged(const QString& line);
  // Something went wrong (one line naming the file or host and what to do); following goes on.
  void problem(const QString& message);
  // The run finished or failed and its last snapshot was read: polling has stopped.
  void ended();

 private:
  void poll();
  void pollSoon();
  void pollLocal();
  void pollRemote();
  void onStatus(std::optional<LiveStatus> status, const QString& error);
  void fetchSnapshot(qint64 expected);
  void readSnapshot(const QString& path, qint64 expected);
  void onSnapshot(const LoadResult& result, qint64 expected);
  void finishPoll();
  void setPollProblem(const QString& message);
  void updateLine();
  void watchLocalFiles();
  void stopPolling();
  QString localCopyPath() const;

  launch::ConnectionProfile profile_;
  QString report_;
  QString sourceName_;
  QString cacheDirectory_;
  QTimer* timer_;
  QTimer* soon_;
  QFileSystemWatcher* watcher_;
  QPointer<launch::ReportFetcher> fetcher_;
  std::optional<LiveStatus> status_;
  qint64 shown_ = 0;
  qint64 failed_ = 0;          // a snapshot that could not be read: tried again only when a newer one comes
  QString pollProblem_;        // the last poll failed (cleared by the next good one)
  QString snapshotProblem_;    // the newest snapshot could not be read (cleared by a good snapshot)
  QString line_;
  QDateTime lastChangeSeen_;   // this computer's time when "updated" last changed
  bool following_ = false;
  bool busy_ = false;
  bool pending_ = false;
  bool connected_ = false;     // the remote machine has answered once
  int generation_ = 0;         // callbacks of an earlier start() are dropped
};

}  // namespace waitscope::app
