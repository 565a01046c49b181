#!/usr/bin/env python3
"""Size figures of the workspace's crates, for issue 30's before/after record.

    scripts/code-stats.py [N]

Prints, for every crate of the workspace (its `src/`): lines of Rust; then the N largest
files (default 10) and the N largest functions over all crates' `src/`. A function's size
is the lines from its `fn` line to its closing brace, found by counting braces outside
strings, characters and comments (macro bodies that define functions are counted as
the macro's own lines, not as functions).
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
N = int(sys.argv[1]) if len(sys.argv) > 1 else 10


def crates():
    """(name, src folder) of every package of the workspace, read from the manifests."""
    found = []
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames if d not in ("target", ".git", "fuzz", "benches") and not d.startswith("target")]
        if "Cargo.toml" in filenames and os.path.isdir(os.path.join(dirpath, "src")):
            text = open(os.path.join(dirpath, "Cargo.toml"), encoding="utf-8").read()
            m = re.search(r'^\[package\][^\[]*?^name\s*=\s*"([^"]+)"', text, re.M | re.S)
            if m:
                found.append((m.group(1), os.path.join(dirpath, "src")))
    return sorted(found)


def rust_files(src):
    for dirpath, _, filenames in os.walk(src):
        for f in filenames:
            if f.endswith(".rs"):
                yield os.path.join(dirpath, f)


def strip(text):
    """The text with strings, chars and comments blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + len(m.group(0)))
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'" and re.match(r"'(\\.[^']*|[^\\'])'", text[i:i + 12]):
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:])
            out.append(" " * len(m.group(0)))
            i += len(m.group(0))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    text = strip(open(path, encoding="utf-8").read())
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for m in re.finditer(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)", text):
        # The body's opening brace: the first `{` after the signature, unless a `;` comes first
        # (a declaration without a body).
        j = m.end()
        depth_paren = 0
        while j < len(text):
            ch = text[j]
            if ch in "([<":
                depth_paren += 1
            elif ch in ")]>":
                depth_paren -= 1
            elif ch == ";" and depth_paren <= 0:
                j = -1
                break
            elif ch == "{" and depth_paren <= 0:
                break
            j += 1
        if j < 0 or j >= len(text):
            continue
        depth, k = 0, j
        while k < len(text):
            if text[k] == "{":
                depth += 1
            elif text[k] == "}":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        start = text.count("\n", 0, m.start()) + 1
        end = text.count("\n", 0, k) + 1
        yield m.group(1), start, end - start + 1


def main():
    all_files, all_fns = [], []
    print("| crate | lines of Rust in src/ |\n|---|---:|")
    for name, src in crates():
        total = 0
        for f in rust_files(src):
            count = sum(1 for _ in open(f, encoding="utf-8"))
            total += count
            rel = os.path.relpath(f, ROOT)
            all_files.append((count, rel))
            for fn, line, size in functions(f):
                all_fns.append((size, f"{rel}:{line}", fn))
        print(f"| {name} | {total:,} |")
    print(f"\n{N} largest files:\n")
    for count, rel in sorted(all_files, reverse=True)[:N]:
        print(f"- {rel}: {count:,}")
    print(f"\n{N} largest functions:\n")
    for size, at, fn in sorted(all_fns, reverse=True)[:N]:
        print(f"- `{fn}` ({at}): {size:,}")


if __name__ == "__main__":
    main()
