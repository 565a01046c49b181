#!/usr/bin/env bash
# README's commands, exactly as README writes them, on a fresh clone with nothing beside it
# (no ../shared, no installed boardxml, an empty target folder): what a new user meets.
#
#   scripts/fresh-clone.sh            # every marked block of README.md, in order
#
# The blocks run are those README.md marks with an HTML comment on the line before the
# ```sh fence: `<!-- fresh-clone: NAME -->` (the block must exit 0) or
# `<!-- fresh-clone: NAME exit=N -->` (it must exit N, as the diagnostic examples do).
# The clone is of HEAD (what is committed), in a temporary folder removed at the end;
# `cargo install` goes to a root inside it (CARGO_INSTALL_ROOT, first on PATH), so nothing
# outside is touched. Crates come from the registry cache as for any build. Each block's
# wall time is printed; README states the test command's.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/boardxml-fresh.XXXXXX")
trap 'rm -rf "$work"' EXIT
git clone -q --no-local "$repo" "$work/boardxml"
cd "$work/boardxml"
if [ -e ../shared ]; then
  echo "fresh-clone: $work/shared exists; the clone must have nothing beside it" >&2
  exit 1
fi
# A fresh user has none of CI's settings: skips are allowed (and said loudly), the target
# folder is the clone's own.
unset BOARDXML_REQUIRE_SHARED BOARDXML_REQUIRE_TOOLS CARGO_TARGET_DIR CARGO_PROFILE_DEV_STRIP
export CARGO_INSTALL_ROOT="$work/inst"
export PATH="$CARGO_INSTALL_ROOT/bin:$PATH"

blocks="$work/blocks"
mkdir "$blocks"
python3 - README.md "$blocks" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read().split("\n")
n = 0
i = 0
while i < len(text):
    m = re.fullmatch(r"<!-- fresh-clone: ([a-z0-9-]+)(?: exit=(\d+))? -->", text[i].strip())
    if m:
        if i + 1 >= len(text) or text[i + 1].strip() != "```sh":
            sys.exit(f"README.md:{i + 1}: a fresh-clone mark must stand right before a ```sh block")
        j = i + 2
        body = []
        while j < len(text) and text[j].strip() != "```":
            body.append(text[j])
            j += 1
        n += 1
        with open(f"{sys.argv[2]}/{n:02d}-{m.group(1)}.{m.group(2) or 0}.sh", "w") as f:
            f.write("\n".join(body) + "\n")
        i = j
    i += 1
if n == 0:
    sys.exit("README.md marks no fresh-clone block")
PY

failed=0
for block in "$blocks"/*.sh; do
  name=$(basename "$block" .sh)
  want=${name##*.}
  name=${name%.*}
  echo "== fresh clone: ${name#*-} (README.md, expecting exit $want)"
  sed 's/^/  $ /' "$block"
  start=$(date +%s)
  set +e
  bash -eo pipefail "$block"
  got=$?
  set -e
  echo "== fresh clone: ${name#*-}: exit $got in $(( $(date +%s) - start )) s"
  if [ "$got" != "$want" ]; then
    echo "fresh-clone: README's ${name#*-} block exited $got, not $want" >&2
    failed=1
  fi
done
exit "$failed"
