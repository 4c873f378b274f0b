#pragma once
// Copies a report from a profile's machine, resumably and verified: the bytes
// arrive in LOCAL.part (appended, so a retry after a dropped connection goes on
// where the copy stopped), and only when the SHA-256 of the whole file equals
// the remote `sha256sum` is LOCAL.part renamed to LOCAL. A partial report is
// therefore never where the app opens reports.
#include <QObject>
#include <QPointer>
#include <QString>

#include "app/launch/connection_profile.h"
#include "app/launch/launch_failure.h"

class QFile;
class QProcess;

namespace waitscope::launch {

class ReportFetcher : public QObject {
  Q_OBJECT
 public:
  explicit ReportFetcher(QObject* parent = nullptr);
  ~ReportFetcher() override;

  // Starts (or resumes) copying `remotePath` to `localPath`.
  void start(const ConnectionProfile& profile, const QString& remotePath, const QString& localPath);
  void cancel();
  bool isRunning() const { return running_; }
  const Failure& failure() const { return failure_; }

  static QString partialPath(const QString& localPath) { return localPath + QStringLiteral(".part"); }

 signals:
  void resumed(qint64 offset);             // a previous partial copy is continued
  void progress(qint64 bytes, qint64 total);
  void succeeded(const QString& localPath);
  void failed(const QString& message);

 private:
  void onDigest(const QByteArray& out);
  void startTail();
  void onTailFinished(int exitCode);
  void verify();
  void fail(FailureKind kind, const QString& message);

  ConnectionProfile profile_;
  QString remotePath_;
  QString localPath_;
  QString remoteDigest_;
  qint64 total_ = 0;
  qint64 received_ = 0;
  QFile* part_ = nullptr;
  QPointer<QProcess> process_;
  QString tailErrors_;
  bool running_ = false;
  bool cancelled_ = false;
  Failure failure_;
};

}  // namespace waitscope::launch
