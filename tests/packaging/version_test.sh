#!/usr/bin/env bash
# Every tool prints the one version of project(VERSION): "NAME VERSION".
#   version_test.sh VERSION TOOL...
set -u
version=$1; shift
status=0
for tool in "$@"; do
  name=$(basename "$tool")
  if [ "$name" = waitscope-analyze ]; then
    out=$("$tool" --version 2>&1)  # a singleton MPI run
  else
    out=$(QT_QPA_PLATFORM=offscreen "$tool" --version 2>&1)
  fi
  if [ "$out" = "$name $version" ]; then
    echo "ok: $out"
  else
    echo "FAIL: $tool --version printed '$out', expected '$name $version'"
    status=1
  fi
done
exit $status
