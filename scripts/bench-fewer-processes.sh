#!/usr/bin/env bash
# Fewer analysis processes than ranks: one generated trace of R ranks analyzed by
# `mpiexec -n M waitscope-analyze` for several M, side by side in one run: wall time (and as a
# ratio to the largest M), the analysis' own time (the report's analysis_seconds: from after
# MPI_Init to the report written; MPI's start-up of many processes on few cores scatters by
# minutes and would hide it), peak resident memory per process (largest and mean, and per rank it
# holds), and whether the reports are identical (SQLite dump without the run's own meta rows).
#
#   bash scripts/bench-fewer-processes.sh [BUILD] [--ranks 256] [--events 10M] [--processes "2 8 256"]
#                                         [--work DIR] [--mpiexec "COMMAND"]
#
# The trace is generated once into WORK (default /tmp/waitscope-bench-fewer) and reused.
set -euo pipefail
build=build
ranks=256
events=10M
processes="2 8 256"
work=/tmp/waitscope-bench-fewer
mpiexec=mpiexec
while (($#)); do
  case $1 in
    --ranks) ranks=$2; shift 2 ;;
    --events) events=$2; shift 2 ;;
    --processes) processes=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --mpiexec) mpiexec=$2; shift 2 ;;
    -*) echo "bench-fewer-processes: unknown option $1" >&2; exit 2 ;;
    *) build=$1; shift ;;
  esac
done
build=$(cd "$build" && pwd)
tools=$build/analysis/tools
gen=$build/bench/waitscope-bench-gen-trace
[[ -x $gen ]] || { echo "bench-fewer-processes: $gen not found; build with -DWAITSCOPE_BENCH=ON" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "bench-fewer-processes: /usr/bin/time is needed (apt-get install time)" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mkdir -p "$work"
count() {  # 10M -> 10000000
  local n=${1%[kKmM]}
  case $1 in *[kK]) echo $((n * 1000)) ;; *[mM]) echo $((n * 1000000)) ;; *) echo "$n" ;; esac
}
trace=$work/gen-$ranks-$events
if [[ ! -f $trace/traces.otf2 ]]; then
  "$gen" "$trace" --events "$(count "$events")" --locations "$ranks" >"$work/gen.log" 2>&1 ||
    { echo "bench-fewer-processes: generating the trace failed, see $work/gen.log" >&2; exit 1; }
fi

echo "fewer processes than ranks: generated trace, $ranks ranks, $events events"
printf '%-10s %10s %10s %11s %14s %14s %14s  %s\n' processes "wall s" "/ largest" "analysis s" "peak MB max" "peak MB mean" "MB per rank" report
largest=0
for m in $processes; do ((m > largest)) && largest=$m; done
declare -A wall
reference=""
for m in $(tr ' ' '\n' <<<"$processes" | sort -rn); do
  rm -rf "$work/rss" "$work/m$m.waitscope" && mkdir -p "$work/rss"
  start=$(date +%s.%N)
  # shellcheck disable=SC2016 # expanded by each process' shell
  $mpiexec -n "$m" sh -c '/usr/bin/time -f %M -o "$0/${OMPI_COMM_WORLD_RANK:-$PMI_RANK}" "$@"' \
    "$work/rss" "$tools/waitscope-analyze" --quiet "$trace/traces.otf2" -o "$work/m$m.waitscope" \
    </dev/null >"$work/m$m.log" 2>&1 || { echo "bench-fewer-processes: M = $m failed, see $work/m$m.log" >&2; exit 1; }
  wall[$m]=$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { print a - b }')
  read -r maxKb meanKb < <(tail -qn1 "$work"/rss/* | awk '{ if ($1 > m) m = $1; s += $1; n++ } END { print m, s / n }')
  hash=$(sqlite3 "$work/m$m.waitscope" .dump |
    grep -v -E "^INSERT INTO meta VALUES\('(created|analysis_seconds|command_line)'" | sha256sum | cut -c1-16)
  analysis=$(sqlite3 "$work/m$m.waitscope" "SELECT value FROM meta WHERE key = 'analysis_seconds'")
  [[ -n $reference ]] || reference=$hash
  same=$([[ $hash == "$reference" ]] && echo "identical to M = $largest" || echo "DIFFERS from M = $largest")
  awk -v m="$m" -v w="${wall[$m]}" -v w0="${wall[$largest]}" -v max="$maxKb" -v mean="$meanKb" -v r="$ranks" \
    -v a="$analysis" -v same="$same" 'BEGIN { held = int((r + m - 1) / m);
      printf "%-10s %10.2f %10.2f %11.2f %14.1f %14.1f %14.2f  %s\n", m, w, w / w0, a, max / 1024, mean / 1024, max / 1024 / held, same }' 
done
