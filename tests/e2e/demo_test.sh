#!/usr/bin/env bash
# The README's first command as a new user runs it: scripts/demo.sh with its output going to a
# file (exit 0, the findings, the comparison of the three synchronizations of rma_variants, the
# POP table and the app's screenshots), then through `| head -5` (the demo stops at its next write
# instead of hanging, and leaves no process behind).
# Usage: demo_test.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
source=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/waitscope-demo-test.XXXXXX")
trap 'rm -rf "$dir"' EXIT
export WAITSCOPE_DEMO_DIR=$dir/demo
unset DISPLAY WAYLAND_DISPLAY QT_QPA_PLATFORM

fail() {
  echo "demo_test: $1"
  if [ -n "${2:-}" ]; then echo "--- $2:"; cat "$2"; fi
  exit 1
}

bash "$source/scripts/demo.sh" "$build" > "$dir/demo.log" 2>&1
rc=$?
echo "demo with its output in a file: exit $rc, $(wc -l < "$dir/demo.log") lines"
[ $rc -eq 0 ] || fail "the demo exited $rc with its output in a file" "$dir/demo.log"
for what in "== Waitscope demo 1/5" "== Waitscope demo 4/5" "== Waitscope demo 5/5" "Wait at Fence" "fence.c:" \
    "POP efficiency metrics"; do
  grep -q -- "$what" "$dir/demo.log" || fail "the demo's output has no '$what'" "$dir/demo.log"
done
# Fences only (A) against GATS only (B): the GATS run calls no fence, so its Wait at Fence is 0 and
# B-A is minus A's; the fence run calls no post or start, so Late Post is B's alone.
grep -Eq '^ *Wait at Fence \[mpi_rma_wait_at_fence\] +[0-9.]+ s +0\.000000 s +-[0-9.]+ s ' "$dir/demo.log" ||
  fail "no comparison line with Wait at Fence gone from fences to GATS" "$dir/demo.log"
grep -Eq '^ *Late Post \[mpi_rma_sync_late_post\] +0\.000000 s +[0-9.]+ s +\+[0-9.]+ s ' "$dir/demo.log" ||
  fail "no comparison line with Late Post appearing from fences to GATS" "$dir/demo.log"
# The POP table: its header row and one row per run, named by its report file.
grep -Eq '^run +processes +runtime \[s\] .* LB +CommE +SerE +TrE +PE ' "$dir/demo.log" ||
  fail "no POP table header" "$dir/demo.log"
for run in fence mixed gats; do
  grep -Eq "^$run\.waitscope +4 " "$dir/demo.log" || fail "the POP table has no row for $run.waitscope" "$dir/demo.log"
done
png() { [ "$(head -c 8 "$1" 2> /dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
if [ -x "$build/app/waitscope" ]; then
  grep -q "No display: wrote a screenshot of the app" "$dir/demo.log" || fail "the demo did not show the app" "$dir/demo.log"
  png "$WAITSCOPE_DEMO_DIR/fence.png" ||
    fail "the demo wrote no PNG screenshot at $WAITSCOPE_DEMO_DIR/fence.png" "$dir/demo.log"
  png "$WAITSCOPE_DEMO_DIR/rma_variants/fence-vs-gats.png" ||
    fail "the demo wrote no PNG screenshot of the comparison at $WAITSCOPE_DEMO_DIR/rma_variants/fence-vs-gats.png" \
      "$dir/demo.log"
fi

rm -rf "$WAITSCOPE_DEMO_DIR"
timeout 600 bash -c 'bash "$1/scripts/demo.sh" "$2" 2> "$3/head.err" | head -5 > "$3/head.txt"' _ "$source" "$build" "$dir"
rc=$?
echo "demo through | head -5: exit $rc, $(wc -l < "$dir/head.txt") lines"
[ $rc -ne 124 ] || fail "the demo did not end when head closed its output" "$dir/head.err"
[ "$(wc -l < "$dir/head.txt")" -eq 5 ] || fail "head did not get 5 lines" "$dir/head.err"
grep -q "== Waitscope demo 1/5" "$dir/head.txt" || fail "the demo's first line is missing" "$dir/head.txt"
sleep 2
if pgrep -f "$WAITSCOPE_DEMO_DIR" > "$dir/left.txt"; then
  ps -o pid,args -p "$(paste -sd, "$dir/left.txt")"
  fail "processes of the demo are left after head closed its output"
fi
echo "demo_test: passed"
