#!/usr/bin/env bash
# Issue 15's benchmark, whole process against whole process: a document of 100,000 <r>
# elements with an xs:decimal, an xs:date and an xs:double attribute each (generated
# deterministically by benches/src/bin/datatypes.rs, which also measures the read in
# process), validated by the validator `boardxml-codegen validator` generates for
# benches/schemas/datatypes/values.xsd and by `xmllint --stream --noout --schema` on the
# same file, interleaved in one run (ROUNDS each, default 11); prints the medians and
# their ratio. The baseline shape (xs:long, xs:token, xs:int) is measured the same way.
#   scripts/bench-datatypes.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-11}"
root="$PWD"
work="${BOARDXML_BENCH_DIR:-/tmp/boardxml-bench-datatypes}"
mkdir -p "$work"
command -v xmllint >/dev/null || { echo "xmllint is not installed" >&2; exit 2; }
# The documents (and the in-process table, printed for the record).
(cd benches && CARGO_TARGET_DIR=../target/bench cargo build -q --release --bin datatypes)
target/bench/release/datatypes --rounds 3 --dir "$work"
# The generated validator of both schemas (one package, a release build).
rm -rf "$work/validator"
cargo run -q -p boardxml-codegen -- validator --out "$work/validator" --runtime "$root" \
  benches/schemas/datatypes/values.xsd benches/schemas/datatypes/baseline.xsd
cp Cargo.lock "$work/validator/"
CARGO_TARGET_DIR="$root/target/bench" cargo build -q --release --offline \
  --manifest-path "$work/validator/Cargo.toml"
validate="$root/target/bench/release/validate"
now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for shape in values baseline; do
  doc="$work/$shape.xml"
  xsd="benches/schemas/datatypes/$shape.xsd"
  : >"$work/$shape.ours"; : >"$work/$shape.lint"
  for _ in $(seq "$rounds"); do
    t0=$(now); "$validate" --schema "$shape" "$doc" >/dev/null; t1=$(now)
    xmllint --stream --noout --schema "$xsd" "$doc" 2>/dev/null; t2=$(now)
    echo $(( (t1 - t0) / 1000 )) >>"$work/$shape.ours"
    echo $(( (t2 - t1) / 1000 )) >>"$work/$shape.lint"
  done
  ours=$(median <"$work/$shape.ours"); lint=$(median <"$work/$shape.lint")
  bytes=$(stat -c %s "$doc")
  awk -v s="$shape" -v b="$bytes" -v o="$ours" -v l="$lint" -v n="$rounds" 'BEGIN {
    printf "| %s | %d | %.1f ms | %.1f ms | %.2f |  (median of %d interleaved runs)\n",
      s, b, o / 1000, l / 1000, o / l, n }'
done
