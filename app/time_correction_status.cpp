#include "app/time_correction_status.h"

#include <QCoreApplication>
#include <QStringList>

#include "views/timeline/timeline_format.h"

namespace waitscope::app {

QString timeCorrectionStatus(const report::Report& report) {
  const QString method = QString::fromStdString(report.metaValue("time_correction"));
  if (method.isEmpty()) return {};
  const auto tr = [](const char* text) { return QCoreApplication::translate("MainWindow", text); };
  bool movedOk = false, shiftOk = false;
  const qulonglong moved = QString::fromStdString(report.metaValue("time_correction_moved_events")).toULongLong(&movedOk);
  const double shift = QString::fromStdString(report.metaValue("time_correction_largest_shift")).toDouble(&shiftOk);
  QStringList parts;
  if (movedOk) parts << (moved == 1 ? tr("1 event moved") : tr("%1 events moved").arg(moved));
  if (shiftOk) parts << tr("largest shift %1").arg(views::formatTime(shift));
  const QString head = tr("Times corrected (%1)").arg(method);
  return parts.isEmpty() ? head : head + QStringLiteral(": ") + parts.join(QStringLiteral(", "));
}

}  // namespace waitscope::app
