//! Identity-constraint definitions (Part 1, 3.11): the XPath subset of `xs:selector` and
//! `xs:field` (3.11.6, Selector Value OK and Field Value OK, with the prefixes bound), and
//! a keyref's refer naming a key or unique with as many fields (c-props-correct).

use super::{is_ncname, Checker, Space};

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Bar,
    Slash,
    DoubleSlash,
    Dot,
    At,
    Axis,
    Star,
    /// An NCName, a QName or `prefix:*`, its prefix if any.
    Name {
        local: String,
        prefix: Option<String>,
    },
}

/// Splits an XPath of the subset into tokens (whitespace may stand between tokens, never
/// inside one); Err names what does not belong.
fn tokens(xpath: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = xpath.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let name_char = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '\u{B7}');
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        match c {
            '|' => out.push(Token::Bar),
            '/' if chars.get(i + 1) == Some(&'/') => {
                out.push(Token::DoubleSlash);
                i += 1;
            }
            '/' => out.push(Token::Slash),
            '.' => out.push(Token::Dot),
            '@' => out.push(Token::At),
            '*' => out.push(Token::Star),
            ':' if chars.get(i + 1) == Some(&':') => {
                out.push(Token::Axis);
                i += 1;
            }
            c if c.is_alphabetic() || c == '_' => {
                let start = i;
                while i < chars.len() && name_char(chars[i]) {
                    i += 1;
                }
                let first: String = chars[start..i].iter().collect();
                // A prefix: a colon, not an axis, then a name or `*` with no space.
                if chars.get(i) == Some(&':') && chars.get(i + 1) != Some(&':') {
                    match chars.get(i + 1) {
                        Some('*') => {
                            out.push(Token::Name {
                                local: "*".into(),
                                prefix: Some(first),
                            });
                            i += 2;
                            continue;
                        }
                        Some(&n) if n.is_alphabetic() || n == '_' => {
                            let s = i + 1;
                            i += 1;
                            while i < chars.len() && name_char(chars[i]) {
                                i += 1;
                            }
                            out.push(Token::Name {
                                local: chars[s..i].iter().collect(),
                                prefix: Some(first),
                            });
                            continue;
                        }
                        _ => return Err(format!("\"{first}:\" is not followed by a name")),
                    }
                }
                out.push(Token::Name {
                    local: first,
                    prefix: None,
                });
                continue;
            }
            other => return Err(format!("'{other}' is not part of the XPath subset")),
        }
        i += 1;
    }
    Ok(out)
}

/// Parses the subset of 3.11.6: `Path ('|' Path)*`, a path `('.//')? Step ('/' Step)*`,
/// a step `.` or a name test (with `child::`); in a field the last step may also be an
/// attribute (`@` or `attribute::` and a name test). Returns the prefixes used.
fn parse(tokens: &[Token], field: bool) -> Result<Vec<String>, String> {
    let mut prefixes = Vec::new();
    let mut i = 0;
    let name_test = |i: &mut usize, prefixes: &mut Vec<String>| -> Result<(), String> {
        match tokens.get(*i) {
            Some(Token::Star) => {
                *i += 1;
                Ok(())
            }
            Some(Token::Name { local, prefix }) => {
                if local != "*" && !is_ncname(local) {
                    return Err(format!("\"{local}\" is not a name"));
                }
                if let Some(p) = prefix {
                    prefixes.push(p.clone());
                }
                *i += 1;
                Ok(())
            }
            _ => Err("a name test (a name, * or prefix:*) is missing".into()),
        }
    };
    loop {
        // One path.
        if tokens.get(i) == Some(&Token::Dot) && tokens.get(i + 1) == Some(&Token::DoubleSlash) {
            i += 2;
        }
        loop {
            let axis = match (tokens.get(i), tokens.get(i + 1)) {
                (
                    Some(Token::Name {
                        local,
                        prefix: None,
                    }),
                    Some(Token::Axis),
                ) => {
                    let a = local.clone();
                    i += 2;
                    Some(a)
                }
                _ => None,
            };
            let attribute = match axis.as_deref() {
                Some("child") => false,
                Some("attribute") if field => true,
                Some(a) => {
                    return Err(format!(
                        "the axis {a}:: is not allowed here (only child::{})",
                        if field { " and attribute::" } else { "" }
                    ))
                }
                None if tokens.get(i) == Some(&Token::At) => {
                    if !field {
                        return Err(
                            "a selector selects elements; @ (attributes) is for xs:field".into(),
                        );
                    }
                    i += 1;
                    true
                }
                None if tokens.get(i) == Some(&Token::Dot) => {
                    i += 1;
                    false
                }
                None => {
                    name_test(&mut i, &mut prefixes)?;
                    false
                }
            };
            if attribute || axis.is_some() {
                name_test(&mut i, &mut prefixes)?;
            }
            match tokens.get(i) {
                Some(Token::Slash) if !attribute => i += 1,
                Some(Token::Slash) => {
                    return Err("an attribute step must be the last step of a field".into())
                }
                _ => break,
            }
        }
        match tokens.get(i) {
            None => return Ok(prefixes),
            Some(Token::Bar) => i += 1,
            Some(Token::DoubleSlash) => {
                return Err("// may only open a path, as .//".into());
            }
            Some(_) => return Err("the expression does not end where a path can".into()),
        }
    }
}

impl Checker<'_> {
    /// The identity constraints: XPaths, and keyref's refer.
    pub(super) fn check_identity(&mut self) {
        for i in 0..self.nodes.len() {
            let n = &self.nodes[i];
            if !(n.is("selector") || n.is("field")) {
                continue;
            }
            let field = n.local == "field";
            let Some(xpath) = n.attr("xpath").map(str::to_string) else {
                continue;
            };
            let result = tokens(&xpath).and_then(|t| {
                if t.is_empty() {
                    Err("the expression is empty".into())
                } else {
                    parse(&t, field)
                }
            });
            let constraint = if field {
                "c-fields-xpaths"
            } else {
                "c-selector-xpath"
            };
            let construct = format!("xpath=\"{xpath}\" on xs:{}", n.local);
            match result {
                Err(why) => self.invalid(
                    i,
                    construct,
                    format!("{constraint}: not an XPath of the subset XSD 1.0 allows here: {why}"),
                ),
                Ok(prefixes) => {
                    for p in prefixes {
                        let bound = self.nodes[i].scope.iter().any(|(q, _)| *q == p);
                        if !bound {
                            self.invalid(
                                i,
                                construct.clone(),
                                format!(
                                    "{constraint}: the prefix \"{p}\" is not bound to a namespace"
                                ),
                            );
                        }
                    }
                }
            }
        }
        for i in 0..self.nodes.len() {
            if !self.nodes[i].is("keyref") {
                continue;
            }
            let Some(refer) = self.nodes[i].attr("refer").map(str::to_string) else {
                continue;
            };
            let Ok((ns, local)) = self.resolve(i, &refer) else {
                continue;
            };
            if ns != self.target {
                continue;
            }
            let Some(&target) = self.globals.get(&(Space::IdentityConstraint, local)) else {
                continue;
            };
            let construct = format!("refer=\"{refer}\" on {}", self.construct(i));
            if self.nodes[target].is("keyref") {
                self.invalid(
                    i,
                    construct,
                    format!("c-props-correct.1: refer=\"{refer}\" names an xs:keyref; it must name an xs:key or xs:unique"),
                );
                continue;
            }
            let fields = |n: usize| {
                self.nodes[n]
                    .children
                    .iter()
                    .filter(|&&c| self.nodes[c].is("field"))
                    .count()
            };
            let (own, referred) = (fields(i), fields(target));
            if own != referred {
                self.invalid(
                    i,
                    construct,
                    format!("c-props-correct.2: the keyref has {own} xs:field, the {} it refers to {referred}: they must be as many", self.construct(target)),
                );
            }
        }
    }
}
