#pragma once
// The analysis of one trace location: validation, then the pattern families in a fixed order
// (every location runs the same collective sequence), then the report gathered on location 0.
// Each function comes twice: over an MPI communicator whose rank r analyzes world rank r of the
// trace, and over a replay::LocationComm, whose locations may share analysis processes
// (analyzeHeldLocations runs those).
#include <mpi.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/replay/local_result.h"
#include "analysis/replay/location_comm.h"
#include "analysis/report/report.h"
#include "analysis/report/report_io.h"
#include "analysis/trace/trace.h"

namespace waitscope::analyzer {

using replay::LocalResult;

// An error every rank agrees on (the trace cannot be analyzed); what() is one
// line naming the location, event and time where known.
class AnalysisError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct AnalysisOptions {
  // Called on every rank at the start of each phase and as it progresses.
  std::function<void(std::string_view phase, int percent)> progress;
  // The backward replay (delay costs, wait classes, critical path). Without it
  // the result has the forward patterns only: the analyzer's own scope, which
  // the speed benchmark times on its own.
  bool causes = true;
  // Correct clock-condition violations with the controlled logical clock before the pattern
  // search (time_correction.h); only a trace with violations changes. Off: the recorded times.
  bool timeCorrection = true;
  // Free the location's trace as soon as the analysis has read it for the last time, before the
  // backward replay's memory peaks: the payload tables (trace::LocationEvents::releasePayloads)
  // once the causes' synchronization index has read them, the events (releaseEvents) once the
  // critical path and the delay costs' interval profiles have. The caller's trace then keeps its
  // definitions, call tree and number of events. Off: the trace stays whole.
  bool releaseTrace = false;
};

// Collective over `world`, whose rank r analyzes world rank r of the trace;
// `local` holds the definitions and exactly that rank's location. If the times are corrected
// (AnalysisOptions::timeCorrection), that location's events carry the corrected times afterwards:
// the analysis corrects them in place rather than in a copy (result.timeCorrection.correction
// recomputes them from the recorded ones). With AnalysisOptions::releaseTrace, its payload
// tables and events are gone afterwards.
LocalResult analyzeLocation(trace::Trace& local, MPI_Comm world, const AnalysisOptions& options = {});
LocalResult analyzeLocation(trace::Trace& local, const replay::LocationComm& world, const AnalysisOptions& options = {});

// Collective over `world`: merges the call trees and severities of all ranks
// into one report, returned on rank 0 (other ranks get an empty report).
report::Report gatherReport(const trace::Trace& local, const LocalResult& result, MPI_Comm world);
report::Report gatherReport(const trace::Trace& local, const LocalResult& result, const replay::LocationComm& world);

// Collective over `world`: gatherReport without holding every rank's wait-state instances
// (the bulk) on rank 0 at once. Rank 0 calls `write` with the report without them and a
// source (report::writeReport's) that receives them rank by rank, in pieces, as the writer
// asks for them; whatever `write` did not take is received and dropped afterwards, also
// when it throws, so that no rank waits for ever. Returns on rank 0 the report as `write`
// left it, without the instances (other ranks get an empty report).
report::Report gatherReportStreamed(const trace::Trace& local, const LocalResult& result, MPI_Comm world,
                                    const std::function<void(report::Report&, const report::InstanceSource&)>& write);
report::Report gatherReportStreamed(const trace::Trace& local, const LocalResult& result,
                                    const replay::LocationComm& world,
                                    const std::function<void(report::Report&, const report::InstanceSource&)>& write);

// Collective over `world`: every location's clock correction (result.timeCorrection), in world
// rank order on rank 0 (empty elsewhere), for trace::writeClockCorrections().
std::vector<trace::LocationClockCorrection> gatherClockCorrections(const LocalResult& result, MPI_Comm world);
std::vector<trace::LocationClockCorrection> gatherClockCorrections(const LocalResult& result,
                                                                   const replay::LocationComm& world);

// Several locations per analysis process (M < N): collective over the processes of `held`;
// `traces[i]` is world rank held.first() + i, read by this process. Runs
// `analyze(traces[i], world)` for every held location on a fiber of its own (replay/fibers.h),
// where `world` is the location's LocationComm over all locations: the same code as with one
// location per process. Rethrows the exception of the lowest location that threw.
void analyzeHeldLocations(const replay::HeldLocations& held, std::vector<trace::Trace>& traces,
                          const std::function<void(trace::Trace&, const replay::LocationComm&)>& analyze);

}  // namespace waitscope::analyzer
