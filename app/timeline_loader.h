#pragma once
// Opens the timeline of a report: the index of (trace, report), loaded from
// beside the report when fresh, else built from the trace and saved there
// (analysis/timeline). Runs off the GUI thread; `loadNow` is the same work on
// the calling thread (command-line export, tests).
//
// A report copied back from a remote analysis (REPORT.remote.json beside it,
// launch/remote_origin.h) gets a RemoteSliceSource instead: its slices come
// from the machine where the trace is, over SSH (load() only: loadNow says so).
// That file only names a connection profile: what runs, and where, is the
// user's own profile of that name from the profile store. When there is no
// such profile, or it now connects to another host than the file records,
// load() asks first (launch::RemoteConnectDialog); with remote connections
// off (command-line exports) it never connects.
#include <memory>

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>

#include <optional>
#include <vector>

#include "analysis/timeline/timeline_query.h"
#include "app/launch/profile_store.h"
#include "app/launch/remote_connect_dialog.h"
#include "app/launch/remote_origin.h"
#include "views/model/report_data.h"

namespace waitscope::app {

struct TimelineLoad {
  std::shared_ptr<timeline::SliceSource> source;
  QString error;  // why there is no timeline: one line naming the file
  QString warning;  // the timeline shows recorded times though the report was corrected: one line naming the file
  std::optional<launch::RemoteOrigin> remote;           // the trace is there: load() opens a remote source
  std::vector<timeline::RegionGroup> callPathGroups;    // for the remote source
};

class TimelineLoader : public QObject {
  Q_OBJECT
 public:
  explicit TimelineLoader(QObject* parent = nullptr);
  ~TimelineLoader() override;

  void load(views::ReportDataPtr report);
  static TimelineLoad loadNow(const views::ReportDataPtr& report);
  // The trace a report was made from ("" when it names none).
  static QString tracePathOf(const views::ReportData& report);

  // Where the user's connection profiles are (default: the user's profile file).
  void setProfileStore(launch::ProfileStore store) { store_ = std::move(store); }
  // Off: a remote trace's timeline is never opened (no connection, no question).
  void setRemoteConnectionsAllowed(bool allowed) { remoteAllowed_ = allowed; }
  bool remoteConnectionsAllowed() const { return remoteAllowed_; }
  // The question shown now (nullptr when none): tests answer it.
  launch::RemoteConnectDialog* pendingQuestion() const { return question_; }

  // The user's profile for `origin` when it can be used without asking: a
  // profile of the name the origin gives that connects to the host it records.
  // Otherwise nullopt, and `why` says so in one line.
  static std::optional<launch::ConnectionProfile> profileWithoutAsking(const launch::RemoteOrigin& origin,
                                                                     const QList<launch::ConnectionProfile>& profiles,
                                                                     QString* why);

 signals:
  void loaded(std::shared_ptr<waitscope::timeline::SliceSource> source);
  // Before loaded: what the timeline shows differs from the analysis (TimelineLoad::warning).
  void warned(const QString& message);
  void failed(const QString& message);
  // load() shows `dialog` and waits for the answer (tests answer it).
  void questionAsked(waitscope::launch::RemoteConnectDialog* dialog);

 private:
  void openRemote(const QString& localReport, const launch::RemoteOrigin& origin,
                  std::vector<timeline::RegionGroup> callPathGroups, std::uint64_t generation);
  void connectWith(const launch::ConnectionProfile& profile, const launch::RemoteOrigin& origin,
                   std::vector<timeline::RegionGroup> callPathGroups, std::uint64_t generation);

  QFutureWatcher<TimelineLoad>* watcher_ = nullptr;
  std::uint64_t generation_ = 0;  // a newer load() makes older answers stale
  launch::ProfileStore store_;
  bool remoteAllowed_ = true;
  QPointer<launch::RemoteConnectDialog> question_;
};

}  // namespace waitscope::app
