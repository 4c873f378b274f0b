#include "app/launch/ssh_config_aliases.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTextStream>

namespace waitscope::launch {

namespace {

// Splits "Keyword value", "Keyword=value" and "Keyword = value" into keyword and value words.
QStringList splitConfigLine(const QString& line) {
  QString text = line.trimmed();
  if (text.isEmpty() || text.startsWith(QLatin1Char('#'))) return {};
  static const QRegularExpression keywordEnd(QStringLiteral("[\\s=]"));
  const qsizetype end = text.indexOf(keywordEnd);
  if (end < 0) return {text};
  QString value = text.mid(end).trimmed();
  if (value.startsWith(QLatin1Char('='))) value = value.mid(1).trimmed();
  QStringList words{text.left(end)};
  // Values may be quoted ("my host"); split on spaces outside quotes.
  QString word;
  bool quoted = false;
  for (const QChar c : value) {
    if (c == QLatin1Char('"')) {
      quoted = !quoted;
    } else if (c.isSpace() && !quoted) {
      if (!word.isEmpty()) words << word;
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.isEmpty()) words << word;
  return words;
}

void collect(const QString& file, QStringList& aliases, int depth) {
  if (depth > 8) return;  // Include loops
  QFile f(file);
  if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return;
  QTextStream in(&f);
  const QString sshDir = QDir::homePath() + QStringLiteral("/.ssh");
  while (!in.atEnd()) {
    const QStringList words = splitConfigLine(in.readLine());
    if (words.size() < 2) continue;
    const QString keyword = words.first().toLower();
    if (keyword == QLatin1String("host")) {
      for (const QString& name : words.mid(1)) {
        if (name.contains(QLatin1Char('*')) || name.contains(QLatin1Char('?')) || name.startsWith(QLatin1Char('!')))
          continue;
        if (!aliases.contains(name)) aliases << name;
      }
    } else if (keyword == QLatin1String("include")) {
      for (QString pattern : words.mid(1)) {
        if (pattern.startsWith(QLatin1String("~/"))) pattern = QDir::homePath() + pattern.mid(1);
        if (QFileInfo(pattern).isRelative()) pattern = sshDir + QLatin1Char('/') + pattern;
        const QFileInfo info(pattern);
        const QDir dir = info.dir();
        const QStringList matches = dir.entryList({info.fileName()}, QDir::Files, QDir::Name);
        for (const QString& m : matches) collect(dir.filePath(m), aliases, depth + 1);
      }
    }
  }
}

}  // namespace

QStringList sshConfigAliases(const QString& configFile) {
  QStringList aliases;
  collect(configFile, aliases, 0);
  return aliases;
}

QString defaultSshConfigFile() { return QDir::homePath() + QStringLiteral("/.ssh/config"); }

}  // namespace waitscope::launch
