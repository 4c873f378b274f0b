#include "views/timeline/timeline_tooltip.h"

#include <QCoreApplication>

#include "analysis/report/report_queries.h"
#include "views/timeline/timeline_colors.h"
#include "views/timeline/timeline_format.h"

namespace waitscope::views {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("Timeline", text); }

}  // namespace

QString describeHit(const TimelineHit& hit, const timeline::Slice& slice, const report::Report* report,
                    const TimelineStyle& style) {
  using Kind = TimelineHit::Kind;
  if (hit.kind == Kind::None || hit.kind == Kind::NodeHeader) return {};
  if (hit.kind == Kind::ParentLabel)
    return tr("%1: click to fold or unfold its threads and streams")
        .arg(hit.node < style.locationNames.size() ? style.locationNames[hit.node] : QString());
  const timeline::LocationSlice& ls = slice.locations[hit.slot];
  const auto locationName = [&](std::uint32_t l) {
    return l < style.locationNames.size() ? style.locationNames[l] : tr("location %1").arg(l);
  };
  const auto pathName = [&](std::uint32_t c) {
    return report && c < report->callPaths.size() ? QString::fromStdString(report::callPathString(*report, c))
                                                  : tr("(unknown call path)");
  };
  const auto metricName = [&](std::uint32_t m) {
    return report && m < report->metrics.size() ? QString::fromStdString(report->metrics[m].displayName)
                                                : tr("metric %1").arg(m);
  };
  switch (hit.kind) {
    case Kind::Region: {
      const timeline::RegionSpan& s = ls.regions[hit.index];
      QString text = tr("%1\n%2 on %3\nstart %4, duration %5")
                         .arg(s.callPath < style.callPathNames.size() ? style.callPathNames[s.callPath]
                                                                       : tr("(unknown region)"),
                              pathName(s.callPath), locationName(ls.location), formatTime(s.start),
                              formatTime(s.end - s.start));
      if (s.merged > 1) text += tr("\n(dominant region of %1 intervals in this pixel range)").arg(s.merged);
      return text;
    }
    case Kind::Message: {
      const timeline::Message& m = ls.messages[hit.index];
      QString text = tr("Message %1 → %2\n%3, tag %4\nsent %5, received %6 (%7)")
                         .arg(locationName(m.sender), locationName(m.receiver), formatBytes(m.bytes))
                         .arg(m.tag)
                         .arg(formatTime(m.start), formatTime(m.end), formatTime(m.end - m.start));
      if (m.count > 1) text += tr("\n(%1 messages in this pixel)").arg(m.count);
      return text;
    }
    case Kind::Transfer: {
      const timeline::Transfer& t = ls.transfers[hit.index];
      return tr("RMA %1 %2 → %3 on window %4\n%5\nissued %6, completed %7")
          .arg(QString::fromUtf8(timeline::name(t.kind).data(), qsizetype(timeline::name(t.kind).size())),
               locationName(t.origin), locationName(t.target))
          .arg(t.window)
          .arg(formatBytes(t.bytes), formatTime(t.start), formatTime(t.end));
    }
    case Kind::Epoch: {
      const timeline::Epoch& e = ls.epochs[hit.index];
      QString text = tr("%1 on window %2\n%3 to %4 (%5)")
                         .arg(epochLabel(e.kind))
                         .arg(e.window)
                         .arg(formatTime(e.start), formatTime(e.end), formatTime(e.end - e.start));
      if (e.kind == timeline::EpochKind::Lock)
        text += tr("\n%1 lock on %2").arg(e.lockType == 0 ? tr("exclusive") : tr("shared"), locationName(e.peer));
      return text;
    }
    case Kind::Instance: {
      const timeline::InstanceMark& i = ls.instances[hit.index];
      QString text = tr("%1 on %2\nin %3\nwaiting %4 (from %5)")
                         .arg(metricName(i.metric), locationName(ls.location), pathName(i.callPath),
                              formatTime(i.end - i.start), formatTime(i.start));
      if (i.cause != timeline::kNoId) text += tr("\ncaused by %1").arg(locationName(i.cause));
      if (i.count > 1) text += tr("\n(%1 instances in this pixel)").arg(i.count);
      return text;
    }
    case Kind::Path: {
      const timeline::PathMark& m = ls.path[hit.index];
      return tr("Critical path on %1\n%2 to %3 (%4)\nat its end in %5")
          .arg(locationName(ls.location), formatTime(m.start), formatTime(m.end), formatTime(m.end - m.start),
               pathName(m.callPath));
    }
    default:
      return {};
  }
}

}  // namespace waitscope::views
