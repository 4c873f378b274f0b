// waitscope-bench-gen-trace DIR [--events N] [--locations L] [--seed S]
// Writes a synthetic Score-P-like MPI trace to DIR/traces.otf2.
#include <cstdio>
#include <exception>
#include <string>

#include "analysis/tools/command_line_args.h"
#include "bench/bench_args.h"
#include "bench/trace_generator.h"

int main(int argc, char** argv) {
  using namespace waitscope::bench;
  const char* usage =
      "usage: waitscope-bench-gen-trace DIR [--events N] [--locations L] [--seed S]\n"
      "  writes a synthetic MPI trace (default 10M events over 8 locations) to DIR/traces.otf2\n";
  try {
    GeneratorOptions options;
    std::string dir;
    bool help = false;
    waitscope::tools::CommandLineArgs commandLine;
    commandLine.option({"--events"}, [&](const std::string& v) { options.events = parseCount("--events", v); })
        .option({"--locations"},
                [&](const std::string& v) { options.locations = static_cast<std::uint32_t>(parseCount("--locations", v)); })
        .option({"--seed"}, [&](const std::string& v) { options.seed = parseCount("--seed", v); })
        .whenMissing(throwMissingValue)
        .help(help)
        .positional([&](const std::string& arg) {
          if (!dir.empty()) throw std::invalid_argument("more than one directory given");
          dir = arg;
        })
        .unknown([](const std::string& arg) { throw std::invalid_argument("unknown option " + arg); });
    commandLine.parse(argc, argv);
    if (help) {
      std::fputs(usage, stdout);
      return 0;
    }
    if (dir.empty()) {
      std::fputs(usage, stderr);
      return 2;
    }
    const GeneratedTrace t = generateTrace(dir, options);
    std::printf("%s: %llu events over %zu locations (%llu iterations per rank)\n", t.anchorPath.c_str(),
                static_cast<unsigned long long>(t.events), t.eventsPerLocation.size(),
                static_cast<unsigned long long>(t.steps));
    return 0;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "waitscope-bench-gen-trace: %s\n%s", e.what(), usage);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "waitscope-bench-gen-trace: %s\n", e.what());
    return 1;
  }
}
