#include "analysis/tools/report_timeline.h"

#include <charconv>
#include <iostream>

#include "analysis/report/report_io.h"
#include "analysis/timeline/slice_format.h"
#include "analysis/timeline/timeline_index_file.h"
#include "analysis/timeline/timeline_query.h"
#include "analysis/tools/command_line_args.h"
#include "analysis/tools/report_command_args.h"
#include "analysis/tools/usage_error.h"

namespace waitscope::tools {

namespace {

constexpr const char* kHelp =
    "usage: waitscope-report timeline TRACE.otf2 REPORT [--from T0] [--to T1] [--width W]\n"
    "                                 [--locations A-B[,C...]] [--json|--binary] [--index FILE]\n"
    "Prints what a timeline of W pixels (default 1000) shows of [T0, T1] seconds (default: the whole\n"
    "trace) for the given locations (default: all): regions merged per pixel, messages, collectives,\n"
    "RMA epochs and transfers, wait-state instances and critical-path segments. The first run builds\n"
    "the index REPORT.timeline (or FILE); later runs only read it. Output: JSON (default) or --binary.\n";

double parseTime(const std::string& option, const std::string& text) {
  double v = 0.0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size() || !(v == v) || v > 1e15 || v < -1e15)
    throw UsageError("timeline: " + option + " needs a time in seconds, got '" + text + "'");
  return v;
}

std::uint32_t parseCount(const std::string& what, std::string_view text) {
  std::uint32_t v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size())
    throw UsageError("timeline: " + what + " needs a non-negative integer, got '" + std::string(text) + "'");
  return v;
}

// "0-3,7" -> 0 1 2 3 7
std::vector<std::uint32_t> parseLocations(const std::string& text) {
  std::vector<std::uint32_t> out;
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const std::size_t dash = item.find('-');
    const std::uint32_t a = parseCount("--locations", item.substr(0, dash));
    const std::uint32_t b = dash == std::string_view::npos ? a : parseCount("--locations", item.substr(dash + 1));
    if (b < a) throw UsageError("timeline: --locations range " + std::string(item) + " runs backwards");
    if (b - a > 1'000'000) throw UsageError("timeline: --locations range " + std::string(item) + " is too large");
    for (std::uint32_t l = a; l <= b; ++l) out.push_back(l);
  }
  if (out.empty()) throw UsageError("timeline: --locations needs a list like 0-3,7");
  return out;
}

}  // namespace

int runTimeline(const std::vector<std::string>& args, std::ostream& out) {
  std::vector<std::string> files;
  std::string from, to, width, locations, indexPath;
  bool binary = false, help = false;
  const auto into = [](std::string& target) { return [&target](const std::string& value) { target = value; }; };
  CommandLineArgs options;
  options.help(help)
      .option({"--from"}, into(from))
      .option({"--to"}, into(to))
      .option({"--width"}, into(width))
      .option({"--locations"}, into(locations))
      .option({"--index"}, into(indexPath))
      .whenMissing([](const std::string& option) { throw UsageError("timeline: " + option + " needs a value"); })
      .flag({"--json"}, [&] { binary = false; })
      .flag({"--binary"}, [&] { binary = true; })
      .dashIsPositional()
      .positional([&](const std::string& a) { files.push_back(a); });
  rejectUnknownOptions(options, "timeline");
  options.parse(args);
  if (help) {
    out << kHelp;
    return 0;
  }
  if (files.size() != 2) throw UsageError("timeline: give a trace and a report (TRACE.otf2 REPORT)");
  timeline::SliceRequest request;
  request.width = width.empty() ? 1000 : parseCount("--width", width);
  if (request.width == 0 || request.width > 1'000'000) throw UsageError("timeline: --width must be 1..1000000 pixels");
  if (!locations.empty()) request.locations = parseLocations(locations);

  const report::Report report = report::readReport(files[1]);
  timeline::OpenedIndex opened = timeline::openTimelineIndex(
      files[0], files[1], report, [](const std::string& line) { std::cerr << "waitscope-report: " << line << '\n'; },
      indexPath);
  const timeline::TimelineIndex& index = opened.index;
  request.from = from.empty() ? index.begin : parseTime("--from", from);
  request.to = to.empty() ? index.end : parseTime("--to", to);
  if (!(request.to > request.from))
    throw UsageError("timeline: --to must be after --from (the trace spans " + std::to_string(index.begin) + " to " +
                     std::to_string(index.end) + " s)");
  for (std::uint32_t l : request.locations)
    if (l >= index.locations.size())
      throw UsageError("timeline: --locations: " + files[1] + " has locations 0-" +
                       std::to_string(index.locations.size() == 0 ? 0 : index.locations.size() - 1) + ", not " +
                       std::to_string(l));
  timeline::Slice slice;
  timeline::querySlice(index, request, slice);
  if (binary)
    timeline::writeSliceBinary(slice, out);
  else
    timeline::writeSliceJson(slice, out);
  out.flush();
  return 0;
}

}  // namespace waitscope::tools
