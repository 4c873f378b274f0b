#include "app/live/live_follower.h"

#include <functional>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFutureWatcher>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include "app/launch/launch_failure.h"
#include "app/launch/remote_scripts.h"
#include "app/launch/report_fetcher.h"
#include "app/launch/shell_command.h"
#include "app/launch/shell_job.h"
#include "app/live/live_source.h"
#include "app/report_loader.h"

namespace waitscope::app {
namespace {

constexpr int kRemoteTimeoutMs = 30000;

struct StatusRead {
  std::optional<LiveStatus> status;
  QString error;
};

QString startHint(const QString& report) {
  return QStringLiteral("check the path, or start the run (waitscope-run --online -o %1 -- PROGRAM)").arg(report);
}

// REPORT.live on this computer (off the GUI thread).
StatusRead readLocalStatus(const QString& report) {
  const QString path = liveStatusPath(report);
  QFile file(path);
  if (!file.exists()) {
    if (QFileInfo::exists(report))
      return {std::nullopt, QStringLiteral("%1 has no %2 beside it: it is not a live run (open it with File > Open)")
                                .arg(report, QFileInfo(path).fileName())};
    return {std::nullopt, QStringLiteral("%1: no such file yet; %2").arg(path, startHint(report))};
  }
  if (!file.open(QIODevice::ReadOnly))
    return {std::nullopt, QStringLiteral("%1: cannot be read (%2)").arg(path, file.errorString())};
  QString error;
  std::optional<LiveStatus> status = parseLiveStatus(file.read(1 << 20), &error);
  if (!status)
    return {std::nullopt,
            QStringLiteral("%1: %2; it should be the status file of waitscope-run --online").arg(path, error)};
  return {std::move(status), {}};
}

// Runs `work` on the thread pool and `done` with its result on `context`'s thread, unless
// `wanted` says by then that the result is no longer needed.
template <typename T>
void runAsync(QObject* context, std::function<T()> work, std::function<bool()> wanted, std::function<void(const T&)> done) {
  auto* watcher = new QFutureWatcher<T>(context);
  QObject::connect(watcher, &QFutureWatcher<T>::finished, context, [watcher, wanted, done] {
    watcher->deleteLater();
    if (wanted()) done(watcher->result());
  });
  watcher->setFuture(QtConcurrent::run(std::move(work)));
}

}  // namespace

LiveFollower::LiveFollower(QObject* parent)
    : QObject(parent), timer_(new QTimer(this)), soon_(new QTimer(this)), watcher_(new QFileSystemWatcher(this)) {
  cacheDirectory_ = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/live");
  timer_->setInterval(2000);
  connect(timer_, &QTimer::timeout, this, &LiveFollower::poll);
  // Changes come in bursts (temporary file, rename, status file): one poll for a burst.
  soon_->setSingleShot(true);
  soon_->setInterval(100);
  connect(soon_, &QTimer::timeout, this, &LiveFollower::poll);
  connect(watcher_, &QFileSystemWatcher::directoryChanged, this, &LiveFollower::pollSoon);
  connect(watcher_, &QFileSystemWatcher::fileChanged, this, &LiveFollower::pollSoon);
}

LiveFollower::~LiveFollower() { stop(); }

void LiveFollower::setPollInterval(int ms) { timer_->setInterval(std::max(50, ms)); }

void LiveFollower::start(const launch::ConnectionProfile& profile, const QString& report) {
  stop();
  profile_ = profile;
  report_ = resolvedReportPath(profile, report);
  sourceName_ = liveSourceName(profile, report_);
  status_.reset();
  shown_ = failed_ = 0;
  pollProblem_.clear();
  snapshotProblem_.clear();
  lastChangeSeen_ = {};
  connected_ = false;
  following_ = true;
  if (!profile_.isRemote()) watchLocalFiles();
  timer_->start();
  updateLine();
  poll();
}

void LiveFollower::stop() {
  ++generation_;
  busy_ = pending_ = false;
  stopPolling();
  if (fetcher_) {
    fetcher_->disconnect(this);
    fetcher_->deleteLater();  // its destructor ends its ssh
  }
  // A status query still running: ended without its callback.
  for (QProcess* process : findChildren<QProcess*>(Qt::FindDirectChildrenOnly)) {
    process->disconnect();
    process->kill();
    process->waitForFinished(1000);  // killed: a few milliseconds
    process->deleteLater();           // not delete: stop() may run inside one of its signals
  }
}

void LiveFollower::stopPolling() {
  following_ = false;
  timer_->stop();
  soon_->stop();
  const QStringList watched = watcher_->files() + watcher_->directories();
  if (!watched.isEmpty()) watcher_->removePaths(watched);
}

void LiveFollower::watchLocalFiles() {
  // The directory sees REPORT.live being renamed over; the file itself, edits in place.
  const QString directory = QFileInfo(report_).absolutePath();
  if (QFileInfo(directory).isDir() && !watcher_->directories().contains(directory)) watcher_->addPath(directory);
  const QString status = liveStatusPath(report_);
  if (QFileInfo::exists(status) && !watcher_->files().contains(status)) watcher_->addPath(status);
}

void LiveFollower::pollSoon() {
  if (following_) soon_->start();
}

void LiveFollower::poll() {
  if (!following_) return;
  if (busy_) {
    pending_ = true;
    return;
  }
  busy_ = true;
  pending_ = false;
  if (profile_.isRemote())
    pollRemote();
  else
    pollLocal();
}

void LiveFollower::pollLocal() {
  watchLocalFiles();  // a renamed-over file drops out of the watcher
  const int generation = generation_;
  const QString report = report_;
  runAsync<StatusRead>(
      this, [report] { return readLocalStatus(report); }, [this, generation] { return generation == generation_; },
      [this](const StatusRead& read) { onStatus(read.status, read.error); });
}

void LiveFollower::pollRemote() {
  const int generation = generation_;
  launch::runShellJob(profile_, launch::liveStatusScript(liveStatusPath(report_), report_), kRemoteTimeoutMs, this,
                      [this, generation](const launch::ShellResult& r) {
                        if (generation != generation_) return;
                        const QString host = profile_.displayHost();
                        if (!r.started)
                          return onStatus(std::nullopt, QStringLiteral("Cannot start %1: %2").arg(launch::launchSettings().sshProgram, r.err));
                        if (r.timedOut)
                          return onStatus(std::nullopt, QStringLiteral("No answer from %1 within %2 s; still trying.")
                                                            .arg(host)
                                                            .arg(kRemoteTimeoutMs / 1000));
                        if (r.exitCode == 255)
                          return onStatus(std::nullopt, launch::sshFailure(profile_, r.err, connected_).message);
                        connected_ = true;
                        if (r.exitCode == 3)
                          return onStatus(std::nullopt, QStringLiteral("%1 is not on %2 yet; %3")
                                                            .arg(liveStatusPath(report_), host, startHint(report_)));
                        if (r.exitCode == 4)
                          return onStatus(std::nullopt,
                                          QStringLiteral("%1 on %2 has no %3 beside it: it is not a live run")
                                              .arg(report_, host, QFileInfo(liveStatusPath(report_)).fileName()));
                        if (!r.ok()) {
                          const QString last = r.err.trimmed().section(QLatin1Char('\n'), -1);
                          return onStatus(std::nullopt, QStringLiteral("Cannot read %1 on %2: %3")
                                                            .arg(liveStatusPath(report_), host,
                                                                 last.isEmpty() ? QStringLiteral("exit code %1").arg(r.exitCode) : last));
                        }
                        QString error;
                        std::optional<LiveStatus> status = parseLiveStatus(r.out, &error);
                        if (!status)
                          return onStatus(std::nullopt, QStringLiteral("%1 on %2: %3; it should be the status file of waitscope-run --online")
                                                            .arg(liveStatusPath(report_), host, error));
                        onStatus(std::move(status), {});
                      });
}

void LiveFollower::onStatus(std::optional<LiveStatus> status, const QString& error) {
  if (!status) {
    setPollProblem(error);
    return finishPoll();
  }
  pollProblem_.clear();
  if (status_ && status_->updated != status->updated) lastChangeSeen_ = QDateTime::currentDateTimeUtc();
  status_ = std::move(status);
  if (status_->snapshot > shown_ && status_->snapshot > failed_) return fetchSnapshot(status_->snapshot);
  finishPoll();
}

void LiveFollower::fetchSnapshot(qint64 expected) {
  if (!profile_.isRemote()) return readSnapshot(report_, expected);
  auto* fetcher = new launch::ReportFetcher(this);
  fetcher_ = fetcher;
  connect(fetcher, &launch::ReportFetcher::succeeded, this, [this, fetcher, expected](const QString& local) {
    fetcher->deleteLater();
    readSnapshot(local, expected);
  });
  connect(fetcher, &launch::ReportFetcher::failed, this, [this, fetcher](const QString& message) {
    fetcher->deleteLater();
    // REPORT was replaced by a newer snapshot during the copy: the next poll copies that one.
    if (fetcher->failure().kind != launch::FailureKind::ChecksumMismatch) setPollProblem(message);
    finishPoll();
  });
  fetcher->start(profile_, report_, localCopyPath());
}

void LiveFollower::readSnapshot(const QString& path, qint64 expected) {
  const int generation = generation_;
  runAsync<LoadResult>(
      this, [path] { return ReportLoader::loadNow(path); }, [this, generation] { return generation == generation_; },
      [this, expected](const LoadResult& result) { onSnapshot(result, expected); });
}

void LiveFollower::onSnapshot(const LoadResult& result, qint64 expected) {
  if (!result.report) {
    failed_ = expected;
    snapshotProblem_ =
        shown_ > 0 ? QStringLiteral("Snapshot %1 of %2 cannot be read (%3); still showing snapshot %4.")
                         .arg(expected)
                         .arg(sourceName_, result.error)
                         .arg(shown_)
                   : QStringLiteral("Snapshot %1 of %2 cannot be read (%3); waiting for the next one.")
                         .arg(expected)
                         .arg(sourceName_, result.error);
    emit problem(snapshotProblem_);
    return finishPoll();
  }
  bool ok = false;
  qint64 snapshot = QString::fromStdString(result.report->report().metaValue("online_snapshot")).toLongLong(&ok);
  if (!ok) snapshot = expected;
  // REPORT older than the status announced (replaced in between): the next poll reads it again.
  if (snapshot <= shown_) return finishPoll();
  shown_ = snapshot;
  snapshotProblem_.clear();
  emit snapshotReady(result.report, snapshot);
  finishPoll();
}

void LiveFollower::finishPoll() {
  busy_ = false;
  if (!following_) return;
  const bool over = status_ && status_->state != LiveStatus::State::Running &&
                    (shown_ >= status_->snapshot || failed_ >= status_->snapshot);
  if (over) stopPolling();
  updateLine();
  if (over) return emit ended();
  if (pending_) poll();
}

void LiveFollower::setPollProblem(const QString& message) {
  const bool fresh = message != pollProblem_;
  pollProblem_ = message;
  if (fresh) emit problem(message);
}

bool LiveFollower::isStale() const {
  if (!status_) return false;
  const QDateTime now = QDateTime::currentDateTimeUtc();
  if (!status_->isStaleAt(now)) return false;
  // A run whose clock is behind ours: still changing, so not stale.
  return !lastChangeSeen_.isValid() || lastChangeSeen_.msecsTo(now) > status_->updated.msecsTo(status_->staleAfter());
}

void LiveFollower::updateLine() {
  QString line;
  if (!pollProblem_.isEmpty())
    line = pollProblem_;
  else if (!status_)
    line = QStringLiteral("Live: waiting for the first snapshot of %1…").arg(sourceName_);
  else if (status_->state != LiveStatus::State::Running)
    line = snapshotProblem_.isEmpty() ? liveStatusLine(*status_) : liveStatusLine(*status_) + QStringLiteral(" — ") + snapshotProblem_;
  else if (!snapshotProblem_.isEmpty())
    line = snapshotProblem_;
  else if (isStale())
    line = staleLine(sourceName_, status_->updated);
  else
    line = liveStatusLine(*status_);
  if (line == line_) return;
  line_ = line;
  emit statusLineChanged(line_);
}

QString LiveFollower::localCopyPath() const {
  // One copy per profile and remote report: two runs with the same file name do not mix.
  const QString tag = QString::fromLatin1(
      QCryptographicHash::hash((profile_.name + QLatin1Char('\n') + report_).toUtf8(), QCryptographicHash::Sha1).toHex().left(10));
  QString name = QFileInfo(report_).completeBaseName();
  for (QChar& c : name)
    if (!c.isLetterOrNumber() && c != QLatin1Char('-') && c != QLatin1Char('_') && c != QLatin1Char('.')) c = QLatin1Char('_');
  return QDir(cacheDirectory_).filePath(QStringLiteral("%1-%2.waitscope").arg(name, tag));
}

}  // namespace waitscope::app
