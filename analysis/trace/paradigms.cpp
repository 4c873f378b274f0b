#include "analysis/trace/paradigms.h"

#include <set>

namespace waitscope::trace {

std::string paradigmDisplayName(Paradigm paradigm) {
  // OTF2's numbering (OTF2_Paradigm); the model's enum names only the first few.
  switch (static_cast<int>(paradigm)) {
    case 3: return "OpenMP";
    case 4: return "MPI";
    case 5: return "CUDA";
    case 7: return "POSIX threads";
    case 8: return "HMPP";
    case 9: return "OmpSs";
    case 11: return "GASPI";
    case 12: return "UPC";
    case 13: return "SHMEM";
    case 14: return "Windows threads";
    case 15: return "QThreads";
    case 16: return "ACE threads";
    case 17: return "TBB threads";
    case 18: return "OpenACC";
    case 19: return "OpenCL";
    case 20: return "MTAPI";
    case 23: return "HIP";
    case 24: return "Kokkos";
    default: return "paradigm " + std::to_string(static_cast<int>(paradigm));
  }
}

bool isForeignParadigm(Paradigm paradigm) {
  // The threading, accelerator and PGAS paradigms by OTF2's numbering. MPI, the neutral ones
  // (user, compiler, measurement system, hardware, sampling, none) and values OTF2 may add
  // later count as not foreign, so that nothing of an MPI trace is set aside by mistake.
  switch (static_cast<int>(paradigm)) {
    case 3: case 5: case 7: case 8: case 9: case 11: case 12: case 13: case 14: case 15: case 16: case 17:
    case 18: case 19: case 20: case 23: case 24: return true;
    default: return false;
  }
}

std::string unanalyzedParadigmsLine(const Definitions& defs) {
  // Ordered by OTF2's numbering, so the line reads the same for every trace of a program.
  std::set<int> paradigms;
  for (const Region& r : defs.regions)
    if (isForeignParadigm(r.paradigm)) paradigms.insert(static_cast<int>(r.paradigm));
  for (const Group& g : defs.groups)
    if (isForeignParadigm(g.paradigm)) paradigms.insert(static_cast<int>(g.paradigm));
  const bool otherLocations = defs.locations.size() > defs.worldLocations.size();
  if (paradigms.empty() && !otherLocations) return {};
  std::string line;
  for (int p : paradigms) line += (line.empty() ? "" : ", ") + paradigmDisplayName(static_cast<Paradigm>(p));
  if (line.empty()) line = "threads and streams beyond the MPI ranks";
  return line + ": time metrics only, no wait-state analysis";
}

}  // namespace waitscope::trace
