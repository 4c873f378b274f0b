#include "analysis/report/source_location.h"

#include <algorithm>
#include <map>

#include "analysis/report/report_queries.h"

namespace waitscope::report {

SourcePosition sourcePosition(const Report& report, std::uint32_t callPath) {
  for (std::uint32_t p = callPath, steps = 0; p != kNoId && p < report.callPaths.size() &&
                                              steps <= report.callPaths.size();
       p = report.callPaths[p].parent, ++steps) {
    const CallPath& c = report.callPaths[p];
    if (!c.callSiteFile.empty()) return {c.callSiteFile, c.callSiteLine};
    if (c.region >= report.regions.size()) continue;
    const Region& r = report.regions[c.region];
    if (!r.file.empty() && r.beginLine > 0) return {r.file, r.beginLine};
  }
  return {};
}

std::optional<SourceRoot> parseSourceRoot(std::string_view text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) return std::nullopt;
  return SourceRoot{std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

std::string mapSourceRoot(const std::vector<SourceRoot>& roots, const std::string& file) {
  const SourceRoot* best = nullptr;
  for (const SourceRoot& root : roots) {
    std::string_view from = root.from;
    while (from.size() > 1 && from.back() == '/') from.remove_suffix(1);
    const bool matches = file.starts_with(from) &&
                         (file.size() == from.size() || file[from.size()] == '/' || from.back() == '/');
    if (matches && (best == nullptr || root.from.size() > best->from.size())) best = &root;
  }
  if (best == nullptr) return file;
  std::string_view from = best->from;
  while (from.size() > 1 && from.back() == '/') from.remove_suffix(1);
  std::string rest = file.substr(from.size());
  std::string to = best->to;
  // An empty TO makes the path relative (for SARIF uploads that want paths relative to the repository).
  if (to.empty()) return rest.starts_with('/') ? rest.substr(1) : rest;
  // Exactly one separator between the new root and the rest.
  if (!to.empty() && to.back() == '/' && !rest.empty() && rest.front() == '/') rest.erase(0, 1);
  if (!to.empty() && to.back() != '/' && !rest.empty() && rest.front() != '/') to += '/';
  return to + rest;
}

namespace {

std::vector<std::string> components(const std::string& path) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  while (begin <= path.size()) {
    const std::size_t end = std::min(path.find('/', begin), path.size());
    if (end > begin) out.push_back(path.substr(begin, end - begin));
    begin = end + 1;
  }
  return out;
}

std::string joined(const std::vector<std::string>& parts, std::size_t count, bool absolute) {
  std::string out = absolute ? "/" : "";
  for (std::size_t i = 0; i < count; ++i) out += (i ? "/" : "") + parts[i];
  return out;
}

}  // namespace

std::optional<SourceRoot> sourceRootFor(const std::string& recorded, const std::string& found) {
  const std::vector<std::string> r = components(recorded), f = components(found);
  std::size_t shared = 0;
  while (shared < r.size() && shared < f.size() && r[r.size() - 1 - shared] == f[f.size() - 1 - shared]) ++shared;
  const bool absolute = recorded.starts_with('/');
  if (!absolute && shared == r.size()) --shared;  // FROM needs a component to match relative paths
  if (shared == 0 || (!absolute && shared >= r.size())) return std::nullopt;
  return SourceRoot{joined(r, r.size() - shared, absolute), joined(f, f.size() - shared, found.starts_with('/'))};
}

std::vector<std::pair<std::uint32_t, double>> valuesByLine(const Report& report, std::uint32_t metric,
                                                          const std::string& file) {
  const std::vector<double> values = valuesByCallPath(report, metric);
  std::map<std::uint32_t, double> byLine;
  for (std::uint32_t c = 0; c < report.callPaths.size(); ++c) {
    const SourcePosition where = sourcePosition(report, c);
    if (where.file == file && where.line > 0) byLine[where.line] += values[c];
  }
  return {byLine.begin(), byLine.end()};
}

}  // namespace waitscope::report
