#include "analysis/replay/out_of_memory.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace waitscope::replay {
namespace {

// The last allocation that failed and the address space in use then, set by
// operator new below (by the time the failure is caught, unwinding has freed
// what the phase held).
std::atomic<std::size_t> g_failedRequest{0};
std::atomic<std::size_t> g_inUseAtFailure{0};

// The address space in use, from /proc/self/statm, without allocating: this
// runs where an allocation has just failed.
std::size_t addressSpaceInUse() {
  const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[64];
  const ssize_t n = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  std::size_t pages = 0;
  for (ssize_t i = 0; i < n && text[i] >= '0' && text[i] <= '9'; ++i)
    pages = pages * 10 + static_cast<std::size_t>(text[i] - '0');
  return pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

std::string size(std::size_t bytes) {
  char text[32];
  if (bytes >= (std::size_t{1} << 30))
    std::snprintf(text, sizeof text, "%.1f GB", static_cast<double>(bytes) / (1 << 30));
  else
    std::snprintf(text, sizeof text, "%.0f MB", static_cast<double>(bytes) / (1 << 20));
  return text;
}

}  // namespace

MemoryState memoryState() {
  MemoryState m;
  m.failedRequest = g_failedRequest.load();
  m.inUse = m.failedRequest != 0 ? g_inUseAtFailure.load() : addressSpaceInUse();
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) m.limit = limit.rlim_cur;
  return m;
}

std::string outOfMemoryMessage(const std::string& phase, const MemoryState& memory, std::uint64_t events) {
  std::string out = "out of memory in the " + phase + " phase: ";
  std::string why;
  if (memory.failedRequest != 0) {
    out += "about " + size(memory.inUse + memory.failedRequest) + " needed";
    why = size(memory.inUse) + " in use, a request for " + size(memory.failedRequest) + " failed";
  } else {
    out += "more than the " + size(memory.inUse) + " in use needed";
  }
  if (memory.limit != 0) why += (why.empty() ? "" : "; ") + std::string("limit ") + size(memory.limit);
  if (!why.empty()) out += " (" + why + ")";
  if (events != 0) out += "; this rank holds " + std::to_string(events) + " events";
  return out + "; give each analysis rank more memory";
}

namespace {
[[noreturn]] void abortAs(int rank, MPI_Comm world, const std::string& phase, std::uint64_t events) {
  const std::string line =
      "waitscope-analyze: rank " + std::to_string(rank) + ": " + outOfMemoryMessage(phase, memoryState(), events) + "\n";
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  MPI_Abort(world, 1);
  std::_Exit(1);  // MPI_Abort does not return; should it, this rank still ends with an error
}
}  // namespace

void abortOutOfMemory(MPI_Comm world, const std::string& phase, std::uint64_t events) {
  int me = 0;
  MPI_Comm_rank(world, &me);
  abortAs(me, world, phase, events);
}

void abortOutOfMemory(const LocationComm& world, const std::string& phase, std::uint64_t events) {
  abortAs(world.rank(), world.mpi() != MPI_COMM_NULL ? world.mpi() : MPI_COMM_WORLD, phase, events);
}

}  // namespace waitscope::replay

// The global allocation function, as the standard library's but recording the
// size it could not get, for the out-of-memory line. Not under AddressSanitizer,
// which supplies its own (and must pair its operator delete with it).
#if !defined(__SANITIZE_ADDRESS__)
void* operator new(std::size_t bytes) {
  if (bytes == 0) bytes = 1;
  while (true) {
    if (void* p = std::malloc(bytes)) return p;
    const std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) {
      waitscope::replay::g_inUseAtFailure.store(waitscope::replay::addressSpaceInUse());
      waitscope::replay::g_failedRequest.store(bytes);
      throw std::bad_alloc();
    }
    handler();
  }
}
void* operator new[](std::size_t bytes) { return ::operator new(bytes); }
#endif
