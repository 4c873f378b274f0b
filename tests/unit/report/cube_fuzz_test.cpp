// Mutation fuzzing of the Cube reader: truncated, bit-flipped and overwritten
// .cubex files (ours and Score-P's), and members damaged inside an intact tar
// (anchor.xml text, index and data bytes), at deterministic pseudo-random
// places. readCube must return a consistent report or throw one ReportError
// line naming the file; never crash, hang or throw anything else. The
// sanitizer job runs this under ASan and UBSan.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "analysis/report/cube_reader.h"
#include "analysis/report/cube_writer.h"
#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "analysis/report/tar_archive.h"
#include "tests/support/test_support.h"
#include "tests/unit/report/read_or_reject.h"
#include "tests/unit/report/sample_report.h"

using namespace waitscope::report;
using waitscope::test::TempDir;

namespace {

using waitscope::test::Outcome;

Outcome readOrReject(const std::string& path) {
  return waitscope::test::readOrReject([](const std::string& p) { return readCube(p); }, path);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void spit(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// One random damage to `bytes`: bit flips, a truncation, random or extreme bytes.
void mutate(std::string& bytes, std::mt19937& rng) {
  if (bytes.empty()) return;
  std::uniform_int_distribution<std::size_t> position(0, bytes.size() - 1);
  switch (rng() % 4) {
    case 0:
      for (int i = 0, n = 1 + static_cast<int>(rng() % 8); i < n; ++i) {
        const std::size_t at = position(rng);
        bytes[at] = static_cast<char>(bytes[at] ^ (1 << (rng() % 8)));
      }
      break;
    case 1: bytes.resize(position(rng)); break;
    case 2:
      for (std::size_t at = position(rng), n = 1 + rng() % 32; n-- > 0 && at < bytes.size(); ++at)
        bytes[at] = static_cast<char>(rng());
      break;
    default:
      for (std::size_t at = position(rng), n = 1 + rng() % 8, fill = rng() % 2 ? 0xff : 0; n-- > 0 && at < bytes.size();
           ++at)
        bytes[at] = static_cast<char>(fill);
  }
}

class cube_fuzz : public ::testing::TestWithParam<const char*> {
 protected:
  std::string original() const {
    if (std::string(GetParam()) == "ours") return cubeArchive(waitscope::test::sampleReport());
    return slurp(std::string(WAITSCOPE_SHARED_DIR) + "/traces/casita_4_mpi_ls_barr/profile.cubex");
  }
  TempDir dir_{"waitscope-cube-fuzz"};
};

TEST_P(cube_fuzz, EveryTruncationFailsCleanly) {
  const std::string bytes = original();
  const std::string path = (dir_ / "truncated.cubex").string();
  int rejected = 0;
  // Every 512-byte boundary and a spread of odd lengths.
  for (std::size_t size = 0; size < bytes.size(); size += (size % 512 == 0 ? 97 : 415)) {
    spit(path, bytes.substr(0, size));
    rejected += readOrReject(path) == Outcome::Rejected;
  }
  EXPECT_GT(rejected, 0);
}

TEST_P(cube_fuzz, MutatedArchivesFailCleanly) {
  const std::string bytes = original();
  const std::string path = (dir_ / "mutated.cubex").string();
  std::mt19937 rng(20261121);
  int rejected = 0;
  for (int iteration = 0; iteration < 150; ++iteration) {
    std::string damaged = bytes;
    mutate(damaged, rng);
    spit(path, damaged);
    rejected += readOrReject(path) == Outcome::Rejected;
  }
  EXPECT_GT(rejected, 0);
}

// Damage inside one member and a valid tar around it, so the XML, index and
// data parsers see the damage instead of the tar checksum.
TEST_P(cube_fuzz, MutatedMembersFailCleanly) {
  const std::vector<TarEntry> entries = readTar(original());
  const std::string path = (dir_ / "member.cubex").string();
  std::mt19937 rng(4242);
  int loaded = 0, rejected = 0;
  for (int iteration = 0; iteration < 300; ++iteration) {
    std::vector<TarEntry> damaged = entries;
    mutate(damaged[rng() % damaged.size()].data, rng);
    spit(path, writeTar(damaged));
    (readOrReject(path) == Outcome::Loaded ? loaded : rejected)++;
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(loaded, 0);  // damaged values can still make a consistent report
}

INSTANTIATE_TEST_SUITE_P(files, cube_fuzz, ::testing::Values("ours", "scorep"));

}  // namespace
