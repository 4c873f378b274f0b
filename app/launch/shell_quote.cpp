#include "app/launch/shell_quote.h"

namespace waitscope::launch {

namespace {

bool isPlainWord(const QString& text) {
  if (text.isEmpty()) return false;
  for (const QChar c : text) {
    const bool ok = (c >= QLatin1Char('a') && c <= QLatin1Char('z')) || (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) ||
                    (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || QStringLiteral("_./:=@%+,-").contains(c);
    if (!ok) return false;
  }
  return true;
}

}  // namespace

QString shellQuote(const QString& text) {
  if (isPlainWord(text)) return text;
  QString out = QStringLiteral("'");
  for (const QChar c : text) {
    if (c == QLatin1Char('\'')) out += QStringLiteral("'\\''");
    else out += c;
  }
  out += QLatin1Char('\'');
  return out;
}

QString shellQuotePath(const QString& path) {
  if (path == QLatin1String("~")) return QStringLiteral("~");
  if (path.startsWith(QLatin1String("~/"))) {
    const QString rest = path.mid(2);
    return rest.isEmpty() ? QStringLiteral("~/") : QStringLiteral("~/") + shellQuote(rest);
  }
  return shellQuote(path);
}

QString shellJoin(const QStringList& words) {
  QStringList quoted;
  quoted.reserve(words.size());
  for (const QString& w : words) quoted << shellQuote(w);
  return quoted.join(QLatin1Char(' '));
}

}  // namespace waitscope::launch
