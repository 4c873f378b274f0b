#pragma once
// The window's side of following a live run: File > Follow Live Run… and Stop
// Following, the status-bar line, and each new snapshot shown in the window —
// the first one like an opened report, later ones in place (same selection,
// expansion and scroll position, new values).
#include <QObject>

#include "app/launch/connection_profile.h"
#include "app/launch/profile_store.h"
#include "app/live/live_source.h"

class QAction;
class QLabel;

namespace waitscope::app {

class LiveFollower;
class MainWindow;

class LiveRunController : public QObject {
  Q_OBJECT
 public:
  explicit LiveRunController(MainWindow* window);

  // Follows `source` (its profile looked up in the profile store) and remembers it among
  // the recent live sources; empty on success, else one line.
  QString follow(const LiveSource& source);
  // Follows `report` on the profile's machine.
  void follow(const launch::ConnectionProfile& profile, const QString& report);
  // The dialog, then follow(); an error goes to a message box.
  void chooseAndFollow();
  // Stops following (another report opened, the report closed, or the menu); the window
  // keeps the last snapshot.
  void stop();
  bool isFollowing() const;

  LiveFollower* follower() const { return follower_; }
  QAction* followAction() const { return followAction_; }
  QAction* stopAction() const { return stopAction_; }
  // The status bar's live line (empty when not following).
  QString statusText() const;

 private:
  MainWindow* window_;
  LiveFollower* follower_;
  launch::ProfileStore store_;
  QLabel* label_;
  QAction* followAction_;
  QAction* stopAction_;
  bool showing_ = false;  // a snapshot of this run is in the window
};

}  // namespace waitscope::app
