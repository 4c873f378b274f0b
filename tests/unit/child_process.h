#pragma once
// Runs a piece of a test in a forked child: a reader that hangs is killed after
// a timeout instead of hanging the test, and the child's memory growth is
// measured on its own (peak resident size minus the size at the fork).
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <string>

namespace waitscope::test {

struct ChildOutcome {
  bool finished = false;      // false: killed after the timeout
  std::string result;         // what the body returned (or "exception: ...")
  long peakGrowthKb = 0;      // peak resident size minus the resident size at the start
};

inline long residentKb() {
  long pages = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

inline ChildOutcome inChild(const std::function<std::string()>& body, int timeoutSeconds = 60) {
  int fds[2];
  if (pipe(fds) != 0) return {false, "pipe failed", 0};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    const long before = residentKb();
    std::string result;
    try {
      result = body();
    } catch (const std::exception& e) {
      result = std::string("exception: ") + e.what();
    } catch (...) {
      result = "exception of unknown type";
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const std::string message = std::to_string(usage.ru_maxrss - before) + " " + result;
    for (std::size_t done = 0; done < message.size();) {
      const ssize_t n = write(fds[1], message.data() + done, message.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  ChildOutcome outcome;
  std::string message;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds);
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    char buffer[4096];
    const ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n <= 0) {
      outcome.finished = true;
      break;
    }
    message.append(buffer, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  if (!outcome.finished) kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  outcome.finished = outcome.finished && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!outcome.finished) return outcome;
  const std::size_t space = message.find(' ');
  outcome.peakGrowthKb = std::stol(message.substr(0, space));
  outcome.result = space == std::string::npos ? "" : message.substr(space + 1);
  return outcome;
}

}  // namespace waitscope::test
