#!/usr/bin/env bash
# How the analysis scales with the trace: waitscope-bench-analysis on the halo program's traces and
# on generated ones, at several sizes and rank counts, in one run, as one table of ratios measured
# side by side (the analysis against the parallel bare read of the same trace) and peak bytes per
# event per analysis process; then one trace of many ranks analyzed with fewer processes than
# ranks (scripts/bench-fewer-processes.sh: time, memory per process, identical reports).
#
#   bash scripts/bench-scale.sh [BUILD] [--sizes "2M 10M 40M"] [--ranks "4 16"] [--repeat K]
#                               [--work DIR] [--mpiexec "COMMAND"]
#                               [--fewer "RANKS EVENTS PROCESSES..."]   (default "256 10M 2 8 256"; "" skips)
#
# Traces are recorded (halo) or generated once into WORK (default /tmp/waitscope-bench-scale) and
# reused by later runs; 40M events take about 0.5 GB of disk per trace.
set -euo pipefail
build=build
sizes="2M 10M 40M"
ranks_list="4 16"
repeat=2
work=/tmp/waitscope-bench-scale
mpiexec=mpiexec
fewer="256 10M 2 8 256"
while (($#)); do
  case $1 in
    --sizes) sizes=$2; shift 2 ;;
    --ranks) ranks_list=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --mpiexec) mpiexec=$2; shift 2 ;;
    --fewer) fewer=$2; shift 2 ;;
    -*) echo "bench-scale: unknown option $1" >&2; exit 2 ;;
    *) build=$1; shift ;;
  esac
done
build=$(cd "$build" && pwd)
bench=$build/bench/waitscope-bench-analysis
[[ -x $bench ]] || { echo "bench-scale: $bench not found; build with -DWAITSCOPE_BENCH=ON" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mkdir -p "$work"

events() {  # 2M -> 2000000
  local n=${1%[kKmM]}
  case $1 in *[kK]) echo $((n * 1000)) ;; *[mM]) echo $((n * 1000000)) ;; *) echo "$n" ;; esac
}

# The halo program writes 22 events per rank and iteration (docs in bench/README.md).
halo_trace() {  # ranks, size -> anchor
  local dir=$work/halo-$1-$2
  if [[ ! -f $dir/traces.otf2 ]]; then
    local iters=$(($(events "$2") / (22 * $1)))
    if ((iters > 1000000)); then
      echo "bench-scale: halo runs at most 1000000 iterations (22M events per rank); $2 events on $1 ranks need $iters" >&2
      exit 1
    fi
    rm -rf "$dir"
    # A failed recording leaves no anchor behind, or the next run would analyze what it wrote.
    "$build/analysis/tools/waitscope-run" -n "$1" -o "$dir" -- "$build/tests/apps/halo" "$iters" 0.0001 16 \
      >"$work/halo-$1-$2.log" 2>&1 ||
      { rm -rf "$dir"; echo "bench-scale: recording halo failed, see $work/halo-$1-$2.log" >&2; exit 1; }
  fi
  echo "$dir/traces.otf2"
}

# One benchmark run's figures: the read alone, the forward and the whole analysis, each / the parallel
# bare read (wall, CPU), peak B/event (largest process, rank 0).
figures() {
  awk '
    /forward analysis \/ parallel bare read/ { fw = $7; fwc = $11; sub(/\)/, "", fwc) }
    /whole analysis \/ parallel bare read/ { wh = $7; whc = $NF; sub(/\)/, "", whc) }
    /peak bytes per event, per process/ { pk = $7; r0 = $11 }
    /the read alone \/ parallel bare read/ { rd = $8; rdc = $12; sub(/\)/, "", rdc) }
    function number(x) { return x ~ /^[0-9]+(\.[0-9]+)?$/ }
    END { if (!number(rd) || !number(rdc) || !number(fw) || !number(fwc) || !number(wh) || !number(whc) ||
              !number(pk) || !number(r0)) exit 1
          printf "%8s %8s %8s %8s %8s %8s %9s %9s\n", rd, rdc, fw, fwc, wh, whc, pk, r0 }'
}

row() {  # trace, ranks, size, the benchmark's output
  local figs
  figs=$(figures <<<"$4") || { echo "bench-scale: no figures in the benchmark's output ($1, $2 ranks, $3):" >&2; echo "$4" >&2; exit 1; }
  printf '%-10s %5s %6s %s\n' "$1" "$2" "$3" "$figs"
}

printf '%-10s %5s %6s %8s %8s %8s %8s %8s %8s %9s %9s\n' trace ranks events "rd/read" "(CPU)" "fwd/read" "(CPU)" \
  "all/read" "(CPU)" "peak B/ev" "rank 0"
for ranks in $ranks_list; do
  for size in $sizes; do
    # shellcheck disable=SC2086 # the launcher's words
    out=$($mpiexec -n "$ranks" "$bench" --events "$(events "$size")" --repeat "$repeat" \
            --keep "$work/gen-$ranks-$size" 2>&1) || { echo "$out" >&2; exit 1; }
    row "generated" "$ranks" "$size" "$out"
    anchor=$(halo_trace "$ranks" "$size")
    # shellcheck disable=SC2086
    out=$($mpiexec -n "$ranks" "$bench" --trace "$anchor" --repeat "$repeat" 2>&1) || { echo "$out" >&2; exit 1; }
    row "halo" "$ranks" "$size" "$out"
  done
done
echo "targets: whole analysis / parallel bare read <= 1.5 and not growing with the size; peak <= 48 B per event"

if [[ -n $fewer ]]; then
  read -r fewerRanks fewerEvents fewerProcesses <<<"$fewer"
  echo
  bash "$(dirname "$0")/bench-fewer-processes.sh" "$build" --ranks "$fewerRanks" --events "$fewerEvents" \
    --processes "$fewerProcesses" --work "$work/fewer" --mpiexec "$mpiexec"
fi
