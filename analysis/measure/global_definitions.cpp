// Unification of the rank-local definitions into global OTF2 definitions (see global_definitions.h).
#include "analysis/measure/global_definitions.h"

namespace waitscope::measure {

const char* const kMpiNames[kNumMpi] = {
#define WS_MPI(category, role, name, params, args) #name,
#include "analysis/measure/mpi_functions.def"
#undef WS_MPI
};

namespace {
constexpr OTF2_RegionRole kMpiRoles[] = {
#define WS_MPI(category, role, name, params, args) OTF2_REGION_ROLE_##role,
#include "analysis/measure/mpi_functions.def"
#undef WS_MPI
};
}  // namespace

Blob encodeLocalDefinitions(const LocalDefinitions& d) {
  Blob b;
  b.u64(d.userRegions.size());
  for (const auto& r : d.userRegions) {
    b.str(r.name);
    b.str(r.file);
    b.u64(r.line);
    b.u64(r.compiler);
  }
  b.u64(d.sourceLocations.size());
  for (const auto& [file, line] : d.sourceLocations) {
    b.str(file);
    b.u64(line);
  }
  b.u64(d.groups.size());
  for (const auto& members : d.groups) b.vec(members);
  b.u64(d.comms.size() - 2);
  for (std::size_t i = 2; i < d.comms.size(); ++i) {
    const CommDef& c = d.comms[i];
    b.u64(c.key);
    b.str(c.creator);
    b.u64(c.parent == OTF2_UNDEFINED_COMM ? ~0ULL : c.parent);
    b.vec(c.members);
    b.vec(c.remoteMembers);
  }
  b.u64(d.wins.size());
  for (const WinDef& w : d.wins) {
    b.u64(w.key);
    b.u64(w.comm);
    b.str(w.name);
  }
  return b;
}

// Rank 0: merges one rank's local definitions and returns that rank's mapping tables
// (region, source location, group, comm, window), each as a dense array local -> global.
Blob unify(Global& gl, const char* data) {
  BlobReader r{data};
  Blob maps;
  std::vector<std::uint64_t> regionMap(kFirstUserRegion);
  for (std::uint32_t i = 0; i < kFirstUserRegion; ++i) regionMap[i] = i;
  for (std::uint64_t n = r.u64(); n-- > 0;) {
    UserRegionDef def;
    def.name = r.str();
    def.file = r.str();
    def.line = static_cast<std::uint32_t>(r.u64());
    def.compiler = r.u64() != 0;
    auto key = std::make_tuple(def.name, def.file, def.line, def.compiler);
    auto [it, added] = gl.regions.emplace(key, static_cast<OTF2_RegionRef>(kFirstUserRegion + gl.regionList.size()));
    if (added) gl.regionList.push_back(def);
    regionMap.push_back(it->second);
  }
  std::vector<std::uint64_t> sclMap;
  for (std::uint64_t n = r.u64(); n-- > 0;) {
    std::string file = r.str();
    const auto line = static_cast<std::uint32_t>(r.u64());
    auto key = std::make_pair(file, line);
    auto [it, added] = gl.scls.emplace(key, static_cast<OTF2_SourceCodeLocationRef>(gl.sclList.size()));
    if (added) gl.sclList.push_back(key);
    sclMap.push_back(it->second);
  }
  std::vector<std::uint64_t> groupMap;
  for (std::uint64_t n = r.u64(); n-- > 0;) groupMap.push_back(gl.group(r.vec()));
  std::vector<std::uint64_t> commMap = {kWorldComm, kSelfComm};
  for (std::uint64_t n = r.u64(); n-- > 0;) {
    CommDef c;
    c.key = r.u64();
    c.creator = r.str();
    const std::uint64_t parent = r.u64();
    c.parent = parent == ~0ULL ? OTF2_UNDEFINED_COMM : static_cast<OTF2_CommRef>(commMap.at(parent));
    c.members = r.vec();
    c.remoteMembers = r.vec();
    auto [it, added] = gl.comms.emplace(c.key, static_cast<OTF2_CommRef>(gl.commList.size() + 2));
    if (added) gl.commList.push_back(std::move(c));
    commMap.push_back(it->second);
  }
  std::vector<std::uint64_t> winMap;
  for (std::uint64_t n = r.u64(); n-- > 0;) {
    WinDef w;
    w.key = r.u64();
    w.comm = static_cast<OTF2_CommRef>(commMap.at(r.u64()));
    w.name = r.str();
    auto [it, added] = gl.wins.emplace(w.key, static_cast<OTF2_RmaWinRef>(gl.winList.size()));
    if (added) gl.winList.push_back(std::move(w));
    winMap.push_back(it->second);
  }
  for (const auto* m : {&regionMap, &sclMap, &groupMap, &commMap, &winMap}) maps.vec(*m);
  return maps;
}

static void writeMapping(OTF2_DefWriter* w, OTF2_MappingType type, const std::vector<std::uint64_t>& map) {
  if (map.empty()) return;
  bool identity = true;
  for (std::size_t i = 0; i < map.size(); ++i) identity = identity && map[i] == i;
  if (identity) return;
  OTF2_IdMap* idMap = OTF2_IdMap_CreateFromUint64Array(map.size(), map.data(), true);
  OTF2_DefWriter_WriteMappingTable(w, type, idMap);
  OTF2_IdMap_Free(idMap);
}

void writeGlobalDefinitions(OTF2_Archive* archive, Global& gl, const std::vector<std::uint64_t>& events,
                            const std::vector<std::string>& hosts, std::uint64_t offset, std::uint64_t length) {
  OTF2_GlobalDefWriter* w = OTF2_Archive_GetGlobalDefWriter(archive);
  const int n = static_cast<int>(events.size());
  std::vector<std::uint64_t> all(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) all[static_cast<std::size_t>(r)] = static_cast<std::uint64_t>(r);
  // strings first, then everything that refers to them
  gl.str("");
  const OTF2_StringRef sMpi = gl.str("MPI");
  for (const char* name : kMpiNames) gl.str(name);
  std::map<std::string, OTF2_SystemTreeNodeRef> nodes;
  for (const auto& h : hosts) nodes.emplace(h, 0);
  OTF2_SystemTreeNodeRef nextNode = 1;
  for (auto& [h, id] : nodes) id = nextNode++;
  // collect all strings
  gl.str("machine"), gl.str("Linux"), gl.str("node"), gl.str("Master thread"), gl.str("TRACE BUFFER FLUSH");
  gl.str("SOURCE_CODE_LOCATION"), gl.str("Source code location"), gl.str("MPI_COMM_WORLD"), gl.str("MPI_COMM_SELF");
  gl.str("Comm ${id}"), gl.str("Win ${id}");
  for (const auto& [h, id] : nodes) gl.str(h);
  for (int r = 0; r < n; ++r) gl.str("MPI Rank " + std::to_string(r));
  for (const auto& r : gl.regionList) gl.str(r.name), gl.str(r.file);
  for (const auto& s : gl.sclList) gl.str(s.first);
  for (const auto& c : gl.commList) gl.str(c.creator);
  for (const auto& w2 : gl.winList) gl.str(w2.name);
  for (std::size_t i = 0; i < gl.stringList.size(); ++i)
    OTF2_GlobalDefWriter_WriteString(w, static_cast<OTF2_StringRef>(i), gl.stringList[i].c_str());

  OTF2_GlobalDefWriter_WriteClockProperties(w, 1000000000ULL, offset, length, OTF2_UNDEFINED_TIMESTAMP);
  OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, sMpi, OTF2_PARADIGM_CLASS_PROCESS);
  OTF2_AttributeValue v;
  v.stringRef = gl.str("Comm ${id}");
  OTF2_GlobalDefWriter_WriteParadigmProperty(w, OTF2_PARADIGM_MPI, OTF2_PARADIGM_PROPERTY_COMM_NAME_TEMPLATE,
                                             OTF2_TYPE_STRING, v);
  v.stringRef = gl.str("Win ${id}");
  OTF2_GlobalDefWriter_WriteParadigmProperty(w, OTF2_PARADIGM_MPI, OTF2_PARADIGM_PROPERTY_RMA_WIN_NAME_TEMPLATE,
                                             OTF2_TYPE_STRING, v);

  OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, gl.str("Linux"), gl.str("machine"), OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(w, 0, OTF2_SYSTEM_TREE_DOMAIN_MACHINE);
  for (const auto& [h, id] : nodes) {
    OTF2_GlobalDefWriter_WriteSystemTreeNode(w, id, gl.str(h), gl.str("node"), 0);
    OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(w, id, OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY);
  }
  for (int r = 0; r < n; ++r)
    OTF2_GlobalDefWriter_WriteLocationGroup(w, static_cast<OTF2_LocationGroupRef>(r),
                                            gl.str("MPI Rank " + std::to_string(r)), OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                            nodes[hosts[static_cast<std::size_t>(r)]], OTF2_UNDEFINED_LOCATION_GROUP);
  for (int r = 0; r < n; ++r)
    OTF2_GlobalDefWriter_WriteLocation(w, static_cast<OTF2_LocationRef>(r), gl.str("Master thread"),
                                       OTF2_LOCATION_TYPE_CPU_THREAD, events[static_cast<std::size_t>(r)],
                                       static_cast<OTF2_LocationGroupRef>(r));

  // regions
  for (std::uint32_t i = 0; i < kNumMpi; ++i)
    OTF2_GlobalDefWriter_WriteRegion(w, i, gl.str(kMpiNames[i]), gl.str(kMpiNames[i]), gl.str(""), kMpiRoles[i],
                                     OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, sMpi, 0, 0);
  OTF2_GlobalDefWriter_WriteRegion(w, kFlushRegion, gl.str("TRACE BUFFER FLUSH"), gl.str("TRACE BUFFER FLUSH"),
                                   gl.str(""), OTF2_REGION_ROLE_ARTIFICIAL, OTF2_PARADIGM_MEASUREMENT_SYSTEM,
                                   OTF2_REGION_FLAG_NONE, OTF2_UNDEFINED_STRING, 0, 0);
  for (std::size_t i = 0; i < gl.regionList.size(); ++i) {
    const auto& r = gl.regionList[i];
    OTF2_GlobalDefWriter_WriteRegion(
        w, static_cast<OTF2_RegionRef>(kFirstUserRegion + i), gl.str(r.name), gl.str(r.name), gl.str(""),
        OTF2_REGION_ROLE_FUNCTION, r.compiler ? OTF2_PARADIGM_COMPILER : OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE,
        r.file.empty() ? OTF2_UNDEFINED_STRING : gl.str(r.file), r.line, r.line);
  }
  for (std::size_t i = 0; i < gl.sclList.size(); ++i)
    OTF2_GlobalDefWriter_WriteSourceCodeLocation(w, static_cast<OTF2_SourceCodeLocationRef>(i),
                                                 gl.str(gl.sclList[i].first), gl.sclList[i].second);
  OTF2_GlobalDefWriter_WriteAttribute(w, 0, gl.str("SOURCE_CODE_LOCATION"), gl.str("Source code location"),
                                      OTF2_TYPE_SOURCE_CODE_LOCATION);

  gl.group(all);
  for (const CommDef& c : gl.commList) {
    gl.group(c.members);
    if (!c.remoteMembers.empty()) gl.group(c.remoteMembers);
  }
  // groups: 0 = the MPI locations, 1 = COMM_SELF, 2.. = COMM_GROUPs of world ranks
  OTF2_GlobalDefWriter_WriteGroup(w, 0, gl.str(""), OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, static_cast<std::uint32_t>(n), all.data());
  OTF2_GlobalDefWriter_WriteGroup(w, 1, gl.str(""), OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, 0, nullptr);
  for (std::size_t i = 0; i < gl.groupList.size(); ++i)
    OTF2_GlobalDefWriter_WriteGroup(w, static_cast<OTF2_GroupRef>(i + 2), gl.str(""), OTF2_GROUP_TYPE_COMM_GROUP,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    static_cast<std::uint32_t>(gl.groupList[i].size()), gl.groupList[i].data());
  OTF2_GlobalDefWriter_WriteComm(w, kWorldComm, gl.str("MPI_COMM_WORLD"), gl.group(all), OTF2_UNDEFINED_COMM,
                                 OTF2_COMM_FLAG_NONE);
  OTF2_GlobalDefWriter_WriteComm(w, kSelfComm, gl.str("MPI_COMM_SELF"), 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  for (std::size_t i = 0; i < gl.commList.size(); ++i) {
    const CommDef& c = gl.commList[i];
    if (!c.remoteMembers.empty()) {
      OTF2_GlobalDefWriter_WriteInterComm(w, static_cast<OTF2_CommRef>(i + 2), gl.str(c.creator), gl.group(c.members),
                                          gl.group(c.remoteMembers), c.parent, OTF2_COMM_FLAG_NONE);
      continue;
    }
    OTF2_GlobalDefWriter_WriteComm(w, static_cast<OTF2_CommRef>(i + 2), gl.str(c.creator), gl.group(c.members),
                                   c.parent, OTF2_COMM_FLAG_NONE);
  }
  for (std::size_t i = 0; i < gl.winList.size(); ++i)
    OTF2_GlobalDefWriter_WriteRmaWin(w, static_cast<OTF2_RmaWinRef>(i), gl.str(gl.winList[i].name),
                                     gl.winList[i].comm, OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS);
  OTF2_Archive_CloseGlobalDefWriter(archive, w);
}

void writeMappings(OTF2_DefWriter* w, const char* maps) {
  BlobReader mr{maps};
  for (OTF2_MappingType type : {OTF2_MAPPING_REGION, OTF2_MAPPING_SOURCE_CODE_LOCATION, OTF2_MAPPING_GROUP,
                                OTF2_MAPPING_COMM, OTF2_MAPPING_RMA_WIN}) {
    std::vector<std::uint64_t> map = mr.vec();
    writeMapping(w, type, map);
  }
}

}  // namespace waitscope::measure
