#!/usr/bin/env bash
# The desktop file, AppStream metainfo and MIME type validate, and the PNG icons rendered at build
# time from the SVG have their sizes.
#   desktop_files_test.sh RESOURCES_DIR PACKAGING_BUILD_DIR
set -u
res=$1 build=$2
id=org.waitscope.Waitscope
status=0
fail() { echo "FAIL: $*"; status=1; }

desktop-file-validate "$res/$id.desktop" || fail "desktop-file-validate $id.desktop"
appstreamcli validate --no-net --explain "$build/$id.metainfo.xml" || fail "appstreamcli validate $id.metainfo.xml"
xmllint --noout "$res/$id.mime.xml" "$res/icons/$id.svg" || fail "XML of the MIME type or the icon"
grep -q "^Icon=$id$" "$res/$id.desktop" || fail "the desktop file names another icon"
grep -q "<launchable type=\"desktop-id\">$id.desktop</launchable>" "$build/$id.metainfo.xml" || fail "launchable"

for size in 16 24 32 48 64 128 256; do
  png=$build/icons/${size}x${size}/$id.png
  [ -f "$png" ] || { fail "no $png"; continue; }
  # Width and height from the IHDR chunk (bytes 16..23, big endian).
  read -r w h < <(od -An -tu1 -j16 -N8 "$png" | awk '{print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8}')
  [ "$w" = "$size" ] && [ "$h" = "$size" ] || fail "$png is ${w}x${h}"
done
[ $status -eq 0 ] && echo "ok: desktop file, metainfo, MIME type and icons"
exit $status
