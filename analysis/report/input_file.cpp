#include "analysis/report/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "analysis/report/report_io.h"

namespace waitscope::report {
namespace {

std::string typeProblem(mode_t mode) {
  if (S_ISREG(mode)) return {};
  if (S_ISDIR(mode)) return "it is a directory";
  if (S_ISFIFO(mode)) return "it is a FIFO (named pipe), not a file";
  if (S_ISSOCK(mode)) return "it is a socket, not a file";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "it is a device, not a file";
  return "it is not a regular file";
}

std::string errnoProblem(int error) { return error == ENOENT ? "no such file" : std::strerror(error); }

// Closes the descriptor on every path out.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// Opens `path` for reading when it is a regular file: stat() first, so that a
// device is never opened (opening some has side effects), then O_NONBLOCK, so
// that a FIFO put in its place meanwhile cannot block the open, and fstat() on
// the descriptor, which is what is read. Returns -1 with `problem` set otherwise.
int openRegular(const std::string& path, std::string& problem, struct stat& info) {
  if (::stat(path.c_str(), &info) != 0) {
    problem = errnoProblem(errno);
    return -1;
  }
  if (problem = typeProblem(info.st_mode); !problem.empty()) return -1;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    problem = errnoProblem(errno);
    return -1;
  }
  if (::fstat(fd, &info) != 0) {
    problem = errnoProblem(errno);
  } else {
    problem = typeProblem(info.st_mode);
  }
  if (!problem.empty()) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

std::string regularFileProblem(const std::string& path) {
  std::string problem;
  struct stat info{};
  const Descriptor fd(openRegular(path, problem, info));
  return problem;
}

std::string readRegularFile(const std::string& path, std::size_t limit) {
  std::string problem;
  struct stat info{};
  const Descriptor fd(openRegular(path, problem, info));
  if (fd.get() < 0) throw ReportError(path + ": cannot open: " + problem);
  // The size at open bounds the read: a file that grows meanwhile is read as it was.
  std::string bytes(std::min(static_cast<std::size_t>(info.st_size), limit), '\0');
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::read(fd.get(), bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw ReportError(path + ": cannot read: " + std::strerror(errno));
    if (n == 0) break;  // shrunk meanwhile: the readers find it truncated
    done += static_cast<std::size_t>(n);
  }
  bytes.resize(done);
  return bytes;
}

}  // namespace waitscope::report
