#pragma once
// The call path `--select-callpath` names: region names from the root joined by '/', e.g.
// main/foo/MPI_Recv. A component may name its call site, `MPI_Win_fence@fence.c:50`, where
// the file is the recorded one, its file name or a path suffix of it (`src/fence.c`), and the
// line may be left out; that tells apart two calls of one function from one caller.
#include <cstdint>
#include <optional>

#include <QString>

#include "analysis/report/report.h"

namespace waitscope::app {

// The one call path `path` names; nullopt with one line in `error` when there is none, or
// when there are several (the line lists them, each written so that it names only itself).
std::optional<std::uint32_t> findCallPath(const report::Report& report, const QString& path, QString* error);

// `callPath` as findCallPath reads it, with the call site on every component whose siblings
// share its name: "main/MPI_Win_fence@fence.c:42".
QString callPathSpec(const report::Report& report, std::uint32_t callPath);

}  // namespace waitscope::app
