#include "app/live/live_run_controller.h"

#include <QAction>
#include <QLabel>
#include <QMessageBox>
#include <QStatusBar>

#include "app/live/follow_live_dialog.h"
#include "app/live/live_follower.h"
#include "app/main_window.h"

namespace waitscope::app {

LiveRunController::LiveRunController(MainWindow* window)
    : QObject(window),
      window_(window),
      follower_(new LiveFollower(this)),
      label_(new QLabel(window)),
      followAction_(new QAction(tr("Follow &Live Run…"), this)),
      stopAction_(new QAction(tr("Stop &Following Live Run"), this)) {
  label_->setObjectName(QStringLiteral("liveStatus"));
  label_->hide();
  window->statusBar()->insertPermanentWidget(0, label_, 1);
  stopAction_->setEnabled(false);
  connect(followAction_, &QAction::triggered, this, &LiveRunController::chooseAndFollow);
  connect(stopAction_, &QAction::triggered, this, &LiveRunController::stop);
  connect(follower_, &LiveFollower::statusLineChanged, label_, &QLabel::setText);
  connect(follower_, &LiveFollower::snapshotReady, this,
          [this](views::ReportDataPtr report, qint64) {
            if (showing_) {
              window_->updateReportInPlace(std::move(report));
            } else {
              showing_ = true;
              window_->showReport(std::move(report));
            }
          });
}

QString LiveRunController::follow(const LiveSource& source) {
  if (source.report.isEmpty()) return tr("Name the report the live run writes (waitscope-run --online -o REPORT).");
  launch::ConnectionProfile profile;  // this computer
  profile.name = tr("This computer");
  if (!source.isLocal()) {
    bool found = false;
    for (const launch::ConnectionProfile& p : store_.load())
      if (p.name == source.profile) profile = p, found = true;
    if (!found)
      return tr("The connection profile \"%1\" no longer exists; add it in File > Connection Profiles….")
          .arg(source.profile);
  }
  rememberLiveSource(source);
  follow(profile, source.report);
  return {};
}

void LiveRunController::follow(const launch::ConnectionProfile& profile, const QString& report) {
  showing_ = false;
  label_->show();
  stopAction_->setEnabled(true);
  follower_->start(profile, report);
}

void LiveRunController::chooseAndFollow() {
  FollowLiveDialog dialog(store_, window_);
  if (dialog.exec() != QDialog::Accepted) return;
  const QString error = follow(dialog.source());
  if (!error.isEmpty()) QMessageBox::warning(window_, tr("Follow live run"), error);
}

void LiveRunController::stop() {
  if (!stopAction_->isEnabled()) return;
  const bool wasFollowing = follower_->isFollowing();
  follower_->stop();
  showing_ = false;
  stopAction_->setEnabled(false);
  label_->clear();
  label_->hide();
  if (wasFollowing) window_->statusBar()->showMessage(tr("Stopped following %1").arg(follower_->sourceName()), 5000);
}

bool LiveRunController::isFollowing() const { return follower_->isFollowing(); }

QString LiveRunController::statusText() const { return label_->isHidden() ? QString() : label_->text(); }

}  // namespace waitscope::app
