#!/usr/bin/env bash
# Makes the figures of docs/user-guide.md with the app's own command-line export, so they show
# what the app shows today: records the example programs (tests/apps) with waitscope-run, analyzes
# them with waitscope-analyze and runs, per figure,
#   waitscope REPORT --select-metric NAME [--select-callpath PATH] --size 1000x650 --export-png docs/images/NAME.png --quit
# offscreen. Needs a build with the app (default: build/); run it again after the app changed and
# commit docs/images/.
#   scripts/make-screenshots.sh [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
images=$here/docs/images
work=$build/screenshots
tools=$build/analysis/tools
apps=$build/tests/apps
app=$build/app/waitscope
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for f in "$tools/waitscope-run" "$tools/waitscope-analyze" "$tools/waitscope-report" "$app" "$apps/fence"; do
  [ -x "$f" ] || { echo "make-screenshots: $f is missing: build with the app first (cmake --build $build)" >&2; exit 1; }
done
mkdir -p "$images" "$work"
mkdir -p -m 700 "$work/xdg"

# program  ranks  arguments
record() {
  local name=$1 ranks=$2; shift 2
  echo "== record and analyze $name ($ranks ranks)"
  "$tools/waitscope-run" -n "$ranks" -o "$work/$name-trace" -- "$apps/$name" "$@" >/dev/null
  mpiexec --oversubscribe -n "$ranks" "$tools/waitscope-analyze" --quiet "$work/$name-trace/traces.otf2" \
    -o "$work/$name.waitscope" >/dev/null
}

# image  program  metric  [call path]: the figure, after checking that the metric is not zero there.
shot() {
  local image=$1 name=$2 metric=$3 callpath=${4:-}
  local report=$work/$name.waitscope
  local total
  total=$("$tools/waitscope-report" print "$report" --json | grep -o "\"$metric\": *[0-9.e+-]*" | grep -o '[0-9.e+-]*$')
  if [ -z "$total" ] || awk "BEGIN{exit !($total <= 0)}"; then
    echo "make-screenshots: $metric is 0 in $name: no figure would show it" >&2
    exit 1
  fi
  local args=("$report" --select-metric "$metric" --size 1000x650 --export-png "$images/$image.png" --quit)
  [ -n "$callpath" ] && args+=(--select-callpath "$callpath")
  env -u DISPLAY -u WAYLAND_DISPLAY QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$work/xdg" "$app" "${args[@]}" 2>/dev/null
  # Screenshots are flat UI colours: a palette PNG is a third of the size (pngquant, if installed).
  if command -v pngquant >/dev/null; then
    pngquant --force --skip-if-larger --quality 80-98 --output "$images/$image.png" "$images/$image.png" || true
  fi
  echo "   docs/images/$image.png  ($metric${callpath:+ in $callpath}, $total)"
}

record fence 4 20 0.010 --late-put
record gats 4
record chain 3
record lock 4
record p2p_coll 4

shot overview fence time
shot mpi_rma_wait_at_fence fence mpi_rma_wait_at_fence main/MPI_Win_fence@fence.c:42
shot mpi_rma_early_fence fence mpi_rma_early_fence main/MPI_Win_fence@fence.c:42
shot mpi_rma_sync_late_post gats mpi_rma_sync_late_post main/MPI_Win_start
shot mpi_rma_early_wait gats mpi_rma_early_wait main/MPI_Win_wait
shot mpi_rma_sync_lock_competition lock mpi_rma_sync_lock_competition main/MPI_Win_lock
shot mpi_latesender p2p_coll mpi_latesender main/MPI_Recv
shot mpi_latereceiver p2p_coll mpi_latereceiver main/MPI_Ssend
shot mpi_latesender_wo p2p_coll mpi_latesender_wo main/MPI_Recv
shot mpi_barrier_wait p2p_coll mpi_barrier_wait main/MPI_Barrier
shot mpi_wait_nxn p2p_coll mpi_wait_nxn main/MPI_Allreduce
shot mpi_latebroadcast p2p_coll mpi_latebroadcast main/MPI_Bcast
shot mpi_earlyreduce p2p_coll mpi_earlyreduce main/MPI_Reduce
shot mpi_lswo_same p2p_coll mpi_lswo_same main/MPI_Recv
shot mpi_lswo_different p2p_coll mpi_lswo_different main/MPI_Recv
shot mpi_nxn_completion p2p_coll mpi_nxn_completion main/MPI_Allreduce
shot mpi_finalize_wait p2p_coll mpi_finalize_wait main/MPI_Finalize
shot mpi_barrier_completion lock mpi_barrier_completion main/MPI_Barrier
shot mpi_rma_late_complete gats mpi_rma_late_complete main/MPI_Win_wait
shot mpi_rma_wait_at_create gats mpi_rma_wait_at_create main/MPI_Win_create
shot critical_path chain critical_path

# The timeline alone (--view timeline): the gats example with its Late Post instances highlighted.
timeline_shot() {
  local image=$1 name=$2 metric=$3
  env -u DISPLAY -u WAYLAND_DISPLAY QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$work/xdg" "$app" "$work/$name.waitscope" \
    --select-metric "$metric" --view timeline --size 1000x420 --export-png "$images/$image.png" --quit 2>/dev/null
  if command -v pngquant >/dev/null; then
    pngquant --force --skip-if-larger --quality 80-98 --output "$images/$image.png" "$images/$image.png" || true
  fi
  echo "   docs/images/$image.png  (timeline of $name, $metric highlighted)"
}
timeline_shot timeline_gats gats mpi_rma_sync_late_post
echo "make-screenshots: $(ls "$images"/*.png | wc -l) figures in docs/images ($(du -sh "$images" | cut -f1))"
