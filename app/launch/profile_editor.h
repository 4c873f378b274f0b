#pragma once
// The connection profile editor: the list of profiles (add, duplicate, rename,
// delete, reorder, import, export) and the form of the selected one, with
// "Test connection". Saves to its ProfileStore when accepted.
#include <QDialog>

#include "app/launch/connection_profile.h"
#include "app/launch/profile_store.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace waitscope::launch {

class ConnectionTester;
class ProfileListModel;

class ProfileEditor : public QDialog {
  Q_OBJECT
 public:
  explicit ProfileEditor(ProfileStore store = ProfileStore(), QWidget* parent = nullptr);

  ProfileListModel* model() const { return model_; }
  int currentRow() const;
  void selectRow(int row);
  // The form's contents as a profile / fills the form (and the selected row).
  ConnectionProfile formProfile() const;
  void setFormProfile(const ConnectionProfile& profile);

  // The editor's actions (also behind its buttons).
  void addProfile();
  void duplicateProfile();
  void renameProfile();
  void deleteProfile();
  void moveProfile(int delta);
  void testConnection();
  bool importFrom(const QString& path);
  bool exportTo(const QString& path);
  bool save();

  ConnectionTester* tester() const { return tester_; }
  QString testResultText() const;

 signals:
  void profilesSaved();

 private:
  void loadForm(int row);
  void storeForm();
  void updateEnabled();
  void accept() override;

  ProfileStore store_;
  ProfileListModel* model_;
  ConnectionTester* tester_;
  QListView* list_;
  bool loading_ = false;

  QLineEdit* name_;
  QComboBox* kind_;
  QComboBox* host_;
  QLineEdit* user_;
  QSpinBox* port_;
  QLineEdit* jumpHosts_;
  QLineEdit* identity_;
  QCheckBox* reuse_;
  QSpinBox* persist_;
  QLineEdit* workdir_;
  QPlainTextEdit* setup_;
  QComboBox* launcher_;
  QLineEdit* launcherOptions_;
  QPlainTextEdit* batchTemplate_;
  QLineEdit* account_;
  QLineEdit* partition_;
  QLineEdit* time_;
  QSpinBox* nodes_;
  QSpinBox* processes_;
  QLineEdit* analyzer_;
  QPushButton* testButton_;
  QLabel* testResult_;
  QList<QWidget*> sshWidgets_;
  QList<QWidget*> batchWidgets_;
};

}  // namespace waitscope::launch
