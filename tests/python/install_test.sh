#!/usr/bin/env bash
# `pip install ./python` works without a package index (pip's isolated build must need no download):
# installs into a fresh venv that sees the system's numpy and pandas, imports the package from
# outside the source tree and reads a report with it; then the same as an editable install.
#   install_test.sh PYTHON SOURCE_DIR WORK_DIR REPORT
set -euo pipefail
python=$1 source=$2 work=$3 report=$4
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
"$python" -m venv --system-site-packages "$work/venv"
pip=("$work/venv/bin/python" -m pip --disable-pip-version-check)
# --no-index: a download would fail here instead of waiting for a network that is not there.
"${pip[@]}" install --no-index "$source/python" || fail "pip install $source/python"
cd "$work"
check='import sys, waitscope
r = waitscope.open(sys.argv[1])
print(waitscope.__file__, waitscope.__version__, len(r.metrics), r.totals()["time"])'
out=$("$work/venv/bin/python" -c "$check" "$report") || fail "importing the installed package"
echo "$out"
[[ $out == "$work/venv/lib/"*"/site-packages/waitscope/__init__.py "* ]] || fail "not imported from the venv: $out"
"${pip[@]}" uninstall -y waitscope
"${pip[@]}" install --no-index -e "$source/python" || fail "pip install -e $source/python"
out=$("$work/venv/bin/python" -c "$check" "$report") || fail "importing the editable install"
[[ $out == "$source/python/waitscope/__init__.py "* ]] || fail "the editable install does not use the source tree: $out"
echo "ok: pip installs the package offline, plain and editable"
