#pragma once
// Picks a traces.otf2 (or a file with another suffix, e.g. a live run's
// .waitscope report) on a profile's machine: a directory view filled over the
// profile's connection (remote_browsing.h), never blocking the GUI.
#include <QDialog>

#include "app/launch/connection_profile.h"

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
  // `suffixes`: the files that can be picked (others are shown disabled).
  RemoteFileDialog(const ConnectionProfile& profile, const QString& startDirectory, QWidget* parent = nullptr,
                   const QStringList& suffixes = {QStringLiteral(".otf2")});
  ~RemoteFileDialog() override;

  // The chosen file (absolute path on the profile's machine).
  QString selectedPath() const { return selected_; }
  QString currentDirectory() const { return directory_; }
  void openDirectory(const QString& directory);

 signals:
  void directoryLoaded(const QString& path);  // a listing arrived (tests wait for it)

 private:
  void activate(QListWidgetItem* item);
  QString childPath(const QString& name) const;
  bool pickable(const QString& name) const;
  bool tracesOnly() const;

  ConnectionProfile profile_;
  QStringList suffixes_;
  QString directory_;
  QString selected_;
  QLineEdit* pathEdit_;
  QListWidget* list_;
  QLabel* status_;
  QPushButton* openButton_;
  int requests_ = 0;
};

}  // namespace waitscope::launch
