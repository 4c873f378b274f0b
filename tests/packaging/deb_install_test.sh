#!/usr/bin/env bash
# Builds the three Debian packages with CPack, checks their metadata, unpacks them into a fresh root
# and runs the demo from the installed paths only: compile the installed example, record it with the
# installed waitscope-run (which must find the installed libwaitscope-measure), analyze it with the
# installed waitscope-analyze under mpiexec, print it with the installed waitscope-report, read it
# with the installed Python package (Debian's python3 with pandas), and export a PNG with the
# installed desktop app (offscreen).
#   deb_install_test.sh BUILD_DIR VERSION WORK_DIR
set -euo pipefail
build=$1 version=$2 work=$3
arch=$(dpkg --print-architecture)
fail() { echo "FAIL: $*"; exit 1; }
step() { echo; echo "== $*"; }

rm -rf "$work"
mkdir -p "$work/packages" "$work/root" "$work/demo"

step "cpack -G DEB"
(cd "$build" && cpack -G DEB -B "$work/packages" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack"; }
backend=$work/packages/waitscope-backend_${version}_${arch}.deb
app=$work/packages/waitscope_${version}_${arch}.deb
[ -f "$backend" ] || fail "no $backend ($(ls "$work/packages"))"
[ -f "$app" ] || fail "no $app"
python=$work/packages/python3-waitscope_${version}_all.deb
[ -f "$python" ] || fail "no $python ($(ls "$work/packages"))"

step "package metadata"
field() { dpkg-deb -f "$1" "$2"; }
for deb in "$backend" "$app" "$python"; do dpkg-deb -f "$deb"; echo; done
[ "$(field "$backend" Version)" = "$version" ] || fail "backend version"
bdeps=$(field "$backend" Depends)
for dep in libopen-trace-format libsqlite3 libopenmpi libdw openmpi-bin libc6 libstdc++6; do
  grep -q "$dep" <<<"$bdeps" || fail "waitscope-backend does not depend on $dep: $bdeps"
done
! grep -qi "qt" <<<"$bdeps" || fail "waitscope-backend depends on Qt: $bdeps"
adeps=$(field "$app" Depends)
for dep in "waitscope-backend (= $version)" libqt6widgets6 libqt6charts6 libqt6svg6; do
  grep -qF "$dep" <<<"$adeps" || fail "waitscope does not depend on $dep: $adeps"
done

[ "$(field "$python" Version)" = "$version" ] || fail "python3-waitscope version"
[ "$(field "$python" Architecture)" = all ] || fail "python3-waitscope is not Architecture: all"
pdeps=$(field "$python" Depends)
for dep in python3-pandas python3-matplotlib python3-numpy; do
  grep -qF "$dep" <<<"$pdeps" || fail "python3-waitscope does not depend on $dep: $pdeps"
done

step "contents"
dpkg-deb -c "$backend" | awk '{print $6}' >"$work/backend.list"
dpkg-deb -c "$app" | awk '{print $6}' >"$work/app.list"
for f in usr/bin/waitscope-run usr/bin/waitscope-analyze usr/bin/waitscope-report "usr/lib/.*libwaitscope-measure.so" \
         usr/include/waitscope.h usr/share/man/man1/waitscope-run.1.gz usr/share/man/man1/waitscope-analyze.1.gz \
         usr/share/man/man1/waitscope-report.1.gz usr/share/waitscope/examples/fence.c; do
  grep -q "^\./$f\$" "$work/backend.list" || fail "waitscope-backend lacks $f"
done
for f in usr/bin/waitscope usr/share/man/man1/waitscope.1.gz usr/share/applications/org.waitscope.Waitscope.desktop \
         usr/share/metainfo/org.waitscope.Waitscope.metainfo.xml usr/share/mime/packages/org.waitscope.Waitscope.xml \
         usr/share/icons/hicolor/scalable/apps/org.waitscope.Waitscope.svg \
         usr/share/icons/hicolor/48x48/apps/org.waitscope.Waitscope.png \
         usr/share/icons/hicolor/256x256/apps/org.waitscope.Waitscope.png; do
  grep -q "^\./$f\$" "$work/app.list" || fail "waitscope lacks $f"
done
! grep -q "^\./usr/bin/waitscope$" "$work/backend.list" || fail "the app is in waitscope-backend"
dpkg-deb -c "$python" | awk '{print $6}' >"$work/python.list"
for f in __init__.py report.py _version.py timeline.py plot.py; do
  grep -q "^\./usr/lib/python3/dist-packages/waitscope/$f\$" "$work/python.list" || fail "python3-waitscope lacks $f"
done
! grep -q "__pycache__\|^\./usr/bin/" "$work/python.list" || fail "python3-waitscope holds more than the sources"

step "unpack them into a fresh root"
root=$work/root
dpkg -x "$backend" "$root"
dpkg -x "$app" "$root"
dpkg -x "$python" "$root"
for page in "$root"/usr/share/man/man1/*.1.gz; do
  man -l "$page" 2>/dev/null | grep -q "^NAME" || fail "man -l $page shows no NAME section"
done
bin=$root/usr/bin
# Debian policy: no RPATH; the libraries are found in the system directories.
for f in "$bin"/* $(find "$root/usr/lib" -name '*.so'); do
  ! readelf -d "$f" | grep -qE 'RPATH|RUNPATH' || fail "$f has an RPATH: $(readelf -d "$f" | grep -E 'RPATH|RUNPATH')"
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset WAITSCOPE_MEASURE_LIB
# Nothing of the build tree on the way: only the unpacked root and the system.
export PATH=$bin:/usr/local/bin:/usr/bin:/bin

step "compile the installed example against the installed header and library"
lib=$(dirname "$(find "$root/usr/lib" -name libwaitscope-measure.so)")
mpicc -g -O1 -I"$root/usr/include" -o "$work/demo/fence" "$root/usr/share/waitscope/examples/fence.c"
cat >"$work/demo/region.c" <<'C'
#include <mpi.h>
#include <waitscope.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  waitscope_region_begin("solver");
  MPI_Barrier(MPI_COMM_WORLD);
  waitscope_region_end("solver");
  MPI_Finalize();
  return 0;
}
C
mpicc -I"$root/usr/include" -o "$work/demo/region" "$work/demo/region.c" -L"$lib" -lwaitscope-measure \
  || fail "linking against the installed libwaitscope-measure"

step "record with the installed waitscope-run"
cd "$work/demo"
out=$(waitscope-run -n 4 -o fence-trace -- ./fence 10 0.010 --late-put 2>&1) || { echo "$out"; fail "waitscope-run"; }
echo "$out"
grep -q "trace written to .*/fence-trace/traces.otf2" <<<"$out" || fail "no trace"

step "analyze with the installed waitscope-analyze"
mpiexec --oversubscribe -n 4 waitscope-analyze --quiet fence-trace/traces.otf2 -o fence.waitscope
[ -s fence.waitscope ] || fail "no report"

step "print with the installed waitscope-report"
waitscope-report print fence.waitscope | tee print.txt
grep -q "mpi_rma_wait_at_fence" print.txt || fail "no Wait at Fence in the report"
waitscope-report diagnostics fence.waitscope | tee diagnostics.txt
grep -q "fence.c:[0-9]*: warning: .*Wait at Fence" diagnostics.txt || fail "no Wait at Fence diagnostic"

step "read it with the installed Python package"
# Debian's interpreter (python3-pandas); the package finds waitscope-report on PATH for the timeline.
waitscope-report print fence.waitscope --json >print.json
env -u WAITSCOPE_BIN ROOT="$root" PYTHONPATH="$root/usr/lib/python3/dist-packages" PYTHONDONTWRITEBYTECODE=1 \
  /usr/bin/python3 - <<'PY' || fail "the installed Python package"
import json, os, waitscope
assert waitscope.__file__.startswith(os.environ["ROOT"] + "/"), waitscope.__file__
report = waitscope.open("fence.waitscope")
printed = json.load(open("print.json"))["metrics"]
assert {k: float(v) for k, v in printed.items()} == report.totals().to_dict()
assert report.totals()["mpi_rma_wait_at_fence"] > 0
items = report.timeline("fence-trace/traces.otf2", width=100)
assert (items["layer"] == "instances").any()
print("ok:", waitscope.__version__, len(report.instances()), "instances")
PY

step "export a PNG with the installed desktop app"
mkdir -m 700 "$work/xdg-runtime"
env -u DISPLAY -u WAYLAND_DISPLAY XDG_RUNTIME_DIR="$work/xdg-runtime" QT_QPA_PLATFORM=offscreen \
  waitscope fence.waitscope --select-metric mpi_rma_wait_at_fence --size 800x500 --export-png fence.png --quit
[ "$(head -c 8 fence.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "fence.png is no PNG"
[ "$(stat -c %s fence.png)" -gt 10000 ] || fail "fence.png is too small to show the window"

echo; echo "ok: the three packages install and run the demo from $root"
