#pragma once
// Picks a traces.otf2 on a profile's machine: a directory view filled over the
// profile's connection (remote_browsing.h), never blocking the GUI.
#include <QDialog>

#include "connection_profile.h"

class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QPushButton;

namespace waitscope::launch {

class RemoteFileDialog : public QDialog {
  Q_OBJECT
 public:
  // `startDirectory` empty: the profile's working directory (or home).
  RemoteFileDialog(const ConnectionProfile& profile, const QString& startDirectory, QWidget* parent = nullptr);
  ~RemoteFileDialog() override;

  // The chosen trace (absolute path on the profile's machine).
  QString selectedPath() const { return selected_; }
  QString currentDirectory() const { return directory_; }
  void openDirectory(const QString& directory);

 signals:
  void directoryLoaded(const QString& path);  // a listing arrived (tests wait for it)

 private:
  void activate(QListWidgetItem* item);
  QString childPath(const QString& name) const;

  ConnectionProfile profile_;
  QString directory_;
  QString selected_;
  QLineEdit* pathEdit_;
  QListWidget* list_;
  QLabel* status_;
  QPushButton* openButton_;
  int requests_ = 0;
};

}  // namespace waitscope::launch
