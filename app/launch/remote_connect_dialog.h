#pragma once
// Asks before the timeline of a copied-back report connects anywhere: shown
// when the connection profile that REPORT.remote.json names is not one of the
// user's, or now connects to another host than the file records. The user
// picks one of their own profiles (or none); what is then run, and where, is
// that profile's. The file's words (profile name, host) are shown as plain
// text, shortened, never as markup.
//
// Shown with open() (window-modal, no nested event loop); tests answer it
// through selectProfile() and accept()/reject().
#include <QDialog>
#include <QList>

#include "app/launch/connection_profile.h"
#include "app/launch/remote_origin.h"

class QComboBox;
class QLabel;
class QPushButton;

namespace waitscope::launch {

class RemoteConnectDialog : public QDialog {
  Q_OBJECT
 public:
  RemoteConnectDialog(const RemoteOrigin& origin, const ResolvedOrigin& resolved, QList<ConnectionProfile> profiles,
                      QWidget* parent = nullptr);

  // The question, as shown.
  QString message() const;
  // The profile picked (one of the user's); meaningful once accepted.
  ConnectionProfile chosenProfile() const;
  // Picks the user's profile `name`; false when there is none.
  bool selectProfile(const QString& name);

 private:
  void updateDestination();

  QList<ConnectionProfile> profiles_;
  QLabel* message_;
  QComboBox* choice_;
  QLabel* destination_;
  QPushButton* connect_;
};

}  // namespace waitscope::launch
