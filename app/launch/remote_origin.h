#pragma once
// Where the trace of a copied-back report is: a remote analysis leaves its
// trace on the cluster, and the app's timeline asks that machine for slices
// (app/remote_timeline.h). REPORT.remote.json beside the local copy holds the
// profile (profiles hold no secrets), the remote trace and the remote report;
// AnalysisRunner writes it when the copy arrives.
#include <optional>

#include <QString>

#include "connection_profile.h"

namespace waitscope::launch {

struct RemoteOrigin {
  ConnectionProfile profile;
  QString trace;   // traces.otf2 on the profile's machine (as given to the analysis)
  QString report;  // the report there (its timeline index REPORT.timeline is built beside it)
};

// REPORT.remote.json for the local report `localReport`.
QString remoteOriginPath(const QString& localReport);
// Writes it; an empty string on success, else one line naming the file.
QString writeRemoteOrigin(const QString& localReport, const RemoteOrigin& origin);
// The origin of a local report copied back from a remote analysis (nullopt: none or unreadable).
std::optional<RemoteOrigin> readRemoteOrigin(const QString& localReport);

}  // namespace waitscope::launch
