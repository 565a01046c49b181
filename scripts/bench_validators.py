#!/usr/bin/env python3
"""Issue 32's benchmarks: generated validators against xmllint on real schemas.

Run by `scripts/bench.sh validators` (which checks the tools first). For each of four
`../shared/xsd-real` sets (GPX 1.1, KML 2.2, XLIFF 1.2, MusicXML 4.0) it builds the validator
`boardxml-codegen validator` generates (release), generates a large document from the set's
valid documents (`benches` `gen-real`, deterministic, written under $BENCH_DIR, never
committed), and measures, on the same files:

- instructions per byte of the generated validator (valgrind callgrind, on a smaller
  document of the same shape: callgrind runs some 50 times slower; it is over 2 MiB, so that
  it is streamed as the large one is, where a smaller file is read whole), and of xmllint;
- CPU time (user + sys) of the validator and of `xmllint --noout --nonet --stream --schema
  MAIN DOC`, run in alternating pairs, the median of each;
- CPU time of Python xmlschema's lazy validation, once, for the record;
- peak RSS of each (GNU time's %M).

The same for the CIF and CBF inputs of BENCHMARKS.md (`boardxml validate` with the rules),
and the instruction counts of BENCHMARKS.md's earlier rows (issue 12's commands).

Results are kept in $BENCH_RESULTS (default target/bench-validators.json) as a "before" and
an "after" run, and embedded in BENCHMARKS.md (so that a run in another checkout finds the
"before" run there). A run is the "before" run when none is recorded yet or when it measures
the same code again (the last commit that changed what is measured: MEASURED); otherwise it
is the "after" run (replacing an earlier "after").
BENCH_ROLE=before|after says so explicitly. The section of BENCHMARKS.md between the
bench-validators markers is rewritten from both runs (BENCH_NO_WRITE=1: stdout only).

Environment: BENCH_QUICK=1 (4 MB documents, one pair, no earlier rows), BENCH_MB (size of
the large documents, default 40), BENCH_CG_MB (callgrind documents, default 3),
BENCH_ROUNDS (pairs, default 3), BENCH_DIR, CARGO_TARGET_DIR, BENCH_XSD_REAL (default
../shared/xsd-real), BENCH_RESULTS, BENCH_ROLE, BENCH_SKIP_XMLSCHEMA=1.
"""

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402  (issue 8's script: timing, machine and commit helpers)
from bench import log, sh  # noqa: E402

ROOT = bench.ROOT
QUICK = bench.QUICK
REL = bench.REL
TARGET = bench.TARGET
WORK = bench.WORK / "validators"
XSD_REAL = Path(os.environ.get("BENCH_XSD_REAL", str(ROOT.parent / "shared" / "xsd-real"))).resolve()
RESULTS = Path(os.environ.get("BENCH_RESULTS", str(ROOT / "target" / "bench-validators.json")))
MB = float(os.environ.get("BENCH_MB", "4" if QUICK else "40"))
CG_MB = float(os.environ.get("BENCH_CG_MB", "3"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "1" if QUICK else "3"))
CIF_MB = 10
CBF_COUNT = 1000
SEED = 32  # gen-real's default; the CIF and CBF inputs keep their generators' defaults
CODEGEN = REL / "boardxml-codegen"
BOARDXML = REL / "boardxml"

# The four sets: the unit the document repeats and the depth xmlschema's lazy resource
# iterates at (the group: a track, a folder, a file, a measure).
SETS = [
    dict(id="gpx11", label="GPX 1.1: track points", lazy=1),
    dict(id="kml22", label="KML 2.2: placemarks", lazy=2),
    dict(id="xliff12", label="XLIFF 1.2: trans-units", lazy=1),
    dict(id="musicxml40", label="MusicXML 4.0: measures", lazy=2),
]

notes = []


def manifest():
    """set -> (main schema, [(URL, local path)]) from the manifest's first valid row."""
    out = {}
    lines = (XSD_REAL / "manifest.tsv").read_text().splitlines()[1:]
    for line in lines:
        f = line.split("\t")
        if len(f) < 4 or f[3] != "valid" or f[0] in out:
            continue
        pairs = [p.split("=", 1) for p in (f[5] if len(f) > 5 else "").split(";") if p]
        out[f[0]] = (XSD_REAL / f[1], [(u, XSD_REAL / p) for u, p in pairs])
    return out


def write_catalog(path, pairs):
    """An OASIS XML Catalog mapping each URL to its local copy (never the network)."""
    xml = ['<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">']
    for url, file in pairs:
        xml.append(f'  <system systemId="{url}" uri="{file}"/>')
        xml.append(f'  <uri name="{url}" uri="{file}"/>')
    xml.append("</catalog>")
    path.write_text("\n".join(xml) + "\n")


def build():
    log("building (release): boardxml, boardxml-codegen, benches' generators")
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "boardxml-cli", "-p",
                    "boardxml-codegen"], cwd=ROOT, check=True)
    subprocess.run(["cargo", "build", "--release", "-q", "--manifest-path", bench.BENCH_MANIFEST,
                    "--bin", "gen-real", "--bin", "gen-cif", "--bin", "gen-cbf", "--bin",
                    "inproc"], cwd=ROOT, check=True)


def build_validator(s):
    """Generates and builds the set's validator; returns its binary (a copy: the validators
    share one target folder, where each build writes release/validate)."""
    pkg = WORK / "validators" / s["id"]
    cmd = [CODEGEN, "validator", "--out", pkg, "--runtime", ROOT]
    if s["catalog_pairs"]:
        cmd += ["--catalog", s["catalog"]]
    log(f"validator for {s['id']}: generate and build (release)")
    subprocess.run([str(c) for c in cmd + [s["main"]]], check=True, capture_output=True)
    shutil.copy(ROOT / "Cargo.lock", pkg / "Cargo.lock")
    target = TARGET / "validators"
    subprocess.run(["cargo", "build", "--release", "-q", "--manifest-path", pkg / "Cargo.toml"],
                   env=dict(os.environ, CARGO_TARGET_DIR=str(target)), check=True)
    exe = WORK / "bin" / f"validate-{s['id']}"
    exe.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(target / "release" / "validate", exe)
    return exe


def generate(s, mb, name):
    out = WORK / name
    p = subprocess.run([REL / "gen-real", "--set", s["id"], "--xsd-real", XSD_REAL, "--mb",
                        str(mb), "--seed", str(SEED), out], check=True, text=True,
                       capture_output=True)
    return out, p.stderr.strip().split(": ", 1)[1]


def folder_bytes(d):
    return sum(p.stat().st_size for p in d.rglob("*.cbf"))


# ---------------------------------------------------------------------------------------------

def instructions(cmd, env=None):
    """Instructions executed by cmd (valgrind callgrind's total), or None without valgrind."""
    if not shutil.which("valgrind"):
        return None
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
                       + [str(c) for c in cmd], env=dict(os.environ, **(env or {})),
                       text=True, capture_output=True, errors="replace")
    m = re.search(r"Collected\s*:\s*(\d+)", p.stderr)
    if not m:
        raise RuntimeError(f"callgrind gave no total for {cmd}: {p.stderr[-1500:]}")
    return int(m.group(1))


def cpu(r):
    return r["user"] + r["sys"]


def measured(cmd, env=None):
    """Runs cmd to its end: dict(user, sys, wall, rss_kb, code, out, err). CPU time is the
    kernel's rusage of the process (wait4, to the microsecond: a thousand CBF records take a
    tenth of a second, GNU time prints hundredths); peak RSS is GNU time's %M, which sees
    the command alone (a child of Python would carry Python's own peak across its exec)."""
    out, err, tf = WORK / "stdout.txt", WORK / "stderr.txt", WORK / "rss.txt"
    with open(out, "w") as o, open(err, "w") as e:
        t = time.perf_counter()
        p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", str(tf)] + [str(c) for c in cmd],
                             env=dict(os.environ, **(env or {})), stdout=o, stderr=e)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    return dict(user=usage.ru_utime, sys=usage.ru_stime, wall=wall,
                rss_kb=int(tf.read_text().split()[-1]), code=p.returncode,
                out=out.read_text(errors="replace"), err=err.read_text(errors="replace"))


def pairs(ours, peers, check, rounds=None):
    """Runs ours and each peer alternately (ROUNDS times): {name: median result, peak RSS
    the largest}; `check(name, result)` judges each run's verdict."""
    rounds = rounds or ROUNDS
    runs = {"ours": [], "xmllint": []}
    for r in range(rounds):
        log(f"  pair {r + 1}/{rounds}")
        for name, cmds in (("ours", [ours]), ("xmllint", peers)):
            parts = [measured(cmd, env) for cmd, env in cmds]
            for part in parts:
                check(name, part)
            runs[name].append(dict(
                user=sum(p["user"] for p in parts), sys=sum(p["sys"] for p in parts),
                wall=sum(p["wall"] for p in parts), rss_kb=max(p["rss_kb"] for p in parts)))
    out = {}
    for name, rs in runs.items():
        out[name] = dict(
            cpu=statistics.median(cpu(x) for x in rs),
            wall=statistics.median(x["wall"] for x in rs),
            rss_kb=max(x["rss_kb"] for x in rs),
            cpus=[round(cpu(x), 4) for x in rs],
        )
    return out


def valid_ours(name, r):
    if name == "ours" and r["code"] != 0:
        raise RuntimeError(f"the validator rejects the benchmark document: {r['out'][-800:]} {r['err'][-800:]}")
    if name == "xmllint" and r["code"] != 0:
        raise RuntimeError(f"xmllint rejects the benchmark document: {r['err'][-800:]}")


XMLSCHEMA = r"""
import json, re, sys, xmlschema
args = json.loads(sys.argv[1])
cls = getattr(xmlschema, args["class"])
schemas, n, invalid, first = {}, 0, 0, None
for schema, doc in args["pairs"]:
    if schema not in schemas:
        schemas[schema] = cls(schema, uri_mapper=args["catalog"] or None)
    if args["lazy"]:
        source = xmlschema.XMLResource(doc, lazy=args["lazy"])
    else:
        data = open(doc, "rb").read()
        head = re.match(rb'<\?xml[^>]*encoding="([^"]+)"', data)
        # expat reads no multi-byte encoding but UTF-8 and UTF-16: Python decodes a GBK
        # record first (a str is parsed as it stands).
        enc = head.group(1).decode() if head else "utf-8"
        source = data.decode(enc) if enc.lower() not in ("utf-8", "utf8") else doc
    error = next(iter(schemas[schema].iter_errors(source)), None)
    n += 1
    if error is not None:
        invalid += 1
        first = first or f"{doc}: {error.reason}"
print(json.dumps(dict(n=n, invalid=invalid, first=first)))
"""


def xmlschema_run(cls, pairs_, lazy, catalog):
    if os.environ.get("BENCH_SKIP_XMLSCHEMA") == "1":
        return None
    arg = json.dumps({"class": cls, "pairs": [[str(s), str(d)] for s, d in pairs_],
                      "lazy": lazy, "catalog": {u: str(p) for u, p in catalog}})
    r = measured([sys.executable, "-c", XMLSCHEMA, arg])
    if r["code"] != 0:
        raise RuntimeError(f"xmlschema failed: {r['err'][-1500:]}")
    verdict = json.loads(r["out"])
    return dict(cpu=cpu(r), wall=r["wall"], rss_kb=r["rss_kb"], n=verdict["n"],
                invalid=verdict["invalid"], first=verdict["first"])


def load():
    return " ".join(open("/proc/loadavg").read().split()[:3])


# ---------------------------------------------------------------------------------------------

def measure_set(s):
    log(f"{s['id']}: generating {MB:g} MB and {CG_MB:g} MB documents")
    big, big_desc = generate(s, MB, f"{s['id']}-{MB:g}mb.xml")
    small, small_desc = generate(s, CG_MB, f"{s['id']}-{CG_MB:g}mb.xml")
    exe = s["exe"]
    name = s["main"].stem
    env = {"XML_CATALOG_FILES": str(s["catalog"])}
    lint = ["xmllint", "--noout", "--nonet", "--stream", "--schema", s["main"]]
    row = dict(label=s["label"], bytes=big.stat().st_size, desc=big_desc,
               cg_bytes=small.stat().st_size, cg_desc=small_desc, load=load())
    log(f"{s['id']}: callgrind on {small.name}")
    row["ins"] = instructions([exe, "--schema", name, small])
    row["xmllint_ins"] = instructions(lint + [small], env)
    log(f"{s['id']}: validator and xmllint in alternating pairs on {big.name}")
    row.update(pairs(([exe, "--schema", name, big], None), [(lint + [big], env)], valid_ours))
    log(f"{s['id']}: xmlschema, lazy (depth {s['lazy']}), once")
    row["xmlschema"] = xmlschema_run("XMLSchema10", [(s["main"], big)], s["lazy"],
                                     s["catalog_pairs"])
    return row


def measure_cif():
    cif = WORK / f"cif-{CIF_MB}mb.cif"
    small = WORK / f"cif-{CG_MB:g}mb.cif"
    log("CIF: generating")
    for mb, f in ((CIF_MB, cif), (CG_MB, small)):
        subprocess.run([REL / "gen-cif", "--mb", str(mb), f], check=True, capture_output=True)
    xsd10 = bench.XSD10
    lint = ["xmllint", "--noout", "--nonet", "--stream", "--schema", xsd10]
    row = dict(label=f"CIF (`gen-cif --mb {CIF_MB}`), full validation", bytes=cif.stat().st_size,
               cg_bytes=small.stat().st_size, load=load(),
               desc="the XSD 1.0 variant for xmllint, cif.xsd (XSD 1.1) for xmlschema")
    log("CIF: callgrind")
    one = {"RAYON_NUM_THREADS": "1"}
    row["ins"] = instructions([BOARDXML, "validate", small], one)
    row["xmllint_ins"] = instructions(lint + [small])
    log("CIF: boardxml validate and xmllint in alternating pairs")
    row.update(pairs(([BOARDXML, "validate", cif], None), [(lint + [cif], None)], valid_ours))
    log("CIF: xmlschema XMLSchema11, lazy, once")
    row["xmlschema"] = xmlschema_run("XMLSchema11", [(bench.CIF_XSD, cif)], 1, [])
    return row


def measure_cbf():
    cbf = WORK / f"cbf-{CBF_COUNT}"
    shutil.rmtree(cbf, ignore_errors=True)
    log("CBF: generating")
    subprocess.run([REL / "gen-cbf", "--count", str(CBF_COUNT), cbf], check=True,
                   capture_output=True)
    files = {d: sorted(str(p) for p in (cbf / d).glob("*.cbf")) for d in ("2007", "1.0")}
    lint = {d: (["xmllint", "--noout", "--nonet", "--stream", "--schema",
                 ROOT / "schemas" / f"cbf-{d}.xsd"] + files[d], None) for d in files}
    row = dict(label=f"CBF, {CBF_COUNT:,} records (`gen-cbf --count {CBF_COUNT}`), full validation",
               bytes=folder_bytes(cbf), load=load(),
               desc="xmllint: one process per dialect (times summed)")
    row["cg_bytes"] = row["bytes"]
    log("CBF: callgrind (one thread)")
    row["ins"] = instructions([BOARDXML, "validate", cbf], {"RAYON_NUM_THREADS": "1"})
    xi = [instructions(cmd) for cmd, _ in lint.values()]
    row["xmllint_ins"] = None if None in xi else sum(xi)
    log("CBF: boardxml validate (2 threads) and xmllint in alternating pairs")
    # A tenth of a second each: more pairs, for a steadier median.
    row.update(pairs(([BOARDXML, "validate", cbf], None), list(lint.values()), valid_ours,
                     rounds=3 * ROUNDS))
    log("CBF: xmlschema, once")
    pairs_ = [(ROOT / "schemas" / f"cbf-{d}.xsd", f) for d in files for f in files[d]]
    row["xmlschema"] = xmlschema_run("XMLSchema10", pairs_, 0, [])
    return row


# The rows of BENCHMARKS.md's issue 12 tables, with their commands (one thread).
EARLIER = [
    ("1 MB CIF, `inproc --once schema-only`", "inproc", ["--once", "schema-only"], "cif1"),
    ("1 MB CIF, `inproc --once full`", "inproc", ["--once", "full"], "cif1"),
    ("1 MB CIF, `boardxml validate --schema-only`", "boardxml", ["validate", "--schema-only"], "cif1"),
    ("1 MB CIF, `boardxml validate`", "boardxml", ["validate"], "cif1"),
    ("1,000 CBF, `boardxml validate --schema-only`", "boardxml", ["validate", "--schema-only"], "cbf"),
    ("1,000 CBF, `boardxml validate`", "boardxml", ["validate"], "cbf"),
]


def measure_earlier():
    if QUICK or not shutil.which("valgrind"):
        notes.append("BENCHMARKS.md's earlier instruction counts: not measured (BENCH_QUICK or no valgrind)")
        return {}
    cif1 = WORK / "cif-1mb.cif"
    subprocess.run([REL / "gen-cif", "--mb", "1", cif1], check=True, capture_output=True)
    inputs = {"cif1": cif1, "cbf": WORK / f"cbf-{CBF_COUNT}"}
    out = {}
    for label, exe, args, what in EARLIER:
        log(f"callgrind: {label}")
        out[label] = instructions([REL / exe] + args + [inputs[what]], {"RAYON_NUM_THREADS": "1"})
    return out


# ---------------------------------------------------------------------------------------------

# What the benchmarks measure: a commit that changes none of these (bench code, documents)
# measures the same code as its parent.
MEASURED = ["src", "formats", "cli", "generated", "xiangqi", "xsd-regex", "codegen/src",
            "Cargo.toml", "Cargo.lock"]


def commit():
    """(HEAD, the last commit that changed what is measured)."""
    head = sh(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT).strip()
    code = sh(["git", "log", "-1", "--format=%h", "--abbrev=12", "--"] + MEASURED, cwd=ROOT).strip()
    return head, code


BEGIN = "<!-- bench-validators:begin (generated by scripts/bench.sh validators; do not edit by hand) -->"
END = "<!-- bench-validators:end -->"
DATA = "<!-- bench-validators:data "
HEADING = "## Issue 32: generated validators against xmllint on real schemas"


def recorded():
    """The runs recorded so far: the JSON file, else the copy embedded in BENCHMARKS.md."""
    if RESULTS.exists():
        return json.loads(RESULTS.read_text())
    md = (ROOT / "BENCHMARKS.md").read_text()
    if DATA in md:
        return json.loads(md.split(DATA, 1)[1].split(" -->", 1)[0])
    return {"runs": {}}


def role(runs, run):
    forced = os.environ.get("BENCH_ROLE")
    if forced:
        if forced not in ("before", "after"):
            raise SystemExit(f"BENCH_ROLE={forced}: before or after")
        return forced
    before = runs.get("before")
    if before is None or before["code"] == run["code"]:
        return "before"
    return "after"


def ratio(a, b):
    return f"{a / b:.2f}×" if a and b else "—"


def fmt_cpu(s):
    return "—" if s is None else (f"{s * 1000:.0f} ms" if s < 10 else f"{s:.1f} s")


def fmt_mb(kb):
    return "—" if kb is None else f"{kb / 1024:.1f} MB"


def per_byte(row):
    return row["ins"] / row["cg_bytes"] if row.get("ins") else None


def fmt_pb(x):
    return "—" if x is None else f"{x:.0f}"


def xmlschema_cpu(row):
    x = row.get("xmlschema")
    return x["cpu"] if x else None


def report(data):
    runs = data["runs"]
    before, after = runs.get("before"), runs.get("after")
    latest = after or before
    L = []
    w = L.append

    def both(f, row_id):
        b = f(before["rows"][row_id]) if before and row_id in before["rows"] else None
        a = f(after["rows"][row_id]) if after and row_id in after["rows"] else None
        return b, a

    def describe(name, run):
        w(f"- **{name}**: the code of commit `{run['code']}` (the last to change what is "
          f"measured; run from `{run['commit']}`, {run['state']}), run {run['date']}; "
          f"load average {run['load_start']} at the start, {run['load_end']} at the end, on "
          f"{run['machine']['nproc']} cores (CPU `{run['machine']['cpu']}`); "
          f"{run['machine']['rustc']}; {run['machine']['xmllint']}; xmlschema "
          f"{run['machine']['xmlschema']}. Documents of {run['config']['mb']:g} MB, callgrind "
          f"on {run['config']['cg_mb']:g} MB, {run['config']['rounds']} pair(s).")

    describe("before", before)
    if after:
        describe("after", after)
    else:
        w("- **after**: not measured yet (run `scripts/bench.sh validators` again on a later "
          "commit: it fills the after columns and keeps these).")
    w("")
    w("| document | bytes | instructions / byte, before | after | xmllint ÷ ours (CPU), before | after "
      "| xmlschema lazy ÷ ours (CPU) | peak RSS (ours), before | after |")
    w("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row_id, row in latest["rows"].items():
        ipb = both(per_byte, row_id)
        speed = both(lambda r: r["xmllint"]["cpu"] / r["ours"]["cpu"], row_id)
        rss = both(lambda r: r["ours"]["rss_kb"], row_id)
        xs = latest["rows"][row_id].get("xmlschema")
        xs_ratio = ratio(xs["cpu"], latest["rows"][row_id]["ours"]["cpu"]) if xs else "—"
        w(f"| {row['label']} | {row['bytes']:,} | {fmt_pb(ipb[0])} | {fmt_pb(ipb[1])} | "
          + " | ".join("—" if x is None else f"{x:.2f}×" for x in speed)
          + f" | {xs_ratio} | {fmt_mb(rss[0])} | {fmt_mb(rss[1])} |")
    w("")
    for name, run in (("before", before), ("after", after)):
        if not run:
            continue
        w(f"Figures of the {name} run (CPU: median of the pairs; RSS: the largest; xmlschema "
          "once; instructions per byte on the callgrind document):")
        w("")
        w("| document | ours: CPU | RSS | instr./byte | xmllint: CPU | RSS | instr./byte "
          "| xmlschema lazy: CPU | RSS | load at start |")
        w("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for row_id, r in run["rows"].items():
            xs = r.get("xmlschema")
            xl_pb = r["xmllint_ins"] / r["cg_bytes"] if r.get("xmllint_ins") else None
            w(f"| {r['label']} | {fmt_cpu(r['ours']['cpu'])} | {fmt_mb(r['ours']['rss_kb'])} | "
              f"{fmt_pb(per_byte(r))} | {fmt_cpu(r['xmllint']['cpu'])} | "
              f"{fmt_mb(r['xmllint']['rss_kb'])} | {fmt_pb(xl_pb)} | "
              f"{fmt_cpu(xs['cpu']) if xs else '—'} | {fmt_mb(xs['rss_kb']) if xs else '—'} | "
              f"{r['load']} |")
        w("")
        verdicts = [f"{r['label']}: {r['xmlschema']['first']} ({r['xmlschema']['invalid']} of "
                    f"{r['xmlschema']['n']})" for r in run["rows"].values()
                    if r.get("xmlschema") and r["xmlschema"]["invalid"]]
        if verdicts:
            w("xmlschema judged invalid: " + "; ".join(verdicts))
            w("")
        w("Documents: " + "; ".join(f"{r['label']}: {r['desc']}" for r in run["rows"].values()) + ".")
        w("")
        if run.get("notes"):
            w("Notes: " + " ".join(run["notes"]))
            w("")
    # Targets, on the latest run
    w(f"Targets of issue 32, on the {'after' if after else 'before'} run:")
    w("")
    w("| target | figure | verdict |")
    w("|---|---|---|")
    rows = latest["rows"]
    for s in SETS:
        r = rows.get(s["id"])
        if not r:
            continue
        sp = r["xmllint"]["cpu"] / r["ours"]["cpu"]
        pb = per_byte(r)
        w(f"| {r['label']}: ≥ 3× xmllint, ≤ 40 instructions a byte | {sp:.2f}×, "
          f"{fmt_pb(pb)} a byte | {bench.verdict(sp >= 3)}, "
          f"{bench.verdict(pb is not None and pb <= 40)} |")
    ours_rss = [(r["label"], r["ours"]["rss_kb"]) for k, r in rows.items() if k in {s["id"] for s in SETS}]
    if ours_rss:
        worst = max(ours_rss, key=lambda x: x[1])
        w(f"| peak RSS of the generated validators ≤ 16 MB | largest {fmt_mb(worst[1])} "
          f"({worst[0]}) | {bench.verdict(worst[1] <= 16 * 1024)} |")
    for row_id, goal in (("cif", 3), ("cbf", 5)):
        if row_id in rows:
            r = rows[row_id]
            sp = r["xmllint"]["cpu"] / r["ours"]["cpu"]
            w(f"| {r['label']}: ≥ {goal}× xmllint | {sp:.2f}× (CPU) | {bench.verdict(sp >= goal)} |")
    w("")
    # Earlier rows
    eb = (before or {}).get("earlier") or {}
    ea = (after or {}).get("earlier") or {}
    if eb or ea:
        w("BENCHMARKS.md's earlier instruction counts (issue 12's rows and commands, one thread; "
          "target: none worse):")
        w("")
        w("| input, command | before | after | change |")
        w("|---|---:|---:|---:|")
        for label, *_ in EARLIER:
            b, a = eb.get(label), ea.get(label)
            change = f"{(a - b) / b * 100:+.1f}%" if a and b else "—"
            w(f"| {label} | {f'{b:,}' if b else '—'} | {f'{a:,}' if a else '—'} | {change} |")
        w("")
    w(f"{DATA}{json.dumps(data, separators=(',', ':'))} -->")
    return "\n".join(L)


INTRO = """\
Four sets of `../shared/xsd-real`, each with the validator `boardxml-codegen validator`
generates for its main schema (a release build, with the set's catalog), on a large document
that `benches`' `gen-real` builds from the set's own valid documents (deterministic; written
under `$BENCH_DIR`, never committed): GPX track points in tracks of 12,000, KML placemarks in
folders of 1,000, XLIFF trans-units in files of 1,000 (their ids are a key of the file),
MusicXML measures in one part (see `benches/src/bin/gen-real.rs`). Peers, on the same files:
`xmllint --noout --nonet --stream --schema MAIN DOC` (libxml2; the catalog through
`XML_CATALOG_FILES`), run alternately with the validator, and Python xmlschema's lazy
validation (`XMLResource(doc, lazy=DEPTH)`, DEPTH the level of the repeated group), once,
for the record. The CIF and CBF rows: `boardxml validate` (with the rules; CBF on 2 threads,
its CPU time summed) against xmllint on the schemas of BENCHMARKS.md's earlier sections.
Ratios are CPU time (user + sys), which other jobs on the machine disturb less than wall
time; instruction counts (valgrind callgrind, one thread) they do not disturb at all.
Callgrind runs on a smaller document of the same shape (over 2 MiB, so that it is streamed
as the large one is; a smaller file is read whole, another path) and the count is divided
by its size; the whole process is counted (start-up and, for xmllint, compiling the schema).

Command (from the workspace root; installs nothing, says what is missing), and what it runs:

```
CARGO_TARGET_DIR=/work/target-bench scripts/bench.sh validators
# per set, in $BENCH_DIR/validators:
boardxml-codegen validator --out validators/SET --runtime . [--catalog catalog-SET.xml] MAIN.xsd
cargo build --release --manifest-path validators/SET/Cargo.toml    # bin/validate-SET
gen-real --set SET --xsd-real ../shared/xsd-real --mb 40 --seed 32 SET-40mb.xml   # and --mb 3
valgrind --tool=callgrind --callgrind-out-file=/dev/null bin/validate-SET --schema MAIN SET-3mb.xml
XML_CATALOG_FILES=catalog-SET.xml valgrind --tool=callgrind --callgrind-out-file=/dev/null xmllint --noout --nonet --stream --schema MAIN.xsd SET-3mb.xml
# timed (user + sys CPU: the process's rusage, as GNU time's %U %S; peak RSS: GNU time's %M):
bin/validate-SET --schema MAIN SET-40mb.xml                           # 3 times, alternately with:
XML_CATALOG_FILES=catalog-SET.xml xmllint --noout --nonet --stream --schema MAIN.xsd SET-40mb.xml
python3 -c '...XMLSchema10(MAIN, uri_mapper=CATALOG).iter_errors(XMLResource(DOC, lazy=DEPTH))...'   # once
# CIF and CBF:
gen-cif --mb 10 cif-10mb.cif; gen-cif --mb 3 cif-3mb.cif; gen-cbf --count 1000 cbf-1000
RAYON_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null boardxml validate {cif-3mb.cif|cbf-1000}
boardxml validate {cif-10mb.cif|cbf-1000}             # timed, 3 (CBF: 9) times, alternately with:
xmllint --noout --nonet --stream --schema benches/schemas/cif-xsd10.xsd cif-10mb.cif
xmllint --noout --nonet --stream --schema schemas/cbf-{2007|1.0}.xsd cbf-1000/{2007|1.0}/*.cbf
python3 -c '...XMLSchema11(cif.xsd).iter_errors(XMLResource(cif-10mb.cif, lazy=1))...'      # once
python3 -c '...XMLSchema10(cbf-DIALECT.xsd).iter_errors(RECORD)... for each record'      # once
```

The script keeps both runs in `target/bench-validators.json` (and in the comment at the end
of this section): the first run, or a run of the same code (the last commit that changed
what is measured), is "before"; a run of later code is "after" and fills the after columns
(`BENCH_ROLE=before|after` to say otherwise).
"""


def main():
    t0 = time.time()
    WORK.mkdir(parents=True, exist_ok=True)
    bench.WORK.mkdir(parents=True, exist_ok=True)
    load_start = load()
    m = bench.machine()
    build()
    head, code = commit()
    run = dict(commit=head, code=code, state=bench.git_state(),
               date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), load_start=load_start,
               machine=m, config=dict(mb=MB, cg_mb=CG_MB, rounds=ROUNDS, seed=SEED), rows={},
               notes=notes)
    sets = manifest()
    for s in SETS:
        s["main"], s["catalog_pairs"] = sets[s["id"]]
        s["catalog"] = WORK / f"catalog-{s['id']}.xml"
        write_catalog(s["catalog"], s["catalog_pairs"])
        s["exe"] = build_validator(s)
    for s in SETS:
        run["rows"][s["id"]] = measure_set(s)
    run["rows"]["cif"] = measure_cif()
    run["rows"]["cbf"] = measure_cbf()
    run["earlier"] = measure_earlier()
    run["load_end"] = load()
    notes.append(f"Total run time {(time.time() - t0) / 60:.1f} min.")
    data = recorded()
    which = role(data["runs"], run)
    data["runs"][which] = run
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(data, indent=1))
    log(f"recorded as the {which} run in {RESULTS}")
    text = report(data)
    print(text)
    if os.environ.get("BENCH_NO_WRITE") != "1":
        bench.write_benchmarks_md(text, BEGIN, END, HEADING, INTRO)
        log("BENCHMARKS.md updated")


if __name__ == "__main__":
    main()
