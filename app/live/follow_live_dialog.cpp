#include "app/live/follow_live_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include "app/launch/remote_file_dialog.h"

namespace waitscope::app {

FollowLiveDialog::FollowLiveDialog(launch::ProfileStore store, QWidget* parent)
    : QDialog(parent), store_(std::move(store)) {
  setWindowTitle(tr("Follow Live Run"));
  resize(620, 400);
  for (const launch::ConnectionProfile& p : store_.load())
    if (p.isRemote()) profiles_ << p;

  where_ = new QComboBox(this);
  where_->setObjectName(QStringLiteral("where"));
  where_->addItem(tr("This computer"), QString());
  for (const launch::ConnectionProfile& p : profiles_)
    where_->addItem(QStringLiteral("%1 (%2)").arg(p.name, p.displayHost()), p.name);
  report_ = new QLineEdit(this);
  report_->setObjectName(QStringLiteral("report"));
  report_->setPlaceholderText(tr("REPORT of waitscope-run --online -o REPORT"));
  auto* browse = new QPushButton(tr("Browse…"), this);
  auto* reportRow = new QHBoxLayout;
  reportRow->addWidget(report_, 1);
  reportRow->addWidget(browse);
  note_ = new QLabel(tr("The app reads REPORT.live beside the report every few seconds and shows each new "
                        "snapshot in place. Remote runs are read over your ssh client with the profile's settings."),
                     this);
  note_->setWordWrap(true);
  recent_ = new QListWidget(this);
  recent_->setObjectName(QStringLiteral("recent"));
  recentSources_ = recentLiveSources();
  for (const LiveSource& s : recentSources_)
    recent_->addItem(s.isLocal() ? s.report : QStringLiteral("%1: %2").arg(s.profile, s.report));

  auto* form = new QFormLayout;
  form->addRow(tr("Where:"), where_);
  form->addRow(tr("Report:"), reportRow);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
  follow_ = buttons->addButton(tr("Follow"), QDialogButtonBox::AcceptRole);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(note_);
  layout->addWidget(new QLabel(tr("Recent:"), this));
  layout->addWidget(recent_, 1);
  layout->addWidget(buttons);

  connect(browse, &QPushButton::clicked, this, &FollowLiveDialog::browse);
  connect(report_, &QLineEdit::textChanged, this, &FollowLiveDialog::updateButtons);
  connect(recent_, &QListWidget::currentRowChanged, this, [this](int row) {
    if (row >= 0 && row < recentSources_.size()) setSource(recentSources_[row]);
  });
  connect(recent_, &QListWidget::itemActivated, this, [this] {
    if (!source().report.isEmpty()) accept();
  });
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  if (!recentSources_.isEmpty()) setSource(recentSources_.front());
  updateButtons();
}

LiveSource FollowLiveDialog::source() const {
  return {where_->currentData().toString(), report_->text().trimmed()};
}

void FollowLiveDialog::setSource(const LiveSource& source) {
  const int index = where_->findData(source.profile);
  where_->setCurrentIndex(index >= 0 ? index : 0);
  report_->setText(source.report);
  if (index < 0 && !source.isLocal())
    note_->setText(tr("The connection profile \"%1\" no longer exists; choose where the run is.").arg(source.profile));
}

void FollowLiveDialog::browse() {
  const QString profileName = where_->currentData().toString();
  const QString current = report_->text().trimmed();
  if (profileName.isEmpty()) {
    const QString path = QFileDialog::getOpenFileName(this, tr("The live run's report"), QFileInfo(current).path(),
                                                      tr("Waitscope reports (*.waitscope *.wsr);;All files (*)"));
    if (!path.isEmpty()) report_->setText(path);
    return;
  }
  for (const launch::ConnectionProfile& p : profiles_) {
    if (p.name != profileName) continue;
    const QString start = current.contains(QLatin1Char('/')) ? current.section(QLatin1Char('/'), 0, -2) : QString();
    launch::RemoteFileDialog dialog(p, start, this, {QStringLiteral(".waitscope"), QStringLiteral(".wsr")});
    if (dialog.exec() == QDialog::Accepted && !dialog.selectedPath().isEmpty()) report_->setText(dialog.selectedPath());
    return;
  }
}

void FollowLiveDialog::updateButtons() { follow_->setEnabled(!report_->text().trimmed().isEmpty()); }

}  // namespace waitscope::app
