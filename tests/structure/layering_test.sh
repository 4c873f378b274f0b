#!/usr/bin/env bash
# The layering check passes on the source tree and fails on each kind of wrong include.
set -euo pipefail
source_dir=${1:?usage: layering_test.sh SOURCE_DIR}
check=$source_dir/scripts/check-layering.py
python3 "$check" "$source_dir"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
expect_failure() {  # file, include line, expected words
  rm -rf "$work/tree" && mkdir -p "$work/tree"
  mkdir -p "$work/tree/analysis/trace" "$work/tree/analysis/tools" "$work/tree/views/model" \
           "$work/tree/views/widgets" "$work/tree/views/timeline" "$work/tree/app"
  for f in analysis/trace/trace.h analysis/tools/usage_error.h views/model/selection.h \
           views/widgets/tree_pane.h views/timeline/timeline_view.h app/main_window.h; do
    echo '#pragma once' >"$work/tree/$f"
  done
  mkdir -p "$(dirname "$work/tree/$1")" && printf '#pragma once\n%s\n' "$2" >"$work/tree/$1"
  if out=$(python3 "$check" "$work/tree" 2>&1); then
    echo "FAIL: $1 with '$2' passed the check"; exit 1
  fi
  grep -q -- "$3" <<<"$out" || { echo "FAIL: '$3' missing from: $out"; exit 1; }
  echo "ok: $1 '$2' -> $3"
}
expect_failure analysis/trace/x.h '#include "analysis/tools/usage_error.h"' "may not include"
expect_failure analysis/trace/x.h '#include <QString>' "no Qt"
expect_failure analysis/trace/x.h '#include "trace.h"' "path from the source root"
expect_failure views/model/x.h '#include "app/main_window.h"' "may not include"
expect_failure views/widgets/x.h '#include "views/timeline/timeline_view.h"' "peers"
expect_failure analysis/trace/x.h '#include "tests/support/trace_builder.h"' "no test"
