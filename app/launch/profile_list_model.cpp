#include "app/launch/profile_list_model.h"

#include "app/launch/profile_store.h"

namespace waitscope::launch {

ProfileListModel::ProfileListModel(QObject* parent) : QAbstractListModel(parent) {}

int ProfileListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(profiles_.size());
}

QVariant ProfileListModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const ConnectionProfile& p = profiles_.at(index.row());
  switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole: return p.name;
    case Qt::ToolTipRole:
    case HostRole: return p.displayHost();
    case KindRole: return toString(p.kind);
    default: return {};
  }
}

bool ProfileListModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return false;
  return renameProfile(index.row(), value.toString());
}

Qt::ItemFlags ProfileListModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable | Qt::ItemNeverHasChildren;
}

bool ProfileListModel::moveRows(const QModelIndex& sourceParent, int sourceRow, int count,
                                const QModelIndex& destinationParent, int destinationChild) {
  if (sourceParent.isValid() || destinationParent.isValid() || count != 1) return false;
  if (sourceRow < 0 || sourceRow >= rowCount() || destinationChild < 0 || destinationChild > rowCount()) return false;
  if (destinationChild == sourceRow || destinationChild == sourceRow + 1) return false;
  if (!beginMoveRows({}, sourceRow, sourceRow, {}, destinationChild)) return false;
  const int to = destinationChild > sourceRow ? destinationChild - 1 : destinationChild;
  profiles_.move(sourceRow, to);
  endMoveRows();
  return true;
}

bool ProfileListModel::removeRows(int row, int count, const QModelIndex& parent) {
  if (parent.isValid() || row < 0 || count < 1 || row + count > rowCount()) return false;
  beginRemoveRows({}, row, row + count - 1);
  profiles_.remove(row, count);
  endRemoveRows();
  return true;
}

void ProfileListModel::setProfiles(QList<ConnectionProfile> profiles) {
  beginResetModel();
  profiles_.clear();
  for (ConnectionProfile& p : profiles) {
    p.name = uniqueProfileName(profiles_, p.name);
    profiles_ << p;
  }
  endResetModel();
}

void ProfileListModel::setProfile(int row, ConnectionProfile profile) {
  if (row < 0 || row >= rowCount()) return;
  QList<ConnectionProfile> others = profiles_;
  others.removeAt(row);
  profile.name = uniqueProfileName(others, profile.name.trimmed().isEmpty() ? profiles_[row].name : profile.name);
  profiles_[row] = profile;
  emit dataChanged(index(row), index(row));
}

int ProfileListModel::rowOfName(const QString& name) const {
  for (int i = 0; i < rowCount(); ++i)
    if (profiles_[i].name == name) return i;
  return -1;
}

int ProfileListModel::addProfile(ConnectionProfile profile) {
  profile.name = uniqueProfileName(profiles_, profile.name.trimmed().isEmpty() ? QStringLiteral("New profile") : profile.name);
  const int row = rowCount();
  beginInsertRows({}, row, row);
  profiles_ << profile;
  endInsertRows();
  return row;
}

int ProfileListModel::duplicateProfile(int row) {
  if (row < 0 || row >= rowCount()) return -1;
  ConnectionProfile copy = profiles_[row];
  copy.name = uniqueProfileName(profiles_, copy.name + QStringLiteral(" copy"));
  beginInsertRows({}, row + 1, row + 1);
  profiles_.insert(row + 1, copy);
  endInsertRows();
  return row + 1;
}

bool ProfileListModel::renameProfile(int row, const QString& name) {
  const QString trimmed = name.trimmed();
  if (row < 0 || row >= rowCount() || trimmed.isEmpty()) return false;
  for (int i = 0; i < rowCount(); ++i)
    if (i != row && profiles_[i].name == trimmed) return false;
  profiles_[row].name = trimmed;
  emit dataChanged(index(row), index(row));
  return true;
}

bool ProfileListModel::moveProfile(int row, int delta) {
  const int to = row + delta;
  if (row < 0 || row >= rowCount() || to < 0 || to >= rowCount() || delta == 0) return false;
  return moveRows({}, row, 1, {}, delta > 0 ? to + 1 : to);
}

}  // namespace waitscope::launch
