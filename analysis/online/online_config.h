#pragma once
// Settings of an online run (Hilbrich et al., EASC 2014), passed from `waitscope-run --online` to
// every process of the job through WAITSCOPE_ONLINE_* environment variables: the one place
// that names them, so the tool and the library cannot disagree.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace waitscope::online {

// How a place picks the channel it receives from next (Hilbrich et al., EASC 2014, sections 4, 6).
enum class Selection : std::uint8_t {
  Heuristic,     // penalty list: alpha when a message raised memory, beta when a probe found nothing
  RoundRobin,    // every channel in turn
  IntraRootApp,  // rounds of intralayer, then root direction, then one application channel
  AppIntraRoot,  // application channels whenever they have something; the others only when idle
};

struct Config {
  int appRanks = 0;             // N: the application's MPI_COMM_WORLD size
  int fanIn = 8;                // children per place
  Selection selection = Selection::Heuristic;
  double alpha = 1.0;           // penalty when a message raised the analysis' memory
  double beta = 1.0;            // penalty when a probe found nothing
  long sigma = 1000000;         // a place above sigma entries asks for an application pause
  long sigmaResume = 500000;    // ... and asks to resume below sigma'
  int channelCapacity = 4;      // messages in flight per application channel before the sender blocks
  int batchEvents = 64;         // events per message from an application rank
  double snapshotSeconds = 2.0; // the root rewrites the report this often
  std::string output;           // the report path
};

const char* selectionName(Selection s);
// false when `name` is not a selection's name.
bool parseSelection(const std::string& name, Selection& out);

// The environment that carries `c` to the job (NAME, VALUE pairs, WAITSCOPE_ONLINE=1 first).
std::vector<std::pair<std::string, std::string>> toEnvironment(const Config& c);
// True when this process is part of an online run (WAITSCOPE_ONLINE set).
bool requested();
// The settings of this process' run; throws std::runtime_error naming a malformed variable.
Config fromEnvironment();

}  // namespace waitscope::online
