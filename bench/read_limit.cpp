// waitscope-bench-read-limit [--events N] [--locations L] [--repeat R] [--keep DIR]
//
// How close does readTrace() come to the speed limit set by OTF2 itself? Generates
// a synthetic MPI trace, then times, alternately and R times each, (a) a bare OTF2
// reader loop that decodes every record with callbacks that do nothing and (b)
// waitscope::trace::readTrace() building the trace model, and reports the ratio
// of the best times plus the memory the model keeps per event.
// Targets: ratio <= 1.3; resident memory <= 24 bytes per event.
// Prints PASS/MISS per target and exits 0 either way (it is a benchmark, not a
// test); exits non-zero only if something fails outright.
#include <malloc.h>
#include <otf2/otf2.h>
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_args.h"
#include "trace/otf2_reader.h"
#include "trace_generator.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr double kRatioTarget = 1.3;
constexpr double kBytesPerEventTarget = 24.0;

// ---- the bare loop ---------------------------------------------------------------------------
// Callbacks do nothing, but one is registered for every record kind the generated
// trace holds, so that OTF2 decodes and dispatches every record as it must for us.

void check(OTF2_ErrorCode code, const char* what) {
  if (code != OTF2_SUCCESS) throw std::runtime_error(std::string("bare loop: ") + what + ": " + OTF2_Error_GetDescription(code));
}

constexpr OTF2_CallbackCode kOk = OTF2_CALLBACK_SUCCESS;

OTF2_GlobalDefReaderCallbacks* bareDefinitionCallbacks() {
  OTF2_GlobalDefReaderCallbacks* cb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(
      cb, [](void*, uint64_t, uint64_t, uint64_t, uint64_t) { return kOk; });
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, [](void*, OTF2_StringRef, const char*) { return kOk; });
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(
      cb, [](void*, OTF2_RegionRef, OTF2_StringRef, OTF2_StringRef, OTF2_StringRef, OTF2_RegionRole, OTF2_Paradigm,
             OTF2_RegionFlag, OTF2_StringRef, uint32_t, uint32_t) { return kOk; });
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(
      cb, [](void*, OTF2_SystemTreeNodeRef, OTF2_StringRef, OTF2_StringRef, OTF2_SystemTreeNodeRef) { return kOk; });
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(
      cb, [](void*, OTF2_LocationGroupRef, OTF2_StringRef, OTF2_LocationGroupType, OTF2_SystemTreeNodeRef,
             OTF2_LocationGroupRef) { return kOk; });
  // The one callback that does something: the loop needs the location ids to select them.
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(
      cb, [](void* u, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType, uint64_t, OTF2_LocationGroupRef) {
        static_cast<std::vector<OTF2_LocationRef>*>(u)->push_back(self);
        return kOk;
      });
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(
      cb, [](void*, OTF2_GroupRef, OTF2_StringRef, OTF2_GroupType, OTF2_Paradigm, OTF2_GroupFlag, uint32_t,
             const uint64_t*) { return kOk; });
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(
      cb, [](void*, OTF2_CommRef, OTF2_StringRef, OTF2_GroupRef, OTF2_CommRef, OTF2_CommFlag) { return kOk; });
  OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(
      cb, [](void*, OTF2_RmaWinRef, OTF2_StringRef, OTF2_CommRef, OTF2_RmaWinFlag) { return kOk; });
  return cb;
}

#define BARE_EVENT_ARGS OTF2_LocationRef, OTF2_TimeStamp, uint64_t, void*, OTF2_AttributeList*

OTF2_EvtReaderCallbacks* bareEventCallbacks() {
  OTF2_EvtReaderCallbacks* cb = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetProgramBeginCallback(
      cb, [](BARE_EVENT_ARGS, OTF2_StringRef, uint32_t, const OTF2_StringRef*) { return kOk; });
  OTF2_EvtReaderCallbacks_SetProgramEndCallback(cb, [](BARE_EVENT_ARGS, int64_t) { return kOk; });
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, [](BARE_EVENT_ARGS, OTF2_RegionRef) { return kOk; });
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, [](BARE_EVENT_ARGS, OTF2_RegionRef) { return kOk; });
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(
      cb, [](BARE_EVENT_ARGS, uint32_t, OTF2_CommRef, uint32_t, uint64_t) { return kOk; });
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(
      cb, [](BARE_EVENT_ARGS, uint32_t, OTF2_CommRef, uint32_t, uint64_t) { return kOk; });
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, [](BARE_EVENT_ARGS) { return kOk; });
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(
      cb, [](BARE_EVENT_ARGS, OTF2_CollectiveOp, OTF2_CommRef, uint32_t, uint64_t, uint64_t) { return kOk; });
  OTF2_EvtReaderCallbacks_SetRmaWinCreateCallback(cb, [](BARE_EVENT_ARGS, OTF2_RmaWinRef) { return kOk; });
  OTF2_EvtReaderCallbacks_SetRmaWinDestroyCallback(cb, [](BARE_EVENT_ARGS, OTF2_RmaWinRef) { return kOk; });
  OTF2_EvtReaderCallbacks_SetRmaCollectiveBeginCallback(cb, [](BARE_EVENT_ARGS) { return kOk; });
  OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(
      cb, [](BARE_EVENT_ARGS, OTF2_CollectiveOp, OTF2_RmaSyncLevel, OTF2_RmaWinRef, uint32_t, uint64_t, uint64_t) {
        return kOk;
      });
  OTF2_EvtReaderCallbacks_SetRmaPutCallback(
      cb, [](BARE_EVENT_ARGS, OTF2_RmaWinRef, uint32_t, uint64_t, uint64_t) { return kOk; });
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteNonBlockingCallback(
      cb, [](BARE_EVENT_ARGS, OTF2_RmaWinRef, uint64_t) { return kOk; });
  return cb;
}

#undef BARE_EVENT_ARGS

// Reads the whole archive as readTrace() does, minus building anything. Returns the
// number of event records read.
std::uint64_t bareRead(const std::string& anchor) {
  OTF2_Reader* reader = OTF2_Reader_Open(anchor.c_str());
  if (!reader) throw std::runtime_error("bare loop: cannot open " + anchor);
  struct Closer {
    OTF2_Reader* r;
    ~Closer() { OTF2_Reader_Close(r); }
  } closer{reader};
  check(OTF2_Reader_SetSerialCollectiveCallbacks(reader), "set collective callbacks");

  std::vector<OTF2_LocationRef> locations;
  OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(reader);
  if (!defs) throw std::runtime_error("bare loop: cannot open the global definitions");
  OTF2_GlobalDefReaderCallbacks* defCallbacks = bareDefinitionCallbacks();
  check(OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, defCallbacks, &locations), "register definition callbacks");
  OTF2_GlobalDefReaderCallbacks_Delete(defCallbacks);
  uint64_t definitions = 0;
  check(OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &definitions), "read global definitions");
  check(OTF2_Reader_CloseGlobalDefReader(reader, defs), "close global definitions");

  for (OTF2_LocationRef loc : locations) check(OTF2_Reader_SelectLocation(reader, loc), "select location");
  if (OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS) {
    for (OTF2_LocationRef loc : locations) {
      OTF2_DefReader* local = OTF2_Reader_GetDefReader(reader, loc);
      if (!local) continue;
      uint64_t read = 0;
      check(OTF2_Reader_ReadAllLocalDefinitions(reader, local, &read), "read local definitions");
      check(OTF2_Reader_CloseDefReader(reader, local), "close local definitions");
    }
    check(OTF2_Reader_CloseDefFiles(reader), "close local definition files");
  }

  check(OTF2_Reader_OpenEvtFiles(reader), "open event files");
  OTF2_EvtReaderCallbacks* evtCallbacks = bareEventCallbacks();
  std::uint64_t events = 0;
  for (OTF2_LocationRef loc : locations) {
    OTF2_EvtReader* evt = OTF2_Reader_GetEvtReader(reader, loc);
    if (!evt) throw std::runtime_error("bare loop: cannot open the events of location " + std::to_string(loc));
    check(OTF2_Reader_RegisterEvtCallbacks(reader, evt, evtCallbacks, nullptr), "register event callbacks");
    uint64_t read = 0;
    check(OTF2_Reader_ReadAllLocalEvents(reader, evt, &read), "read events");
    check(OTF2_Reader_CloseEvtReader(reader, evt), "close event reader");
    events += read;
  }
  OTF2_EvtReaderCallbacks_Delete(evtCallbacks);
  check(OTF2_Reader_CloseEvtFiles(reader), "close event files");
  return events;
}

// ---- measuring -------------------------------------------------------------------------------

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// A field of /proc/self/status in bytes ("VmRSS", "VmHWM"); 0 if unavailable.
std::uint64_t procStatusBytes(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, field.size() + 1, field + ":") == 0) return std::stoull(line.substr(field.size() + 1)) * 1024;
  }
  return 0;
}

// Resets VmHWM to the current RSS (Linux >= 4.0); false if not permitted.
bool resetPeakRss() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

waitscope::trace::ReadOptions quietOptions() {
  waitscope::trace::ReadOptions options;
  options.warn = [](const std::string& line) { std::fprintf(stderr, "readTrace warning: %s\n", line.c_str()); };
  return options;
}

struct Args {
  std::uint64_t events = 10'000'000;
  std::uint32_t locations = 8;
  int repeat = 3;
  std::string keep;
};

Args parseArgs(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(arg + ": missing value");
      return argv[++i];
    };
    if (arg == "--events") a.events = waitscope::bench::parseCount(arg, value());
    else if (arg == "--locations") a.locations = static_cast<std::uint32_t>(waitscope::bench::parseCount(arg, value()));
    else if (arg == "--repeat") a.repeat = static_cast<int>(waitscope::bench::parseCount(arg, value()));
    else if (arg == "--keep") a.keep = value();
    else throw std::invalid_argument("unknown argument " + arg);
  }
  return a;
}

const char* verdict(bool ok) { return ok ? "PASS" : "MISS"; }

int run(const Args& args) {
  // A fixed mmap threshold turns off glibc's adaptive one, which after the first
  // free would serve later multi-megabyte event arrays from already-faulted heap
  // pages: every readTrace() here pays for fresh memory, as in a new process.
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);

  // The trace: generated into a temporary directory, or into (or reused from) --keep DIR.
  fs::path dir;
  bool removeAfter = false;
  if (args.keep.empty()) {
    std::string templ = (fs::temp_directory_path() / "waitscope-bench-XXXXXX").string();
    if (!mkdtemp(templ.data())) throw std::runtime_error("cannot create a temporary directory");
    dir = templ;
    removeAfter = true;
  } else {
    dir = args.keep;
  }
  struct Cleanup {
    fs::path dir;
    bool active;
    ~Cleanup() {
      std::error_code ec;
      if (active) fs::remove_all(dir, ec);
    }
  } cleanup{dir, removeAfter};

  const std::string anchor = (dir / "traces.otf2").string();
  std::uint64_t generated = 0;
  if (fs::exists(anchor)) {
    std::printf("reusing the trace in %s (delete it to regenerate)\n", dir.c_str());
  } else {
    const auto start = Clock::now();
    waitscope::bench::GeneratorOptions gen;
    gen.events = args.events;
    gen.locations = args.locations;
    const auto t = waitscope::bench::generateTrace(dir.string(), gen);
    generated = t.events;
    std::printf("generated %llu events over %u locations in %.2f s into %s\n",
                static_cast<unsigned long long>(t.events), args.locations, secondsSince(start), dir.c_str());
  }
  std::uintmax_t eventBytes = 0;
  for (const auto& f : fs::directory_iterator(dir / "traces"))
    if (f.path().extension() == ".evt") eventBytes += f.file_size();

  // Memory first, in a process that has not read the trace yet: RSS growth with
  // the model alive, after the OTF2 reader has freed its buffers. malloc_trim gives
  // freed heap pages back so that neither figure counts garbage.
  malloc_trim(0);
  const std::uint64_t rssBefore = procStatusBytes("VmRSS");
  const bool peakKnown = resetPeakRss();
  std::uint64_t modelBytes = 0, rssAfter = 0, peak = 0, modelEvents = 0, ignored = 0;
  std::size_t callPaths = 0;
  {
    const waitscope::trace::Trace trace = waitscope::trace::readTrace(anchor, quietOptions());
    peak = procStatusBytes("VmHWM");
    malloc_trim(0);
    rssAfter = procStatusBytes("VmRSS");
    modelBytes = trace.memoryBytes();
    modelEvents = trace.eventCount();
    ignored = trace.ignoredEvents;
    callPaths = trace.callTree.size();
  }

  // Timing: alternate so that both see the same page cache and CPU state.
  double bareBest = std::numeric_limits<double>::infinity();
  double oursBest = std::numeric_limits<double>::infinity();
  std::uint64_t bareEvents = 0;
  for (int i = 0; i < args.repeat; ++i) {
    auto start = Clock::now();
    bareEvents = bareRead(anchor);
    bareBest = std::min(bareBest, secondsSince(start));

    start = Clock::now();
    waitscope::trace::Trace trace = waitscope::trace::readTrace(anchor, quietOptions());
    oursBest = std::min(oursBest, secondsSince(start));
    if (trace.eventCount() != modelEvents) throw std::runtime_error("readTrace returned a different event count");
  }  // (each trace is destroyed outside its timed section)

  if (generated != 0 && bareEvents != generated)
    throw std::runtime_error("the bare loop read " + std::to_string(bareEvents) + " events, the generator wrote " +
                             std::to_string(generated));
  // The model keeps every record except ProgramBegin/End (two per location).
  if (modelEvents > bareEvents || bareEvents - modelEvents != 2ull * args.locations)
    std::printf("note: the model holds %llu of %llu records\n", static_cast<unsigned long long>(modelEvents),
                static_cast<unsigned long long>(bareEvents));

  const double n = static_cast<double>(bareEvents);
  const double ratio = oursBest / bareBest;
  const double modelPerEvent = static_cast<double>(modelBytes) / n;
  const double rssPerEvent = static_cast<double>(rssAfter > rssBefore ? rssAfter - rssBefore : 0) / n;
  const double peakPerEvent = static_cast<double>(peak > rssBefore ? peak - rssBefore : 0) / n;

  std::printf("\nwaitscope read-limit benchmark (best of %d, alternating)\n", args.repeat);
  std::printf("  %-28s %14llu  (%.1f MB of event files, %zu call paths, %llu ignored)\n", "events", 
              static_cast<unsigned long long>(bareEvents), static_cast<double>(eventBytes) / 1e6, callPaths,
              static_cast<unsigned long long>(ignored));
  std::printf("  %-28s %14.3f s  (%.1f M events/s)\n", "bare OTF2 loop", bareBest, n / bareBest / 1e6);
  std::printf("  %-28s %14.3f s  (%.1f M events/s)\n", "readTrace (ours)", oursBest, n / oursBest / 1e6);
  std::printf("  %-28s %14.3f    target <= %.2f  %s\n", "ratio ours / bare", ratio, kRatioTarget,
              verdict(ratio <= kRatioTarget));
  std::printf("  %-28s %14.2f    (Trace::memoryBytes)\n", "model bytes per event", modelPerEvent);
  std::printf("  %-28s %14.2f    target <= %.2f  %s\n", "resident bytes per event", rssPerEvent,
              kBytesPerEventTarget, verdict(rssPerEvent <= kBytesPerEventTarget));
  if (peakKnown)
    std::printf("  %-28s %14.2f    (peak RSS growth while reading; information)\n", "peak bytes per event",
                peakPerEvent);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parseArgs(argc, argv));
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr,
                 "waitscope-bench-read-limit: %s\n"
                 "usage: waitscope-bench-read-limit [--events N] [--locations L] [--repeat R] [--keep DIR]\n",
                 e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "waitscope-bench-read-limit: %s\n", e.what());
    return 1;
  }
}
