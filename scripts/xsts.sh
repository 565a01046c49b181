#!/usr/bin/env bash
# Runs every XSD 1.0 schema test of the W3C XML Schema Test Suite
# (../shared/conformance/xsdtests.tar.gz) through `boardxml-codegen check`, in process
# (codegen/tests/xsts.rs, `full_suite`), and writes the scores into CONFORMANCE.md.
#   scripts/xsts.sh           scores; fails on a wrong answer not in the known failures
#                             (or a listed test that now passes)
#   scripts/xsts.sh --bless   also rewrites codegen/tests/xsts-known-failures.txt
set -euo pipefail
cd "$(dirname "$0")/.."
export BOARDXML_XSTS_WRITE=1
if [ "${1:-}" = "--bless" ]; then
  export BOARDXML_BLESS=1
elif [ -n "${1:-}" ]; then
  echo "usage: scripts/xsts.sh [--bless]" >&2
  exit 2
fi
exec cargo test --release -q -p boardxml-codegen --test xsts -- --ignored --exact full_suite --nocapture
