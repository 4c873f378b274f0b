#include "analysis/measure/online_runtime.h"

#include <time.h>

#include <cstdio>
#include <cstring>
#include <exception>

#include "analysis/measure/measure_internal.h"
#include "analysis/measure/profile_runtime.h"
#include "analysis/online/online_config.h"
#include "analysis/online/place.h"
#include "analysis/online/tree_layout.h"
#include "analysis/profile/profile_output.h"

namespace waitscope::measure {

OnlineState go;

namespace {

using online::Event;
using online::EventKind;

// FNV-1a over the member list: every member computes the same key without communicating.
// Two communicators with the same members (a dup) share it; docs/online.md says what that means.
std::uint32_t keyOf(const std::vector<int>& ranks) {
  std::uint32_t h = 2166136261u;
  for (const int r : ranks) {
    for (int b = 0; b < 4; ++b) {
      h ^= static_cast<std::uint32_t>(r >> (8 * b)) & 0xffu;
      h *= 16777619u;
    }
  }
  return h;
}

void handleFromPlace(const MPI_Status& st, std::uint32_t kind) {
  if (st.MPI_TAG == online::kTagAck) --go.inFlight;
  else if (st.MPI_TAG == online::kTagControl) go.paused = kind == static_cast<std::uint32_t>(online::PacketKind::Pause);
}

// Blocks for one message from the place.
void receiveFromPlace() {
  std::uint32_t kind = 0;
  MPI_Status st;
  PMPI_Recv(&kind, sizeof kind, MPI_BYTE, go.place, MPI_ANY_TAG, go.tool, &st);
  handleFromPlace(st, kind);
}

void sendTree() {
  const std::string tree = profile::serialize(profile::treeOutput(profile::secondsPerTick()));
  PMPI_Send(tree.data(), static_cast<int>(tree.size()), MPI_BYTE, go.place, online::kTagTree, go.tool);
  go.lastTree = onlineNow();
}

// Sends the batch being filled; blocks while the channel is full.
void sendBatch() {
  auto& batch = go.slots[go.slot];
  if (batch.empty()) return;
  while (go.inFlight >= go.capacity) receiveFromPlace();
  PMPI_Isend(batch.data(), static_cast<int>(batch.size() * sizeof(Event)), MPI_BYTE, go.place, online::kTagEvents, go.tool,
             &go.slotRequests[go.slot]);
  ++go.inFlight;
  go.slot = (go.slot + 1) % go.slots.size();
  PMPI_Wait(&go.slotRequests[go.slot], MPI_STATUS_IGNORE);  // the oldest buffer is free to refill
  go.slots[go.slot].clear();
  go.lastFlush = onlineNow();
  if (go.lastFlush - go.lastTree >= go.snapshotSeconds) sendTree();
}

[[noreturn]] void failOnline(const std::string& why) {
  if (g.worldRank == 0) std::fprintf(stderr, "waitscope: online run: %s\n", why.c_str());
  PMPI_Abort(MPI_COMM_WORLD, 2);
  std::terminate();
}

}  // namespace

double onlineNow() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

bool startOnline() {
  online::Config config;
  try {
    config = online::fromEnvironment();
  } catch (const std::exception& e) {
    failOnline(e.what());
  }
  const online::TreeLayout layout(config.appRanks, config.fanIn);
  if (layout.worldSize() != g.worldSize)
    failOnline("the job has " + std::to_string(g.worldSize) + " processes, but " + layout.describe() + " need " +
               std::to_string(layout.worldSize()) + "; start it with waitscope-run --online");
  const bool place = g.worldRank >= config.appRanks;
  MPI_Comm tool = MPI_COMM_NULL, own = MPI_COMM_NULL;
  PMPI_Comm_dup(MPI_COMM_WORLD, &tool);
  PMPI_Comm_split(MPI_COMM_WORLD, place ? 1 : 0, g.worldRank, &own);
  if (place) {
    g.placeExitCode = online::runPlace(config, tool, g.worldRank);
    PMPI_Comm_free(&own);
    PMPI_Comm_free(&tool);
    return true;
  }
  go.tool = tool;
  go.appWorld = own;
  go.rank = g.worldRank;
  go.place = layout.worldRankOfPlace(layout.placeOfApp(g.worldRank));
  go.capacity = config.channelCapacity;
  go.batchEvents = static_cast<std::size_t>(config.batchEvents);
  go.snapshotSeconds = config.snapshotSeconds;
  // One more buffer than the channel holds: the one being filled.
  go.slots.assign(static_cast<std::size_t>(config.channelCapacity) + 1, {});
  for (auto& s : go.slots) s.reserve(go.batchEvents);
  go.slotRequests.assign(go.slots.size(), MPI_REQUEST_NULL);
  go.lastFlush = go.lastTree = onlineNow();
  g.online = true;
  return false;
}

void serviceOnline() {
  for (;;) {
    int flag = 0;
    MPI_Status st;
    PMPI_Iprobe(go.place, MPI_ANY_TAG, go.tool, &flag, &st);
    if (!flag) break;
    std::uint32_t kind = 0;
    PMPI_Recv(&kind, sizeof kind, MPI_BYTE, go.place, st.MPI_TAG, go.tool, MPI_STATUS_IGNORE);
    handleFromPlace(st, kind);
  }
  if (!go.paused) return;
  sendBatch();  // the place can analyze everything there is while the application waits
  while (go.paused) receiveFromPlace();
}

void emitOnline(const Event& e) {
  auto& batch = go.slots[go.slot];
  batch.push_back(e);
  batch.back().rank = static_cast<std::uint32_t>(go.rank);
  // full, or old enough that the live view would lag
  if (batch.size() >= go.batchEvents || e.t1 - go.lastFlush > 0.1) sendBatch();
}

OnlineComm& onlineComm(MPI_Comm c) {
  auto [it, added] = go.comms.try_emplace(c);
  OnlineComm& info = it->second;
  if (!added) return info;
  int inter = 0;
  PMPI_Comm_test_inter(c, &inter);
  info.inter = inter != 0;
  if (info.inter) return info;
  MPI_Group group, world;
  PMPI_Comm_group(c, &group);
  PMPI_Comm_group(go.appWorld, &world);
  int n = 0;
  PMPI_Group_size(group, &n);
  std::vector<int> local(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) local[static_cast<std::size_t>(i)] = i;
  info.appRanks = std::make_shared<std::vector<int>>(static_cast<std::size_t>(n));
  PMPI_Group_translate_ranks(group, n, local.data(), world, info.appRanks->data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  info.key = keyOf(*info.appRanks);
  return info;
}

void forgetOnlineComm(MPI_Comm c) { go.comms.erase(c); }

void finishOnline(std::uint32_t finalizeFn, void* returnAddress) {
  profile::gp.inMpi = true;
  serviceOnline();
  const std::uint64_t t0 = profile::ticks();
  PMPI_Barrier(go.appWorld);  // MPI_Finalize is collective: its wait shows here, as in a trace
  profile::record(finalizeFn, returnAddress, profile::ticks() - t0, profile::Visit{});
  while (profile::gp.depth > 0) profile::leaveUser();
  sendTree();
  Event finish;
  finish.kind = EventKind::Finish;
  go.slots[go.slot].push_back(finish);
  go.slots[go.slot].back().rank = static_cast<std::uint32_t>(go.rank);
  sendBatch();
  while (go.inFlight > 0) receiveFromPlace();  // pause/resume on the way are read and ignored
  for (auto& r : go.slotRequests) PMPI_Wait(&r, MPI_STATUS_IGNORE);
  g.online = false;
  g.profiling = false;
  PMPI_Comm_free(&go.tool);
}

}  // namespace waitscope::measure
