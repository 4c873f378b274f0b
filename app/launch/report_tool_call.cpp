#include "app/launch/report_tool_call.h"

#include "app/launch/launch_failure.h"
#include "app/launch/remote_scripts.h"
#include "app/launch/shell_job.h"

namespace waitscope::launch {

void runReportTool(const ConnectionProfile& profile, const QStringList& arguments, int timeoutMs, QObject* context,
                   std::function<void(const QByteArray&, const QString&)> done) {
  runShellJob(profile, reportToolScript(profile, arguments), timeoutMs, context,
              [profile, done = std::move(done)](const ShellResult& r) {
                if (r.ok()) return done(r.out, {});
                if (profile.isRemote() && r.exitCode == 255) return done({}, sshFailure(profile, r.err, false).message);
                if (r.timedOut) return done({}, QStringLiteral("waitscope-report on %1 took too long.").arg(profile.displayHost()));
                if (r.exitCode == 127)
                  return done({}, QStringLiteral("waitscope-report was not found on %1 (expected at %2).")
                                      .arg(profile.displayHost(), profile.reportToolPath()));
                const QString last = r.err.trimmed().section(QLatin1Char('\n'), -1);
                done({}, last.isEmpty() ? QStringLiteral("waitscope-report failed (exit code %1).").arg(r.exitCode) : last);
              });
}

}  // namespace waitscope::launch
