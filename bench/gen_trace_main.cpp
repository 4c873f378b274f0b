// waitscope-bench-gen-trace DIR [--events N] [--locations L] [--seed S]
// Writes a synthetic Score-P-like MPI trace to DIR/traces.otf2.
#include <cstdio>
#include <exception>
#include <string>

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
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw std::invalid_argument(arg + ": missing value");
        return argv[++i];
      };
      if (arg == "--events") options.events = parseCount(arg, value());
      else if (arg == "--locations") options.locations = static_cast<std::uint32_t>(parseCount(arg, value()));
      else if (arg == "--seed") options.seed = parseCount(arg, value());
      else if (arg == "-h" || arg == "--help") {
        std::fputs(usage, stdout);
        return 0;
      } else if (!arg.empty() && arg[0] == '-') throw std::invalid_argument("unknown option " + arg);
      else if (dir.empty()) dir = arg;
      else throw std::invalid_argument("more than one directory given");
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
