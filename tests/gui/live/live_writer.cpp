#include "tests/gui/live/live_writer.h"

#include <cstdio>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include "analysis/report/report_io.h"
#include "tests/gui/views/sample_report.h"

namespace livetest {

using namespace waitscope;

LiveWriter::LiveWriter(QString report) : report_(std::move(report)) { QDir().mkpath(QFileInfo(report_).path()); }

report::Report LiveWriter::snapshotReport(qint64 snapshot, bool initCallPath) {
  report::Report r = test::sampleReport();
  r.meta.emplace_back("kind", "online");
  r.meta.emplace_back("online_snapshot", std::to_string(snapshot));
  for (report::SeverityRow& row : r.severities)
    for (double& v : row.values) v *= static_cast<double>(snapshot);
  if (initCallPath) {
    // main/init becomes call path 1; the old 1.. move up by one.
    r.regions.push_back({"init", "app.c", 70, 80, "user"});
    const std::uint32_t init = static_cast<std::uint32_t>(r.regions.size() - 1);
    auto shifted = [](std::uint32_t c) { return c == report::kNoId || c < 1 ? c : c + 1; };
    for (report::CallPath& c : r.callPaths) c.parent = shifted(c.parent);
    r.callPaths.insert(r.callPaths.begin() + 1, report::CallPath{0, init, "app.c", 15});
    for (report::SeverityRow& row : r.severities) row.callPath = shifted(row.callPath);
    r.severities.push_back({test::kTime, 1, {0.5, 0.5, 0.5}});
  }
  return r;
}

void LiveWriter::writeSnapshot(qint64 snapshot, bool initCallPath) {
  report::writeReport(snapshotReport(snapshot, initCallPath), report_.toStdString());
  writeStatus(QStringLiteral("running"), snapshot);
}

void LiveWriter::writeCorruptReport() {
  const QString temporary = report_ + QStringLiteral(".tmp-corrupt");
  QFile f(temporary);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) qFatal("cannot write %s", qPrintable(temporary));
  f.write(QByteArray(4096, 'x'));
  f.close();
  if (std::rename(temporary.toLocal8Bit().constData(), report_.toLocal8Bit().constData()) != 0)  // atomic, like a snapshot
    qFatal("cannot rename %s", qPrintable(temporary));
}

void LiveWriter::writeStatus(const QString& state, qint64 snapshot, const QDateTime& updated, double intervalSeconds,
                             const QString& message) {
  // Written as text, as the contract spells it, not with the app's own code.
  const QString json = QStringLiteral(
                           "{\"state\": \"%1\", \"snapshot\": %2, \"elapsed_seconds\": %3, \"pauses\": %4, "
                           "\"peak_queue\": %5, \"updated\": \"%6\", \"interval_seconds\": %7, \"message\": \"%8\"}\n")
                           .arg(state)
                           .arg(snapshot)
                           .arg(QString::number(1.5 * static_cast<double>(snapshot), 'f', 3))
                           .arg(snapshot / 2)
                           .arg(100 * snapshot + 12)
                           .arg(updated.toUTC().toString(Qt::ISODateWithMs))
                           .arg(intervalSeconds)
                           .arg(message);
  QSaveFile f(statusFile());
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(statusFile()));
  f.write(json.toUtf8());
  if (!f.commit()) qFatal("cannot commit %s", qPrintable(statusFile()));
}

}  // namespace livetest
