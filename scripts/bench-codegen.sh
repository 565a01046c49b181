#!/usr/bin/env bash
# Issue 14's generator goals, measured:
# 1. generation of the largest schemas of the W3C suite (../shared/conformance/xsdtests.tar.gz,
#    the TOP largest single-document schemas that `check` accepts): the wall time of
#    `boardxml-codegen check` and of `boardxml-codegen validator` (reading, checking and
#    writing the Rust code), median of ROUNDS;
# 2. compile time of generated code against schema size: synthetic schemas of N components
#    (N/2 named complex types, each with a sequence of three elements, one of them of the
#    previous type, and two attributes; N/2 named simple types with facets; a global
#    element per complex type), their validator packages built in debug with one shared
#    target folder (the runtime is built first, so each figure is the generated crate's
#    own compile): CPU seconds (user + system of cargo and its rustc) and wall seconds.
#   scripts/bench-codegen.sh [ROUNDS] [N...]
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
rounds="${1:-5}"
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(50 100 200 400 800 1600)
work="${BOARDXML_BENCH_DIR:-/tmp/boardxml-bench-codegen}"
suite="$root/../shared/conformance/xsdtests.tar.gz"
[ -f "$suite" ] || { echo "bench-codegen: $suite is missing (../shared is not beside the checkout)" >&2; exit 2; }
rm -rf "$work"; mkdir -p "$work/suite" "$work/synthetic"
cargo build -q --release -p boardxml-codegen
gen="$root/target/release/boardxml-codegen"
now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "## Generation of the largest suite schemas (median of $rounds, ms)"
tar xzf "$suite" -C "$work/suite"
echo "| schema | bytes | check | validator (generate) |"
echo "|---|---:|---:|---:|"
found=0
while read -r size path; do
  [ "$found" -lt 3 ] || break
  "$gen" check "$path" >/dev/null 2>&1 || continue
  found=$((found + 1))
  : >"$work/check.t"; : >"$work/gen.t"
  for _ in $(seq "$rounds"); do
    t0=$(now); "$gen" check "$path" >/dev/null 2>&1; t1=$(now)
    rm -rf "$work/pkg"
    "$gen" validator --out "$work/pkg" --runtime "$root" "$path" >/dev/null 2>&1; t2=$(now)
    echo $(( (t1 - t0) / 1000000 )) >>"$work/check.t"
    echo $(( (t2 - t1) / 1000000 )) >>"$work/gen.t"
  done
  echo "| ${path#"$work/suite/"} | $size | $(median <"$work/check.t") | $(median <"$work/gen.t") |"
done < <(find "$work/suite" -name '*.xsd' -printf '%s %p\n' | sort -rn)

echo
echo "## Compile time of generated code by schema size (debug build of the generated crate)"
synth() {
  python3 - "$1" <<'PY'
import sys
n = int(sys.argv[1])
half = max(1, n // 2)
out = ['<?xml version="1.0"?>', '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">']
for i in range(half):
    out.append(f'<xs:simpleType name="Code{i}"><xs:restriction base="xs:token">'
               f'<xs:maxLength value="{8 + i % 8}"/><xs:pattern value="[A-Z][a-z0-9]*"/>'
               '</xs:restriction></xs:simpleType>')
for i in range(half):
    prev = f'<xs:element name="child" type="Item{i - 1}" minOccurs="0"/>' if i else ''
    out.append(f'<xs:complexType name="Item{i}"><xs:sequence>'
               f'<xs:element name="label" type="Code{i}"/>'
               '<xs:element name="count" type="xs:int" minOccurs="0" maxOccurs="unbounded"/>'
               f'{prev}</xs:sequence>'
               f'<xs:attribute name="id" type="xs:ID"/><xs:attribute name="size" type="xs:decimal"/>'
               '</xs:complexType>')
    out.append(f'<xs:element name="item{i}" type="Item{i}"/>')
out.append('</xs:schema>')
print('\n'.join(out))
PY
}
target="$work/target"
# The runtime first (and cargo's own start-up), with the smallest schema.
synth 2 >"$work/synthetic/s2.xsd"
"$gen" validator --out "$work/synthetic/p2" --runtime "$root" "$work/synthetic/s2.xsd" >/dev/null
cp Cargo.lock "$work/synthetic/p2/"
CARGO_TARGET_DIR="$target" cargo build -q --offline --manifest-path "$work/synthetic/p2/Cargo.toml"
echo "| components N | generated lines | CPU s | wall s | CPU s / 100 components |"
echo "|---:|---:|---:|---:|---:|"
for n in "${sizes[@]}"; do
  xsd="$work/synthetic/s$n.xsd"; pkg="$work/synthetic/p$n"
  synth "$n" >"$xsd"
  "$gen" validator --out "$pkg" --runtime "$root" "$xsd" >/dev/null
  cp Cargo.lock "$pkg/"
  lines=$(cat "$pkg"/src/*.rs "$pkg"/src/*/*.rs 2>/dev/null | wc -l)
  /usr/bin/time -o "$work/time" -f '%U %S %e' \
    env CARGO_TARGET_DIR="$target" cargo build -q --offline --manifest-path "$pkg/Cargo.toml"
  read -r user sys wall <"$work/time"
  cpu=$(echo "$user + $sys" | bc)
  echo "| $n | $lines | $cpu | $wall | $(echo "scale=2; $cpu * 100 / $n" | bc) |"
done
