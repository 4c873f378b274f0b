#pragma once
// Where a live run writes its report: a path on this computer, or a connection
// profile (app/launch) and a path on its machine. The recent ones are
// remembered with QSettings ("live/recent").
#include <QList>
#include <QString>

#include "app/launch/connection_profile.h"

namespace waitscope::app {

struct LiveSource {
  QString profile;  // a saved connection profile's name; empty: this computer
  QString report;   // the REPORT of `waitscope-run --online -o REPORT`
  bool isLocal() const { return profile.isEmpty(); }
  friend bool operator==(const LiveSource&, const LiveSource&) = default;
};

// REPORT.live beside REPORT.
QString liveStatusPath(const QString& report);

// "host:path" for a remote profile, else the path (as messages name the source).
QString liveSourceName(const launch::ConnectionProfile& profile, const QString& report);

// A relative REPORT of a profile is relative to its working directory.
QString resolvedReportPath(const launch::ConnectionProfile& profile, const QString& report);

// The most recent first (at most 10).
QList<LiveSource> recentLiveSources();
void rememberLiveSource(const LiveSource& source);

}  // namespace waitscope::app
