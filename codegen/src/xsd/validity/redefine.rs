//! A redefinition measured against what it redefines (XSD 1.0 Part 1, 4.2.2): a model
//! group or attribute group redefined without referring to itself must be a restriction
//! of the original (src-redefine 6.2.2, 7.2.2), as a complex type's content and attributes
//! restrict its base's. The original stands in the redefined document, so the check reads
//! both documents as one: the redefining document's elements, then the redefined one's,
//! in one list; names resolve to the redefined document's components where the
//! redefinitions would shadow them (the redefinitions are not registered), and to the
//! redefining document's own otherwise.

use std::collections::{HashMap, HashSet};

use super::{judged, Checker, Known, Space};
use crate::diagnostic::Kind;
use crate::xsd::tree::{Node, NodeId, ScanProblem, Tree};

/// The problems of the redefinitions in the xs:redefine element `redefine` of
/// `redefining` (whose components are in `namespace`) against `redefined`, the document
/// it redefines; every one located in `redefining`.
pub fn check_redefinition(
    redefining: &Tree,
    redefine: NodeId,
    redefined: &Tree,
    known: &Known,
    namespace: Option<&str>,
) -> Vec<ScanProblem> {
    let (Some(own), Some(other)) = (judged(redefining), judged(redefined)) else {
        return Vec::new();
    };
    if other.is_empty() || !own.get(redefine).is_some_and(|n| n.is("redefine")) {
        return Vec::new();
    }
    let offset = own.len();
    let mut nodes: Vec<Node> = own.to_vec();
    nodes.extend(other.iter().map(|n| {
        let mut n = n.clone();
        n.parent = n.parent.map(|p| p + offset);
        for c in &mut n.children {
            *c += offset;
        }
        n
    }));
    let mut cx = Checker {
        nodes: &nodes,
        problems: Vec::new(),
        target: namespace.map(str::to_string),
        imported: HashSet::new(),
        composed: true,
        globals: HashMap::new(),
        known: Some(known),
        chameleon: false,
        doc: usize::MAX,
        xsd_1_1: redefining.xsd_1_1(),
    };
    // The redefined document's components first: where a name is declared in both (a
    // duplicate, reported by the documents' own checks), the original is meant here.
    let mut top: Vec<usize> = nodes[offset].children.clone();
    top.extend(nodes[0].children.iter().copied());
    cx.collect_globals(&top);
    // What collecting reports is the documents' own checks' to say.
    cx.problems.clear();
    let mut found: Vec<(usize, String, String)> = Vec::new();
    for k in nodes[redefine].children.clone() {
        let n = &nodes[k];
        let space = match (n.xs, n.local.as_str()) {
            (true, "group") => Space::Group,
            (true, "attributeGroup") => Space::AttributeGroup,
            _ => continue,
        };
        let Some(name) = n.attr("name").map(|s| s.trim().to_string()) else {
            continue;
        };
        if refers_to_itself(&cx, k, space, &name) {
            // src-redefine 6.1 and 7.1 apply instead (checked with the document).
            continue;
        }
        let Some(&original) = cx.globals.get(&(space, name.clone())) else {
            continue;
        };
        if original < offset {
            continue;
        }
        let construct = format!("xs:{} \"{name}\" in xs:redefine", n.local);
        match space {
            Space::Group => {
                let models = ["sequence", "choice", "all"];
                let (Some(r), Some(b)) = (cx.child(k, &models), cx.child(original, &models)) else {
                    continue;
                };
                if let Some((at, why)) = cx.group_restricts(r, b) {
                    let at = if at < offset { at } else { k };
                    found.push((at, construct, format!("src-redefine.6.2.2: the redefinition of group \"{name}\" does not refer to itself, so it must restrict the original (3.9.6): {why}")));
                }
            }
            _ => {
                for (at, _, why) in cx.attribute_group_restricts(k, original) {
                    let at = if at < offset { at } else { k };
                    found.push((at, construct.clone(), format!("src-redefine.7.2.2: the redefinition of attribute group \"{name}\" does not refer to itself, so it must restrict the original: {why}")));
                }
            }
        }
    }
    found
        .into_iter()
        .map(|(at, construct, message)| ScanProblem {
            span: nodes[at].span,
            construct,
            message,
            hint: None,
            kind: Kind::Invalid,
        })
        .collect()
}

/// Whether the redefinition `k` of the group or attribute group `name` refers to the
/// component it redefines (a reference of its own kind and name anywhere inside it).
fn refers_to_itself(cx: &Checker<'_>, k: usize, space: Space, name: &str) -> bool {
    let local = match space {
        Space::Group => "group",
        _ => "attributeGroup",
    };
    let mut stack = cx.nodes[k].children.clone();
    while let Some(c) = stack.pop() {
        let n = &cx.nodes[c];
        if n.is(local) {
            let named = n.attr("ref").and_then(|r| cx.resolve(c, r).ok());
            if named.is_some_and(|(ns, l)| l == name && ns == cx.target) {
                return true;
            }
        }
        stack.extend(n.children.iter().copied());
    }
    false
}
