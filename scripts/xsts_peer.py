#!/usr/bin/env python3
"""The W3C XSD suite scored side by side with the Rust peer, xsd-schema (issue 33).

Reads the per-test output of the peer's own driver (`cargo test --test conformance
--features xsd11 --release -- --test-suite DIR --version V --verbose`, run by
scripts/xsts-peer.sh) and our known-failure files, and prints a Markdown section for
CONFORMANCE.md: the peer's totals as its driver counts them, and ours on exactly the
tests the peer runs.

    scripts/xsts_peer.py --suite DIR --known DIR --check BIN --peer-1.0 FILE
                         --peer-1.1 FILE [--tokens FILE] [--peer-version 0.3.0]
                         [--command TEXT] [--out FILE]

The peer prints only a test's name, not its test set or group, and names repeat across
the suite; so its selection is rebuilt here from the manifests, in its order, by the
rules of its tests/conformance/driver.rs (`parse_xml_manifest`, `expand_test_versions`),
and matched to its output line by line: every name must agree, or the script stops.
Ours is rebuilt by the rules of codegen/tests/xsts.rs and xsts_instances.rs (`load`,
`common::suite` tokens): a test of our universe not in a known-failure file is right,
except that our XSD 1.0 instance score leaves out the tests on a schema `check` rejects
(outside the datatype sets), which BIN (boardxml-codegen) is asked about.
"""
import argparse
import datetime
import os
import re
import subprocess
import sys
import xml.parsers.expat
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict

# Our editions' version tokens, read from the harness that wrote the known failures
# (--tokens, codegen/tests/common/suite.rs: XSD_1_0 and XSD_1_1), as they change with it.
TOKENS = {}
# Our known-failure files, by (version, kind).
KNOWN = {
    ("1.0", "schema"): "xsts-known-failures.txt",
    ("1.0", "instance"): "xsts-instance-known-failures.txt",
    ("1.1", "schema"): "xsts-1.1-known-failures.txt",
    ("1.1", "instance"): "xsts-1.1-instance-known-failures.txt",
}
# XSD 1.0's instance score counts only the tests on a schema `check` accepts, and every
# test of these sets (xsts_instances.rs, DATATYPE_SETS); the 1.1 one counts every test.
DATATYPE_SETS = {
    "msMeta/DataTypes_w3c.xml", "msMeta/SimpleType_w3c.xml", "sunMeta/SType.testSet",
    "boeingMeta/BoeingXSDTestSet.testSet", "ibmMeta/date.testSet", "ibmMeta/double.testSet",
    "ibmMeta/float.testSet", "ibmMeta/gDay.testSet", "ibmMeta/gMonth.testSet",
    "ibmMeta/gMonthDay.testSet", "ibmMeta/gYear.testSet", "ibmMeta/gYearMonth.testSet",
    "ibmMeta/time.testSet", "ibmMeta/unsignedInteger.testSet", "saxonMeta/Simple.testSet",
}
PEER_VERSIONS = {"1.0", "1.1"}
PEER_PROFILE, PEER_UNSUPPORTED = "full-xpath-in-CTA", {"restricted-xpath-in-CTA"}
EXAMPLES = 15
UNSCORED = ("on a schema `check` does not accept: our XSD 1.0 instance score leaves it out "
            "(the group's schema test is scored)")


def local(name):
    return name.rsplit("}", 1)[-1]


def attr(e, name):
    """An attribute by local name (xlink:href is `href`), as both harnesses read it."""
    return next((v for k, v in e.attrib.items() if local(k) == name), None)


def children(e, name):
    return [c for c in e if local(c.tag) == name]


def test_sets(root):
    """suite.xml's testSetRef hrefs, in order, and the testSuite's own version."""
    suite = ET.parse(os.path.join(root, "suite.xml")).getroot()
    return [attr(r, "href") for r in children(suite, "testSetRef")], attr(suite, "version")


def read_tests(root):
    """Every schemaTest and instanceTest of the suite, in manifest order, with what both
    harnesses decide by. A missing test set (the NIST one: not in the archive) is left out
    by both."""
    hrefs, suite_version = test_sets(root)
    tests = []
    for href in hrefs:
        path = os.path.join(root, href)
        if not os.path.exists(path):
            continue
        ts = ET.parse(path).getroot()
        # The peer lets a test set without a version inherit the suite's; ours does not.
        set_version = attr(ts, "version")
        for g in children(ts, "testGroup"):
            for t in g:
                kind = {"schemaTest": "schema", "instanceTest": "instance"}.get(local(t.tag))
                if not kind:
                    continue
                docs = children(t, "schemaDocument" if kind == "schema" else "instanceDocument")
                tests.append({
                    "href": href, "set": attr(ts, "name"), "group": attr(g, "name"),
                    "name": attr(t, "name"), "kind": kind, "has_docs": bool(docs),
                    "docs": [os.path.join(os.path.dirname(path), attr(d, "href"))
                             for d in docs],
                    "versions": (attr(t, "version"), attr(g, "version"), set_version),
                    "peer_versions": (attr(t, "version"), attr(g, "version"),
                                      set_version or suite_version),
                    "expected": [(attr(x, "validity"), attr(x, "version"))
                                 for x in children(t, "expected") if attr(x, "validity")],
                })
    return tests


def xsd_tokens(v):
    return [t for t in (v or "").split() if t in PEER_VERSIONS]


def peer_runs(t):
    """{XSD version: the expected validity it is held to} of the runs the peer makes of a
    test (driver.rs, `expand_test_versions`, `resolve_expected_for_version`)."""
    if not t["has_docs"]:
        return {}  # a schemaTest without documents, an instanceTest without one: dropped
    # The most specific version attribute present is the label; the most specific one
    # naming an XSD version gives the version when the label names none (default 1.0).
    label = next((v for v in t["peer_versions"] if v is not None), "1.0")
    resolved = next((xsd_tokens(v) for v in t["peer_versions"] if xsd_tokens(v)), ["1.0"])
    versions = xsd_tokens(label) or resolved[:1]
    profiles = []
    for _, v in t["expected"]:
        if v in PEER_VERSIONS:
            versions += [v] if v not in versions else []
        elif v is not None and v not in profiles:
            profiles.append(v)
    # With profile-keyed results, the peer runs only its profile's (or any supported
    # one's); a test whose only profile is restricted XPath is not run at all.
    if profiles:
        label = PEER_PROFILE if PEER_PROFILE in profiles else next(
            (p for p in profiles if p not in PEER_UNSUPPORTED), None)
        if label is None:
            return {}

    def given(version):
        return next((val for val, v in t["expected"] if v == version), None)
    # Its expected result: the one for the version, else the label's, else the unversioned
    # one, else the first; valid when there is none.
    first = t["expected"][0][0] if t["expected"] else "valid"
    return {v: given(v) or (label != v and given(label)) or given(None) or first
            for v in versions}


def our_expected(t, version):
    """The expected results that apply to our edition (all of an `expected`'s tokens)."""
    tokens = TOKENS[version]
    return [val for val, v in t["expected"]
            if v is None or all(tok in tokens for tok in v.split())]


def our_verdict(t, version, known):
    """('right'|'wrong', reason) for a test of our universe, else ('outside', why)."""
    names = ("test", "group", "test set")
    for level, v in zip(names, t["versions"]):
        if v is not None and not any(tok in TOKENS[version] for tok in v.split()):
            return "outside", f"the {level}'s version \"{v}\" names no configuration of ours"
    expected = our_expected(t, version)
    if len(expected) != 1:
        shown = ", ".join(f"{val}@{v}" for val, v in t["expected"]) or "none"
        return "outside", f"{len(expected)} expected results apply to us ({shown})"
    if expected[0] not in ("valid", "invalid"):
        return "outside", f"expected \"{expected[0]}\": not scored"
    tid = f"{t['set']}/{t['group']}/{t['name']}"
    listed = known[(version, t["kind"])].get(tid)
    return ("wrong", listed) if listed is not None else ("right", None)


def read_tokens(path):
    text = open(path, encoding="utf-8").read()
    for version, const in (("1.0", "XSD_1_0"), ("1.1", "XSD_1_1")):
        m = re.search(const + r": Tokens = Tokens\(&\[(.*?)\]\)", text, re.S)
        if not m:
            sys.exit(f"xsts_peer: {path} does not define {const} as expected")
        TOKENS[version] = set(re.findall(r'"([^"]+)"', m[1]))


def root_attributes(doc):
    """The root element's attributes by local name (None: unreadable), as xsts_instances.rs
    reads a document's schema location hints."""
    found = []

    def start(name, attrs):
        found.append({k.rsplit(":", 1)[-1]: v for k, v in attrs.items()})
        raise StopIteration

    p = xml.parsers.expat.ParserCreate()
    p.StartElementHandler = start
    try:
        with open(doc, "rb") as f:
            p.Parse(f.read(), True)
    except (StopIteration, xml.parsers.expat.ExpatError, OSError):
        pass
    return found[0] if found else None


def hinted_documents(doc):
    """Every schema document the root's hints name that exists (`hinted_documents`)."""
    a, folder = root_attributes(doc) or {}, os.path.dirname(doc)
    found = [a["noNamespaceSchemaLocation"].strip()] if "noNamespaceSchemaLocation" in a else []
    found += a.get("schemaLocation", "").split()[1::2]
    return [os.path.join(folder, p) for p in found if os.path.isfile(os.path.join(folder, p))]


def hinted_schema(docs):
    """The schema of a group without a schema test (`hinted_schema`): the one document all
    its instances name; [] for built-ins only (no hint at all); None: not accepted."""
    def hint(doc):
        a = root_attributes(doc) or {}
        nons, pairs = a.get("noNamespaceSchemaLocation"), a.get("schemaLocation")
        if nons is not None and pairs is None:
            return os.path.join(os.path.dirname(doc), nons.strip())
        if nons is None and pairs is not None and len(pairs.split()) == 2:
            return os.path.join(os.path.dirname(doc), pairs.split()[1])
        return None
    hints = {hint(d) for d in docs}
    if len(hints) == 1 and None not in hints and os.path.isfile(next(iter(hints))):
        return list(hints)
    if hints == {None} and all(root_attributes(d) is not None and "schemaLocation" not in
                               root_attributes(d) and "noNamespaceSchemaLocation" not in
                               root_attributes(d) for d in docs):
        return []
    return None


def not_accepted_1_0(tests, known, check):
    """The XSD 1.0 instance tests of our universe on a schema `check --xsd-version 1.0`
    does not accept, outside the datatype sets: our 1.0 instance score leaves them out
    (the schema test is scored instead), so they are in no known-failure file. Which
    schema a group has follows xsts_instances.rs (`load`, `split_by_hints`, `run`)."""
    cache = {}

    def ok(schemas):
        key = tuple(schemas)
        if key not in cache:
            cache[key] = not schemas or subprocess.run(
                [check, "check", "--xsd-version", "1.0", *schemas],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
        return cache[key]

    groups = defaultdict(lambda: ([], []))  # (schema documents, scored instance tests)
    for t in tests:
        key = (t["href"], t["group"])
        if t["kind"] == "schema":
            groups[key][0].extend(t["docs"])
        elif our_verdict(t, "1.0", known)[0] != "outside" and t["href"] not in DATATYPE_SETS:
            groups[key][1].append(t)
    out = set()
    for schemas, members in groups.values():
        if not members:
            continue
        if not schemas:
            hinted = hinted_schema([t["docs"][0] for t in members])
            if hinted is None or not ok(hinted):
                out.update(tid(t) for t in members)
            continue
        listed = {os.path.realpath(p) for p in schemas}
        for t in members:
            extra = sorted({os.path.realpath(p) for p in hinted_documents(t["docs"][0])}
                           - listed)
            # A schema broken only by the hints' documents counts as accepted (`run`).
            if not ok(schemas + extra) and not (extra and ok(schemas)):
                out.add(tid(t))
    return out


def read_known(folder):
    out = {}
    for key, name in KNOWN.items():
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            sys.exit(f"xsts_peer: {path} is missing")
        out[key] = {}
        for line in open(path, encoding="utf-8"):
            line = line.rstrip("\n")
            if line.strip() and not line.startswith("#"):
                tid, _, rest = line.partition("\t")
                out[key][tid] = rest.split("\t")[0]
    return out


LINE = re.compile(r"^  (PASS|FAIL|SKIP|ERROR) - (.*) \(([^()]*)\)$")
TOTAL = re.compile(r"^Total: (\d+) tests, (\d+) passed, (\d+) failed, (\d+) skipped, (\d+) errors")


def read_peer(path):
    """The peer's per-test lines (status, name, its message) and its printed totals."""
    results, totals, running = [], None, None
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if m := LINE.match(line):
            results.append([m[1], m[2], None])
        elif line.startswith("    Error: ") and results and results[-1][2] is None:
            results[-1][2] = line[len("    Error: "):]
        elif m := TOTAL.match(line):
            totals = dict(zip(("total", "passed", "failed", "skipped", "errors"),
                              map(int, m.groups())))
        elif m := re.match(r"^Running (\d+) tests", line):
            running = int(m[1])
    if totals is None or running != len(results) or totals["total"] != len(results):
        sys.exit(f"xsts_peer: {path}: no totals, or {len(results)} test lines for "
                 f"{running} tests run (was --verbose given? did the driver finish?)")
    return results, totals


def pct(a, b):
    return f"{100 * a / b:.2f}%" if b else "-"


def tid(t):
    return f"{t['set']}/{t['group']}/{t['name']}"


def compare(version, tests, peer_file, known, unscored):
    results, totals = read_peer(peer_file)
    selection = [t for t in tests if version in peer_runs(t)]
    if len(selection) != len(results):
        sys.exit(f"xsts_peer: XSD {version}: the manifests give the peer {len(selection)} "
                 f"tests, its output has {len(results)}: the selection rules differ")
    rows = []
    for i, (t, (status, name, message)) in enumerate(zip(selection, results)):
        if t["name"] != name:
            sys.exit(f"xsts_peer: XSD {version}: test {i + 1} is {tid(t)} in the manifests "
                     f"but {name} in the peer's output: the selection rules differ")
        ours, why = our_verdict(t, version, known)
        if t["kind"] == "instance" and tid(t) in unscored and ours == "right":
            ours, why = "outside", UNSCORED
        # Where the suite gives results per version or profile, the two may be held to
        # different expected results.
        differs = ours != "outside" and our_expected(t, version) != [peer_runs(t)[version]]
        rows.append({"t": t, "peer": status, "message": message, "ours": ours, "why": why,
                     "differs": differs})
    return rows, totals


def section(version, rows, totals, command, universe):
    kinds = Counter(r["t"]["kind"] for r in rows)
    ours_right = sum(r["ours"] == "right" for r in rows)
    ours_wrong = sum(r["ours"] == "wrong" for r in rows)
    outside = [r for r in rows if r["ours"] == "outside"]
    both = [r for r in rows if r["peer"] != "SKIP" and r["ours"] != "outside"]
    both_peer = sum(r["peer"] == "PASS" for r in both)
    both_ours = sum(r["ours"] == "right" for r in both)

    def per_kind(right):
        return " / ".join(str(sum(right(r) for r in rows if r["t"]["kind"] == k))
                          for k in ("schema", "instance"))

    out = [f"### XSD {version}\n",
           f"`{command} --version {version} --verbose`\n",
           "| | the peer's driver | ours, on the same tests |",
           "| --- | ---: | ---: |",
           f"| tests (schema / instance) | {totals['total']} ({kinds['schema']} / "
           f"{kinds['instance']}) | {len(rows)} |",
           f"| right | {totals['passed']} passed | {ours_right} |",
           f"| wrong | {totals['failed']} failed + {totals['errors']} errors | {ours_wrong} |",
           f"| not judged | {totals['skipped']} skipped | {len(outside)} outside our "
           f"{version} universe |",
           f"| score | {pct(totals['passed'], totals['passed'] + totals['failed'])} "
           f"(its pass rate: passed / (passed + failed)) | "
           f"{pct(ours_right, ours_right + ours_wrong)} (right / (right + wrong)) |",
           f"| right on the {len(both)} tests both judge | {both_peer} = "
           f"{pct(both_peer, len(both))} | {both_ours} = {pct(both_ours, len(both))} |",
           f"| right, schema / instance tests | {per_kind(lambda r: r['peer'] == 'PASS')} | "
           f"{per_kind(lambda r: r['ours'] == 'right')} |",
           "",
           f"Our own XSD {version} counting has {universe['schema']} schema and "
           f"{universe['instance']} instance tests; this run of the peer holds "
           f"{ours_right + ours_wrong} of them.\n"]
    assert sum(totals[k] for k in ("passed", "failed", "skipped", "errors")) == len(rows)

    def examples(title, picked, show, summary=""):
        out.append(f"{title}: **{len(picked)}**" + summary + (":" if picked else "."))
        for r in picked[:EXAMPLES]:
            out.append(f"- `{tid(r['t'])}` ({r['t']['kind']}): {show(r)}")
        if len(picked) > EXAMPLES:
            out.append(f"- ... and {len(picked) - EXAMPLES} more")
        out.append("")

    examples("We right, the peer wrong",
             [r for r in both if r["ours"] == "right" and r["peer"] != "PASS"],
             lambda r: f"peer {r['peer']}: {trim(r['message'])}")
    ours_only = [r for r in both if r["ours"] == "wrong" and r["peer"] == "PASS"]
    why = Counter(re.split(r"[:(]", r["why"])[0].strip() for r in ours_only)
    examples("We wrong, the peer right", ours_only, lambda r: f"ours: {trim(r['why'])}",
             " (by our reason: " + "; ".join(f"{n} {w}" for w, n in why.most_common()) + ")"
             if why else "")
    examples("Both wrong", [r for r in both if r["ours"] == "wrong" and r["peer"] != "PASS"],
             lambda r: f"peer {r['peer']}: {trim(r['message'])}; ours: {trim(r['why'])}")
    examples("Held to different expected results (a result per version or profile)",
             [r for r in rows if r["differs"]],
             lambda r: f"ours {our_expected(r['t'], version)[0]}, {r['ours']}; the peer's "
             f"{peer_runs(r['t'])[version]}, {r['peer']}; the suite: "
             + ", ".join(f"{val}@{v}" for val, v in r["t"]["expected"]))
    skipped = [r for r in rows if r["peer"] == "SKIP" and r["ours"] != "outside"]
    examples("Skipped by the peer, judged by us",
             skipped, lambda r: f"{r['ours']}; peer: {trim(r['message'])}")
    reasons = Counter(kind_of(r["why"]) for r in outside)
    out.append(f"Of the peer's tests, {len(outside)} are outside our {version} universe: "
               + ("; ".join(f"{n} {why}" for why, n in reasons.most_common()) or "none")
               + ".")
    seen = defaultdict(int)
    for r in outside:
        k = kind_of(r["why"])
        if seen[k] < 3:
            seen[k] += 1
            out.append(f"- `{tid(r['t'])}` ({r['t']['kind']}, peer {r['peer']}): {r['why']}")
    out.append("")
    return out


def kind_of(why):
    """A reason with its test's particulars taken out: the class it is counted in."""
    if why == UNSCORED:
        return "instance tests " + why.split(":")[0]
    if "version" in why:
        return "by version tokens (" + re.sub(r'^the (\w+( set)?)\'s version "([^"]*)".*',
                                              r"\1: \3", why) + ")"
    if "expected results apply" in why:
        return "with not exactly one expected result for our tokens"
    return "with an expected result we do not score (" + why.split('"')[1] + ")"


def trim(s, n=140):
    s = (s or "").replace("\n", " ")
    s = re.sub(r'"?/[^" ]*/xsdtests/', '"xsdtests/', s)  # the temporary unpack folder
    return s if len(s) <= n else s[:n - 1] + "…"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--suite", required=True, help="the unpacked xsdtests folder")
    ap.add_argument("--known", required=True, help="the folder of our known-failure files")
    ap.add_argument("--peer-1.0", dest="p10", required=True)
    ap.add_argument("--peer-1.1", dest="p11", required=True)
    ap.add_argument("--tokens", help="our harness's version tokens "
                    "(default: KNOWN/common/suite.rs)")
    ap.add_argument("--check", required=True, help="the boardxml-codegen binary: which XSD 1.0 "
                    "instance tests are on a schema it does not accept")
    ap.add_argument("--peer-version", default="0.3.0")
    ap.add_argument("--command", default="cargo test --test conformance --features xsd11 "
                    "--release -- --test-suite xsdtests")
    ap.add_argument("--out")
    a = ap.parse_args()
    read_tokens(a.tokens or os.path.join(a.known, "common", "suite.rs"))
    known, tests = read_known(a.known), read_tests(a.suite)
    # Every known failure must be a test of our universe, or our rules are misread here.
    for (version, kind), ids in known.items():
        ours = {tid(t) for t in tests if t["kind"] == kind
                and our_verdict(t, version, known)[0] != "outside"}
        stray = sorted(set(ids) - ours)
        if stray:
            sys.exit(f"xsts_peer: {KNOWN[(version, kind)]}: {len(stray)} listed tests are "
                     f"not in our {version} {kind} universe as read here, e.g. {stray[0]}")
    today = datetime.datetime.now(datetime.timezone.utc).date()
    lines = [
        f"## Side by side with the Rust peer, xsd-schema {a.peer_version} (issue 33)\n",
        f"Run {today} by `scripts/xsts-peer.sh`: the peer's own "
        f"W3C-suite driver (its `tests/conformance/driver.rs`, release build, `--features "
        f"xsd11`) on the suite of `../shared/conformance/xsdtests.tar.gz`, and our verdicts "
        f"on exactly the tests it runs (a test of our universe is right unless it is in our "
        f"known-failure files, codegen/tests/xsts*-known-failures.txt).\n",
    ]
    unscored = not_accepted_1_0(tests, known, a.check)
    # To compare with CONFORMANCE.md's XSD 1.0 instance line: all tests less those on
    # accepted schemas is this plus the datatype sets' tests on a rejected schema.
    print(f"xsts_peer: {len(unscored)} XSD 1.0 instance tests of ours (outside the datatype "
          f"sets) are on a schema check does not accept", file=sys.stderr)
    for version, path in (("1.0", a.p10), ("1.1", a.p11)):
        left_out = unscored if version == "1.0" else set()
        rows, totals = compare(version, tests, path, known, left_out)
        universe = Counter(t["kind"] for t in tests
                           if our_verdict(t, version, known)[0] != "outside"
                           and not (t["kind"] == "instance" and tid(t) in left_out))
        lines += section(version, rows, totals, a.command, universe)
    lines += [
        "How the two count:\n",
        "- The peer counts schema and instance tests together, one line each, in one total; "
        "its pass rate leaves out skipped tests and errors (passed / (passed + failed)). "
        "It skips tests whose expected result is not asserting (indeterminate, "
        "implementation-defined or -dependent, runtime-schema-error) and schemas that need "
        "XSD 1.1 in a 1.0 run; an instance test expected invalid whose schema does not "
        "compile passes, one expected valid is an error.",
        "- Its selection: a test runs in the XSD version(s) named by the most specific "
        "version attribute (test, group, test set) that names one, in 1.0 when none does, "
        "and also in a version an `<expected version>` names; other tokens (XML, Unicode, "
        "profile labels) do not select. So its 1.1 run holds only the tests marked 1.1 "
        "(the rest of the suite runs in 1.0 only), while our 1.1 edition counts every test "
        "no version token of any level excludes. Ours needs every level's version to name a "
        "token of ours, and exactly one applicable expected result, valid or invalid.",
        "- Its instance tests are assessed against the group's schema test (its last one "
        "with documents, whatever that test's version) plus the instance's "
        "schemaLocation hints; ours as codegen/tests/xsts_instances.rs says. Our XSD 1.0 "
        "instance score counts only tests on a schema `check` accepts (and every datatype "
        "set test); the others are outside our 1.0 universe above (the schema test of "
        "their group is scored instead).",
        "- The suite archive has no NIST test set (a separate download), which the peer's "
        "README counts in its 1.0 total (39,510 tests).",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
