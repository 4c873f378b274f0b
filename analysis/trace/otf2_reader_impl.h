#pragma once
// Shared by the serial and the MPI-parallel reader: they differ only in the
// collective callbacks OTF2 uses to open the archive.
#include <otf2/OTF2_Reader.h>

#include <functional>

#include "analysis/trace/otf2_reader.h"

namespace waitscope::trace {

// Reads the definitions and the events of `worldRanks` (all ranks if null).
Trace readTraceWith(const std::string& anchorPath, const std::vector<Rank>* worldRanks, const ReadOptions& options,
                    const std::function<void(OTF2_Reader*)>& configureCollectives);

}  // namespace waitscope::trace
