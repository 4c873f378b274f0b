#include "views/widgets/metric_description_pane.h"

#include <QFontMetrics>
#include <QStringList>

#include "analysis/metrics/pattern_advice.h"

namespace waitscope::views {
namespace {

QString html(const std::string& text) { return QString::fromStdString(text).toHtmlEscaped(); }

QString unitText(report::MetricUnit unit) {
  switch (unit) {
    case report::MetricUnit::Seconds: return QObject::tr("seconds");
    case report::MetricUnit::Occurrences: return QObject::tr("occurrences");
    case report::MetricUnit::Bytes: return QObject::tr("bytes");
  }
  return {};
}

QString nameOf(const report::Metric& m) { return html(m.displayName.empty() ? m.uniqueName : m.displayName); }

}  // namespace

MetricDescriptionPane::MetricDescriptionPane(QWidget* parent) : QTextBrowser(parent) {
  setObjectName(QStringLiteral("metricDescription"));
  setOpenLinks(false);
  describe(nullptr, {});
}

QSize MetricDescriptionPane::sizeHint() const {
  return {QTextBrowser::sizeHint().width(), fontMetrics().lineSpacing() * 5 + 2 * frameWidth()};
}

int MetricDescriptionPane::minimumUsefulHeight() const { return fontMetrics().lineSpacing() * 2 + 2 * frameWidth(); }

QSize MetricDescriptionPane::minimumSizeHint() const { return {QTextBrowser::minimumSizeHint().width(), 0}; }

QString MetricDescriptionPane::describeMetric(const report::Report& report, std::uint32_t metric) {
  if (metric >= report.metrics.size()) return {};
  const report::Metric& m = report.metrics[metric];
  QStringList path;
  for (std::uint32_t p = m.parent; p < report.metrics.size(); p = report.metrics[p].parent)
    path.prepend(nameOf(report.metrics[p]));
  QString out = QStringLiteral("<b>%1</b> <span style='color:gray'>(%2, %3)</span>")
                    .arg(nameOf(m), html(m.uniqueName), unitText(m.unit));
  if (!path.isEmpty())
    out += QStringLiteral("<br><span style='color:gray'>%1 &gt; %2</span>")
               .arg(path.join(QStringLiteral(" &gt; ")), nameOf(m));
  if (!m.description.empty()) out += QStringLiteral("<p>%1</p>").arg(html(m.description));
  const std::string_view advice = metrics::patternAdvice(m.uniqueName);
  if (!advice.empty())
    out += QObject::tr("<p><b>What to change:</b> %1</p>")
               .arg(QString::fromUtf8(advice.data(), static_cast<qsizetype>(advice.size())).toHtmlEscaped());
  return out;
}

void MetricDescriptionPane::describe(const ReportData* report, const TreePicks& metrics) {
  QStringList parts;
  if (report)
    for (const TreePick& pick : metrics) parts << describeMetric(report->report(), pick.node);
  if (parts.isEmpty()) {
    setHtml(tr("<span style='color:gray'>Select a metric to read what it measures and, for a wait state, "
               "what to change.</span>"));
    return;
  }
  setHtml(parts.join(QStringLiteral("<hr>")));
}

}  // namespace waitscope::views
