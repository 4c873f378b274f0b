#include "app/live/live_status.h"

#include <cmath>

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

namespace waitscope::app {

QDateTime LiveStatus::staleAfter() const {
  const double limit = 3.0 * std::max(0.0, intervalSeconds) + 10.0;
  return updated.addMSecs(static_cast<qint64>(std::llround(limit * 1000.0)));
}

bool LiveStatus::isStaleAt(const QDateTime& now) const {
  return state == State::Running && updated.isValid() && now > staleAfter();
}

std::optional<LiveStatus> parseLiveStatus(const QByteArray& json, QString* error) {
  QJsonParseError parseError;
  const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
  if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
    *error = json.trimmed().isEmpty() ? QStringLiteral("the file is empty")
                                      : QStringLiteral("not JSON (%1)").arg(parseError.errorString());
    return std::nullopt;
  }
  const QJsonObject o = document.object();
  LiveStatus s;
  const QString state = o.value(QStringLiteral("state")).toString();
  if (state == QLatin1String("running")) s.state = LiveStatus::State::Running;
  else if (state == QLatin1String("finished")) s.state = LiveStatus::State::Finished;
  else if (state == QLatin1String("failed")) s.state = LiveStatus::State::Failed;
  else {
    *error = QStringLiteral("no \"state\" of running, finished or failed");
    return std::nullopt;
  }
  if (!o.value(QStringLiteral("snapshot")).isDouble()) {
    *error = QStringLiteral("no \"snapshot\" number");
    return std::nullopt;
  }
  s.snapshot = o.value(QStringLiteral("snapshot")).toInteger();
  s.elapsedSeconds = o.value(QStringLiteral("elapsed_seconds")).toDouble();
  s.pauses = o.value(QStringLiteral("pauses")).toInteger();
  s.peakQueue = o.value(QStringLiteral("peak_queue")).toInteger();
  s.intervalSeconds = o.value(QStringLiteral("interval_seconds")).toDouble();
  s.message = o.value(QStringLiteral("message")).toString().section(QLatin1Char('\n'), 0, 0).trimmed();
  const QString updated = o.value(QStringLiteral("updated")).toString();
  s.updated = QDateTime::fromString(updated, Qt::ISODateWithMs);
  if (!s.updated.isValid()) s.updated = QDateTime::fromString(updated, Qt::ISODate);
  if (!s.updated.isValid()) {
    *error = QStringLiteral("no ISO-8601 \"updated\" time (got \"%1\")").arg(updated);
    return std::nullopt;
  }
  s.updated = s.updated.toUTC();
  return s;
}

namespace {
QString figures(const LiveStatus& s) {
  return QStringLiteral("snapshot %1 · %2 s · %3 · peak queue %4")
      .arg(s.snapshot)
      .arg(QString::number(s.elapsedSeconds, 'f', 1))
      .arg(s.pauses == 1 ? QStringLiteral("1 pause") : QStringLiteral("%1 pauses").arg(s.pauses))
      .arg(s.peakQueue);
}
}  // namespace

QString liveStatusLine(const LiveStatus& s) {
  switch (s.state) {
    case LiveStatus::State::Running: return QStringLiteral("Live: ") + figures(s);
    case LiveStatus::State::Finished: return QStringLiteral("Live run finished (%1)").arg(figures(s));
    case LiveStatus::State::Failed:
      return QStringLiteral("Live run failed: %1")
          .arg(s.message.isEmpty() ? QStringLiteral("the run gave no reason") : s.message);
  }
  return {};
}

QString staleLine(const QString& source, const QDateTime& updated) {
  return QStringLiteral("no update from %1 since %2; the run may have ended")
      .arg(source, updated.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
}

}  // namespace waitscope::app
