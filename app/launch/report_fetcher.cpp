#include "app/launch/report_fetcher.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLocale>
#include <QProcess>
#include <QtConcurrent/QtConcurrentRun>

#include "app/launch/remote_scripts.h"
#include "app/launch/shell_command.h"
#include "app/launch/shell_job.h"

namespace waitscope::launch {

namespace {

QString digestFileOf(const QString& localPath) { return ReportFetcher::partialPath(localPath) + QStringLiteral(".sha256"); }

QString sha256Of(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  QCryptographicHash hash(QCryptographicHash::Sha256);
  hash.addData(&f);
  return QString::fromLatin1(hash.result().toHex());
}

QString sizeWords(qint64 bytes) { return QLocale::system().formattedDataSize(bytes); }

}  // namespace

ReportFetcher::ReportFetcher(QObject* parent) : QObject(parent) {}

ReportFetcher::~ReportFetcher() { stopChildProcesses(this); }

void ReportFetcher::start(const ConnectionProfile& profile, const QString& remotePath, const QString& localPath) {
  if (running_) return;
  profile_ = profile;
  remotePath_ = remotePath;
  localPath_ = localPath;
  failure_ = {};
  cancelled_ = false;
  running_ = true;
  received_ = 0;
  QDir().mkpath(QFileInfo(localPath).absolutePath());
  runShellJob(profile_, fileDigestScript(profile_, remotePath_), 600000, this, [this](const ShellResult& r) {
    if (cancelled_) return fail(FailureKind::Cancelled, QStringLiteral("The copy was cancelled."));
    if (r.timedOut) return fail(FailureKind::CopyFailed, QStringLiteral("The remote checksum took too long."));
    if (profile_.isRemote() && r.exitCode == 255) {
      const Failure f = sshFailure(profile_, r.err, false);
      return fail(f.kind, f.message);
    }
    if (r.err.contains(QLatin1String("missing-file")))
      return fail(FailureKind::CopyFailed, QStringLiteral("The report %1 is not on %2.").arg(remotePath_, profile_.displayHost()));
    if (!r.ok()) return fail(FailureKind::CopyFailed, QStringLiteral("Cannot read the report's checksum: %1").arg(r.err.trimmed()));
    onDigest(r.out);
  });
}

void ReportFetcher::onDigest(const QByteArray& out) {
  const QStringList words = QString::fromLatin1(out).trimmed().split(QLatin1Char(' '), Qt::SkipEmptyParts);
  bool sizeOk = false;
  total_ = words.value(0).toLongLong(&sizeOk);
  remoteDigest_ = words.value(1).toLower();
  if (!sizeOk || remoteDigest_.size() != 64)
    return fail(FailureKind::CopyFailed, QStringLiteral("Cannot read the report's checksum (got \"%1\").").arg(QString::fromLatin1(out).trimmed()));

  // A partial copy of a different report (same name, new analysis) is dropped.
  const QString partPath = partialPath(localPath_);
  QFile digestFile(digestFileOf(localPath_));
  QString previousDigest;
  if (digestFile.open(QIODevice::ReadOnly)) previousDigest = QString::fromLatin1(digestFile.readAll()).trimmed();
  digestFile.close();
  if (previousDigest != remoteDigest_ || QFileInfo(partPath).size() > total_) QFile::remove(partPath);
  if (digestFile.open(QIODevice::WriteOnly | QIODevice::Truncate)) digestFile.write(remoteDigest_.toLatin1());
  digestFile.close();

  part_ = new QFile(partPath, this);
  if (!part_->open(QIODevice::WriteOnly | QIODevice::Append))
    return fail(FailureKind::CopyFailed, QStringLiteral("Cannot write %1: %2").arg(partPath, part_->errorString()));
  received_ = part_->size();
  if (received_ > 0) emit resumed(received_);
  emit progress(received_, total_);
  if (received_ == total_) {
    part_->close();
    return verify();
  }
  startTail();
}

void ReportFetcher::startTail() {
  tailErrors_.clear();
  auto* process = new QProcess(this);
  process_ = process;
  connect(process, &QProcess::readyReadStandardOutput, this, [this, process] {
    const QByteArray chunk = process->readAllStandardOutput();
    if (chunk.isEmpty() || !part_) return;
    part_->write(chunk);
    part_->flush();  // what arrived survives a dropped connection
    received_ += chunk.size();
    emit progress(received_, total_);
  });
  connect(process, &QProcess::readyReadStandardError, this,
          [this, process] { tailErrors_ += QString::fromUtf8(process->readAllStandardError()); });
  connect(process, &QProcess::finished, this, [this, process](int code, QProcess::ExitStatus status) {
    const QByteArray rest = process->readAllStandardOutput();
    if (!rest.isEmpty() && part_) {
      part_->write(rest);
      received_ += rest.size();
    }
    tailErrors_ += QString::fromUtf8(process->readAllStandardError());
    process->deleteLater();
    onTailFinished(status == QProcess::NormalExit ? code : -1);
  });
  connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError error) {
    if (error != QProcess::FailedToStart) return;
    process->deleteLater();
    fail(FailureKind::CopyFailed, QStringLiteral("Cannot start %1: %2").arg(launchSettings().sshProgram, process->errorString()));
  });
  const ShellCommand command = shellCommand(profile_, fileTailScript(profile_, remotePath_, received_));
  process->setStandardInputFile(QProcess::nullDevice());
  process->start(command.program, command.arguments);
}

void ReportFetcher::onTailFinished(int exitCode) {
  if (part_) part_->close();
  if (cancelled_) return fail(FailureKind::Cancelled, QStringLiteral("The copy was cancelled; Retry continues it."));
  if (exitCode != 0 || received_ < total_) {
    Failure f = profile_.isRemote() && (exitCode == 255 || exitCode == -1) ? sshFailure(profile_, tailErrors_, true)
                                                                           : Failure{FailureKind::CopyFailed, {}};
    if (f.kind == FailureKind::ConnectionDropped || f.kind == FailureKind::CopyFailed)
      return fail(f.kind == FailureKind::CopyFailed ? FailureKind::ConnectionDropped : f.kind,
                  QStringLiteral("The connection to %1 dropped during the copy of the report (%2 of %3); Retry continues it.")
                      .arg(profile_.displayHost(), sizeWords(received_), sizeWords(total_)));
    return fail(f.kind, f.message);
  }
  verify();
}

void ReportFetcher::verify() {
  if (part_) {
    part_->close();
    part_->deleteLater();
    part_ = nullptr;
  }
  // Hashing a large report takes seconds: off the GUI thread.
  auto* watcher = new QFutureWatcher<QString>(this);
  connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher] {
    const QString local = watcher->result();
    watcher->deleteLater();
    const QString partPath = partialPath(localPath_);
    if (local != remoteDigest_) {
      QFile::remove(partPath);
      QFile::remove(digestFileOf(localPath_));
      return fail(FailureKind::ChecksumMismatch,
                  QStringLiteral("The copied report does not match its checksum on %1; Retry copies it again.").arg(profile_.displayHost()));
    }
    QFile::remove(localPath_);
    if (!QFile::rename(partPath, localPath_))
      return fail(FailureKind::CopyFailed, QStringLiteral("Cannot rename %1 to %2.").arg(partPath, localPath_));
    QFile::remove(digestFileOf(localPath_));
    running_ = false;
    emit succeeded(localPath_);
  });
  watcher->setFuture(QtConcurrent::run(sha256Of, partialPath(localPath_)));
}

void ReportFetcher::cancel() {
  if (!running_) return;
  cancelled_ = true;
  if (process_) process_->kill();
}

void ReportFetcher::fail(FailureKind kind, const QString& message) {
  if (part_) {
    part_->close();
    part_->deleteLater();
    part_ = nullptr;
  }
  running_ = false;
  failure_ = {kind, message};
  emit failed(message);
}

}  // namespace waitscope::launch
