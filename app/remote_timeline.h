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
// report by the analysis runner; the timeline loader reads it.
#include <functional>
#include <memory>
#include <vector>

#include <QObject>
#include <QString>

#include "remote_origin.h"
#include "timeline/async_slice_source.h"

namespace waitscope::app {

using launch::RemoteOrigin;

class RemoteSliceSource final : public QObject, public timeline::AsyncSliceSource {
 public:
  using Opened = std::function<void(std::shared_ptr<RemoteSliceSource> source, const QString& error)>;
  // Asks the remote for the trace's time range and locations (the first time,
  // the remote builds the index: up to `openTimeoutMs`) and calls `done` in
  // `context`'s thread with the source, or with a one-line error.
  static void open(const RemoteOrigin& origin, std::vector<timeline::RegionGroup> callPathGroups, QObject* context,
                   Opened done, int openTimeoutMs = 30 * 60 * 1000);

  RemoteSliceSource(RemoteOrigin origin, double begin, double end, std::uint32_t locations,
                    std::vector<timeline::RegionGroup> callPathGroups);
  ~RemoteSliceSource() override;

  const RemoteOrigin& origin() const { return origin_; }
  // How long one slice may take before it counts as failed.
  void setSliceTimeout(int ms) { sliceTimeoutMs_ = ms; }

  // The tool's arguments for `request` (times exact to the last bit).
  static QStringList arguments(const RemoteOrigin& origin, const timeline::SliceRequest& request);

 private:
  void startFetch(std::uint64_t ticket, const timeline::SliceRequest& request) override;

  RemoteOrigin origin_;
  int sliceTimeoutMs_ = 60000;
};

}  // namespace waitscope::app
