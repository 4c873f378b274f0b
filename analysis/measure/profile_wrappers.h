#pragma once
// Profile mode's MPI wrappers (WAITSCOPE_PROFILE, profile_runtime.h): what the generated wrapper
// of each MPI function (wrappers.cpp) runs instead of recording a trace.
#include "analysis/measure/measure_internal.h"

namespace waitscope::measure {

// Runs MPI function F, times it and files the visit (its duration, message size and root role)
// under its call path. `returnAddress` is the wrapper's caller: the call site. Defined and
// instantiated for every entry of mpi_functions.def in profile_wrappers.cpp, with the argument
// types of the entry's PMPI function. Hidden: the application never sees it.
template <Fn F, class... A>
[[gnu::visibility("hidden")]] int profiledMpi(void* returnAddress, A... args);

}  // namespace waitscope::measure
