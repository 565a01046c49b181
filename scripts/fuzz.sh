#!/usr/bin/env bash
# Issue 7's fuzzing: runs the cargo-fuzz targets in fuzz/ for a given time each.
#
#   scripts/fuzz.sh TARGET SECONDS     # TARGET: validate | roundtrip | xsd_regex | xsd_regex_translate | position | write | check
#   scripts/fuzz.sh all SECONDS        # every target, one after the other, SECONDS each
#   scripts/fuzz.sh list               # the targets
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`). It uses nightly features; on a stable
# toolchain RUSTC_BOOTSTRAP=1 (set here) enables them.
# Corpus: fuzz/corpus/TARGET/ (kept between runs, not checked in), seeded at every run from
# examples/, conformance/cases/** and, when present, ../shared/corpus/** (BOARDXML_SHARED or
# /work/shared): documents for validate/roundtrip, the schemas' and the W3C suite's patterns
# for xsd_regex, FEN and Board strings found in those documents for position.
# Crashes land in fuzz/artifacts/TARGET/.
# Knobs: CARGO_TARGET_DIR (default /work/target-fuzz if unset), FUZZ_JOBS (processes side by
# side, each with its own -runs and log fuzz/logs/TARGET-N.log), FUZZ_SANITIZER
# (default none: the crates' own code is safe Rust; `address` to use ASan), FUZZ_ARGS (extra
# libFuzzer flags).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

targets=(validate roundtrip xsd_regex xsd_regex_translate position write check)
usage() { echo "usage: $0 {${targets[*]// /|}|all} SECONDS | list" >&2; exit 2; }

[ "${1:-}" = list ] && { printf '%s\n' "${targets[@]}"; exit 0; }
[ $# -eq 2 ] || usage
target=$1 seconds=$2
[[ $seconds =~ ^[0-9]+$ ]] || usage

command -v cargo-fuzz >/dev/null 2>&1 || { echo "cargo-fuzz is missing: cargo install cargo-fuzz" >&2; exit 2; }
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/work/target-fuzz}
sanitizer=${FUZZ_SANITIZER:-none}
# FUZZ_JOBS: fuzzing processes run side by side (each its own -runs), one by default.
jobs=${FUZZ_JOBS:-1}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || usage
shared=${BOARDXML_SHARED:-}
if [ -z "$shared" ]; then
  for s in "$root/../shared" /work/shared; do [ -d "$s" ] && { shared=$s; break; }; done
fi

doc_sources() {
  printf '%s\0' examples conformance/cases
  [ -n "$shared" ] && [ -d "$shared/corpus" ] && printf '%s\0' "$shared/corpus"
  return 0
}

# Copies the seeds for $1 into fuzz/corpus/$1 (content-named, so re-seeding adds nothing twice).
seed() {
  local t=$1 dir=fuzz/corpus/$1
  mkdir -p "$dir" "fuzz/artifacts/$t"
  case $t in
    validate|roundtrip)
      doc_sources | xargs -0 -I{} find {} -type f \( -name '*.cbf' -o -name '*.cif' -o -name '*.xml' \) -print0 |
        while IFS= read -r -d '' f; do cp "$f" "$dir/seed-$(sha1sum < "$f" | cut -c1-16)"; done ;;
    xsd_regex|xsd_regex_translate)
      python3 - "$dir" "$shared" <<'PY'
import hashlib, html, json, os, re, sys
out, shared = sys.argv[1], sys.argv[2]
seeds = set()
for name in os.listdir("schemas"):
    for m in re.finditer(r'<xs:pattern value="([^"]*)"', open(os.path.join("schemas", name), encoding="utf-8").read()):
        seeds.add(html.unescape(m.group(1)).encode())
tsv = os.path.join(shared, "conformance", "xsts-regex.tsv") if shared else ""
if tsv and os.path.exists(tsv):
    for line in open(tsv, encoding="utf-8").read().splitlines()[1:]:
        cols = line.split("\t")
        try:
            pattern, value = json.loads(cols[5]), json.loads(cols[6])
        except (IndexError, ValueError):
            continue
        if isinstance(pattern, str):
            seed = pattern.encode("utf-8", "surrogatepass")
            if isinstance(value, str):
                seed += b"\0" + value.encode("utf-8", "surrogatepass")
            seeds.add(seed)
for s in seeds:
    open(os.path.join(out, "seed-" + hashlib.sha1(s).hexdigest()[:16]), "wb").write(s)
PY
      ;;
    position)
      python3 - "$dir" $(doc_sources | xargs -0) <<'PY'
import hashlib, os, re, sys
out, roots = sys.argv[1], sys.argv[2:]
seeds = {b"\0rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
         b"\1jmxswsxmj10p5p1b1b1b1b1b18B1B1B1B1B1P5P10JMXSWSXMJ-r1"}
for root in roots:
    for d, _, files in os.walk(root):
        for f in files:
            text = open(os.path.join(d, f), "rb").read()
            for m in re.finditer(rb"<FEN>([^<]*)</FEN>", text):
                seeds.add(b"\0" + m.group(1))
            for m in re.finditer(rb'<Board value="([^"]*)"', text):
                seeds.add(b"\1" + m.group(1))
for s in seeds:
    open(os.path.join(out, "seed-" + hashlib.sha1(s).hexdigest()[:16]), "wb").write(s)
PY
      ;;
    check)
      # The generator's input is bytes, not schemas (it carries its seed schemas in itself):
      # a few inputs to start from.
      for i in 0 1 2 3 4 5 6 7; do head -c 256 /dev/zero | tr '\0' "\\$(printf %03o $((i * 31 + 1)))" > "$dir/seed-bytes-$i"; done ;;
    write)
      # Each trap's name by index (first byte < 0x80), and made-up names.
      for i in 0 1 2 3 4 5 6 7 8 9 10; do printf "\\x$(printf %02x $i)<svg/>" > "$dir/seed-name-$i"; done
      printf '\x85.a.tmp<x/>' > "$dir/seed-made-up" ;;
  esac
}

# Per-target libFuzzer options.
flags() {
  case $1 in
    validate)  echo "-max_len=16384 -dict=$root/fuzz/dict/xml.dict -timeout=10" ;;
    roundtrip) echo "-max_len=16384 -dict=$root/fuzz/dict/xml.dict -timeout=10" ;;
    xsd_regex|xsd_regex_translate) echo "-max_len=256 -dict=$root/fuzz/dict/xsd_regex.dict -timeout=30" ;;
    position)  echo "-max_len=256 -timeout=10" ;;
    write)     echo "-max_len=512 -timeout=10" ;;
    # Issue 28: nothing over 2 s or 1 GB (the -rss_limit_mb given last wins).
    check)     echo "-max_len=4096 -timeout=30 -rss_limit_mb=1024" ;;  # the 2 s limit is the target's own, on CPU time
  esac
}

# With -jobs=N libFuzzer runs the fuzzer in N child processes whose output goes to
# fuzz-0.log .. in the working directory; each log is kept as fuzz/logs/TARGET.log (one job)
# or fuzz/logs/TARGET-I.log, and its final stats printed.
run() {
  local t=$1 status=0 extra=()
  seed "$t"
  # roundtrip also reads (never writes) what validate's corpus has grown to.
  [ "$t" = roundtrip ] && [ -d fuzz/corpus/validate ] && extra=("$root/fuzz/corpus/validate")
  echo "== $t: ${seconds}s (sanitizer $sanitizer)" >&2
  (cd fuzz && cargo fuzz build --sanitizer "$sanitizer" "$t")
  mkdir -p fuzz/logs "fuzz/run-$t"
  # The general limits first: a target's own flags (and FUZZ_ARGS) come after them, and
  # libFuzzer takes the last of a flag given twice.
  (cd "fuzz/run-$t" && cargo fuzz run --fuzz-dir "$root/fuzz" --sanitizer "$sanitizer" "$t" \
      "$root/fuzz/corpus/$t" "${extra[@]}" -- \
      -max_total_time="$seconds" -rss_limit_mb=2048 -jobs="$jobs" -workers="$jobs" \
      $(flags "$t") -print_final_stats=1 -artifact_prefix="$root/fuzz/artifacts/$t/" ${FUZZ_ARGS:-}) || status=$?
  rm -f fuzz/logs/"$t".log fuzz/logs/"$t"-*.log
  for i in $(seq 0 $((jobs - 1))); do
    log=fuzz/logs/$t.log
    [ "$jobs" -gt 1 ] && log=fuzz/logs/$t-$i.log
    mv "fuzz/run-$t/fuzz-$i.log" "$log" 2>/dev/null || continue
    echo "== $t: exit $status; log $log" >&2
    grep -E '^(stat::|==[0-9]+== ERROR|.*panicked at|SUMMARY|Done [0-9]+ runs)' "$log" >&2 || true
  done
  rmdir "fuzz/run-$t" 2>/dev/null || true
  ls "fuzz/artifacts/$t" >&2
  return $status
}

case $target in
  all) status=0; for t in "${targets[@]}"; do run "$t" || status=1; done; exit $status ;;
  *) printf '%s\n' "${targets[@]}" | grep -qx -- "$target" || usage; run "$target" ;;
esac
