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
  // The main stack as the sanitizer knows it, learnt when the first fiber starts.
  const void* mainBottom = nullptr;
  std::size_t mainSize = 0;
};

thread_local Scheduler* current = nullptr;

// From the main context into fiber i, until it yields or returns.
void enter(Scheduler& s, std::size_t i) {
  s.running = i;
#ifdef WAITSCOPE_FIBERS_ASAN
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, s.fibers[i].stack, kStackBytes);
#endif
  swapcontext(&s.main, &s.fibers[i].context);
#ifdef WAITSCOPE_FIBERS_ASAN
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
}

// From the running fiber back to the main context; `finished`: never to be resumed.
void leave(Scheduler& s, bool finished) {
  Fiber& f = s.fibers[s.running];
#ifdef WAITSCOPE_FIBERS_ASAN
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(finished ? nullptr : &fake, s.mainBottom, s.mainSize);
#else
  (void)finished;
#endif
  swapcontext(&f.context, &s.main);
#ifdef WAITSCOPE_FIBERS_ASAN
  __sanitizer_finish_switch_fiber(fake, &s.mainBottom, &s.mainSize);
#endif
}

void start() {
  Scheduler& s = *current;
  const std::size_t i = s.running;
#ifdef WAITSCOPE_FIBERS_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &s.mainBottom, &s.mainSize);
#endif
  try {
    (*s.body)(i);
  } catch (...) {
    s.fibers[i].error = std::current_exception();
  }
  s.fibers[i].done = true;
  s.progressed = true;
  leave(s, true);
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
  for (;;) {
    bool open = false;
    s.progressed = false;
    for (std::size_t i = 0; i < count; ++i) {
      if (s.fibers[i].done) continue;
      enter(s, i);
      open = open || !s.fibers[i].done;
    }
    if (!open) break;
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
  if (current) leave(*current, false);
}

void Fibers::progressed() {
  if (current) current->progressed = true;
}

}  // namespace waitscope::replay
