#!/usr/bin/env bash
# XSD 1.1 assertions on a streamed document (issue 33): peak memory must not grow with the
# document, and what the assertions cost is measured against the same schema without them.
#
#   scripts/bench-assertions.sh        # 10 MB and 100 MB documents, 3 alternating runs each
#
# The schema is the assertions feature case (codegen/tests/cases/assertions-xsd-1-1: seven
# xs:assertion facets, each checked on every <round>); "plain" is the same schema with its
# assertions taken out; "complex" is plain with one xs:assert on the <round> element's
# complex type instead (each round's element copied, its test evaluated on the copy). One
# validator package holds the three sets (built with the runtime's
# `xpath` feature, in the package's own release profile). The documents are generated
# deterministically into $BENCH_DIR (default /tmp/boardxml-bench-assertions), never
# committed. Python xmlschema (XSD 1.1, lazy) judges the 10 MB document once, as a peer,
# when it is installed. Prints a markdown table: CPU (user + system) and peak RSS (GNU
# time's %M) of each run; the ratio is of the medians.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time): apt-get install time" >&2; exit 2; }
dir=${BENCH_DIR:-/tmp/boardxml-bench-assertions}
target=${CARGO_TARGET_DIR:-$PWD/target/bench-assertions}
mkdir -p "$dir"
case_dir=codegen/tests/cases/assertions-xsd-1-1
cp "$case_dir/schema.xsd" "$dir/asserted.xsd"

python3 - "$dir" <<'EOF'
import re, sys
d = sys.argv[1]
schema = open(f"{d}/asserted.xsd").read()
plain = re.sub(r"\s*<xs:assertion [^>]*/>", "", schema)
open(f"{d}/plain.xsd", "w").write(plain)
# A round's table number is at least a tenth of its board count, and its venue is known.
asserted_round = '<xs:assert test="@table ge boards div 10 and venue = (\'Oak\', \'Elm\')"/>\n  </xs:complexType>'
complex_ = re.sub(r'(<xs:complexType name="Round">.*?)</xs:complexType>',
                  lambda m: m.group(1) + asserted_round, plain, count=1, flags=re.S)
assert complex_ != plain
open(f"{d}/complex.xsd", "w").write(complex_)
def generate(path, mb):
    target, size, n = mb * 1000 * 1000, 0, 0
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<season opened="1999-05-01">\n')
        while size < target:
            colour = "red" if n % 2 else "black"
            r = (f'  <round table="{10 + 2 * (n % 40)}" colour="{colour}">\n'
                 f'    <boards>{2 * (n % 50)}</boards>\n'
                 f'    <scores>{n % 7} {n % 7 + 3} {n % 7 + 9}</scores>\n'
                 f'    <venue>Oak</venue>\n    <when>{1 + n % 30}</when>\n  </round>\n')
            f.write(r)
            size += len(r)
            n += 1
        f.write("</season>\n")
    print(f"{path}: {mb} MB, {n} rounds", file=sys.stderr)
for mb in (10, 100):
    generate(f"{d}/doc{mb}.xml", mb)
EOF

rm -rf "$dir/v"
cargo run -q --release -p boardxml-codegen -- validator --out "$dir/v" "$dir/asserted.xsd" "$dir/plain.xsd" "$dir/complex.xsd" >&2
echo "building the validator (release, the package's profile) ..." >&2
CARGO_TARGET_DIR=$target cargo build -q --release --manifest-path "$dir/v/Cargo.toml"
validate=$target/release/validate

run() { # schema doc -> "cpu_seconds peak_kb"
    /usr/bin/time -f "%U %S %M" -o "$dir/time.txt" "$validate" --schema "$1" "$2" >/dev/null
    awk '{ printf "%.2f %d\n", $1 + $2, $3 }' "$dir/time.txt"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "run on $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short=12 HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| document | schema | CPU s (3 runs) | peak RSS (largest) | CPU ÷ plain (medians) |"
echo "|---|---|---|---:|---:|"
for mb in 10 100; do
    doc=$dir/doc$mb.xml
    : >"$dir/asserted.txt"
    : >"$dir/plain.txt"
    : >"$dir/complex.txt"
    for _ in 1 2 3; do
        run asserted "$doc" >>"$dir/asserted.txt"
        run plain "$doc" >>"$dir/plain.txt"
        run complex "$doc" >>"$dir/complex.txt"
    done
    plain_median=$(cut -d' ' -f1 "$dir/plain.txt" | median)
    for s in asserted complex plain; do
        cpus=$(cut -d' ' -f1 "$dir/$s.txt" | paste -sd' ')
        peak=$(cut -d' ' -f2 "$dir/$s.txt" | sort -n | tail -1)
        m=$(cut -d' ' -f1 "$dir/$s.txt" | median)
        ratio=$(awk -v a="$m" -v b="$plain_median" 'BEGIN { printf "%.1f×", a / b }')
        echo "| $mb MB | $s | $cpus | $(awk -v k="$peak" 'BEGIN { printf "%.1f MB", k / 1024 }') | $ratio |"
    done
done
if python3 -c 'import xmlschema' 2>/dev/null; then
    cat >"$dir/peer.py" <<'EOF'
import sys, xmlschema
schema = xmlschema.XMLSchema11(sys.argv[1])
errors = list(schema.iter_errors(xmlschema.XMLResource(sys.argv[2], lazy=True)))
sys.exit(1 if errors else 0)
EOF
    peer=$(/usr/bin/time -f "%U %S %M" python3 "$dir/peer.py" "$dir/asserted.xsd" "$dir/doc10.xml" 2>&1 >/dev/null | tail -1)
    echo
    echo "Python xmlschema $(python3 -c 'import xmlschema; print(xmlschema.__version__)') (XSD 1.1, lazy), 10 MB, asserted, once: $(awk '{ printf "%.1f s CPU, peak RSS %.1f MB", $1 + $2, $3 / 1024 }' <<<"$peer")"
fi
