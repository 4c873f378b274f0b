#!/usr/bin/env bash
# The Waitscope demo: record a bundled MPI RMA example (fences with an imbalance
# before each one) with the PMPI recording library, then show what the trace
# holds. Later stages analyze the trace and open the report in the app.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
out=${WAITSCOPE_DEMO_DIR:-$build/demo}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

echo "== Waitscope demo 1/2: record tests/apps/fence on 4 MPI ranks"
rm -rf "$out/fence-trace"
"$build/analysis/tools/waitscope-run" -n 4 -o "$out/fence-trace" -- "$build/tests/apps/fence" 20 0.010

echo
echo "== Waitscope demo 2/2: what the trace holds"
"$build/analysis/tools/waitscope-report" stats "$out/fence-trace/traces.otf2"
echo
echo "(A Score-P trace of the same kind of program: waitscope-report stats resources/examples/scorep-fence/traces.otf2)"
