#include "app/call_path_selector.h"

#include <algorithm>

#include <QRegularExpression>
#include <QStringList>

#include "views/model/report_data.h"

namespace waitscope::app {
namespace {

QString regionName(const report::Report& report, std::uint32_t callPath) {
  const std::uint32_t region = report.callPaths[callPath].region;
  return region < report.regions.size() ? QString::fromStdString(report.regions[region].name) : QStringLiteral("?");
}

// One component of a path: a region name and, after '@', an optional call site.
struct Component {
  QString name;
  QString file;       // empty: any site
  std::uint32_t line = 0;  // 0: any line
};

Component parseComponent(const QString& text) {
  Component c;
  const qsizetype at = text.lastIndexOf(QLatin1Char('@'));
  if (at < 0) {
    c.name = text;
    return c;
  }
  c.name = text.left(at);
  c.file = text.mid(at + 1);
  const qsizetype colon = c.file.lastIndexOf(QLatin1Char(':'));
  bool isLine = false;
  const uint line = colon < 0 ? 0 : c.file.mid(colon + 1).toUInt(&isLine);
  if (isLine) {
    c.line = line;
    c.file.truncate(colon);
  }
  return c;
}

bool matches(const report::Report& report, std::uint32_t callPath, const Component& c) {
  if (regionName(report, callPath) != c.name) return false;
  if (c.file.isEmpty()) return true;
  const report::CallPath& p = report.callPaths[callPath];
  const QString recorded = QString::fromStdString(p.callSiteFile);
  const bool fileMatches = recorded == c.file || recorded.endsWith(QLatin1Char('/') + c.file);
  return fileMatches && (c.line == 0 || c.line == p.callSiteLine);
}

const QRegularExpression kEndsInLine(QStringLiteral(":[0-9]+$"));

bool nameSharedWithSibling(const report::Report& report, std::uint32_t callPath) {
  const std::uint32_t parent = report.callPaths[callPath].parent;
  const QString name = regionName(report, callPath);
  for (std::uint32_t c = 0; c < report.callPaths.size(); ++c)
    if (c != callPath && report.callPaths[c].parent == parent && regionName(report, c) == name) return true;
  return false;
}

}  // namespace

QString callPathSpec(const report::Report& report, std::uint32_t callPath) {
  QStringList parts;
  for (std::uint32_t c = callPath; c != report::kNoId && c < report.callPaths.size(); c = report.callPaths[c].parent) {
    QString part = regionName(report, c);
    const QString site = views::callSiteLabel(report.callPaths[c]);
    if (!site.isEmpty() && nameSharedWithSibling(report, c)) part += QLatin1Char('@') + site;
    parts.prepend(part);
    if (parts.size() > static_cast<qsizetype>(report.callPaths.size())) break;  // a cycle: stop
  }
  return parts.join(QLatin1Char('/'));
}

std::optional<std::uint32_t> findCallPath(const report::Report& report, const QString& path, QString* error) {
  // '/' separates components, but also folders in a call site: after an '@', pieces belong to
  // the site up to the one that ends in ":LINE" (a site without a line has no folders).
  const QStringList pieces = path.split(QLatin1Char('/'));
  QStringList texts;
  for (qsizetype i = 0; i < pieces.size(); ++i) {
    QString text = pieces[i];
    if (text.contains(QLatin1Char('@'))) {
      qsizetype end = i;
      while (end < pieces.size() && !kEndsInLine.match(pieces[end]).hasMatch()) ++end;
      if (end < pieces.size()) {
        for (qsizetype k = i + 1; k <= end; ++k) text += QLatin1Char('/') + pieces[k];
        i = end;
      }
    }
    texts << text;
  }
  std::vector<Component> components;
  for (const QString& t : texts) components.push_back(parseComponent(t));
  // Call paths whose chain from the root matches the components so far, one level at a time.
  std::vector<std::uint32_t> found;
  for (std::uint32_t c = 0; c < report.callPaths.size(); ++c)
    if (report.callPaths[c].parent == report::kNoId && matches(report, c, components.front())) found.push_back(c);
  for (std::size_t level = 1; level < components.size() && !found.empty(); ++level) {
    std::vector<std::uint32_t> next;
    for (std::uint32_t c = 0; c < report.callPaths.size(); ++c) {
      const std::uint32_t parent = report.callPaths[c].parent;
      if (parent == report::kNoId || !matches(report, c, components[level])) continue;
      if (std::find(found.begin(), found.end(), parent) != found.end()) next.push_back(c);
    }
    found = std::move(next);
  }
  if (found.size() == 1) return found.front();
  if (found.empty()) {
    *error = QStringLiteral("no call path '%1' (write it as main/foo/MPI_Recv, with a call site as "
                            "main/MPI_Win_fence@fence.c:42)")
                 .arg(path);
  } else {
    QStringList candidates;
    for (const std::uint32_t c : found) candidates << callPathSpec(report, c);
    *error = QStringLiteral("call path '%1' is ambiguous: %2").arg(path, candidates.join(QStringLiteral(", ")));
  }
  return std::nullopt;
}

}  // namespace waitscope::app
