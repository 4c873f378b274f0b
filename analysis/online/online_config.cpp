#include "analysis/online/online_config.h"

#include <cstdlib>
#include <stdexcept>

namespace waitscope::online {
namespace {

constexpr std::pair<Selection, const char*> kSelections[] = {{Selection::Heuristic, "heuristic"},
                                                             {Selection::RoundRobin, "round-robin"},
                                                             {Selection::IntraRootApp, "intra-root-app"},
                                                             {Selection::AppIntraRoot, "app|intra-root"}};

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

template <class T>
void read(const char* name, T& out) {
  const std::string v = env(name);
  if (v.empty()) return;
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (end == v.c_str() || *end != '\0') throw std::runtime_error(std::string(name) + "=" + v + " is not a number");
  out = static_cast<T>(x);
}

std::string number(double x) {
  std::string s = std::to_string(x);
  while (s.size() > 1 && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

const char* selectionName(Selection s) {
  for (const auto& [sel, name] : kSelections)
    if (sel == s) return name;
  return "heuristic";
}

bool parseSelection(const std::string& name, Selection& out) {
  for (const auto& [sel, n] : kSelections) {
    if (name == n || (sel == Selection::AppIntraRoot && name == "app-intra-root")) {
      out = sel;
      return true;
    }
  }
  return false;
}

std::vector<std::pair<std::string, std::string>> toEnvironment(const Config& c) {
  return {{"WAITSCOPE_ONLINE", "1"},
          {"WAITSCOPE_ONLINE_APP_RANKS", std::to_string(c.appRanks)},
          {"WAITSCOPE_ONLINE_FAN_IN", std::to_string(c.fanIn)},
          {"WAITSCOPE_ONLINE_SELECTION", selectionName(c.selection)},
          {"WAITSCOPE_ONLINE_ALPHA", number(c.alpha)},
          {"WAITSCOPE_ONLINE_BETA", number(c.beta)},
          {"WAITSCOPE_ONLINE_SIGMA", std::to_string(c.sigma)},
          {"WAITSCOPE_ONLINE_SIGMA_RESUME", std::to_string(c.sigmaResume)},
          {"WAITSCOPE_ONLINE_CAPACITY", std::to_string(c.channelCapacity)},
          {"WAITSCOPE_ONLINE_BATCH", std::to_string(c.batchEvents)},
          {"WAITSCOPE_ONLINE_SNAPSHOT", number(c.snapshotSeconds)},
          {"WAITSCOPE_ONLINE_OUTPUT", c.output}};
}

bool requested() {
  const std::string v = env("WAITSCOPE_ONLINE");
  return !v.empty() && v != "0";
}

Config fromEnvironment() {
  Config c;
  read("WAITSCOPE_ONLINE_APP_RANKS", c.appRanks);
  read("WAITSCOPE_ONLINE_FAN_IN", c.fanIn);
  if (const std::string s = env("WAITSCOPE_ONLINE_SELECTION"); !s.empty() && !parseSelection(s, c.selection))
    throw std::runtime_error("WAITSCOPE_ONLINE_SELECTION=" + s +
                             " is not one of heuristic, round-robin, intra-root-app, app|intra-root");
  read("WAITSCOPE_ONLINE_ALPHA", c.alpha);
  read("WAITSCOPE_ONLINE_BETA", c.beta);
  read("WAITSCOPE_ONLINE_SIGMA", c.sigma);
  c.sigmaResume = c.sigma / 2;
  read("WAITSCOPE_ONLINE_SIGMA_RESUME", c.sigmaResume);
  read("WAITSCOPE_ONLINE_CAPACITY", c.channelCapacity);
  read("WAITSCOPE_ONLINE_BATCH", c.batchEvents);
  read("WAITSCOPE_ONLINE_SNAPSHOT", c.snapshotSeconds);
  c.output = env("WAITSCOPE_ONLINE_OUTPUT");
  if (c.appRanks < 1) throw std::runtime_error("WAITSCOPE_ONLINE_APP_RANKS must be at least 1");
  if (c.fanIn < 2) throw std::runtime_error("WAITSCOPE_ONLINE_FAN_IN must be at least 2");
  if (c.channelCapacity < 1 || c.batchEvents < 1)
    throw std::runtime_error("WAITSCOPE_ONLINE_CAPACITY and WAITSCOPE_ONLINE_BATCH must be at least 1");
  if (c.sigmaResume >= c.sigma) throw std::runtime_error("sigma' (WAITSCOPE_ONLINE_SIGMA_RESUME) must be below sigma");
  return c;
}

}  // namespace waitscope::online
