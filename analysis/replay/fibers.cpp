#include "analysis/replay/fibers.h"

#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <exception>
#include <new>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define WAITSCOPE_FIBERS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WAITSCOPE_FIBERS_ASAN 1
#endif
#endif
#ifdef WAITSCOPE_FIBERS_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

namespace waitscope::replay {
namespace {

// The analysis' deepest recursion is shallow; 8 MiB as a thread gets, reserved, not committed.
constexpr std::size_t kStackBytes = std::size_t{8} << 20;

struct Fiber {
  ucontext_t context{};
  void* stack = nullptr;  // the mapping, its lowest page a guard
  bool done = false;
  std::exception_ptr error;
};

struct Scheduler {
  ucontext_t main{};
  std::vector<Fiber> fibers;
  std::size_t running = 0;
  const std::function<void(std::size_t)>* body = nullptr;
  bool progressed = false;
  // Whether the switch being made left the main context: the sanitizer tells the arriving side
  // the bounds of the stack it came from, and the main stack's are only known that way.
  bool fromMain = false;
  const void* mainBottom = nullptr;
  std::size_t mainSize = 0;
};

thread_local Scheduler* current = nullptr;

// On the arriving side of a switch; `fake` is what its own switch away saved.
void arrived([[maybe_unused]] Scheduler& s, [[maybe_unused]] void* fake) {
#ifdef WAITSCOPE_FIBERS_ASAN
  const void* bottom = nullptr;
  std::size_t size = 0;
  __sanitizer_finish_switch_fiber(fake, &bottom, &size);
  if (s.fromMain) {
    s.mainBottom = bottom;
    s.mainSize = size;
  }
#endif
}

// From the running context `from` (main's or a fiber's) to fiber `to`, or to main when `to`
// is the fiber count; returns when something switches back. `finished`: `from` is a fiber that
// returned, never to be resumed. Fibers switch to each other directly, so a round of k fibers
// costs k + 1 switches, not 2k (each swapcontext is a system call, for the signal mask).
void switchTo(Scheduler& s, ucontext_t& from, std::size_t to, bool fromMain, [[maybe_unused]] bool finished) {
  const bool toMain = to == s.fibers.size();
  s.fromMain = fromMain;
  if (!toMain) s.running = to;
  ucontext_t& target = toMain ? s.main : s.fibers[to].context;
  void* fake = nullptr;
#ifdef WAITSCOPE_FIBERS_ASAN
  __sanitizer_start_switch_fiber(finished ? nullptr : &fake, toMain ? s.mainBottom : s.fibers[to].stack,
                                 toMain ? s.mainSize : kStackBytes);
#endif
  swapcontext(&from, &target);
  arrived(s, fake);
}

// The fiber to run after fiber i in this round: the next one not done, else main (the count).
std::size_t nextAfter(const Scheduler& s, std::size_t i) {
  std::size_t j = i + 1;
  while (j < s.fibers.size() && s.fibers[j].done) ++j;
  return j;
}

void start() {
  Scheduler& s = *current;
  const std::size_t i = s.running;
  arrived(s, nullptr);
  try {
    (*s.body)(i);
  } catch (...) {
    s.fibers[i].error = std::current_exception();
  }
  s.fibers[i].done = true;
  s.progressed = true;
  switchTo(s, s.fibers[i].context, nextAfter(s, i), false, true);
}

}  // namespace

void Fibers::run(std::size_t count, const std::function<void(std::size_t)>& body, bool yieldCore) {
  Scheduler s;
  s.body = &body;
  s.fibers.resize(count);
  const long page = sysconf(_SC_PAGESIZE);
  for (Fiber& f : s.fibers) {
    void* stack = mmap(nullptr, kStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                       -1, 0);
    if (stack == MAP_FAILED) {
      for (Fiber& g : s.fibers)
        if (g.stack) munmap(g.stack, kStackBytes);
      throw std::bad_alloc();
    }
    mprotect(stack, static_cast<std::size_t>(page), PROT_NONE);
    f.stack = stack;
    getcontext(&f.context);
    f.context.uc_stack.ss_sp = stack;
    f.context.uc_stack.ss_size = kStackBytes;
    f.context.uc_link = nullptr;
    makecontext(&f.context, start, 0);
  }
  current = &s;
  long pause = 20'000;
  for (std::size_t first = 0;; first = 0) {
    s.progressed = false;
    while (first < count && s.fibers[first].done) ++first;
    if (first == count) break;
    // One round: each fiber not done runs until it waits or returns, then the next; the last
    // comes back here.
    switchTo(s, s.main, first, true, false);
    if (yieldCore && !s.progressed) {
      const timespec wait{0, pause};
      nanosleep(&wait, nullptr);
      pause = std::min(2 * pause, 200'000L);
    } else {
      pause = 20'000;
    }
  }
  current = nullptr;
  for (Fiber& f : s.fibers) munmap(f.stack, kStackBytes);
  for (Fiber& f : s.fibers)
    if (f.error) std::rethrow_exception(f.error);
}

bool Fibers::inFiber() { return current != nullptr; }

void Fibers::yield() {
  if (!current) return;
  Scheduler& s = *current;
  const std::size_t i = s.running;
  switchTo(s, s.fibers[i].context, nextAfter(s, i), false, false);
}

void Fibers::progressed() {
  if (current) current->progressed = true;
}

}  // namespace waitscope::replay
