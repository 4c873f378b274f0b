#pragma once
// The timeline of a report whose trace stays on another machine (a remote
// analysis from File > Analyze Trace…): its slices come from
// `waitscope-report timeline TRACE REPORT --from T0 --to T1 --width W
// --locations A-B --binary` run there over the profile's SSH connection
// (launch::runReportTool), never a copy of the trace.
//
// RemoteSliceSource is an AsyncSliceSource: painting never waits for the
// network; it caches the last slices, runs one request at a time and keeps only
// the latest waiting one, and a failure becomes one line naming the host and
// what to do.
//
// Where the trace is: launch::RemoteOrigin, written beside the copied-back
// report by the analysis runner; the timeline loader reads it and picks the
// user's own connection profile for it (the origin only names one).
#include <functional>
#include <memory>
#include <vector>

#include <QObject>
#include <QString>

#include "analysis/timeline/async_slice_source.h"
#include "app/launch/connection_profile.h"
#include "app/launch/remote_origin.h"

namespace waitscope::app {

using launch::ConnectionProfile;
using launch::RemoteOrigin;

class RemoteSliceSource final : public QObject, public timeline::AsyncSliceSource {
 public:
  using Opened = std::function<void(std::shared_ptr<RemoteSliceSource> source, const QString& error)>;
  // Asks `profile`'s machine (one of the user's own profiles) for the trace's
  // time range and locations (the first time, the remote builds the index: up
  // to `openTimeoutMs`) and calls `done` in `context`'s thread with the source,
  // or with a one-line error.
  static void open(const ConnectionProfile& profile, const RemoteOrigin& origin,
                   std::vector<timeline::RegionGroup> callPathGroups, QObject* context, Opened done,
                   int openTimeoutMs = 30 * 60 * 1000);
  // The same, waiting for the answer in a local event loop (command-line exports).
  static std::shared_ptr<RemoteSliceSource> openNow(const ConnectionProfile& profile, const RemoteOrigin& origin,
                                                    std::vector<timeline::RegionGroup> callPathGroups, QString* error,
                                                    int openTimeoutMs = 30 * 60 * 1000);

  RemoteSliceSource(ConnectionProfile profile, RemoteOrigin origin, double begin, double end, std::uint32_t locations,
                    std::vector<timeline::RegionGroup> callPathGroups);
  ~RemoteSliceSource() override;

  const ConnectionProfile& profile() const { return profile_; }
  const RemoteOrigin& origin() const { return origin_; }
  // The tool's arguments for `request` (times exact to the last bit). The trace
  // and report come from the origin file: a leading "-" gets "./", so they are
  // never taken for options.
  static QStringList arguments(const RemoteOrigin& origin, const timeline::SliceRequest& request);

 private:
  void startFetch(std::uint64_t ticket, const timeline::SliceRequest& request) override;

  ConnectionProfile profile_;
  RemoteOrigin origin_;
  int sliceTimeoutMs_ = 60000;  // how long one slice may take before it counts as failed
};

}  // namespace waitscope::app
