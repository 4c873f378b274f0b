#!/usr/bin/env bash
# docs/user-guide.md covers every wait-state pattern of the generated reference (a link to its
# entry), and every file, figure and anchor it links to exists.
#   user_guide_test.sh DOCS_DIR
set -u
docs=$1
guide=$docs/user-guide.md
status=0
fail() { echo "FAIL: $*"; status=1; }
for name in $(grep -o '^### .*(`[a-z_0-9]*`)$' "$docs/pattern-reference.md" | grep -o '`[a-z_0-9]*`' | tr -d '`'); do
  grep -q "pattern-reference.md#$name)" "$guide" || fail "the user guide does not cover the pattern $name"
done
for target in $(grep -o '](\([^)]*\))' "$guide" | sed 's/^](//; s/)$//' | grep -v '^#' | grep -v '^https\?:'); do
  file=${target%%#*} anchor=${target#*#}
  [ -e "$docs/$file" ] || { fail "link to a missing file: $target"; continue; }
  if [ "$anchor" != "$target" ]; then
    grep -q "id=\"$anchor\"" "$docs/$file" || fail "link to a missing anchor: $target"
  fi
done
for image in $(grep -o '](images/[^)]*)' "$guide" | sed 's/^](//; s/)$//'); do
  [ "$(head -c 4 "$docs/$image" | od -An -c | tr -d ' ')" = "211PNG" ] || fail "figure $image is not a PNG"
done
[ $status -eq 0 ] && echo "ok: the user guide covers every pattern; its links and figures exist"
exit $status
