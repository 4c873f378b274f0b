#pragma once
// "Analyze trace…": pick a profile, a trace on its machine (browsed over the
// connection), the report to write (named after the trace unless chosen) and the
// rank count (read from the trace as soon as its path is typed or picked), start,
// and follow the run: progress bar with the phase, log, elapsed time, Cancel,
// Retry copy. Emits reportReady(localPath) once the report is complete and verified.
#include <QDialog>

#include "app/launch/analysis_runner.h"
#include "app/launch/profile_store.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTimer;

namespace waitscope::launch {

class AnalyzeDialog : public QDialog {
  Q_OBJECT
 public:
  explicit AnalyzeDialog(ProfileStore store = ProfileStore(), QWidget* parent = nullptr);
  ~AnalyzeDialog() override;

  void reloadProfiles();
  void selectProfile(const QString& name);
  ConnectionProfile currentProfile() const;
  // Sets the trace and asks its machine for the trace's rank count; the report's path
  // follows the trace until the user chooses one.
  void setTrace(const QString& trace);
  QString trace() const;
  // The report to write (on the profile's machine); setting it stops it following the trace.
  void setReportPath(const QString& path);
  QString reportPath() const;
  void setRanks(int ranks);
  int ranks() const;
  void start();
  void cancel();
  void retryCopy();

  AnalysisRunner* runner() const { return runner_; }
  QString statusText() const;
  QString logText() const;
  QString progressText() const;

 signals:
  void reportReady(const QString& localPath);
  void rankCountKnown(int ranks);  // the trace's rank count arrived (or -1)

 private:
  void browse();
  void browseReport();
  void requestRankCount(const QString& trace);
  void suggestReport();
  void editProfiles();
  void updateButtons();
  void updateElapsed();
  void closeEvent(QCloseEvent* event) override;
  void showEvent(QShowEvent* event) override;
  void reject() override;

  ProfileStore store_;
  QList<ConnectionProfile> profiles_;
  AnalysisRunner* runner_;
  QComboBox* profile_;
  QLineEdit* trace_;
  QLineEdit* report_;
  QPushButton* browseReport_;
  QSpinBox* ranks_;
  QLabel* rankNote_;
  QProgressBar* progress_;
  QLabel* elapsed_;
  QLabel* status_;
  QPlainTextEdit* log_;
  QPushButton* start_;
  QPushButton* cancel_;
  QPushButton* retry_;
  QPushButton* browse_;
  QTimer* clock_;
  QTimer* rankDelay_;  // typing pauses before the trace's rank count is asked for
  QString rankTrace_;  // the trace whose rank count was asked for last
  int rankRequests_ = 0;
  bool reportChosen_ = false;  // the user chose the report: it no longer follows the trace
};

}  // namespace waitscope::launch
