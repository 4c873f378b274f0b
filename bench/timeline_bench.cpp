// waitscope-bench-timeline [--events N] [--locations L] [--frames F] [--keep DIR] [--zoom Z]...
//
// The timeline on a large trace (default 16 locations, 16M events): builds the
// index from the OTF2 trace (location by location), writes and loads it, then
// times slice queries and full offscreen repaints of the TimelineView at zoom
// levels from the whole trace down to 1/65536 of it, and the memory the loaded
// index and view keep per event. The report it needs (call paths, one wait-state
// instance per fourth MPI call, a 100000-segment critical path) is made from
// the trace itself, so no MPI analysis runs.
// Targets (docs/timeline.md): first paint <= 2 s once the index exists; full repaint
// median <= 16 ms and worst <= 33 ms at any zoom; <= 16 bytes per event.
// Prints PASS/MISS per target and exits 0 either way (a benchmark, not a test).
#include <malloc.h>
#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <QApplication>
#include <QImage>
#include <QPainter>

#include "analysis/report/report_io.h"
#include "analysis/timeline/timeline_index_file.h"
#include "analysis/timeline/timeline_query.h"
#include "analysis/tools/command_line_args.h"
#include "analysis/trace/otf2_reader.h"
#include "bench/bench_args.h"
#include "bench/trace_generator.h"
#include "views/model/selection.h"
#include "views/timeline/timeline_view.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace waitscope;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// CPU time of this thread: on a shared machine, what a frame costs apart from waiting for a core.
double threadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

std::uint64_t rssBytes() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  return 0;
}

struct Args {
  std::uint64_t events = 16'000'000;
  std::uint32_t locations = 16;
  int frames = 30;
  std::string keep;
  std::vector<double> zooms;  // empty: all levels
};

Args parseArgs(int argc, char** argv) {
  Args a;
  tools::CommandLineArgs options;
  options.option({"--events"}, [&](const std::string& v) { a.events = bench::parseCount("--events", v); })
      .option({"--locations"},
              [&](const std::string& v) { a.locations = static_cast<std::uint32_t>(bench::parseCount("--locations", v)); })
      .option({"--frames"}, [&](const std::string& v) { a.frames = static_cast<int>(bench::parseCount("--frames", v)); })
      .option({"--keep"}, [&](const std::string& v) { a.keep = v; })
      .option({"--zoom"}, [&](const std::string& v) { a.zooms.push_back(double(bench::parseCount("--zoom", v))); })
      .whenMissing([](const std::string& arg) { throw std::invalid_argument(arg + " needs a value"); })
      .unknown([](const std::string& arg) { throw std::invalid_argument("unknown option " + arg); });
  options.parse(argc, argv);
  return a;
}

// A report as the analyzer would write it for this trace: its regions, call
// paths and locations; instances on every fourth MPI_Recv / MPI_Allreduce /
// MPI_Win_fence; a critical path hopping between locations.
report::Report reportFor(const trace::Trace& trace) {
  report::Report r;
  r.metrics.push_back({"time", "Time", "", report::MetricUnit::Seconds, report::kNoId});
  r.metrics.push_back({"mpi_latesender", "Late Sender", "", report::MetricUnit::Seconds, 0});
  r.metrics.push_back({"mpi_wait_nxn", "Wait at NxN", "", report::MetricUnit::Seconds, 0});
  r.metrics.push_back({"mpi_rma_wait_at_fence", "Wait at Fence", "", report::MetricUnit::Seconds, 0});
  for (const trace::Region& reg : trace.defs->regions)
    r.regions.push_back({reg.name, reg.file, reg.beginLine, reg.endLine, reg.name.rfind("MPI_", 0) == 0 ? "mpi" : "compiler"});
  for (const trace::CallPath& p : trace.callTree.paths()) {
    report::CallPath c;
    c.parent = p.parent == trace::kNone ? report::kNoId : p.parent;
    c.region = p.region;
    if (p.callSite != trace::kNone) {
      c.callSiteFile = trace.defs->sourceLocations[p.callSite].file;
      c.callSiteLine = trace.defs->sourceLocations[p.callSite].line;
    }
    r.callPaths.push_back(c);
  }
  r.systemNodes.push_back({"machine", "machine", report::kNoId});
  for (std::uint32_t n = 0; n < 4; ++n) r.systemNodes.push_back({"node" + std::to_string(n), "node", 0});
  const std::size_t ranks = trace.defs->worldLocations.size();
  for (std::size_t l = 0; l < ranks; ++l)
    r.locations.push_back({"MPI Rank " + std::to_string(l), static_cast<std::uint32_t>(l),
                           1 + static_cast<std::uint32_t>(l * 4 / ranks)});
  double begin = 1e300, end = -1e300;
  for (const trace::LocationEvents& ev : trace.locations) {
    const std::uint32_t loc = trace.defs->worldRankOfLocation(ev.location);
    std::vector<std::pair<double, trace::CallPathId>> stack;
    std::uint64_t calls = 0;
    for (const trace::Event& e : ev.events) {
      begin = std::min(begin, e.time);
      end = std::max(end, e.time);
      if (e.kind == trace::EventKind::Enter) {
        stack.emplace_back(e.time, e.ref);
      } else if (e.kind == trace::EventKind::Leave && !stack.empty()) {
        const auto [enter, path] = stack.back();
        stack.pop_back();
        const std::string& name = trace.defs->regions[trace.callTree[path].region].name;
        const std::uint32_t metric = name == "MPI_Recv" ? 1 : name == "MPI_Allreduce" ? 2 : name == "MPI_Win_fence" ? 3 : 0;
        if (metric != 0 && calls++ % 4 == 0) r.instances.push_back({metric, loc, path, enter, e.time, (loc + 1) % static_cast<std::uint32_t>(ranks)});
      }
    }
  }
  constexpr int kPathSegments = 100000;
  for (int k = 0; k < kPathSegments; ++k)
    r.criticalPath.push_back({static_cast<std::uint32_t>((k * 7) % ranks), 0, begin + (end - begin) * k / kPathSegments,
                              begin + (end - begin) * (k + 1) / kPathSegments});
  return r;
}

struct Stats {
  double median = 0, worst = 0;
};
Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.back()};
}

const char* verdict(bool ok) { return ok ? "PASS" : "MISS"; }

}  // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  Args args;
  try {
    args = parseArgs(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "waitscope-bench-timeline: %s\n", e.what());
    return 2;
  }
  try {
    fs::path dir = args.keep.empty() ? fs::temp_directory_path() / ("waitscope-bench-timeline-" + std::to_string(::getpid()))
                                     : fs::path(args.keep);
    fs::create_directories(dir);
    const std::string anchor = (dir / "traces.otf2").string();
    const std::string reportPath = (dir / "bench.wsr").string();
    if (!fs::exists(anchor)) {
      const auto t = Clock::now();
      bench::GeneratorOptions gen;
      gen.events = args.events;
      gen.locations = args.locations;
      const auto g = bench::generateTrace(dir.string(), gen);
      std::printf("generated %llu events on %u locations in %.1f s\n", static_cast<unsigned long long>(g.events),
                  args.locations, secondsSince(t));
    }
    std::uint64_t events = 0;
    {
      trace::ReadOptions quiet;
      quiet.warn = [](const std::string&) {};
      const trace::Trace whole = trace::readTrace(anchor, quiet);
      events = whole.eventCount();
      report::Report r = reportFor(whole);
      std::printf("report: %zu call paths, %zu instances, %zu critical-path segments\n", r.callPaths.size(),
                  r.instances.size(), r.criticalPath.size());
      report::writeReport(r, reportPath);
    }
    malloc_trim(0);
    const report::Report report = report::readReport(reportPath);
    const std::string indexPath = timeline::defaultIndexPath(reportPath);
    fs::remove(indexPath);

    auto t = Clock::now();
    timeline::TimelineIndex built = timeline::buildTimelineIndex(anchor, report);
    const double buildSeconds = secondsSince(t);
    t = Clock::now();
    const timeline::Fingerprint stamps = timeline::fingerprintOf(timeline::indexSources(anchor, reportPath));
    timeline::writeTimelineIndex(built, stamps, indexPath);
    const double writeSeconds = secondsSince(t);
    const std::uint64_t levelPoints = [&] {
      std::uint64_t n = 0;
      for (const auto& l : built.locations)
        for (std::size_t k = 1; k < l.levels.size(); ++k) n += l.levels[k].points().size();
      return n;
    }();
    const std::size_t levels = built.locations.empty() ? 0 : built.locations[0].levels.size();
    {
      // Where the index's memory goes, in bytes per event.
      double level0 = 0, coarser = 0, sends = 0, receives = 0, transfers = 0, rest = 0;
      for (const auto& l : built.locations) {
        for (std::size_t k = 0; k < l.levels.size(); ++k)
          (k == 0 ? level0 : coarser) += double(l.levels[k].heapBytes());
        sends += double(l.sends.memoryBytes());
        receives += double(l.receives.memoryBytes());
        transfers += double(l.outgoing.memoryBytes() + l.incoming.memoryBytes());
        rest += double(l.collectives.memoryBytes() + l.epochs.memoryBytes() + l.instances.memoryBytes() +
                       l.path.memoryBytes());
      }
      const double e = double(built.locations.empty() ? 1 : 1) * double(std::max<std::uint64_t>(events, 1));
      std::printf("index memory per event: regions %.1f + coarser levels %.1f + sends %.1f + receives %.1f + "
                  "transfers %.1f + other %.1f bytes\n",
                  level0 / e, coarser / e, sends / e, receives / e, transfers / e, rest / e);
    }
    built = {};
    malloc_trim(0);

    std::printf("\n%-44s %12s\n", "events", std::to_string(events).c_str());
    std::printf("%-44s %10.2f s (%.0f ns per event)\n", "index build (from the OTF2 trace)", buildSeconds,
                buildSeconds * 1e9 / events);
    std::printf("%-44s %10.2f s, %.1f MB (%.1f bytes per event)\n", "index write", writeSeconds,
                fs::file_size(indexPath) / 1e6, double(fs::file_size(indexPath)) / events);
    std::printf("%-44s %10zu (%llu points above level 0)\n", "region levels of location 0", levels,
                static_cast<unsigned long long>(levelPoints));

    // ---- the app's side: load the index, first paint ----
    const std::uint64_t rssBefore = rssBytes();
    const auto firstPaintStart = Clock::now();
    t = Clock::now();
    timeline::LoadedIndex loaded = timeline::loadTimelineIndex(indexPath, stamps);
    if (loaded.status != timeline::IndexLoad::Loaded) throw std::runtime_error("index not loaded: " + loaded.problem);
    const double loadSeconds = secondsSince(t);
    auto source = std::make_shared<timeline::LocalSliceSource>(std::move(loaded.index));
    auto reportPtr = std::make_shared<const report::Report>(report);
    views::Selection selection;
    views::TimelineView view(&selection);
    view.resize(1900, 60 + 16 * 22 + 4 * 16 + 30);
    view.setData(source, reportPtr);
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    {
      QPainter p(&image);
      view.paintTo(p, view.size());
    }
    const double firstPaint = secondsSince(firstPaintStart);
    const std::uint64_t rssAfter = rssBytes();
    const double bytesPerEvent = double(rssAfter - rssBefore) / events;
    std::printf("%-44s %10.3f s\n", "index load", loadSeconds);
    std::printf("%-44s %10.3f s   target <= 2 s    %s\n", "first paint after the index exists", firstPaint,
                verdict(firstPaint <= 2.0));
    std::printf("%-44s %10.1f B    target <= 16 B   %s  (index in memory: %.1f B)\n",
                "resident memory per event (index + view)", bytesPerEvent, verdict(bytesPerEvent <= 16.0),
                double(source->index().memoryBytes()) / events);

    // ---- queries and frames at several zoom levels ----
    const double begin = source->begin(), end = source->end(), duration = end - begin;
    std::mt19937_64 rng(42);
    timeline::Slice slice;
    timeline::SliceRequest request;
    request.width = 1600;
    std::printf("\n%-10s %12s %12s %10s %14s %14s %14s %14s   %s\n", "zoom", "query med", "query worst", "items", "frame med",
                "frame worst", "repaint med", "frame CPU med", "frame targets 16 / 33 ms");
    bool allFramesOk = true;
    if (args.zooms.empty()) args.zooms = {1.0, 16.0, 256.0, 4096.0, 65536.0};
    for (double zoom : args.zooms) {
      const double span = duration / zoom;
      std::uniform_real_distribution<double> offset(begin, end - span);
      std::vector<double> queries, frames, repaints, frameCpu;
      std::size_t items = 0;
      for (int f = 0; f < args.frames; ++f) {
        const double from = zoom == 1.0 ? begin : offset(rng);
        request.from = from;
        request.to = from + span;
        t = Clock::now();
        source->query(request, slice);
        queries.push_back(secondsSince(t) * 1e3);
        items += slice.itemCount();
        view.setTimeWindow(from, from + span);
        // A frame after a zoom or pan step: the slice query and the painting
        // (at whole-trace zoom the window stays the same, so the view is told
        // to query again). Then a repaint of the same window (expose, hover,
        // highlight), which keeps the slice.
        view.invalidateSlice();
        QPainter p(&image);
        t = Clock::now();
        const double cpu = threadCpuMs();
        view.paintTo(p, view.size());
        frames.push_back(secondsSince(t) * 1e3);
        frameCpu.push_back(threadCpuMs() - cpu);
        t = Clock::now();
        view.paintTo(p, view.size());
        repaints.push_back(secondsSince(t) * 1e3);
      }
      if (std::getenv("WAITSCOPE_BENCH_BREAKDOWN")) {
        std::size_t n[7] = {};
        for (const auto& l : slice.locations) {
          n[0] += l.regions.size(); n[1] += l.messages.size(); n[2] += l.collectives.size(); n[3] += l.epochs.size();
          n[4] += l.transfers.size(); n[5] += l.instances.size(); n[6] += l.path.size();
        }
        std::printf("  regions %zu messages %zu collectives %zu epochs %zu transfers %zu instances %zu path %zu\n", n[0], n[1], n[2], n[3], n[4], n[5], n[6]);
        // The query's CPU time per kind (median of 15), at the view's width, for the last window.
        timeline::SliceRequest one = request;
        one.width = static_cast<std::uint32_t>(view.width());
        std::printf("  query CPU per kind at %u px:", one.width);
        const char* names[7] = {"regions", "messages", "collectives", "epochs", "transfers", "instances", "path"};
        for (int k = 0; k < 7; ++k) {
          one.kinds = 1u << k;
          std::vector<double> cpu;
          for (int rep = 0; rep < 15; ++rep) {
            const double c0 = threadCpuMs();
            source->query(one, slice);
            cpu.push_back(threadCpuMs() - c0);
          }
          std::printf(" %s %.2f", names[k], stats(cpu).median);
        }
        std::printf(" ms\n");
      }
      const Stats q = stats(queries), fr = stats(frames), re = stats(repaints), fc = stats(frameCpu);
      const bool ok = fr.median <= 16.0 && fr.worst <= 33.0;
      allFramesOk = allFramesOk && ok;
      std::printf("1/%-8.0f %9.3f ms %9.3f ms %10zu %11.2f ms %11.2f ms %11.2f ms %11.2f ms   %s\n", zoom, q.median, q.worst,
                  items / args.frames, fr.median, fr.worst, re.median, fc.median, verdict(ok));
    }
    std::printf("%-44s %s\n", "full repaint at every zoom", verdict(allFramesOk));
    if (args.keep.empty()) fs::remove_all(dir);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "waitscope-bench-timeline: %s\n", e.what());
    return 1;
  }
  return 0;
}
