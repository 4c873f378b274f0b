#pragma once
// The tar container of a Cube 4 file (.cubex): POSIX ustar, written and read by
// hand (512-byte headers, octal fields). Only regular files matter to Cube;
// directories and extended headers are skipped when reading.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace waitscope::report {

struct TarEntry {
  std::string name;
  std::string data;  // the file's bytes
};

// A tar archive that cannot be read; what() is a short phrase without the file name.
class TarError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The regular files of `archive`, in archive order. Throws TarError on a bad
// checksum, a truncated member or a size beyond the archive.
std::vector<TarEntry> readTar(const std::string& archive);

// A ustar archive of `entries` (names up to 100 bytes), ending with two zero blocks.
std::string writeTar(const std::vector<TarEntry>& entries);

}  // namespace waitscope::report
