#include "tests/support/otf2_writer.h"

#include <otf2/otf2.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <vector>

#include "analysis/trace/otf2_errors.h"

namespace waitscope::trace {
namespace {

// The model's enumerations carry OTF2's numeric values, so the writer passes them through.
static_assert(static_cast<int>(CollectiveOp::Barrier) == OTF2_COLLECTIVE_OP_BARRIER);
static_assert(static_cast<int>(CollectiveOp::Allreduce) == OTF2_COLLECTIVE_OP_ALLREDUCE);
static_assert(static_cast<int>(CollectiveOp::ReduceScatterBlock) == OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK);
static_assert(static_cast<int>(CollectiveOp::CreateHandle) == OTF2_COLLECTIVE_OP_CREATE_HANDLE);
static_assert(static_cast<int>(CollectiveOp::DestroyHandleAndDeallocate) ==
              OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE);
static_assert(static_cast<int>(kSyncProcess) == OTF2_RMA_SYNC_LEVEL_PROCESS &&
              static_cast<int>(kSyncMemory) == OTF2_RMA_SYNC_LEVEL_MEMORY);
static_assert(static_cast<int>(RmaLockType::Exclusive) == OTF2_LOCK_EXCLUSIVE);
static_assert(static_cast<int>(RmaLockType::Shared) == OTF2_LOCK_SHARED);
static_assert(static_cast<int>(RmaAtomicType::CompareAndSwap) == OTF2_RMA_ATOMIC_TYPE_COMPARE_AND_SWAP);
static_assert(static_cast<int>(RmaAtomicType::FetchAndAccumulate) == OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE);
static_assert(static_cast<int>(RmaSyncType::NotifyOut) == OTF2_RMA_SYNC_TYPE_NOTIFY_OUT);
static_assert(static_cast<int>(RegionRole::Atomic) == OTF2_REGION_ROLE_ATOMIC);
static_assert(static_cast<int>(RegionRole::Point2Point) == OTF2_REGION_ROLE_POINT2POINT);
static_assert(static_cast<int>(RegionRole::Artificial) == OTF2_REGION_ROLE_ARTIFICIAL);
static_assert(static_cast<int>(RegionRole::Allocate) == OTF2_REGION_ROLE_ALLOCATE);
static_assert(static_cast<int>(RegionRole::FileIoMetadata) == OTF2_REGION_ROLE_FILE_IO_METADATA);
static_assert(static_cast<int>(Paradigm::Mpi) == OTF2_PARADIGM_MPI);
static_assert(static_cast<int>(Paradigm::Pthread) == OTF2_PARADIGM_PTHREAD);
static_assert(static_cast<int>(LocationType::CpuThread) == OTF2_LOCATION_TYPE_CPU_THREAD);
static_assert(static_cast<int>(GroupType::CommLocations) == OTF2_GROUP_TYPE_COMM_LOCATIONS);
static_assert(static_cast<int>(GroupType::CommSelf) == OTF2_GROUP_TYPE_COMM_SELF);
// kNone doubles as OTF2's "undefined" for every 32-bit reference and rank.
static_assert(kNone == OTF2_UNDEFINED_UINT32);

constexpr std::uint64_t kChunkSizeEvents = 1024 * 1024;
constexpr std::uint64_t kChunkSizeDefs = 4 * 1024 * 1024;
constexpr OTF2_AttributeRef kSourceCodeLocationAttribute = 0;

OTF2_FlushType flushAlways(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
// No post-flush callback: with one, OTF2 would add BUFFER_FLUSH records to the event streams.
const OTF2_FlushCallbacks kFlushCallbacks = {flushAlways, nullptr};

class ArchiveWriter {
 public:
  ArchiveWriter(const Trace& trace, std::string anchorPath) : trace_(trace), anchorPath_(std::move(anchorPath)) {}
  ~ArchiveWriter() {
    if (attributes_ != nullptr) OTF2_AttributeList_Delete(attributes_);
    if (archive_ != nullptr) OTF2_Archive_Close(archive_);
  }
  ArchiveWriter(const ArchiveWriter&) = delete;
  ArchiveWriter& operator=(const ArchiveWriter&) = delete;

  void write(const std::string& dir, const std::string& name) {
    archive_ = OTF2_Archive_Open(dir.c_str(), name.c_str(), OTF2_FILEMODE_WRITE, kChunkSizeEvents, kChunkSizeDefs,
                                 OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (archive_ == nullptr) fail("cannot create the archive", OTF2_ERROR_INVALID);
    check(OTF2_Archive_SetFlushCallbacks(archive_, &kFlushCallbacks, nullptr), "cannot set flush callbacks");
    check(OTF2_Archive_SetSerialCollectiveCallbacks(archive_), "cannot set collective callbacks");
    check(OTF2_Archive_SetCreator(archive_, "Waitscope"), "cannot set the creator");
    attributes_ = OTF2_AttributeList_New();

    writeEvents();
    writeLocalDefinitions();
    writeGlobalDefinitions();

    OTF2_Archive* archive = archive_;
    archive_ = nullptr;
    check(OTF2_Archive_Close(archive), "cannot close the archive");
  }

 private:
  [[noreturn]] void fail(const std::string& what, OTF2_ErrorCode code) const {
    throw TraceError("cannot write OTF2 archive " + anchorPath_ + ": " + what + " (" + describeOtf2Error(code) + ")");
  }
  void check(OTF2_ErrorCode code, const char* what) const {
    if (code != OTF2_SUCCESS) fail(what, code);
  }

  OTF2_TimeStamp ticks(double seconds) const {
    // Rounded and signed, so that events before the global offset survive a round trip.
    const auto& clock = trace_.defs->clock;
    const auto delta = std::llround(seconds * static_cast<double>(clock.ticksPerSecond));
    return clock.globalOffset + static_cast<std::uint64_t>(delta);
  }

  // ---- events ----
  void writeEvents() {
    check(OTF2_Archive_OpenEvtFiles(archive_), "cannot open the event files");
    for (const auto* locations : {&trace_.locations, &trace_.threadLocations})
      for (const LocationEvents& location : *locations) {
        const std::uint64_t otf2Id = trace_.defs->locations.at(location.location).otf2Id;
        OTF2_EvtWriter* writer = OTF2_Archive_GetEvtWriter(archive_, otf2Id);
        if (writer == nullptr)
          fail("cannot open the event writer of location " + std::to_string(otf2Id), OTF2_ERROR_INVALID);
        for (const Event& event : location.events) writeEvent(writer, location, event);
        check(OTF2_Archive_CloseEvtWriter(archive_, writer), "cannot close an event writer");
      }
    check(OTF2_Archive_CloseEvtFiles(archive_), "cannot close the event files");
  }

  void writeEvent(OTF2_EvtWriter* w, const LocationEvents& loc, const Event& e) {
    const OTF2_TimeStamp t = ticks(e.time);
    maxTicks_ = std::max(maxTicks_, t);
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    switch (e.kind) {
      case EventKind::Enter: {
        const CallPath& path = trace_.callTree[e.ref];
        OTF2_AttributeList* attributes = nullptr;
        if (path.callSite != kNone) {
          // Our call-site encoding: the ENTER carries the SOURCE_CODE_LOCATION attribute.
          check(OTF2_AttributeList_AddSourceCodeLocationRef(attributes_, kSourceCodeLocationAttribute, path.callSite),
                "cannot add the call-site attribute");
          attributes = attributes_;
        }
        rc = OTF2_EvtWriter_Enter(w, attributes, t, path.region);
        break;
      }
      case EventKind::Leave:
        rc = OTF2_EvtWriter_Leave(w, nullptr, t, trace_.callTree[e.ref].region);
        break;
      case EventKind::MpiSend: {
        const auto& m = loc.message(e);
        rc = OTF2_EvtWriter_MpiSend(w, nullptr, t, m.peer, m.comm, m.tag, m.bytes);
        break;
      }
      case EventKind::MpiIsend: {
        const auto& m = loc.message(e);
        rc = OTF2_EvtWriter_MpiIsend(w, nullptr, t, m.peer, m.comm, m.tag, m.bytes, m.request);
        break;
      }
      case EventKind::MpiIsendComplete:
        rc = OTF2_EvtWriter_MpiIsendComplete(w, nullptr, t, loc.message(e).request);
        break;
      case EventKind::MpiIrecvRequest:
        rc = OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, t, loc.message(e).request);
        break;
      case EventKind::MpiRecv: {
        const auto& m = loc.message(e);
        rc = OTF2_EvtWriter_MpiRecv(w, nullptr, t, m.peer, m.comm, m.tag, m.bytes);
        break;
      }
      case EventKind::MpiIrecv: {
        const auto& m = loc.message(e);
        rc = OTF2_EvtWriter_MpiIrecv(w, nullptr, t, m.peer, m.comm, m.tag, m.bytes, m.request);
        break;
      }
      case EventKind::MpiRequestTest:
        rc = OTF2_EvtWriter_MpiRequestTest(w, nullptr, t, loc.message(e).request);
        break;
      case EventKind::MpiRequestCancelled:
        rc = OTF2_EvtWriter_MpiRequestCancelled(w, nullptr, t, loc.message(e).request);
        break;
      case EventKind::MpiCollectiveBegin:
        rc = OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, t);
        break;
      case EventKind::MpiCollectiveEnd: {
        const auto& c = loc.collective(e);
        rc = OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, t, static_cast<OTF2_CollectiveOp>(c.op), c.object, c.root,
                                             c.sent, c.received);
        break;
      }
      case EventKind::RmaCollectiveBegin:
        rc = OTF2_EvtWriter_RmaCollectiveBegin(w, nullptr, t);
        break;
      case EventKind::RmaCollectiveEnd: {
        const auto& c = loc.collective(e);
        rc = OTF2_EvtWriter_RmaCollectiveEnd(w, nullptr, t, static_cast<OTF2_CollectiveOp>(c.op), c.syncLevel,
                                             c.object, c.root, c.sent, c.received);
        break;
      }
      default:
        rc = writeRmaEvent(w, t, e.kind, loc.rmaRecord(e));
        break;
    }
    check(rc, "cannot write an event");
  }

  static OTF2_ErrorCode writeRmaEvent(OTF2_EvtWriter* w, OTF2_TimeStamp t, EventKind kind, const RmaRecord& r) {
    switch (kind) {
      case EventKind::RmaWinCreate:
        return OTF2_EvtWriter_RmaWinCreate(w, nullptr, t, r.win);
      case EventKind::RmaWinDestroy:
        return OTF2_EvtWriter_RmaWinDestroy(w, nullptr, t, r.win);
      case EventKind::RmaGroupSync:
        return OTF2_EvtWriter_RmaGroupSync(w, nullptr, t, r.syncLevel, r.win, r.group);
      case EventKind::RmaRequestLock:
        return OTF2_EvtWriter_RmaRequestLock(w, nullptr, t, r.win, r.remote, r.lockId, r.lockType);
      case EventKind::RmaAcquireLock:
        return OTF2_EvtWriter_RmaAcquireLock(w, nullptr, t, r.win, r.remote, r.lockId, r.lockType);
      case EventKind::RmaTryLock:
        return OTF2_EvtWriter_RmaTryLock(w, nullptr, t, r.win, r.remote, r.lockId, r.lockType);
      case EventKind::RmaReleaseLock:
        return OTF2_EvtWriter_RmaReleaseLock(w, nullptr, t, r.win, r.remote, r.lockId);
      case EventKind::RmaSync:
        return OTF2_EvtWriter_RmaSync(w, nullptr, t, r.win, r.remote, r.lockType);
      case EventKind::RmaWaitChange:
        return OTF2_EvtWriter_RmaWaitChange(w, nullptr, t, r.win);
      case EventKind::RmaPut:
        return OTF2_EvtWriter_RmaPut(w, nullptr, t, r.win, r.remote, r.bytes, r.matchingId);
      case EventKind::RmaGet:
        return OTF2_EvtWriter_RmaGet(w, nullptr, t, r.win, r.remote, r.bytes, r.matchingId);
      case EventKind::RmaAtomic:
        return OTF2_EvtWriter_RmaAtomic(w, nullptr, t, r.win, r.remote, r.lockType, r.bytes, r.received, r.matchingId);
      case EventKind::RmaOpCompleteBlocking:
        return OTF2_EvtWriter_RmaOpCompleteBlocking(w, nullptr, t, r.win, r.matchingId);
      case EventKind::RmaOpCompleteNonBlocking:
        return OTF2_EvtWriter_RmaOpCompleteNonBlocking(w, nullptr, t, r.win, r.matchingId);
      case EventKind::RmaOpTest:
        return OTF2_EvtWriter_RmaOpTest(w, nullptr, t, r.win, r.matchingId);
      case EventKind::RmaOpCompleteRemote:
        return OTF2_EvtWriter_RmaOpCompleteRemote(w, nullptr, t, r.win, r.matchingId);
      default:
        return OTF2_ERROR_INVALID_ARGUMENT;  // every other kind is handled by writeEvent
    }
  }

  // OTF2 readers expect one local definition file per location: its clock offsets, or empty.
  void writeLocalDefinitions() {
    check(OTF2_Archive_OpenDefFiles(archive_), "cannot open the local definition files");
    for (const auto* locations : {&trace_.locations, &trace_.threadLocations})
      for (const LocationEvents& location : *locations) {
        const Location& def = trace_.defs->locations.at(location.location);
        OTF2_DefWriter* writer = OTF2_Archive_GetDefWriter(archive_, def.otf2Id);
        if (writer == nullptr) fail("cannot open a local definition writer", OTF2_ERROR_INVALID);
        for (const ClockOffsetPoint& p : def.clockOffsets)
          check(OTF2_DefWriter_WriteClockOffset(writer, p.time, p.offset, 0.0), "cannot write a clock offset");
        check(OTF2_Archive_CloseDefWriter(archive_, writer), "cannot close a local definition writer");
      }
    check(OTF2_Archive_CloseDefFiles(archive_), "cannot close the local definition files");
  }

  // ---- definitions ----
  OTF2_StringRef string(std::string_view text) {
    auto [it, inserted] = strings_.try_emplace(std::string(text), static_cast<OTF2_StringRef>(strings_.size()));
    if (inserted) check(OTF2_GlobalDefWriter_WriteString(defs_, it->second, it->first.c_str()), "cannot write a string");
    return it->second;
  }
  OTF2_StringRef optionalString(const std::string& text) { return text.empty() ? OTF2_UNDEFINED_STRING : string(text); }

  void writeGlobalDefinitions() {
    defs_ = OTF2_Archive_GetGlobalDefWriter(archive_);
    if (defs_ == nullptr) fail("cannot open the global definition writer", OTF2_ERROR_INVALID);
    const Definitions& d = trace_.defs;
    string("");

    const std::uint64_t length = std::max(d.clock.traceLength, maxTicks_ >= d.clock.globalOffset
                                                                    ? maxTicks_ - d.clock.globalOffset
                                                                    : std::uint64_t{0});
    check(OTF2_GlobalDefWriter_WriteClockProperties(defs_, d.clock.ticksPerSecond, d.clock.globalOffset, length,
                                                    OTF2_UNDEFINED_TIMESTAMP),
          "cannot write the clock properties");
    writeMpiParadigm();
    writeSystemTree();
    writeLocations();
    writeRegions();
    writeSourceLocations();
    writeGroupsAndComms();
  }

  void writeMpiParadigm() {
    check(OTF2_GlobalDefWriter_WriteParadigm(defs_, OTF2_PARADIGM_MPI, string("MPI"), OTF2_PARADIGM_CLASS_PROCESS),
          "cannot write the MPI paradigm");
    OTF2_AttributeValue value;
    value.stringRef = string("Comm ${id}");
    check(OTF2_GlobalDefWriter_WriteParadigmProperty(defs_, OTF2_PARADIGM_MPI, OTF2_PARADIGM_PROPERTY_COMM_NAME_TEMPLATE,
                                                     OTF2_TYPE_STRING, value),
          "cannot write a paradigm property");
    value.stringRef = string("Win ${id}");
    check(OTF2_GlobalDefWriter_WriteParadigmProperty(
              defs_, OTF2_PARADIGM_MPI, OTF2_PARADIGM_PROPERTY_RMA_WIN_NAME_TEMPLATE, OTF2_TYPE_STRING, value),
          "cannot write a paradigm property");
  }

  void writeSystemTree() {
    const auto& nodes = trace_.defs->systemTree;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const auto id = static_cast<OTF2_SystemTreeNodeRef>(i);
      check(OTF2_GlobalDefWriter_WriteSystemTreeNode(defs_, id, string(nodes[i].name), string(nodes[i].className),
                                                     nodes[i].parent),
            "cannot write a system tree node");
      if (nodes[i].className == "machine" || nodes[i].className == "node") {
        const auto domain =
            nodes[i].className == "machine" ? OTF2_SYSTEM_TREE_DOMAIN_MACHINE : OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY;
        check(OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(defs_, id, domain), "cannot write a system tree domain");
      }
    }
  }

  void writeLocations() {
    const Definitions& d = trace_.defs;
    for (std::size_t i = 0; i < d.locationGroups.size(); ++i) {
      const auto& group = d.locationGroups[i];
      check(OTF2_GlobalDefWriter_WriteLocationGroup(
                defs_, static_cast<OTF2_LocationGroupRef>(i), string(group.name),
                group.isProcess ? OTF2_LOCATION_GROUP_TYPE_PROCESS : OTF2_LOCATION_GROUP_TYPE_UNKNOWN,
                group.systemTreeParent, OTF2_UNDEFINED_LOCATION_GROUP),
            "cannot write a location group");
    }
    // The announced event count must match the event file for the locations we wrote.
    std::vector<std::uint64_t> counts(d.locations.size());
    for (std::size_t i = 0; i < d.locations.size(); ++i) counts[i] = d.locations[i].eventCount;
    for (const auto* locations : {&trace_.locations, &trace_.threadLocations})
      for (const LocationEvents& location : *locations) counts.at(location.location) = location.events.size();
    for (std::size_t i = 0; i < d.locations.size(); ++i) {
      const auto& location = d.locations[i];
      check(OTF2_GlobalDefWriter_WriteLocation(defs_, location.otf2Id, string(location.name),
                                               static_cast<OTF2_LocationType>(location.type), counts[i],
                                               location.group),
            "cannot write a location");
    }
  }

  void writeRegions() {
    const auto& regions = trace_.defs->regions;
    for (std::size_t i = 0; i < regions.size(); ++i) {
      const Region& r = regions[i];
      check(OTF2_GlobalDefWriter_WriteRegion(
                defs_, static_cast<OTF2_RegionRef>(i), string(r.name),
                string(r.canonicalName.empty() ? r.name : r.canonicalName), string(""),
                static_cast<OTF2_RegionRole>(r.role), static_cast<OTF2_Paradigm>(r.paradigm), OTF2_REGION_FLAG_NONE,
                optionalString(r.file), r.beginLine, r.endLine),
            "cannot write a region");
    }
  }

  void writeSourceLocations() {
    const auto& locations = trace_.defs->sourceLocations;
    for (std::size_t i = 0; i < locations.size(); ++i) {
      check(OTF2_GlobalDefWriter_WriteSourceCodeLocation(defs_, static_cast<OTF2_SourceCodeLocationRef>(i),
                                                         string(locations[i].file), locations[i].line),
            "cannot write a source code location");
    }
    check(OTF2_GlobalDefWriter_WriteAttribute(defs_, kSourceCodeLocationAttribute, string("SOURCE_CODE_LOCATION"),
                                              string("Source code location"), OTF2_TYPE_SOURCE_CODE_LOCATION),
          "cannot write the source code location attribute");
  }

  void writeGroupsAndComms() {
    const Definitions& d = trace_.defs;
    bool haveMpiLocations = false;
    std::vector<std::uint64_t> members;
    for (std::size_t i = 0; i < d.groups.size(); ++i) {
      const Group& g = d.groups[i];
      members.assign(g.members.begin(), g.members.end());
      // Location groups hold location indices in the model but OTF2 location ids in the archive.
      if (g.type == GroupType::Locations || g.type == GroupType::CommLocations) {
        for (auto& member : members) member = d.locations.at(member).otf2Id;
      }
      haveMpiLocations |= g.type == GroupType::CommLocations && g.paradigm == Paradigm::Mpi;
      writeGroup(static_cast<OTF2_GroupRef>(i), g.name, static_cast<OTF2_GroupType>(g.type),
                 static_cast<OTF2_Paradigm>(g.paradigm), members);
    }
    if (!haveMpiLocations && !d.worldLocations.empty()) {
      // Communicator ranks only resolve to locations through this group.
      members.clear();
      for (LocationId location : d.worldLocations) members.push_back(d.locations.at(location).otf2Id);
      writeGroup(static_cast<OTF2_GroupRef>(d.groups.size()), "", OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                 members);
    }
    for (std::size_t i = 0; i < d.comms.size(); ++i) {
      const Communicator& c = d.comms[i];
      if (c.remoteGroup != kNone) {
        check(OTF2_GlobalDefWriter_WriteInterComm(defs_, static_cast<OTF2_CommRef>(i), string(c.name), c.group,
                                                  c.remoteGroup, c.parent, OTF2_COMM_FLAG_NONE),
              "cannot write an inter-communicator");
        continue;
      }
      check(OTF2_GlobalDefWriter_WriteComm(defs_, static_cast<OTF2_CommRef>(i), string(c.name), c.group, c.parent,
                                           OTF2_COMM_FLAG_NONE),
            "cannot write a communicator");
    }
    for (std::size_t i = 0; i < d.windows.size(); ++i) {
      check(OTF2_GlobalDefWriter_WriteRmaWin(defs_, static_cast<OTF2_RmaWinRef>(i), string(d.windows[i].name),
                                             d.windows[i].comm, OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS),
            "cannot write an RMA window");
    }
  }

  void writeGroup(OTF2_GroupRef id, const std::string& name, OTF2_GroupType type, OTF2_Paradigm paradigm,
                  const std::vector<std::uint64_t>& members) {
    check(OTF2_GlobalDefWriter_WriteGroup(defs_, id, string(name), type, paradigm, OTF2_GROUP_FLAG_NONE,
                                          static_cast<std::uint32_t>(members.size()), members.data()),
          "cannot write a group");
  }

  const Trace& trace_;
  std::string anchorPath_;
  OTF2_Archive* archive_ = nullptr;
  OTF2_GlobalDefWriter* defs_ = nullptr;
  OTF2_AttributeList* attributes_ = nullptr;
  std::unordered_map<std::string, OTF2_StringRef> strings_;
  OTF2_TimeStamp maxTicks_ = 0;
};

// OTF2 refuses to overwrite an archive; a rewrite replaces only this archive's own files.
void prepareDirectory(const std::filesystem::path& dir, const std::string& name, const std::string& anchorPath) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!ec) std::filesystem::remove(dir / (name + ".otf2"), ec);
  if (!ec) std::filesystem::remove(dir / (name + ".def"), ec);
  if (!ec) std::filesystem::remove_all(dir / name, ec);
  if (ec) throw TraceError("cannot write OTF2 archive " + anchorPath + ": " + ec.message());
}

}  // namespace

void writeOtf2(const Trace& trace, const std::string& archiveDir, const std::string& archiveName) {
  const std::string anchorPath = (std::filesystem::path(archiveDir) / (archiveName + ".otf2")).string();
  prepareDirectory(archiveDir, archiveName, anchorPath);
  Otf2ErrorCapture capture;
  clearOtf2Error();
  ArchiveWriter writer(trace, anchorPath);
  writer.write(archiveDir, archiveName);
}

}  // namespace waitscope::trace
