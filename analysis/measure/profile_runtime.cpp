// Profile mode: start, user regions, and the work at MPI_Finalize (minima, estimates,
// gathering at rank 0, the report).
#include "analysis/measure/profile_runtime.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/profile/profile_output.h"
#include "analysis/report/timestamped_name.h"
#include "analysis/report/report_io.h"
#include "analysis/report/text_output.h"

namespace waitscope::measure::profile {

ProfilerState profiler;

namespace {

constexpr const char* kMpiNames[] = {
#define WS_MPI(category, role, name, params, args) #name,
#include "analysis/measure/mpi_functions.def"
#undef WS_MPI
};

bool envFlag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::strcmp(v, "0") != 0;
}

// The TSC is used when the CPU says it is invariant (constant and non-stop): then it
// runs at one rate on every core and reading it costs a third of clock_gettime.
bool invariantTsc() {
#ifdef WAITSCOPE_HAVE_TSC
  if (envFlag("WAITSCOPE_PROFILE_NO_TSC")) return false;
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    return line.find(" constant_tsc") != std::string::npos && line.find(" nonstop_tsc") != std::string::npos;
  }
#endif
  return false;
}


std::string commandLine() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::replace(all.begin(), all.end(), '\0', ' ');
  while (!all.empty() && all.back() == ' ') all.pop_back();
  return all;
}

// This process' call paths with visits, exclusive time and estimates, in seconds.
RankOut rankOutput(double secondsPerTick, const MinimumTable& localMin, const MinimumTable& testedMin,
                   const MinimumTable& globalMin, const std::vector<std::uint32_t>& globalIndex) {
  RankOut out = treeOutput(secondsPerTick);
  const ProfileTree& tree = profiler.tree;
  for (std::uint32_t i = 0; i < tree.nodes().size(); ++i) {
    const Node& n = tree.nodes()[i];
    if (n.region >= kNumMpi) continue;
    const EstimateRule& rule = profiler.rules[n.region];
    if (rule.pattern == Pattern::None) continue;
    NodeOut& o = out.nodes[i];
    const std::uint32_t fn = n.region;
    if (rule.scope == Scope::Global) {
      const std::uint32_t k = globalIndex[fn];
      o.estimate = waitEstimate(tree, i, false, secondsPerTick, [&](std::uint8_t s) { return globalMin.at(k, s); });
    } else {
      o.estimate = waitEstimate(tree, i, false, secondsPerTick, [&](std::uint8_t s) { return localMin.at(fn, s); });
    }
    if (rule.testExclusion && profiler.testFirst)
      o.testedEstimate = waitEstimate(tree, i, true, secondsPerTick, [&](std::uint8_t s) { return testedMin.at(fn, s); });
  }
  return out;
}

}  // namespace

bool requested() { return envFlag("WAITSCOPE_PROFILE"); }

RankOut treeOutput(double secondsPerTick) {
  const ProfileTree& tree = profiler.tree;
  const std::vector<std::uint64_t> exclusive = tree.exclusive();
  RankOut out;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  out.host = host;
  out.nodes.reserve(tree.nodes().size());
  for (std::uint32_t i = 0; i < tree.nodes().size(); ++i) {
    const Node& n = tree.nodes()[i];
    NodeOut o;
    o.parent = n.parent;
    if (n.region < kNumMpi) {
      o.region = kMpiNames[n.region];
      o.paradigm = "mpi";
    } else if (n.region - kFirstUserRegion < recorder.userRegions.size()) {
      const UserRegionDef& def = recorder.userRegions[n.region - kFirstUserRegion];
      o.region = def.name;
      o.paradigm = def.compiler ? "compiler" : "user";
      o.file = def.file;
      o.line = def.line;
    } else {
      o.region = "unknown region";
      o.paradigm = "user";
    }
    if (n.callSite != 0) sourceLineOf(n.callSite - 1, o.callSiteFile, o.callSiteLine);  // the call instruction
    o.visits = static_cast<double>(n.visits);
    o.exclusiveSeconds = static_cast<double>(exclusive[i]) * secondsPerTick;
    if (i == profiler.initNode) o.exclusiveSeconds += profiler.initSeconds;
    out.nodes.push_back(std::move(o));
  }
  return out;
}

double secondsPerTick() {
  const std::uint64_t ns = now(), t = ticks();
  return t > profiler.startTicks && ns > profiler.startNs
             ? static_cast<double>(ns - profiler.startNs) * 1e-9 / static_cast<double>(t - profiler.startTicks)
             : 1e-9;
}

void start() {
  profiler.testFirst = envFlag("WAITSCOPE_PROFILE_WAIT_TEST");
  profiler.useTsc = invariantTsc();
  for (std::uint32_t f = 0; f < kNumMpi; ++f) profiler.rules[f] = estimateRule(kMpiNames[f]);
  profiler.startNs = now();
  profiler.startTicks = ticks();
  recorder.profiling = true;
}

void recordInit(std::uint32_t fn, void* returnAddress, std::uint64_t initNs) {
  profiler.initNode = profiler.tree.child(profiler.current, fn, reinterpret_cast<std::uintptr_t>(returnAddress));
  profiler.tree.visit(profiler.initNode, 0);
  profiler.initSeconds = static_cast<double>(initNs) * 1e-9;
}

void enterUser(std::uint32_t region) {
  const std::uint32_t node = profiler.tree.child(profiler.current, region, 0);
  if (profiler.depth < ProfilerState::kMaxDepth) profiler.stack[profiler.depth] = {node, ticks()};
  ++profiler.depth;
  profiler.current = node;
}

void leaveUser() {
  if (profiler.depth == 0) return;
  --profiler.depth;
  if (profiler.depth < ProfilerState::kMaxDepth) {
    const OpenRegion& open = profiler.stack[profiler.depth];
    profiler.tree.visit(open.node, ticks() - open.enter);
  }
  profiler.current = profiler.depth == 0 ? kNone : profiler.stack[std::min(profiler.depth, ProfilerState::kMaxDepth) - 1].node;
}

void finish(std::uint32_t finalizeFn, void* returnAddress) {
  profiler.inMpi = true;
  // MPI_Finalize's visit: a barrier, as in the trace (its wait shows here).
  const std::uint64_t t0 = ticks();
  PMPI_Barrier(MPI_COMM_WORLD);
  const std::uint64_t t1 = ticks();
  record(finalizeFn, returnAddress, t1 - t0, Visit{});
  while (profiler.depth > 0) leaveUser();  // regions still open (main) end here
  recorder.profiling = false;

  const std::uint64_t endNs = now();
  const std::uint64_t endTicks = ticks();
  const double secondsPerTick =
      endTicks > profiler.startTicks ? static_cast<double>(endNs - profiler.startNs) * 1e-9 / static_cast<double>(endTicks - profiler.startTicks)
                               : 1e-9;

  // M_p(f, s) per MPI function (all visits, and the visits the test did not exclude).
  MinimumTable localMin(kNumMpi), testedMin(kNumMpi);
  const ProfileTree& tree = profiler.tree;
  for (const Node& n : tree.nodes()) {
    if (n.region >= kNumMpi || profiler.rules[n.region].pattern == Pattern::None) continue;
    for (std::uint32_t s = n.firstSlot; s != kNone; s = tree.slots()[s].next) {
      const BinSlot& slot = tree.slots()[s];
      if (slot.all.count) localMin.observe(n.region, slot.sizeClass, static_cast<double>(slot.all.min) * secondsPerTick);
      if (slot.tested.count)
        testedMin.observe(n.region, slot.sizeClass, static_cast<double>(slot.tested.min) * secondsPerTick);
    }
  }
  // M(f, s) for the collectives: one MIN all-reduction over the functions with global scope.
  std::vector<std::uint32_t> globalIndex(kNumMpi, kNone);
  std::uint32_t globals = 0;
  for (std::uint32_t f = 0; f < kNumMpi; ++f)
    if (profiler.rules[f].pattern != Pattern::None && profiler.rules[f].scope == Scope::Global) globalIndex[f] = globals++;
  MinimumTable globalMin(globals);
  for (std::uint32_t f = 0; f < kNumMpi; ++f)
    if (globalIndex[f] != kNone)
      for (int s = 0; s < kSizeClasses; ++s)
        globalMin.observe(globalIndex[f], static_cast<std::uint8_t>(s), localMin.at(f, static_cast<std::uint8_t>(s)));
  PMPI_Allreduce(MPI_IN_PLACE, globalMin.values().data(), static_cast<int>(globalMin.values().size()), MPI_DOUBLE,
                 MPI_MIN, MPI_COMM_WORLD);
  unsigned long long bytes = tree.memoryBytes(), maxBytes = 0;
  PMPI_Reduce(&bytes, &maxBytes, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);

  // Every process' call paths and estimates to rank 0.
  const std::string mine = serialize(rankOutput(secondsPerTick, localMin, testedMin, globalMin, globalIndex));
  int size = static_cast<int>(mine.size());
  const int n = recorder.worldSize;
  std::vector<int> sizes(static_cast<std::size_t>(n)), displs(static_cast<std::size_t>(n));
  PMPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string all;
  if (recorder.worldRank == 0) {
    int total = 0;
    for (int r = 0; r < n; ++r) displs[static_cast<std::size_t>(r)] = total, total += sizes[static_cast<std::size_t>(r)];
    all.resize(static_cast<std::size_t>(total));
  }
  PMPI_Gatherv(mine.data(), size, MPI_BYTE, all.data(), sizes.data(), displs.data(), MPI_BYTE, 0, MPI_COMM_WORLD);
  if (recorder.worldRank != 0) return;

  // The global minima M(f, s) as meta data: what the collective estimates subtracted.
  std::string minima;
  for (std::uint32_t f = 0; f < kNumMpi; ++f) {
    if (globalIndex[f] == kNone) continue;
    for (int c = 0; c < kSizeClasses; ++c) {
      const double m = globalMin.at(globalIndex[f], static_cast<std::uint8_t>(c));
      if (m == MinimumTable::kUnset) continue;
      char value[32];
      std::snprintf(value, sizeof value, "%.3g", m);
      minima += (minima.empty() ? "" : "; ") + std::string(kMpiNames[f]) + " " +
                sizeClassLabel(static_cast<std::uint8_t>(c)) + ": " + value + " s";
    }
  }

  const char* env = std::getenv("WAITSCOPE_PROFILE_OUT");
  const std::string path = env && *env ? env : report::timestampedName("waitscope-profile-%Y%m%d-%H%M%S.waitscope");
  try {
    std::vector<RankOut> ranks;
    for (int r = 0; r < n; ++r)
      ranks.push_back(deserialize(all.substr(static_cast<std::size_t>(displs[static_cast<std::size_t>(r)]),
                                             static_cast<std::size_t>(sizes[static_cast<std::size_t>(r)]))));
    ReportSettings settings;
    settings.testExclusion = profiler.testFirst;
    settings.meta = {{"waitscope_version", WAITSCOPE_VERSION},
                     {"command_line", commandLine()},
                     {"created", report::isoUtcNow()},
                     {"clock", profiler.useTsc ? "TSC (invariant), calibrated against CLOCK_MONOTONIC" : "CLOCK_MONOTONIC"},
                     {"profile_bytes_max", std::to_string(maxBytes)},
                     {"global_minima", minima}};
    report::writeReport(buildProfileReport(ranks, settings), path);
    if (!std::getenv("WAITSCOPE_QUIET")) std::fprintf(stderr, "waitscope: profile written to %s\n", path.c_str());
  } catch (const report::ReportError& e) {
    std::fprintf(stderr, "waitscope: %s\n", e.what());  // names the file and what to do
  } catch (const std::exception& e) {
    std::fprintf(stderr, "waitscope: cannot write the profile report %s: %s\n", path.c_str(), e.what());
  }
}

}  // namespace waitscope::measure::profile
