#!/usr/bin/env bash
# The man pages render without groff warnings, name their tool and version, and document every
# option the tool's --help (and, for waitscope-report, every command's --help) lists.
#   man_pages_test.sh VERSION MAN_DIR TOOL...
set -u
version=$1 man_dir=$2; shift 2
status=0
fail() { echo "FAIL: $*"; status=1; }
for tool in "$@"; do
  name=$(basename "$tool")
  page=$man_dir/$name.1
  [ -f "$page" ] || { fail "no man page $page"; continue; }
  warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
  [ -z "$warnings" ] || fail "$name.1: groff warnings: $warnings"
  text=$(MANWIDTH=100 man -l "$page" 2>&1 | col -bx) || fail "$name.1: man -l failed"
  grep -q "^NAME" <<<"$text" || fail "$name.1: no NAME section"
  grep -q "^ *$name - " <<<"$text" || fail "$name.1: NAME does not name $name"
  grep -q "Waitscope $version" <<<"$text" || fail "$name.1: not version $version"
  help=$(QT_QPA_PLATFORM=offscreen "$tool" --help 2>&1)
  if [ "$name" = waitscope-report ]; then
    for command in $(sed -n '/^commands:/,/^$/s/^  \([a-z]\+\) .*/\1/p' <<<"$help"); do
      help+=$'\n'$("$tool" "$command" --help 2>&1)
      grep -q "^ *$command " <<<"$text" || fail "$name.1: command $command missing"
    done
  fi
  # Options as written in the help (--min-percent, -o, ...); the man page must mention each.
  for option in $(grep -o -- '\(^\|[[ ,]\)--\?[a-z][a-z-]*' <<<"$help" | tr -d '[ ,' | grep '^-' | sort -u); do
    grep -q -- "$option\b" <<<"$text" || fail "$name.1: option $option (from --help) not documented"
  done
  [ $status -eq 0 ] && echo "ok: $name.1"
done
exit $status
