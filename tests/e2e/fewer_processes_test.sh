#!/usr/bin/env bash
# Fewer analysis processes than ranks (M < N) give the report of one process per rank (M = N),
# bit for bit: every shared Score-P trace, or the example programs' traces (recorded here), each
# analyzed at M = N and at every M < N up to 4 (uneven blocks included: 6 ranks on 4 processes); the SQLite dumps must be equal (but for
# when the report was made, how long that took and the command line), and so must the corrected
# clocks beside the report.
#   fewer_processes_test.sh BUILD_DIR shared SHARED_TRACES_DIR MPIEXEC...
#   fewer_processes_test.sh BUILD_DIR apps WORK_DIR MPIEXEC...
set -euo pipefail
build=$1 what=$2 where=$3
shift 3
mpiexec=("$@")
tools=$build/analysis/tools
work=$(mktemp -d /tmp/waitscope-fewer-XXXXXX)
trap 'rm -rf "$work"' EXIT

ranksOf() {  # the trace's MPI ranks: its process location groups
  otf2-print -G "$1" | grep -c '^LOCATION_GROUP .*Type: PROCESS'
}

dump() {  # report -> its dump without the run's own meta rows
  sqlite3 "$1" .dump | grep -v -E "^INSERT INTO meta VALUES\('(created|analysis_seconds|command_line)'"
}

failures=0
check() {  # name, trace
  local name=$1 trace=$2 n
  n=$(ranksOf "$trace")
  local reference=$work/$name.n$n.waitscope
  "${mpiexec[@]}" -n "$n" "$tools/waitscope-analyze" --quiet "$trace" -o "$reference" </dev/null \
    >"$work/$name.n$n.log" 2>&1 || { echo "FAIL $name: the analysis at M = N = $n failed:"; cat "$work/$name.n$n.log"; failures=$((failures + 1)); return; }
  dump "$reference" >"$work/$name.n$n.sql"
  local counts=(1 2 3 4)
  for m in "${counts[@]}"; do
    ((m < n)) || continue
    local report=$work/$name.m$m.waitscope
    if ! "${mpiexec[@]}" -n "$m" "$tools/waitscope-analyze" --quiet "$trace" -o "$report" </dev/null \
      >"$work/$name.m$m.log" 2>&1; then
      echo "FAIL $name: the analysis at M = $m (N = $n) failed:"
      cat "$work/$name.m$m.log"
      failures=$((failures + 1))
      continue
    fi
    dump "$report" >"$work/$name.m$m.sql"
    if ! cmp -s "$work/$name.n$n.sql" "$work/$name.m$m.sql"; then
      echo "FAIL $name: the report at M = $m differs from M = N = $n:"
      diff "$work/$name.n$n.sql" "$work/$name.m$m.sql" | head -20
      failures=$((failures + 1))
      continue
    fi
    if [[ -f $reference.clock-correction || -f $report.clock-correction ]] &&
      ! cmp -s "$reference.clock-correction" "$report.clock-correction"; then
      echo "FAIL $name: the corrected clocks at M = $m differ from M = N = $n"
      failures=$((failures + 1))
      continue
    fi
    echo "ok   $name: M = $m equals M = N = $n ($(grep -c '^INSERT' "$work/$name.m$m.sql") rows)"
  done
}

if [[ $what == shared ]]; then
  found=0
  while IFS= read -r trace; do
    name=${trace#"$where/"}; name=${name%/traces.otf2}; name=${name//\//-}
    check "$name" "$trace"
    found=$((found + 1))
  done < <(find "$where" -name traces.otf2 | sort)
  ((found > 0)) || { echo "FAIL: no trace under $where"; exit 1; }
else
  # name, ranks, program, arguments (as the end-to-end tests run them)
  apps=(
    "fence 4 fence 3 0.020"
    "gats 4 gats 3 0.020"
    "lock 4 lock 2 0.040"
    "chain 3 chain 3 0.020"
    "p2p_coll 4 p2p_coll 2 0.040"
    "ring_triples 6 ring_triples 3 0.020"
    "halo 4 halo 20 0.005"
  )
  for a in "${apps[@]}"; do
    read -r name ranks prog args <<<"$a"
    # shellcheck disable=SC2086 # the arguments are words
    "$tools/waitscope-run" -n "$ranks" -o "$work/$name" -- "$build/tests/apps/$prog" $args >"$work/$name.record.log" 2>&1 ||
      { echo "FAIL $name: recording failed:"; cat "$work/$name.record.log"; failures=$((failures + 1)); continue; }
    check "app-$name" "$work/$name/traces.otf2"
  done
fi
((failures == 0)) || { echo "$failures failure(s)"; exit 1; }
