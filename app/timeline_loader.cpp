#include "app/timeline_loader.h"

#include <QFileInfo>
#include <QtConcurrent>

#include "analysis/timeline/region_group.h"
#include "analysis/timeline/timeline_index_file.h"
#include "app/launch/remote_connect_dialog.h"
#include "app/remote_timeline.h"

namespace waitscope::app {

TimelineLoader::TimelineLoader(QObject* parent) : QObject(parent) {}

TimelineLoader::~TimelineLoader() {
  if (watcher_) watcher_->waitForFinished();
  delete question_.data();  // unanswered: nothing connects
}

QString TimelineLoader::tracePathOf(const views::ReportData& report) {
  const QString trace = QString::fromStdString(report.report().metaValue("trace"));
  if (trace.isEmpty() || QFileInfo(trace).isAbsolute()) return trace;
  return QFileInfo(report.path()).dir().filePath(trace);  // relative: beside the report
}

TimelineLoad TimelineLoader::loadNow(const views::ReportDataPtr& report) {
  TimelineLoad result;
  if (!report) return result;
  if (report->report().metaValue("format") == "cube") {
    result.error = QStringLiteral("%1: a Cube profile has no timeline (analyze the trace to get one)").arg(report->path());
    return result;
  }
  if (std::optional<launch::RemoteOrigin> origin = launch::readRemoteOrigin(report->path())) {
    result.callPathGroups = timeline::callPathGroups(report->report());
    result.error = QStringLiteral("%1: the trace is on %2; its timeline is shown in the app only (it asks %2 for slices)")
                       .arg(origin->trace, launch::recordedDestination(*origin));
    result.remote = std::move(origin);
    return result;
  }
  const QString trace = tracePathOf(*report);
  if (trace.isEmpty()) {
    result.error = QStringLiteral("%1 names no trace: the timeline needs the trace it was made from").arg(report->path());
    return result;
  }
  if (!QFileInfo::exists(trace)) {
    result.error = QStringLiteral("%1: trace not found on this machine; the timeline needs it (copy it back, "
                                  "or analyze on the cluster with File > Analyze Trace…)")
                       .arg(trace);
    return result;
  }
  try {
    timeline::OpenedIndex opened = timeline::openTimelineIndex(trace.toStdString(), report->path().toStdString(),
                                                               report->report(), [](const std::string&) {});
    result.source = std::make_shared<timeline::LocalSliceSource>(std::move(opened.index));
    result.warning = QString::fromStdString(opened.clockWarning);
  } catch (const std::exception& e) {
    result.error = QString::fromStdString(e.what());
  }
  return result;
}

std::optional<launch::ConnectionProfile> TimelineLoader::profileWithoutAsking(
    const launch::RemoteOrigin& origin, const QList<launch::ConnectionProfile>& profiles, QString* why) {
  const launch::ResolvedOrigin resolved = launch::resolveRemoteOrigin(origin, profiles);
  if (resolved.match == launch::ResolvedOrigin::Match::Known) return resolved.profile;
  if (why) {
    const QString name = origin.profileName.simplified().left(80);
    *why = resolved.match == launch::ResolvedOrigin::Match::HostDiffers
               ? QStringLiteral("the trace is on %1, but your connection profile \"%2\" now connects to %3; open the "
                                "report in the app to choose the profile to connect with")
                     .arg(launch::recordedDestination(origin).left(80), name,
                          launch::recordedDestination(launch::originOf(resolved.profile, {}, {})))
               : QStringLiteral("the trace is on %1, recorded by the connection profile \"%2\", which is not one of "
                                "yours; open the report in the app to choose the profile to connect with")
                     .arg(launch::recordedDestination(origin).left(80), name);
  }
  return std::nullopt;
}

void TimelineLoader::load(views::ReportDataPtr report) {
  if (watcher_) {
    disconnect(watcher_, nullptr, this, nullptr);
    watcher_->deleteLater();  // its result is no longer wanted
  }
  watcher_ = new QFutureWatcher<TimelineLoad>(this);
  QFutureWatcher<TimelineLoad>* watcher = watcher_;
  const std::uint64_t generation = ++generation_;
  if (question_) question_->reject();  // a question about the previous report is moot (and stale now)
  const QString localReport = report ? report->path() : QString();
  connect(watcher, &QFutureWatcher<TimelineLoad>::finished, this, [this, watcher, generation, localReport] {
    watcher->deleteLater();
    if (watcher == watcher_) watcher_ = nullptr;
    const TimelineLoad result = watcher->result();
    if (result.remote) return openRemote(localReport, *result.remote, result.callPathGroups, generation);
    if (result.source) {
      if (!result.warning.isEmpty()) emit warned(result.warning);
      emit loaded(result.source);
    } else {
      emit failed(result.error);
    }
  });
  watcher->setFuture(QtConcurrent::run([report] { return loadNow(report); }));
}

void TimelineLoader::openRemote(const QString& localReport, const launch::RemoteOrigin& origin,
                                std::vector<timeline::RegionGroup> callPathGroups, std::uint64_t generation) {
  if (!remoteAllowed_) {
    emit failed(QStringLiteral("%1: the trace is on %2; not connecting there (a command-line export connects only "
                               "with --view timeline --allow-remote-timeline)")
                    .arg(localReport, launch::recordedDestination(origin).left(80)));
    return;
  }
  const QList<launch::ConnectionProfile> profiles = store_.load();
  if (std::optional<launch::ConnectionProfile> profile = profileWithoutAsking(origin, profiles, nullptr))
    return connectWith(*profile, origin, std::move(callPathGroups), generation);

  // Not sure where the file points: the user decides, with one of their own profiles.
  auto* dialog = new launch::RemoteConnectDialog(origin, launch::resolveRemoteOrigin(origin, profiles), profiles,
                                                 qobject_cast<QWidget*>(parent()));
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  question_ = dialog;
  connect(dialog, &QDialog::finished, this,
          [this, dialog, localReport, origin, groups = std::move(callPathGroups), generation](int answer) {
            if (question_ == dialog) question_ = nullptr;
            if (generation != generation_) return;
            if (answer != QDialog::Accepted) {
              emit failed(QStringLiteral("%1: the trace is on %2; not connected (open the report again to choose a "
                                         "connection profile)")
                              .arg(localReport, launch::recordedDestination(origin).left(80)));
              return;
            }
            const launch::ConnectionProfile chosen = dialog->chosenProfile();
            // The answer is kept beside the report: the next opening uses the same profile without asking.
            const launch::RemoteOrigin remembered = launch::originOf(chosen, origin.trace, origin.report);
            if (!localReport.isEmpty()) launch::writeRemoteOrigin(localReport, remembered);
            connectWith(chosen, remembered, groups, generation);
          });
  dialog->open();
  emit questionAsked(dialog);
}

void TimelineLoader::connectWith(const launch::ConnectionProfile& profile, const launch::RemoteOrigin& origin,
                                 std::vector<timeline::RegionGroup> callPathGroups, std::uint64_t generation) {
  // Asynchronous over SSH; an answer for an older report is dropped.
  RemoteSliceSource::open(profile, origin, std::move(callPathGroups), this,
                          [this, generation](std::shared_ptr<RemoteSliceSource> source, const QString& error) {
                            if (generation != generation_) return;
                            if (source)
                              emit loaded(std::move(source));
                            else
                              emit failed(error);
                          });
}

}  // namespace waitscope::app
