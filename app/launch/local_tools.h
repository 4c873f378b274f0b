#pragma once
// Where Waitscope's own tools (waitscope-analyze, waitscope-report) are on this
// machine, for local profiles: beside the app's executable first (an
// installation's bin), then the build tree's analysis/tools (the app runs from
// build/app), then the install prefix's bin, then PATH. A profile that names a
// path is taken as it is.
#include <QString>
#include <QStringList>

#include "app/launch/connection_profile.h"

namespace waitscope::launch {

struct LocalTool {
  QString path;          // the executable found; empty when none
  QStringList searched;  // the places looked at, in order ("PATH" for the search path)
  explicit operator bool() const { return !path.isEmpty(); }
};

// The directories looked in before PATH for a tool named without a directory, given the
// app's own directory (QCoreApplication::applicationDirPath()).
QStringList localToolDirectories(const QString& applicationDir);

// `program` as a profile names it: a path (tried as it is, ~/ expanded) or a bare name
// (looked for in `directories`, then on PATH).
LocalTool findLocalTool(const QString& program, const QStringList& directories);

// One line: which tool was looked for where, and what to do.
QString localToolMissing(const LocalTool& tool, const QString& program);

// A local profile with its analyzer resolved to the executable found (and so its
// waitscope-report beside it: ConnectionProfile::reportToolPath); `error` says which
// was looked for where when none is found. Remote profiles come back unchanged.
ConnectionProfile withLocalTools(ConnectionProfile profile, QString* error,
                                 const QStringList& directories = localToolDirectories({}));

}  // namespace waitscope::launch
