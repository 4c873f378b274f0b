#pragma once
// File > Follow Live Run…: where the run writes its report — a path on this
// computer, or a saved connection profile (app/launch) and a path on its
// machine (browsed over the connection) — with the recent live sources.
#include <QDialog>

#include "app/launch/profile_store.h"
#include "app/live/live_source.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace waitscope::app {

class FollowLiveDialog : public QDialog {
  Q_OBJECT
 public:
  explicit FollowLiveDialog(launch::ProfileStore store = launch::ProfileStore(), QWidget* parent = nullptr);

  LiveSource source() const;
  void setSource(const LiveSource& source);
  // The SSH profiles offered (this computer is always the first choice).
  const QList<launch::ConnectionProfile>& profiles() const { return profiles_; }
  QComboBox* whereBox() const { return where_; }
  QLineEdit* reportEdit() const { return report_; }
  QListWidget* recentList() const { return recent_; }

 private:
  void browse();
  void updateButtons();

  launch::ProfileStore store_;
  QList<launch::ConnectionProfile> profiles_;
  QList<LiveSource> recentSources_;
  QComboBox* where_;
  QLineEdit* report_;
  QListWidget* recent_;
  QLabel* note_;
  QPushButton* follow_;
};

}  // namespace waitscope::app
