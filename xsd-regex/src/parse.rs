//! Recursive-descent parser for the XSD 1.0 (second edition) regular
//! expression grammar, Appendix F, productions [1]-[37].
//!
//! The parser is deliberately strict: constructs that other regex dialects
//! accept but XSD 1.0 does not are errors, with a hint where the intended
//! XSD spelling is clear.

use crate::tables;
use crate::{
    Atom, BracketClass, Branch, CharClass, ClassEscape, ClassItem, PatternError, Piece, Regex,
    Version,
};

pub(crate) struct Parser {
    chars: Vec<char>,
    pos: usize,
    version: Version,
}

type Result<T> = std::result::Result<T, PatternError>;

impl Parser {
    pub(crate) fn new(pattern: &str, version: Version) -> Self {
        Parser {
            chars: pattern.chars().collect(),
            pos: 0,
            version,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn err(&self, offset: usize, message: impl Into<String>) -> PatternError {
        PatternError::new(offset, message)
    }

    pub(crate) fn parse(mut self) -> Result<Regex> {
        let re = self.regexp(0)?;
        match self.peek() {
            None => Ok(re),
            Some(')') => Err(self
                .err(self.pos, "unmatched `)`")
                .hint(r"escape it as `\)`")),
            Some(c) => Err(self.err(self.pos, format!("unexpected `{c}`"))),
        }
    }

    /// [1] regExp ::= branch ( '|' branch )*
    fn regexp(&mut self, depth: usize) -> Result<Regex> {
        let mut branches = vec![self.branch(depth)?];
        while self.peek() == Some('|') {
            self.pos += 1;
            branches.push(self.branch(depth)?);
        }
        Ok(Regex { branches })
    }

    /// [2] branch ::= piece*
    fn branch(&mut self, depth: usize) -> Result<Branch> {
        let mut pieces = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            pieces.push(self.piece(depth)?);
        }
        Ok(Branch { pieces })
    }

    /// [3] piece ::= atom quantifier?
    fn piece(&mut self, depth: usize) -> Result<Piece> {
        let atom = self.atom(depth)?;
        let (min, max) = self.quantifier()?;
        if let Some(c @ ('?' | '*' | '+')) = self.peek() {
            let what = if c == '+' { "possessive" } else { "lazy" };
            return Err(self
                .err(
                    self.pos,
                    format!("{what} quantifiers are not XSD; `{c}` cannot follow a quantifier"),
                )
                .hint("XSD matches whole values, so remove it"));
        }
        if self.peek() == Some('{') {
            return Err(self.err(self.pos, "a quantifier cannot follow a quantifier"));
        }
        Ok(Piece { atom, min, max })
    }

    /// [4] quantifier ::= [?*+] | ( '{' quantity '}' )
    fn quantifier(&mut self) -> Result<(u32, Option<u32>)> {
        let q = match self.peek() {
            Some('?') => (0, Some(1)),
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('{') => return self.quantity(),
            _ => return Ok((1, Some(1))),
        };
        self.pos += 1;
        Ok(q)
    }

    /// [5] quantity ::= quantRange | quantMin | QuantExact, inside `{}`.
    fn quantity(&mut self) -> Result<(u32, Option<u32>)> {
        let open = self.pos;
        // Find the closing brace to show the whole quantifier in messages.
        let close = self.chars[open..]
            .iter()
            .position(|&c| c == '}')
            .map(|i| open + i);
        let text: String = match close {
            Some(c) => self.chars[open..=c].iter().collect(),
            None => self.chars[open..].iter().collect(),
        };
        let bad = |hint: Option<String>| {
            let e = PatternError::new(
                open,
                format!("invalid quantifier `{text}`: XSD allows only {{n}}, {{n,}} and {{n,m}}"),
            );
            match hint {
                Some(h) => e.hint(h),
                None => e,
            }
        };
        let Some(close) = close else {
            return Err(PatternError::new(open, "unclosed quantifier `{`")
                .hint(r"escape a literal brace as `\{`"));
        };
        let inner: String = self.chars[open + 1..close].iter().collect();
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let num = |s: &str| -> Result<u32> {
            s.parse::<u32>().map_err(|_| {
                PatternError::new(open, format!("quantifier bound `{s}` is too large"))
            })
        };
        let (min, max) = if digits(&inner) {
            let n = num(&inner)?;
            (n, Some(n))
        } else if let Some((a, b)) = inner.split_once(',') {
            if !digits(a) {
                let hint = if a.is_empty() && digits(b) {
                    Some(format!("{{0,{b}}}"))
                } else {
                    None
                };
                return Err(bad(hint));
            }
            if b.is_empty() {
                (num(a)?, None)
            } else if digits(b) {
                (num(a)?, Some(num(b)?))
            } else {
                return Err(bad(None));
            }
        } else if let Some((a, b)) = inner.split_once('-') {
            let hint = (digits(a) && digits(b)).then(|| format!("{{{a},{b}}}"));
            return Err(bad(hint));
        } else {
            return Err(bad(None));
        };
        if let Some(max) = max {
            if min > max {
                return Err(PatternError::new(
                    open,
                    format!(
                        "invalid quantifier `{text}`: minimum {min} is greater than maximum {max}"
                    ),
                ));
            }
        }
        self.pos = close + 1;
        Ok((min, max))
    }

    /// [9] atom ::= Char | charClass | ( '(' regExp ')' )
    fn atom(&mut self, depth: usize) -> Result<Atom> {
        let start = self.pos;
        let c = self.peek().expect("branch only calls piece on input");
        match c {
            '(' => {
                if self.peek_at(1) == Some('?') {
                    return Err(self
                        .err(
                            start + 1,
                            "`(?` group syntax (non-capturing, flags, look-around) is not XSD",
                        )
                        .hint("XSD groups are plain `( ... )`"));
                }
                // Keeps the translation within the regex crate's default
                // nesting limit (250, counting groups and repetitions).
                if depth >= 100 {
                    return Err(self.err(start, "groups nested more than 100 deep"));
                }
                self.pos += 1;
                let inner = self.regexp(depth + 1)?;
                if self.peek() != Some(')') {
                    return Err(self
                        .err(start, "unclosed group `(`")
                        .hint("add the missing `)`"));
                }
                self.pos += 1;
                Ok(Atom::Group(Box::new(inner)))
            }
            '[' => Ok(Atom::Class(CharClass::Bracket(self.bracket()?))),
            '.' => {
                self.pos += 1;
                Ok(Atom::Class(CharClass::Wildcard))
            }
            '\\' => match self.escape()? {
                Esc::Char(c) => Ok(Atom::Char(c)),
                Esc::Class(e) => Ok(Atom::Class(CharClass::Escape(e))),
            },
            '?' | '*' | '+' => Err(self
                .err(start, format!("quantifier `{c}` has nothing to repeat"))
                .hint(format!(r"escape a literal `{c}` as `\{c}`"))),
            '{' => Err(self
                .err(start, "quantifier `{` has nothing to repeat")
                .hint(r"escape a literal brace as `\{`")),
            '}' => Err(self.err(start, "unescaped `}`").hint(r"escape it as `\}`")),
            ']' => Err(self.err(start, "unescaped `]`").hint(r"escape it as `\]`")),
            _ => {
                // [10] Char ::= [^.\?*+()|#x5B#x5D]; `^`, `$`, `-` are ordinary.
                self.pos += 1;
                Ok(Atom::Char(c))
            }
        }
    }

    /// An escape at `\`: [24] SingleCharEsc, [37] MultiCharEsc, [26] catEsc,
    /// [27] complEsc.
    fn escape(&mut self) -> Result<Esc> {
        let start = self.pos;
        let Some(c) = self.peek_at(1) else {
            return Err(self
                .err(start, "pattern ends with a lone `\\`")
                .hint(r"write `\\` for a backslash"));
        };
        self.pos += 2;
        let single = match c {
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            '\\' | '|' | '.' | '?' | '*' | '+' | '(' | ')' | '{' | '}' | '-' | '[' | ']' | '^' => {
                Some(c)
            }
            _ => None,
        };
        if let Some(ch) = single {
            return Ok(Esc::Char(ch));
        }
        match c {
            's' | 'S' | 'i' | 'I' | 'c' | 'C' | 'd' | 'D' | 'w' | 'W' => {
                Ok(Esc::Class(ClassEscape::Multi(c)))
            }
            'p' | 'P' => self.property(start, c == 'P').map(Esc::Class),
            'x' | 'u' | 'U' => Err(self
                .err(start, format!("`\\{c}` numeric escapes are not XSD"))
                .hint("write the character itself (or an XML character reference `&#x41;` in the schema document)")),
            'b' | 'B' | 'A' | 'z' | 'Z' | 'G' => Err(self
                .err(start, format!("`\\{c}` anchors are not XSD"))
                .hint("XSD patterns always match the whole value")),
            '0'..='9' => Err(self
                .err(start, format!("back-reference `\\{c}` is not XSD"))
                .hint("XSD has no back-references; spell the alternatives out")),
            '$' => Err(self
                .err(start, "`\\$` is not an XSD escape")
                .hint("`$` is an ordinary character in XSD: write `$`")),
            _ => Err(self.err(start, format!("unknown escape `\\{c}`"))),
        }
    }

    /// `\p{..}` / `\P{..}` after the `p`: [28] charProp.
    fn property(&mut self, start: usize, negated: bool) -> Result<ClassEscape> {
        let letter = if negated { 'P' } else { 'p' };
        if self.peek() != Some('{') {
            return Err(self
                .err(
                    start,
                    format!("`\\{letter}` must be followed by `{{name}}`"),
                )
                .hint(format!("\\{letter}{{L}}")));
        }
        let open = self.pos;
        let Some(len) = self.chars[open + 1..].iter().position(|&c| c == '}') else {
            return Err(self.err(start, format!("unclosed `\\{letter}{{`")));
        };
        let name: String = self.chars[open + 1..open + 1 + len].iter().collect();
        self.pos = open + len + 2;
        if let Some(block) = name.strip_prefix("Is") {
            // [35] IsBlock ::= 'Is' [a-zA-Z0-9#x2D]+, and XSD 1.0 requires a known name.
            if tables::block(block).is_some() {
                return Ok(ClassEscape::Block {
                    negated,
                    name: block.to_string(),
                });
            }
            return Err(self.err(start, format!("unknown Unicode block `{name}`")).hint(
                "XSD 1.0 knows the Unicode 3.1 block names, e.g. IsBasicLatin, IsGreek, IsCJKUnifiedIdeographs",
            ));
        }
        if is_category(&name) {
            return Ok(ClassEscape::Category { negated, name });
        }
        let mut e = self.err(start, format!("unknown Unicode category `{name}`"));
        if tables::block(&name).is_some() {
            // Probably meant the block (the regex crate reads `\p{Greek}` as a
            // script, so the mistake would otherwise go unnoticed).
            e = e.hint(format!("\\{letter}{{Is{name}}}"));
        } else {
            e = e.hint("categories are L, Lu, Ll, Lt, Lm, Lo, M, Mn, Mc, Me, N, Nd, Nl, No, P, Pc, Pd, Ps, Pe, Pi, Pf, Po, Z, Zs, Zl, Zp, S, Sm, Sc, Sk, So, C, Cc, Cf, Co, Cn");
        }
        Err(e)
    }

    /// [12] charClassExpr ::= '[' charGroup ']', with [13]-[17]:
    /// charGroup ::= posCharGroup | negCharGroup | charClassSub.
    fn bracket(&mut self) -> Result<BracketClass> {
        let open = self.pos;
        self.pos += 1;
        let negated = self.peek() == Some('^');
        if negated {
            self.pos += 1;
        }
        let group_start = self.pos;
        let mut items = Vec::new();
        loop {
            let at = self.pos;
            let Some(c) = self.peek() else {
                return Err(self
                    .err(open, "unclosed character class `[`")
                    .hint("add the missing `]`"));
            };
            match c {
                ']' => {
                    if items.is_empty() {
                        return Err(self
                            .err(at, "empty character class (or unescaped `]`)")
                            .hint(r"a literal `]` is written `\]`"));
                    }
                    self.pos += 1;
                    return Ok(BracketClass {
                        negated,
                        items,
                        subtract: None,
                    });
                }
                '[' => {
                    return Err(self
                        .err(at, "unescaped `[` inside a character class")
                        .hint(r"escape it as `\[`, or subtract a class with `-[...]` at the end"))
                }
                '-' if self.peek_at(1) == Some('[') => {
                    // [16b] charClassSub: the subtraction must end the group.
                    if items.is_empty() {
                        return Err(self.err(at, "class subtraction needs a group before `-[`"));
                    }
                    self.pos += 1;
                    let sub = self.bracket()?;
                    if self.peek() != Some(']') {
                        return Err(self
                            .err(
                                self.pos,
                                "a class subtraction `-[...]` must be the last thing in its class",
                            )
                            .hint("move it to the end, just before `]`"));
                    }
                    self.pos += 1;
                    return Ok(BracketClass {
                        negated,
                        items,
                        subtract: Some(Box::new(sub)),
                    });
                }
                '-' => {
                    // XSD 1.0 second edition: "The - character is a valid
                    // character range only at the beginning or end of a
                    // positive character group."
                    let at_start = at == group_start;
                    // "End" includes the end before a subtraction, as in
                    // `[a-z--[b-z]]` (the group `a-z-` minus `[b-z]`).
                    let at_end = self.peek_at(1) == Some(']')
                        || (self.peek_at(1) == Some('-') && self.peek_at(2) == Some('['));
                    // XSD 1.1 (Part 2, G.4.2.3): a hyphen that starts no range and no
                    // subtraction is a literal anywhere; it may not start a range
                    // (`--x`), whose ends are never an unescaped hyphen.
                    if self.version == Version::Xsd11 && !at_end {
                        self.pos += 1;
                        if self.range_follows() {
                            return Err(self
                                .err(at, "a range cannot start with an unescaped `-`")
                                .hint(r"write `\-`"));
                        }
                        items.push(ClassItem::Char('-'));
                        continue;
                    }
                    if !(at_start || at_end) {
                        return Err(self
                            .err(
                                at,
                                "`-` is only allowed at the start or end of a character group",
                            )
                            .hint(r"escape a literal hyphen as `\-`"));
                    }
                    self.pos += 1;
                    items.push(ClassItem::Char('-'));
                }
                _ => {
                    let lo = match self.class_atom()? {
                        Esc::Class(e) => {
                            if self.range_follows() {
                                return Err(self
                                    .err(at, "a multi-character escape cannot start a range")
                                    .hint(r"escape a literal hyphen as `\-`"));
                            }
                            items.push(ClassItem::Escape(e));
                            continue;
                        }
                        Esc::Char(c) => c,
                    };
                    // [18] seRange ::= charOrEsc '-' charOrEsc
                    if self.range_follows() {
                        self.pos += 1;
                        let hi_at = self.pos;
                        let hi = match self.peek() {
                            None => {
                                return Err(self.err(open, "unclosed character class `[`"));
                            }
                            Some('-') => {
                                return Err(self
                                    .err(hi_at, "a range cannot end with an unescaped `-`")
                                    .hint(r"write `\-`"));
                            }
                            Some('[') => unreachable!("checked above"),
                            _ => match self.class_atom()? {
                                Esc::Char(c) => c,
                                Esc::Class(_) => {
                                    return Err(self
                                        .err(hi_at, "a multi-character escape cannot end a range")
                                        .hint(r"escape a literal hyphen as `\-`"))
                                }
                            },
                        };
                        if lo > hi {
                            return Err(self.err(
                                at,
                                format!(
                                    "range `{}` is out of order: U+{:04X} > U+{:04X}",
                                    self.chars[at..self.pos].iter().collect::<String>(),
                                    lo as u32,
                                    hi as u32
                                ),
                            ));
                        }
                        items.push(ClassItem::Range(lo, hi));
                    } else {
                        items.push(ClassItem::Char(lo));
                    }
                }
            }
        }
    }

    /// Whether the `-` at the cursor makes a range, as opposed to ending the
    /// group (`-]`), starting a subtraction (`-[`) or being the group's last
    /// character before a subtraction (`--[`).
    fn range_follows(&self) -> bool {
        self.peek() == Some('-')
            && !matches!(self.peek_at(1), Some('[') | Some(']'))
            && !(self.peek_at(1) == Some('-') && self.peek_at(2) == Some('['))
    }

    /// One character or escape inside brackets (not `[`, `]` or a bare `-`).
    fn class_atom(&mut self) -> Result<Esc> {
        let c = self.peek().expect("caller checked");
        if c == '\\' {
            return self.escape();
        }
        self.pos += 1;
        Ok(Esc::Char(c))
    }
}

enum Esc {
    Char(char),
    Class(ClassEscape),
}

/// [29]-[34] IsCategory: the general categories XSD 1.0 lists.
fn is_category(name: &str) -> bool {
    let mut it = name.chars();
    let (Some(major), minor, None) = (it.next(), it.next(), it.next()) else {
        return false;
    };
    let allowed = match major {
        'L' => "ultmo",
        'M' => "nce",
        'N' => "dlo",
        'P' => "cdseifo",
        'Z' => "slp",
        'S' => "mcko",
        'C' => "cfon",
        _ => return false,
    };
    minor.is_none_or(|m| allowed.contains(m))
}
