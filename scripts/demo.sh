#!/usr/bin/env bash
# The Waitscope demo: record a bundled MPI RMA example (fences with an imbalance
# before each one) with the PMPI recording library, analyze the trace in parallel,
# print the findings; record one RMA program in three synchronizations and compare
# the runs; open the report and the comparison in the desktop app (with no display:
# write screenshots of the app instead).
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
out=${WAITSCOPE_DEMO_DIR:-$build/demo}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tools=$build/analysis/tools
ranks=4

echo "== Waitscope demo 1/5: record tests/apps/fence on $ranks MPI ranks"
rm -rf "$out/fence-trace"
"$tools/waitscope-run" -n $ranks -o "$out/fence-trace" -- "$build/tests/apps/fence" 20 0.010 --late-put
"$tools/waitscope-report" stats "$out/fence-trace/traces.otf2"

echo
echo "== Waitscope demo 2/5: analyze it with one analysis rank per application rank"
mpiexec --oversubscribe -n $ranks "$tools/waitscope-analyze" --quiet "$out/fence-trace/traces.otf2" \
  -o "$out/fence.waitscope"

echo
echo "== Waitscope demo 3/5: the findings"
"$tools/waitscope-report" print "$out/fence.waitscope"
echo
echo "Where in the code (compiler-style, for editors and IDEs):"
"$tools/waitscope-report" diagnostics "$out/fence.waitscope"
echo
echo "Report: $out/fence.waitscope   (waitscope-report csv $out/fence.waitscope --metric mpi_rma_wait_at_fence --by both)"

"$tools/waitscope-report" sarif "$out/fence.waitscope" -o "$out/fence.sarif"
"$tools/waitscope-report" cube "$out/fence.waitscope" -o "$out/fence.cubex"
echo "A timeline slice of ranks 0-3 at 200 pixels (what the app asks a cluster for over SSH), its start:"
"$tools/waitscope-report" timeline "$out/fence-trace/traces.otf2" "$out/fence.waitscope" --from 0 --to 2 --width 200 \
  --locations 0-3 --json > "$out/fence.slice.json"
head -c 400 "$out/fence.slice.json"; echo " ..."
echo "Also written: $out/fence.sarif (SARIF 2.1.0 for IDEs), $out/fence.cubex (Cube 4) and $out/fence.slice.json"

echo
echo "== The same program profiled without a trace (Mao et al., EuroMPI/ASIA 2014), against the trace analysis"
"$tools/waitscope-run" --profile -n $ranks -o "$out/fence.profile.waitscope" -- "$build/tests/apps/fence" 20 0.010 --late-put
"$tools/waitscope-report" compare "$out/fence.profile.waitscope" "$out/fence.waitscope"

echo
echo "== Wait states while a program runs (Hilbrich et al., EASC 2014): tests/apps/p2p_coll on 4 ranks, 1 tool place, no trace"
"$tools/waitscope-run" --online --tool-ranks 1 -n $ranks -o "$out/p2p_coll.online.waitscope" -- \
  "$build/tests/apps/p2p_coll" 2 0.020
"$tools/waitscope-report" print "$out/p2p_coll.online.waitscope" > "$out/p2p_coll.online.txt"
grep -E "Late Sender|Late Receiver|Wait at|Late Broadcast|Early Reduce" "$out/p2p_coll.online.txt" || true
cat "$out/p2p_coll.online.waitscope.live"

echo
echo "== Waitscope demo 4/5: one RMA program, three synchronizations (Hermanns et al., IJHPCA 2012, Table 2)"
echo "tests/apps/rma_variants: the same halo exchanges with fences only, GATS for one exchange, GATS only"
variants=$out/rma_variants
rm -rf "$variants"
mkdir -p "$variants"
for sync in fence mixed gats; do
  "$tools/waitscope-run" -n $ranks -o "$variants/$sync-trace" -- "$build/tests/apps/rma_variants" 10 0.010 --sync $sync
  mpiexec --oversubscribe -n $ranks "$tools/waitscope-analyze" --quiet "$variants/$sync-trace/traces.otf2" \
    -o "$variants/$sync.waitscope"
done
# The rows where the synchronization shows; the files keep every metric.
rows='^(A|B): |^metric |\[(time|comp|mpi_rma_sync_active|mpi_rma_sync_late_post|mpi_rma_early_wait|mpi_rma_wait_at_fence|mpi_rma_early_fence|mpi_rma_pairsync_count|mpi_rma_pairsync_unneeded_count|rma_epoch_pairsync_count|rma_epoch_pairsync_unneeded_count)\]'
(
  cd "$variants"  # the runs' names in the tables are their file names
  "$tools/waitscope-report" diff fence.waitscope gats.waitscope > fence-vs-gats.txt
  "$tools/waitscope-report" diff fence.waitscope mixed.waitscope > fence-vs-mixed.txt
  echo
  echo "Fences only (A) against GATS only (B): the waits move out of MPI_Win_fence into MPI_Win_start and _wait"
  grep -E "$rows" fence-vs-gats.txt
  echo
  echo "Fences only (A) against GATS for the x exchange, fences for the y exchange (B)"
  grep -E "$rows" fence-vs-mixed.txt
  echo "Every metric: $variants/fence-vs-gats.txt and fence-vs-mixed.txt"
  echo
  "$tools/waitscope-report" pop fence.waitscope mixed.waitscope gats.waitscope
)

echo
echo "== Waitscope demo 5/5: the report in the desktop app, Wait at Fence selected, and the fence and GATS runs compared"
app=$build/app/waitscope
compare=("$variants/fence.waitscope" --compare "$variants/gats.waitscope" --select-metric mpi_rma_wait_at_fence)
if [ ! -x "$app" ]; then
  echo "(the desktop app was not built: configure with -DWAITSCOPE_GUI=ON)"
elif [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  "$app" "$out/fence.waitscope" --select-metric mpi_rma_wait_at_fence &
  exec "$app" "${compare[@]}"
else
  # Qt's notes about the missing display go to a log, shown only if an export fails.
  if ! "$app" "$out/fence.waitscope" --select-metric mpi_rma_wait_at_fence --export-png "$out/fence.png" --quit \
      2> "$out/app.log" ||
     ! "$app" "${compare[@]}" --export-png "$variants/fence-vs-gats.png" --quit 2>> "$out/app.log"; then
    cat "$out/app.log" >&2
    exit 1
  fi
  echo "No display: wrote a screenshot of the app to $out/fence.png"
  echo "and one of the fence and GATS runs compared (A, B, B - A) to $variants/fence-vs-gats.png"
  echo "(open them with a display: $app $out/fence.waitscope"
  echo " and $app $variants/fence.waitscope --compare $variants/gats.waitscope)"
fi
