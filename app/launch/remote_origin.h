#pragma once
// Where the trace of a copied-back report is: a remote analysis leaves its
// trace on the cluster, and the app's timeline asks that machine for slices
// (app/remote_timeline.h). AnalysisRunner writes REPORT.remote.json beside the
// local copy when the copy arrives:
//   {"format": "waitscope-remote-origin", "version": 2,
//    "profile": "Cluster", "host": "login.example.org", "port": 0,
//    "trace": "run1/traces.otf2", "report": "run1.waitscope"}
//
// The file travels with the report, so it is data and nothing in it runs: it
// names the connection profile by name only, and records that profile's host
// (and port) for a comparison. Commands, host, user, keys and program paths
// always come from the user's own profile store (resolveRemoteOrigin); the
// remote trace and report are only ever arguments of waitscope-report.
// Version 1 files (which held a whole profile) are read the same way: only the
// profile's name, host and port are taken from them.
#include <optional>

#include <QList>
#include <QString>

#include "app/launch/connection_profile.h"

namespace waitscope::launch {

struct RemoteOrigin {
  QString profileName;  // the connection profile the analysis ran with
  QString host;         // that profile's host then ("" for a profile of this computer)
  int port = 0;         // and its port (0: ssh's default)
  QString trace;        // traces.otf2 on that machine (as given to the analysis)
  QString report;       // the report there (its timeline index REPORT.timeline is built beside it)
};

// The host and port a profile connects to, as an origin records them ("" and 0 for local profiles).
RemoteOrigin originOf(const ConnectionProfile& profile, const QString& trace, const QString& report);
// "login.example.org", "login.example.org port 2222" or "this computer", for messages.
QString recordedDestination(const RemoteOrigin& origin);

// REPORT.remote.json for the local report `localReport`.
QString remoteOriginPath(const QString& localReport);
// Writes it; an empty string on success, else one line naming the file.
QString writeRemoteOrigin(const QString& localReport, const RemoteOrigin& origin);
// The origin of a local report copied back from a remote analysis (nullopt: none or unreadable).
std::optional<RemoteOrigin> readRemoteOrigin(const QString& localReport);

// The user's profile for an origin.
struct ResolvedOrigin {
  enum class Match {
    Known,           // a profile of that name that connects where the origin says: use it
    HostDiffers,     // a profile of that name, connecting elsewhere now: ask first
    UnknownProfile,  // no profile of that name: ask first (the user may pick one)
  };
  Match match = Match::UnknownProfile;
  ConnectionProfile profile;  // the user's profile of that name (Known, HostDiffers)
};
ResolvedOrigin resolveRemoteOrigin(const RemoteOrigin& origin, const QList<ConnectionProfile>& profiles);
// True when `profile` connects to the host and port `origin` records.
bool connectsTo(const ConnectionProfile& profile, const RemoteOrigin& origin);

}  // namespace waitscope::launch
