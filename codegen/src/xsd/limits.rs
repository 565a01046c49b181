//! Depth limits on schema documents, checked before anything else reads them (issue 28, D3).
//!
//! xsd-parser's reader and most of the conversion and rendering passes recurse on the
//! structure of a schema: on how deeply its elements nest, and through what its components
//! refer to (a group's `xs:group ref`, an attribute group's `xs:attributeGroup ref`, a
//! type's base, list item and union member types, an element's substitution group head).
//! Rather than rewrite every pass and xsd-parser, two iterative scans bound that structure,
//! and the pipeline runs on a thread whose stack is sized for the bound (`on_schema_stack`
//! in the crate root):
//!
//! - no document nests elements deeper than [`MAX_NESTING`];
//! - no component's *reference depth* exceeds [`MAX_REFERENCE_DEPTH`]: its own nesting, or
//!   for each reference inside it, how deep the reference stands plus the referred
//!   component's reference depth (following a reference is a level more), so a chain of
//!   groups, each nesting its reference a few levels down, counts every level. Cycles are not followed (other passes report or
//!   handle them): a reference back into the chain being measured counts nothing.
//!
//! Both are measured on the documents' trees (`tree.rs`), read without recursion: the
//! nesting while the tree is read, the references by a walk over its nodes in document
//! order, so a document of any depth is measured without recursion.

use std::collections::HashMap;

use super::compose::DocumentSet;
use super::tree::Tree;
use crate::diagnostic::{Kind, SchemaDiagnostic};
use crate::ir::Span;

pub use super::tree::MAX_NESTING;

/// How deep a component's structure may go with its references followed (see the module
/// documentation).
pub const MAX_REFERENCE_DEPTH: usize = 512;

/// A component's symbol space, namespace and local name.
type Component = (&'static str, Option<String>, String);

/// What one component refers to, and how deep it stands in the component.
#[derive(Default)]
struct Node {
    /// The deepest nesting inside the component (1: the component's element alone).
    nesting: usize,
    /// (referred component, depth of the referring element in this component).
    references: Vec<(Component, usize)>,
    /// Where it is declared: (document index, span).
    at: (usize, Span),
}

/// Checks both limits on every document of `set`; the problems found (at most one per
/// document for nesting, one for references).
pub fn check(set: &DocumentSet) -> Vec<SchemaDiagnostic> {
    let mut problems = Vec::new();
    let mut nodes: HashMap<Component, Node> = HashMap::new();
    // Components in document order, for a stable report.
    let mut order: Vec<Component> = Vec::new();
    for (index, doc) in set.documents.iter().enumerate() {
        if let Some((span, name)) = &doc.tree.too_deep {
            problems.push(SchemaDiagnostic {
                file: doc.path.clone(),
                span: *span,
                construct: format!("element <{name}>"),
                message: format!(
                    "elements nest more than {MAX_NESTING} deep here; boardxml-codegen reads schema documents nested at most {MAX_NESTING} deep"
                ),
                hint: Some("flatten the nesting, e.g. with named groups or types".to_owned()),
                kind: Kind::Unsupported,
            });
            continue;
        }
        references(
            index,
            &doc.tree,
            doc.namespace.as_deref(),
            doc.target_namespace.is_none(),
            &mut nodes,
            &mut order,
        );
    }
    if !problems.is_empty() {
        // Reference depths are not measured over documents not scanned whole.
        return problems;
    }
    if let Some((component, depth)) = deepest(&nodes, &order) {
        let node = &nodes[&component];
        let doc = &set.documents[node.at.0];
        problems.push(SchemaDiagnostic {
            file: doc.path.clone(),
            span: node.at.1,
            construct: format!("{} \"{}\"", xs_element(component.0), component.2),
            message: format!(
                "this component's structure goes {depth} levels deep with its references followed (group and attribute group references, base, item and member types, substitution group heads, each counted at the depth it stands); boardxml-codegen reads at most {MAX_REFERENCE_DEPTH}"
            ),
            hint: Some("shorten the chain of references or flatten the nesting".to_owned()),
            kind: Kind::Unsupported,
        });
    }
    problems
}

fn xs_element(space: &str) -> &'static str {
    match space {
        "group" => "xs:group",
        "attributeGroup" => "xs:attributeGroup",
        "element" => "xs:element",
        _ => "type",
    }
}

/// The symbol space of a top-level XSD element that declares a named component.
fn space_of(local: &str) -> Option<&'static str> {
    Some(match local {
        "group" => "group",
        "attributeGroup" => "attributeGroup",
        "complexType" | "simpleType" => "type",
        "element" => "element",
        _ => return None,
    })
}

/// One document's components' references, into `nodes`.
fn references(
    index: usize,
    tree: &Tree,
    namespace: Option<&str>,
    chameleon: bool,
    nodes: &mut HashMap<Component, Node>,
    order: &mut Vec<Component>,
) {
    // The component being read: its key and the depth of its element.
    let mut current: Option<(Component, usize)> = None;
    // The nodes are in document order, so a component's elements follow it until one
    // stands no deeper than it.
    for n in &tree.nodes[..] {
        if current.as_ref().is_some_and(|(_, d)| n.depth <= *d) {
            current = None;
        }
        if !n.xs {
            continue;
        }
        let parent_holds_components = n.parent.is_some_and(|p| {
            tree.nodes[p].is("schema")
                || tree.nodes[p].is("redefine")
                || tree.nodes[p].is("override")
        });
        if parent_holds_components && current.is_none() {
            if let (Some(space), Some(name)) = (space_of(&n.local), n.attr("name")) {
                let key: Component = (space, namespace.map(str::to_owned), name.to_owned());
                let node = nodes.entry(key.clone()).or_insert_with(|| {
                    order.push(key.clone());
                    Node {
                        at: (index, n.span),
                        ..Node::default()
                    }
                });
                node.nesting = node.nesting.max(1);
                current = Some((key, n.depth));
            }
        }
        let Some((key, start)) = &current else {
            continue;
        };
        let relative = n.depth - start + 1;
        let mut refs = Vec::new();
        let mut refer = |space: &'static str, value: &str| {
            if let Some(target) = resolve(n, value, namespace, chameleon) {
                refs.push(((space, target.0, target.1), relative));
            }
        };
        match n.local.as_str() {
            "group" | "attributeGroup" => {
                if let Some(v) = n.attr("ref") {
                    refer(space_of(&n.local).unwrap_or("group"), v);
                }
            }
            "extension" | "restriction" => {
                if let Some(v) = n.attr("base") {
                    refer("type", v);
                }
            }
            "list" => {
                if let Some(v) = n.attr("itemType") {
                    refer("type", v);
                }
            }
            "union" => {
                if let Some(v) = n.attr("memberTypes") {
                    for member in v.split_ascii_whitespace() {
                        refer("type", member);
                    }
                }
            }
            "element" if relative == 1 => {
                if let Some(v) = n.attr("substitutionGroup") {
                    // XSD 1.1 allows a list of heads.
                    for head in v.split_ascii_whitespace() {
                        refer("element", head);
                    }
                }
            }
            _ => {}
        }
        if let Some(node) = nodes.get_mut(key) {
            node.nesting = node.nesting.max(relative);
            node.references.extend(refs);
        }
    }
}

/// The expanded name of a QName value where `n` stands; unprefixed names take the default
/// namespace, and in a chameleon document the including document's.
fn resolve(
    n: &super::tree::Node,
    value: &str,
    namespace: Option<&str>,
    chameleon: bool,
) -> Option<(Option<String>, String)> {
    let value = value.trim();
    let (prefix, local) = value.split_once(':').unwrap_or(("", value));
    match n.namespace(prefix) {
        Some(ns) if !ns.is_empty() => Some((Some(ns.to_owned()), local.to_owned())),
        // Unprefixed with no default namespace (or one undeclared): no namespace.
        _ if prefix.is_empty() => Some((
            if chameleon {
                namespace.map(str::to_owned)
            } else {
                None
            },
            local.to_owned(),
        )),
        // A prefix nothing binds: the validity pass reports it.
        _ => None,
    }
}

/// The component with the greatest reference depth over the limit, with that depth;
/// computed by an iterative depth-first walk, each component once.
fn deepest(nodes: &HashMap<Component, Node>, order: &[Component]) -> Option<(Component, usize)> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Open,
        Done(usize),
    }
    let mut state: HashMap<&Component, State> = HashMap::new();
    for root in order {
        if state.contains_key(root) {
            continue;
        }
        // (component, index of the next reference to follow)
        let mut stack: Vec<(&Component, usize)> = vec![(root, 0)];
        state.insert(root, State::Open);
        while let Some(&mut (key, ref mut next)) = stack.last_mut() {
            let node = &nodes[key];
            if let Some((target, _)) = node.references.get(*next) {
                *next += 1;
                if let Some((target, _)) = nodes.get_key_value(target) {
                    if !state.contains_key(target) {
                        state.insert(target, State::Open);
                        stack.push((target, 0));
                    }
                }
                continue;
            }
            // Every reference followed: this component's depth. A reference still open is
            // a cycle, counted as nothing more.
            let depth = node
                .references
                .iter()
                .map(|(target, at)| match state.get(target) {
                    Some(State::Done(d)) => at + d,
                    _ => *at,
                })
                .fold(node.nesting, usize::max);
            state.insert(key, State::Done(depth));
            stack.pop();
        }
    }
    // The deepest (the first of them in document order): where the chain starts.
    let mut deepest: Option<(Component, usize)> = None;
    for key in order {
        if let Some(State::Done(d)) = state.get(key) {
            if *d > MAX_REFERENCE_DEPTH && deepest.as_ref().is_none_or(|(_, most)| d > most) {
                deepest = Some((key.clone(), *d));
            }
        }
    }
    deepest
}
