#include "views/widgets/time_filter_bar.h"

#include <QHBoxLayout>

#include "views/model/number_format.h"

namespace waitscope::views {

TimeFilterBar::TimeFilterBar(Selection* selection, TimeWindowFilter* filter, QWidget* parent)
    : QWidget(parent),
      selection_(selection),
      filter_(filter),
      label_(new QLabel(this)),
      clear_(new QToolButton(this)),
      filterAction_(new QAction(tr("Filter to &Timeline Window"), this)),
      clearAction_(new QAction(tr("C&lear Time Filter"), this)) {
  setObjectName(QStringLiteral("timeFilterBar"));
  label_->setObjectName(QStringLiteral("timeFilterLabel"));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(label_);
  layout->addWidget(clear_);
  filterAction_->setShortcut(QKeySequence(tr("Ctrl+Shift+W")));
  filterAction_->setToolTip(tr("Show the values of the window the timeline shows, in every tree and chart"));
  clearAction_->setShortcut(QKeySequence(Qt::Key_Escape));
  clearAction_->setToolTip(tr("Show the whole run again (Esc)"));
  clear_->setDefaultAction(clearAction_);
  clear_->setText(tr("Clear"));
  clear_->setObjectName(QStringLiteral("timeFilterClear"));
  connect(filterAction_, &QAction::triggered, this, [this] {
    if (selection_->hasTimeWindow()) selection_->setTimeFilter(selection_->windowStart(), selection_->windowEnd());
  });
  connect(clearAction_, &QAction::triggered, selection_, &Selection::clearTimeFilter);
  // The filter hears timeFilterChanged first (it is made first) and says at once when it cannot apply it.
  connect(selection_, &Selection::timeFilterChanged, this, [this] {
    computing_ = selection_->hasTimeFilter() && filter_->problem().isEmpty();
    refresh();
  });
  connect(filter_, &TimeWindowFilter::applied, this, [this] {
    computing_ = false;
    refresh();
  });
  connect(filter_, &TimeWindowFilter::failed, this, [this] {
    computing_ = false;
    refresh();
  });
  for (auto changed : {&Selection::reportChanged, &Selection::reportUpdated, &Selection::comparisonChanged})
    connect(selection_, changed, this, &TimeFilterBar::refresh);
  connect(selection_, &Selection::timeWindowChanged, this, &TimeFilterBar::refresh);
  refresh();
}

void TimeFilterBar::refresh() {
  filterAction_->setEnabled(selection_->hasTimeWindow() && selection_->wholeReport() && !selection_->comparison());
  const bool on = selection_->hasTimeFilter();
  clearAction_->setEnabled(on);
  if (!on) {
    label_->clear();
    setVisible(false);
    return;
  }
  const QString window =
      tr("%1 – %2").arg(formatSeconds(selection_->filterStart()), formatSeconds(selection_->filterEnd()));
  if (!filter_->problem().isEmpty())
    label_->setText(tr("Time filter %1 not applied: %2").arg(window, filter_->problem()));
  else if (computing_ || !(selection_->report() && selection_->report()->timeWindow()))
    label_->setText(tr("Time filter %1 (computing…)").arg(window));
  else
    label_->setText(tr("Time filter %1: values of this window only").arg(window));
  label_->setToolTip(tr("The trees, charts and critical path show the window %1; metrics shown as "
                        "\"n/a\" cannot be restricted to it. Esc or Clear shows the whole run.")
                         .arg(window));
  setVisible(true);
}

}  // namespace waitscope::views
