#!/usr/bin/env bash
# The build options a packager or a cluster admin turns off (no tests, no app) still configure,
# with the benchmarks on as by default.
#   configure_options_test.sh CMAKE SOURCE_DIR WORK_DIR
set -u
cmake=$1 source=$2 work=$3
rm -rf "$work"
if ! "$cmake" -S "$source" -B "$work" -DWAITSCOPE_TESTS=OFF -DWAITSCOPE_GUI=OFF > "$work.log" 2>&1; then
  tail -20 "$work.log"
  echo "FAIL: cmake -DWAITSCOPE_TESTS=OFF -DWAITSCOPE_GUI=OFF does not configure (the whole log: $work.log)"
  exit 1
fi
echo "configured without tests and app: $work"
