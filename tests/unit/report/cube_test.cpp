// Cube 4: our .cubex read back by our reader equals the report; Score-P's
// profile of the casita late-sender/barrier test opens with the metric, call
// and system trees and the values worked out by hand from its anchor.xml and
// data files (docs/cube.md); dense, compressed and byte-swapped members.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>

#include "analysis/report/cube_reader.h"
#include "analysis/report/cube_writer.h"
#include "analysis/report/open_report.h"
#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "analysis/report/tar_archive.h"
#include "tests/support/test_support.h"
#include "tests/unit/report/report_test_util.h"
#include "tests/unit/report/sample_report.h"

using namespace waitscope::report;
using waitscope::test::sampleReport;
using waitscope::test::TempDir;

namespace {

const std::string kScorepProfile =
    std::string(WAITSCOPE_SHARED_DIR) + "/traces/casita_4_mpi_ls_barr/profile.cubex";

// Severity rows keyed by (metric name, call path), so row order does not matter.
std::map<std::pair<std::string, std::uint32_t>, std::vector<double>> rowsOf(const Report& r) {
  std::map<std::pair<std::string, std::uint32_t>, std::vector<double>> out;
  for (const SeverityRow& row : r.severities) out[{r.metrics[row.metric].uniqueName, row.callPath}] = row.values;
  return out;
}

std::vector<double> row(const Report& r, const std::string& metric, std::uint32_t callPath) {
  const auto rows = rowsOf(r);
  const auto it = rows.find({metric, callPath});
  return it == rows.end() ? std::vector<double>{} : it->second;
}

TEST(cube, OurCubexReadsBackAsTheSameReport) {
  TempDir dir("waitscope-cube");
  const std::string path = (dir / "sample.cubex").string();
  const Report original = sampleReport();
  writeCube(original, path);
  const Report back = readCube(path);

  // Everything Cube holds comes back exactly (values by bit pattern); instances
  // and the critical path have no place in Cube.
  Report expected = original;
  expected.instances.clear();
  expected.criticalPath.clear();
  std::sort(expected.severities.begin(), expected.severities.end(),
            [](const SeverityRow& a, const SeverityRow& b) {
              return std::pair(a.metric, a.callPath) < std::pair(b.metric, b.callPath);
            });
  Report got = back;
  got.meta = expected.meta;
  waitscope::test::expectSameReport(expected, got);
  // Our meta comes back, with where it came from.
  for (const auto& [key, value] : original.meta) EXPECT_EQ(back.metaValue(key), value) << key;
  EXPECT_EQ(back.metaValue("format"), "cube");
  EXPECT_EQ(back.metaValue("source"), path);
  EXPECT_EQ(back.metaValue("cube.Creator"), "Waitscope 0.1.0");
  EXPECT_EQ(metricTotals(back), metricTotals(original));
  EXPECT_EQ(openAnyReport(path).severities.size(), original.severities.size());
}

TEST(cube, OurCubexIsAPlainTarWithTheCubeMembers) {
  TempDir dir("waitscope-cube");
  const std::string path = (dir / "sample.cubex").string();
  writeCube(sampleReport(), path);
  // GNU tar agrees with our hand-written headers.
  const auto listing = waitscope::test::run("tar tf '" + path + "'");
  ASSERT_EQ(listing.exitCode, 0) << listing.err;
  std::string expected = "anchor.xml\n";
  for (int m = 0; m < 9; ++m) expected += std::to_string(m) + ".index\n" + std::to_string(m) + ".data\n";
  EXPECT_EQ(listing.out, expected);

  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::vector<TarEntry> entries = readTar(bytes);
  // Metric 3 is mpi_rma_sync_late_post (metric pre-order): rows at call paths 3
  // and 4 (pre-order positions), one double per location.
  ASSERT_EQ(entries[7].name, "3.index");
  const std::string index = entries[7].data;
  ASSERT_EQ(index.size(), 11U + 4 + 2 + 1 + 4 + 2 * 4);
  EXPECT_EQ(index.substr(0, 11), "CUBEX.INDEX");
  std::uint32_t count = 0, first = 0, second = 0;
  std::memcpy(&count, index.data() + 18, 4);
  std::memcpy(&first, index.data() + 22, 4);
  std::memcpy(&second, index.data() + 26, 4);
  EXPECT_EQ(count, 2U);
  EXPECT_EQ(first, 3U);
  EXPECT_EQ(second, 4U);
  const std::string data = entries[8].data;
  ASSERT_EQ(data.size(), 10U + 2 * 3 * 8);
  double values[6];
  std::memcpy(values, data.data() + 10, sizeof values);
  EXPECT_EQ(std::vector<double>(values, values + 6), (std::vector<double>{0.75, 0.0, 0.25, 0.0, 0.0, 0.125}));
  // Whole-number counts are UINT64, as Cube's tools expect for visits.
  EXPECT_NE(entries[0].data.find("<uniq_name>visits</uniq_name>\n      <dtype>UINT64</dtype>"), std::string::npos);
  EXPECT_NE(entries[0].data.find("<cnode id=\"2\" line=\"12\" mod=\"foo.c\" calleeId=\"2\">"), std::string::npos);
}

// A hybrid run's threads and GPU streams are locations of their process's group, with the
// location types Cube 4 reads ("thread", "gpu", "metric").
TEST(cube, ThreadsAndGpuStreamsHaveCubesLocationTypes) {
  TempDir dir("waitscope-cube");
  const std::string path = (dir / "hybrid.cubex").string();
  Report hybrid = sampleReport();
  hybrid.locations.push_back({"MPI Rank 0 / OMP thread 1", 0, 1, LocationKind::Thread});
  hybrid.locations.push_back({"MPI Rank 0 / CUDA[0:7]", 0, 1, LocationKind::Accelerator});
  hybrid.locations.push_back({"MPI Rank 1 / PAPI", 1, 1, LocationKind::Metric});
  const std::size_t processes = hybrid.locations.size() - 3;
  for (SeverityRow& r : hybrid.severities) {
    r.values.resize(hybrid.locations.size(), 0.0);
    for (std::size_t l = processes; l < r.values.size(); ++l) r.values[l] = 2.0 * static_cast<double>(l + 1);
  }
  writeCube(hybrid, path);
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string anchor = readTar(bytes).at(0).data;
  const auto typeOf = [&](const std::string& name) {
    const std::size_t at = anchor.find("<name>" + name + "</name>");
    if (at == std::string::npos) return std::string("(missing)");
    const std::size_t open = anchor.find("<type>", at) + 6;
    return anchor.substr(open, anchor.find("</type>", open) - open);
  };
  EXPECT_EQ(typeOf("Master thread"), "thread");
  EXPECT_EQ(typeOf("OMP thread 1"), "thread");
  EXPECT_EQ(typeOf("CUDA[0:7]"), "gpu");
  EXPECT_EQ(typeOf("PAPI"), "metric");
  EXPECT_EQ(anchor.find("<type>accelerator</type>"), std::string::npos);
  // Rank 0's group holds its master thread, its OpenMP thread and its stream.
  const std::size_t group = anchor.find("<name>MPI Rank 0</name>");
  const std::size_t next = anchor.find("</locationgroup>", group);
  EXPECT_LT(anchor.find("<name>OMP thread 1</name>", group), next);
  EXPECT_LT(anchor.find("<name>CUDA[0:7]</name>", group), next);
  // Read back, the threads and streams are again locations of their kind after the processes
  // (Cube lists each after its master thread), and every value sits at its location.
  const Report back = readCube(path);
  ASSERT_EQ(back.locations.size(), hybrid.locations.size());
  for (std::size_t l = 0; l < hybrid.locations.size(); ++l) {
    EXPECT_EQ(back.locations[l].name, hybrid.locations[l].name) << l;
    EXPECT_EQ(back.locations[l].rank, hybrid.locations[l].rank) << l;
    EXPECT_EQ(back.locations[l].kind, hybrid.locations[l].kind) << l;
  }
  EXPECT_EQ(back.processCount(), hybrid.processCount());
  EXPECT_EQ(rowsOf(back), rowsOf(hybrid));
}

TEST(cube, DeepCallTreesNeitherExhaustTheStackNorBloatTheFile) {
  // Recursive programs give call trees thousands of levels deep.
  Report r = sampleReport();
  r.instances.clear();
  r.criticalPath.clear();
  constexpr std::uint32_t kDepth = 50000;
  for (std::uint32_t d = 0; d < kDepth; ++d)
    r.callPaths.push_back({d == 0 ? 0U : static_cast<std::uint32_t>(r.callPaths.size() - 1), 1, "foo.c", 7});
  r.severities.push_back({0, static_cast<std::uint32_t>(r.callPaths.size() - 1), {0.5, 0.25, 0.125}});
  const std::string bytes = cubeArchive(r);
  EXPECT_LT(bytes.size(), 200U * kDepth);  // indentation is capped
  const Report back = readCubeArchive(bytes, "deep.cubex");
  ASSERT_EQ(back.callPaths.size(), r.callPaths.size());
  EXPECT_EQ(back.callPaths.back().parent, static_cast<std::uint32_t>(r.callPaths.size() - 2));
  EXPECT_EQ(row(back, "time", static_cast<std::uint32_t>(r.callPaths.size() - 1)), (std::vector<double>{0.5, 0.25, 0.125}));
  // An unclosed nest that deep is a clean error, not a stack overflow.
  std::string nest = "<cube>";
  for (std::uint32_t d = 0; d < kDepth; ++d) nest += "<cnode>";
  try {
    readCubeArchive(writeTar({{"anchor.xml", nest}}), "nest.cubex");
    ADD_FAILURE() << "an unclosed nest was read";
  } catch (const ReportError& e) {
    EXPECT_EQ(std::string(e.what()),
              "nest.cubex: damaged Cube file (anchor.xml line 1: <cnode> is not closed (truncated file?)); write it "
              "again, or check it with Cube's cube_dump");
  }
}

TEST(cube, ScorepProfileOpensWithItsThreeTrees) {
  const Report r = openAnyReport(kScorepProfile);
  EXPECT_EQ(r.metaValue("format"), "cube");
  EXPECT_EQ(r.metaValue("cube_version"), "4.3");
  EXPECT_EQ(r.metaValue("cube.Creator"), "Score-P 1.3-trunk");
  // min_time and max_time (MINDOUBLE, MAXDOUBLE) do not add up along the trees.
  EXPECT_EQ(r.metaValue("cube_skipped_metrics"), "min_time,max_time");

  ASSERT_EQ(r.metrics.size(), 4U);
  const std::vector<std::string> names = {"visits", "time", "bytes_sent", "bytes_received"};
  const std::vector<MetricUnit> units = {MetricUnit::Occurrences, MetricUnit::Seconds, MetricUnit::Bytes,
                                         MetricUnit::Bytes};
  for (std::size_t m = 0; m < 4; ++m) {
    EXPECT_EQ(r.metrics[m].uniqueName, names[m]);
    EXPECT_EQ(r.metrics[m].unit, units[m]);
    EXPECT_EQ(r.metrics[m].parent, kNoId);
  }
  EXPECT_EQ(r.metrics[1].displayName, "Time");
  EXPECT_EQ(r.metrics[1].description, "Total CPU allocation time");

  // The call tree in pre-order (cnode 11, MPI_Recv, is written after cnode 6).
  ASSERT_EQ(r.regions.size(), 212U);
  ASSERT_EQ(r.callPaths.size(), 12U);
  const std::vector<std::string> paths = {
      "main",         "main/MPI_Init",        "main/MPI_Comm_size",       "main/MPI_Comm_rank",
      "main/late_sender", "main/late_sender/foo", "main/late_sender/MPI_Send", "main/late_sender/MPI_Recv",
      "main/barrier", "main/barrier/foo",     "main/barrier/MPI_Barrier", "main/MPI_Finalize"};
  for (std::uint32_t c = 0; c < 12; ++c) EXPECT_EQ(callPathString(r, c), paths[c]) << c;
  const Region& lateSender = r.regions[r.callPaths[4].region];
  EXPECT_EQ(lateSender.file, "/home/felix/working/zih/cuda/casita_trunk/code/tests/generators/gen_mpi.c");
  EXPECT_EQ(lateSender.beginLine, 52U);
  EXPECT_EQ(lateSender.endLine, 0U);  // -1 in the file: unknown
  EXPECT_EQ(lateSender.paradigm, "compiler");
  EXPECT_EQ(r.regions[r.callPaths[7].region].file, "MPI");

  ASSERT_EQ(r.systemNodes.size(), 2U);
  EXPECT_EQ(r.systemNodes[0].name, "machine Linux");
  EXPECT_EQ(r.systemNodes[0].className, "machine");
  EXPECT_EQ(r.systemNodes[1].name, "node zih");
  EXPECT_EQ(r.systemNodes[1].parent, 0U);
  ASSERT_EQ(r.locations.size(), 4U);
  for (std::uint32_t l = 0; l < 4; ++l) {
    EXPECT_EQ(r.locations[l].name, "MPI Rank " + std::to_string(l));
    EXPECT_EQ(r.locations[l].rank, l);
    EXPECT_EQ(r.locations[l].systemNode, 1U);
  }
}

TEST(cube, ScorepProfileValuesFollowTheRowOrderOfEachMetricType) {
  const Report r = readCube(kScorepProfile);
  // visits (EXCLUSIVE, UINT64): 0.index lists rows 0..11 in pre-order.
  EXPECT_EQ(row(r, "visits", 5), (std::vector<double>{1, 2, 2, 1}));   // late_sender/foo
  EXPECT_EQ(row(r, "visits", 6), (std::vector<double>{1, 1, 1, 0}));   // MPI_Send
  EXPECT_EQ(row(r, "visits", 7), (std::vector<double>{0, 1, 1, 1}));   // MPI_Recv
  // bytes_sent / bytes_received: sparse indices with the single rows 6 and 7.
  EXPECT_EQ(row(r, "bytes_sent", 6), (std::vector<double>{4, 4, 4, 0}));
  EXPECT_EQ(row(r, "bytes_received", 7), (std::vector<double>{0, 4, 4, 4}));
  EXPECT_EQ(rowsOf(r).count({"bytes_sent", 7}), 0U);

  // time (INCLUSIVE, DOUBLE): 1.data's rows are breadth-first (main; its six
  // callees; late_sender's three; barrier's two) and hold inclusive values;
  // exclusive = inclusive minus the callees' inclusive values.
  EXPECT_EQ(row(r, "time", 7), (std::vector<double>{0.0, 9.024860536, 10.005395537, 10.991066201}));  // row 9
  EXPECT_EQ(row(r, "time", 10), (std::vector<double>{4.6045e-05, 7.835209223, 6.843852608, 6.730411401}));  // row 11
  EXPECT_EQ(row(r, "time", 11), (std::vector<double>{7.3598e-05, 7.083e-05, 6.0705e-05, 1.7683e-05}));  // row 6
  EXPECT_EQ(row(r, "time", 4), (std::vector<double>{10.096515143 - 10.09635241 - 2.1303e-05 - 0.0,
                                                    11.073722171 - 2.048740044 - 4.093e-05 - 9.024860536,
                                                    12.125152005 - 2.119585766 - 2.3537e-05 - 10.005395537,
                                                    12.125761918 - 1.134627848 - 0.0 - 10.991066201}));
  EXPECT_EQ(row(r, "time", 0)[0],
            20.038829767 - 0.092993988 - 2.061e-06 - 9.03e-07 - 10.096515143 - 9.8492045 - 7.3598e-05);
  EXPECT_EQ(row(r, "time", 8)[1], 8.872003783 - 1.036743968 - 7.835209223);  // barrier on rank 1
}

// A Cube file assembled by hand: `anchor` plus members for metric 0.
std::string cubex(const std::string& metrics, const std::vector<TarEntry>& members) {
  std::vector<TarEntry> entries = {
      {"anchor.xml",
       "<?xml version=\"1.0\"?>\n<!-- hand-made -->\n<cube version=\"4.5\"><metrics>" + metrics +
           "</metrics><program>"
           "<region id=\"7\" mod=\"a.c\" begin=\"3\" end=\"9\" paradigm=\"user\"><name>a &amp; b</name></region>"
           "<region id=\"9\" mod=\"MPI\" begin=\"-1\" end=\"-1\" paradigm=\"mpi\"><name>MPI_Recv</name></region>"
           "<cnode id=\"0\" calleeId=\"7\"><cnode id=\"1\" calleeId=\"9\" line=\"5\" mod=\"a.c\"/></cnode>"
           "</program><system><systemtreenode Id=\"0\"><name>m</name><class>machine</class>"
           "<locationgroup Id=\"0\"><name>rank 0</name><rank>0</rank><type>process</type>"
           "<location Id=\"0\"><name>t0</name><rank>0</rank><type>thread</type></location>"
           "<location Id=\"1\"><name>t1</name><rank>1</rank><type>thread</type></location>"
           "</locationgroup></systemtreenode></system></cube>"}};
  entries.insert(entries.end(), members.begin(), members.end());
  return writeTar(entries);
}

template <typename T>
std::string raw(std::initializer_list<T> values, bool swap = false) {
  std::string out;
  for (const T v : values) {
    char bytes[sizeof(T)];
    std::memcpy(bytes, &v, sizeof v);
    if (swap) std::reverse(bytes, bytes + sizeof(T));
    out.append(bytes, sizeof(T));
  }
  return out;
}

TEST(cube, DenseIndexCompressedDataAndThreads) {
  const std::string values = raw<double>({1.5, 2.5, 0.25, 0.5});  // (a, t0) (a, t1) (MPI_Recv, t0) (MPI_Recv, t1)
  std::string zipped(compressBound(values.size()), '\0');
  uLongf size = zipped.size();
  ASSERT_EQ(compress(reinterpret_cast<Bytef*>(zipped.data()), &size, reinterpret_cast<const Bytef*>(values.data()),
                     values.size()),
            Z_OK);
  zipped.resize(size);
  const std::string data = "ZCUBEX.DATA" + raw<std::uint64_t>({1, 0, 0, size}) + zipped;
  const std::string index = "CUBEX.INDEX" + raw<std::uint32_t>({1}) + raw<std::uint16_t>({0}) + std::string(1, '\3');
  const Report r = readCubeArchive(
      cubex("<metric id=\"0\" type=\"EXCLUSIVE\"><uniq_name>time</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom>"
            "</metric>",
            {{"0.index", index}, {"0.data", data}}),
      "hand.cubex");
  ASSERT_EQ(r.locations.size(), 2U);
  EXPECT_EQ(r.locations[0].name, "rank 0");
  EXPECT_EQ(r.locations[0].kind, LocationKind::Process);
  EXPECT_EQ(r.locations[1].name, "rank 0 / t1");
  EXPECT_EQ(r.locations[1].rank, 0U);
  EXPECT_EQ(r.locations[1].kind, LocationKind::Thread);
  EXPECT_EQ(r.processCount(), 1U);
  EXPECT_EQ(r.regions[0].name, "a & b");
  EXPECT_EQ(r.regions[0].paradigm, "user");
  EXPECT_EQ(r.callPaths[1].callSiteLine, 5U);
  EXPECT_EQ(row(r, "time", 0), (std::vector<double>{1.5, 2.5}));
  EXPECT_EQ(row(r, "time", 1), (std::vector<double>{0.25, 0.5}));
}

TEST(cube, MetricTreeKeepsAdditiveMetricsAndDerivedOnes) {
  // A Scalasca-like tree: a derived roll-up, a MAXDOUBLE metric with an
  // additive child (which moves up), and an INCLUSIVE pattern below.
  const std::string sparse = "CUBEX.INDEX" + raw<std::uint32_t>({1}) + raw<std::uint16_t>({0}) + std::string(1, '\1');
  const Report r = readCubeArchive(
      cubex("<metric id=\"0\" type=\"POSTDERIVED\"><uniq_name>execution</uniq_name><dtype>DOUBLE</dtype>"
            "<uom>sec</uom><cubepl>metric::mpi()</cubepl>"
            "  <metric id=\"1\" type=\"EXCLUSIVE\"><uniq_name>max_time</uniq_name><dtype>MAXDOUBLE</dtype>"
            "    <metric id=\"2\" type=\"EXCLUSIVE\"><uniq_name>mpi</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom>"
            "      <metric id=\"3\" type=\"INCLUSIVE\"><uniq_name>mpi_latesender</uniq_name><dtype>DOUBLE</dtype>"
            "<uom>sec</uom></metric></metric></metric></metric>",
            {{"1.index", sparse + raw<std::uint32_t>({1, 0})},
             {"1.data", "CUBEX.DATA" + raw<double>({9, 9})},
             {"2.index", sparse + raw<std::uint32_t>({1, 1})},
             {"2.data", "CUBEX.DATA" + raw<double>({0.5, 0.25})},
             // inclusive rows, breadth first: 0 = a, 1 = a/MPI_Recv
             {"3.index", sparse + raw<std::uint32_t>({2, 0, 1})},
             {"3.data", "CUBEX.DATA" + raw<double>({2.0, 3.0, 1.5, 0.5})}}),
      "tree.cubex");
  ASSERT_EQ(r.metrics.size(), 3U);
  EXPECT_EQ(r.metrics[0].uniqueName, "execution");
  EXPECT_EQ(r.metrics[1].uniqueName, "mpi");
  EXPECT_EQ(r.metrics[1].parent, 0U);  // max_time's place
  EXPECT_EQ(r.metrics[2].uniqueName, "mpi_latesender");
  EXPECT_EQ(r.metrics[2].parent, 1U);
  EXPECT_EQ(r.metaValue("cube_skipped_metrics"), "max_time");
  EXPECT_EQ(r.metaValue("cube_derived_metrics"), "execution");
  EXPECT_EQ(row(r, "mpi", 1), (std::vector<double>{0.5, 0.25}));
  EXPECT_EQ(row(r, "mpi_latesender", 0), (std::vector<double>{0.5, 2.5}));  // inclusive minus MPI_Recv
  EXPECT_EQ(row(r, "mpi_latesender", 1), (std::vector<double>{1.5, 0.5}));
  EXPECT_EQ(metricTotals(r)[0], 0.75 + 5.0);  // a derived roll-up sums its children
}

TEST(cube, ByteSwappedIndexAndData) {
  const std::string index = "CUBEX.INDEX" + raw<std::uint32_t>({1}, true) + raw<std::uint16_t>({0}, true) +
                            std::string(1, '\1') + raw<std::uint32_t>({1}, true) + raw<std::uint32_t>({1}, true);
  const std::string data = "CUBEX.DATA" + raw<std::int32_t>({-3, 7}, true);
  const Report r = readCubeArchive(
      cubex("<metric id=\"0\"><uniq_name>visits</uniq_name><dtype>INT32</dtype><uom>occ</uom></metric>",
            {{"0.index", index}, {"0.data", data}}),
      "swapped.cubex");
  EXPECT_EQ(row(r, "visits", 1), (std::vector<double>{-3, 7}));
  EXPECT_TRUE(row(r, "visits", 0).empty());
}

TEST(cube, BadFilesGiveOneLineNamingTheFile) {
  TempDir dir("waitscope-cube");
  const auto expectError = [](const std::string& path, const std::string& phrase) {
    try {
      readCube(path);
      ADD_FAILURE() << path << " was read";
    } catch (const ReportError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(path + ": ", 0), 0U) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      EXPECT_NE(what.find(phrase), std::string::npos) << what;
    }
  };
  const auto write = [&](const std::string& name, const std::string& bytes) {
    const std::string path = (dir / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  };
  expectError((dir / "missing.cubex").string(), "cannot open: no such file");
  expectError(write("text.cubex", "hello"), "not a Cube file (not a tar archive");
  expectError(write("notar.cubex", std::string(1024, 'x')), "not a Cube file (not a tar archive (bad header checksum)");
  expectError(write("cube3.cube", "<?xml version=\"1.0\"?>\n<cube version=\"3.0\">"), "a Cube 3 file (plain XML)");
  expectError(write("noanchor.cubex", writeTar({{"0.data", "CUBEX.DATA"}})), "without anchor.xml");
  const std::string metric =
      "<metric id=\"0\"><uniq_name>time</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom></metric>";
  const std::string sparse = "CUBEX.INDEX" + raw<std::uint32_t>({1}) + raw<std::uint16_t>({0}) + std::string(1, '\1');
  expectError(write("row.cubex", cubex(metric, {{"0.index", sparse + raw<std::uint32_t>({1, 2})},
                                                {"0.data", "CUBEX.DATA" + raw<double>({1, 2})}})),
              "0.index: row position 2 out of range");
  expectError(write("short.cubex", cubex(metric, {{"0.index", sparse + raw<std::uint32_t>({1, 1})},
                                                  {"0.data", "CUBEX.DATA" + raw<double>({1})}})),
              "0.data holds 8 bytes of values, expected 16 (1 rows x 2 locations)");
  expectError(write("nan.cubex", cubex(metric, {{"0.index", sparse + raw<std::uint32_t>({1, 0})},
                                                {"0.data", "CUBEX.DATA" + raw<double>({1, std::numeric_limits<double>::quiet_NaN()})}})),
              "a value is not finite");
  expectError(write("xml.cubex", writeTar({{"anchor.xml", "<cube><metrics></cube>"}})),
              "damaged Cube file (anchor.xml line 1: unexpected </cube>)");
  // A report is not a Cube file; openAnyReport sends it to the report reader.
  const std::string report = (dir / "r.wsr").string();
  writeReport(sampleReport(), report);
  EXPECT_FALSE(looksLikeCube(report));
  EXPECT_EQ(openAnyReport(report).instances.size(), 3U);
}

}  // namespace
