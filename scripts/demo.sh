#!/usr/bin/env bash
# The Waitscope demo: record a bundled MPI RMA example (fences with an imbalance
# before each one) with the PMPI recording library, analyze the trace in parallel
# and print the findings. Later stages open the report in the app.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
out=${WAITSCOPE_DEMO_DIR:-$build/demo}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tools=$build/analysis/tools
ranks=4

echo "== Waitscope demo 1/3: record tests/apps/fence on $ranks MPI ranks"
rm -rf "$out/fence-trace"
"$tools/waitscope-run" -n $ranks -o "$out/fence-trace" -- "$build/tests/apps/fence" 20 0.010 --late-put
"$tools/waitscope-report" stats "$out/fence-trace/traces.otf2"

echo
echo "== Waitscope demo 2/3: analyze it with one analysis rank per application rank"
mpiexec --oversubscribe -n $ranks "$tools/waitscope-analyze" --quiet "$out/fence-trace/traces.otf2" \
  -o "$out/fence.waitscope"

echo
echo "== Waitscope demo 3/3: the findings"
"$tools/waitscope-report" print "$out/fence.waitscope"
echo
echo "Where in the code (compiler-style, for editors and IDEs):"
"$tools/waitscope-report" diagnostics "$out/fence.waitscope"
echo
echo "Report: $out/fence.waitscope   (waitscope-report csv $out/fence.waitscope --metric mpi_rma_wait_at_fence --by both)"
