#!/usr/bin/env bash
# Runs the benchmarks at their full size and prints their figures.
set -euo pipefail
build=${1:-build}
echo "== read limit: readTrace() against a bare OTF2 reader loop (10M events, 8 locations)"
"$build/bench/waitscope-bench-read-limit"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo
for ranks in 4 8 16; do
  echo "== analysis: the forward and the whole parallel analysis against the bare read ($ranks ranks)"
  mpiexec --oversubscribe -n "$ranks" "$build/bench/waitscope-bench-analysis"
done

echo
echo "== profile mode: per-call overhead against tracing and no library; memory over a 10x longer run"
"$build/bench/waitscope-bench-profile-overhead"

echo
echo "== Python package: severities and the first instances of a 16M-event report against waitscope-report print"
python=python3
/usr/bin/python3 -c "import pandas" 2>/dev/null && python=/usr/bin/python3  # Debian's, with pandas
"$python" "$(dirname "$0")/../bench/python_report.py" --build "$build"

echo
echo "== comparing runs: diff and POP metrics of two reports (20,000 call paths, 40 metrics, 16 ranks) against reading them"
"$build/bench/waitscope-bench-report-algebra"

if [ -x "$build/bench/waitscope-bench-app" ]; then
  echo
  echo "== desktop app: 64 locations, 20,000 call paths: populated window and refill after a selection"
  QT_QPA_PLATFORM=offscreen "$build/bench/waitscope-bench-app" --binary "$build/app/waitscope"
fi
