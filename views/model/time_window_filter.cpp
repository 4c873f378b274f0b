#include "views/model/time_window_filter.h"

#include <mutex>
#include <utility>

#include <QtConcurrent/QtConcurrentRun>

#include "analysis/timeline/time_window_profile.h"

namespace waitscope::views {

namespace {

ReportDataPtr restricted(const ReportData& whole, const timeline::TimeWindowProfiler& profiler, double from,
                         double to) {
  timeline::TimeWindowProfile p = profiler.restrict(from, to);
  return std::make_shared<const ReportData>(std::move(p.report), whole.path(),
                                            TimeWindowRestriction{from, to, std::move(p.available)});
}

}  // namespace

// The profiler of one (report, index), made once by the first restriction that needs it.
struct TimeWindowFilter::Work {
  ReportDataPtr whole;
  std::shared_ptr<timeline::SliceSource> source;
  const timeline::TimelineIndex* index = nullptr;
  std::once_flag once;
  std::unique_ptr<timeline::TimeWindowProfiler> profiler;

  ReportDataPtr run(double from, double to) {
    std::call_once(once, [&] { profiler = std::make_unique<timeline::TimeWindowProfiler>(whole->report(), *index); });
    return restricted(*whole, *profiler, from, to);
  }
};

TimeWindowFilter::TimeWindowFilter(Selection* selection, QObject* parent) : QObject(parent), selection_(selection) {
  setObjectName(QStringLiteral("timeWindowFilter"));
  watcher_ = new QFutureWatcher<ReportDataPtr>(this);
  connect(selection_, &Selection::timeFilterChanged, this, &TimeWindowFilter::onFilterChanged);
  connect(selection_, &Selection::reportChanged, this, [this] {  // another report: its own timeline follows
    ++generation_;
    source_.reset();
    cache_.reset();
  });
  connect(watcher_, &QFutureWatcherBase::finished, this, [this] {
    if (watched_ != generation_ || !selection_->hasTimeFilter()) return;
    selection_->showRestricted(watcher_->result());
    emit applied();
  });
}

TimeWindowFilter::~TimeWindowFilter() { watcher_->waitForFinished(); }

void TimeWindowFilter::setSource(std::shared_ptr<timeline::SliceSource> source) {
  source_ = std::move(source);
  cache_.reset();
  if (selection_->hasTimeFilter()) onFilterChanged();
}

const timeline::TimelineIndex* TimeWindowFilter::index() const {
  const auto* local = dynamic_cast<const timeline::LocalSliceSource*>(source_.get());
  return local ? &local->index() : nullptr;
}

bool TimeWindowFilter::canFilter() const { return index() != nullptr && selection_->wholeReport() != nullptr; }

ReportDataPtr TimeWindowFilter::restrict(const ReportDataPtr& whole, const timeline::TimelineIndex& index,
                                         double from, double to) {
  if (!whole) return nullptr;
  const timeline::TimeWindowProfiler profiler(whole->report(), index);
  return restricted(*whole, profiler, from, to);
}

void TimeWindowFilter::onFilterChanged() {
  ++generation_;
  problem_.clear();
  if (!selection_->hasTimeFilter()) return;
  const ReportDataPtr whole = selection_->wholeReport();
  if (!canFilter() || whole->report().locations.size() != index()->locations.size()) {
    problem_ = tr("A time filter needs the report's timeline, from its trace on this computer; "
                  "the values shown are the whole run's.");
    emit failed(problem_);
    return;
  }
  if (!cache_ || cache_->whole != whole || cache_->source != source_) {
    cache_ = std::make_shared<Work>();
    cache_->whole = whole;
    cache_->source = source_;
    cache_->index = index();
  }
  std::shared_ptr<Work> work = cache_;
  const double from = selection_->filterStart(), to = selection_->filterEnd();
  watched_ = generation_;
  watcher_->setFuture(QtConcurrent::run([work, from, to] { return work->run(from, to); }));
}

bool TimeWindowFilter::applyNow() {
  if (!selection_->hasTimeFilter()) return false;
  onFilterChanged();
  if (!problem_.isEmpty()) return false;
  watcher_->waitForFinished();
  ++generation_;  // shown here; the watcher's own answer is the same and needs no second showing
  selection_->showRestricted(watcher_->result());
  emit applied();
  return true;
}

}  // namespace waitscope::views
