//! Translation of the AST into `regex` crate syntax.
//!
//! Every XSD construct is spelled with regex-crate primitives whose meaning
//! does not depend on flags: literals are escaped, classes are explicit
//! (nested brackets and `--` for subtraction), groups are non-capturing.

use crate::tables;
use crate::{Atom, BracketClass, CharClass, ClassEscape, ClassItem, Piece, Regex};
use std::fmt::Write;

/// The whole pattern, anchored at both ends of the value.
pub(crate) fn anchored(re: &Regex) -> String {
    let mut out = String::from(r"\A(?:");
    regex(re, &mut out);
    out.push_str(r")\z");
    out
}

fn regex(re: &Regex, out: &mut String) {
    for (i, branch) in re.branches.iter().enumerate() {
        if i > 0 {
            out.push('|');
        }
        for p in &branch.pieces {
            piece(p, out);
        }
    }
}

fn piece(p: &Piece, out: &mut String) {
    match &p.atom {
        Atom::Char(c) => literal(*c, out),
        Atom::Class(c) => class(c, out),
        Atom::Group(g) => {
            out.push_str("(?:");
            regex(g, out);
            out.push(')');
        }
    }
    match (p.min, p.max) {
        (1, Some(1)) => {}
        (0, Some(1)) => out.push('?'),
        (0, None) => out.push('*'),
        (1, None) => out.push('+'),
        (n, None) => {
            let _ = write!(out, "{{{n},}}");
        }
        (n, Some(m)) if n == m => {
            let _ = write!(out, "{{{n}}}");
        }
        (n, Some(m)) => {
            let _ = write!(out, "{{{n},{m}}}");
        }
    }
}

/// A literal character, escaped so it means itself both inside and outside
/// brackets (`^ $ - & ~` included; controls and odd spaces as `\x{..}`).
fn literal(c: char, out: &mut String) {
    if c.is_ascii_alphanumeric() || (!c.is_ascii() && !c.is_whitespace() && !c.is_control()) {
        out.push(c);
    } else if is_meta(c) {
        out.push('\\');
        out.push(c);
    } else if c.is_ascii_graphic() || c == ' ' {
        // Other ASCII punctuation is literal in the regex crate, and some of
        // it may not be escaped (`\<` and `\>` are word boundaries there).
        out.push(c);
    } else {
        let _ = write!(out, "\\x{{{:X}}}", c as u32);
    }
}

/// Characters the regex crate gives a meaning in some context (including
/// the class set operators `-`, `&`, `~` and verbose-mode `#`).
fn is_meta(c: char) -> bool {
    matches!(
        c,
        '\\' | '.'
            | '+'
            | '*'
            | '?'
            | '('
            | ')'
            | '|'
            | '['
            | ']'
            | '{'
            | '}'
            | '^'
            | '$'
            | '#'
            | '&'
            | '-'
            | '~'
    )
}

/// A code point from a table; callers never pass a surrogate.
fn code(cp: u32, out: &mut String) {
    match char::from_u32(cp) {
        Some(c) => literal(c, out),
        None => unreachable!("surrogate code points are clipped before emission"),
    }
}

/// A bracketed union of code-point ranges. Surrogates are clipped because
/// they are no Unicode scalar values: no Rust string contains them, and the
/// regex crate rejects them. An empty set becomes a class that never matches.
fn ranges(rs: &[(u32, u32)], negated: bool, out: &mut String) {
    let mut clipped = Vec::with_capacity(rs.len() + 1);
    for &(lo, hi) in rs {
        if hi < 0xD800 || lo > 0xDFFF {
            clipped.push((lo, hi));
        } else {
            if lo < 0xD800 {
                clipped.push((lo, 0xD7FF));
            }
            if hi > 0xDFFF {
                clipped.push((0xE000, hi));
            }
        }
    }
    if clipped.is_empty() {
        // Empty set: "no character" (negated: "every character").
        clipped.push((0, 0x10FFFF));
        out.push_str(if negated { "[" } else { "[^" });
    } else {
        out.push_str(if negated { "[^" } else { "[" });
    }
    for (lo, hi) in clipped {
        code(lo, out);
        if hi != lo {
            out.push('-');
            code(hi, out);
        }
    }
    out.push(']');
}

fn class(c: &CharClass, out: &mut String) {
    match c {
        CharClass::Wildcard => out.push_str(r"[^\n\r]"),
        CharClass::Escape(e) => escape(e, out),
        CharClass::Bracket(b) => bracket(b, out),
    }
}

/// A class escape as a self-contained class, valid inside or outside
/// brackets (the regex crate allows nested classes).
fn escape(e: &ClassEscape, out: &mut String) {
    match e {
        ClassEscape::Multi(m) => {
            let negated = m.is_ascii_uppercase();
            match m.to_ascii_lowercase() {
                's' => ranges(tables::SPACE, negated, out),
                'i' => ranges(tables::NAME_START, negated, out),
                'c' => {
                    let mut all = tables::NAME_START.to_vec();
                    all.extend_from_slice(tables::NAME_EXTRA);
                    all.sort_unstable();
                    ranges(&all, negated, out);
                }
                'd' => out.push_str(if negated { r"\P{Nd}" } else { r"\p{Nd}" }),
                // XSD: \w = [#x0000-#x10FFFF]-[\p{P}\p{Z}\p{C}].
                'w' => out.push_str(if negated {
                    r"[\p{P}\p{Z}\p{C}]"
                } else {
                    r"[^\p{P}\p{Z}\p{C}]"
                }),
                other => unreachable!("parser only accepts known multi-char escapes, got {other}"),
            }
        }
        ClassEscape::Category { negated, name } => {
            let _ = write!(out, "\\{}{{{name}}}", if *negated { 'P' } else { 'p' });
        }
        ClassEscape::Block { negated, name } => {
            let rs = tables::block(name).expect("parser only accepts known blocks");
            ranges(&rs, *negated, out);
        }
    }
}

fn bracket(b: &BracketClass, out: &mut String) {
    if b.subtract.is_some() {
        // Parenthesise both operands so `--` cannot bind to part of a group.
        out.push('[');
    }
    out.push('[');
    if b.negated {
        out.push('^');
    }
    for item in &b.items {
        match item {
            ClassItem::Char(c) => literal(*c, out),
            ClassItem::Range(lo, hi) => {
                literal(*lo, out);
                out.push('-');
                literal(*hi, out);
            }
            ClassItem::Escape(e) => escape(e, out),
        }
    }
    out.push(']');
    if let Some(sub) = &b.subtract {
        out.push_str("--");
        bracket(sub, out);
        out.push(']');
    }
}
