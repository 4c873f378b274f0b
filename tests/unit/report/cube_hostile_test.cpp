// Small .cubex files that claim much more than they hold: memory must follow
// the bytes present, not the counts in anchor.xml. Each file is read in a
// child process whose peak memory growth is measured; the files are a few
// hundred kilobytes and claim (or, compressed, hold) about 128 MB of values.
// Also run under ASan/UBSan in the sanitizer job.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>

#include "analysis/report/cube_reader.h"
#include "analysis/report/report_io.h"
#include "analysis/report/tar_archive.h"
#include "tests/unit/child_process.h"

using namespace waitscope::report;
using waitscope::test::inChild;

namespace {

// Peak memory a reader may use for one of these files (a few hundred KB each);
// AddressSanitizer's red zones and quarantine about double it. Either bound is
// below the 128 MB that the claimed values would take.
#if defined(__SANITIZE_ADDRESS__)
constexpr long kBoundKb = 96 * 1024;
#else
constexpr long kBoundKb = 48 * 1024;
#endif

struct Shape {
  std::size_t cnodes = 4000;
  std::size_t groups = 4000;
  std::size_t threadsPerGroup = 1;
  std::string groupName = "MPI Rank";
};

// anchor.xml with one DOUBLE metric (id 0), `cnodes` root call paths and
// groups x threads locations.
std::string anchor(const Shape& s) {
  std::string xml = "<?xml version=\"1.0\"?>\n<cube version=\"4.3\">\n<metrics><metric id=\"0\" type=\"EXCLUSIVE\">"
                    "<uniq_name>time</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom></metric></metrics>\n"
                    "<program><region id=\"0\" mod=\"\" begin=\"-1\" end=\"-1\"><name>main</name></region>\n";
  for (std::size_t c = 0; c < s.cnodes; ++c) xml += "<cnode id=\"" + std::to_string(c) + "\" calleeId=\"0\"/>\n";
  xml += "</program>\n<system><systemtreenode Id=\"0\"><name>m</name><class>machine</class>\n";
  std::size_t location = 0;
  for (std::size_t g = 0; g < s.groups; ++g) {
    xml += "<locationgroup Id=\"" + std::to_string(g) + "\"><name>" + s.groupName + "</name><rank>" +
           std::to_string(g) + "</rank><type>process</type>";
    for (std::size_t t = 0; t < s.threadsPerGroup; ++t) xml += "<location Id=\"" + std::to_string(location++) + "\"/>";
    xml += "</locationgroup>\n";
  }
  return xml + "</systemtreenode></system></cube>\n";
}

template <typename T>
void append(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

std::string denseIndex() {
  std::string index = "CUBEX.INDEX";
  append(index, std::uint32_t{1});
  append(index, std::uint16_t{0});
  append(index, std::uint8_t{3});
  return index;
}

// ZCUBEX.DATA with one zlib block of `plain`.
std::string zippedData(const std::string& plain) {
  uLongf size = compressBound(static_cast<uLong>(plain.size()));
  std::string block(size, '\0');
  EXPECT_EQ(compress2(reinterpret_cast<Bytef*>(block.data()), &size, reinterpret_cast<const Bytef*>(plain.data()),
                      static_cast<uLong>(plain.size()), 9),
            Z_OK);
  block.resize(size);
  std::string data = "ZCUBEX.DATA";
  append(data, std::uint64_t{1});
  append(data, std::uint64_t{0});
  append(data, std::uint64_t{0});
  append(data, std::uint64_t{block.size()});
  return data + block;
}

struct Read {
  std::string result;  // "loaded N severity rows" or the error line
  long peakGrowthKb;
};

Read readInChild(const std::string& archive) {
  const auto child = inChild([&] {
    try {
      const Report r = readCubeArchive(archive, "hostile.cubex");
      return "loaded " + std::to_string(r.severities.size()) + " severity rows";
    } catch (const ReportError& e) {
      return std::string(e.what());
    }
  });
  EXPECT_TRUE(child.finished);
  return {child.result, child.peakGrowthKb};
}

// 4000 call paths x 4000 locations x 8 bytes = 128 MB of values claimed, one
// tiny compressed block present.
TEST(cube_hostile, CountsBeyondTheCompressedBytesAreRefusedWithoutAllocatingThem) {
  const Shape shape;
  const std::string archive = writeTar({{"anchor.xml", anchor(shape)}, {"0.index", denseIndex()},
                                        {"0.data", zippedData(std::string(4096, '\0'))}});
  ASSERT_LT(archive.size(), 1u << 20);
  const Read read = readInChild(archive);
  EXPECT_EQ(read.result,
            "hostile.cubex: damaged Cube file (0.data holds 4096 bytes of values, expected 128000000 (4000 rows x 4000 "
            "locations)); write it again, or check it with Cube's cube_dump");
  EXPECT_LT(read.peakGrowthKb, kBoundKb);
}

TEST(cube_hostile, CountsBeyondThePlainBytesAreRefusedWithoutAllocatingThem) {
  const std::string archive = writeTar(
      {{"anchor.xml", anchor(Shape())}, {"0.index", denseIndex()}, {"0.data", "CUBEX.DATA" + std::string(64, '\0')}});
  const Read read = readInChild(archive);
  EXPECT_NE(read.result.find("0.data holds 64 bytes of values, expected 128000000"), std::string::npos) << read.result;
  EXPECT_LT(read.peakGrowthKb, kBoundKb);
}

// A valid file: 128 MB of values, all zero, compress to about 130 KB. Zero rows
// add nothing, so they are never kept.
TEST(cube_hostile, CompressedZerosLoadInLittleMemory) {
  const Shape shape;
  const std::string archive = writeTar({{"anchor.xml", anchor(shape)}, {"0.index", denseIndex()},
                                        {"0.data", zippedData(std::string(shape.cnodes * shape.groups * 8, '\0'))}});
  ASSERT_LT(archive.size(), 1u << 20);
  const Read read = readInChild(archive);
  EXPECT_EQ(read.result, "loaded 0 severity rows");
  EXPECT_LT(read.peakGrowthKb, kBoundKb);
}

// A compressed block that holds more than the values need is refused as it unpacks.
TEST(cube_hostile, BlockHoldingMoreThanTheValuesIsRefused) {
  Shape shape;
  shape.cnodes = 4;
  shape.groups = 2;
  const std::string archive = writeTar({{"anchor.xml", anchor(shape)}, {"0.index", denseIndex()},
                                        {"0.data", zippedData(std::string(64u << 20, '\0'))}});
  const Read read = readInChild(archive);
  EXPECT_NE(read.result.find("0.data: the compressed blocks hold more than the 64 bytes of values expected"),
            std::string::npos)
      << read.result;
  EXPECT_LT(read.peakGrowthKb, kBoundKb);
}

// A sparse index whose count exceeds its own bytes.
TEST(cube_hostile, SparseIndexCountBeyondItsBytesIsRefused) {
  std::string index = "CUBEX.INDEX";
  append(index, std::uint32_t{1});
  append(index, std::uint16_t{0});
  append(index, std::uint8_t{1});
  append(index, std::uint32_t{3999});
  const std::string archive =
      writeTar({{"anchor.xml", anchor(Shape())}, {"0.index", index}, {"0.data", std::string("CUBEX.DATA")}});
  const Read read = readInChild(archive);
  EXPECT_NE(read.result.find("0.index has 22 bytes, expected 16018"), std::string::npos) << read.result;
  EXPECT_LT(read.peakGrowthKb, kBoundKb);
}

// One long process name and thousands of threads: each thread's name repeats
// the process's, so the repeated part is cut.
TEST(cube_hostile, LongProcessNameTimesManyThreadsStaysSmall) {
  Shape shape;
  shape.cnodes = 1;
  shape.groups = 1;
  shape.threadsPerGroup = 20000;
  shape.groupName = std::string(100000, 'n');
  const std::string archive = writeTar({{"anchor.xml", anchor(shape)}});
  const Read read = readInChild(archive);
  EXPECT_EQ(read.result, "loaded 0 severity rows");
  EXPECT_LT(read.peakGrowthKb, kBoundKb);  // 20000 copies of the name would be 2 GB
}

// Deeply nested elements of any name: an iterative parser, no stack overflow.
TEST(cube_hostile, DeeplyNestedElementsNeitherCrashNorBloat) {
  std::string xml = "<cube version=\"4.3\">";
  for (int i = 0; i < 200000; ++i) xml += "<x>";
  for (int i = 0; i < 200000; ++i) xml += "</x>";
  xml += "</cube>";
  const Read read = readInChild(writeTar({{"anchor.xml", xml}}));
  EXPECT_EQ(read.result, "hostile.cubex: damaged Cube file (anchor.xml has no <program>); write it again, or check it "
                         "with Cube's cube_dump");
  EXPECT_LT(read.peakGrowthKb, kBoundKb);
}

}  // namespace
