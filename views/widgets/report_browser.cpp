#include "views/widgets/report_browser.h"

#include <algorithm>

#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

#include "analysis/report/report_queries.h"
#include "views/model/selection.h"
#include "views/model/tree_matching.h"
#include "views/model/value_tree_model.h"
#include "views/widgets/chart_pane.h"
#include "views/widgets/metric_description_pane.h"
#include "views/widgets/tree_pane.h"

namespace waitscope::views {
namespace {

double sum(const std::vector<double>& values) {
  double s = 0.0;
  for (const double v : values) s += v;
  return s;
}

QString namesOf(const ValueTree& tree, const TreePicks& picks) {
  QStringList names;
  for (const TreePick& p : picks)
    if (p.node < tree.size()) names << tree.names[p.node];
  return names.join(QStringLiteral(" + "));
}

std::vector<std::uint32_t> nodesOf(const TreePicks& picks) {
  std::vector<std::uint32_t> nodes;
  for (const TreePick& p : picks) nodes.push_back(p.node);
  return nodes;
}

std::vector<std::uint32_t> sorted(std::vector<std::uint32_t> nodes) {
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

}  // namespace

ReportBrowser::ReportBrowser(Selection* selection, QWidget* parent)
    : QWidget(parent),
      selection_(selection),
      metricModel_(new ValueTreeModel(tr("Metric"), this)),
      callModel_(new ValueTreeModel(tr("Call path"), this)),
      regionModel_(new ValueTreeModel(tr("Region (flat profile)"), this)),
      systemModel_(new ValueTreeModel(tr("System"), this)),
      metricPane_(new TreePane(this)),
      callPane_(new TreePane(this)),
      systemPane_(new TreePane(this)),
      activePane_(metricPane_),
      chartPane_(new ChartPane(this)),
      descriptionPane_(new MetricDescriptionPane(this)),
      metricSplitter_(new QSplitter(Qt::Vertical, this)),
      treeSplitter_(new QSplitter(Qt::Horizontal, this)),
      chartSplitter_(new QSplitter(Qt::Vertical, this)),
      compareBar_(new QWidget(this)),
      compareTitle_(new QLabel(compareBar_)),
      compareSelector_(new QComboBox(compareBar_)),
      compareNotice_(new QLabel(compareBar_)) {
  metricPane_->setObjectName(QStringLiteral("metricPane"));
  callPane_->setObjectName(QStringLiteral("callPane"));
  systemPane_->setObjectName(QStringLiteral("systemPane"));
  metricPane_->setModel(metricModel_);
  callPane_->setModel(callModel_);
  systemPane_->setModel(systemModel_);
  for (TreePane* pane : {metricPane_, callPane_, systemPane_}) pane->setCsvCaption([this] { return csvCaption(); });
  metricSplitter_->setObjectName(QStringLiteral("metricSplitter"));
  metricSplitter_->addWidget(metricPane_);
  metricSplitter_->addWidget(descriptionPane_);
  metricSplitter_->setStretchFactor(0, 1);
  metricSplitter_->setStretchFactor(1, 0);
  metricSplitter_->setCollapsible(0, false);
  metricSplitter_->setCollapsible(1, true);
  metricSplitter_->installEventFilter(this);
  connect(metricSplitter_, &QSplitter::splitterMoved, this, [this] { descriptionSized_ = true; });
  treeSplitter_->addWidget(metricSplitter_);
  treeSplitter_->addWidget(callPane_);
  treeSplitter_->addWidget(systemPane_);
  chartSplitter_->addWidget(treeSplitter_);
  chartSplitter_->addWidget(chartPane_);
  chartSplitter_->setStretchFactor(0, 3);
  chartSplitter_->setStretchFactor(1, 1);
  chartSplitter_->setSizes({540, 260});
  chartSplitter_->setChildrenCollapsible(false);  // the charts keep their readable minimum
  compareBar_->setObjectName(QStringLiteral("compareBar"));
  compareSelector_->setObjectName(QStringLiteral("compareSelector"));
  compareNotice_->setObjectName(QStringLiteral("compareNotice"));
  for (const CompareView view : kCompareViews) compareSelector_->addItem(compareViewName(view), static_cast<int>(view));
  compareSelector_->setToolTip(tr("The run the trees' colour boxes, sorting and the charts show"));
  compareTitle_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  compareNotice_->setStyleSheet(QStringLiteral("color: #a05000;"));
  auto* compareLayout = new QHBoxLayout(compareBar_);
  compareLayout->setContentsMargins(4, 2, 4, 2);
  compareSelector_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  compareLayout->addWidget(compareTitle_);
  compareLayout->addSpacing(12);
  compareLayout->addWidget(new QLabel(tr("Show:"), compareBar_));
  compareLayout->addWidget(compareSelector_);
  compareLayout->addSpacing(12);
  compareLayout->addWidget(compareNotice_);
  compareLayout->addStretch(1);
  compareBar_->hide();
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(compareBar_);
  layout->addWidget(chartSplitter_);
  connect(compareSelector_, &QComboBox::activated, this, [this](int index) {
    selection_->setCompareView(static_cast<CompareView>(compareSelector_->itemData(index).toInt()));
  });
  connect(selection_, &Selection::compareViewChanged, this, [this] {
    compareSelector_->setCurrentIndex(compareSelector_->findData(static_cast<int>(selection_->compareView())));
  });

  for (TreePane* pane : {metricPane_, callPane_, systemPane_})
    connect(pane, &TreePane::focused, this, [this, pane] { activePane_ = pane; });
  // Context menus: from a region of the flat profile, or from the system tree, to the call tree.
  callPane_->setContextMenuExtension([this](QMenu* menu, std::uint32_t node) {
    if (!flatProfile()) return;
    menu->addAction(tr("Find in Call Tree"), this, [this, node] { showInCallTree(callPathsOfRegions({node})); });
  });
  systemPane_->setContextMenuExtension([this](QMenu* menu, std::uint32_t) {
    const std::vector<std::uint32_t> callPaths = shownCallPaths();
    menu->addAction(tr("Find Call Path in Call Tree"), this, [this, callPaths] { showInCallTree(callPaths); })
        ->setEnabled(!callPaths.empty());
  });

  // Views write their picks into the selection ...
  for (TreePane* pane : {metricPane_, callPane_, systemPane_})
    connect(pane, &TreePane::picksChanged, this, [this, pane] { writePicks(pane); });
  // ... and follow it.
  connect(selection_, &Selection::reportChanged, this, &ReportBrowser::onReport);
  connect(selection_, &Selection::reportUpdated, this, &ReportBrowser::onReportUpdated);
  connect(selection_, &Selection::metricsChanged, this, &ReportBrowser::onMetrics);
  connect(selection_, &Selection::callPathsChanged, this, &ReportBrowser::onCallPaths);
  connect(selection_, &Selection::systemItemsChanged, this, [this] { showPicks(systemPane_, selection_->systemItems()); });
  connect(selection_, &Selection::modeChanged, this, &ReportBrowser::onMode);
  connect(selection_, &Selection::thresholdChanged, this, [this] {
    for (TreePane* pane : {metricPane_, callPane_, systemPane_}) pane->setThreshold(selection_->threshold());
  });
  onReport();
}

bool ReportBrowser::eventFilter(QObject* watched, QEvent* event) {
  if (watched == metricSplitter_ && event->type() == QEvent::Resize && !descriptionSized_) fitDescription();
  return QWidget::eventFilter(watched, event);
}

void ReportBrowser::fitDescription() {
  const int total = metricSplitter_->height() - metricSplitter_->handleWidth();
  int description = std::min(descriptionPane_->sizeHint().height(), total - metricPane_->heightForRows(kTreeRows));
  if (description < descriptionPane_->minimumUsefulHeight()) description = 0;
  metricSplitter_->setSizes({total - description, description});
}

void ReportBrowser::writePicks(TreePane* pane) {
  if (pane == metricPane_)
    selection_->setMetrics(pane->picks());
  else if (pane == callPane_)
    selection_->setCallPaths(pane->picks(), pane->model() == regionModel_);
  else
    selection_->setSystemItems(pane->picks());
}

void ReportBrowser::showPicks(TreePane* pane, const TreePicks& wanted) {
  if (pane->picks() == wanted) return;
  const std::vector<std::uint32_t> nodes = nodesOf(wanted);
  if (sorted(nodesOf(pane->picks())) != sorted(nodes)) pane->selectNodes(nodes);
  writePicks(pane);
}

ReportBrowser::Filled ReportBrowser::picked(const ReportData& run, const TreePicks& metricPicks,
                                            std::vector<double> exclusive) {
  ValueTreeModel::References references;
  references.total = run.rootTotal(metricPicks);
  references.selection = sum(exclusive);
  return Filled{std::move(exclusive), references};
}

void ReportBrowser::fill(ValueTreeModel* model, const std::function<Filled(const ReportData&)>& valuesOf,
                         report::MetricUnit unit) {
  const ComparisonDataPtr& comparison = selection_->comparison();
  if (!comparison) {
    Filled filled = valuesOf(*selection_->report());
    model->setValues(std::move(filled.exclusive), filled.references, unit);
    return;
  }
  for (const CompareView run : kCompareViews) {
    Filled filled = valuesOf(*comparison->run(run));
    model->setRunValues(run, std::move(filled.exclusive), filled.references, unit);
  }
}

void ReportBrowser::updateCompareBar() {
  const ComparisonDataPtr& comparison = selection_->comparison();
  compareBar_->setVisible(comparison != nullptr);
  if (!comparison) return;
  const QString a = QFileInfo(comparison->pathA()).fileName(), b = QFileInfo(comparison->pathB()).fileName();
  compareTitle_->setText(tr("Comparing <b>A</b> %1 with <b>B</b> %2").arg(a.toHtmlEscaped(), b.toHtmlEscaped()));
  compareTitle_->setToolTip(tr("A: %1\nB: %2").arg(comparison->pathA(), comparison->pathB()));
  compareSelector_->setCurrentIndex(compareSelector_->findData(static_cast<int>(selection_->compareView())));
  compareNotice_->setText(comparison->sameRanks()
                              ? QString()
                              : tr("%1 ranks against %2: per-rank values are not compared (all ranks summed).")
                                    .arg(comparison->ranksA())
                                    .arg(comparison->ranksB()));
  compareNotice_->setVisible(!comparison->sameRanks());
}

void ReportBrowser::onReport() {
  const ReportDataPtr& current = selection_->report();
  const ComparisonDataPtr& comparison = selection_->comparison();
  metricModel_->setTree(current ? &current->metricTree() : nullptr);
  callModel_->setTree(current ? &current->callTree() : nullptr);
  regionModel_->setTree(current ? &current->regionTree() : nullptr);
  systemModel_->setTree(current ? &current->systemTree() : nullptr);
  for (ValueTreeModel* model : {metricModel_, callModel_, regionModel_, systemModel_}) {
    model->setCompared(comparison != nullptr);
    model->setShownRun(selection_->compareView());
    if (comparison) model->setRunFiles(comparison->pathA(), comparison->pathB());
  }
  if (comparison) {
    callModel_->setPresence(comparison->callPathPresence());
    regionModel_->setPresence(comparison->regionPresence());
  }
  updateCompareBar();
  onMode();
  if (!current) {
    chartPane_->setValues({}, {}, {}, {});
    return;
  }
  // The metric tree keeps kTreeRows rows: in a low window the docks below give way.
  metricPane_->setMinimumHeight(metricPane_->heightForRows(kTreeRows));
  std::vector<report::MetricUnit> units;
  for (const report::Metric& m : current->report().metrics) units.push_back(m.unit);
  metricModel_->setNodeUnits(std::move(units));
  fillMetrics();
  // Start like Cube: the first metric root (time) and the whole program.
  if (!current->metricTree().roots.empty()) metricPane_->selectNode(current->metricTree().roots.front());
  if (!current->callTree().roots.empty()) callPane_->selectNode(current->callTree().roots.front());
  // Machines and nodes are few: show every location.
  const ValueTree& system = current->systemTree();
  for (std::uint32_t n = 0; n < system.size(); ++n)
    if (!system.children[n].empty()) systemPane_->expandNode(n, true);
}

void ReportBrowser::updateReport(ReportDataPtr next) {
  const ReportDataPtr previous = selection_->report();
  if (!previous || !next) return selection_->setReport(std::move(next));
  if (sameShape(previous->metricTree(), next->metricTree()) && sameShape(previous->callTree(), next->callTree()) &&
      sameShape(previous->regionTree(), next->regionTree()) && sameShape(previous->systemTree(), next->systemTree())) {
    // Same items under the same numbers: no model reset, the views keep everything.
    metricModel_->swapTree(&next->metricTree());
    callModel_->swapTree(&next->callTree());
    regionModel_->swapTree(&next->regionTree());
    systemModel_->swapTree(&next->systemTree());
    selection_->updateReport(std::move(next));
    return;
  }
  // Items came or went: remember what each pane shows by name path, rebuild, put it back.
  const bool flat = flatProfile();
  const TreePane::ViewState metrics = metricPane_->saveState();
  const TreePane::ViewState calls = callPane_->saveState();
  const TreePane::ViewState system = systemPane_->saveState();
  selection_->setReport(next);
  metricPane_->restoreState(metrics, matchNodes(previous->metricTree(), next->metricTree()));
  callPane_->restoreState(calls, flat ? matchNodes(previous->regionTree(), next->regionTree())
                                      : matchNodes(previous->callTree(), next->callTree()));
  systemPane_->restoreState(system, matchNodes(previous->systemTree(), next->systemTree()));
}

void ReportBrowser::fillMetrics() {
  fill(metricModel_, [](const ReportData& run) {
    ValueTreeModel::References references;
    references.totalPerRoot = true;
    return Filled{run.metricExclusive(), references};
  }, report::MetricUnit::Seconds);
  markUnavailable();
}

bool ReportBrowser::pickedUnavailable() const {
  const ReportDataPtr& current = selection_->report();
  if (!current) return false;
  return std::any_of(selection_->metrics().begin(), selection_->metrics().end(),
                     [&](const TreePick& pick) { return !current->metricAvailable(pick.node); });
}

void ReportBrowser::markUnavailable() {
  const ReportDataPtr& current = selection_->report();
  const QString reason = tr("Not available in this time window: this metric cannot be restricted to part of "
                            "the run (docs/time-window.md says which can). Esc or Clear shows the whole run's value.");
  std::vector<char> metrics;
  if (current && current->timeWindow())
    for (std::uint32_t m = 0; m < current->report().metrics.size(); ++m) metrics.push_back(!current->metricAvailable(m));
  metricModel_->setUnavailable(std::move(metrics), reason);
  const bool picked = pickedUnavailable();
  for (ValueTreeModel* model : {callModel_, regionModel_, systemModel_}) {
    const std::size_t nodes = model->tree() ? model->tree()->size() : 0;
    model->setUnavailable(picked ? std::vector<char>(nodes, 1) : std::vector<char>{}, reason);
  }
}

void ReportBrowser::onReportUpdated() {
  // The same shapes: a live run's next snapshot (already swapped in) or another run of a comparison.
  const ReportDataPtr& current = selection_->report();
  metricModel_->swapTree(&current->metricTree());
  callModel_->swapTree(&current->callTree());
  regionModel_->swapTree(&current->regionTree());
  systemModel_->swapTree(&current->systemTree());
  for (ValueTreeModel* model : {metricModel_, callModel_, regionModel_, systemModel_})
    model->setShownRun(selection_->compareView());
  fillMetrics();
  metricPane_->refresh();
  onMetrics();  // the call tree, the system tree and the charts
}

void ReportBrowser::onMetrics() {
  showPicks(metricPane_, selection_->metrics());
  const ReportDataPtr& current = selection_->report();
  descriptionPane_->describe(current.get(), selection_->metrics());
  if (!current) return;
  const std::vector<char> metrics = selection_->metricMask();
  const TreePicks& picks = selection_->metrics();
  const report::MetricUnit unit = current->unit(picks);
  fill(callModel_, [&](const ReportData& run) { return picked(run, picks, run.callPathValues(metrics)); }, unit);
  fill(regionModel_, [&](const ReportData& run) { return picked(run, picks, run.regionValues(metrics)); }, unit);
  markUnavailable();
  callPane_->refresh();
  onCallPaths();
}

void ReportBrowser::onCallPaths() {
  const ReportDataPtr& current = selection_->report();
  if (!current) return;
  // Picks written elsewhere (the timeline, the critical-path pane): show them in the middle pane.
  const TreePicks wanted = selection_->callPaths();
  if (flatProfile() != selection_->flatProfile()) switchMiddleTree(selection_->flatProfile());
  showPicks(callPane_, wanted);
  const std::vector<char> metrics = selection_->metricMask(), callPaths = selection_->callPathMask();
  const TreePicks& picks = selection_->metrics();
  fill(systemModel_, [&](const ReportData& run) {
    // The system tree's machines and nodes hold zeros: its sum is the locations' sum.
    return picked(run, picks, run.systemValues(run.locationValues(metrics, callPaths)));
  }, current->unit(picks));
  systemPane_->refresh();
  updateCharts(current->locationValues(metrics, callPaths));
}

void ReportBrowser::onMode() {
  for (ValueTreeModel* model : {metricModel_, callModel_, regionModel_, systemModel_}) model->setMode(selection_->mode());
}

void ReportBrowser::updateCharts(std::vector<double> values) {
  const ReportDataPtr& current = selection_->report();
  const ComparisonDataPtr& comparison = selection_->comparison();
  QStringList labels;
  for (const report::Location& l : current->report().locations)
    labels << (comparison && !comparison->sameRanks() ? QString::fromStdString(l.name) : QString::number(l.rank));
  const ValueTree& calls = selection_->flatProfile() ? current->regionTree() : current->callTree();
  const QString metrics = namesOf(current->metricTree(), selection_->metrics());
  const QString callPaths = namesOf(calls, selection_->callPaths());
  QString title = metrics.isEmpty()     ? tr("No metric selected")
                  : callPaths.isEmpty() ? tr("%1 (select a call path)").arg(metrics)
                                        : tr("%1 in %2").arg(metrics, callPaths);
  if (comparison) title += QStringLiteral(" — ") + compareViewName(selection_->compareView());
  if (pickedUnavailable()) title += tr(" (n/a in this time window)");
  chartPane_->setValues(std::move(values), labels, title, current->unit(selection_->metrics()));
}

QString ReportBrowser::csvCaption() const {
  const ReportDataPtr& current = selection_->report();
  if (!current) return {};
  const ValueTree& calls = selection_->flatProfile() ? current->regionTree() : current->callTree();
  const report::MetricUnit unit = current->unit(selection_->metrics());
  const QString unitText = selection_->mode() != ValueMode::Absolute ? QStringLiteral("%")
                           : unit == report::MetricUnit::Seconds    ? tr("seconds")
                           : unit == report::MetricUnit::Bytes      ? tr("bytes")
                                                                    : tr("occurrences");
  const QString callPaths = namesOf(calls, selection_->callPaths());
  return tr("metric: %1 (%2); call path: %3; values: %4")
      .arg(namesOf(current->metricTree(), selection_->metrics()), unitText,
           callPaths.isEmpty() ? tr("none") : callPaths, modeName(selection_->mode()));
}

void ReportBrowser::switchMiddleTree(bool flat) {
  // The flat list's sorting and filter apply to the regions only (a large call tree is not
  // sorted on the way).
  if (flat) {
    callPane_->setModel(regionModel_);
    callPane_->setFlatList(true);
  } else {
    callPane_->setFlatList(false);
    callPane_->setModel(callModel_);
  }
  emit flatProfileChanged(flat);
}

void ReportBrowser::setFlatProfile(bool flat) {
  if (flat == flatProfile()) return;
  const std::vector<std::uint32_t> picked = nodesOf(callPane_->picks());
  const std::vector<std::uint32_t> keep = flat ? regionsOfCallPaths(picked) : callPathsOfRegions(picked);
  switchMiddleTree(flat);
  if (!keep.empty()) callPane_->selectNodes(keep);
}

void ReportBrowser::showInCallTree(const std::vector<std::uint32_t>& callPaths) {
  if (callPaths.empty()) return;
  switchMiddleTree(false);
  callPane_->selectNodes(callPaths);
  callPane_->view()->setFocus();
}

std::vector<std::uint32_t> ReportBrowser::callPathsOfRegions(const std::vector<std::uint32_t>& regions) const {
  std::vector<std::uint32_t> out;
  const ReportDataPtr& current = selection_->report();
  if (!current) return out;
  const auto& callPaths = current->report().callPaths;
  for (std::uint32_t c = 0; c < callPaths.size(); ++c)
    if (std::find(regions.begin(), regions.end(), callPaths[c].region) != regions.end()) out.push_back(c);
  return out;
}

std::vector<std::uint32_t> ReportBrowser::regionsOfCallPaths(const std::vector<std::uint32_t>& callPaths) const {
  std::vector<std::uint32_t> out;
  const ReportDataPtr& current = selection_->report();
  if (!current) return out;
  for (const std::uint32_t c : callPaths)
    if (c < current->report().callPaths.size()) out.push_back(current->report().callPaths[c].region);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::uint32_t> ReportBrowser::shownCallPaths() const {
  const std::vector<std::uint32_t> picked = nodesOf(selection_->callPaths());
  return selection_->flatProfile() ? callPathsOfRegions(picked) : picked;
}

bool ReportBrowser::flatProfile() const { return callPane_->model() == regionModel_; }

bool ReportBrowser::selectMetric(const QString& uniqueName) {
  const ReportDataPtr& current = selection_->report();
  if (!current) return false;
  const std::uint32_t m = current->report().findMetric(uniqueName.toStdString());
  if (m == report::kNoId) return false;
  metricPane_->selectNode(m);
  return true;
}

bool ReportBrowser::selectCallPath(const QString& path) {
  const ReportDataPtr& current = selection_->report();
  if (!current) return false;
  switchMiddleTree(false);
  const std::string wanted = path.toStdString();
  for (std::uint32_t c = 0; c < current->report().callPaths.size(); ++c) {
    if (report::callPathString(current->report(), c) == wanted) {
      callPane_->selectNode(c);
      return true;
    }
  }
  return false;
}

}  // namespace waitscope::views
