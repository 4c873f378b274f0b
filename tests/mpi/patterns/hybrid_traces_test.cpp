// Hybrid traces (MPI + OpenMP threads + CUDA streams): the MPI part is analyzed for wait
// states, the threads and streams get their time metrics, and Score-P's CUDA memory copies
// (RMA records on windows of the CUDA paradigm) are recognized, never replayed as MPI RMA.
// Expected values come from the trace's own events, read with the project's reader.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "analysis/report/pop_metrics.h"
#include "analysis/timeline/timeline_index.h"
#include "analysis/trace/otf2_reader.h"
#include "analysis/trace/otf2_reader_mpi.h"
#include "analysis/trace/paradigms.h"
#include "tests/mpi/patterns/analysis_test_support.h"
#include "tests/support/test_support.h"

namespace waitscope::test {
namespace {

using report::LocationKind;
using trace::EventKind;

constexpr double kEps = 1e-9;

trace::Trace readQuietly(const std::string& anchor) {
  trace::ReadOptions options;
  options.warn = [](const std::string&) {};
  return trace::readTrace(anchor, options);
}

// The metric-inclusive total of `metric` over the call paths at report location `location`.
double atLocation(const report::Report& rep, const std::string& metric, std::uint32_t location) {
  return totalOf(rep, metric, location);
}

// Per thread or stream of the trace: its number of ENTERs and the time its outermost regions
// cover (what the report's visits and time hold for it).
struct OwnTimes {
  double visits = 0.0;
  double time = 0.0;
};
OwnTimes ownTimes(const trace::LocationEvents& location) {
  OwnTimes out;
  int depth = 0;
  double entered = 0.0;
  for (const trace::Event& e : location.events) {
    if (e.kind == EventKind::Enter) {
      out.visits += 1.0;
      if (depth++ == 0) entered = e.time;
    } else if (e.kind == EventKind::Leave && --depth == 0) {
      out.time += e.time - entered;
    }
  }
  return out;
}

// Wait at a synchronizing collective per rank, from the ENTERs of its region on every rank:
// the k-th call waits from its own ENTER until the last rank's k-th ENTER.
std::vector<double> collectiveWaits(const trace::Trace& full, const std::string& region) {
  std::vector<std::vector<double>> enters(full.locations.size());
  for (std::size_t r = 0; r < full.locations.size(); ++r)
    for (const trace::Event& e : full.locations[r].events)
      if (e.kind == EventKind::Enter && full.defs->regions[full.callTree[e.ref].region].name == region)
        enters[r].push_back(e.time);
  std::vector<double> waits(full.locations.size(), 0.0);
  for (std::size_t k = 0; k < enters[0].size(); ++k) {
    double last = 0.0;
    for (const auto& e : enters) last = std::max(last, e.at(k));
    for (std::size_t r = 0; r < enters.size(); ++r) waits[r] += last - enters[r][k];
  }
  return waits;
}

std::size_t transfersOn(const trace::LocationEvents& location) {
  const auto isCopy = [](const trace::Event& e) { return e.kind == EventKind::RmaPut || e.kind == EventKind::RmaGet; };
  return static_cast<std::size_t>(std::count_if(location.events.begin(), location.events.end(), isCopy));
}

// The report lists each thread and stream after the processes, by rank, as the reader loads them.
void expectThreadLocations(const report::Report& rep, const trace::Trace& full) {
  const std::size_t processes = full.defs->worldLocations.size();
  ASSERT_EQ(rep.processCount(), processes);
  ASSERT_EQ(rep.locations.size(), processes + full.threadLocations.size());
  const std::vector<trace::Rank> processRank = full.defs->processRanks();
  for (std::size_t k = 0; k < full.threadLocations.size(); ++k) {
    const auto l = static_cast<std::uint32_t>(processes + k);
    const trace::Location& def = full.defs->locations[full.threadLocations[k].location];
    const report::Location& got = rep.locations[l];
    EXPECT_EQ(got.rank, processRank[full.threadLocations[k].location]);
    EXPECT_TRUE(got.name.ends_with(" / " + def.name)) << got.name;
    EXPECT_EQ(got.kind, def.type == trace::LocationType::AcceleratorStream ? LocationKind::Accelerator
                                                                            : LocationKind::Thread);
    const OwnTimes own = ownTimes(full.threadLocations[k]);
    EXPECT_NEAR(atLocation(rep, "visits", l), own.visits, kEps) << got.name;
    EXPECT_NEAR(atLocation(rep, "time", l), own.time, 1e-7) << got.name;
    // No wait states on a thread or stream: its time is computation or calls, nothing else.
    EXPECT_EQ(std::count_if(rep.instances.begin(), rep.instances.end(),
                            [&](const report::Instance& i) { return i.location == l; }),
              0);
  }
}

// Two ranks; rank 0 has an OpenMP thread, rank 1 a CUDA stream whose memory copies Score-P
// would write as RMA records on a CUDA window (the master's window create included).
TEST(HybridTraces, ConstructedHybridTrace) {
  ASSERT_EQ(worldSize(), 2) << "run with mpiexec -n 2 (ctest does)";
  trace::TraceBuilder b(2);
  b.paradigmRegion("!$omp parallel", trace::Paradigm::OpenMp);
  b.paradigmRegion("jacobi_kernel", trace::Paradigm::Cuda);
  trace::RankBuilder& omp = b.addThread(0, "OMP thread 1");
  trace::RankBuilder& stream = b.addThread(1, "CUDA[0:7]", trace::LocationType::AcceleratorStream);
  const trace::WinId cuda =
      b.defineParadigmWindow(trace::Paradigm::Cuda, {b.rank(1).location(), stream.location()});

  b.rank(0).enter(0.0, "main");
  b.rank(0).recv(1.0, 3.0, 1, 8, 0);  // Late Sender: the send starts at 2.5
  b.rank(0).barrier(3.5, 4.0);
  b.rank(0).leave(5.0, "main");
  b.rank(1).enter(0.0, "main");
  b.rank(1).event(EventKind::RmaWinCreate, 0.1, trace::RmaRecord{cuda});
  b.rank(1).send(2.5, 2.6, 0, 8, 0);
  b.rank(1).barrier(2.7, 4.0);  // waits until rank 0 enters at 3.5
  b.rank(1).event(EventKind::RmaWinDestroy, 4.5, trace::RmaRecord{cuda});
  b.rank(1).leave(5.0, "main");

  omp.enter(1.0, "!$omp parallel").leave(2.0, "!$omp parallel");
  omp.enter(2.5, "!$omp parallel").leave(3.25, "!$omp parallel");

  trace::RmaRecord get{cuda};
  get.remote = 0;  // the host thread, member 0 of the window's communicator
  get.bytes = 1024;
  get.matchingId = 42;
  stream.event(EventKind::RmaWinCreate, 0.1, trace::RmaRecord{cuda});
  stream.event(EventKind::RmaGet, 1.0, get);
  trace::RmaRecord done{cuda};
  done.matchingId = 42;
  stream.event(EventKind::RmaOpCompleteBlocking, 1.1, done);
  stream.enter(1.2, "jacobi_kernel").leave(1.5, "jacobi_kernel");
  trace::RmaRecord put = get;
  stream.event(EventKind::RmaPut, 1.6, put);
  stream.event(EventKind::RmaOpCompleteBlocking, 1.7, done);

  const TempDir dir("waitscope-hybrid");
  std::string anchor;
  if (isRoot()) anchor = b.write((dir / "hybrid").string());
  int length = static_cast<int>(anchor.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  anchor.resize(static_cast<std::size_t>(length));
  MPI_Bcast(anchor.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);

  const report::Report rep = analyzeFile(anchor);
  if (isRoot()) {
    EXPECT_NEAR(valueOf(rep, "mpi_latesender", "main/MPI_Recv", 0), 2.5 - 1.0, kEps);
    EXPECT_NEAR(valueOf(rep, "mpi_barrier_wait", "main/MPI_Barrier", 1), 3.5 - 2.7, kEps);
    EXPECT_NEAR(totalOf(rep, "mpi_latesender"), 2.5 - 1.0, kEps);
    ASSERT_EQ(rep.locations.size(), 4u);
    EXPECT_EQ(rep.locations[2].name, "MPI Rank 0 / OMP thread 1");
    EXPECT_EQ(rep.locations[2].kind, LocationKind::Thread);
    EXPECT_EQ(rep.locations[2].rank, 0u);
    EXPECT_EQ(rep.locations[3].name, "MPI Rank 1 / CUDA[0:7]");
    EXPECT_EQ(rep.locations[3].kind, LocationKind::Accelerator);
    EXPECT_EQ(rep.locations[3].rank, 1u);
    EXPECT_NEAR(valueOf(rep, "visits", "!$omp parallel", 2), 2.0, kEps);
    EXPECT_NEAR(valueOf(rep, "comp", "!$omp parallel", 2), (2.0 - 1.0) + (3.25 - 2.5), kEps);
    EXPECT_NEAR(valueOf(rep, "visits", "jacobi_kernel", 3), 1.0, kEps);
    EXPECT_NEAR(valueOf(rep, "time", "jacobi_kernel", 3), 1.5 - 1.2, kEps);
    // The thread's time is not the process's: rank 0's time stays its main's 5 s.
    EXPECT_NEAR(atLocation(rep, "time", 0), 5.0, kEps);
    EXPECT_EQ(rep.metaValue("unanalyzed_paradigms"),
              trace::paradigmDisplayName(trace::Paradigm::OpenMp) + ", " +
                  trace::paradigmDisplayName(trace::Paradigm::Cuda) + ": time metrics only, no wait-state analysis");
    // POP is about the two processes, not the four locations.
    EXPECT_EQ(report::popMetrics(rep, "run").processes, 2u);

    // The timeline: a row per location, the stream's two copies as transfers to its host thread.
    const timeline::TimelineIndex index = timeline::buildTimelineIndex(anchor, rep);
    ASSERT_EQ(index.locations.size(), 4u);
    ASSERT_EQ(index.locations[3].outgoing.size(), 2u);
    for (const timeline::Transfer& t : index.locations[3].outgoing.items()) EXPECT_EQ(t.target, 1u);
    EXPECT_EQ(index.locations[1].incoming.size(), 2u);
    EXPECT_NEAR(index.locations[3].outgoing.items()[0].start, 1.0, kEps);
    EXPECT_NEAR(index.locations[3].outgoing.items()[0].end, 1.1, kEps);
  }
  MPI_Barrier(MPI_COMM_WORLD);  // rank 0 removes the directory only after every rank read it
}

// casita_2_cuda_simple: per rank a master thread, an OpenMP thread and a CUDA stream; the GPU
// memory copies are RMA records on CUDA windows.
TEST(HybridTraces, CasitaCudaSimple) {
  ASSERT_EQ(worldSize(), 2) << "a 2-rank trace: run with mpiexec -n 2 (ctest does)";
  const std::string anchor = sharedTrace("casita_2_cuda_simple");
  const report::Report rep = analyzeFile(anchor);
  if (!isRoot()) return;
  const trace::Trace full = readQuietly(anchor);
  ASSERT_EQ(full.threadLocations.size(), 4u);  // per rank "OMP thread 1" and "CUDA[0:7]"
  expectThreadLocations(rep, full);
  const std::vector<double> barrier = collectiveWaits(full, "MPI_Barrier");
  const std::vector<double> allreduce = collectiveWaits(full, "MPI_Allreduce");
  for (unsigned r = 0; r < 2; ++r) {
    EXPECT_NEAR(totalOf(rep, "mpi_barrier_wait", r), barrier[r], 1e-7) << "rank " << r;
    EXPECT_NEAR(totalOf(rep, "mpi_wait_nxn", r), allreduce[r], 1e-7) << "rank " << r;
  }
  EXPECT_FALSE(rep.metaValue("unanalyzed_paradigms").empty());

  // The GPU memory copies: transfers from each stream's row.
  const timeline::TimelineIndex index = timeline::buildTimelineIndex(anchor, rep);
  ASSERT_EQ(index.locations.size(), rep.locations.size());
  for (std::size_t k = 0; k < full.threadLocations.size(); ++k) {
    const std::size_t row = 2 + k;
    EXPECT_EQ(index.locations[row].outgoing.size(), transfersOn(full.threadLocations[k])) << rep.locations[row].name;
  }
  std::size_t copies = 0;
  for (const auto& t : full.threadLocations) copies += transfersOn(t);
  EXPECT_GT(copies, 0u);
  // The host threads' own events hold no record of the CUDA windows.
  for (const trace::LocationEvents& rank : full.locations) EXPECT_EQ(transfersOn(rank), 0u);
}

// casita_1_xeonphi_jacobi_01: one rank with an OpenMP thread and two Xeon Phi locations.
TEST(HybridTraces, CasitaXeonPhi) {
  ASSERT_EQ(worldSize(), 1) << "a 1-rank trace: run with mpiexec -n 1 (ctest does)";
  const std::string anchor = sharedTrace("casita_1_xeonphi_jacobi_01");
  const report::Report rep = analyzeFile(anchor);
  const trace::Trace full = readQuietly(anchor);
  ASSERT_EQ(full.threadLocations.size(), 3u);
  expectThreadLocations(rep, full);
  EXPECT_FALSE(rep.metaValue("unanalyzed_paradigms").empty());
  // Here the host thread writes the copies (to the MIC locations): kept out of the rank's
  // events, drawn as transfers from its row to the MIC rows.
  ASSERT_EQ(full.otherParadigmRecords.size(), 1u);
  const std::size_t copies = transfersOn(full.otherParadigmRecords[0]);
  EXPECT_GT(copies, 0u);
  EXPECT_EQ(transfersOn(full.locations[0]), 0u);
  const timeline::TimelineIndex index = timeline::buildTimelineIndex(anchor, rep);
  ASSERT_EQ(index.locations.size(), 4u);
  EXPECT_EQ(index.locations[0].outgoing.size(), copies);
  std::size_t incoming = 0;
  for (std::size_t row = 1; row < 4; ++row) {
    if (rep.locations[row].kind == LocationKind::Accelerator) incoming += index.locations[row].incoming.size();
  }
  EXPECT_EQ(incoming, copies);
}

// One warning line names what gets no wait-state analysis, instead of a line per kind of skipped
// location or region paradigm.
TEST(HybridTraces, OneLineNamesTheParadigmsNotAnalyzed) {
  if (!isRoot()) return;
  std::vector<std::string> warnings;
  trace::ReadOptions options;
  options.warn = [&](const std::string& line) { warnings.push_back(line); };
  trace::readTrace(sharedTrace("casita_2_cuda_simple"), options);
  const std::string expected = trace::paradigmDisplayName(trace::Paradigm::OpenMp) + ", " +
                               trace::paradigmDisplayName(trace::Paradigm::Cuda) +
                               ": time metrics only, no wait-state analysis";
  EXPECT_EQ(std::count(warnings.begin(), warnings.end(), expected), 1);
  for (const std::string& w : warnings) {
    EXPECT_EQ(w.find("skipping"), std::string::npos) << w;
    EXPECT_EQ(w.find("plain regions"), std::string::npos) << w;
  }
}

// A broken hybrid trace still gets a one-line error naming the file: here a thread's events.
TEST(HybridTraces, TruncatedThreadEventsAreAnError) {
  if (!isRoot()) return;
  const TempDir dir("waitscope-hybrid-broken");
  const std::string anchor = copyArchive(sharedTrace("casita_2_cuda_simple"), dir.path());
  const std::string events = (dir / "traces" / "4294967296.evt").string();  // rank 0's OMP thread 1
  std::filesystem::resize_file(events, std::filesystem::file_size(events) / 2);
  try {
    readQuietly(anchor);
    ADD_FAILURE() << "a truncated thread event file was read";
  } catch (const trace::TraceError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("4294967296.evt"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace waitscope::test
