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
# 3. issue 31's scaling of the generator: CPU time and peak memory of `check` on content
#    models of 100, 1,000 and 5,000 members (a repeated choice, a sequence of optional
#    elements, an `all`), on 85,000 simple types, and of `diff` of a 1,000-member choice
#    against a 999-member one (and 100 against 99); the ratio of each to its 100-member
#    figure; with ../shared/xsd-large beside the checkout, `check` of UBL Invoice against
#    `xmllint --noout --schema` validating its trivial invoice.
#   scripts/bench-codegen.sh [ROUNDS] [N...]
#   scripts/bench-codegen.sh --scaling       only part 3
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
scaling_only=
[ "${1:-}" = --scaling ] && { scaling_only=1; shift; }
rounds="${1:-5}"
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(50 100 200 400 800 1600)
work="${BOARDXML_BENCH_DIR:-/tmp/boardxml-bench-codegen}"
suite="$root/../shared/conformance/xsdtests.tar.gz"
[ -f "$suite" ] || { echo "bench-codegen: $suite is missing (../shared is not beside the checkout)" >&2; exit 2; }
rm -rf "$work"; mkdir -p "$work/suite" "$work/synthetic"
cargo build -q --release -p boardxml-codegen
gen="${CARGO_TARGET_DIR:-$root/target}/release/boardxml-codegen"
now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

scaling() {
  local dir="$work/scaling"; mkdir -p "$dir"
  python3 - "$dir" <<'PY'
import sys
d = sys.argv[1]
head = '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">'
def model(kind, n, extra=''):
    if kind == 'choice':
        body = '<xs:choice maxOccurs="unbounded">' + ''.join(f'<xs:element name="e{i}" type="xs:string"/>' for i in range(n)) + '</xs:choice>'
    elif kind == 'sequence':
        body = '<xs:sequence>' + ''.join(f'<xs:element name="e{i}" type="xs:string" minOccurs="0"/>' for i in range(n)) + '</xs:sequence>'
    else:
        body = '<xs:all>' + ''.join(f'<xs:element name="e{i}" type="xs:string" minOccurs="0"/>' for i in range(n)) + '</xs:all>'
    return f'{head}<xs:element name="root"><xs:complexType>{body}</xs:complexType></xs:element></xs:schema>'
for kind in ('choice', 'sequence', 'all'):
    for n in (100, 1000, 5000):
        open(f'{d}/{kind}-{n}.xsd', 'w').write(model(kind, n))
for n in (99, 100, 999, 1000):
    open(f'{d}/choice-{n}.xsd', 'w').write(model('choice', n))
out = [head]
for i in range(85000):
    out.append(f'<xs:simpleType name="t{i}"><xs:restriction base="xs:token"><xs:maxLength value="{1 + i % 64}"/></xs:restriction></xs:simpleType>')
out.append('<xs:element name="root" type="t84999"/></xs:schema>')
open(f'{d}/simple-85000.xsd', 'w').write('\n'.join(out))
PY
  # CPU seconds (user + system, to the microsecond) and peak RSS in MB of one run of the
  # command; its exit status is not the point (an ambiguous or changed schema exits 1).
  measure() { python3 - "$@" <<'PY'
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{r.ru_utime + r.ru_stime:.3f} {r.ru_maxrss // 1024}")
PY
  }
  echo "## Scaling of check and diff (issue 31; CPU s, peak RSS MB, ratio to the 100-member run)"
  echo "| input | CPU s | peak MB | ratio to 100 |"
  echo "|---|---:|---:|---:|"
  for kind in choice sequence all; do
    base=
    for n in 100 1000 5000; do
      read -r cpu mb < <(measure "$gen" check "$dir/$kind-$n.xsd")
      [ -n "$base" ] || base=$cpu
      echo "| check: $kind of $n | $cpu | $mb | $(echo "scale=1; $cpu / $base" | bc) |"
    done
  done
  read -r cpu mb < <(measure "$gen" check "$dir/simple-85000.xsd")
  echo "| check: 85,000 simple types ($(($(stat -c %s "$dir/simple-85000.xsd") / 1048576)) MB) | $cpu | $mb | |"
  read -r base mb < <(measure "$gen" diff "$dir/choice-100.xsd" "$dir/choice-99.xsd")
  echo "| diff: choice of 100 against 99 | $base | $mb | 1.0 |"
  read -r cpu mb < <(measure "$gen" diff "$dir/choice-1000.xsd" "$dir/choice-999.xsd")
  echo "| diff: choice of 1,000 against 999 | $cpu | $mb | $(echo "scale=1; $cpu / $base" | bc) |"
  local ubl="$root/../shared/xsd-large/ubl25-invoice"
  if [ -d "$ubl" ] && command -v xmllint >/dev/null; then
    local xsd doc
    xsd="$ubl/schema/maindoc/UBL-Invoice-2.5.xsd"
    doc="$ubl/docs/UBL-Invoice-2.1-Example-Trivial.xml"
    read -r cpu mb < <(measure "$gen" check --allow-path "$ubl/schema" "$xsd")
    read -r lint lmb < <(measure xmllint --noout --schema "$xsd" "$doc")
    echo "| check: UBL Invoice | $cpu | $mb | xmllint (load and validate the trivial invoice): $lint s, $lmb MB; ratio $(echo "scale=1; $cpu / $lint" | bc) |"
  else
    echo "bench-codegen: ../shared/xsd-large/ubl or xmllint is missing: the UBL row is skipped" >&2
  fi
}
if [ -n "$scaling_only" ]; then scaling; exit 0; fi

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
