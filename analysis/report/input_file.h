#pragma once
// Reading a file a user points at. It may be anything with a name: a FIFO or a
// terminal blocks a read forever and a device such as /dev/zero never ends, so
// only regular files are read (links are followed), and never beyond the size
// the file had when it was opened.
#include <cstddef>
#include <string>

namespace waitscope::report {

// Why `path` cannot be read as a regular file ("no such file", "it is a
// directory", "it is a FIFO (named pipe), not a file", "Permission denied",
// ...), or "" when it can. Never blocks.
std::string regularFileProblem(const std::string& path);

// The bytes of the regular file `path` (at most `limit` of them), read through
// one descriptor opened without blocking. Throws ReportError "PATH: cannot
// open: PROBLEM".
std::string readRegularFile(const std::string& path, std::size_t limit = static_cast<std::size_t>(-1));

}  // namespace waitscope::report
