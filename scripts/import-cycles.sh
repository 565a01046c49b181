#!/usr/bin/env bash
# Import cycles among the modules of every crate's src, by ../shared/tools/module_cycles.py
# (issue 30). Each cycle found must be listed in scripts/known-import-cycles.txt with its
# reason, and each listed cycle must still be found: the run fails on an unlisted cycle and
# on a listed one that is gone (then drop its line).
#
#   scripts/import-cycles.sh
set -euo pipefail
cd "$(dirname "$0")/.."

tool=../shared/tools/module_cycles.py
if [ ! -f "$tool" ]; then
  echo "SKIPPED (shared): $tool not found: import cycles not checked" >&2
  [ -n "${BOARDXML_REQUIRE_SHARED:-}" ] && exit 1
  exit 0
fi

known=scripts/known-import-cycles.txt
found=$(mktemp)
trap 'rm -f "$found"' EXIT
# Every crate of the workspace: the runtime at the root and each member with a src folder.
for src in src */src examples/*/src; do
  [ -d "$src" ] || continue
  case "$src" in target/*|fuzz/*) continue ;; esac
  # The tool exits 1 when it finds a cycle; anything else is the tool failing.
  rc=0
  out=$(python3 "$tool" "$src") || rc=$?
  [ "$rc" -le 1 ] || { echo "module_cycles.py failed on $src (exit $rc)"; exit 2; }
  sed -n "s|^cycle: |$src\t|p" <<<"$out" >>"$found"
done

listed=$( (grep -v -e '^#' -e '^$' "$known" || true) | cut -f1,2 | sort)
status=0
while IFS= read -r line; do
  grep -qxF "$line" <<<"$listed" || { echo "unlisted import cycle: $line"; status=1; }
done < <(sort "$found")
while IFS= read -r line; do
  [ -n "$line" ] || continue
  grep -qxF "$line" "$found" || { echo "listed import cycle no longer found (drop it from $known): $line"; status=1; }
done <<<"$listed"
echo "$(wc -l <"$found") import cycles, $(grep -vc '^#' "$known" || true) listed"
exit "$status"
