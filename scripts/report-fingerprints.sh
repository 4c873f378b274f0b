#!/usr/bin/env bash
# Fingerprints of the reports of every shared Score-P trace and every example program, so that a
# change meant to keep the analysis as it is (a move, a split, a rename) can be checked to do so:
#
#   bash scripts/report-fingerprints.sh build /tmp/fp > before.txt   # on the old commit
#   bash scripts/report-fingerprints.sh build /tmp/fp > after.txt    # on the new one
#   diff before.txt after.txt                                         # empty: bit-identical reports
#
# The example programs are recorded once into WORK/traces (their timings differ from run to run) and
# the same traces are analyzed by both builds. A fingerprint is the SHA-256 of the report's SQLite
# dump (without its
# creation time and duration), and of the analyzer's own lines on stdout and stderr.
set -euo pipefail
build=$(cd "${1:?usage: report-fingerprints.sh BUILD_DIR WORK_DIR}" && pwd)
work=${2:?usage: report-fingerprints.sh BUILD_DIR WORK_DIR}
here=$(cd "$(dirname "$0")/.." && pwd)
shared=$here/../shared/traces
tools=$build/analysis/tools
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
command -v sqlite3 >/dev/null || { echo "report-fingerprints: sqlite3 is needed (apt-get install sqlite3)" >&2; exit 1; }
command -v otf2-print >/dev/null || { echo "report-fingerprints: otf2-print is needed (apt-get install otf2-tools)" >&2; exit 1; }

mkdir -p "$work/traces" "$work/reports"
# name, ranks, program, arguments: the runs of the end-to-end tests.
apps=(
  "fence 4 fence 5 0.040"
  "fence_late_put 4 fence 5 0.040 --late-put"
  "gats 4 gats 5 0.040"
  "chain 3 chain 5 0.040"
  "lock 4 lock 3 0.080"
  "sor 4 sor 770 300"
  "sor_fence 4 sor 770 300 --fence"
  "p2p_coll 4 p2p_coll 2 0.080"
  "ring_triples 6 ring_triples 6 0.040"
  "halo 4 halo 40 0.010"
)
for a in "${apps[@]}"; do
  read -r name ranks prog args <<<"$a"
  if [[ ! -f $work/traces/$name/traces.otf2 ]]; then
    # shellcheck disable=SC2086 # the arguments are words
    "$tools/waitscope-run" -n "$ranks" -o "$work/traces/$name" -- "$build/tests/apps/$prog" $args \
      >"$work/traces/$name.log" 2>&1 || { echo "report-fingerprints: recording $name failed, see $work/traces/$name.log" >&2; exit 1; }
  fi
done

analyze() {  # name, trace, ranks
  local report=$work/reports/$1.waitscope
  rm -f "$report"
  mpiexec --oversubscribe -n "$3" </dev/null "$tools/waitscope-analyze" "$2" -o "$report" \
    >"$work/reports/$1.out" 2>"$work/reports/$1.err" || true
  local dump=absent
  # Everything but when the report was made, how long that took and the command line (which
  # names the build directory, so that two builds side by side compare equal).
  [[ -f $report ]] && dump=$(sqlite3 "$report" .dump |
    grep -v -E "^INSERT INTO meta VALUES\('(created|analysis_seconds|command_line)'" | sha256sum | cut -c1-16)
  local text
  # The tool's own lines (mpiexec's name the job).
  text=$(cat "$work/reports/$1.out" "$work/reports/$1.err" | { grep '^waitscope' || true; } |
         sha256sum | cut -c1-16)
  printf '%-40s report %s output %s\n' "$1" "$dump" "$text"
}

for a in "${apps[@]}"; do
  read -r name ranks _ <<<"$a"
  analyze "app-$name" "$work/traces/$name/traces.otf2" "$ranks"
done
while IFS= read -r trace; do
  name=${trace#"$shared/"}; name=${name%/traces.otf2}
  # The trace's MPI ranks: its process location groups.
  ranks=$(otf2-print -G "$trace" | grep -c '^LOCATION_GROUP .*Type: PROCESS')
  analyze "shared-${name//\//-}" "$trace" "$ranks"
done < <(find "$shared" -name traces.otf2 | sort)
