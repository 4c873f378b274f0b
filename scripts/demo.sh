#!/usr/bin/env bash
# The Waitscope demo. Today: the event statistics of a bundled Score-P trace of an
# MPI RMA program (fences and puts). Later stages record, analyze and open the report.
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
trace="$here/resources/examples/scorep-fence/traces.otf2"

echo "== Waitscope demo: event statistics of $trace"
"$build/analysis/tools/waitscope-report" stats "$trace"
