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
#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/tools/command_line_args.h"
#include "analysis/trace/otf2_reader.h"
#include "bench/bare_otf2_read.h"
#include "bench/bench_args.h"
#include "bench/trace_generator.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr double kRatioTarget = 1.3;
constexpr double kBytesPerEventTarget = 24.0;

// ---- measuring -------------------------------------------------------------------------------

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// CPU time of this (single-threaded) process, user and system: what the read
// costs whatever else runs on the machine, unlike wall time.
double cpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

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
  using waitscope::bench::parseCount;
  Args a;
  waitscope::tools::CommandLineArgs options;
  options.option({"--events"}, [&](const std::string& v) { a.events = parseCount("--events", v); })
      .option({"--locations"},
              [&](const std::string& v) { a.locations = static_cast<std::uint32_t>(parseCount("--locations", v)); })
      .option({"--repeat"}, [&](const std::string& v) { a.repeat = static_cast<int>(parseCount("--repeat", v)); })
      .option({"--keep"}, [&](const std::string& v) { a.keep = v; })
      .whenMissing(waitscope::bench::throwMissingValue)
      .unknown([](const std::string& arg) { throw std::invalid_argument("unknown argument " + arg); });
  options.parse(argc, argv);
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
  double bareCpuBest = bareBest, oursCpuBest = bareBest;
  std::uint64_t bareEvents = 0;
  for (int i = 0; i < args.repeat; ++i) {
    auto start = Clock::now();
    double cpuStart = cpuSeconds();
    bareEvents = waitscope::bench::bareRead(anchor);
    bareBest = std::min(bareBest, secondsSince(start));
    bareCpuBest = std::min(bareCpuBest, cpuSeconds() - cpuStart);

    start = Clock::now();
    cpuStart = cpuSeconds();
    waitscope::trace::Trace trace = waitscope::trace::readTrace(anchor, quietOptions());
    oursBest = std::min(oursBest, secondsSince(start));
    oursCpuBest = std::min(oursCpuBest, cpuSeconds() - cpuStart);
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
  std::printf("  %-28s %14.3f    (%.3f / %.3f s; information: other load does not stretch CPU time)\n",
              "CPU time ratio ours / bare", oursCpuBest / bareCpuBest, oursCpuBest, bareCpuBest);
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
