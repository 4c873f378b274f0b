#include "app/live/live_source.h"

#include <QSettings>
#include <QVariantMap>

namespace waitscope::app {
namespace {
constexpr int kMaxRecent = 10;
const QString kRecentKey = QStringLiteral("live/recent");
}  // namespace

QString liveStatusPath(const QString& report) { return report + QStringLiteral(".live"); }

QString liveSourceName(const launch::ConnectionProfile& profile, const QString& report) {
  return profile.isRemote() ? QStringLiteral("%1:%2").arg(profile.displayHost(), report) : report;
}

QString resolvedReportPath(const launch::ConnectionProfile& profile, const QString& report) {
  const QString work = profile.workingDirectory.trimmed();
  if (report.startsWith(QLatin1Char('/')) || report.startsWith(QLatin1Char('~')) || work.isEmpty()) return report;
  return work.endsWith(QLatin1Char('/')) ? work + report : work + QLatin1Char('/') + report;
}

QList<LiveSource> recentLiveSources() {
  QList<LiveSource> out;
  for (const QVariant& v : QSettings().value(kRecentKey).toList()) {
    const QVariantMap m = v.toMap();
    const LiveSource s{m.value(QStringLiteral("profile")).toString(), m.value(QStringLiteral("report")).toString()};
    if (!s.report.isEmpty() && !out.contains(s)) out << s;
  }
  return out;
}

void rememberLiveSource(const LiveSource& source) {
  QList<LiveSource> list = recentLiveSources();
  list.removeAll(source);
  list.prepend(source);
  QVariantList stored;
  for (int i = 0; i < list.size() && i < kMaxRecent; ++i)
    stored << QVariantMap{{QStringLiteral("profile"), list[i].profile}, {QStringLiteral("report"), list[i].report}};
  QSettings().setValue(kRecentKey, stored);
}

}  // namespace waitscope::app
