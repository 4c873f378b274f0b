#pragma once
// "Test connection": can we reach the machine, is the analyzer there (and which
// version), is the launcher (mpiexec, srun or sbatch) there. Each answer is one
// plain sentence.
#include <QList>
#include <QObject>
#include <QString>

#include "app/launch/connection_profile.h"

namespace waitscope::launch {

struct ConnectionCheck {
  QString name;     // "connection", "working directory", "analyzer", "launcher"
  bool ok = false;
  QString message;  // plain words
};

class ConnectionTester : public QObject {
  Q_OBJECT
 public:
  explicit ConnectionTester(QObject* parent = nullptr);
  ~ConnectionTester() override;
  void start(const ConnectionProfile& profile, int timeoutMs = 60000);
  bool isRunning() const { return running_; }
  const QList<ConnectionCheck>& results() const { return results_; }
  bool allOk() const;
  // The results as lines "✔ …" / "✘ …".
  QString summary() const;

 signals:
  void finished();

 private:
  bool running_ = false;
  QList<ConnectionCheck> results_;
};

}  // namespace waitscope::launch
