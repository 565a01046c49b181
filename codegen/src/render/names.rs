//! Names: Rust identifiers from XSD names, unique and never a keyword.

use super::*;

/// Field names of one struct, unique and valid Rust.
#[derive(Default)]
pub(super) struct FieldNames {
    taken: HashSet<String>,
}

impl FieldNames {
    pub(super) fn take(&mut self, base: &str) -> Ident {
        let mut name = base.to_string();
        let mut n = 2;
        while self.taken.contains(&name) {
            name = format!("{}_{n}", base.trim_start_matches("r#"));
            n += 1;
        }
        self.taken.insert(name.clone());
        ident(&name)
    }

    pub(super) fn is_free(&self, name: &str) -> bool {
        !self.taken.contains(name)
    }
}

pub(super) fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, PmSpan::call_site()),
        None => Ident::new(name, PmSpan::call_site()),
    }
}

/// `snake_case` for fields, with keywords made raw (`r#type`) or suffixed where Rust allows
/// no raw form (`self_`).
pub fn sanitize_snake(name: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in crate::xsd::identifier_chars(name).chars() {
        if c.is_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.extend(c.to_lowercase());
            prev_lower = false;
        } else if c.is_alphanumeric() {
            out.push(c);
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
        } else {
            if !out.ends_with('_') {
                out.push('_');
            }
            prev_lower = false;
        }
    }
    let mut out = out.trim_matches('_').to_string();
    if out.is_empty() {
        out = "field".into();
    }
    if !out.starts_with(unicode_ident::is_xid_start) {
        out = format!("_{out}");
    }
    if matches!(out.as_str(), "self" | "super" | "crate" | "extern" | "_") {
        out.push('_');
    } else if is_keyword(&out) {
        out = format!("r#{out}");
    }
    out
}

pub(super) fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "as" | "break"
            | "const"
            | "continue"
            | "else"
            | "enum"
            | "false"
            | "fn"
            | "for"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "static"
            | "struct"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "async"
            | "await"
            | "dyn"
            | "abstract"
            | "become"
            | "box"
            | "do"
            | "final"
            | "macro"
            | "override"
            | "priv"
            | "typeof"
            | "unsized"
            | "virtual"
            | "yield"
            | "try"
            | "gen"
    )
}

/// `PascalCase` for a type name, never a reserved word (`Self`).
pub fn type_ident_name(name: &str) -> String {
    let mut out = crate::xsd::pascal(name);
    if out.is_empty() {
        out = "Type".into();
    }
    if !out.starts_with(unicode_ident::is_xid_start) {
        out = format!("T{out}");
    }
    if out == "Self" {
        out = "SelfType".into();
    }
    out
}

pub(super) fn type_ident(name: &str) -> Ident {
    Ident::new(&type_ident_name(name), PmSpan::call_site())
}

/// A variant name for an enumerated value: `littlecross` -> `Littlecross`, `0` -> `V0`,
/// `` (empty) -> `Empty`.
/// The variant name of element `local`, suffixed 2, 3, ... when a variant of `taken` has
/// it already (one local name in two namespaces).
pub(super) fn distinct_variant(taken: &mut HashSet<String>, local: &str) -> String {
    let base = variant_name(local);
    let mut v = base.clone();
    let mut n = 2;
    while !taken.insert(v.clone()) {
        v = format!("{base}{n}");
        n += 1;
    }
    v
}

pub(super) fn variant_name(value: &str) -> String {
    if value.is_empty() {
        return "Empty".into();
    }
    let p = crate::xsd::pascal(value);
    if p.is_empty() || !p.starts_with(unicode_ident::is_xid_start) {
        let mangled: String = crate::xsd::identifier_chars(value)
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { '_' })
            .collect();
        return format!("V{}", mangled.trim_matches('_'));
    }
    if p == "Self" {
        return "SelfValue".into();
    }
    p
}
