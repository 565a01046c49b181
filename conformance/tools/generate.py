#!/usr/bin/env python3
"""Writes the conformance suite: conformance/cases/** and conformance/manifest.json.

Run from anywhere: python3 conformance/tools/generate.py [--out DIR]
With --out, the suite is written to DIR instead (tests/conformance.rs compares the two).
The checked-in cases are the product; this script is how they were made, so that a case can
be changed in one place and every file stays consistent with the manifest. It is
deterministic (no randomness, no dates): running it twice gives the same bytes.

Every invalid case names its valid neighbour: the smallest valid document it differs from.
Files under cases/hand/ are written by hand; this script only lists them in the manifest.
"""

import json
import os
import shutil
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
# Where to write: the suite itself, or --out DIR (hand-written cases are copied there).
OUT = sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else ROOT
CASES = os.path.join(OUT, "cases")
# Generated folders are rewritten from scratch (cases/hand/ is left alone).
for _sub in ("cif", "cbf-1.0", "cbf-2007", "fuzz"):
    shutil.rmtree(os.path.join(CASES, _sub), ignore_errors=True)

# ---------------------------------------------------------------------------------------
# SPEC.md rules, each with an id the cases name in `rule`. Every one of them has an invalid
# case and a valid neighbour (tests/conformance.rs checks it).
SPEC_RULES = {
    "SPEC: CIF Square file": "file a..z, aa..zz, aaa..lll; ab is not a file",
    "SPEC: CIF Square rank": "rank 1..64, no leading zero",
    "SPEC: CIF Square 3D/4D": "optional 3D board letter A..H, then optional 4D row 1..8",
    "SPEC: CIF Squares": "a line's squares back to back, at least two",
    "SPEC: CIF board size": "boardsize=FxR (default 8x8) or files/ranks; both disagreeing is an error",
    "SPEC: CIF square on board": "a square outside the game's board is an error",
    "SPEC: CIF region": "a region's corners on one 3D board",
    "SPEC: CIF Color": "the 9-value enumeration",
    "SPEC: CIF Opacity": "1..255, 0 reserved",
    "SPEC: CIF Value": "content is an xs:byte",
    "SPEC: CIF TextMarker": "exactly one character (a Unicode scalar value)",
    "SPEC: CIF SymbolMarker": "skull, mushroom, strawberry, parcel",
    "SPEC: CIF marker shapes": "a marker is a square marker, a text marker or a symbol",
    "SPEC: CIF carrier": "cif > game+ > moves, move text mixed with markers",
    "SPEC: CBF dialect": "the root tells the dialect (Version=\"1.0\"); mixing dialects is an error",
    "SPEC: CBF encoding": "UTF-8 and GBK both work; bad bytes are an error with the byte offset",
    "SPEC: CBF 2007 Head": "the 23 children, each optional, at most once, any order",
    "SPEC: CBF 2007 Type/Result": "value attribute 0..4 / 0..3; the text is a free label",
    "SPEC: CBF 2007 Board": "90 points, run lengths across rows, side r|b, move number >= 1",
    "SPEC: CBF 2007 Move value": "XY-XY, X 0..8, Y 0..9",
    "SPEC: CBF 2007 Move nid": "depth-first tree: nid n is a child of the nearest earlier n-1; starts at 1",
    "SPEC: CBF 1.0 Head": "the 33 children, element text",
    "SPEC: CBF 1.0 RecordResult": "0..4 or empty",
    "SPEC: CBF 1.0 FEN": "standard xiangqi FEN; missing or empty is the standard start",
    "SPEC: CBF 1.0 MoveList 00-00": "the first move is the 00-00 placeholder, and only the first",
    "SPEC: CBF 1.0 branch/end": "depth-first variations with branch=1 and end=1",
    "SPEC: CBF legal position": "one king per side in its palace, reachable points, piece counts, kings not facing, side not to move not in check",
    "SPEC: CBF legal moves": "every move of every line legal under the full rules",
    "SPEC: CBF result": "a recorded result that contradicts a final mate is a warning",
}

# Codes no document can cause, with the reason (tests/conformance.rs allows exactly these to
# have no invalid case).
UNCOVERED_CODES = {
    "E0001": "io: comes from the file system, not from a document",
    "E0107": "external-dtd: a note (how a document was read), neither an error nor a warning, "
             "which are what the suite's cases list; tests/error_table.rs gives it from a CIF "
             "document whose DOCTYPE names cif.dtd",
    "E0215": "duplicate-id: no CIF or CBF schema type is an xs:ID; tests/cases.rs gives it "
             "from a generated schema with ID attributes (a second element with an earlier ID)",
    "E0216": "dangling-idref: no CIF or CBF schema type is an xs:IDREF; tests/cases.rs gives "
             "it from a generated schema with IDREF and IDREFS values that name no ID",
    "E0217": "duplicate-key: no CIF or CBF schema has identity constraints; tests/cases.rs gives it from the identity feature case (a key and a unique with two equal rows)",
    "E0218": "identity-field: no CIF or CBF schema has identity constraints; tests/cases.rs gives it from the identity feature case (an element a key selects without the key's field)",
    "E0219": "dangling-keyref: no CIF or CBF schema has identity constraints; tests/cases.rs gives it from the identity feature case (keyrefs naming no row of their key)",
    "E0220": "timezone: no CIF or CBF schema has an xs:explicitTimezone facet; tests/cases.rs gives it from the timezones feature case (a required timezone missing, a prohibited one given)",
    "E0221": "assertion: no CIF or CBF schema has an xs:assertion; tests/cases.rs gives it from the assertions feature case (a value its test makes false)",
    "E0403": "marker-shape: reserved for the CIF rules, which run only on schema-valid "
             "documents, where every marker already has a shape; a marker that fits no shape "
             "is reported by the schema layer as E0214 (cases cif-marker-no-shape-*)",
    "E0501": "players' formats (XQF, CBR, CBL, PGN): the suite holds CIF and CBF documents only; tests/players.rs gives each code from a bad file",
    "E0502": "players' formats (XQF, CBR, CBL, PGN): the suite holds CIF and CBF documents only; tests/players.rs gives each code from a bad file",
    "E0503": "players' formats (XQF, CBR, CBL, PGN): the suite holds CIF and CBF documents only; tests/players.rs gives each code from a bad file",
    "E0504": "players' formats (XQF, CBR, CBL, PGN): the suite holds CIF and CBF documents only; tests/players.rs gives each code from a bad file",
    "E0505": "players' formats (XQF, CBR, CBL, PGN): the suite holds CIF and CBF documents only; tests/players.rs gives each code from a bad file",
    "E0506": "players' formats (XQF, CBR, CBL, PGN): the suite holds CIF and CBF documents only; tests/players.rs gives each code from a bad file",
    "E0511": "players' formats (XQF, CBR, CBL, PGN): the suite holds CIF and CBF documents only; tests/players.rs gives each code from a bad file",
    "E0512": "players' formats (XQF, CBR, CBL, PGN): the suite holds CIF and CBF documents only; tests/players.rs gives each code from a bad file",
    "E0513": "players' formats (XQF, CBR, CBL, PGN): the suite holds CIF and CBF documents only; tests/players.rs gives each code from a bad file",
}

cases = []
by_id = {}

DECL = {
    "utf-8": '<?xml version="1.0" encoding="UTF-8"?>\n',
    "utf-8-bom": '<?xml version="1.0" encoding="UTF-8"?>\n',
    "gbk": '<?xml version="1.0" encoding="GBK"?>\n',
    "gb18030": '<?xml version="1.0" encoding="GB18030"?>\n',
    "utf-16le": '<?xml version="1.0" encoding="UTF-16"?>\n',
    "utf-16be": '<?xml version="1.0" encoding="UTF-16"?>\n',
}


def encode(text, enc):
    if isinstance(text, bytes):
        return text
    if enc == "utf-8":
        return text.encode("utf-8")
    if enc == "utf-8-bom":
        return b"\xef\xbb\xbf" + text.encode("utf-8")
    if enc in ("gbk", "gb18030"):
        return text.encode(enc)
    if enc == "utf-16le":
        return b"\xff\xfe" + text.encode("utf-16-le")
    if enc == "utf-16be":
        return b"\xfe\xff" + text.encode("utf-16-be")
    raise ValueError(enc)


def add(cid, fmt, dialect, text, verdict, codes, description, rule, encoding="utf-8",
        neighbour=None, warnings=None, known_failure=None, file=None, folder=None):
    assert cid not in by_id, cid
    assert fmt in ("cif", "cbf")
    assert (fmt == "cif") == (dialect is None)
    assert (verdict == "valid") == (not codes), cid
    assert verdict == "valid" or neighbour, cid
    folder = folder or ("cif" if fmt == "cif" else dialect)
    if file is None:
        file = "cases/%s/%s.%s" % (folder, cid, fmt)
        path = os.path.join(OUT, file)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(encode(text, encoding))
    case = {
        "id": cid,
        "file": file,
        "format": fmt,
        "dialect": dialect,
        "encoding": "utf-8" if encoding == "utf-8-bom" else encoding,
        "verdict": verdict,
        "codes": sorted(set(codes)),
        "description": description,
        "rule": rule,
    }
    if neighbour:
        assert neighbour in by_id and by_id[neighbour]["verdict"] == "valid", (cid, neighbour)
        case["neighbour"] = neighbour
    if warnings:
        case["warnings"] = sorted(warnings)
    if known_failure:
        case["known_failure"] = known_failure
    cases.append(case)
    by_id[cid] = case
    return case


def good(cid, fmt, dialect, text, description, rule, encoding="utf-8", **kw):
    return add(cid, fmt, dialect, text, "valid", [], description, rule, encoding, **kw)


def bad(cid, neighbour, text, codes, description, rule, encoding=None, **kw):
    n = by_id[neighbour]
    enc = encoding or n["encoding"]
    return add(cid, n["format"], n["dialect"], text, "invalid", codes, description, rule,
               enc, neighbour=neighbour, **kw)


# ---------------------------------------------------------------------------------------
# Document builders.

def cif(moves, game=" ", enc="utf-8", games=None):
    """A CIF document with one game (attributes `game`) and this move text."""
    body = games if games is not None else "<game%s>\n<moves>%s</moves>\n</game>\n" % (
        game.rstrip(), moves)
    return "%s<cif>\n%s</cif>\n" % (DECL[enc], body)


def c10(head="", moves="", enc="utf-8", root=' Version="1.0"', first='<Move value="00-00"/>'):
    """A CBF 1.0 record: the 00-00 placeholder, then `moves`."""
    return ("%s<ChineseChessRecord%s>\n<Head>%s</Head>\n<MoveList>\n%s%s\n</MoveList>\n"
            "</ChineseChessRecord>\n") % (DECL[enc], root, head, first, moves)


def c07(head="", moves="", enc="gbk"):
    """A CBF 2007 record."""
    return ("%s<ChineseChessRecord>\n<Head>%s</Head>\n<MoveList>\n%s\n</MoveList>\n"
            "</ChineseChessRecord>\n") % (DECL[enc], head, moves)


def mv10(*values):
    return "".join('<Move value="%s"/>' % v for v in values)


def mv07(*values):
    """Main-line moves with nid 1, 2, ..."""
    return "".join('<Move nid="%d" value="%s"/>' % (i + 1, v) for i, v in enumerate(values))


START_BOARD = "jmxswsxmj10p5p1b1b1b1b1b18B1B1B1B1B1P5P10JMXSWSXMJ-r1"
MAIN = ["77-47", "70-62", "79-67", "80-70", "89-79", "10-22"]

# ---------------------------------------------------------------------------------------
# XML layer: well-formedness, encodings, DOCTYPE, limits, root. One valid base per format.

CIF_MIN = cif('<arrow color="red" from="e2" to="e4"/>')
good("cif-minimal", "cif", None, CIF_MIN, "a game with one arrow on the default 8x8 board",
     "SPEC: CIF carrier")
CBF10_MIN = c10("", mv10("77-47"))
good("cbf10-minimal", "cbf", "cbf-1.0", CBF10_MIN, "the placeholder and one move",
     "SPEC: CBF 1.0 MoveList 00-00")
CBF07_MIN = c07("<Name>中炮</Name>", mv07("77-47"))
good("cbf07-minimal", "cbf", "cbf-2007", CBF07_MIN, "one move, GBK, a Chinese name",
     "SPEC: CBF 2007 Move nid", encoding="gbk")

malformed = [
    ("unclosed", lambda t, r: t.replace("</%s>" % r, ""), "the root is never closed"),
    ("mismatched", lambda t, r: t.replace("</%s>" % r, "</%sX>" % r), "the end tag names another element"),
    ("text-after-root", lambda t, r: t + "trailing text\n", "text after the root element"),
    ("two-roots", lambda t, r: t + "<%s/>\n" % r, "a second root element"),
    ("undefined-entity", lambda t, r: t.replace("<%s" % r, "<!-- &nbsp; -->\n<%s" % r).replace("</%s>" % r, "&nbsp;</%s>" % r), "an undefined entity reference"),
    ("char-ref-zero", lambda t, r: t.replace("</%s>" % r, "&#0;</%s>" % r), "a character reference to U+0000"),
    ("unquoted-attribute", lambda t, r: t.replace("<%s" % r, "<%s a=1" % r, 1), "an unquoted attribute value"),
    ("duplicate-attribute", lambda t, r: t.replace("<%s" % r, '<%s a="1" a="2"' % r, 1), "the same attribute twice"),
    ("truncated", lambda t, r: t[: len(t) // 2], "the file stops in the middle"),
    ("lt-in-attribute", lambda t, r: t.replace("<%s" % r, '<%s a="<"' % r, 1), "a raw < in an attribute value"),
]
for base, root_name, short in (("cif-minimal", "cif", "cif"), ("cbf10-minimal", "ChineseChessRecord", "cbf10"),
                               ("cbf07-minimal", "ChineseChessRecord", "cbf07")):
    text = {"cif-minimal": CIF_MIN, "cbf10-minimal": CBF10_MIN, "cbf07-minimal": CBF07_MIN}[base]
    for name, f, desc in malformed:
        if short != "cif" and name in ("lt-in-attribute", "two-roots"):
            continue
        bad("%s-malformed-%s" % (short, name), base, f(text, root_name), ["E0101"],
            "not well-formed: " + desc, "XML 1.0: well-formedness")
bad("cif-malformed-nul-byte", "cif-minimal", CIF_MIN.replace("</cif>", "\0</cif>"), ["E0101"],
    "a literal NUL character", "XML 1.0: Char")
bad("cif-malformed-empty-file", "cif-minimal", "", ["E0101"], "an empty file",
    "XML 1.0: document")

# Encodings.
good("cbf07-gb18030", "cbf", "cbf-2007", c07("<Name>中炮</Name>", mv07("77-47"), enc="gb18030"),
     "declared GB18030 (a superset of GBK)", "SPEC: CBF encoding", encoding="gb18030")
good("cbf10-utf8-bom", "cbf", "cbf-1.0", CBF10_MIN, "UTF-8 with a byte order mark, as XiangQi Bridge writes",
     "SPEC: CBF encoding", encoding="utf-8-bom")
good("cbf10-gbk", "cbf", "cbf-1.0", c10("<Red>许银川</Red>", mv10("77-47"), enc="gbk"),
     "a 1.0 record in GBK: the XML declaration decides", "SPEC: CBF encoding", encoding="gbk")
good("cbf07-utf8", "cbf", "cbf-2007", c07("<Name>中炮</Name>", mv07("77-47"), enc="utf-8"),
     "a 2007 record in UTF-8", "SPEC: CBF encoding", encoding="utf-8")
good("cif-no-declaration", "cif", None, CIF_MIN.split("\n", 1)[1],
     "no XML declaration: UTF-8", "XML 1.0: encoding")
for enc in ("utf-16le", "utf-16be"):
    tag = enc[-2:]
    good("cif-utf16" + tag, "cif", None,
         cif('<marker type="text" color="green" at="e5">帅</marker>', enc=enc),
         "UTF-16 (%s) with a BOM, a CJK text marker" % tag.upper(), "SPEC: CIF TextMarker", encoding=enc)
    good("cbf10-utf16" + tag, "cbf", "cbf-1.0", c10("<Red>许银川</Red>", mv10("77-47"), enc=enc),
         "a 1.0 record in UTF-16 (%s)" % tag.upper(), "SPEC: CBF encoding", encoding=enc)
good("cbf07-utf16le", "cbf", "cbf-2007", c07("<Name>中炮</Name>", mv07("77-47"), enc="utf-16le"),
     "a 2007 record in UTF-16LE", "SPEC: CBF encoding", encoding="utf-16le")

bad("cbf07-gbk-bad-bytes", "cbf07-minimal",
    encode(c07("<Name>XX</Name>", mv07("77-47")), "gbk").replace(b"XX", b"\x81\x20"),
    ["E0102"], "a GBK lead byte followed by a space", "SPEC: CBF encoding")
bad("cbf07-gbk-undeclared", "cbf07-minimal",
    encode(c07("<Name>中炮</Name>", mv07("77-47")), "gbk").split(b"\n", 1)[1],
    ["E0102"], "GBK bytes with no XML declaration (so UTF-8)", "SPEC: CBF encoding")
bad("cbf10-utf8-bad-bytes", "cbf10-minimal",
    encode(c10("<Red>XX</Red>", mv10("77-47")), "utf-8").replace(b"XX", b"\xc3\x28"),
    ["E0102"], "an invalid UTF-8 sequence in element text", "SPEC: CBF encoding")
bad("cbf10-utf8-overlong", "cbf10-minimal",
    encode(c10("<Red>XX</Red>", mv10("77-47")), "utf-8").replace(b"XX", b"\xc0\xaf"),
    ["E0102"], "an overlong UTF-8 encoding of /", "SPEC: CBF encoding")
bad("cif-utf8-bad-bytes", "cif-minimal",
    encode(cif('<marker type="text" color="red" at="a1">X</marker>'), "utf-8").replace(b">X<", b">\xff<"),
    ["E0102"], "a byte that never occurs in UTF-8", "XML 1.0: encoding")
bad("cbf07-bom-says-utf8-decl-gbk", "cbf07-minimal", c07("<Name>中炮</Name>", mv07("77-47")),
    ["E0103"], "a UTF-8 byte order mark and encoding=\"GBK\"", "SPEC: CBF encoding", encoding="utf-8-bom")
bad("cif-utf16-decl-utf8", "cif-utf16le", cif('<marker type="text" color="green" at="e5">帅</marker>', enc="utf-8"),
    ["E0103"], "a UTF-16LE byte order mark and encoding=\"UTF-8\"", "XML 1.0: encoding", encoding="utf-16le")
bad("cbf07-unknown-encoding", "cbf07-utf8", c07("<Name>x</Name>", mv07("77-47"), enc="utf-8").replace("UTF-8", "EBCDIC-XYZ"),
    ["E0104"], "an encoding name nobody knows", "SPEC: CBF encoding", encoding="utf-8")
bad("cif-unknown-encoding", "cif-minimal", CIF_MIN.replace("UTF-8", "X-MAC-KLINGON"),
    ["E0104"], "an encoding name nobody knows", "XML 1.0: encoding")

# DOCTYPE and limits.
bad("cif-doctype-entity", "cif-minimal",
    CIF_MIN.replace("<cif>", '<!DOCTYPE cif [<!ENTITY a "b">]>\n<cif>'), ["E0105"],
    "an internal DTD subset declaring an entity", "README: no DTDs")
bad("cbf10-doctype-empty", "cbf10-minimal",
    CBF10_MIN.replace("<ChineseChessRecord", "<!DOCTYPE ChineseChessRecord>\n<ChineseChessRecord", 1),
    ["E0105"], "a DOCTYPE that declares nothing", "README: no DTDs")
bad("cif-limit-depth", "cif-minimal",
    cif("<arrow color=\"red\" from=\"e2\" to=\"e4\"/>" + "<x>" * 260 + "</x>" * 260),
    ["E0202", "E0106"], "elements nested 264 deep", "README: limits (depth 256)")
bad("cbf10-limit-attributes", "cbf10-minimal",
    c10("", '<Move value="77-47" %s/>' % " ".join('a%d="1"' % i for i in range(16385))),
    ["E0106"], "16,385 attributes on one element", "README: limits (16,384 attributes)")
bad("cif-limit-name", "cif-minimal", cif("<%s/>" % ("n" * 1100)), ["E0106"],
    "an element name over 1 KiB", "README: limits (names 1 KiB)")

# Root element.
bad("cif-unknown-root", "cif-minimal", CIF_MIN.replace("cif>", "CIF>"), ["E0201"],
    "<CIF>: element names are case-sensitive", "cif.xsd: root element cif")
bad("cbf10-unknown-root", "cbf10-minimal", CBF10_MIN.replace("ChineseChessRecord", "ChessRecord"),
    ["E0201"], "<ChessRecord> instead of <ChineseChessRecord>", "cbf-1.0.xsd: root element")
bad("cbf07-namespaced-root", "cbf07-minimal",
    CBF07_MIN.replace("<ChineseChessRecord>", '<x:ChineseChessRecord xmlns:x="urn:x">').replace("</ChineseChessRecord>", "</x:ChineseChessRecord>"),
    ["E0201"], "the root in a namespace: CBF has none", "cbf-2007.xsd: no target namespace")

# ---------------------------------------------------------------------------------------
# CBF 1.0, schema layer.

FULL_HEAD_10 = "".join("<%s>%s</%s>" % (n, v, n) for n, v in [
    ("Name", "中炮对屏风马"), ("URL", "http://example.org/"), ("From", "example"), ("ContestType", ""),
    ("Contest", "全国象棋个人赛"), ("Round", "1"), ("Group", ""), ("Table", "3"), ("Date", "2020.5.22"),
    ("Site", "北京"), ("TimeRule", "90+30"), ("Red", "许银川"), ("RedTeam", "广东"), ("RedTime", ""),
    ("RedRating", "2600"), ("Black", "吕钦"), ("BlackTeam", "广东"), ("BlackTime", ""), ("BlackRating", ""),
    ("Referee", ""), ("Recorder", ""), ("Commentator", ""), ("CommentatorURL", ""), ("Creator", "象棋桥"),
    ("CreatorURL", ""), ("DateCreated", ""), ("DateModified", ""), ("ECCO", "C10"), ("RecordType", "1"),
    ("RecordKind", ""), ("RecordResult", "3"), ("ResultType", ""),
    ("FEN", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")])
good("cbf10-full-head", "cbf", "cbf-1.0", c10(FULL_HEAD_10, mv10(*MAIN)),
     "all 33 Head fields in XiangQi Bridge's order, a six-ply main line", "SPEC: CBF 1.0 Head",
     encoding="utf-8-bom")
good("cbf10-head-reordered", "cbf", "cbf-1.0",
     c10("<FEN></FEN><Black>吕钦</Black><Red>许银川</Red><Name>x</Name>", mv10("77-47")),
     "Head fields in another order (xs:all)", "SPEC: CBF 1.0 Head")
good("cbf10-empty-head", "cbf", "cbf-1.0", c10("", ""),
     "an empty Head and only the placeholder", "SPEC: CBF 1.0 MoveList 00-00")
good("cbf10-comments", "cbf", "cbf-1.0",
     c10("", '<Move value="77-47"><![CDATA[中炮 <好棋> & more]]></Move><Move value="70-62">屏风马</Move>',
         first='<Move value="00-00"><![CDATA[game comment]]></Move>'),
     "comments as CDATA and as text, the game comment on the placeholder", "cbf-1.0.xsd: Move simpleContent")
bad("cbf10-head-2007-field", "cbf10-minimal", c10("<Event>x</Event>", mv10("77-47")), ["E0301"],
    "<Event> is a 2007 field, not a 1.0 one: the dialects are mixed", "SPEC: CBF 1.0 Head")
bad("cbf10-head-unknown", "cbf10-minimal", c10("<Opening>x</Opening>", mv10("77-47")), ["E0202"],
    "an element not in Head's xs:all", "cbf-1.0.xsd: Head")
bad("cbf10-head-duplicate", "cbf10-head-reordered",
    c10("<FEN></FEN><Black>吕钦</Black><Red>许银川</Red><Red>x</Red>", mv10("77-47")), ["E0202"],
    "<Red> twice in xs:all", "SPEC: CBF 1.0 Head")
bad("cbf10-head-child-element", "cbf10-minimal", c10("<Red><b>x</b></Red>", mv10("77-47")), ["E0202"],
    "an element inside a string field", "cbf-1.0.xsd: Head")
bad("cbf10-head-text", "cbf10-empty-head", c10("stray", ""), ["E0207"],
    "text directly in <Head>", "cbf-1.0.xsd: Head (element-only)")
bad("cbf10-movelist-text", "cbf10-minimal", c10("", mv10("77-47") + "77-47"), ["E0207"],
    "text directly in <MoveList>", "cbf-1.0.xsd: MoveList (element-only)")
bad("cbf10-root-text", "cbf10-minimal", CBF10_MIN.replace("<Head>", "text<Head>"), ["E0207"],
    "text directly in the root", "cbf-1.0.xsd: ChineseChessRecord (element-only)")
bad("cbf10-missing-head", "cbf10-minimal", CBF10_MIN.replace("<Head></Head>\n", ""), ["E0203"],
    "no <Head>", "cbf-1.0.xsd: ChineseChessRecord")
bad("cbf10-missing-movelist", "cbf10-empty-head",
    c10("", "").replace("<MoveList>\n<Move value=\"00-00\"/>\n</MoveList>\n", ""), ["E0203"],
    "no <MoveList>", "cbf-1.0.xsd: ChineseChessRecord")
bad("cbf10-empty-movelist", "cbf10-empty-head", c10("", "", first=""), ["E0203"],
    "<MoveList> without even the placeholder", "cbf-1.0.xsd: MoveList (Move minOccurs 1)")
bad("cbf10-movelist-before-head", "cbf10-minimal",
    c10("", mv10("77-47")).replace("<Head></Head>\n", "").replace("</MoveList>\n", "</MoveList>\n<Head></Head>\n"),
    ["E0202", "E0203"], "<MoveList> before <Head>", "cbf-1.0.xsd: ChineseChessRecord (sequence)")
bad("cbf10-move-child-element", "cbf10-minimal", c10("", '<Move value="77-47"><b>x</b></Move>'), ["E0202"],
    "an element inside <Move> (simple content)", "cbf-1.0.xsd: Move simpleContent")
bad("cbf10-version-2", "cbf10-minimal", CBF10_MIN.replace('Version="1.0"', 'Version="2.0"'), ["E0206"],
    "Version=\"2.0\"", "cbf-1.0.xsd: Version fixed 1.0")
bad("cbf10-version-1", "cbf10-minimal", CBF10_MIN.replace('Version="1.0"', 'Version="1"'), ["E0206"],
    "Version=\"1\": fixed values are compared as strings", "cbf-1.0.xsd: Version fixed 1.0")
bad("cbf10-root-unknown-attribute", "cbf10-minimal", CBF10_MIN.replace('Version="1.0"', 'Version="1.0" Author="x"'),
    ["E0204"], "an attribute the root does not declare", "cbf-1.0.xsd: ChineseChessRecord")
bad("cbf10-move-unknown-attribute", "cbf10-minimal", c10("", '<Move value="77-47" comment="x"/>'), ["E0204"],
    "<Move comment=...>", "cbf-1.0.xsd: Move")
bad("cbf10-move-missing-value", "cbf10-minimal", c10("", '<Move end="1"/>'), ["E0205"],
    "a <Move> without value", "cbf-1.0.xsd: Move value required")
for i, v in enumerate(["9-47", "97-47", "77-4a", "77_47", "77-470", ""]):
    bad("cbf10-move-pattern-%d" % (i + 1), "cbf10-minimal", c10("", mv10(v)), ["E0210"],
        "Move value=\"%s\"" % v, "SPEC: CBF 2007 Move value" if i < 2 else "cbf-1.0.xsd: MoveValue")
good("cbf10-flags-zero", "cbf", "cbf-1.0", c10("", '<Move value="77-47" branch="0" end="0"/>'),
     "branch=\"0\" and end=\"0\" mean the same as leaving them out", "cbf-1.0.xsd: Flag")
bad("cbf10-branch-2", "cbf10-flags-zero", c10("", '<Move value="77-47" branch="2" end="0"/>'), ["E0211"],
    "branch=\"2\"", "cbf-1.0.xsd: Flag")
bad("cbf10-end-text", "cbf10-flags-zero", c10("", '<Move value="77-47" branch="0" end="yes"/>'), ["E0208"],
    "end=\"yes\"", "cbf-1.0.xsd: Flag")
bad("cbf10-end-negative", "cbf10-flags-zero", c10("", '<Move value="77-47" branch="0" end="-1"/>'), ["E0211"],
    "end=\"-1\": below the unsignedByte range", "cbf-1.0.xsd: Flag")
for v, desc in [("", "empty"), ("0", "unknown"), ("4", "the second draw code")]:
    good("cbf10-result-%s" % (v or "empty"), "cbf", "cbf-1.0",
         c10("<RecordResult>%s</RecordResult>" % v, mv10("77-47")),
         "RecordResult %s" % desc, "SPEC: CBF 1.0 RecordResult")
for v in ["5", "x", "-1", "1.0"]:
    bad("cbf10-result-bad-%s" % v.replace(".", "_").replace("-", "minus"), "cbf10-result-0",
        c10("<RecordResult>%s</RecordResult>" % v, mv10("77-47")), ["E0213"],
        "RecordResult %s: neither 0..4 nor empty" % v, "SPEC: CBF 1.0 RecordResult")
good("cbf10-recordtype-17", "cbf", "cbf-1.0", c10("<RecordType>17</RecordType>", mv10("77-47")),
     "RecordType: any non-negative number", "cbf-1.0.xsd: RecordTypeField")
bad("cbf10-recordtype-negative", "cbf10-recordtype-17", c10("<RecordType>-3</RecordType>", mv10("77-47")),
    ["E0213"], "RecordType -3", "cbf-1.0.xsd: RecordTypeField")
bad("cbf10-recordtype-word", "cbf10-recordtype-17", c10("<RecordType>全局</RecordType>", mv10("77-47")),
    ["E0213"], "RecordType as a word", "cbf-1.0.xsd: RecordTypeField")

# FEN.
good("cbf10-fen-empty", "cbf", "cbf-1.0", c10("<FEN></FEN>", mv10("77-47")),
     "an empty FEN: the standard start", "SPEC: CBF 1.0 FEN")
good("cbf10-fen-endgame", "cbf", "cbf-1.0", c10("<FEN>3k5/9/9/9/9/9/9/9/9/4K4 w</FEN>", mv10("49-48")),
     "a two-king endgame FEN, red to move", "SPEC: CBF 1.0 FEN")
good("cbf10-fen-black-to-move", "cbf", "cbf-1.0",
     c10("<FEN>rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1</FEN>", mv10("70-62")),
     "the start position with black to move; black moves first", "SPEC: CBF 1.0 FEN")
bad("cbf10-fen-nine-rows", "cbf10-fen-endgame", c10("<FEN>3k5/9/9/9/9/9/9/9/4K4 w</FEN>", mv10("49-48")),
    ["E0210"], "nine rows", "cbf-1.0.xsd: Fen")
bad("cbf10-fen-no-side", "cbf10-fen-endgame", c10("<FEN>3k5/9/9/9/9/9/9/9/9/4K4</FEN>", mv10("49-48")),
    ["E0210"], "no side to move", "cbf-1.0.xsd: Fen")
bad("cbf10-fen-bad-letter", "cbf10-fen-endgame", c10("<FEN>3k5/9/9/9/9/9/9/9/9/4K3Q w</FEN>", mv10("49-48")),
    ["E0210"], "Q is no xiangqi piece", "cbf-1.0.xsd: Fen")
bad("cbf10-fen-row-ten-points", "cbf10-fen-endgame", c10("<FEN>3k6/9/9/9/9/9/9/9/9/4K4 w</FEN>", mv10("49-48")),
    ["E0303"], "a row of ten points", "SPEC: CBF 1.0 FEN")
bad("cbf10-fen-row-eight-points", "cbf10-fen-endgame", c10("<FEN>3k4/9/9/9/9/9/9/9/9/4K4 w</FEN>", mv10("49-48")),
    ["E0303"], "a row of eight points", "SPEC: CBF 1.0 FEN")
bad("cbf10-fen-zero-run", "cbf10-fen-endgame", c10("<FEN>3k5/9/9/9/9/9/9/9/9/4K4 w</FEN>".replace("4K4", "4K04"), mv10("49-48")),
    ["E0210"], "a run of 0 empty points (0 is not a FEN digit)", "cbf-1.0.xsd: Fen")

# ---------------------------------------------------------------------------------------
# Legal positions (both dialects).

POSITIONS_BAD = [
    ("kings-facing", "4k4/9/9/9/9/9/9/9/9/4K4 w", "4w80W4-r1", "kings face each other on an open file"),
    ("king-outside-palace", "k8/9/9/9/9/9/9/9/9/4K4 w", "w84W4-r1", "the black king on a9, outside its palace"),
    ("no-red-king", "3k5/9/9/9/9/9/9/9/9/9 w", "3w86-r1", "no red king"),
    ("two-black-kings", "3kk4/9/9/9/9/9/9/9/9/5K3 w", "3ww81W3-r1", "two black kings"),
    ("three-rooks", "3k5/9/9/9/9/9/9/9/9/RR2KR3 w", "3w77JJ2WJ3-r1", "three red rooks"),
    ("pawn-behind-start", "3k5/9/9/9/9/9/9/9/9/4K3P w", "3w81W3B-r1", "a red pawn on red's back rank"),
    ("elephant-off-its-points", "3k5/9/9/9/9/9/9/9/9/4KB3 w", "3w81WX3-r1", "a red elephant on f0, no elephant point"),
    ("advisor-off-its-points", "3k5/9/9/9/9/9/9/9/3A5/4K4 w", "3w71S9W4-r1", "a red advisor on d1, no advisor point"),
    ("side-not-to-move-in-check", "3k5/9/9/9/9/9/9/9/9/3RK4 w", "3w80JW4-r1", "black is in check and red is to move"),
]
good("cbf07-board-endgame", "cbf", "cbf-2007", c07('<Board value="3w81W4-r1"/>', mv07("49-48")),
     "a two-king endgame as a Board string", "SPEC: CBF 2007 Board", encoding="gbk")
for name, fen, board, desc in POSITIONS_BAD:
    bad("cbf10-position-" + name, "cbf10-fen-endgame", c10("<FEN>%s</FEN>" % fen, ""), ["E0304"],
        desc, "SPEC: CBF legal position")
    bad("cbf07-position-" + name, "cbf07-board-endgame", c07('<Board value="%s"/>' % board, ""), ["E0304"],
        desc, "SPEC: CBF legal position")
good("cbf10-position-full-armies-moved", "cbf", "cbf-1.0",
     c10("<FEN>r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w</FEN>", mv10("19-27")),
     "both sides developed, red to move", "SPEC: CBF legal position")
good("cbf07-position-pawns-crossed", "cbf", "cbf-2007",
     c07('<Board value="3w5B8B66W4-b10"/>', mv07("30-31")),
     "two red pawns across the river, black to move at move 10", "SPEC: CBF legal position", encoding="gbk")

# ---------------------------------------------------------------------------------------
# CBF 2007, schema layer and Board strings.

FULL_HEAD_07 = "".join([
    "<Name>五七炮对屏风马</Name><URL>http://www.xqbase.com/</URL><Event>全国象棋个人赛</Event>",
    "<Site>北京</Site><Date>1995.5.22</Date><Red>许银川</Red><Black>吕钦</Black>",
    "<Commentator>x</Commentator><CommentatorURL></CommentatorURL><Creator>象棋桥</Creator>",
    "<CreatorURL></CreatorURL><DateCreated>00-12-31</DateCreated><DateModified></DateModified>",
    '<Type value="1">实战全局</Type><Result value="3">和棋</Result>',
    '<Board value="%s"/><Comment><![CDATA[a comment]]></Comment>' % START_BOARD,
    "<Round>1</Round><TimeRule>90</TimeRule><RedTeam>广东</RedTeam><RedTime></RedTime>",
    "<BlackTeam>广东</BlackTeam><BlackTime></BlackTime>"])
good("cbf07-full-head", "cbf", "cbf-2007", c07(FULL_HEAD_07, mv07(*MAIN)),
     "all 23 Head fields, a six-ply main line", "SPEC: CBF 2007 Head", encoding="gbk")
good("cbf07-empty", "cbf", "cbf-2007", c07("", ""), "an empty Head and an empty MoveList",
     "SPEC: CBF 2007 Head", encoding="gbk")
bad("cbf07-head-1.0-field", "cbf07-minimal", c07("<FEN>x</FEN>", mv07("77-47")), ["E0301"],
    "<FEN> is a 1.0 field: the dialects are mixed", "SPEC: CBF 2007 Head")
bad("cbf07-head-duplicate", "cbf07-minimal", c07("<Name>中炮</Name><Name>x</Name>", mv07("77-47")), ["E0202"],
    "<Name> twice", "SPEC: CBF 2007 Head")
bad("cbf07-missing-movelist", "cbf07-empty", c07("", "").replace("<MoveList>\n\n</MoveList>\n", ""),
    ["E0203"], "no <MoveList>", "cbf-2007.xsd: ChineseChessRecord")
bad("cbf07-movelist-text", "cbf07-empty", c07("", "x"), ["E0207"], "text in <MoveList>",
    "cbf-2007.xsd: MoveList (element-only)")
for v, desc in [("0", "unknown"), ("4", "composed endgame")]:
    good("cbf07-type-%s" % v, "cbf", "cbf-2007", c07('<Type value="%s">x</Type>' % v, mv07("77-47")),
         "Type value %s (%s)" % (v, desc), "SPEC: CBF 2007 Type/Result", encoding="gbk")
# XSD 1.0 Part 2: xs:unsignedByte takes an optional sign and collapses white space.
good("cbf07-type-plus-sign", "cbf", "cbf-2007", c07('<Type value="+1">x</Type>', mv07("77-47")),
     "Type value +1: a sign is allowed in xs:unsignedByte's lexical space", "cbf-2007.xsd: RecordTypeCode", encoding="gbk")
good("cbf07-type-whitespace", "cbf", "cbf-2007", c07('<Type value=" 1 ">x</Type>', mv07("77-47")),
     "Type value \" 1 \": white space is collapsed", "cbf-2007.xsd: RecordTypeCode", encoding="gbk")
good("cbf10-flag-plus-sign", "cbf", "cbf-1.0", c10("", '<Move value="77-47" end="+1"/>'),
     "end=\"+1\" on the main line's last move", "cbf-1.0.xsd: Flag")
bad("cbf07-type-5", "cbf07-type-4", c07('<Type value="5">x</Type>', mv07("77-47")), ["E0211"],
    "Type value 5", "SPEC: CBF 2007 Type/Result")
bad("cbf07-type-word", "cbf07-type-4", c07('<Type value="全局">x</Type>', mv07("77-47")), ["E0208"],
    "Type value as a word", "SPEC: CBF 2007 Type/Result")
bad("cbf07-type-no-value", "cbf07-type-4", c07('<Type>实战全局</Type>', mv07("77-47")), ["E0205"],
    "Type with only its label", "SPEC: CBF 2007 Type/Result")
good("cbf07-result-3", "cbf", "cbf-2007", c07('<Result value="3">和棋</Result>', mv07("77-47")),
     "Result value 3, draw", "SPEC: CBF 2007 Type/Result", encoding="gbk")
bad("cbf07-result-4", "cbf07-result-3", c07('<Result value="4">和棋</Result>', mv07("77-47")), ["E0211"],
    "Result value 4 (a 1.0 code, not a 2007 one)", "SPEC: CBF 2007 Type/Result")
bad("cbf07-result-decimal", "cbf07-result-3", c07('<Result value="1.0">x</Result>', mv07("77-47")), ["E0208"],
    "Result value 1.0", "SPEC: CBF 2007 Type/Result")
bad("cbf07-result-child", "cbf07-result-3", c07('<Result value="3"><b>和棋</b></Result>', mv07("77-47")), ["E0202"],
    "an element in Result's label", "cbf-2007.xsd: RecordResult simpleContent")
bad("cbf07-result-unknown-attribute", "cbf07-result-3", c07('<Result value="3" text="和棋"/>', mv07("77-47")), ["E0204"],
    "an undeclared attribute on Result", "cbf-2007.xsd: RecordResult")
good("cbf07-board-empty", "cbf", "cbf-2007", c07('<Board value=""/>', mv07("77-47")),
     "an empty Board value: the standard start", "SPEC: CBF 2007 Board", encoding="gbk")
good("cbf07-board-absent-value", "cbf", "cbf-2007", c07('<Board/>', mv07("77-47")),
     "a Board without value: the standard start", "SPEC: CBF 2007 Board", encoding="gbk")
good("cbf07-board-start", "cbf", "cbf-2007", c07('<Board value="%s"/>' % START_BOARD, mv07("77-47")),
     "the start position spelled out", "SPEC: CBF 2007 Board", encoding="gbk")
for name, board, code, desc in [
    ("89-points", "3w80W4-r1", "E0302", "89 points"),
    ("91-points", "3w82W4-r1", "E0302", "91 points"),
    ("fen-letters", "rnbakabnr10c5c1p1p1p1p1p18P1P1P1P1P1C5C10RNBAKABNR-r1", "E0210", "FEN letters (n, a, k, r ... are no Board letters)"),
    ("side-w", "3w81W4-w1", "E0210", "side w (the Board string says r)"),
    ("move-zero", "3w81W4-r0", "E0210", "move number 0"),
    ("no-side", "3w81W4", "E0210", "no side and move number"),
    ("leading-zero-run", "03w81W4-r1", "E0210", "a run written 03"),
]:
    bad("cbf07-board-" + name, "cbf07-board-endgame", c07('<Board value="%s"/>' % board, mv07("49-48")),
        [code], desc, "SPEC: CBF 2007 Board" if code == "E0302" else "cbf-2007.xsd: BoardString")
good("cbf07-board-black-to-move", "cbf", "cbf-2007", c07('<Board value="3w81W4-b7"/>', mv07("30-31")),
     "black to move at move 7: black moves first", "SPEC: CBF 2007 Board", encoding="gbk")
bad("cbf07-board-black-to-move-red-moves", "cbf07-board-black-to-move", c07('<Board value="3w81W4-b7"/>', mv07("49-48")),
    ["E0307"], "black to move, but red moves", "SPEC: CBF legal moves")

# Moves and nid.
good("cbf07-move-value-edges", "cbf", "cbf-2007", c07("", mv07("89-88", "00-01", "09-08")),
     "moves from and to the board's last column and row (8 and 9)", "SPEC: CBF 2007 Move value", encoding="gbk")
bad("cbf07-move-missing-nid", "cbf07-minimal", c07("<Name>中炮</Name>", '<Move value="77-47"/>'), ["E0205"],
    "a move without nid", "SPEC: CBF 2007 Move nid")
bad("cbf07-move-missing-value", "cbf07-minimal", c07("<Name>中炮</Name>", '<Move nid="1"/>'), ["E0205"],
    "a move without value", "cbf-2007.xsd: Move")
bad("cbf07-nid-zero", "cbf07-minimal", c07("<Name>中炮</Name>", '<Move nid="0" value="77-47"/>'), ["E0211"],
    "nid 0 (positiveInteger)", "SPEC: CBF 2007 Move nid")
bad("cbf07-nid-word", "cbf07-minimal", c07("<Name>中炮</Name>", '<Move nid="one" value="77-47"/>'), ["E0208"],
    "nid one", "SPEC: CBF 2007 Move nid")
bad("cbf07-nid-decimal", "cbf07-minimal", c07("<Name>中炮</Name>", '<Move nid="1.0" value="77-47"/>'), ["E0208"],
    "nid 1.0", "SPEC: CBF 2007 Move nid")
bad("cbf07-nid-starts-at-2", "cbf07-minimal", c07("<Name>中炮</Name>", '<Move nid="2" value="77-47"/>'), ["E0305"],
    "the first move has nid 2", "SPEC: CBF 2007 Move nid")
good("cbf07-main-line", "cbf", "cbf-2007", c07("<Name>中炮</Name>", mv07(*MAIN)),
     "a six-ply main line, nid 1..6", "SPEC: CBF 2007 Move nid", encoding="gbk")
bad("cbf07-nid-jumps", "cbf07-main-line",
    c07("<Name>中炮</Name>", mv07(*MAIN).replace('nid="4"', 'nid="5"', 1)), ["E0305"],
    "nid jumps from 3 to 5", "SPEC: CBF 2007 Move nid")
for i, v in enumerate(["97-47", "7-47", "77-4"]):
    bad("cbf07-move-pattern-%d" % (i + 1), "cbf07-minimal", c07("<Name>中炮</Name>", mv07(v)), ["E0210"],
        "Move value=\"%s\"" % v, "SPEC: CBF 2007 Move value")
bad("cbf07-move-placeholder", "cbf07-minimal", c07("<Name>中炮</Name>", mv07("00-00", "77-47")), ["E0307"],
    "00-00 in a 2007 record is no placeholder but a null move",
    "SPEC: CBF legal moves")

# The seed's nid example: 1A 2B 3C 4D 5E 6F 4G 2H 3I 4J 5K gives the lines ABCDEF, ABCG, AHIJK.
SEED_TREE = [(1, "77-47"), (2, "10-22"), (3, "79-67"), (4, "72-52"), (5, "89-88"), (6, "00-01"),
             (4, "70-62"), (2, "70-62"), (3, "79-67"), (4, "10-22"), (5, "89-88")]
def nid_moves(tree):
    return "".join('<Move nid="%d" value="%s"/>' % m for m in tree)
good("cbf07-seed-variations", "cbf", "cbf-2007", c07("<Name>变着</Name>", nid_moves(SEED_TREE)),
     "the seed's nid example shape: lines ABCDEF, ABCG, AHIJK", "SPEC: CBF 2007 Move nid", encoding="gbk")
t = list(SEED_TREE); t[7] = (3, "70-62")
bad("cbf07-seed-variations-jump", "cbf07-seed-variations", c07("<Name>变着</Name>", nid_moves(t)), ["E0307"],
    "H given nid 3: a second move after B, so black moves at red's turn (the tree is fine, the moves are not)",
    "SPEC: CBF 2007 Move nid")
t = list(SEED_TREE); t[7] = (2, "19-27")
bad("cbf07-seed-variations-illegal", "cbf07-seed-variations", c07("<Name>变着</Name>", nid_moves(t)), ["E0307"],
    "H is a red move at black's turn, in the third line only", "SPEC: CBF legal moves")
t = list(SEED_TREE) + [(7, "77-47")]
bad("cbf07-seed-variations-nid-jump-late", "cbf07-seed-variations", c07("<Name>变着</Name>", nid_moves(t)), ["E0305"],
    "a last move with nid 7 after a move with nid 5", "SPEC: CBF 2007 Move nid")

# Dialect mix.
good("cbf10-dialect-version", "cbf", "cbf-1.0", c10("", mv10("77-47")).replace("<Head></Head>", "<Head><RecordResult/></Head>"),
     "Version=\"1.0\" makes a 1.0 record", "SPEC: CBF dialect")
good("cbf07-dialect-no-version", "cbf", "cbf-2007", c07('<Result value="0"/>', mv07("77-47")),
     "no Version makes a 2007 record", "SPEC: CBF dialect", encoding="gbk")
bad("cbf10-nid", "cbf10-dialect-version", c10("", '<Move nid="1" value="77-47"/>'), ["E0301"],
    "a 1.0 record with a 2007 nid", "SPEC: CBF dialect")
bad("cbf07-branch", "cbf07-seed-variations",
    c07("<Name>变着</Name>", nid_moves(SEED_TREE).replace('<Move nid="6" value="00-01"/>', '<Move nid="6" value="00-01" end="1"/>')),
    ["E0301"], "a 2007 record with a 1.0 end flag", "SPEC: CBF dialect")
bad("cbf07-with-placeholder-and-version-missing", "cbf07-minimal",
    c07("<Name>中炮</Name>", mv10("00-00", "77-47")), ["E0205"],
    "a 1.0 MoveList without Version: read as 2007, every Move lacks nid", "SPEC: CBF dialect")

# ---------------------------------------------------------------------------------------
# CBF 1.0 move tree and placeholder.

good("cbf10-main-line", "cbf", "cbf-1.0", c10("<Red>许银川</Red>", mv10(*MAIN[:-1]) + '<Move value="10-22" end="1"/>'),
     "a main line whose last move carries end=1", "SPEC: CBF 1.0 branch/end")
VAR10 = '<Move value="77-47"/><Move value="10-22" branch="1" end="1"/><Move value="70-62" end="1"/>'
good("cbf10-variation", "cbf", "cbf-1.0", c10("", VAR10),
     "a variation at ply 2: 10-22 (main) or 70-62", "SPEC: CBF 1.0 branch/end")
VAR10_NESTED = ('<Move value="77-47" branch="1"/><Move value="70-62"/><Move value="79-67" branch="1"/>'
                '<Move value="80-70" end="1"/><Move value="19-27" end="1"/><Move value="79-67"/>'
                '<Move value="10-22" end="1"/>')
good("cbf10-variation-nested", "cbf", "cbf-1.0", c10("", VAR10_NESTED),
     "nested variations: at ply 1 (77-47 | 79-67) and ply 3 (79-67 | 19-27)", "SPEC: CBF 1.0 branch/end")
bad("cbf10-end-closes-main-line", "cbf10-variation",
    c10("", '<Move value="77-47" end="1"/><Move value="70-62"/>'), ["E0305"],
    "end=1 on the main line, then more moves", "SPEC: CBF 1.0 branch/end")
bad("cbf10-branch-never-closed", "cbf10-variation",
    c10("", '<Move value="77-47" branch="1"/><Move value="70-62"/>'), ["E0305"],
    "branch=1 but no sibling follows", "SPEC: CBF 1.0 branch/end")
bad("cbf10-variation-illegal", "cbf10-variation",
    c10("", VAR10.replace('<Move value="70-62" end="1"/>', '<Move value="19-27" end="1"/>')), ["E0307"],
    "the variation's move is red's at black's turn", "SPEC: CBF legal moves")
bad("cbf10-variation-nested-illegal", "cbf10-variation-nested",
    c10("", VAR10_NESTED.replace('<Move value="19-27" end="1"/>', '<Move value="19-38" end="1"/>')), ["E0307"],
    "in the inner variation, a horse whose leg is blocked", "SPEC: CBF legal moves")
bad("cbf10-no-placeholder", "cbf10-minimal", c10("", "", first=mv10("77-47")), ["E0306"],
    "the first move is 77-47, not 00-00", "SPEC: CBF 1.0 MoveList 00-00")
bad("cbf10-placeholder-later", "cbf10-minimal", c10("", mv10("77-47", "00-00")), ["E0306"],
    "00-00 again after a move", "SPEC: CBF 1.0 MoveList 00-00")

# ---------------------------------------------------------------------------------------
# Move legality: (name, prefix, legal neighbour move, illegal move, description). The prefix
# is played first from the standard start; both dialects.

LEGAL = [
    ("horse-leg", [], "19-27", "19-38", "a horse whose leg (c0) is blocked"),
    ("horse-shape", [], "19-27", "19-18", "a horse moving one point straight"),
    ("elephant-eye", ["77-78", "70-62"], "69-47", "69-87", "an elephant whose eye (h1) is blocked"),
    ("elephant-river", ["29-47", "70-62", "47-25", "80-70"], "25-07", "25-03", "an elephant crossing the river"),
    ("advisor-palace", [], "39-48", "39-28", "an advisor leaving the palace"),
    ("advisor-straight", [], "39-48", "39-38", "an advisor moving straight"),
    ("king-palace", ["49-48", "70-62", "48-58", "62-70"], "58-57", "58-68", "the king leaving the palace"),
    ("king-two-points", [], "49-48", "49-47", "the king moving two points"),
    ("cannon-no-screen", [], "17-10", "17-12", "a cannon capturing without a screen"),
    ("cannon-jump-no-capture", [], "77-74", "77-71", "a cannon jumping a piece onto an empty point"),
    ("cannon-two-screens", ["77-47", "70-62"], "47-43", "47-40", "a cannon capturing over two screens"),
    ("rook-through-piece", [], "09-08", "09-03", "a rook passing through a pawn"),
    ("pawn-backwards", [], "06-05", "06-07", "a pawn moving backwards"),
    ("pawn-sideways-before-river", [], "06-05", "06-16", "a pawn moving sideways before crossing the river"),
    ("pawn-two-points", [], "06-05", "06-04", "a pawn moving two points"),
    ("capture-own-piece", [], "09-07", "09-06", "a rook capturing its own pawn"),
    ("empty-point", [], "77-47", "44-43", "a move from an empty point"),
    ("wrong-side", [], "77-47", "70-62", "black moving first"),
    ("null-move", [], "77-47", "77-77", "a move to the point it starts from"),
]
for name, prefix, legal, illegal, desc in LEGAL:
    good("cbf10-move-%s-ok" % name, "cbf", "cbf-1.0", c10("", mv10(*(prefix + [legal]))),
         "legal: %s instead of %s" % (legal, desc), "SPEC: CBF legal moves")
    bad("cbf10-move-%s" % name, "cbf10-move-%s-ok" % name, c10("", mv10(*(prefix + [illegal]))), ["E0307"],
        desc, "SPEC: CBF legal moves")
    good("cbf07-move-%s-ok" % name, "cbf", "cbf-2007", c07("", mv07(*(prefix + [legal]))),
         "legal: %s instead of %s" % (legal, desc), "SPEC: CBF legal moves", encoding="gbk")
    bad("cbf07-move-%s" % name, "cbf07-move-%s-ok" % name, c07("", mv07(*(prefix + [illegal]))), ["E0307"],
        desc, "SPEC: CBF legal moves")

# From positions (1.0 FEN).
FEN_LEGAL = [
    ("flying-general", "3k5/9/9/9/9/9/9/9/9/4K4 w", "49-48", "49-39", "the red king steps onto the black king's open file"),
    ("into-check", "4k4/9/9/9/9/4r4/9/9/9/3K5 w", "39-38", "39-49", "the red king steps onto the rook's file"),
    ("pinned-piece", "4k4/9/9/9/9/4r4/9/9/4R4/4K4 w", "48-47", "48-38", "a pinned rook leaves the king's file"),
    ("ignore-check", "4k4/9/9/9/9/3r4R/9/9/9/3K5 w", "85-35", "85-84", "red ignores a check by the rook on d5"),
    ("pawn-sideways-after-river", "4k4/9/9/9/4P4/9/9/9/9/3K5 w", "44-34", "44-45", "a crossed pawn moving backwards"),
]
for name, fen, legal, illegal, desc in FEN_LEGAL:
    good("cbf10-move-%s-ok" % name, "cbf", "cbf-1.0", c10("<FEN>%s</FEN>" % fen, mv10(legal)),
         "legal: %s instead of %s" % (legal, desc), "SPEC: CBF legal moves")
    bad("cbf10-move-" + name, "cbf10-move-%s-ok" % name, c10("<FEN>%s</FEN>" % fen, mv10(illegal)), ["E0307"],
        desc, "SPEC: CBF legal moves")

# Results that contradict a mate: a warning only.
MATE_FEN = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w"
good("cbf10-mate-result-agrees", "cbf", "cbf-1.0",
     c10("<RecordResult>1</RecordResult><FEN>%s</FEN>" % MATE_FEN, mv10("19-10")),
     "red mates and the result says red wins", "SPEC: CBF result")
good("cbf10-mate-result-contradicts", "cbf", "cbf-1.0",
     c10("<RecordResult>2</RecordResult><FEN>%s</FEN>" % MATE_FEN, mv10("19-10")),
     "red mates but the result says black wins: a warning, still valid", "SPEC: CBF result",
     warnings=["E0308"])
MATE_BOARD = "4w4J72J1W5-r1"
good("cbf07-mate-result-agrees", "cbf", "cbf-2007",
     c07('<Result value="1">红胜</Result><Board value="%s"/>' % MATE_BOARD, mv07("19-10")),
     "red mates and Result says red wins", "SPEC: CBF result", encoding="gbk")
good("cbf07-mate-result-contradicts", "cbf", "cbf-2007",
     c07('<Result value="3">和棋</Result><Board value="%s"/>' % MATE_BOARD, mv07("19-10")),
     "red mates but Result says draw: a warning, still valid", "SPEC: CBF result", encoding="gbk",
     warnings=["E0308"])

# ---------------------------------------------------------------------------------------
# CIF, schema layer.

EVERY_MARKER = (
    '1. e4 <arrow color="red" opacity="128" from="e2" to="e4"/> e5 '
    + "".join('<marker type="%s" color="%s" at="%s"/>' % (t, c, s) for t, c, s in [
        ("full", "orange", "a1"), ("square", "yellow", "b2"), ("disk", "green", "c3"), ("circle", "blue", "d4"),
        ("rectangle", "darkblue", "e5"), ("cross", "purple", "f6"), ("littlecross", "white", "g7")])
    + '<marker type="text" color="black" at="h8">x</marker>'
    + "".join('<marker at="%s">%s</marker>' % (s, y) for s, y in [("a8", "skull"), ("b8", "mushroom"), ("c8", "strawberry"), ("d8", "parcel")])
    + '<line color="red" opacity="1">a1b2c3</line><region color="green" from="c3" to="a1">zone</region>'
    + '<value at="e4">-128</value><value at="e5">127</value> 2. Nf3')
good("cif-every-marker", "cif", None, cif(EVERY_MARKER),
     "every marker kind, every colour, move text between them", "SPEC: CIF marker shapes")
good("cif-two-games", "cif", None,
     cif("", games='<game><moves>1. e4</moves></game>\n<game boardsize="9x10"><moves><arrow color="red" from="i10" to="a1"/></moves></game>\n'),
     "two games, one without markers", "SPEC: CIF carrier")
good("cif-empty-moves", "cif", None, cif(""), "a game with empty moves", "SPEC: CIF carrier")
bad("cif-no-game", "cif-empty-moves", cif("", games=""), ["E0203"], "<cif> without a game", "SPEC: CIF carrier")
bad("cif-game-no-moves", "cif-empty-moves", cif("", games="<game></game>\n"), ["E0203"], "a game without moves",
    "SPEC: CIF carrier")
bad("cif-two-moves", "cif-empty-moves", cif("", games="<game><moves/><moves/></game>\n"), ["E0202"],
    "a game with two moves elements", "SPEC: CIF carrier")
bad("cif-unknown-marker-element", "cif-minimal", cif('<arrow color="red" from="e2" to="e4"/><circle at="a1"/>'),
    ["E0202"], "<circle>: not a marker element", "cif.xsd: Moves")
bad("cif-text-in-game", "cif-empty-moves", cif("", games="<game>1. e4<moves/></game>\n"), ["E0207"],
    "move text outside <moves>", "cif.xsd: Game (element-only)")
bad("cif-text-in-root", "cif-empty-moves", cif("", games="text<game><moves/></game>\n"), ["E0207"],
    "text in <cif>", "cif.xsd: cif (element-only)")
bad("cif-arrow-content", "cif-minimal", cif('<arrow color="red" from="e2" to="e4">x</arrow>'), ["E0207"],
    "text in an arrow (empty content)", "cif.xsd: Arrow")
bad("cif-arrow-child", "cif-minimal", cif('<arrow color="red" from="e2" to="e4"><value at="a1">1</value></arrow>'), ["E0202"],
    "an element inside an arrow", "cif.xsd: Arrow")
bad("cif-arrow-missing-to", "cif-minimal", cif('<arrow color="red" from="e2"/>'), ["E0205"],
    "an arrow without to", "cif.xsd: Arrow")
bad("cif-arrow-missing-color", "cif-minimal", cif('<arrow from="e2" to="e4"/>'), ["E0205"],
    "an arrow without color", "cif.xsd: Arrow")
bad("cif-arrow-unknown-attribute", "cif-minimal", cif('<arrow color="red" from="e2" to="e4" width="3"/>'), ["E0204"],
    "an arrow with width", "cif.xsd: Arrow")
bad("cif-game-unknown-attribute", "cif-minimal", cif('<arrow color="red" from="e2" to="e4"/>', game=' variant="x"'), ["E0204"],
    "a game with an undeclared attribute", "cif.xsd: Game")

good("cif-colors", "cif", None,
     cif("".join('<arrow color="%s" from="a%d" to="h%d"/>' % (c, i + 1, i + 1) for i, c in enumerate(
         ["red", "orange", "yellow", "green", "blue", "darkblue", "purple", "white"])) + '<line color="black">a1h8</line>'),
     "all nine colours", "SPEC: CIF Color")
good("cif-value-bounds", "cif", None, cif('<value at="a1">-128</value><value at="a2">0</value><value at="a3">127</value>'),
     "values -128, 0 and 127", "SPEC: CIF Value")
SYMBOLS = '<marker at="a1">skull</marker><marker at="a2">mushroom</marker><marker at="a3" opacity="9">strawberry</marker><marker at="a4">parcel</marker>'
good("cif-symbols", "cif", None, cif(SYMBOLS),
     "the four symbols", "SPEC: CIF SymbolMarker")
for c in ["pink", "Red", "RED", " red", ""]:
    bad("cif-color-%s" % (c.strip().lower() + ("-upper" if c.isupper() else "-cap" if c[:1].isupper() else "-space" if c.startswith(" ") else "") or "empty"),
        "cif-colors", cif('<arrow color="%s" from="e2" to="e4"/>' % c), ["E0209"],
        "color=\"%s\"" % c, "SPEC: CIF Color")
for o, code in [("0", "E0211"), ("256", "E0211"), ("-1", "E0211"), ("x", "E0208"), ("1.5", "E0208")]:
    bad("cif-opacity-%s" % o.replace("-", "minus").replace(".", "_"), "cif-every-marker",
        cif(EVERY_MARKER.replace('opacity="128"', 'opacity="%s"' % o)), [code],
        "opacity=\"%s\"" % o, "SPEC: CIF Opacity")
good("cif-opacity-bounds", "cif", None,
     cif('<arrow color="red" opacity="1" from="e2" to="e4"/><marker type="full" color="red" opacity="255" at="a1"/>'),
     "opacity 1 and 255", "SPEC: CIF Opacity")
for v, code in [("128", "E0211"), ("-129", "E0211"), ("1.5", "E0208"), ("", "E0208"), ("ten", "E0208")]:
    bad("cif-value-%s" % (v.replace("-", "minus").replace(".", "_") or "empty"), "cif-value-bounds",
        cif('<value at="a1">-128</value><value at="a2">0</value><value at="a3">%s</value>' % v), [code],
        "value content \"%s\"" % v, "SPEC: CIF Value")
bad("cif-value-missing-at", "cif-every-marker", cif(EVERY_MARKER.replace('<value at="e5">', '<value>')), ["E0205"],
    "a value without at", "cif.xsd: Value")

# Marker shapes.
bad("cif-marker-type-unknown", "cif-every-marker", cif(EVERY_MARKER.replace('type="full"', 'type="star"')), ["E0209"],
    "a square marker of type star", "cif.xsd: MarkerTypeID")
bad("cif-marker-text-two-chars", "cif-every-marker", cif(EVERY_MARKER.replace(">x</marker>", ">xy</marker>")), ["E0212"],
    "a text marker of two characters", "SPEC: CIF TextMarker")
bad("cif-marker-text-empty", "cif-every-marker", cif(EVERY_MARKER.replace(">x</marker>", "></marker>")), ["E0212"],
    "an empty text marker", "SPEC: CIF TextMarker")
good("cif-marker-text-cjk", "cif", None, cif('<marker type="text" color="red" at="e1">帅</marker>'),
     "a text marker of one CJK character (three UTF-8 bytes)", "SPEC: CIF TextMarker")
good("cif-marker-text-astral", "cif", None, cif('<marker type="text" color="red" at="e1">\U0001D11E</marker>'),
     "a text marker outside the BMP (one character, two UTF-16 units)", "SPEC: CIF TextMarker")
good("cif-marker-text-reference", "cif", None, cif('<marker type="text" color="red" at="e1">&lt;</marker>'),
     "a text marker written as a character reference", "SPEC: CIF TextMarker")
bad("cif-marker-text-combining", "cif-marker-text-cjk", cif('<marker type="text" color="red" at="e1">e\u0301</marker>'), ["E0212"],
    "e + combining acute: two characters", "SPEC: CIF TextMarker")
bad("cif-marker-text-gbk-two", "cif-marker-text-cjk", cif('<marker type="text" color="red" at="e1">帅将</marker>'), ["E0212"],
    "two CJK characters", "SPEC: CIF TextMarker")
bad("cif-symbol-unknown", "cif-symbols", cif(SYMBOLS.replace(">parcel<", ">bomb<")), ["E0209"],
    "a symbol bomb", "SPEC: CIF SymbolMarker")
bad("cif-symbol-uppercase", "cif-symbols", cif(SYMBOLS.replace(">skull<", ">Skull<")), ["E0209"],
    "Skull with a capital", "SPEC: CIF SymbolMarker")
bad("cif-square-marker-content", "cif-every-marker", cif(EVERY_MARKER.replace('at="a1"/>', 'at="a1">skull</marker>', 1)), ["E0207"],
    "a square marker with content", "SPEC: CIF marker shapes")
bad("cif-marker-no-shape-symbol-color", "cif-every-marker",
    cif(EVERY_MARKER.replace('<marker at="a8">skull', '<marker color="red" at="a8">skull')), ["E0204", "E0214"],
    "a symbol with a colour fits no shape", "SPEC: CIF marker shapes")
bad("cif-marker-no-shape-text-from", "cif-every-marker",
    cif(EVERY_MARKER.replace('<marker type="text" color="black" at="h8">', '<marker type="text" color="black" at="h8" from="a1">')),
    ["E0204", "E0214"], "a text marker with from fits no shape", "SPEC: CIF marker shapes")
bad("cif-marker-no-shape-square-no-color", "cif-every-marker",
    cif(EVERY_MARKER.replace('<marker type="full" color="orange" at="a1"/>', '<marker type="full" at="a1"/>')),
    ["E0205", "E0214"], "a square marker without colour fits no shape", "SPEC: CIF marker shapes")
bad("cif-marker-missing-at", "cif-every-marker",
    cif(EVERY_MARKER.replace('<marker type="disk" color="green" at="c3"/>', '<marker type="disk" color="green"/>')),
    ["E0205", "E0214"], "a square marker without at", "SPEC: CIF marker shapes")
bad("cif-marker-text-type-case", "cif-every-marker",
    cif(EVERY_MARKER.replace('<marker type="text"', '<marker type="Text"')), ["E0209", "E0207"],
    "type=\"Text\": not the text shape, so a square marker of an unknown type with content", "SPEC: CIF marker shapes")

# Squares and lines.
SQ_BAD = [("ab1", "ab is not a file"), ("a0", "rank 0"), ("a65", "rank 65"), ("a01", "a leading zero"),
          ("E4", "an upper-case file"), ("e4I", "3D board I"), ("e4A9", "4D row 9"), ("e4a", "a lower-case board letter"),
          ("mmmm1", "a quadrupled file"), ("mmm1", "mmm: tripled files stop at lll"), ("e", "no rank"), ("4e", "rank before file")]
good("cif-square-3d-4d", "cif", None,
     cif('<arrow color="red" from="e4B" to="e4B3"/><marker at="h8H8">parcel</marker><region color="red" from="a1A1" to="h8A1"/>'),
     "3D and 4D squares on an 8x8 board", "SPEC: CIF Square 3D/4D")
good("cif-square-files", "cif", None,
     cif('<arrow color="red" from="z1" to="aa1"/><arrow color="red" from="zz1" to="aaa1"/><marker at="lll1">skull</marker>',
         game=' boardsize="64x64"'),
     "files z, aa, zz, aaa, lll on a 64x64 board", "SPEC: CIF Square file")
good("cif-square-ranks", "cif", None,
     cif('<arrow color="red" from="a9" to="a10"/><arrow color="red" from="b59" to="b64"/>', game=' boardsize="8x64"'),
     "ranks 9, 10, 59, 64 on an 8x64 board", "SPEC: CIF Square rank")
for s, desc in SQ_BAD:
    rule = ("SPEC: CIF Square rank" if desc.startswith("rank") or "zero" in desc or "no rank" in desc
            else "SPEC: CIF Square 3D/4D" if "board" in desc or "4D" in desc else "SPEC: CIF Square file")
    neighbour = {"SPEC: CIF Square rank": "cif-square-ranks", "SPEC: CIF Square file": "cif-square-files"}.get(rule, "cif-square-3d-4d")
    bad("cif-square-%s" % s, neighbour, cif('<arrow color="red" from="e2" to="%s"/>' % s), ["E0210"],
        "square %s: %s" % (s, desc), rule)
good("cif-line-long", "cif", None, cif('<line color="blue">a1b2c3d4e5f6g7h8</line>'),
     "a line of eight vertices", "SPEC: CIF Squares")
for s, desc in [("a1", "one vertex"), ("", "no vertex"), ("a1 b2", "a space between squares"), ("a1,b2", "a comma"),
                ("a1b", "a trailing file without rank"), ("a1B2C", "C after a 4D square")]:
    bad("cif-line-%s" % (s.replace(" ", "_").replace(",", "comma") or "empty"), "cif-line-long",
        cif('<line color="blue">%s</line>' % s), ["E0210"], "line content \"%s\": %s" % (s, desc), "SPEC: CIF Squares")
bad("cif-line-missing-color", "cif-line-long", cif('<line>a1b2c3d4e5f6g7h8</line>'), ["E0205"],
    "a line without colour", "cif.xsd: Line")
bad("cif-line-3d-mixed-off-board", "cif-line-long", cif('<line color="blue">a1B2aa1lll64H8</line>'), ["E0401"],
    "a line through aa1 and lll64H8 on the 8x8 board: one error per square", "SPEC: CIF square on board")
bad("cif-region-missing-to", "cif-every-marker", cif(EVERY_MARKER.replace(' to="a1">zone', '>zone')), ["E0205"],
    "a region without to", "cif.xsd: Region")
bad("cif-region-opacity", "cif-every-marker", cif(EVERY_MARKER.replace('<region color="green"', '<region color="green" opacity="3"')), ["E0204"],
    "a region has no opacity", "cif.xsd: Region")

# Board sizes.
for bs, desc in [("65x8", "65 files"), ("8x0", "0 ranks"), ("8X8", "an upper-case X"), ("8x08", "a leading zero"),
                 ("8", "one number"), ("8x8x8", "three numbers"), (" 8x8", "a leading space")]:
    bad("cif-boardsize-%s" % bs.strip().replace(" ", "_") + ("-space" if bs.startswith(" ") else ""), "cif-minimal",
        cif('<arrow color="red" from="e2" to="e4"/>', game=' boardsize="%s"' % bs), ["E0210"],
        "boardsize=\"%s\": %s" % (bs, desc), "SPEC: CIF board size")
for a, code in [('files="0"', "E0211"), ('files="65"', "E0211"), ('ranks="x"', "E0208"), ('ranks="-8"', "E0211"),
                ('files="8.0"', "E0208")]:
    bad("cif-dimension-%s" % a.replace('"', "").replace("=", "-").replace(".", "_"), "cif-minimal",
        cif('<arrow color="red" from="e2" to="e4"/>', game=" " + a), [code],
        "%s" % a, "SPEC: CIF board size")
good("cif-size-agree", "cif", None, cif('<arrow color="red" from="j1" to="a12"/>', game=' boardsize="10x12" files="10" ranks="12"'),
     "boardsize and files/ranks agree", "SPEC: CIF board size")
bad("cif-size-conflict-ranks", "cif-size-agree", cif('<arrow color="red" from="j1" to="a12"/>', game=' boardsize="10x12" files="10" ranks="13"'),
    ["E0402"], "boardsize 10x12 but ranks 13", "SPEC: CIF board size")
bad("cif-size-conflict-files", "cif-size-agree", cif('<arrow color="red" from="j1" to="a12"/>', game=' boardsize="10x12" files="11"'),
    ["E0402"], "boardsize 10x12 but files 11", "SPEC: CIF board size")

# Squares on boards of several sizes: (board attributes, size name, on-board square, off-board square).
BOARDS = [
    ("", "8x8 (default)", "h8", "i8"),
    ("", "8x8 (default)", "h8", "h9"),
    (' boardsize="1x1"', "1x1", "a1", "b1"),
    (' boardsize="9x10"', "9x10", "i10", "i11"),
    (' boardsize="10x10"', "10x10", "j10", "k10"),
    (' boardsize="19x19"', "19x19", "s19", "t19"),
    (' boardsize="26x26"', "26x26", "z26", "aa26"),
    (' boardsize="27x30"', "27x30", "aa30", "bb30"),
    (' boardsize="52x52"', "52x52", "zz52", "aaa52"),
    (' boardsize="53x53"', "53x53", "aaa53", "bbb53"),
    (' boardsize="64x64"', "64x64", "lll64", "lll1A1"),  # the second is on board; see below
    (' boardsize="64x63"', "64x63", "lll63", "lll64"),
    (' files="5"', "5x8 by files", "e8", "f8"),
    (' ranks="12"', "8x12 by ranks", "h12", "h13"),
    (' files="3" ranks="3"', "3x3 by files and ranks", "c3", "c4"),
]
ELEMENTS = [
    ("arrow", lambda s: '<arrow color="red" from="a1" to="%s"/>' % s),
    ("square-marker", lambda s: '<marker type="circle" color="blue" at="%s"/>' % s),
    ("text-marker", lambda s: '<marker type="text" color="blue" at="%s">A</marker>' % s),
    ("symbol", lambda s: '<marker at="%s">strawberry</marker>' % s),
    ("line", lambda s: '<line color="red">a1%s</line>' % s),
    ("region", lambda s: '<region color="red" from="a1" to="%s"/>' % s),
    ("value", lambda s: '<value at="%s">7</value>' % s),
]
seen = set()
for i, (game, size, on, off) in enumerate(BOARDS):
    if off == "lll1A1":
        continue
    el_name, el = ELEMENTS[i % len(ELEMENTS)]
    key = "cif-board-%s" % size.split(" ")[0]
    if key in seen:
        key += "-%d" % i
    seen.add(key)
    good(key + "-on", "cif", None, cif(el(on), game=game), "%s on square %s of the %s board" % (el_name, on, size),
         "SPEC: CIF square on board")
    bad(key + "-off", key + "-on", cif(el(off), game=game), ["E0401"],
        "%s on square %s, off the %s board" % (el_name, off, size), "SPEC: CIF square on board")
good("cif-board-64x64-everything", "cif", None,
     cif("".join(e(s) for _, e in ELEMENTS for s in ["lll64"]).replace('<line color="red">a1lll64</line>', '<line color="red">a1zz52aaa53lll64H8</line>'),
         game=' boardsize="64x64"'),
     "every element kind at lll64 on the largest board", "SPEC: CIF square on board")
for el_name, el in ELEMENTS:
    bad("cif-off-board-8x8-" + el_name, "cif-minimal", cif(el("a9")), ["E0401"],
        "%s on a9, off the default 8x8 board" % el_name, "SPEC: CIF square on board")

# Regions.
good("cif-region-same-board", "cif", None,
     cif('<region color="red" from="a1B" to="c3B"/><region color="red" from="c1" to="a3"/><region color="red" from="a1C2" to="b2C2"/>'),
     "regions on one 3D board, on the 2D board (corners in either order), on one 4D board", "SPEC: CIF region")
bad("cif-region-two-boards", "cif-region-same-board",
    cif('<region color="red" from="a1B" to="c3C"/><region color="red" from="c1" to="a3"/><region color="red" from="a1C2" to="b2C2"/>'),
    ["E0404"], "a region from board B to board C", "SPEC: CIF region")
bad("cif-region-2d-3d", "cif-region-same-board",
    cif('<region color="red" from="a1B" to="c3B"/><region color="red" from="c1" to="a3A"/><region color="red" from="a1C2" to="b2C2"/>'),
    ["E0404"], "a region from the 2D board to board A", "SPEC: CIF region")
bad("cif-region-4d-rows", "cif-region-same-board",
    cif('<region color="red" from="a1B" to="c3B"/><region color="red" from="c1" to="a3"/><region color="red" from="a1C2" to="b2C3"/>'),
    ["E0404"], "a region across two 4D rows of board C", "SPEC: CIF region")
bad("cif-several-rules", "cif-region-same-board",
    cif('<region color="red" from="a1B" to="i3C"/>', game=' boardsize="8x8" ranks="9"'),
    ["E0401", "E0402", "E0404"], "one game breaking three rules: every one is reported", "SPEC: CIF region")

# ---------------------------------------------------------------------------------------
# Regressions found by the fuzz targets (fuzz/, scripts/fuzz.sh), in cases/fuzz/.


def ends_incomplete(doc, tail):
    """`doc` (bytes) padded with a comment to over 1 KiB (so the reader does not see the
    end of the file in its first read), then `tail`, an incomplete multi-byte sequence,
    after the root element: the decoder holds it until the end of the file."""
    utf16 = {b"\xff\xfe": "utf-16-le", b"\xfe\xff": "utf-16-be"}.get(doc[:2])
    pad = "<!--" + "x" * 1100 + "-->\n"
    return doc + (pad.encode(utf16) if utf16 else pad.encode("ascii")) + tail


bad("fuzz-utf16le-odd-byte-at-end", "cbf07-utf16le",
    ends_incomplete(encode(c07("<Name>中炮</Name>", mv07("77-47"), enc="utf-16le"), "utf-16le"), b"\x0a"),
    ["E0102"], "a UTF-16 file over 1 KiB ending with an odd byte (fuzz validate: a subtract "
    "overflow in the decoder, a slice panic without overflow checks)", "SPEC: CBF encoding",
    folder="fuzz")
bad("fuzz-utf16le-lone-lead-surrogate-at-end", "cbf07-utf16le",
    ends_incomplete(encode(c07("<Name>中炮</Name>", mv07("77-47"), enc="utf-16le"), "utf-16le"), b"\x00\xd8"),
    ["E0102"], "a UTF-16 file over 1 KiB ending with a lead surrogate", "SPEC: CBF encoding",
    folder="fuzz")
bad("fuzz-utf8-truncated-sequence-at-end", "cbf10-minimal",
    ends_incomplete(encode(c10("<Red>中炮</Red>", mv10("77-47")), "utf-8"), b"\xe4\xb8"),
    ["E0102"], "a UTF-8 file over 1 KiB ending in the middle of a three-byte sequence",
    "SPEC: CBF encoding", folder="fuzz")
bad("fuzz-gbk-lead-byte-at-end", "cbf07-minimal",
    ends_incomplete(encode(c07("<Name>中炮</Name>", mv07("77-47")), "gbk"), b"\x81"),
    ["E0102"], "a GBK file over 1 KiB ending with a lead byte", "SPEC: CBF encoding", folder="fuzz")
bad("fuzz-2007-board-run-overflow", "cbf07-board-endgame",
    c07('<Board value="18446744073709551615190-r1"/>', ""),
    ["E0302"], "a run of empty points past usize::MAX (fuzz position: an add overflow; with "
    "wrapping arithmetic it read as 90 empty points)", "SPEC: CBF 2007 Board", folder="fuzz")

bad("fuzz-gbk-four-byte-gb18030-in-cdata", "cbf07-minimal",
    encode(c07("", '<Move nid="1" value="77-47"><![CDATA[中XX炮]]></Move>'), "gbk")
    .replace(b"XX", b"\x84\x30\x84\x31"),
    ["E0102"], "a GB18030 four-byte sequence (84 30 84 31, U+F91E) in a Move's CDATA of a GBK "
    "record: not GBK (fuzz roundtrip: read as U+F91E, written back in GBK as a character "
    "reference, so no longer CDATA: the document changes in a read-write-read)",
    "SPEC: CBF encoding", folder="fuzz")

# Hand-written cases (cases/hand/): listed here, written by hand.
HAND = [
    dict(id="hand-seed-2007-record", file="cases/hand/seed-2007-record.cbf", format="cbf", dialect="cbf-2007",
         encoding="gbk", verdict="valid", codes=[],
         description="the shape of the seed's first example: GBK, Chinese labels, CDATA comments, a variation",
         rule="SPEC: CBF 2007 Move nid"),
    dict(id="hand-seed-2007-record-unclosed-cdata", file="cases/hand/seed-2007-record-unclosed-cdata.cbf",
         format="cbf", dialect="cbf-2007", encoding="gbk", verdict="invalid", codes=["E0101"],
         description="the same record with a CDATA section that never ends", rule="XML 1.0: CDATA sections",
         neighbour="hand-seed-2007-record"),
    dict(id="hand-xqbridge-1.0-record", file="cases/hand/xqbridge-1.0-record.cbf", format="cbf", dialect="cbf-1.0",
         encoding="utf-8", verdict="valid", codes=[],
         description="the layout XiangQi Bridge writes: BOM, 33 Head fields, CRLF, branch/end variations",
         rule="SPEC: CBF 1.0 branch/end"),
    dict(id="hand-xqbridge-1.0-record-stray-end", file="cases/hand/xqbridge-1.0-record-stray-end.cbf",
         format="cbf", dialect="cbf-1.0", encoding="utf-8", verdict="invalid", codes=["E0305"],
         description="the same record with one end=1 too many", rule="SPEC: CBF 1.0 branch/end",
         neighbour="hand-xqbridge-1.0-record"),
]


def main():
    for h in HAND:
        src = os.path.join(ROOT, h["file"])
        assert os.path.exists(src), h["file"]
        if OUT != ROOT:
            os.makedirs(os.path.dirname(os.path.join(OUT, h["file"])), exist_ok=True)
            shutil.copyfile(src, os.path.join(OUT, h["file"]))
    manifest = {
        "suite": "boardxml conformance",
        "version": 1,
        "spec_rules": SPEC_RULES,
        "uncovered_codes": UNCOVERED_CODES,
        "cases": cases + HAND,
    }
    with open(os.path.join(OUT, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, ensure_ascii=False, indent=1)
        f.write("\n")
    # A rule about warnings is broken by a valid case that lists a warning.
    uncovered = [r for r in SPEC_RULES
                 if {"invalid" if c.get("warnings") else c["verdict"]
                     for c in manifest["cases"] if c["rule"] == r} != {"valid", "invalid"}]
    assert not uncovered, uncovered
    print("%d cases" % len(manifest["cases"]))


if __name__ == "__main__":
    main()
