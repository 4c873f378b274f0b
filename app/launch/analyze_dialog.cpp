#include "app/launch/analyze_dialog.h"

#include <algorithm>

#include <QCloseEvent>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>

#include "app/launch/profile_editor.h"
#include "app/launch/remote_browsing.h"
#include "app/launch/remote_file_dialog.h"
#include "app/launch/shell_job.h"

namespace waitscope::launch {

namespace {

QString elapsedWords(qint64 ms) {
  const qint64 s = ms / 1000;
  return QStringLiteral("%1:%2:%3").arg(s / 3600).arg(s / 60 % 60, 2, 10, QLatin1Char('0')).arg(s % 60, 2, 10, QLatin1Char('0'));
}

// True for a file that may be replaced by a report: none there yet, or a report (SQLite).
// The analyzer checks the same more closely and refuses anything else.
bool replaceable(const QString& path) {
  QFile file(path);
  if (!file.exists()) return true;
  if (!QFileInfo(path).isFile() || !file.open(QIODevice::ReadOnly)) return false;
  return file.read(16) == QByteArray("SQLite format 3", 16);
}

}  // namespace

AnalyzeDialog::AnalyzeDialog(ProfileStore store, QWidget* parent)
    : QDialog(parent),
      store_(std::move(store)),
      runner_(new AnalysisRunner(this)),
      clock_(new QTimer(this)),
      rankDelay_(new QTimer(this)) {
  setWindowTitle(tr("Analyze trace"));
  resize(720, 560);
  auto* layout = new QVBoxLayout(this);
  auto* form = new QFormLayout;
  profile_ = new QComboBox(this);
  profile_->setObjectName(QStringLiteral("profile"));
  auto* editProfiles = new QPushButton(tr("Profiles…"), this);
  auto* profileRow = new QHBoxLayout;
  profileRow->addWidget(profile_, 1);
  profileRow->addWidget(editProfiles);
  form->addRow(tr("Run on"), profileRow);
  trace_ = new QLineEdit(this);
  trace_->setObjectName(QStringLiteral("trace"));
  trace_->setPlaceholderText(tr("…/traces.otf2 on the chosen machine"));
  browse_ = new QPushButton(tr("Browse…"), this);
  auto* traceRow = new QHBoxLayout;
  traceRow->addWidget(trace_, 1);
  traceRow->addWidget(browse_);
  form->addRow(tr("Trace"), traceRow);
  report_ = new QLineEdit(this);
  report_->setObjectName(QStringLiteral("report"));
  report_->setPlaceholderText(tr("…/<trace>.waitscope: named after the trace"));
  browseReport_ = new QPushButton(tr("Browse…"), this);
  browseReport_->setObjectName(QStringLiteral("browseReport"));
  auto* reportRow = new QHBoxLayout;
  reportRow->addWidget(report_, 1);
  reportRow->addWidget(browseReport_);
  form->addRow(tr("Report"), reportRow);
  ranks_ = new QSpinBox(this);
  ranks_->setObjectName(QStringLiteral("ranks"));
  ranks_->setRange(1, 1 << 20);
  rankNote_ = new QLabel(this);
  rankNote_->setWordWrap(true);
  auto* rankRow = new QHBoxLayout;
  rankRow->addWidget(ranks_);
  rankRow->addWidget(rankNote_, 1);
  form->addRow(tr("Processes"), rankRow);
  layout->addLayout(form);

  progress_ = new QProgressBar(this);
  progress_->setRange(0, 100);
  progress_->setValue(0);
  progress_->setFormat(tr("Not started"));
  elapsed_ = new QLabel(elapsedWords(0), this);
  auto* progressRow = new QHBoxLayout;
  progressRow->addWidget(progress_, 1);
  progressRow->addWidget(elapsed_);
  layout->addLayout(progressRow);
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("status"));
  status_->setWordWrap(true);
  layout->addWidget(status_);
  log_ = new QPlainTextEdit(this);
  log_->setObjectName(QStringLiteral("log"));
  log_->setReadOnly(true);
  log_->setMaximumBlockCount(10000);
  layout->addWidget(log_, 1);

  auto* buttons = new QHBoxLayout;
  start_ = new QPushButton(tr("Start"), this);
  cancel_ = new QPushButton(tr("Cancel analysis"), this);
  retry_ = new QPushButton(tr("Retry copy"), this);
  auto* close = new QPushButton(tr("Close"), this);
  buttons->addStretch(1);
  for (QPushButton* b : {start_, cancel_, retry_, close}) buttons->addWidget(b);
  layout->addLayout(buttons);
  start_->setDefault(true);

  connect(editProfiles, &QPushButton::clicked, this, &AnalyzeDialog::editProfiles);
  connect(browse_, &QPushButton::clicked, this, &AnalyzeDialog::browse);
  connect(browseReport_, &QPushButton::clicked, this, &AnalyzeDialog::browseReport);
  // The rank count follows the typed path once typing pauses, not only when the field loses focus.
  rankDelay_->setSingleShot(true);
  rankDelay_->setInterval(400);
  connect(trace_, &QLineEdit::textEdited, this, [this] {
    suggestReport();
    rankDelay_->start();
  });
  connect(rankDelay_, &QTimer::timeout, this, [this] { requestRankCount(trace_->text().trimmed()); });
  connect(trace_, &QLineEdit::editingFinished, this, [this] {
    if (trace_->text().trimmed() != rankTrace_) requestRankCount(trace_->text().trimmed());
  });
  connect(report_, &QLineEdit::textEdited, this, [this] { reportChosen_ = !report_->text().trimmed().isEmpty(); });
  connect(profile_, &QComboBox::currentIndexChanged, this, [this] {
    rankNote_->clear();
    suggestReport();  // another machine: another working directory
  });
  connect(start_, &QPushButton::clicked, this, &AnalyzeDialog::start);
  connect(cancel_, &QPushButton::clicked, this, &AnalyzeDialog::cancel);
  connect(retry_, &QPushButton::clicked, this, &AnalyzeDialog::retryCopy);
  connect(close, &QPushButton::clicked, this, &AnalyzeDialog::reject);
  connect(clock_, &QTimer::timeout, this, &AnalyzeDialog::updateElapsed);
  clock_->setInterval(500);

  connect(runner_, &AnalysisRunner::progressChanged, this, [this](const QString&, const QString& title, int, int overall) {
    progress_->setValue(overall);
    progress_->setFormat(tr("%1 — %p%").arg(title));
  });
  connect(runner_, &AnalysisRunner::logLine, log_, &QPlainTextEdit::appendPlainText);
  connect(runner_, &AnalysisRunner::copyProgress, this, [this](qint64 bytes, qint64 total) {
    progress_->setValue(total > 0 ? static_cast<int>(100 * bytes / total) : 100);
    progress_->setFormat(tr("Copying the report — %p%"));
  });
  connect(runner_, &AnalysisRunner::stateChanged, this, [this](AnalysisRunner::State state) {
    updateButtons();
    updateElapsed();
    if (runner_->isActive()) return;
    clock_->stop();
    if (state == AnalysisRunner::State::Succeeded) {
      progress_->setValue(100);
      progress_->setFormat(tr("Done — %p%"));
      status_->setText(tr("The report is ready: %1").arg(runner_->localReport()));
    } else if (state != AnalysisRunner::State::Idle) {
      status_->setText(runner_->failure().message);
      progress_->setFormat(state == AnalysisRunner::State::Cancelled ? tr("Cancelled") : tr("Failed"));
    }
  });
  connect(runner_, &AnalysisRunner::reportReady, this, &AnalyzeDialog::reportReady);

  reloadProfiles();
  updateButtons();
}

void AnalyzeDialog::reloadProfiles() {
  const QString current = profile_->currentText();
  profiles_ = store_.load();
  profile_->clear();
  for (const ConnectionProfile& p : profiles_) profile_->addItem(p.name);
  selectProfile(current);
}

void AnalyzeDialog::selectProfile(const QString& name) {
  const int index = profile_->findText(name);
  if (index >= 0) profile_->setCurrentIndex(index);
}

ConnectionProfile AnalyzeDialog::currentProfile() const {
  const int index = profile_->currentIndex();
  return index >= 0 && index < profiles_.size() ? profiles_[index] : ConnectionProfile();
}

void AnalyzeDialog::setTrace(const QString& trace) {
  trace_->setText(trace);
  suggestReport();
  requestRankCount(trace.trimmed());
}

QString AnalyzeDialog::trace() const { return trace_->text().trimmed(); }

void AnalyzeDialog::setReportPath(const QString& path) {
  report_->setText(path);
  reportChosen_ = !path.trimmed().isEmpty();
  if (!reportChosen_) suggestReport();
}

QString AnalyzeDialog::reportPath() const { return report_->text().trimmed(); }

// The report beside the trace, named after it; locally never a file that is not a report
// (then "<name>-2.waitscope", ...).
void AnalyzeDialog::suggestReport() {
  if (reportChosen_) return;
  const QString trace = trace_->text().trimmed();
  if (trace.isEmpty()) {
    report_->clear();
    return;
  }
  const ConnectionProfile profile = currentProfile();
  QString path = AnalysisRunner::defaultRemoteReport(profile, trace);
  if (!profile.isRemote()) {
    const QString stem = path.chopped(int(QStringLiteral(".waitscope").size()));
    for (int n = 2; !replaceable(AnalysisRunner::defaultLocalReport(profile, path)) && n < 100; ++n)
      path = QStringLiteral("%1-%2.waitscope").arg(stem).arg(n);
  }
  report_->setText(path);
}

void AnalyzeDialog::requestRankCount(const QString& trace) {
  rankDelay_->stop();
  rankTrace_ = trace;
  if (trace.isEmpty()) {
    rankNote_->clear();
    return;
  }
  rankNote_->setText(tr("reading the trace's rank count…"));
  const int request = ++rankRequests_;
  const ConnectionProfile profile = currentProfile();
  traceRankCount(profile, trace, this, [this, request, profile](int count, const QString& error) {
    if (request != rankRequests_) return;
    if (count > 0) {
      // By default one per core here (each analyzing a block of the ranks: the same report as
      // one per rank, without oversubscribing the machine), one per rank on a cluster.
      const int processes = analysisProcessesFor(profile, count, QThread::idealThreadCount());
      ranks_->setValue(processes);
      rankNote_->setText(processes == count
                             ? tr("the trace has %n rank(s): one analysis process each", nullptr, count)
                             : tr("the trace has %n rank(s): %1 analysis processes", nullptr, count).arg(processes));
    } else {
      rankNote_->setText(error);
    }
    emit rankCountKnown(count);
  });
}

void AnalyzeDialog::setRanks(int ranks) { ranks_->setValue(ranks); }
int AnalyzeDialog::ranks() const { return ranks_->value(); }

void AnalyzeDialog::browse() {
  const QString start = trace_->text().contains(QLatin1Char('/')) ? trace_->text().section(QLatin1Char('/'), 0, -2) : QString();
  RemoteFileDialog dialog(currentProfile(), start, this);
  if (dialog.exec() == QDialog::Accepted && !dialog.selectedPath().isEmpty()) setTrace(dialog.selectedPath());
}

void AnalyzeDialog::browseReport() {
  const ConnectionProfile profile = currentProfile();
  QString chosen;
  if (profile.isRemote()) {
    // An existing report to replace; a new name is typed into the field.
    const QString start = reportPath().contains(QLatin1Char('/')) ? reportPath().section(QLatin1Char('/'), 0, -2) : QString();
    RemoteFileDialog dialog(profile, start, this, {QStringLiteral(".waitscope")});
    if (dialog.exec() == QDialog::Accepted) chosen = dialog.selectedPath();
  } else {
    chosen = QFileDialog::getSaveFileName(this, tr("Report file"), AnalysisRunner::defaultLocalReport(profile, reportPath()),
                                          tr("Waitscope reports (*.waitscope)"), nullptr, QFileDialog::DontConfirmOverwrite);
  }
  if (!chosen.isEmpty()) setReportPath(chosen);
}

void AnalyzeDialog::editProfiles() {
  ProfileEditor editor(store_, this);
  if (editor.exec() == QDialog::Accepted) reloadProfiles();
}

void AnalyzeDialog::start() {
  if (runner_->isActive()) return;
  const QString trace = trace_->text().trimmed();
  if (trace.isEmpty()) {
    status_->setText(tr("Choose a trace first."));
    return;
  }
  if (reportPath().isEmpty()) suggestReport();
  const QString report = reportPath();
  // Only a report is ever replaced (the analyzer refuses the same; here it is said before the run).
  if (!currentProfile().isRemote() && !replaceable(AnalysisRunner::defaultLocalReport(currentProfile(), report))) {
    status_->setText(tr("%1 exists and is not a Waitscope report; choose another report file.")
                         .arg(AnalysisRunner::defaultLocalReport(currentProfile(), report)));
    return;
  }
  log_->clear();
  status_->setText(tr("Running on %1…").arg(currentProfile().displayHost()));
  progress_->setValue(0);
  progress_->setFormat(tr("Starting — %p%"));
  clock_->start();
  AnalysisRunner::Request request;
  request.profile = currentProfile();
  request.trace = trace;
  request.ranks = ranks_->value();
  request.remoteReport = report;
  runner_->start(request);
}

void AnalyzeDialog::cancel() { runner_->cancel(); }

void AnalyzeDialog::retryCopy() {
  status_->setText(tr("Continuing the copy…"));
  clock_->start();
  runner_->retryCopy();
}

void AnalyzeDialog::updateButtons() {
  const bool active = runner_->isActive();
  start_->setEnabled(!active);
  cancel_->setEnabled(active);
  browse_->setEnabled(!active);
  browseReport_->setEnabled(!active);
  profile_->setEnabled(!active);
  const FailureKind kind = runner_->failure().kind;
  retry_->setVisible(runner_->state() == AnalysisRunner::State::Failed && currentProfile().isRemote() &&
                     (kind == FailureKind::ConnectionDropped || kind == FailureKind::CopyFailed || kind == FailureKind::ChecksumMismatch) &&
                     !runner_->remoteReport().isEmpty());
}

void AnalyzeDialog::updateElapsed() { elapsed_->setText(elapsedWords(runner_->elapsedMs())); }

QString AnalyzeDialog::statusText() const { return status_->text(); }
QString AnalyzeDialog::logText() const { return log_->toPlainText(); }
QString AnalyzeDialog::progressText() const { return progress_->text(); }

void AnalyzeDialog::closeEvent(QCloseEvent* event) {
  runner_->cancel();  // closing the window must not leave a job running
  event->accept();
}

void AnalyzeDialog::showEvent(QShowEvent* event) {
  if (!runner_->isActive()) reloadProfiles();  // edited in the profile editor since
  QDialog::showEvent(event);
}

void AnalyzeDialog::reject() {
  runner_->cancel();
  QDialog::reject();
}

AnalyzeDialog::~AnalyzeDialog() { stopChildProcesses(this); }

}  // namespace waitscope::launch
