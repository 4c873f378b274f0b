#pragma once
// Online mode's MPI wrappers (WAITSCOPE_ONLINE, online_runtime.h): what the generated wrapper of
// each MPI function (wrappers.cpp) runs on an application rank of an online run.
#include "analysis/measure/measure_internal.h"

namespace waitscope::measure {

// Runs MPI function F with the application's world in place of MPI_COMM_WORLD, files the visit
// under its call path as profile mode does, and emits the events the tool places analyze.
// `returnAddress` is the wrapper's caller: the call site. Defined and instantiated for every
// entry of mpi_functions.def in online_wrappers.cpp, with the argument types of the entry's
// PMPI function. Hidden: the application never sees it.
template <Fn F, class... A>
[[gnu::visibility("hidden")]] int onlineMpi(void* returnAddress, A... args);

}  // namespace waitscope::measure
