#!/usr/bin/env bash
# Runs the benchmarks at their full size and prints their figures.
set -euo pipefail
build=${1:-build}
echo "== read limit: readTrace() against a bare OTF2 reader loop (10M events, 8 locations)"
"$build/bench/waitscope-bench-read-limit"
