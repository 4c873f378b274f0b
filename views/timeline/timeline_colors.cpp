#include "views/timeline/timeline_colors.h"

#include <QCoreApplication>

namespace waitscope::views {

QString groupLabel(timeline::RegionGroup g) {
  switch (g) {
    case timeline::RegionGroup::UserCode: return QCoreApplication::translate("Timeline", "User code");
    case timeline::RegionGroup::MpiPointToPoint: return QCoreApplication::translate("Timeline", "MPI point-to-point");
    case timeline::RegionGroup::MpiCollective: return QCoreApplication::translate("Timeline", "MPI collective");
    case timeline::RegionGroup::RmaSynchronization: return QCoreApplication::translate("Timeline", "RMA synchronization");
    case timeline::RegionGroup::RmaCommunication: return QCoreApplication::translate("Timeline", "RMA communication");
    case timeline::RegionGroup::MpiOther: return QCoreApplication::translate("Timeline", "Other MPI");
  }
  return {};
}

QString epochLabel(timeline::EpochKind k) {
  switch (k) {
    case timeline::EpochKind::Fence: return QCoreApplication::translate("Timeline", "fence epoch");
    case timeline::EpochKind::Access: return QCoreApplication::translate("Timeline", "access epoch (GATS)");
    case timeline::EpochKind::Exposure: return QCoreApplication::translate("Timeline", "exposure epoch (GATS)");
    case timeline::EpochKind::Lock: return QCoreApplication::translate("Timeline", "lock epoch");
    case timeline::EpochKind::LockAll: return QCoreApplication::translate("Timeline", "lock-all epoch");
  }
  return {};
}

}  // namespace waitscope::views
