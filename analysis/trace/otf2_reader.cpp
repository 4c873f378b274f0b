#include "analysis/trace/otf2_reader.h"

#include <cstdlib>
#include <otf2/otf2.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <new>
#include <set>
#include <unordered_map>

#include "analysis/trace/huge_pages.h"
#include "analysis/trace/otf2_errors.h"
#include "analysis/trace/otf2_reader_impl.h"
#include "analysis/trace/paradigms.h"

namespace waitscope::trace {
namespace {

namespace fs = std::filesystem;

static_assert(static_cast<int>(CollectiveOp::DestroyHandleAndDeallocate) ==
              OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE);
static_assert(static_cast<int>(RmaAtomicType::FetchAndAccumulate) == OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE);
static_assert(static_cast<int>(RmaLockType::Shared) == OTF2_LOCK_SHARED);
static_assert(static_cast<int>(kSyncMemory) == static_cast<int>(OTF2_RMA_SYNC_LEVEL_MEMORY));
static_assert(static_cast<int>(LocationType::Metric) == OTF2_LOCATION_TYPE_METRIC);
static_assert(static_cast<int>(GroupType::CommSelf) == OTF2_GROUP_TYPE_COMM_SELF);
static_assert(static_cast<int>(Paradigm::Mpi) == OTF2_PARADIGM_MPI);
static_assert(static_cast<int>(RegionRole::Artificial) == OTF2_REGION_ROLE_ARTIFICIAL);

// Maps an archive's definition references to our dense indices. References
// are usually 0, 1, 2, ...: those index an array. One far beyond the number
// defined so far (a sparse or hostile numbering) goes into a hash map instead,
// so memory follows the number of definitions, never the largest reference.
class IdTable {
 public:
  void set(std::uint64_t ref, std::uint32_t value) {
    if (ref < dense_.size() || ref <= 2 * defined_ + 1024) {
      if (ref >= dense_.size()) dense_.resize(ref + 1, kNone);
      dense_[ref] = value;
    } else {
      sparse_[ref] = value;
    }
    ++defined_;
  }
  std::uint32_t get(std::uint64_t ref) const {
    if (ref < dense_.size() && (dense_[ref] != kNone || sparse_.empty())) [[likely]]
      return dense_[ref];
    if (sparse_.empty()) return kNone;
    const auto it = sparse_.find(ref);
    return it == sparse_.end() ? kNone : it->second;
  }

 private:
  std::vector<std::uint32_t> dense_;
  std::unordered_map<std::uint64_t, std::uint32_t> sparse_;
  std::uint64_t defined_ = 0;
};

struct RawGroup {
  std::vector<std::uint64_t> members;
};

struct DefinitionContext {
  Definitions* defs = nullptr;
  std::vector<std::string> strings;  // by stringIds
  IdTable stringIds, regions, sourceLocations, systemTree, locationGroups, groups, comms, windows;
  std::unordered_map<std::uint64_t, LocationId> locations;
  std::vector<RawGroup> rawGroups;              // parallel to defs->groups
  std::vector<std::uint32_t> systemTreeParents;  // raw refs, resolved at the end
  std::vector<std::uint32_t> groupParents;
  std::vector<std::uint32_t> locationGroupRefs;
  std::vector<std::uint32_t> commGroupRefs, commParentRefs, windowCommRefs;
  std::vector<std::uint32_t> commRemoteGroupRefs;  // inter-communicators' second group, else undefined
  std::set<OTF2_AttributeRef> sourceCodeAttributes;
  std::string error;

  const std::string& str(OTF2_StringRef ref) const {
    static const std::string empty;
    const std::uint32_t index = stringIds.get(ref);
    return index < strings.size() ? strings[index] : empty;
  }
  OTF2_CallbackCode fail(std::string message) {
    if (error.empty()) error = std::move(message);
    return OTF2_CALLBACK_INTERRUPT;
  }
};

DefinitionContext& defCtx(void* userData) { return *static_cast<DefinitionContext*>(userData); }

// ---- global definition callbacks -----------------------------------------------------------

OTF2_CallbackCode onClock(void* u, uint64_t resolution, uint64_t offset, uint64_t length, uint64_t) {
  auto& c = defCtx(u);
  if (resolution == 0) return c.fail("clock resolution is zero (corrupted definitions?)");
  c.defs->clock = {resolution, offset, length};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onString(void* u, OTF2_StringRef self, const char* s) {
  auto& c = defCtx(u);
  c.stringIds.set(self, static_cast<std::uint32_t>(c.strings.size()));
  c.strings.emplace_back(s ? s : "");
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onAttribute(void* u, OTF2_AttributeRef self, OTF2_StringRef, OTF2_StringRef, OTF2_Type type) {
  if (type == OTF2_TYPE_SOURCE_CODE_LOCATION) defCtx(u).sourceCodeAttributes.insert(self);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onSourceCodeLocation(void* u, OTF2_SourceCodeLocationRef self, OTF2_StringRef file,
                                       uint32_t line) {
  auto& c = defCtx(u);
  c.sourceLocations.set(self, static_cast<std::uint32_t>(c.defs->sourceLocations.size()));
  c.defs->sourceLocations.push_back({c.str(file), line});
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onRegion(void* u, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef canonical,
                           OTF2_StringRef, OTF2_RegionRole role, OTF2_Paradigm paradigm, OTF2_RegionFlag,
                           OTF2_StringRef file, uint32_t begin, uint32_t end) {
  auto& c = defCtx(u);
  c.regions.set(self, static_cast<std::uint32_t>(c.defs->regions.size()));
  Region r;
  r.name = c.str(name);
  r.canonicalName = canonical == OTF2_UNDEFINED_STRING ? r.name : c.str(canonical);
  r.role = static_cast<RegionRole>(role);
  r.paradigm = static_cast<Paradigm>(paradigm);
  r.file = file == OTF2_UNDEFINED_STRING ? std::string() : c.str(file);
  r.beginLine = begin;
  r.endLine = end;
  c.defs->regions.push_back(std::move(r));
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onSystemTreeNode(void* u, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
                                   OTF2_StringRef className, OTF2_SystemTreeNodeRef parent) {
  auto& c = defCtx(u);
  c.systemTree.set(self, static_cast<std::uint32_t>(c.defs->systemTree.size()));
  c.defs->systemTree.push_back({c.str(name), c.str(className), kNone});
  c.systemTreeParents.push_back(parent);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onLocationGroup(void* u, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                  OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
                                  OTF2_LocationGroupRef) {
  auto& c = defCtx(u);
  c.locationGroups.set(self, static_cast<std::uint32_t>(c.defs->locationGroups.size()));
  c.defs->locationGroups.push_back({c.str(name), type == OTF2_LOCATION_GROUP_TYPE_PROCESS, kNone});
  c.groupParents.push_back(parent);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onLocation(void* u, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType type,
                             uint64_t events, OTF2_LocationGroupRef group) {
  auto& c = defCtx(u);
  const auto id = static_cast<LocationId>(c.defs->locations.size());
  if (!c.locations.emplace(self, id).second) return c.fail("location " + std::to_string(self) + " is defined twice");
  c.defs->locations.push_back({c.str(name), static_cast<LocationType>(type), kNone, events, self, {}});
  c.locationGroupRefs.push_back(group);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onGroup(void* u, OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType type,
                          OTF2_Paradigm paradigm, OTF2_GroupFlag, uint32_t count, const uint64_t* members) {
  auto& c = defCtx(u);
  c.groups.set(self, static_cast<std::uint32_t>(c.defs->groups.size()));
  c.defs->groups.push_back({c.str(name), static_cast<GroupType>(type), static_cast<Paradigm>(paradigm), {}});
  c.rawGroups.push_back({std::vector<std::uint64_t>(members, members + count)});
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onComm(void* u, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group, OTF2_CommRef parent,
                         OTF2_CommFlag) {
  auto& c = defCtx(u);
  c.comms.set(self, static_cast<std::uint32_t>(c.defs->comms.size()));
  c.defs->comms.push_back({c.str(name), kNone, kNone});
  c.commGroupRefs.push_back(group);
  c.commParentRefs.push_back(parent);
  c.commRemoteGroupRefs.push_back(OTF2_UNDEFINED_GROUP);
  return OTF2_CALLBACK_SUCCESS;
}

// An inter-communicator: a communicator with two groups, in the same id space as Comm.
OTF2_CallbackCode onInterComm(void* u, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef groupA,
                              OTF2_GroupRef groupB, OTF2_CommRef common, OTF2_CommFlag flags) {
  const OTF2_CallbackCode code = onComm(u, self, name, groupA, common, flags);
  defCtx(u).commRemoteGroupRefs.back() = groupB;
  return code;
}

// Inter-communicators: groups resolved; their collective operations are not analyzed (only
// their point-to-point messages are), which the user is told once.
void resolveInterComms(DefinitionContext& c, const std::function<void(const std::string&)>& warn) {
  Definitions& d = *c.defs;
  std::size_t inter = 0;
  for (std::size_t i = 0; i < d.comms.size(); ++i) {
    if (c.commRemoteGroupRefs[i] == OTF2_UNDEFINED_GROUP) continue;
    d.comms[i].remoteGroup = c.groups.get(c.commRemoteGroupRefs[i]);
    ++inter;
  }
  if (inter > 0)
    warn("the trace has " + std::to_string(inter) + " inter-communicator" + (inter == 1 ? "" : "s") +
         ": messages over inter-communicators are analyzed, collective operations on them are not (their time "
         "counts as MPI time, without wait states)");
}

OTF2_CallbackCode onRmaWin(void* u, OTF2_RmaWinRef self, OTF2_StringRef name, OTF2_CommRef comm, OTF2_RmaWinFlag) {
  auto& c = defCtx(u);
  c.windows.set(self, static_cast<std::uint32_t>(c.defs->windows.size()));
  c.defs->windows.push_back({c.str(name), kNone});
  c.windowCommRefs.push_back(comm);
  return OTF2_CALLBACK_SUCCESS;
}

// Resolves the references that may point forward, and decides which locations
// are the MPI ranks.
void resolveDefinitions(DefinitionContext& c, const std::function<void(const std::string&)>& warn) {
  Definitions& d = *c.defs;
  for (std::size_t i = 0; i < d.systemTree.size(); ++i) d.systemTree[i].parent = c.systemTree.get(c.systemTreeParents[i]);
  for (std::size_t i = 0; i < d.locationGroups.size(); ++i)
    d.locationGroups[i].systemTreeParent = c.systemTree.get(c.groupParents[i]);
  for (std::size_t i = 0; i < d.locations.size(); ++i) d.locations[i].group = c.locationGroups.get(c.locationGroupRefs[i]);
  for (std::size_t i = 0; i < d.comms.size(); ++i) {
    d.comms[i].group = c.groups.get(c.commGroupRefs[i]);
    d.comms[i].parent = c.comms.get(c.commParentRefs[i]);
  }
  for (std::size_t i = 0; i < d.windows.size(); ++i) d.windows[i].comm = c.comms.get(c.windowCommRefs[i]);
  resolveInterComms(c, warn);

  const Group* mpiLocations = nullptr;
  std::size_t mpiLocationsIndex = 0;
  for (std::size_t g = 0; g < d.groups.size(); ++g) {
    Group& group = d.groups[g];
    const auto& raw = c.rawGroups[g].members;
    if (group.type == GroupType::CommLocations || group.type == GroupType::Locations) {
      for (std::uint64_t ref : raw) {
        auto it = c.locations.find(ref);
        group.members.push_back(it == c.locations.end() ? kNone : it->second);
      }
      if (group.type == GroupType::CommLocations && group.paradigm == Paradigm::Mpi && !mpiLocations) {
        mpiLocations = &group;
        mpiLocationsIndex = g;
      }
    } else {
      group.members.reserve(raw.size());
      for (std::uint64_t m : raw) group.members.push_back(static_cast<std::uint32_t>(m));
    }
  }

  if (mpiLocations) {
    for (LocationId loc : d.groups[mpiLocationsIndex].members)
      if (loc != kNone) d.worldLocations.push_back(loc);
  } else {
    // No MPI communicator locations (a non-MPI or foreign trace): take the first
    // CPU thread of every process, in definition order.
    std::set<std::uint32_t> seenGroups;
    for (LocationId loc = 0; loc < d.locations.size(); ++loc) {
      const Location& l = d.locations[loc];
      if (l.type != LocationType::CpuThread) continue;
      const bool process = l.group < d.locationGroups.size() && d.locationGroups[l.group].isProcess;
      if (process && seenGroups.insert(l.group).second) d.worldLocations.push_back(loc);
    }
  }

  // Threads, streams and other paradigms are read but not replayed: one line says so.
  if (const std::string line = unanalyzedParadigmsLine(d); !line.empty()) warn(line);
}

// ---- event callbacks ------------------------------------------------------------------------

struct LocationContext {
  const DefinitionContext* defs = nullptr;
  const ClockProperties* clock = nullptr;
  CallTree* callTree = nullptr;
  LocationEvents* out = nullptr;
  std::vector<CallPathId> stack;
  OTF2_TimeStamp lastTicks = 0;
  std::uint64_t programMarkers = 0;  // ProgramBegin/End: expected, not worth a warning
  // An MPI rank's location keeps only its MPI records: those on communicators and windows
  // of other paradigms (Score-P's CUDA memory copies) are counted here and dropped.
  bool mpiOnly = true;
  std::uint64_t otherParadigmRecords = 0;
  LocationEvents* otherParadigm = nullptr;  // where the dropped RMA records go, if anywhere
  std::string error;

  OTF2_CallbackCode fail(std::string message) {
    if (error.empty()) error = std::move(message);
    return OTF2_CALLBACK_INTERRUPT;
  }
  // Converts and checks a timestamp; false (with error set) if it goes backwards.
  bool time(OTF2_TimeStamp ticks, double& seconds) {
    if (ticks < lastTicks) [[unlikely]] {
      seconds = 0;  // unused by the callers; keeps GCC's -Wmaybe-uninitialized quiet
      return backwards(ticks);
    }
    lastTicks = ticks;
    seconds = clock->seconds(ticks);
    return true;
  }
  // The error paths of the per-event hot paths, kept out of line so that the
  // common case stays small.
  [[gnu::cold, gnu::noinline]] bool backwards(OTF2_TimeStamp ticks) {
    fail("timestamps go backwards at tick " + std::to_string(ticks) + " (corrupted event file?)");
    return false;
  }
  [[gnu::cold, gnu::noinline]] OTF2_CallbackCode failRegion(const char* before, OTF2_RegionRef ref, const char* after) {
    return fail(before + std::to_string(ref) + after);
  }
  std::uint32_t comm(OTF2_CommRef ref) {
    if (ref == OTF2_UNDEFINED_COMM) return kNone;
    const std::uint32_t id = defs->comms.get(ref);
    if (id == kNone) fail("event refers to undefined communicator " + std::to_string(ref));
    return id;
  }
  std::uint32_t window(OTF2_RmaWinRef ref) {
    const std::uint32_t id = defs->windows.get(ref);
    if (id == kNone) fail("event refers to undefined RMA window " + std::to_string(ref));
    return id;
  }
  std::uint32_t group(OTF2_GroupRef ref) {
    if (ref == OTF2_UNDEFINED_GROUP) return kNone;
    const std::uint32_t id = defs->groups.get(ref);
    if (id == kNone) fail("event refers to undefined group " + std::to_string(ref));
    return id;
  }
  OTF2_CallbackCode status() const { return error.empty() ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_INTERRUPT; }
};

LocationContext& locCtx(void* userData) { return *static_cast<LocationContext*>(userData); }

// ---- records of other paradigms on an MPI rank's location ------------------------------------

// False (and the record counted) if an MPI location's record is on a communicator or window of
// another paradigm (`onMpi` false). A dropped collective end takes its begin marker along, so no
// begin is left without its end.
bool keepsRecord(LocationContext& c, bool onMpi, EventKind beginMarker = EventKind::Enter) {
  if (!c.mpiOnly || onMpi) return true;
  ++c.otherParadigmRecords;
  if (beginMarker != EventKind::Enter && !c.out->events.empty() && c.out->events.back().kind == beginMarker) {
    c.out->events.pop_back();
    ++c.otherParadigmRecords;
  }
  return false;
}
bool onMpiComm(const LocationContext& c, CommId comm) { return comm == kNone || c.defs->defs->isMpiComm(comm); }
bool onMpiWindow(const LocationContext& c, WinId win) { return win == kNone || c.defs->defs->isMpiWindow(win); }

SourceLocationId callSiteOf(const LocationContext& c, OTF2_AttributeList* attributes) {
  if (!attributes || c.defs->sourceCodeAttributes.empty() || OTF2_AttributeList_GetNumberOfElements(attributes) == 0)
    return kNone;
  for (OTF2_AttributeRef attribute : c.defs->sourceCodeAttributes) {
    OTF2_SourceCodeLocationRef ref;
    if (OTF2_AttributeList_GetSourceCodeLocationRef(attributes, attribute, &ref) == OTF2_SUCCESS)
      return c.defs->sourceLocations.get(ref);
  }
  return kNone;
}

OTF2_CallbackCode onEnter(OTF2_LocationRef, OTF2_TimeStamp ticks, uint64_t, void* u, OTF2_AttributeList* attributes,
                          OTF2_RegionRef regionRef) {
  auto& c = locCtx(u);
  double t;
  if (!c.time(ticks, t)) return OTF2_CALLBACK_INTERRUPT;
  const RegionId region = c.defs->regions.get(regionRef);
  if (region == kNone) [[unlikely]]
    return c.failRegion("ENTER of undefined region ", regionRef, "");
  const CallPathId parent = c.stack.empty() ? kNone : c.stack.back();
  const CallPathId path = c.callTree->intern(parent, region, callSiteOf(c, attributes));
  c.stack.push_back(path);
  c.out->addRegion(EventKind::Enter, t, path);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onLeave(OTF2_LocationRef, OTF2_TimeStamp ticks, uint64_t, void* u, OTF2_AttributeList*,
                          OTF2_RegionRef regionRef) {
  auto& c = locCtx(u);
  double t;
  if (!c.time(ticks, t)) return OTF2_CALLBACK_INTERRUPT;
  const RegionId region = c.defs->regions.get(regionRef);
  if (c.stack.empty()) [[unlikely]]
    return c.failRegion("LEAVE of region ", regionRef, " with no region entered");
  const CallPathId path = c.stack.back();
  if ((*c.callTree)[path].region != region) [[unlikely]]
    return c.failRegion("LEAVE of region ", regionRef, " does not match the innermost ENTER");
  c.stack.pop_back();
  c.out->addRegion(EventKind::Leave, t, path);
  return OTF2_CALLBACK_SUCCESS;
}

template <EventKind Kind>
OTF2_CallbackCode onMessage(LocationContext& c, OTF2_TimeStamp ticks, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                            uint64_t bytes, uint64_t request) {
  double t;
  if (!c.time(ticks, t)) return OTF2_CALLBACK_INTERRUPT;
  const CommId id = c.comm(comm);
  if (keepsRecord(c, onMpiComm(c, id))) c.out->addMessage(Kind, t, {peer, id, tag, bytes, request});
  return c.status();
}

OTF2_CallbackCode onMpiSend(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* u, OTF2_AttributeList*,
                            uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t bytes) {
  return onMessage<EventKind::MpiSend>(locCtx(u), t, receiver, comm, tag, bytes, 0);
}
OTF2_CallbackCode onMpiIsend(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* u, OTF2_AttributeList*,
                             uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t bytes, uint64_t request) {
  return onMessage<EventKind::MpiIsend>(locCtx(u), t, receiver, comm, tag, bytes, request);
}
OTF2_CallbackCode onMpiRecv(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* u, OTF2_AttributeList*,
                            uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t bytes) {
  return onMessage<EventKind::MpiRecv>(locCtx(u), t, sender, comm, tag, bytes, 0);
}
OTF2_CallbackCode onMpiIrecv(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* u, OTF2_AttributeList*,
                             uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t bytes, uint64_t request) {
  return onMessage<EventKind::MpiIrecv>(locCtx(u), t, sender, comm, tag, bytes, request);
}

template <EventKind Kind>
OTF2_CallbackCode onRequest(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* u, OTF2_AttributeList*,
                            uint64_t request) {
  return onMessage<Kind>(locCtx(u), t, kNone, OTF2_UNDEFINED_COMM, 0, 0, request);
}

template <EventKind Kind>
OTF2_CallbackCode onMarker(OTF2_LocationRef, OTF2_TimeStamp ticks, uint64_t, void* u, OTF2_AttributeList*) {
  auto& c = locCtx(u);
  double t;
  if (!c.time(ticks, t)) return OTF2_CALLBACK_INTERRUPT;
  c.out->addMarker(Kind, t);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onMpiCollectiveEnd(OTF2_LocationRef, OTF2_TimeStamp ticks, uint64_t, void* u, OTF2_AttributeList*,
                                     OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                     uint64_t received) {
  auto& c = locCtx(u);
  double t;
  if (!c.time(ticks, t)) return OTF2_CALLBACK_INTERRUPT;
  const CommId id = c.comm(comm);
  if (keepsRecord(c, onMpiComm(c, id), EventKind::MpiCollectiveBegin))
    c.out->addCollective(EventKind::MpiCollectiveEnd, t, {static_cast<CollectiveOp>(op), 0, id, root, sent, received});
  return c.status();
}

OTF2_CallbackCode onRmaCollectiveEnd(OTF2_LocationRef, OTF2_TimeStamp ticks, uint64_t, void* u, OTF2_AttributeList*,
                                     OTF2_CollectiveOp op, OTF2_RmaSyncLevel level, OTF2_RmaWinRef win, uint32_t root,
                                     uint64_t sent, uint64_t received) {
  auto& c = locCtx(u);
  double t;
  if (!c.time(ticks, t)) return OTF2_CALLBACK_INTERRUPT;
  const WinId id = c.window(win);
  if (keepsRecord(c, onMpiWindow(c, id), EventKind::RmaCollectiveBegin))
    c.out->addCollective(EventKind::RmaCollectiveEnd, t,
                         {static_cast<CollectiveOp>(op), static_cast<std::uint8_t>(level), id, root, sent, received});
  return c.status();
}

OTF2_CallbackCode addRma(LocationContext& c, EventKind kind, OTF2_TimeStamp ticks, const RmaRecord& r) {
  double t;
  if (!c.time(ticks, t)) return OTF2_CALLBACK_INTERRUPT;
  if (keepsRecord(c, onMpiWindow(c, r.win)))
    c.out->addRma(kind, t, r);
  else if (c.otherParadigm)
    c.otherParadigm->addRma(kind, t, r);
  return c.status();
}

template <EventKind Kind>
OTF2_CallbackCode onRmaWin(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* u, OTF2_AttributeList*,
                           OTF2_RmaWinRef win) {
  auto& c = locCtx(u);
  RmaRecord r;
  r.win = c.window(win);
  return addRma(c, Kind, t, r);
}

OTF2_CallbackCode onRmaGroupSync(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* u, OTF2_AttributeList*,
                                 OTF2_RmaSyncLevel level, OTF2_RmaWinRef win, OTF2_GroupRef group) {
  auto& c = locCtx(u);
  RmaRecord r;
  r.win = c.window(win);
  r.group = c.group(group);
  r.syncLevel = static_cast<std::uint8_t>(level);
  return addRma(c, EventKind::RmaGroupSync, t, r);
}

template <EventKind Kind>
OTF2_CallbackCode onRmaLock(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* u, OTF2_AttributeList*,
                            OTF2_RmaWinRef win, uint32_t remote, uint64_t lockId, OTF2_LockType type) {
  auto& c = locCtx(u);
  RmaRecord r;
  r.win = c.window(win);
  r.remote = remote;
  r.lockId = lockId;
  r.lockType = static_cast<std::uint8_t>(type);
  return addRma(c, Kind, t, r);
}

OTF2_CallbackCode onRmaReleaseLock(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* u, OTF2_AttributeList*,
                                   OTF2_RmaWinRef win, uint32_t remote, uint64_t lockId) {
  auto& c = locCtx(u);
  RmaRecord r;
  r.win = c.window(win);
  r.remote = remote;
  r.lockId = lockId;
  return addRma(c, EventKind::RmaReleaseLock, t, r);
}

OTF2_CallbackCode onRmaSync(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* u, OTF2_AttributeList*,
                            OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaSyncType type) {
  auto& c = locCtx(u);
  RmaRecord r;
  r.win = c.window(win);
  r.remote = remote;
  r.lockType = static_cast<std::uint8_t>(type);
  return addRma(c, EventKind::RmaSync, t, r);
}

template <EventKind Kind>
OTF2_CallbackCode onRmaTransfer(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* u, OTF2_AttributeList*,
                                OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes, uint64_t matchingId) {
  auto& c = locCtx(u);
  RmaRecord r;
  r.win = c.window(win);
  r.remote = remote;
  r.bytes = bytes;
  r.matchingId = matchingId;
  return addRma(c, Kind, t, r);
}

OTF2_CallbackCode onRmaAtomic(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* u, OTF2_AttributeList*,
                              OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaAtomicType type, uint64_t sent,
                              uint64_t received, uint64_t matchingId) {
  auto& c = locCtx(u);
  RmaRecord r;
  r.win = c.window(win);
  r.remote = remote;
  r.lockType = static_cast<std::uint8_t>(type);
  r.bytes = sent;
  r.received = received;
  r.matchingId = matchingId;
  return addRma(c, EventKind::RmaAtomic, t, r);
}

template <EventKind Kind>
OTF2_CallbackCode onRmaOp(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* u, OTF2_AttributeList*,
                          OTF2_RmaWinRef win, uint64_t matchingId) {
  auto& c = locCtx(u);
  RmaRecord r;
  r.win = c.window(win);
  r.matchingId = matchingId;
  return addRma(c, Kind, t, r);
}

OTF2_CallbackCode onProgramBegin(OTF2_LocationRef, OTF2_TimeStamp, uint64_t, void* u, OTF2_AttributeList*,
                                 OTF2_StringRef, uint32_t, const OTF2_StringRef*) {
  ++locCtx(u).programMarkers;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode onProgramEnd(OTF2_LocationRef, OTF2_TimeStamp, uint64_t, void* u, OTF2_AttributeList*, int64_t) {
  ++locCtx(u).programMarkers;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_EvtReaderCallbacks* makeEventCallbacks() {
  OTF2_EvtReaderCallbacks* cb = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, onEnter);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, onLeave);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, onMpiSend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, onMpiIsend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, onRequest<EventKind::MpiIsendComplete>);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, onRequest<EventKind::MpiIrecvRequest>);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, onMpiRecv);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, onMpiIrecv);
  OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb, onRequest<EventKind::MpiRequestTest>);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, onRequest<EventKind::MpiRequestCancelled>);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, onMarker<EventKind::MpiCollectiveBegin>);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, onMpiCollectiveEnd);
  OTF2_EvtReaderCallbacks_SetRmaWinCreateCallback(cb, onRmaWin<EventKind::RmaWinCreate>);
  OTF2_EvtReaderCallbacks_SetRmaWinDestroyCallback(cb, onRmaWin<EventKind::RmaWinDestroy>);
  OTF2_EvtReaderCallbacks_SetRmaCollectiveBeginCallback(cb, onMarker<EventKind::RmaCollectiveBegin>);
  OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(cb, onRmaCollectiveEnd);
  OTF2_EvtReaderCallbacks_SetRmaGroupSyncCallback(cb, onRmaGroupSync);
  OTF2_EvtReaderCallbacks_SetRmaRequestLockCallback(cb, onRmaLock<EventKind::RmaRequestLock>);
  OTF2_EvtReaderCallbacks_SetRmaAcquireLockCallback(cb, onRmaLock<EventKind::RmaAcquireLock>);
  OTF2_EvtReaderCallbacks_SetRmaTryLockCallback(cb, onRmaLock<EventKind::RmaTryLock>);
  OTF2_EvtReaderCallbacks_SetRmaReleaseLockCallback(cb, onRmaReleaseLock);
  OTF2_EvtReaderCallbacks_SetRmaSyncCallback(cb, onRmaSync);
  OTF2_EvtReaderCallbacks_SetRmaWaitChangeCallback(cb, onRmaWin<EventKind::RmaWaitChange>);
  OTF2_EvtReaderCallbacks_SetRmaPutCallback(cb, onRmaTransfer<EventKind::RmaPut>);
  OTF2_EvtReaderCallbacks_SetRmaGetCallback(cb, onRmaTransfer<EventKind::RmaGet>);
  OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(cb, onRmaAtomic);
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteBlockingCallback(cb, onRmaOp<EventKind::RmaOpCompleteBlocking>);
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteNonBlockingCallback(cb, onRmaOp<EventKind::RmaOpCompleteNonBlocking>);
  OTF2_EvtReaderCallbacks_SetRmaOpTestCallback(cb, onRmaOp<EventKind::RmaOpTest>);
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteRemoteCallback(cb, onRmaOp<EventKind::RmaOpCompleteRemote>);
  OTF2_EvtReaderCallbacks_SetProgramBeginCallback(cb, onProgramBegin);
  OTF2_EvtReaderCallbacks_SetProgramEndCallback(cb, onProgramEnd);
  return cb;
}

// A location's ClockOffset definitions, read from its local definition file. Reading them before
// the events is also what lets OTF2's event reader apply them.
OTF2_CallbackCode onClockOffset(void* userData, OTF2_TimeStamp time, int64_t offset, double) {
  static_cast<std::vector<ClockOffsetPoint>*>(userData)->push_back({time, offset});
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_GlobalDefReaderCallbacks* makeDefinitionCallbacks() {
  OTF2_GlobalDefReaderCallbacks* cb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, onClock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, onString);
  OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, onAttribute);
  OTF2_GlobalDefReaderCallbacks_SetSourceCodeLocationCallback(cb, onSourceCodeLocation);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, onRegion);
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, onSystemTreeNode);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, onLocationGroup);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, onLocation);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, onGroup);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, onComm);
  OTF2_GlobalDefReaderCallbacks_SetInterCommCallback(cb, onInterComm);
  OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(cb, onRmaWin);
  return cb;
}

struct ReaderCloser {
  void operator()(OTF2_Reader* r) const { OTF2_Reader_Close(r); }
};
using ReaderPtr = std::unique_ptr<OTF2_Reader, ReaderCloser>;

void defaultWarn(const std::string& line) { std::cerr << "waitscope: warning: " << line << '\n'; }

std::string notAFile(const fs::file_status& status) {
  switch (status.type()) {
    case fs::file_type::fifo: return "it is a FIFO (named pipe), not a file";
    case fs::file_type::character:
    case fs::file_type::block: return "it is a device, not a file";
    case fs::file_type::socket: return "it is a socket, not a file";
    default: return "it is not a regular file";
  }
}

std::uintmax_t fileSizeOr(const fs::path& p, std::uintmax_t fallback) {
  std::error_code ec;
  const auto size = fs::file_size(p, ec);
  return ec ? fallback : size;
}

}  // namespace

namespace {

// The trace of the given ranks (all MPI ranks without a list), or with `eachRank` a trace per rank
// in their order, from one reader: the definitions are read once and shared between them.
std::vector<Trace> readTracesChecked(const std::string& anchorPath, const std::vector<Rank>* worldRanks,
                                     const ReadOptions& options,
                                     const std::function<void(OTF2_Reader*)>& configureCollectives, bool eachRank) {
  Otf2ErrorCapture capture;
  clearOtf2Error();
  const fs::path anchor(anchorPath);
  std::error_code ec;
  const auto status = fs::status(anchor, ec);
  if (!fs::exists(status))
    throw TraceError(anchorPath + ": no such file; give the anchor file (traces.otf2) of an OTF2 archive");
  if (fs::is_directory(status)) {
    std::string hint;
    if (fs::exists(anchor / "traces.otf2")) hint = " (did you mean " + (anchor / "traces.otf2").string() + "?)";
    throw TraceError(anchorPath + ": is a directory, not an OTF2 anchor file" + hint);
  }
  // OTF2 would wait forever on a FIFO and read a device without end.
  if (!fs::is_regular_file(status)) throw TraceError(anchorPath + ": " + notAFile(status) + "; give an OTF2 anchor file");
  const fs::path globalDefs = fs::path(anchor).replace_extension(".def");
  const fs::path locationDir = fs::path(anchor).replace_extension("");

  Trace trace;              // the first rank's, and the definitions' and the warnings' of all
  std::vector<Trace> others;  // with eachRank, the other ranks' in their order
  trace.anchorPath = anchorPath;
  auto all = [&] {
    std::vector<Trace> out;
    out.reserve(1 + others.size());
    out.push_back(std::move(trace));
    for (Trace& other : others) out.push_back(std::move(other));
    return out;
  };
  // Each trace keeps its warnings; those of the first are shown (the others' definitions
  // warnings are the same, and their ranks speak through the first, as ranks but 0 do in a
  // parallel read).
  auto warnIn = [&](Trace& to, const std::string& line) {
    to.warnings.push_back(line);
    if (&to == &trace) (options.warn ? options.warn : defaultWarn)(line);
  };
  auto warn = [&](const std::string& line) { warnIn(trace, line); };

  ReaderPtr reader(OTF2_Reader_Open(anchorPath.c_str()));
  if (!reader)
    throw TraceError(anchorPath + ": not a readable OTF2 anchor file (" +
                     (lastOtf2Error().empty() ? std::string("unknown format") : lastOtf2Error()) + ")");
  configureCollectives(reader.get());
  {
    char* value = nullptr;
    if (OTF2_Reader_GetProperty(reader.get(), "WAITSCOPE::INCOMPLETE", &value) == OTF2_SUCCESS && value) {
      trace.incomplete = *value ? value : "the run ended abnormally";
      std::free(value);
      warn(anchorPath + ": the trace is incomplete (" + trace.incomplete +
           "): the run ended abnormally and its events stop there");
    }
  }

  if (!fs::exists(globalDefs))
    throw TraceError(globalDefs.string() + ": missing global definitions file; copy the whole trace directory");
  if (const auto type = fs::status(globalDefs, ec); !fs::is_regular_file(type))
    throw TraceError(globalDefs.string() + ": " + notAFile(type));

  DefinitionContext defs;
  defs.defs = &*trace.defs;
  {
    OTF2_GlobalDefReader* defReader = OTF2_Reader_GetGlobalDefReader(reader.get());
    if (!defReader) throw TraceError(globalDefs.string() + ": cannot open global definitions (" + lastOtf2Error() + ")");
    OTF2_GlobalDefReaderCallbacks* callbacks = makeDefinitionCallbacks();
    OTF2_Reader_RegisterGlobalDefCallbacks(reader.get(), defReader, callbacks, &defs);
    OTF2_GlobalDefReaderCallbacks_Delete(callbacks);
    uint64_t read = 0;
    const OTF2_ErrorCode code = OTF2_Reader_ReadAllGlobalDefinitions(reader.get(), defReader, &read);
    if (!defs.error.empty()) throw TraceError(globalDefs.string() + ": " + defs.error);
    if (code != OTF2_SUCCESS)
      throw TraceError(globalDefs.string() + ": corrupted or truncated global definitions (" + describeOtf2Error(code) + ")");
    OTF2_Reader_CloseGlobalDefReader(reader.get(), defReader);
  }
  resolveDefinitions(defs, warn);
  if (trace.defs->locations.empty())
    throw TraceError(globalDefs.string() + ": the archive defines no locations; it holds no events to analyze");
  if (trace.defs->worldLocations.empty())
    throw TraceError(globalDefs.string() + ": the archive defines no MPI rank (CPU thread of a process) to analyze");

  if (options.definitionsOnly) return all();

  std::vector<Rank> ranks;
  if (worldRanks) {
    ranks = *worldRanks;
  } else {
    for (Rank r = 0; r < trace.defs->worldLocations.size(); ++r) ranks.push_back(r);
  }
  for (Rank r : ranks)
    if (r >= trace.defs->worldLocations.size())
      throw TraceError(anchorPath + ": rank " + std::to_string(r) + " requested, but the trace has only " +
                       std::to_string(trace.defs->worldLocations.size()) + " MPI ranks");

  // What to read: the ranks' own locations, then the other locations of their processes.
  struct Wanted {
    LocationId id;
    Rank rank;        // world rank of the process
    bool mpiRank;     // the rank's own location (replayed), or one of its threads or streams
  };
  std::vector<Wanted> wanted;
  for (Rank r : ranks) wanted.push_back({trace.defs->worldLocations[r], r, true});
  {
    std::vector<std::size_t> first;
    const std::vector<LocationId> threads = trace.defs->otherLocationsByRank(&first);
    for (Rank r : ranks)
      for (std::size_t k = first[r]; k < first[r + 1]; ++k) wanted.push_back({threads[k], r, false});
  }
  // The trace each rank's locations go into.
  std::vector<std::size_t> traceOfRank;
  if (eachRank) {
    traceOfRank.assign(trace.defs->worldLocations.size(), 0);
    others.reserve(ranks.size() - std::min<std::size_t>(ranks.size(), 1));
    for (std::size_t k = 0; k < ranks.size(); ++k) {
      traceOfRank[ranks[k]] = k;
      if (k == 0) continue;
      Trace& other = others.emplace_back();
      other.anchorPath = trace.anchorPath;
      other.defs.shareWith(trace.defs);
      other.warnings = trace.warnings;
      other.incomplete = trace.incomplete;
    }
  }
  auto traceOf = [&](const Wanted& w) -> Trace& {
    const std::size_t k = eachRank ? traceOfRank[w.rank] : 0;
    return k == 0 ? trace : others[k - 1];
  };
  auto describe = [&](const Wanted& w) {
    return w.mpiRank ? "rank " + std::to_string(w.rank)
                     : "rank " + std::to_string(w.rank) + " location \"" + trace.defs->locations[w.id].name + "\"";
  };

  // Check the files ourselves: OTF2's own messages for missing files are cryptic.
  for (const Wanted& w : wanted) {
    const Location& loc = trace.defs->locations[w.id];
    for (const char* ext : {".evt", ".def"}) {
      const fs::path file = locationDir / (std::to_string(loc.otf2Id) + ext);
      const auto type = fs::status(file, ec);
      if (!fs::exists(type)) {
        // Score-P writes no local definitions for a location without clock offsets to record.
        if (!w.mpiRank && ext[1] == 'd') continue;
        throw TraceError(file.string() + ": missing " + (ext[1] == 'e' ? "event" : "local definitions") +
                         " file of " + describe(w) + "; copy the whole trace directory");
      }
      if (!fs::is_regular_file(type)) throw TraceError(file.string() + ": " + notAFile(type));
    }
    OTF2_Reader_SelectLocation(reader.get(), loc.otf2Id);
  }

  if (OTF2_Reader_OpenDefFiles(reader.get()) == OTF2_SUCCESS) {
    OTF2_DefReaderCallbacks* localCallbacks = OTF2_DefReaderCallbacks_New();
    OTF2_DefReaderCallbacks_SetClockOffsetCallback(localCallbacks, onClockOffset);
    for (const Wanted& w : wanted) {
      Location& loc = trace.defs->locations[w.id];
      OTF2_DefReader* local = OTF2_Reader_GetDefReader(reader.get(), loc.otf2Id);
      if (!local) continue;
      loc.clockOffsets.clear();
      OTF2_Reader_RegisterDefCallbacks(reader.get(), local, localCallbacks, &loc.clockOffsets);
      uint64_t read = 0;
      const OTF2_ErrorCode code = OTF2_Reader_ReadAllLocalDefinitions(reader.get(), local, &read);
      OTF2_Reader_CloseDefReader(reader.get(), local);
      if (code != OTF2_SUCCESS) {
        OTF2_DefReaderCallbacks_Delete(localCallbacks);
        throw TraceError((locationDir / (std::to_string(loc.otf2Id) + ".def")).string() +
                         ": corrupted local definitions (" + describeOtf2Error(code) + ")");
      }
    }
    OTF2_DefReaderCallbacks_Delete(localCallbacks);
    OTF2_Reader_CloseDefFiles(reader.get());
  }

  if (OTF2_Reader_OpenEvtFiles(reader.get()) != OTF2_SUCCESS)
    throw TraceError(locationDir.string() + ": cannot open the event files (" + lastOtf2Error() + ")");
  OTF2_EvtReaderCallbacks* callbacks = makeEventCallbacks();
  std::vector<std::uint64_t> foreignEvents(1 + others.size(), 0);
  for (const Wanted& w : wanted) {
    Trace& into = traceOf(w);
    const LocationId id = w.id;
    const Location& loc = trace.defs->locations[id];
    const fs::path file = locationDir / (std::to_string(loc.otf2Id) + ".evt");
    LocationEvents& out = (w.mpiRank ? into.locations : into.threadLocations).emplace_back();
    out.location = id;
    // Reserve what the definitions announce, bounded by the file size (an event takes
    // at least two bytes), so that a corrupted count cannot exhaust memory.
    out.events.reserve(std::min<std::uint64_t>(loc.eventCount, fileSizeOr(file, 0) / 2 + 1));
    adviseHugePages(out.events.data(), out.events.capacity() * sizeof(Event));

    LocationContext ctx;
    ctx.defs = &defs;
    ctx.clock = &trace.defs->clock;
    ctx.callTree = &into.callTree;
    ctx.out = &out;
    ctx.mpiOnly = w.mpiRank;
    if (w.mpiRank) {
      ctx.otherParadigm = &into.otherParadigmRecords.emplace_back();
      ctx.otherParadigm->location = id;
    }
    OTF2_EvtReader* evtReader = OTF2_Reader_GetEvtReader(reader.get(), loc.otf2Id);
    if (!evtReader) {
      OTF2_EvtReaderCallbacks_Delete(callbacks);
      throw TraceError(file.string() + ": cannot open event file (" + lastOtf2Error() + ")");
    }
    OTF2_Reader_RegisterEvtCallbacks(reader.get(), evtReader, callbacks, &ctx);
    uint64_t read = 0;
    clearOtf2Error();
    const OTF2_ErrorCode code = OTF2_Reader_ReadAllLocalEvents(reader.get(), evtReader, &read);
    OTF2_Reader_CloseEvtReader(reader.get(), evtReader);
    std::string problem;
    if (!ctx.error.empty())
      problem = ctx.error + " at event " + std::to_string(read);
    else if (code != OTF2_SUCCESS)
      problem = "corrupted or truncated event file after " + std::to_string(read) + " events (" +
                describeOtf2Error(code) + ")";
    else if (loc.eventCount != 0 && read < loc.eventCount)
      problem = "truncated: " + std::to_string(read) + " of the " + std::to_string(loc.eventCount) +
                " events its definition announces";
    if (!problem.empty()) {
      OTF2_EvtReaderCallbacks_Delete(callbacks);
      throw TraceError(file.string() + ": " + problem);
    }
    if (!ctx.stack.empty())
      warnIn(into, describe(w) + ": " + std::to_string(ctx.stack.size()) +
           " regions are still open at the end of the trace (the program did not finish; the trace is incomplete)");
    if (w.mpiRank) {  // the counts are about the replayed locations
      const std::uint64_t stored = out.events.size() + ctx.programMarkers + ctx.otherParadigmRecords;
      into.ignoredEvents += read - std::min(read, out.events.size());
      foreignEvents[eachRank ? traceOfRank[w.rank] : 0] += read - std::min(read, stored);
    }
    // Give back a reservation that was much too large (records the model does not
    // keep), but do not copy the whole array to save the few ProgramBegin/End slots.
    if (out.events.capacity() - out.events.size() > out.events.size() / 16) out.events.shrink_to_fit();
  }
  OTF2_EvtReaderCallbacks_Delete(callbacks);
  OTF2_Reader_CloseEvtFiles(reader.get());
  for (std::size_t k = 0; k < foreignEvents.size(); ++k)
    if (foreignEvents[k] > 0)
      warnIn(k == 0 ? trace : others[k - 1],
             "ignored " + std::to_string(foreignEvents[k]) +
                 " events of record kinds the analysis does not use (metrics, threads, I/O, ...)");
  return all();
}

std::vector<Trace> readTraces(const std::string& anchorPath, const std::vector<Rank>* worldRanks,
                              const ReadOptions& options, const std::function<void(OTF2_Reader*)>& configureCollectives,
                              bool eachRank) {
  clearOtf2OutOfMemory();
  try {
    return readTracesChecked(anchorPath, worldRanks, options, configureCollectives, eachRank);
  } catch (const TraceError&) {
    // OTF2 out of memory fails with a message about the file; say what it was.
    if (otf2RanOutOfMemory()) throw std::bad_alloc();
    throw;
  }
}

}  // namespace

Trace readTraceWith(const std::string& anchorPath, const std::vector<Rank>* worldRanks, const ReadOptions& options,
                    const std::function<void(OTF2_Reader*)>& configureCollectives) {
  return std::move(readTraces(anchorPath, worldRanks, options, configureCollectives, false).front());
}

Trace readTrace(const std::string& anchorPath, const ReadOptions& options) {
  return readTraceWith(anchorPath, nullptr, options, [](OTF2_Reader* r) { OTF2_Reader_SetSerialCollectiveCallbacks(r); });
}

std::vector<Trace> readTraceRanksEach(const std::string& anchorPath, const std::vector<Rank>& worldRanks,
                                      const ReadOptions& options) {
  if (worldRanks.empty()) return {};
  return readTraces(anchorPath, &worldRanks, options,
                    [](OTF2_Reader* r) { OTF2_Reader_SetSerialCollectiveCallbacks(r); }, true);
}

Trace readTraceRanks(const std::string& anchorPath, const std::vector<Rank>& worldRanks, const ReadOptions& options) {
  return readTraceWith(anchorPath, &worldRanks, options,
                       [](OTF2_Reader* r) { OTF2_Reader_SetSerialCollectiveCallbacks(r); });
}

}  // namespace waitscope::trace
