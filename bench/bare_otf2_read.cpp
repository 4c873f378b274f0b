#include "bench/bare_otf2_read.h"

#include <otf2/otf2.h>

#include <stdexcept>
#include <vector>

namespace waitscope::bench {
namespace {

// Callbacks do nothing, but one is registered for every record kind the generated
// trace holds, so that OTF2 decodes and dispatches every record as it must for us.

void check(OTF2_ErrorCode code, const char* what) {
  if (code != OTF2_SUCCESS) throw std::runtime_error(std::string("bare loop: ") + what + ": " + OTF2_Error_GetDescription(code));
}

constexpr OTF2_CallbackCode kOk = OTF2_CALLBACK_SUCCESS;

OTF2_GlobalDefReaderCallbacks* bareDefinitionCallbacks() {
  OTF2_GlobalDefReaderCallbacks* cb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(
      cb, [](void*, uint64_t, uint64_t, uint64_t, uint64_t) { return kOk; });
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, [](void*, OTF2_StringRef, const char*) { return kOk; });
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(
      cb, [](void*, OTF2_RegionRef, OTF2_StringRef, OTF2_StringRef, OTF2_StringRef, OTF2_RegionRole, OTF2_Paradigm,
             OTF2_RegionFlag, OTF2_StringRef, uint32_t, uint32_t) { return kOk; });
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(
      cb, [](void*, OTF2_SystemTreeNodeRef, OTF2_StringRef, OTF2_StringRef, OTF2_SystemTreeNodeRef) { return kOk; });
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(
      cb, [](void*, OTF2_LocationGroupRef, OTF2_StringRef, OTF2_LocationGroupType, OTF2_SystemTreeNodeRef,
             OTF2_LocationGroupRef) { return kOk; });
  // The one callback that does something: the loop needs the location ids to select them.
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(
      cb, [](void* u, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType, uint64_t, OTF2_LocationGroupRef) {
        static_cast<std::vector<OTF2_LocationRef>*>(u)->push_back(self);
        return kOk;
      });
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(
      cb, [](void*, OTF2_GroupRef, OTF2_StringRef, OTF2_GroupType, OTF2_Paradigm, OTF2_GroupFlag, uint32_t,
             const uint64_t*) { return kOk; });
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(
      cb, [](void*, OTF2_CommRef, OTF2_StringRef, OTF2_GroupRef, OTF2_CommRef, OTF2_CommFlag) { return kOk; });
  OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(
      cb, [](void*, OTF2_RmaWinRef, OTF2_StringRef, OTF2_CommRef, OTF2_RmaWinFlag) { return kOk; });
  return cb;
}

#define BARE_EVENT_ARGS OTF2_LocationRef, OTF2_TimeStamp, uint64_t, void*, OTF2_AttributeList*

OTF2_EvtReaderCallbacks* bareEventCallbacks() {
  OTF2_EvtReaderCallbacks* cb = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetProgramBeginCallback(
      cb, [](BARE_EVENT_ARGS, OTF2_StringRef, uint32_t, const OTF2_StringRef*) { return kOk; });
  OTF2_EvtReaderCallbacks_SetProgramEndCallback(cb, [](BARE_EVENT_ARGS, int64_t) { return kOk; });
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, [](BARE_EVENT_ARGS, OTF2_RegionRef) { return kOk; });
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, [](BARE_EVENT_ARGS, OTF2_RegionRef) { return kOk; });
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(
      cb, [](BARE_EVENT_ARGS, uint32_t, OTF2_CommRef, uint32_t, uint64_t) { return kOk; });
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(
      cb, [](BARE_EVENT_ARGS, uint32_t, OTF2_CommRef, uint32_t, uint64_t) { return kOk; });
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, [](BARE_EVENT_ARGS) { return kOk; });
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(
      cb, [](BARE_EVENT_ARGS, OTF2_CollectiveOp, OTF2_CommRef, uint32_t, uint64_t, uint64_t) { return kOk; });
  OTF2_EvtReaderCallbacks_SetRmaWinCreateCallback(cb, [](BARE_EVENT_ARGS, OTF2_RmaWinRef) { return kOk; });
  OTF2_EvtReaderCallbacks_SetRmaWinDestroyCallback(cb, [](BARE_EVENT_ARGS, OTF2_RmaWinRef) { return kOk; });
  OTF2_EvtReaderCallbacks_SetRmaCollectiveBeginCallback(cb, [](BARE_EVENT_ARGS) { return kOk; });
  OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(
      cb, [](BARE_EVENT_ARGS, OTF2_CollectiveOp, OTF2_RmaSyncLevel, OTF2_RmaWinRef, uint32_t, uint64_t, uint64_t) {
        return kOk;
      });
  OTF2_EvtReaderCallbacks_SetRmaPutCallback(
      cb, [](BARE_EVENT_ARGS, OTF2_RmaWinRef, uint32_t, uint64_t, uint64_t) { return kOk; });
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteNonBlockingCallback(
      cb, [](BARE_EVENT_ARGS, OTF2_RmaWinRef, uint64_t) { return kOk; });
  return cb;
}

#undef BARE_EVENT_ARGS

}  // namespace

std::uint64_t bareRead(const std::string& anchor, std::uint32_t onlyLocation) {
  OTF2_Reader* reader = OTF2_Reader_Open(anchor.c_str());
  if (!reader) throw std::runtime_error("bare loop: cannot open " + anchor);
  struct Closer {
    OTF2_Reader* r;
    ~Closer() { OTF2_Reader_Close(r); }
  } closer{reader};
  check(OTF2_Reader_SetSerialCollectiveCallbacks(reader), "set collective callbacks");

  std::vector<OTF2_LocationRef> locations;
  OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(reader);
  if (!defs) throw std::runtime_error("bare loop: cannot open the global definitions");
  OTF2_GlobalDefReaderCallbacks* defCallbacks = bareDefinitionCallbacks();
  check(OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, defCallbacks, &locations), "register definition callbacks");
  OTF2_GlobalDefReaderCallbacks_Delete(defCallbacks);
  uint64_t definitions = 0;
  check(OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &definitions), "read global definitions");
  check(OTF2_Reader_CloseGlobalDefReader(reader, defs), "close global definitions");

  if (onlyLocation != kAllLocations) {
    if (onlyLocation >= locations.size()) throw std::runtime_error("bare loop: no location " + std::to_string(onlyLocation));
    locations = {locations[onlyLocation]};
  }
  for (OTF2_LocationRef loc : locations) check(OTF2_Reader_SelectLocation(reader, loc), "select location");
  if (OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS) {
    for (OTF2_LocationRef loc : locations) {
      OTF2_DefReader* local = OTF2_Reader_GetDefReader(reader, loc);
      if (!local) continue;
      uint64_t read = 0;
      check(OTF2_Reader_ReadAllLocalDefinitions(reader, local, &read), "read local definitions");
      check(OTF2_Reader_CloseDefReader(reader, local), "close local definitions");
    }
    check(OTF2_Reader_CloseDefFiles(reader), "close local definition files");
  }

  check(OTF2_Reader_OpenEvtFiles(reader), "open event files");
  OTF2_EvtReaderCallbacks* evtCallbacks = bareEventCallbacks();
  std::uint64_t events = 0;
  for (OTF2_LocationRef loc : locations) {
    OTF2_EvtReader* evt = OTF2_Reader_GetEvtReader(reader, loc);
    if (!evt) throw std::runtime_error("bare loop: cannot open the events of location " + std::to_string(loc));
    check(OTF2_Reader_RegisterEvtCallbacks(reader, evt, evtCallbacks, nullptr), "register event callbacks");
    uint64_t read = 0;
    check(OTF2_Reader_ReadAllLocalEvents(reader, evt, &read), "read events");
    check(OTF2_Reader_CloseEvtReader(reader, evt), "close event reader");
    events += read;
  }
  OTF2_EvtReaderCallbacks_Delete(evtCallbacks);
  check(OTF2_Reader_CloseEvtFiles(reader), "close event files");
  return events;
}


}  // namespace waitscope::bench
