#include "app/launch/remote_browsing.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QMetaObject>

#include "app/launch/launch_failure.h"
#include "app/launch/local_tools.h"
#include "app/launch/remote_scripts.h"
#include "app/launch/shell_job.h"

namespace waitscope::launch {

DirectoryListing parseListing(const QByteArray& output) {
  DirectoryListing listing;
  const QStringList lines = QString::fromUtf8(output).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  if (lines.isEmpty()) {
    listing.error = QStringLiteral("The directory listing was empty.");
    return listing;
  }
  listing.path = lines.first();
  for (const QString& entry : lines.mid(1)) {
    if (entry.endsWith(QLatin1Char('/'))) {
      const QString name = entry.chopped(1);
      if (name != QLatin1String(".") && name != QLatin1String("..")) listing.directories << name;
    } else {
      listing.files << entry;
    }
  }
  return listing;
}

void listDirectory(const ConnectionProfile& profile, const QString& directory, QObject* context,
                   std::function<void(const DirectoryListing&)> done) {
  runShellJob(profile, listDirectoryScript(profile, directory), 60000, context,
              [profile, directory, done = std::move(done)](const ShellResult& r) {
                DirectoryListing listing;
                if (profile.isRemote() && r.exitCode == 255) listing.error = sshFailure(profile, r.err, false).message;
                else if (r.timedOut) listing.error = QStringLiteral("No answer from %1.").arg(profile.displayHost());
                else if (!r.ok()) listing.error = QStringLiteral("Cannot open %1 on %2.").arg(directory.isEmpty() ? QStringLiteral("the start directory") : directory, profile.displayHost());
                else listing = parseListing(r.out);
                done(listing);
              });
}

int parseStatsLocations(const QByteArray& json) {
  // Set-up lines may have printed before the JSON object.
  const qsizetype start = json.indexOf('{');
  if (start < 0) return -1;
  const QJsonObject o = QJsonDocument::fromJson(json.mid(start)).object();
  return o.contains(QLatin1String("locations")) ? o["locations"].toInt(-1) : -1;
}

void traceRankCount(const ConnectionProfile& profile, const QString& trace, QObject* context,
                    std::function<void(int, const QString&)> done) {
  QString missing;
  const ConnectionProfile resolved = withLocalTools(profile, &missing);
  if (missing.isEmpty() && !resolved.isRemote()) {
    const LocalTool reportTool = findLocalTool(resolved.reportToolPath(), {});
    if (!reportTool) missing = localToolMissing(reportTool, resolved.reportToolPath());
  }
  if (!missing.isEmpty()) {
    QMetaObject::invokeMethod(context, [done = std::move(done), missing] { done(-1, QStringLiteral("Cannot read the trace's rank count: ") + missing); }, Qt::QueuedConnection);
    return;
  }
  runShellJob(resolved, traceStatsScript(resolved, trace), 120000, context, [profile, done = std::move(done)](const ShellResult& r) {
    if (profile.isRemote() && r.exitCode == 255) return done(-1, sshFailure(profile, r.err, false).message);
    if (r.exitCode == 127)  // the shell's "not found": say which tool, where, and what to do
      return done(-1, QStringLiteral("Cannot read the trace's rank count: %1 was not found on %2; set the analyzer's "
                                     "path in the profile (waitscope-report is taken from its directory).")
                          .arg(profile.reportToolPath(), profile.displayHost()));
    const int ranks = r.ok() ? parseStatsLocations(r.out) : -1;
    if (ranks > 0) return done(ranks, {});
    const QString why = r.err.trimmed().section(QLatin1Char('\n'), -1);
    done(-1, QStringLiteral("Cannot read the trace's rank count%1").arg(why.isEmpty() ? QStringLiteral(".") : QStringLiteral(": ") + why));
  });
}

}  // namespace waitscope::launch
