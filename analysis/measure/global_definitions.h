#pragma once
// Rank-local definitions of libwaitscope-measure and their unification into Score-P-like global
// OTF2 definitions: done at MPI_Finalize by rank 0, and by waitscope-run for the trace of a run
// that ended abnormally (partial_trace.h). No MPI here, so the serial tool links it too.
#include <otf2/otf2.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace waitscope::measure {

// MPI regions are global by construction: region id = index in mpi_functions.def.
constexpr std::uint32_t kNumMpi = 0
#define WS_MPI(category, role, name, params, args) +1
#include "analysis/measure/mpi_functions.def"
#undef WS_MPI
    ;
constexpr OTF2_RegionRef kFlushRegion = kNumMpi;       // "TRACE BUFFER FLUSH"
constexpr OTF2_RegionRef kFirstUserRegion = kNumMpi + 1;
constexpr OTF2_CommRef kWorldComm = 0;
constexpr OTF2_CommRef kSelfComm = 1;

extern const char* const kMpiNames[kNumMpi];

struct CommDef {
  std::uint64_t key = 0;          // (world rank of its rank 0) << 32 | that rank's counter
  std::string creator;            // e.g. "MPI_Comm_split"
  OTF2_CommRef parent = OTF2_UNDEFINED_COMM;
  std::vector<std::uint64_t> members;  // world ranks, in communicator rank order
  // An inter-communicator's second group (world ranks in its rank order), written as OTF2's
  // InterComm; `members` is the group that holds the lowest world rank, so that every rank
  // defines it alike. Empty for an intra-communicator.
  std::vector<std::uint64_t> remoteMembers;
};

struct WinDef {
  std::uint64_t key = 0;
  OTF2_CommRef comm = 0;
  std::string name;
};

struct UserRegionDef {
  std::string name;
  std::string file;
  std::uint32_t line = 0;
  bool compiler = true;  // -finstrument-functions (COMPILER) or waitscope_region_begin (USER)
};

// One rank's definitions; local ids are the indices (comms: 0 and 1 are world and self).
struct LocalDefinitions {
  std::vector<UserRegionDef> userRegions;
  std::vector<std::pair<std::string, std::uint32_t>> sourceLocations;
  std::vector<std::vector<std::uint64_t>> groups;
  std::vector<CommDef> comms;
  std::vector<WinDef> wins;
};

struct Blob {
  std::string data;
  void u64(std::uint64_t v) { data.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void str(const std::string& s) {
    u64(s.size());
    data += s;
  }
  void vec(const std::vector<std::uint64_t>& v) {
    u64(v.size());
    for (auto x : v) u64(x);
  }
};

struct BlobReader {
  const char* p;
  std::uint64_t u64() {
    std::uint64_t v;
    std::memcpy(&v, p, sizeof v);
    p += sizeof v;
    return v;
  }
  std::string str() {
    const std::uint64_t n = u64();
    std::string s(p, n);
    p += n;
    return s;
  }
  std::vector<std::uint64_t> vec() {
    std::vector<std::uint64_t> v(u64());
    for (auto& x : v) x = u64();
    return v;
  }
};

// Global definition tables built on rank 0.
struct Global {
  std::map<std::string, OTF2_StringRef> strings;
  std::vector<std::string> stringList;
  OTF2_StringRef str(const std::string& s) {
    auto [it, added] = strings.emplace(s, static_cast<OTF2_StringRef>(stringList.size()));
    if (added) stringList.push_back(s);
    return it->second;
  }
  std::map<std::tuple<std::string, std::string, std::uint32_t, bool>, OTF2_RegionRef> regions;
  std::vector<UserRegionDef> regionList;
  std::map<std::pair<std::string, std::uint32_t>, OTF2_SourceCodeLocationRef> scls;
  std::vector<std::pair<std::string, std::uint32_t>> sclList;
  std::map<std::vector<std::uint64_t>, OTF2_GroupRef> groups;  // COMM_GROUP ids from 2 on
  std::vector<std::vector<std::uint64_t>> groupList;
  std::map<std::uint64_t, OTF2_CommRef> comms;
  std::vector<CommDef> commList;
  std::map<std::uint64_t, OTF2_RmaWinRef> wins;
  std::vector<WinDef> winList;
  OTF2_GroupRef group(const std::vector<std::uint64_t>& members) {
    auto [it, added] = groups.emplace(members, static_cast<OTF2_GroupRef>(groupList.size() + 2));
    if (added) groupList.push_back(members);
    return it->second;
  }
};


// The byte form of one rank's definitions, gathered at rank 0.
Blob encodeLocalDefinitions(const LocalDefinitions& d);
// Rank 0: merges one rank's local definitions and returns that rank's mapping tables
// (region, source location, group, comm, window), each as a dense array local -> global.
Blob unify(Global& gl, const char* data);
// Writes the mapping tables returned by unify() into a rank's local definition writer.
void writeMappings(OTF2_DefWriter* w, const char* maps);
// The global definitions of a trace of events.size() ranks (events[r] records on rank r).
void writeGlobalDefinitions(OTF2_Archive* archive, Global& gl, const std::vector<std::uint64_t>& events,
                            const std::vector<std::string>& hosts, std::uint64_t offset, std::uint64_t length);

}  // namespace waitscope::measure
