#!/usr/bin/env python3
"""Measuring aid for issue 14: how many of the W3C XSD Test Suite's XSD 1.0 schema tests the
generator accepts (valid schemas) and wrongly accepts (invalid schemas).

Usage: scripts/xsts_accepts.py XSDTESTS-DIR [--failures FILE]
  XSDTESTS-DIR is the unpacked ../shared/conformance/xsdtests.tar.gz (its `xsdtests` folder).
Runs `cargo build -p boardxml-codegen --example accepts` once, feeding it every
schema test's first schema document; restarts it past a schema that brings it down (counted
as a crash, i.e. not accepted). NIST's set is not in the archive. The official judge is the
`check` harness of issue 14; this is an estimate of the generator library's acceptance.
"""
import collections
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

TS = "{http://www.w3.org/XML/2004/xml-schema-test-suite/}"
XLINK = "{http://www.w3.org/1999/xlink}href"


def applies_to_10(*version_attrs):
    for v in version_attrs:
        if not v:
            continue
        tokens = v.split()
        if "1.1" in tokens and "1.0" not in tokens:
            return False
        if "1.0" not in tokens and any(t.startswith("1.") for t in tokens):
            return False
    return True


def tests(root):
    suite = ET.parse(os.path.join(root, "suite.xml")).getroot()
    for ref in suite.iter(TS + "testSetRef"):
        href = ref.get(XLINK)
        if href.startswith("nist"):
            continue
        path = os.path.join(root, href)
        if not os.path.exists(path):
            continue
        ts = ET.parse(path).getroot()
        base = os.path.dirname(path)
        for group in ts.iter(TS + "testGroup"):
            for st in group.iter(TS + "schemaTest"):
                if not applies_to_10(ts.get("version"), group.get("version"), st.get("version")):
                    continue
                docs = [d.get(XLINK) for d in st.iter(TS + "schemaDocument")]
                if not docs:
                    continue
                validity = None
                for e in st.iter(TS + "expected"):
                    if applies_to_10(e.get("version")):
                        validity = e.get("validity")
                        break
                if validity not in ("valid", "invalid"):
                    continue
                yield (ts.get("name") + "/" + group.get("name") + "/" + st.get("name"),
                       os.path.normpath(os.path.join(base, docs[0])), validity)


def run(paths, workspace):
    subprocess.run(["cargo", "build", "-q", "-p", "boardxml-codegen",
                    "--example", "accepts"], cwd=workspace, check=True)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(workspace, "target"))
    exe = os.path.join(target, "debug", "examples", "accepts")
    results = {}
    todo = list(dict.fromkeys(paths))
    while todo:
        p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
        out, _ = p.communicate("\n".join(todo) + "\n")
        done = 0
        for line in out.splitlines():
            verdict, rest = line.split(" ", 1)
            path, _, message = rest.partition("\t")
            results[path] = (verdict == "ok", message)
            done += 1
        if done < len(todo):
            results[todo[done]] = (False, "CRASH")
            done += 1
        todo = todo[done:]
    return results


def main():
    root = sys.argv[1]
    failures = sys.argv[sys.argv.index("--failures") + 1] if "--failures" in sys.argv else None
    workspace = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cases = list(tests(root))
    results = run([c[1] for c in cases], workspace)
    counts = collections.Counter()
    blockers = collections.Counter()
    lines = []
    for name, path, validity in cases:
        ok, message = results[path]
        counts[(validity, ok)] += 1
        if message == "CRASH":
            counts["crash"] += 1
        if validity == "valid" and not ok:
            blockers[message.split(": ", 1)[-1][:90]] += 1
            lines.append(f"rejected-valid\t{name}\t{os.path.relpath(path, root)}\t{message}")
        if validity == "invalid" and ok:
            lines.append(f"accepted-invalid\t{name}\t{os.path.relpath(path, root)}")
    valid = counts[("valid", True)] + counts[("valid", False)]
    invalid = counts[("invalid", True)] + counts[("invalid", False)]
    print(f"valid schemas accepted: {counts[('valid', True)]} of {valid} "
          f"({100.0 * counts[('valid', True)] / max(valid, 1):.1f}%)")
    print(f"invalid schemas wrongly accepted: {counts[('invalid', True)]} of {invalid} "
          f"({100.0 * counts[('invalid', True)] / max(invalid, 1):.1f}%)")
    print(f"crashes: {counts['crash']}")
    print("top first-diagnostics of rejected valid schemas:")
    for m, n in blockers.most_common(25):
        print(f"  {n:5} {m}")
    if failures:
        with open(failures, "w") as f:
            f.write("\n".join(sorted(lines)) + "\n")


if __name__ == "__main__":
    main()
