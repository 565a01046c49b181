#!/usr/bin/env bash
# Issue 33: the W3C XML Schema Test Suite (../shared/conformance/xsdtests.tar.gz) scored
# side by side with the Rust peer, the xsd-schema crate (interpreting XSD 1.0/1.1
# validator), under its own counting. Its published crate ships its own suite driver
# (test target `conformance`, tests/conformance/driver.rs); this runs that driver, release
# build, for XSD 1.0 and 1.1 with per-test output, then scripts/xsts_peer.py sets our
# verdicts (every test of our universe not in the known-failure files is right) on
# exactly the tests the peer runs, and prints a Markdown section for CONFORMANCE.md.
#   scripts/xsts-peer.sh [--out FILE] [--known DIR]
#     --out FILE   also write the Markdown to FILE
#     --known DIR  the known-failure files (and their harness's common/suite.rs) to read:
#                  default codegen/tests
# The crate comes from the cargo cache (fetched with cargo into a throwaway package when
# absent) and is unpacked with its Cargo.lock, built --locked, in XSTS_PEER_DIR (default
# /tmp/boardxml-xsts-peer; the peer's build, about 5 minutes on 2 cores, is kept there for
# the next run, with the drivers' outputs peer-1.0.txt and peer-1.1.txt); the suite is
# unpacked into a temporary folder. Which XSD 1.0 instance tests sit on a schema `check`
# rejects (our 1.0 instance score leaves them out) is asked of boardxml-codegen: built
# here (release, --locked), or BOARDXML_CHECK=PATH names a binary.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
peer_version=0.3.0
out=
known=codegen/tests
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="${2:?--out needs a file}"; shift ;;
    --known) known="${2:?--known needs a folder}"; shift ;;
    *) echo "usage: scripts/xsts-peer.sh [--out FILE] [--known DIR]" >&2; exit 2 ;;
  esac
  shift
done
suite="$root/../shared/conformance/xsdtests.tar.gz"
[ -f "$suite" ] || {
  echo "xsts-peer: $suite is missing (../shared is not beside the checkout)" >&2
  exit 2
}
command -v cargo >/dev/null || { echo "xsts-peer: cargo is not installed" >&2; exit 2; }
command -v python3 >/dev/null || { echo "xsts-peer: python3 is not installed" >&2; exit 2; }
work="${XSTS_PEER_DIR:-/tmp/boardxml-xsts-peer}"
mkdir -p "$work"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
secs() { echo "$(( $(date +%s) - $1 )) s"; }

# The crate: from the cargo cache, else fetched by cargo into the cache (a throwaway
# package depending on exactly this version).
cache="${CARGO_HOME:-$HOME/.cargo}/registry/cache"
crate=$(ls "$cache"/*/xsd-schema-$peer_version.crate 2>/dev/null | head -1 || true)
if [ -z "$crate" ]; then
  mkdir -p "$tmp/fetch/src" && : >"$tmp/fetch/src/lib.rs"
  cat >"$tmp/fetch/Cargo.toml" <<EOF
[package]
name = "fetch"
version = "0.0.0"
edition = "2021"

[dependencies]
xsd-schema = "=$peer_version"
EOF
  cargo fetch -q --manifest-path "$tmp/fetch/Cargo.toml"
  crate=$(ls "$cache"/*/xsd-schema-$peer_version.crate | head -1)
fi
src="$work/xsd-schema-$peer_version"
[ -d "$src" ] || tar xzf "$crate" -C "$work"

t0=$(date +%s)
tar xzf "$suite" -C "$tmp"
xsdtests="$tmp/xsdtests"
echo "xsts-peer: the suite unpacked in $(secs "$t0")" >&2

# The peer's driver as its README runs it; a failing build or driver stops here.
driver=(cargo test --locked --test conformance --features xsd11 --release --)
for v in 1.0 1.1; do
  t0=$(date +%s)
  (cd "$src" && CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$work/target}" \
    "${driver[@]}" --test-suite "$xsdtests" --version "$v" --verbose) \
    >"$work/peer-$v.txt" 2>"$work/peer-$v.err" || {
    echo "xsts-peer: the peer's driver failed for XSD $v; its output: $work/peer-$v.{txt,err}" >&2
    tail -20 "$work/peer-$v.err" >&2
    exit 1
  }
  echo "xsts-peer: XSD $v: the peer's build and run took $(secs "$t0")" >&2
done

# Our check, for which 1.0 instance tests are on a schema it does not accept.
check="${BOARDXML_CHECK:-}"
if [ -z "$check" ]; then
  t0=$(date +%s)
  cargo build -q --locked --release -p boardxml-codegen
  check="${CARGO_TARGET_DIR:-target}/release/boardxml-codegen"
  echo "xsts-peer: boardxml-codegen built in $(secs "$t0")" >&2
fi

t0=$(date +%s)
python3 scripts/xsts_peer.py --suite "$xsdtests" --known "$known" --check "$check" \
  --peer-1.0 "$work/peer-1.0.txt" --peer-1.1 "$work/peer-1.1.txt" \
  --peer-version "$peer_version" --command "${driver[*]} --test-suite xsdtests" \
  ${out:+--out "$out"}
echo "xsts-peer: the comparison took $(secs "$t0")" >&2
