#!/usr/bin/env python3
"""Validate many documents against one schema in ONE Python process (for tests/differential.rs).

Usage: xmlschema_batch.py SCHEMA 10|11 < list-of-paths

Reads one path per line on stdin and prints one line per path, in the same order:
    valid<TAB>PATH
    invalid<TAB>PATH<TAB>first reason
    error<TAB>PATH<TAB>message     (xmlschema itself failed: not a verdict)
A document that is not well-formed XML is "invalid". xmlschema cannot read multi-byte
encodings such as GBK: the caller hands it UTF-8 copies of such documents.
"""
import sys
import xml.etree.ElementTree as ET

import xmlschema


def one_line(text):
    return " ".join(str(text).split())[:300]


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("10", "11"):
        sys.exit("usage: xmlschema_batch.py SCHEMA 10|11 < paths")
    cls = xmlschema.XMLSchema10 if sys.argv[2] == "10" else xmlschema.XMLSchema11
    schema = cls(sys.argv[1])
    out = sys.stdout
    for line in sys.stdin:
        path = line.rstrip("\n")
        if not path:
            continue
        try:
            error = next(iter(schema.iter_errors(path)), None)
        except ET.ParseError as e:  # xmlschema's XMLResourceParseError is one too
            out.write("invalid\t%s\tnot well-formed: %s\n" % (path, one_line(e)))
            continue
        except Exception as e:  # noqa: BLE001 - any other failure is not a verdict
            out.write("error\t%s\t%s: %s\n" % (path, type(e).__name__, one_line(e)))
            continue
        if error is None:
            out.write("valid\t%s\n" % path)
        else:
            reason = getattr(error, "reason", None) or error
            out.write("invalid\t%s\t%s\n" % (path, one_line(reason)))
    out.flush()


if __name__ == "__main__":
    main()
