//! The generated API of a schema, read from the renderer's own output, and its changes.
//!
//! Both schemas are rendered exactly as `boardxml-codegen` renders them and the output is
//! parsed back (syn): the public structs with their fields, the public enums with their
//! variants, type aliases and associated constants. Names are therefore the renderer's
//! names, not a second derivation of them. Generated structs have only public fields and no
//! `#[non_exhaustive]`, so adding a field breaks struct literals and exhaustive patterns
//! (semver major), as does adding a variant to an enum (exhaustive `match`).

use std::collections::BTreeMap;

use quote::ToTokens;

use crate::ir::Schema;
use crate::render::{self, Externs};

/// A semver level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Semver {
    /// Nothing the compiler sees changes.
    None,
    /// Additions only: code written against OLD still compiles.
    Minor,
    /// Code written against OLD may no longer compile.
    Major,
}

impl Semver {
    /// `none`, `minor`, `major`.
    pub fn name(self) -> &'static str {
        match self {
            Semver::None => "none",
            Semver::Minor => "minor",
            Semver::Major => "major",
        }
    }
}

/// One public item of the generated code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// `pub struct` with its public fields (name, type).
    Struct(Vec<(String, String)>),
    /// `pub enum` with its variants (name, payload).
    Enum(Vec<(String, String)>),
    /// `pub type` alias, with its target.
    Alias(String),
    /// An associated `pub const` (its type and value).
    Const(String),
}

/// The public surface of one generated file, by path (`Head`, `Head::VALUE_DEFAULT`).
pub type Surface = BTreeMap<String, Item>;

/// One change of the generated API.
#[derive(Debug, Clone)]
pub struct ApiChange {
    /// The Rust type concerned.
    pub owner: String,
    /// The field or variant concerned, if any.
    pub member: Option<String>,
    /// What changed, in Rust terms.
    pub what: String,
    /// Its semver level.
    pub semver: Semver,
}

/// Renders `schema` and reads back its public surface.
pub fn surface(schema: &Schema, externs: &Externs) -> Result<Surface, String> {
    let text = render::render(schema, "schemas/diff.xsd", externs).map_err(|errors| {
        errors
            .iter()
            .map(|e| format!("type {}: {}", e.type_name, e.message))
            .collect::<Vec<_>>()
            .join("; ")
    })?;
    let file = syn::parse_file(&text).map_err(|e| format!("generated code does not parse: {e}"))?;
    let mut out = Surface::new();
    let public = |v: &syn::Visibility| matches!(v, syn::Visibility::Public(_));
    // Token text without the spaces quote puts between tokens (`Option<String>`).
    let tokens = |t: &dyn ToTokens| {
        t.to_token_stream()
            .to_string()
            .replace(' ', "")
            .replace(',', ", ")
    };
    for item in &file.items {
        match item {
            syn::Item::Struct(s) if public(&s.vis) => {
                // A newtype's private value is what its constructor takes and its getter
                // returns (`integer_type!(Opacity, u8, ..)`): part of the API too.
                let tuple = matches!(s.fields, syn::Fields::Unnamed(_));
                let fields = s
                    .fields
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| tuple || public(&f.vis))
                    .map(|(i, f)| {
                        let name = f
                            .ident
                            .as_ref()
                            .map_or_else(|| i.to_string(), |n| n.to_string());
                        (name, tokens(&f.ty))
                    })
                    .collect();
                out.insert(s.ident.to_string(), Item::Struct(fields));
            }
            syn::Item::Enum(e) if public(&e.vis) => {
                let variants = e
                    .variants
                    .iter()
                    .map(|v| (v.ident.to_string(), tokens(&v.fields)))
                    .collect();
                out.insert(e.ident.to_string(), Item::Enum(variants));
            }
            syn::Item::Type(t) if public(&t.vis) => {
                out.insert(t.ident.to_string(), Item::Alias(tokens(&t.ty)));
            }
            syn::Item::Impl(i) if i.trait_.is_none() => {
                let owner = tokens(&i.self_ty);
                for it in &i.items {
                    if let syn::ImplItem::Const(c) = it {
                        if public(&c.vis) {
                            out.insert(
                                format!("{owner}::{}", c.ident),
                                Item::Const(format!("{}={}", tokens(&c.ty), tokens(&c.expr))),
                            );
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

fn describe(item: &Item) -> &'static str {
    match item {
        Item::Struct(_) => "struct",
        Item::Enum(_) => "enum",
        Item::Alias(_) => "type alias",
        Item::Const(_) => "const",
    }
}

/// The changes from `old` to `new`; `renames` are the schema's type renames, by Rust name
/// (an item gone and another come count as a rename only where the schema says so: two
/// string newtypes look alike without being one type renamed).
pub fn changes(old: &Surface, new: &Surface, renames: &BTreeMap<String, String>) -> Vec<ApiChange> {
    let mut out = Vec::new();
    let owner_of = |path: &str| path.split("::").next().unwrap_or(path).to_string();
    let renamed: BTreeMap<&String, &String> = renames
        .iter()
        .filter(|(from, to)| {
            old.contains_key(*from)
                && new.contains_key(*to)
                && !new.contains_key(*from)
                && !old.contains_key(*to)
        })
        .collect();
    for (from, to) in &renamed {
        out.push(ApiChange {
            owner: owner_of(to),
            member: None,
            what: format!("{} {from} renamed to {to}", describe(&old[*from])),
            semver: Semver::Major,
        });
    }
    for (path, item) in old {
        if renamed.contains_key(path) {
            continue;
        }
        match new.get(path) {
            None => out.push(ApiChange {
                owner: owner_of(path),
                member: None,
                what: format!("{} {path} removed", describe(item)),
                semver: Semver::Major,
            }),
            Some(n) if n == item => {}
            Some(n) => out.extend(item_changes(path, item, n)),
        }
    }
    for (path, item) in new {
        if !old.contains_key(path) && !renamed.values().any(|r| *r == path) {
            out.push(ApiChange {
                owner: owner_of(path),
                member: None,
                what: format!("{} {path} added", describe(item)),
                semver: Semver::Minor,
            });
        }
    }
    out
}

fn item_changes(path: &str, old: &Item, new: &Item) -> Vec<ApiChange> {
    let change = |member: Option<&str>, what: String, semver| ApiChange {
        owner: path.split("::").next().unwrap_or(path).to_string(),
        member: member.map(str::to_string),
        what,
        semver,
    };
    match (old, new) {
        (Item::Struct(a), Item::Struct(b)) | (Item::Enum(a), Item::Enum(b)) => {
            let (thing, of) = if matches!(old, Item::Struct(_)) {
                ("field", "struct")
            } else {
                ("variant", "enum")
            };
            let mut out = Vec::new();
            let removed: Vec<&(String, String)> =
                a.iter().filter(|x| !b.iter().any(|y| y.0 == x.0)).collect();
            let added: Vec<&(String, String)> =
                b.iter().filter(|y| !a.iter().any(|x| x.0 == y.0)).collect();
            // One removed and one added of the same type: a rename.
            if removed.len() == 1 && added.len() == 1 && removed[0].1 == added[0].1 {
                out.push(change(
                    Some(&added[0].0),
                    format!(
                        "{of} {path}: {thing} `{}` renamed to `{}`",
                        removed[0].0, added[0].0
                    ),
                    Semver::Major,
                ));
            } else {
                for r in removed {
                    out.push(change(
                        Some(&r.0),
                        format!("{of} {path}: {thing} `{}` removed", r.0),
                        Semver::Major,
                    ));
                }
                for n in added {
                    let why = if thing == "field" {
                        "struct literals and exhaustive patterns of it no longer compile"
                    } else {
                        "exhaustive matches on it no longer compile"
                    };
                    let shown = if n.1.is_empty() {
                        format!("`{}`", n.0)
                    } else if thing == "field" {
                        format!("`{}: {}`", n.0, n.1)
                    } else {
                        format!("`{}{}`", n.0, n.1)
                    };
                    out.push(change(
                        Some(&n.0),
                        format!("{of} {path}: {thing} {shown} added ({why})"),
                        Semver::Major,
                    ));
                }
            }
            for x in a {
                if let Some(y) = b.iter().find(|y| y.0 == x.0 && y.1 != x.1) {
                    let opt = |t: &str| t.contains("Option<");
                    let kind = if opt(&x.1) != opt(&y.1) {
                        "optionality"
                    } else {
                        "type"
                    };
                    out.push(change(
                        Some(&x.0),
                        format!(
                            "{of} {path}: {thing} `{}` changed in {kind}: `{}` -> `{}`",
                            x.0, x.1, y.1
                        ),
                        Semver::Major,
                    ));
                }
            }
            // Reordered fields or variants: code written against OLD still compiles (a
            // derived Ord of an enum orders differently: not a compile-time change).
            out
        }
        (Item::Const(a), Item::Const(b)) => {
            // `TYPE=VALUE`: a new value still compiles; a new type may not.
            let ty = |c: &str| c.split('=').next().unwrap_or_default().to_string();
            let semver = if ty(a) == ty(b) {
                Semver::Minor
            } else {
                Semver::Major
            };
            vec![change(
                None,
                format!("const {path} changed: `{a}` -> `{b}`"),
                semver,
            )]
        }
        (a, b) if std::mem::discriminant(a) == std::mem::discriminant(b) => vec![change(
            None,
            format!("{} {path} changed", describe(a)),
            Semver::Major,
        )],
        (a, b) => vec![change(
            None,
            format!("{path}: {} -> {}", describe(a), describe(b)),
            Semver::Major,
        )],
    }
}
