#pragma once
// The connection profiles as a list model (name editable in place), with the
// editor's operations: add, duplicate, rename, remove, reorder.
#include <QAbstractListModel>
#include <QList>

#include "app/launch/connection_profile.h"

namespace waitscope::launch {

class ProfileListModel : public QAbstractListModel {
  Q_OBJECT
 public:
  enum Role { HostRole = Qt::UserRole + 1, KindRole };

  explicit ProfileListModel(QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  bool moveRows(const QModelIndex& sourceParent, int sourceRow, int count, const QModelIndex& destinationParent,
                int destinationChild) override;
  bool removeRows(int row, int count, const QModelIndex& parent = {}) override;

  const QList<ConnectionProfile>& profiles() const { return profiles_; }
  void setProfiles(QList<ConnectionProfile> profiles);
  const ConnectionProfile& profile(int row) const { return profiles_.at(row); }
  // Replaces a row's settings (its name is made unique).
  void setProfile(int row, ConnectionProfile profile);
  int rowOfName(const QString& name) const;

  // Each returns the new row. Names are made unique ("name (2)").
  int addProfile(ConnectionProfile profile);
  int duplicateProfile(int row);
  // False when the name is empty or taken by another profile.
  bool renameProfile(int row, const QString& name);
  // Moves one row up (-1) or down (+1); false at the ends.
  bool moveProfile(int row, int delta);

 private:
  QList<ConnectionProfile> profiles_;
};

}  // namespace waitscope::launch
