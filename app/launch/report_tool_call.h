#pragma once
// `waitscope-report ARGS...` on a profile's machine, asynchronously, over the
// same connection as the analysis (with connection reuse, no new login). The
// timeline of a remote trace asks for its slices this way:
//   runReportTool(profile, {"timeline", trace, report, "--from", t0, "--to", t1, "--width", w, "--binary"}, ...)
// Every argument is quoted for the remote shell.
#include <functional>

#include <QByteArray>
#include <QString>
#include <QStringList>

#include "app/launch/connection_profile.h"

class QObject;

namespace waitscope::launch {

// `done(output, error)`: stdout of the tool (its data, set-up output is kept
// out of it) and an empty error, or a one-line error.
void runReportTool(const ConnectionProfile& profile, const QStringList& arguments, int timeoutMs, QObject* context,
                   std::function<void(const QByteArray& output, const QString& error)> done);

}  // namespace waitscope::launch
