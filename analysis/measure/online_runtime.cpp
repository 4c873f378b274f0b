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

OnlineState onlineState;

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
  if (st.MPI_TAG == online::kTagAck) --onlineState.inFlight;
  else if (st.MPI_TAG == online::kTagControl) onlineState.paused = kind == static_cast<std::uint32_t>(online::PacketKind::Pause);
}

// Blocks for one message from the place.
void receiveFromPlace() {
  std::uint32_t kind = 0;
  MPI_Status st;
  PMPI_Recv(&kind, sizeof kind, MPI_BYTE, onlineState.place, MPI_ANY_TAG, onlineState.tool, &st);
  handleFromPlace(st, kind);
}

void sendTree() {
  const std::string tree = profile::serialize(profile::treeOutput(profile::secondsPerTick()));
  PMPI_Send(tree.data(), static_cast<int>(tree.size()), MPI_BYTE, onlineState.place, online::kTagTree, onlineState.tool);
  onlineState.lastTree = onlineNow();
}

// Sends the batch being filled; blocks while the channel is full.
void sendBatch() {
  auto& batch = onlineState.slots[onlineState.slot];
  if (batch.empty()) return;
  while (onlineState.inFlight >= onlineState.capacity) receiveFromPlace();
  PMPI_Isend(batch.data(), static_cast<int>(batch.size() * sizeof(Event)), MPI_BYTE, onlineState.place, online::kTagEvents, onlineState.tool,
             &onlineState.slotRequests[onlineState.slot]);
  ++onlineState.inFlight;
  onlineState.slot = (onlineState.slot + 1) % onlineState.slots.size();
  PMPI_Wait(&onlineState.slotRequests[onlineState.slot], MPI_STATUS_IGNORE);  // the oldest buffer is free to refill
  onlineState.slots[onlineState.slot].clear();
  onlineState.lastFlush = onlineNow();
  if (onlineState.lastFlush - onlineState.lastTree >= onlineState.snapshotSeconds) sendTree();
}

[[noreturn]] void failOnline(const std::string& why) {
  if (recorder.worldRank == 0) std::fprintf(stderr, "waitscope: online run: %s\n", why.c_str());
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
  if (layout.worldSize() != recorder.worldSize)
    failOnline("the job has " + std::to_string(recorder.worldSize) + " processes, but " + layout.describe() + " need " +
               std::to_string(layout.worldSize()) + "; start it with waitscope-run --online");
  const bool place = recorder.worldRank >= config.appRanks;
  MPI_Comm tool = MPI_COMM_NULL, own = MPI_COMM_NULL;
  PMPI_Comm_dup(MPI_COMM_WORLD, &tool);
  PMPI_Comm_split(MPI_COMM_WORLD, place ? 1 : 0, recorder.worldRank, &own);
  if (place) {
    recorder.placeExitCode = online::runPlace(config, tool, recorder.worldRank);
    PMPI_Comm_free(&own);
    PMPI_Comm_free(&tool);
    return true;
  }
  onlineState.tool = tool;
  onlineState.appWorld = own;
  onlineState.rank = recorder.worldRank;
  onlineState.place = layout.worldRankOfPlace(layout.placeOfApp(recorder.worldRank));
  onlineState.capacity = config.channelCapacity;
  onlineState.batchEvents = static_cast<std::size_t>(config.batchEvents);
  onlineState.snapshotSeconds = config.snapshotSeconds;
  // One more buffer than the channel holds: the one being filled.
  onlineState.slots.assign(static_cast<std::size_t>(config.channelCapacity) + 1, {});
  for (auto& s : onlineState.slots) s.reserve(onlineState.batchEvents);
  onlineState.slotRequests.assign(onlineState.slots.size(), MPI_REQUEST_NULL);
  onlineState.lastFlush = onlineState.lastTree = onlineNow();
  recorder.online = true;
  return false;
}

void serviceOnline() {
  for (;;) {
    int flag = 0;
    MPI_Status st;
    PMPI_Iprobe(onlineState.place, MPI_ANY_TAG, onlineState.tool, &flag, &st);
    if (!flag) break;
    std::uint32_t kind = 0;
    PMPI_Recv(&kind, sizeof kind, MPI_BYTE, onlineState.place, st.MPI_TAG, onlineState.tool, MPI_STATUS_IGNORE);
    handleFromPlace(st, kind);
  }
  if (!onlineState.paused) return;
  sendBatch();  // the place can analyze everything there is while the application waits
  while (onlineState.paused) receiveFromPlace();
}

void emitOnline(const Event& e) {
  auto& batch = onlineState.slots[onlineState.slot];
  batch.push_back(e);
  batch.back().rank = static_cast<std::uint32_t>(onlineState.rank);
  // full, or old enough that the live view would lag
  if (batch.size() >= onlineState.batchEvents || e.t1 - onlineState.lastFlush > 0.1) sendBatch();
}

OnlineComm& onlineComm(MPI_Comm c) {
  auto [it, added] = onlineState.comms.try_emplace(c);
  OnlineComm& info = it->second;
  if (!added) return info;
  int inter = 0;
  PMPI_Comm_test_inter(c, &inter);
  info.inter = inter != 0;
  if (info.inter) return info;
  MPI_Group group, world;
  PMPI_Comm_group(c, &group);
  PMPI_Comm_group(onlineState.appWorld, &world);
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

void forgetOnlineComm(MPI_Comm c) { onlineState.comms.erase(c); }

void finishOnline(std::uint32_t finalizeFn, void* returnAddress) {
  profile::profiler.inMpi = true;
  serviceOnline();
  const std::uint64_t t0 = profile::ticks();
  PMPI_Barrier(onlineState.appWorld);  // MPI_Finalize is collective: its wait shows here, as in a trace
  profile::record(finalizeFn, returnAddress, profile::ticks() - t0, profile::Visit{});
  while (profile::profiler.depth > 0) profile::leaveUser();
  sendTree();
  Event finish;
  finish.kind = EventKind::Finish;
  onlineState.slots[onlineState.slot].push_back(finish);
  onlineState.slots[onlineState.slot].back().rank = static_cast<std::uint32_t>(onlineState.rank);
  sendBatch();
  while (onlineState.inFlight > 0) receiveFromPlace();  // pause/resume on the way are read and ignored
  for (auto& r : onlineState.slotRequests) PMPI_Wait(&r, MPI_STATUS_IGNORE);
  recorder.online = false;
  recorder.profiling = false;
  PMPI_Comm_free(&onlineState.tool);
}

}  // namespace waitscope::measure
