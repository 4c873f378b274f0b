#pragma once
// Global definitions of a trace: what the events refer to. Identifiers are the
// trace's own global ids where OTF2 has them, made dense by the reader.
#include <string>
#include <string_view>
#include <vector>

#include "analysis/trace/ids.h"

namespace waitscope::trace {

struct ClockProperties {
  std::uint64_t ticksPerSecond = 1;
  std::uint64_t globalOffset = 0;
  std::uint64_t traceLength = 0;

  double seconds(std::uint64_t ticks) const {
    return static_cast<double>(static_cast<std::int64_t>(ticks - globalOffset)) /
           static_cast<double>(ticksPerSecond);
  }
  std::uint64_t ticks(double seconds) const {
    return globalOffset + static_cast<std::uint64_t>(seconds * static_cast<double>(ticksPerSecond) + 0.5);
  }
};

// A ClockOffset definition: at local tick `time` the global clock was `offset` ticks ahead.
// Score-P measures them against rank 0 at initialization and finalization; OTF2's event reader
// applies them to every timestamp (interpolating linearly between them) as it reads.
struct ClockOffsetPoint {
  std::uint64_t time = 0;
  std::int64_t offset = 0;
};

struct Region {
  std::string name;
  std::string canonicalName;
  RegionRole role = RegionRole::Unknown;
  Paradigm paradigm = Paradigm::Unknown;
  std::string file;          // empty when unknown
  std::uint32_t beginLine = 0;
  std::uint32_t endLine = 0;
};

struct SourceLocation {
  std::string file;
  std::uint32_t line = 0;
};

struct SystemTreeNode {
  std::string name;
  std::string className;     // "machine", "node", ...
  std::uint32_t parent = kNone;
};

struct LocationGroup {
  std::string name;          // "MPI Rank 3"
  bool isProcess = true;
  std::uint32_t systemTreeParent = kNone;
};

struct Location {
  std::string name;
  LocationType type = LocationType::CpuThread;
  std::uint32_t group = kNone;       // index into locationGroups
  std::uint64_t eventCount = 0;      // as announced by the definition
  std::uint64_t otf2Id = 0;          // the archive's location id (names the .evt file)
  // Its clock's recorded offsets to the global clock. Event times read from a trace have them
  // applied; a trace writer writes event times as given with these beside them.
  std::vector<ClockOffsetPoint> clockOffsets;
};

// A group of MPI ranks or locations. For CommGroup, members are ranks of
// MPI_COMM_WORLD; for CommLocations, members are location indices by world rank.
struct Group {
  std::string name;
  GroupType type = GroupType::Unknown;
  Paradigm paradigm = Paradigm::Unknown;
  std::vector<std::uint32_t> members;
};

struct Communicator {
  std::string name;
  GroupId group = kNone;     // a CommGroup (world ranks) or CommSelf group
  CommId parent = kNone;
  // An inter-communicator (OTF2's InterComm, e.g. from MPI_Intercomm_create) has a second group:
  // `group` and `remoteGroup` are its two groups, whichever a rank is in is its local one, and the
  // peer of a point-to-point record names a rank of the other. kNone: an intra-communicator.
  GroupId remoteGroup = kNone;
};

struct RmaWindow {
  std::string name;
  CommId comm = kNone;
};

struct Definitions {
  ClockProperties clock;
  std::vector<Region> regions;
  std::vector<SourceLocation> sourceLocations;
  std::vector<SystemTreeNode> systemTree;
  std::vector<LocationGroup> locationGroups;
  std::vector<Location> locations;
  std::vector<Group> groups;
  std::vector<Communicator> comms;
  std::vector<RmaWindow> windows;
  // The MPI locations by MPI_COMM_WORLD rank (from the MPI CommLocations group,
  // or, when absent, the CPU-thread locations of process groups in order).
  std::vector<LocationId> worldLocations;

  // Rank in MPI_COMM_WORLD of `rank` in communicator `comm`; kNone if out of range.
  Rank worldRank(CommId comm, Rank rank) const;
  // Size of a communicator (1 for MPI_COMM_SELF-like communicators; an inter-communicator's
  // first group).
  std::size_t commSize(CommId comm) const;
  bool isInterComm(CommId comm) const { return comm < comms.size() && comms[comm].remoteGroup != kNone; }
  // The group the peers of world rank `self`'s point-to-point records on `comm` are ranks of: the
  // communicator's group, or for an inter-communicator the group `self` is not in (kNone if
  // `self` is in neither).
  GroupId peerGroup(CommId comm, Rank self) const;
  // World rank of peer `rank` of world rank `self` on `comm` (MPI_COMM_SELF: `self`); kNone if
  // out of range.
  Rank peerWorldRank(CommId comm, Rank rank, Rank self) const;
  // Number of ranks `self` can name as a peer on `comm`.
  std::size_t peerCount(CommId comm, Rank self) const;
  // The world rank of a location, or kNone if it is no MPI location.
  Rank worldRankOfLocation(LocationId location) const;

  // Hybrid traces (analysis/trace/paradigms.h). A communicator is MPI unless its group names
  // another paradigm (isForeignParadigm: CUDA, OpenMP, ...); unknown and neutral paradigms count
  // as MPI, as older writers leave it unset. Out-of-range ids count as MPI, so the MPI checks
  // still see them.
  bool isMpiComm(CommId comm) const;
  bool isMpiWindow(WinId win) const;
  // The location that is member `rank` of a non-MPI communicator: Score-P numbers those
  // members by their position in the COMM_LOCATIONS group of the same paradigm. kNone if
  // there is none.
  LocationId locationOfCommMember(CommId comm, Rank rank) const;
  // Per location, the world rank of the MPI process it belongs to (same location group as
  // that rank's location), kNone for a location of no analyzed process.
  std::vector<Rank> processRanks() const;
  // The other locations of the processes (threads, accelerator streams, metric locations): by
  // rank, then in definition order, the order in which the reader loads them and the report
  // lists them after the ranks. `first[r]` is where rank r's begin (size: ranks + 1).
  std::vector<LocationId> otherLocationsByRank(std::vector<std::size_t>* first = nullptr) const;
};

}  // namespace waitscope::trace
