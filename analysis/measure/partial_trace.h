#pragma once
// Traces of runs that end abnormally (MPI_Abort, a fatal signal, mpiexec killing the job).
// Every rank keeps a log of its definitions next to the trace, DIR/traces.partial/R.log, appended
// with write(2) as each definition is made (so it is on disk whatever happens later), and the
// abort path adds an end record (event count, time, reason) after flushing the event buffer;
// a normal MPI_Finalize removes the logs. completeTrace() turns the logs of an aborted run into
// the global and local definitions and the anchor, so that otf2-print and our reader read the
// events up to the end; the anchor's property WAITSCOPE::INCOMPLETE says why it is partial.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/measure/global_definitions.h"

namespace waitscope::measure::partial {

constexpr const char* kProperty = "WAITSCOPE::INCOMPLETE";

enum Tag : char { kHeader = 'H', kRegion = 'R', kSource = 'S', kGroup = 'G', kComm = 'C', kWin = 'W', kEnd = 'E' };

std::string logDir(const std::string& traceDir);
std::string logPath(const std::string& traceDir, int rank);

// Records: tag, u64 payload length, payload (Blob encoding).
std::string record(Tag tag, const Blob& payload);
Blob headerPayload(int rank, int size, const std::string& host, std::uint64_t start);
Blob regionPayload(const UserRegionDef& r);
Blob sourcePayload(const std::string& file, std::uint32_t line);
Blob groupPayload(const std::vector<std::uint64_t>& members);
Blob commPayload(const CommDef& c);
Blob winPayload(const WinDef& w);
// The end record, built without allocating (the abort path may run in a signal handler);
// returns its length in buf (0 if it does not fit).
std::size_t endRecord(char* buf, std::size_t size, std::uint64_t events, std::uint64_t end, const char* reason);

struct Completed {
  int ranks = 0;
  std::string reason;                  // what ended the run, per rank that said so
  std::vector<int> ranksWithoutEvents;  // killed before they could flush (no end record)
};
// Completes the trace in traceDir from its logs; throws std::runtime_error with one line.
Completed completeTrace(const std::string& traceDir);
bool hasLogs(const std::string& traceDir);

// A run whose trace could not be written (a full disk, a quota): the recorder removes what it
// wrote and leaves DIR/traces.failed, whose one line says why, for waitscope-run to report.
std::string failedMarkerPath(const std::string& traceDir);
// The marker's line ("No space left on device"), or "" when there is no marker.
std::string failedReason(const std::string& traceDir);
// Removes the trace in traceDir: anchor, global definitions, per-process files, definition logs
// and, unless keepMarker, the failure marker (best effort: what cannot be removed stays).
void removeTraceFiles(const std::string& traceDir, bool keepMarker = false);

}  // namespace waitscope::measure::partial
