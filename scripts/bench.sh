#!/usr/bin/env bash
# The benchmarks, in one command (from anywhere; it works from the workspace root):
#
#   scripts/bench.sh [all]           # both of the below, one after the other
#   scripts/bench.sh peers           # issue 8's: CIF and CBF against their peers (< 15 min
#                                    # on 2 cores; scripts/bench.py)
#   scripts/bench.sh validators      # issue 32's: generated validators of four real schema
#                                    # sets, CIF and CBF, against xmllint and xmlschema, before
#                                    # and after (about 30 min; scripts/bench_validators.py)
#   BENCH_QUICK=1 scripts/bench.sh   # smaller inputs, fewer rounds, no clean builds
#
# Builds (release) what it measures, generates the inputs (deterministically) in $BENCH_DIR
# (default /tmp/boardxml-bench), runs every measurement, prints a markdown report to stdout
# and writes it into BENCHMARKS.md between its markers (BENCH_NO_WRITE=1: stdout only).
# Progress goes to stderr. Other knobs: CARGO_TARGET_DIR (default target/bench),
# BENCH_SKIP_CLEAN_BUILD=1, BENCH_SKIP_PROFILE=1, and those the Python scripts' docstrings
# list. See BENCHMARKS.md.
#
# It installs nothing: it checks for what it needs and says what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

what=${1:-all}
case "$what" in
    all | peers | validators) ;;
    *)
        echo "usage: scripts/bench.sh [all|peers|validators]" >&2
        exit 2
        ;;
esac

missing=()
need() { command -v "$1" >/dev/null 2>&1 || missing+=("$1 ($2)"); }
need cargo "a Rust toolchain, https://rustup.rs"
need rustc "a Rust toolchain, https://rustup.rs"
need xmllint "libxml2's xmllint: apt-get install libxml2-utils"
need python3 "Python 3"
need nproc "coreutils"
[ -x /usr/bin/time ] || missing+=("/usr/bin/time (GNU time, for peak memory: apt-get install time)")
if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import xmlschema' 2>/dev/null; then
    missing+=("Python xmlschema (pip install xmlschema)")
fi
if [ "$what" != peers ]; then
    xsd_real=${BENCH_XSD_REAL:-../shared/xsd-real}
    [ -f "$xsd_real/manifest.tsv" ] ||
        missing+=("$xsd_real (the real-world schema sets; BENCH_XSD_REAL names another place)")
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "scripts/bench.sh: missing, please install:" >&2
    printf '  - %s\n' "${missing[@]}" >&2
    exit 2
fi
# Optional peers and tools: their rows are left out, with a note, when absent.
if [ "$what" != validators ]; then
    python3 -c 'import cchess' 2>/dev/null ||
        echo "scripts/bench.sh: note: Python cchess missing (pip install cchess): its row is skipped" >&2
fi
command -v valgrind >/dev/null 2>&1 ||
    echo "scripts/bench.sh: note: valgrind missing (apt-get install valgrind): no profile, no instruction counts" >&2

case "$what" in
    peers) exec python3 scripts/bench.py ;;
    validators) exec python3 scripts/bench_validators.py ;;
    all) python3 scripts/bench.py && exec python3 scripts/bench_validators.py ;;
esac
