//! Unit tests: the error table (offset, message, hint of every rejection we
//! promise) and translations of the project's real patterns.

use crate::{parse, translate, PatternError, REGEX_SIZE_LIMIT};

/// Compiles a translation the way generated code does.
fn compile(translated: &str) -> Result<regex::Regex, regex::Error> {
    regex::RegexBuilder::new(translated)
        .size_limit(REGEX_SIZE_LIMIT)
        .build()
}

const BLOCK_HINT: Option<&str> = Some(
    "XSD 1.0 knows the Unicode 3.1 block names, e.g. IsBasicLatin, IsGreek, IsCJKUnifiedIdeographs",
);

/// (pattern, offset, text the message must contain, exact hint).
const ERRORS: &[(&str, usize, &str, Option<&str>)] = &[
    (r"[a-a]{1-3}[0-9]{1-2}([A-H][1-8]?)?", 5, "invalid quantifier `{1-3}`", Some("{1,3}")),
    (r"a{,3}", 1, "invalid quantifier `{,3}`", Some("{0,3}")),
    (r"a{x}", 1, "invalid quantifier `{x}`", None),
    (r"a{3,1}", 1, "minimum 3 is greater than maximum 1", None),
    (r"a{1", 1, "unclosed quantifier", Some(r"escape a literal brace as `\{`")),
    (r"{5", 0, "nothing to repeat", Some(r"escape a literal brace as `\{`")),
    (r"a{99999999999}", 1, "too large", None),
    (r"(?:a)", 1, "`(?` group syntax", Some("XSD groups are plain `( ... )`")),
    (r"(?i)a", 1, "`(?` group syntax", Some("XSD groups are plain `( ... )`")),
    (r"a*?", 2, "lazy quantifiers are not XSD", Some("XSD matches whole values, so remove it")),
    (r"a+?", 2, "lazy quantifiers are not XSD", Some("XSD matches whole values, so remove it")),
    (r"a??", 2, "lazy quantifiers are not XSD", Some("XSD matches whole values, so remove it")),
    (r"a*+", 2, "possessive quantifiers are not XSD", Some("XSD matches whole values, so remove it")),
    (r"a{2}{3}", 4, "a quantifier cannot follow a quantifier", None),
    (r"*a", 0, "quantifier `*` has nothing to repeat", Some(r"escape a literal `*` as `\*`")),
    (r"a\b", 1, r"`\b` anchors are not XSD", Some("XSD patterns always match the whole value")),
    (r"\B", 0, r"`\B` anchors are not XSD", Some("XSD patterns always match the whole value")),
    (r"\x41", 0, r"`\x` numeric escapes are not XSD", Some("write the character itself (or an XML character reference `&#x41;` in the schema document)")),
    (r"\u0041", 0, r"`\u` numeric escapes are not XSD", Some("write the character itself (or an XML character reference `&#x41;` in the schema document)")),
    (r"(a)\1", 3, r"back-reference `\1` is not XSD", Some("XSD has no back-references; spell the alternatives out")),
    (r"\$", 0, r"`\$` is not an XSD escape", Some("`$` is an ordinary character in XSD: write `$`")),
    (r"\q", 0, r"unknown escape `\q`", None),
    ("a\\", 1, "lone `\\`", Some(r"write `\\` for a backslash")),
    (r"\p{Greek}", 0, "unknown Unicode category `Greek`", Some(r"\p{IsGreek}")),
    (r"\P{BasicLatin}", 0, "unknown Unicode category `BasicLatin`", Some(r"\P{IsBasicLatin}")),
    (r"\p{IsGreekAndCoptic}", 0, "unknown Unicode block `IsGreekAndCoptic`", BLOCK_HINT),
    (r"\p{Is}", 0, "unknown Unicode block `Is`", BLOCK_HINT),
    (r"\p{Lx}", 0, "unknown Unicode category `Lx`", Some("categories are L, Lu, Ll, Lt, Lm, Lo, M, Mn, Mc, Me, N, Nd, Nl, No, P, Pc, Pd, Ps, Pe, Pi, Pf, Po, Z, Zs, Zl, Zp, S, Sm, Sc, Sk, So, C, Cc, Cf, Co, Cn")),
    (r"\pL", 0, r"`\p` must be followed by `{name}`", Some(r"\p{L}")),
    (r"[]a]", 1, "empty character class", Some(r"a literal `]` is written `\]`")),
    (r"[]", 1, "empty character class", Some(r"a literal `]` is written `\]`")),
    (r"[^]", 2, "empty character class", Some(r"a literal `]` is written `\]`")),
    (r"a]", 1, "unescaped `]`", Some(r"escape it as `\]`")),
    (r"a}", 1, "unescaped `}`", Some(r"escape it as `\}`")),
    (r"[a[b]]", 2, "unescaped `[` inside a character class", Some(r"escape it as `\[`, or subtract a class with `-[...]` at the end")),
    (r"[a", 0, "unclosed character class", Some("add the missing `]`")),
    (r"[a-d-b]", 4, "`-` is only allowed at the start or end", Some(r"escape a literal hyphen as `\-`")),
    (r"[^a-d-b-c]", 5, "`-` is only allowed at the start or end", Some(r"escape a literal hyphen as `\-`")),
    (r"[a-c-1-4x-z-7-9]", 4, "`-` is only allowed at the start or end", Some(r"escape a literal hyphen as `\-`")),
    (r"[a-a-x-x]+", 4, "`-` is only allowed at the start or end", Some(r"escape a literal hyphen as `\-`")),
    // XSD 1.1 would read an unknown block name as "every character"; XSD 1.0
    // has only the names of its table (W3C suite reK88: 1.0 invalid).
    (r"\p{IsaA0-a9}", 0, "unknown Unicode block `IsaA0-a9`", BLOCK_HINT),
    (r"[+--]", 3, "a range cannot end with an unescaped `-`", Some(r"write `\-`")),
    (r"[z-a]", 1, "range `z-a` is out of order", None),
    (r"[\s-z]", 1, "a multi-character escape cannot start a range", Some(r"escape a literal hyphen as `\-`")),
    (r"[a-\d]", 3, "a multi-character escape cannot end a range", Some(r"escape a literal hyphen as `\-`")),
    (r"[a-z-[b]x]", 8, "must be the last thing in its class", Some("move it to the end, just before `]`")),
    (r"(a", 0, "unclosed group", Some("add the missing `)`")),
    (r"((a)", 0, "unclosed group", Some("add the missing `)`")),
    (r"a)", 1, "unmatched `)`", Some(r"escape it as `\)`")),
    // Offsets count characters, not bytes.
    ("é{1-3}", 1, "invalid quantifier", Some("{1,3}")),
];

#[test]
fn error_table() {
    for &(pattern, offset, message, hint) in ERRORS {
        let err = parse(pattern).expect_err(pattern);
        assert_eq!(err.offset, offset, "offset for {pattern}: {err}");
        assert!(
            err.message.contains(message),
            "message for {pattern}: {err}"
        );
        assert_eq!(err.hint.as_deref(), hint, "hint for {pattern}: {err}");
        assert_eq!(translate(pattern).unwrap_err(), err);
    }
}

#[test]
fn display_shows_offset_column_and_hint() {
    let err = translate("a{1-3}").unwrap_err();
    assert_eq!(
        err,
        PatternError {
            offset: 1,
            message: "invalid quantifier `{1-3}`: XSD allows only {n}, {n,} and {n,m}".into(),
            hint: Some("{1,3}".into()),
        }
    );
    assert_eq!(
        err.to_string(),
        "invalid XSD pattern at offset 1 (column 2): invalid quantifier `{1-3}`: \
         XSD allows only {n}, {n,} and {n,m} (hint: {1,3})"
    );
}

/// The exact text of some translations (the shapes the code generator emits).
#[test]
fn exact_translations() {
    let cases = [
        ("", r"\A(?:)\z"),
        ("^a$", r"\A(?:\^a\$)\z"),
        (".", r"\A(?:[^\n\r])\z"),
        ("a|b(c)", r"\A(?:a|b(?:c))\z"),
        ("a{2}b{2,}c{2,3}d?e*f+", r"\A(?:a{2}b{2,}c{2,3}d?e*f+)\z"),
        ("[a-z-[aeiou]]", r"\A(?:[[a-z]--[aeiou]])\z"),
        ("[^a-z-[^aeiou]]", r"\A(?:[[^a-z]--[^aeiou]])\z"),
        ("[a-z-[b-y-[c]]]", r"\A(?:[[a-z]--[[b-y]--[c]]])\z"),
        (r"\s", r"\A(?:[\x{9}-\x{A}\x{D} ])\z"),
        (r"\d\D", r"\A(?:\p{Nd}\P{Nd})\z"),
        (r"\w", r"\A(?:[^\p{P}\p{Z}\p{C}])\z"),
        (r"\p{Lu}\P{IsBasicLatin}", r"\A(?:\p{Lu}[^\x{0}-\x{7F}])\z"),
        (r"\p{IsHighSurrogates}", r"\A(?:[^\x{0}-􏿿])\z"),
        ("[-a]", r"\A(?:[\-a])\z"),
        ("[=->]", r"\A(?:[=->])\z"),
        (r"[\^\[\]]", r"\A(?:[\^\[\]])\z"),
        ("a&&b~~c#", r"\A(?:a\&\&b\~\~c\#)\z"),
    ];
    for (xsd, rust) in cases {
        let got = translate(xsd).unwrap_or_else(|e| panic!("{xsd}: {e}"));
        assert_eq!(got, rust, "translation of {xsd}");
        compile(&got).unwrap_or_else(|e| panic!("{xsd} -> {got}: {e}"));
    }
}

fn matcher(pattern: &str) -> regex::Regex {
    let t = translate(pattern).unwrap_or_else(|e| panic!("{pattern}: {e}"));
    compile(&t).unwrap_or_else(|e| panic!("{pattern} -> {t}: {e}"))
}

fn check(pattern: &str, valid: &[&str], invalid: &[&str]) {
    let re = matcher(pattern);
    for v in valid {
        assert!(re.is_match(v), "{pattern} should accept {v:?}");
    }
    for v in invalid {
        assert!(!re.is_match(v), "{pattern} should reject {v:?}");
    }
}

/// CIF square names: files a..z, aa..zz, aaa..lll; ranks 1..64; optional
/// sub-square.
pub(crate) const CIF_SQUARE: &str = "(([a-z])|(aa|bb|cc|dd|ee|ff|gg|hh|ii|jj|kk|ll|mm|nn|oo|pp|qq|rr|ss|tt|uu|vv|ww|xx|yy|zz)|(aaa|bbb|ccc|ddd|eee|fff|ggg|hhh|iii|jjj|kkk|lll))([1-9]|[1-5][0-9]|6[0-4])([A-H][1-8]?)?";

#[test]
fn project_patterns() {
    check(
        CIF_SQUARE,
        &[
            "a1", "z9", "aa10", "zz59", "lll64", "a64H8", "bb7A", "ccc12C3",
        ],
        &[
            "", "a0", "a65", "a70", "ab1", "mmm1", "A1", "a1I", "a1H9", "a1\n", " a1", "a01",
            "a1Ha",
        ],
    );
    check(
        "([a-z]|aa|bb|cc)([1-9]|[1-5][0-9]|6[0-4])([A-H][1-8]?)?",
        &["a1", "cc64", "b5H"],
        &["dd1", "a0", "a1\n"],
    );
    check(
        "[0-8][0-9]-[0-8][0-9]",
        &["00-00", "89-89", "45-07"],
        &[
            "90-00", "00-90", "0-00", "00_00", "00-00\n", "\n00-00", "000-00",
        ],
    );
}

/// XSD meanings that differ from the regex crate's defaults.
#[test]
fn xsd_semantics() {
    check(
        ".",
        &["a", "\u{2028}", "\u{10000}"],
        &["\n", "\r", "", "ab"],
    );
    check(
        r"\s",
        &[" ", "\t", "\n", "\r"],
        &["\u{A0}", "\u{2003}", "\u{B}", "\u{C}"],
    );
    check(r"\S", &["a", "\u{A0}"], &[" ", "\t"]);
    check(r"\d", &["0", "\u{663}"], &["a", "\u{B2}"]);
    check(
        r"\w",
        &["a", "\u{E9}", "1", "+", "$"],
        &["_", "-", " ", ".", "\u{7}"],
    );
    check(r"\W", &["_", " ", "\u{200B}"], &["a", "+"]);
    check(r"\i", &["a", "_", ":", "\u{C0}"], &["1", "-", ".", " "]);
    check(r"\I", &["1", "-", " "], &["a", "_", ":"]);
    check(
        r"\c",
        &["a", "1", "-", ".", "\u{B7}", ":"],
        &[" ", "/", "@"],
    );
    check(r"\C", &[" ", "/"], &["a", "-"]);
    check(r"[\s\d]+", &[" 1\t\u{663}"], &["a"]);
    check(r"[^\w]", &["_", " "], &["a"]);
    check(r"[^\W]", &["a"], &["_"]);
    check(r"[^\S]", &[" "], &["a", "\u{A0}"]);
    check(r"[\S-[a]]", &["b"], &["a", " "]);
    check(r"\p{IsGreek}", &["\u{3B1}", "\u{3E2}"], &["\u{1F00}", "a"]);
    check(r"\P{IsGreek}", &["\u{1F00}", "a"], &["\u{3B1}"]);
    check(r"\p{IsBasicLatin}+", &["az~\u{7F}"], &["\u{80}"]);
    check(
        r"\p{IsPrivateUse}",
        &["\u{E000}", "\u{F0000}", "\u{10FFFD}"],
        &["\u{F900}"],
    );
    check(r"\p{IsSpecials}", &["\u{FEFF}", "\u{FFFD}"], &["\u{FFEF}"]);
    check(r"\p{IsHighSurrogates}?", &[""], &["a", "\u{10000}"]);
    check(r"\P{IsLowSurrogates}", &["a", "\u{10000}"], &[""]);
    check(r"[a-z-[aeiou]]+", &["bcd"], &["a", "e"]);
    check(r"[a-z-[b-y-[c]]]+", &["acz"], &["b", "d"]);
    check(r"[^a-c-[b]]", &["d", "\n"], &["a", "b", "c"]);
    check(r"[a-z--[b-z]]", &["a", "-"], &["b"]);
    check(
        r"[\u{D7FF}-\u{E000}]"
            .replace("\\u{D7FF}", "\u{D7FF}")
            .replace("\\u{E000}", "\u{E000}")
            .as_str(),
        &["\u{D7FF}", "\u{E000}"],
        &["\u{E001}"],
    );
    check("^$", &["^$"], &["", "^"]);
    check("a{0,0}b", &["b"], &["ab"]);
}

/// A supplementary-plane character is one character (a code point), with its
/// own category and block, never a UTF-16 surrogate pair. The values are the
/// W3C suite's `queried` rows (bug 4113) that expect the opposite, plus
/// reG50.i (`stable`), which only code-point matching passes.
#[test]
fn supplementary_characters_are_code_points() {
    check(r"\p{Lu}*", &["A\u{1D7A8}"], &["a"]);
    check(r"\p{Ll}*", &["a\u{1D7C9}"], &["A"]);
    check(r"\p{Lo}*", &["\u{5D0}\u{2FA1D}"], &["a"]);
    check(r"\p{Mn}*", &["\u{64B}\u{1D1AD}"], &["\u{903}"]);
    check(r"\p{Mc}*", &["\u{903}\u{1D172}"], &["\u{64B}"]);
    check(r"\p{Nd}*", &["\u{FF10}\u{1D7FF}"], &["\u{1034A}"]);
    check(r"\p{Nl}*", &["\u{1034A}\u{3025}"], &["1"]);
    check(r"\p{No}*", &["\u{B2}\u{10323}"], &["1"]);
    check(r"\p{So}*", &["\u{3190}\u{1D1DD}"], &["a"]);
    check(r"\p{Cf}*", &["\u{70F}\u{E0078}"], &["a"]);
    check(
        r"(\p{Co})*",
        &["\u{E000}\u{100000}\u{F0000}\u{FFFFD}\u{10FFFD}"],
        &["a"],
    );
    check(
        r"\d",
        &["\u{1D7CE}", "\u{1D7FF}"],
        &["\u{1D7CD}", "\u{1D800}"],
    );
    // A non-digit outside the BMP is one \D, not two.
    check(
        r"\D",
        &["\u{1D7CD}", "\u{1D800}"],
        &["\u{1D7CE}", "\u{1D7CD}\u{1D7CD}"],
    );
    // XSD 1.0's block table lists three "PrivateUse" ranges (Unicode 3.1
    // named planes 15 and 16 "Private Use" too); the escape is their union.
    check(
        r"\p{IsPrivateUse}+",
        &["\u{F0000}\u{FFFFD}", "\u{100000}\u{10FFFD}"],
        &["\u{F900}"],
    );
    check("\u{10000}", &["\u{10000}"], &["\u{10001}"]);
    check("[\u{10000}]", &["\u{10000}"], &["\u{10001}", ""]);
    check(".", &["\u{1D7A8}"], &["\u{1D7A8}\u{1D7A8}"]);
}

/// Every category and block XSD 1.0 names translates into something the
/// regex crate compiles, inside and outside brackets, plain and negated.
#[test]
fn every_category_and_block_compiles() {
    let mut names: Vec<String> = "L Lu Ll Lt Lm Lo M Mn Mc Me N Nd Nl No P Pc Pd Ps Pe Pi Pf Po \
                                  Z Zs Zl Zp S Sm Sc Sk So C Cc Cf Co Cn"
        .split_whitespace()
        .map(String::from)
        .collect();
    names.extend(
        crate::tables::BLOCKS
            .iter()
            .map(|(n, _, _)| format!("Is{n}")),
    );
    for n in names {
        for p in [
            format!(r"\p{{{n}}}"),
            format!(r"\P{{{n}}}"),
            format!(r"[^\p{{{n}}}a-[b]]"),
        ] {
            matcher(&p);
        }
    }
}

#[test]
fn nesting_limit() {
    let deep = format!("{}a{}", "(".repeat(100), ")*".repeat(100));
    matcher(&deep);
    let too_deep = format!("{}a{}", "(".repeat(101), ")".repeat(101));
    assert_eq!(parse(&too_deep).unwrap_err().offset, 100);
    check("[--]", &["-"], &["a"]);
    check("[a-]", &["a", "-"], &["b"]);
    check("[a-z-]", &["q", "-"], &["A"]);
    check(r"[\--a]", &["-", "0", "a"], &["b"]);
    check("[^-]", &["a"], &["-"]);
}

#[test]
fn ast_shape() {
    use crate::{Atom, CharClass};
    let re = parse("a(b|c)*[x-z]").unwrap();
    assert_eq!(re.branches.len(), 1);
    let pieces = &re.branches[0].pieces;
    assert_eq!(pieces.len(), 3);
    assert_eq!(pieces[0].atom, Atom::Char('a'));
    assert!(matches!(pieces[1].atom, Atom::Group(ref g) if g.branches.len() == 2));
    assert_eq!((pieces[1].min, pieces[1].max), (0, None));
    assert!(matches!(pieces[2].atom, Atom::Class(CharClass::Bracket(_))));
}

/// Bounded repetitions of big Unicode classes: some exceed the regex crate's
/// default compiled-size limit (10 MiB), which is why callers compile with
/// `size_limit(REGEX_SIZE_LIMIT)` (the second column records which ones fit
/// the default).
#[test]
fn large_repetitions_compile() {
    for (p, default_ok) in [
        (r"\w{1,255}", false),
        (r"\i\c{0,255}", true),
        (r".{0,1000}", true),
        (r"\p{L}{1,100}", true),
        (r"[^\s]{1,255}", true),
        (r"\d{1,20}", true),
    ] {
        let t = translate(p).unwrap();
        assert_eq!(regex::Regex::new(&t).is_ok(), default_ok, "{p}");
        compile(&t).unwrap_or_else(|e| panic!("{p}: {e}"));
    }
}

/// Random patterns over a metacharacter-heavy alphabet: the parser never
/// panics, and whatever it accepts the regex crate compiles.
#[test]
fn random_patterns_never_panic() {
    const ALPHABET: &[&str] = &[
        "a",
        "z",
        "-",
        "^",
        "$",
        "[",
        "]",
        "(",
        ")",
        "|",
        "?",
        "*",
        "+",
        "{",
        "}",
        ",",
        "1",
        "3",
        ".",
        r"\",
        "s",
        "p",
        "P",
        "{L}",
        "{IsGreek}",
        "{IsHighSurrogates}",
        "i",
        "c",
        "w",
        "d",
        "n",
        " ",
        "\u{E9}",
        "\u{10000}",
        "\u{D7FF}",
        "\u{E000}",
        "&",
        "~",
        "#",
        "<",
    ];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        // xorshift64: deterministic, no dependency.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut accepted = 0;
    for _ in 0..20_000 {
        let len = (next() % 12) as usize;
        let p: String = (0..len)
            .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize])
            .collect();
        match translate(&p) {
            Ok(t) => {
                accepted += 1;
                compile(&t).unwrap_or_else(|e| panic!("{p:?} -> {t}: {e}"));
            }
            Err(e) => assert!(e.offset <= p.chars().count(), "{p:?}: {e}"),
        }
    }
    assert!(accepted > 1000, "only {accepted} random patterns accepted");
}

/// XSD 1.1 reads a hyphen that starts no range and no subtraction as a literal anywhere
/// in a group (the W3C suite's reF20-23, reG26-33, reH19-21 are invalid in 1.0 and valid
/// in 1.1); everything else reads as in 1.0.
#[test]
fn xsd_1_1_hyphens() {
    let v11 = |p: &str| {
        let t =
            crate::translate_as(p, crate::Version::Xsd11).unwrap_or_else(|e| panic!("{p}: {e}"));
        compile(&t).unwrap()
    };
    let re = v11("[a-c-1-4x-z-7-9]*");
    for ok in ["", "a-1", "-", "b4y8", "z-"] {
        assert!(re.is_match(ok), "{ok:?}");
    }
    for bad in ["d", "5", "w", "6"] {
        assert!(!re.is_match(bad), "{bad:?}");
    }
    let re = v11("[^a-d-b-c]");
    assert!(re.is_match("e") && !re.is_match("-") && !re.is_match("c"));
    // Subtraction and the group's ends read as before.
    let re = v11("[a-z-[aeiou]]");
    assert!(re.is_match("b") && !re.is_match("a") && !re.is_match("-"));
    assert!(v11("[-a]").is_match("-") && v11("[a-]").is_match("-"));
    // 1.0 still refuses them, and neither lets an unescaped hyphen start a range.
    for p in ["[a-c-1-4x-z-7-9]", "[^a-d-b-c]"] {
        assert!(crate::translate(p).is_err(), "{p}");
    }
    let e = crate::translate_as("[a--z]", crate::Version::Xsd11).unwrap_err();
    assert_eq!(
        (e.offset, e.message.as_str()),
        (3, "a range cannot end with an unescaped `-`")
    );
    let e = crate::translate_as("[a-c--9]", crate::Version::Xsd11).unwrap_err();
    assert_eq!(
        (e.offset, e.message.as_str()),
        (4, "a range cannot start with an unescaped `-`")
    );
}
