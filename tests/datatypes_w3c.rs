//! The W3C XSD suite's datatype instance tests (`../shared/conformance/xsdtests.tar.gz`),
//! judged on the runtime value types (src/datatypes) directly, without generating code.
//!
//! What this judge covers, exactly: the XSD 1.0 instance tests of the datatype test sets
//! (msData datatypes and simpleType, sunData SType, boeingData, the IBM and Saxon datatype
//! sets where a test applies to XSD 1.0) whose schema is one document in which every element
//! and attribute declaration has a built-in simple type, a chain of restrictions of one
//! (with any facets), a list or a union of such types (named or inline), or a complex type (taken as a container: its structure is not
//! checked). Each simple-typed element's text and attribute's value in the instance is read
//! through the runtime's table of facets (`boardxml::facets::Facets`, built as generated
//! code would have it: patterns translated by boardxml-xsd-regex) with the built-in's
//! value type; the predicted outcome is "valid" when every value reads.
//! Everything else is counted as not covered and left to the suite harness of the
//! structures issue: facets on a union, enumerations of a list, imports or includes,
//! instances with
//! `xsi:type` or `xsi:nil`, undeclared names, names declared twice with different types,
//! substitution groups, value constraints (`fixed`, `default`), wildcards, identity
//! constraints, and
//! the built-ins that need more than the value (`NOTATION`, `ENTITY`, `ENTITIES`). A
//! QName is resolved where it stands, and an enumerated one where the schema writes it
//! (`Step::scopes`, as generated code has it).
//!
//! Wrong answers are listed in `tests/datatypes-w3c-known-failures.txt`, each with its
//! reason; the test fails on an unlisted wrong answer and on a listed test that is now
//! right, and it fails if it covers fewer tests than it did when last counted.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::PathBuf;

use boardxml::datatypes as dt;
use boardxml::facets::{Bound, FacetValue, Facets, PatternFacet, Step, WhiteSpace};
use boardxml::pattern::Pattern;
use boardxml::schema::xs;

const XSD: &str = "http://www.w3.org/2001/XMLSchema";
const XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";
const TS: &str = "http://www.w3.org/XML/2004/xml-schema-test-suite/";
const XLINK: &str = "http://www.w3.org/1999/xlink";

const TEST_SETS: &[&str] = &[
    "msMeta/DataTypes_w3c.xml",
    "msMeta/SimpleType_w3c.xml",
    "sunMeta/SType.testSet",
    "boeingMeta/BoeingXSDTestSet.testSet",
    "ibmMeta/date.testSet",
    "ibmMeta/double.testSet",
    "ibmMeta/float.testSet",
    "ibmMeta/gDay.testSet",
    "ibmMeta/gMonth.testSet",
    "ibmMeta/gMonthDay.testSet",
    "ibmMeta/gYear.testSet",
    "ibmMeta/gYearMonth.testSet",
    "ibmMeta/time.testSet",
    "ibmMeta/unsignedInteger.testSet",
    "saxonMeta/Simple.testSet",
];

/// The fewest tests this judge covered when last counted: fewer means a regression in the
/// judge (or the archive), not a better score.
const COVERED_AT_LEAST: usize = 1378;

/// A declared simple type: a built-in and the facets of each restriction step, base first;
/// a list of an item type, with the facets of the list's restriction steps; a union.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Builtin {
    Atomic(String, Vec<RawStep>),
    List(Box<Builtin>, Vec<RawStep>),
    Union(Vec<Builtin>),
}

/// Whether `text` is a value of `decl` (`None`: not covered). A list's items are read with
/// the item type and its length facets count them (`boardxml::facets::check_length`, as
/// `list_type!` does), its patterns apply to the whole collapsed value; a union's members
/// are tried in order (as `union_type!` does).
fn value_ok<'n>(
    decl: &Builtin,
    text: &str,
    scope: &dyn Fn(Option<&str>) -> Option<&'n str>,
) -> Option<bool> {
    match decl {
        Builtin::Atomic(name, steps) => reads(name, steps, text, scope),
        Builtin::List(item, steps) => {
            if steps.iter().any(|s| {
                !s.enumeration.is_empty()
                    || !s.bounds.is_empty()
                    || s.total_digits.is_some()
                    || s.fraction_digits.is_some()
            }) {
                return None;
            }
            let lexical = boardxml::schema::whitespace::collapse(text);
            let mut valid = true;
            let mut count = 0u64;
            for part in lexical.split(' ').filter(|p| !p.is_empty()) {
                count += 1;
                valid &= value_ok(item, part, scope)?;
            }
            let table = facets::<dt::AnySimpleType>(WhiteSpace::Collapse, steps)?;
            valid &= table.check_lexical(&lexical).is_ok();
            for step in table.steps {
                valid &= boardxml::facets::check_length(step, count).is_ok();
            }
            Some(valid)
        }
        Builtin::Union(members) => {
            let mut covered = true;
            for m in members {
                match value_ok(m, text, scope) {
                    Some(true) => return Some(true),
                    Some(false) => {}
                    None => covered = false,
                }
            }
            covered.then_some(false)
        }
    }
}

/// What a name is declared as in a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Decl {
    Simple(Builtin),
    Complex,
}

/// The facets one restriction step of a schema adds, as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct RawStep {
    patterns: Vec<String>,
    enumeration: Vec<String>,
    /// The namespace bindings in scope at each enumerated value, for the prefixes its
    /// value uses and the default namespace (as the generator records them).
    scopes: Vec<Vec<(String, String)>>,
    bounds: Vec<(Bound, String)>,
    length: Option<u64>,
    min_length: Option<u64>,
    max_length: Option<u64>,
    total_digits: Option<u32>,
    fraction_digits: Option<u32>,
    white_space: Option<WhiteSpace>,
}

fn leak<T: ?Sized>(v: Box<T>) -> &'static T {
    Box::leak(v)
}

/// The runtime's table of facets for `steps` over a built-in whose own white space is
/// `white_space`, as generated code would have it; `None` when a facet value is not in
/// the value space of `T` or a pattern does not translate (the schema is then not one the
/// generator takes).
fn facets<T: FacetValue>(white_space: WhiteSpace, steps: &[RawStep]) -> Option<&'static Facets> {
    let mut out = Vec::new();
    let mut ws = white_space;
    for raw in steps {
        if let Some(w) = raw.white_space {
            ws = w;
        }
        let values_ok = raw
            .enumeration
            .iter()
            .chain(raw.bounds.iter().map(|(_, t)| t))
            .all(|t| T::parse_lexical(t).is_ok());
        let scopes: Vec<&'static [(&'static str, &'static str)]> = raw
            .scopes
            .iter()
            .map(|s| {
                let pairs: Vec<(&'static str, &'static str)> = s
                    .iter()
                    .map(|(p, ns)| {
                        (
                            leak(p.clone().into_boxed_str()),
                            leak(ns.clone().into_boxed_str()),
                        )
                    })
                    .collect();
                leak(pairs.into_boxed_slice())
            })
            .collect();
        if !values_ok {
            return None;
        }
        let translated: Vec<String> = raw
            .patterns
            .iter()
            .map(|p| boardxml_xsd_regex::translate(p).ok())
            .collect::<Option<_>>()?;
        if translated.iter().any(|t| Pattern::new(t).is_err()) {
            return None;
        }
        let patterns: Vec<PatternFacet> = translated
            .into_iter()
            .map(|t| PatternFacet::new(leak(t.into_boxed_str())))
            .collect();
        let sources: Vec<&'static str> = raw
            .patterns
            .iter()
            .map(|p| leak(p.clone().into_boxed_str()))
            .collect();
        let enumeration: Vec<&'static str> = raw
            .enumeration
            .iter()
            .map(|p| leak(p.clone().into_boxed_str()))
            .collect();
        let bounds: Vec<(Bound, &'static str)> = raw
            .bounds
            .iter()
            .map(|(b, t)| (*b, leak(t.clone().into_boxed_str())))
            .collect();
        let mut step = Step::NONE
            .patterns(
                leak(patterns.into_boxed_slice()),
                leak(sources.into_boxed_slice()),
            )
            .bounds(leak(bounds.into_boxed_slice()))
            .enumeration(leak(enumeration.into_boxed_slice()))
            .scopes(leak(scopes.into_boxed_slice()));
        if let Some(l) = raw.length {
            step = step.length(l);
        }
        if let Some(l) = raw.min_length {
            step = step.min_length(l);
        }
        if let Some(l) = raw.max_length {
            step = step.max_length(l);
        }
        if let Some(d) = raw.total_digits {
            step = step.total_digits(d);
        }
        if let Some(d) = raw.fraction_digits {
            step = step.fraction_digits(d);
        }
        out.push(step);
    }
    Some(leak(Box::new(Facets::new(
        ws,
        leak(out.into_boxed_slice()),
    ))))
}

fn judge<T: FacetValue>(white_space: WhiteSpace, steps: &[RawStep], text: &str) -> Option<T> {
    facets::<T>(white_space, steps)?.read_value::<T>(text).ok()
}

/// Reads the value `text` as the built-in `name` restricted by `steps`; `scope` resolves a
/// QName's prefix. `Some(valid)`, or `None` when the judge does not cover the built-in or
/// the facets.
fn reads<'n>(
    name: &str,
    steps: &[RawStep],
    text: &str,
    scope: &dyn Fn(Option<&str>) -> Option<&'n str>,
) -> Option<bool> {
    use WhiteSpace::{Collapse, Preserve, Replace};
    // Whether the facets are ones the judge can build (each built-in is tried on a value
    // of its own lexical space; a failure there is the value's, not the facets').
    macro_rules! check {
        ($ws:expr, $t:ty) => {{
            facets::<$t>($ws, steps)?;
            judge::<$t>($ws, steps, text).is_some()
        }};
    }
    Some(match name {
        "string" => check!(Preserve, String),
        "anySimpleType" => check!(Preserve, dt::AnySimpleType),
        "normalizedString" => check!(Replace, xs::NormalizedString),
        "token" => check!(Collapse, xs::Token),
        "anyURI" => check!(Collapse, xs::AnyUri),
        "boolean" => check!(Collapse, bool),
        "decimal" => check!(Collapse, dt::Decimal),
        "integer" => check!(Collapse, dt::Integer),
        "nonNegativeInteger" => check!(Collapse, dt::NonNegativeInteger),
        "positiveInteger" => check!(Collapse, dt::PositiveInteger),
        "nonPositiveInteger" => check!(Collapse, dt::NonPositiveInteger),
        "negativeInteger" => check!(Collapse, dt::NegativeInteger),
        "long" => check!(Collapse, i64),
        "int" => check!(Collapse, i32),
        "short" => check!(Collapse, i16),
        "byte" => check!(Collapse, i8),
        "unsignedLong" => check!(Collapse, u64),
        "unsignedInt" => check!(Collapse, u32),
        "unsignedShort" => check!(Collapse, u16),
        "unsignedByte" => check!(Collapse, u8),
        "float" => check!(Collapse, dt::Float),
        "double" => check!(Collapse, dt::Double),
        "duration" => check!(Collapse, dt::Duration),
        "dateTime" => check!(Collapse, dt::DateTime),
        "time" => check!(Collapse, dt::Time),
        "date" => check!(Collapse, dt::Date),
        "gYearMonth" => check!(Collapse, dt::GYearMonth),
        "gYear" => check!(Collapse, dt::GYear),
        "gMonthDay" => check!(Collapse, dt::GMonthDay),
        "gDay" => check!(Collapse, dt::GDay),
        "gMonth" => check!(Collapse, dt::GMonth),
        "hexBinary" => check!(Collapse, dt::HexBinary),
        "base64Binary" => check!(Collapse, dt::Base64Binary),
        "Name" => check!(Collapse, dt::Name),
        "NCName" => check!(Collapse, dt::NCName),
        "NMTOKEN" => check!(Collapse, dt::NmToken),
        "NMTOKENS" => check!(Collapse, dt::NmTokens),
        "language" => check!(Collapse, dt::Language),
        "ID" => check!(Collapse, dt::Id),
        "IDREF" => check!(Collapse, dt::IdRef),
        "IDREFS" => check!(Collapse, dt::IdRefs),
        "QName" => {
            // Resolved where the value stands; an enumeration's values where the schema
            // writes them.
            let table = facets::<dt::QName>(Collapse, steps)?;
            table
                .read_value_in::<dt::QName>(text, &InstanceScope(scope))
                .is_ok()
        }
        _ => return None,
    })
}

/// The namespace declarations where an instance value stands, as the runtime's readers
/// give them (`""`: the default namespace).
struct InstanceScope<'s, 'n>(&'s dyn Fn(Option<&str>) -> Option<&'n str>);

impl boardxml::schema::NamespaceScope for InstanceScope<'_, '_> {
    fn namespace(&self, prefix: &str) -> Option<&str> {
        match prefix {
            "xml" => Some("http://www.w3.org/XML/1998/namespace"),
            "" => (self.0)(None),
            p => (self.0)(Some(p)),
        }
    }
}

/// The namespace bindings the value of `enumeration` relies on if it is read as QNames.
fn value_scope(enumeration: roxmltree::Node<'_, '_>, value: &str) -> Vec<(String, String)> {
    let mut scope = Vec::new();
    for token in value.split_whitespace() {
        let prefix = token.split_once(':').map_or("", |(p, _)| p);
        let lookup = (!prefix.is_empty()).then_some(prefix);
        if prefix == "xml" {
            continue;
        }
        if let Some(ns) = enumeration
            .lookup_namespace_uri(lookup)
            .filter(|n| !n.is_empty())
        {
            let binding = (prefix.to_owned(), ns.to_owned());
            if !scope.contains(&binding) {
                scope.push(binding);
            }
        }
    }
    scope
}

/// The built-in a `type`/`base` attribute names, if it is in the XSD namespace.
fn builtin_of(node: roxmltree::Node<'_, '_>, qname: &str) -> Option<String> {
    let (prefix, local) = qname
        .split_once(':')
        .map_or((None, qname), |(p, l)| (Some(p), l));
    (node.lookup_namespace_uri(prefix) == Some(XSD)).then(|| local.to_owned())
}

fn is_xsd(node: &roxmltree::Node<'_, '_>, name: &str) -> bool {
    node.is_element() && node.tag_name().namespace() == Some(XSD) && node.tag_name().name() == name
}

/// The declarations of a schema, by local name, or `None` when the schema has something
/// the judge does not cover.
fn declarations(schema: &str) -> Option<BTreeMap<(bool, String), Decl>> {
    let doc = roxmltree::Document::parse(schema).ok()?;
    let root = doc.root_element();
    // Named simple types: each must restrict a built-in (or another such type) with no
    // facet.
    let mut simple: BTreeMap<String, roxmltree::Node<'_, '_>> = BTreeMap::new();
    for n in root.descendants() {
        // What decides validity beyond each value's type: not covered.
        let structural = [
            "include",
            "import",
            "redefine",
            "any",
            "anyAttribute",
            "unique",
            "key",
            "keyref",
        ];
        if structural.iter().any(|s| is_xsd(&n, s))
            || [
                "abstract",
                "block",
                "substitutionGroup",
                "fixed",
                "default",
                "nillable",
            ]
            .iter()
            .any(|a| n.attribute(*a).is_some())
        {
            return None;
        }
        if is_xsd(&n, "simpleType") {
            if let Some(name) = n.attribute("name") {
                simple.insert(name.to_owned(), n);
            }
        }
    }
    fn simple_type(
        n: roxmltree::Node<'_, '_>,
        named: &BTreeMap<String, roxmltree::Node<'_, '_>>,
        depth: usize,
    ) -> Option<Builtin> {
        if depth > 20 {
            return None;
        }
        if let Some(list) = n.children().find(|c| is_xsd(c, "list")) {
            let item = match list.attribute("itemType") {
                Some(t) => type_named(list, t, named, depth + 1)?,
                None => simple_type(inline(list)?, named, depth + 1)?,
            };
            return Some(Builtin::List(Box::new(item), Vec::new()));
        }
        if let Some(union) = n.children().find(|c| is_xsd(c, "union")) {
            let mut members = Vec::new();
            for t in union
                .attribute("memberTypes")
                .unwrap_or("")
                .split_whitespace()
            {
                members.push(type_named(union, t, named, depth + 1)?);
            }
            for m in union.children().filter(|c| is_xsd(c, "simpleType")) {
                members.push(simple_type(m, named, depth + 1)?);
            }
            return Some(Builtin::Union(members));
        }
        let restriction = n.children().find(|c| is_xsd(c, "restriction"))?;
        let base = match restriction.attribute("base") {
            Some(b) => type_named(restriction, b, named, depth + 1)?,
            None => simple_type(inline(restriction)?, named, depth + 1)?,
        };
        let mut step = RawStep::default();
        for f in restriction.children().filter(|c| c.is_element()) {
            let value = || f.attribute("value").map(str::to_owned);
            let number = || value()?.trim().parse::<u64>().ok();
            match f.tag_name().name() {
                "annotation" | "simpleType" => {}
                "pattern" => step.patterns.push(value()?),
                "enumeration" => {
                    let v = value()?;
                    step.scopes.push(value_scope(f, &v));
                    step.enumeration.push(v);
                }
                "minInclusive" => step.bounds.push((Bound::MinInclusive, value()?)),
                "minExclusive" => step.bounds.push((Bound::MinExclusive, value()?)),
                "maxInclusive" => step.bounds.push((Bound::MaxInclusive, value()?)),
                "maxExclusive" => step.bounds.push((Bound::MaxExclusive, value()?)),
                "length" => step.length = Some(number()?),
                "minLength" => step.min_length = Some(number()?),
                "maxLength" => step.max_length = Some(number()?),
                "totalDigits" => step.total_digits = Some(u32::try_from(number()?).ok()?),
                "fractionDigits" => step.fraction_digits = Some(u32::try_from(number()?).ok()?),
                "whiteSpace" => {
                    step.white_space = Some(match value()?.trim() {
                        "preserve" => WhiteSpace::Preserve,
                        "replace" => WhiteSpace::Replace,
                        "collapse" => WhiteSpace::Collapse,
                        _ => return None,
                    })
                }
                _ => return None,
            }
        }
        let add = |mut steps: Vec<RawStep>| {
            if step != RawStep::default() {
                steps.push(step.clone());
            }
            steps
        };
        Some(match base {
            Builtin::Atomic(b, steps) => Builtin::Atomic(b, add(steps)),
            Builtin::List(item, steps) => Builtin::List(item, add(steps)),
            // Facets on a union (pattern, enumeration) are not covered.
            Builtin::Union(m) if step == RawStep::default() => Builtin::Union(m),
            Builtin::Union(_) => return None,
        })
    }
    fn inline<'a, 'i>(at: roxmltree::Node<'a, 'i>) -> Option<roxmltree::Node<'a, 'i>> {
        at.children().find(|c| is_xsd(c, "simpleType"))
    }
    fn type_named(
        at: roxmltree::Node<'_, '_>,
        qname: &str,
        named: &BTreeMap<String, roxmltree::Node<'_, '_>>,
        depth: usize,
    ) -> Option<Builtin> {
        if let Some(b) = builtin_of(at, qname) {
            return Some(Builtin::Atomic(b, Vec::new()));
        }
        let local = qname.rsplit(':').next()?;
        simple_type(*named.get(local)?, named, depth)
    }
    let complex_named: BTreeSet<&str> = root
        .descendants()
        .filter(|n| is_xsd(n, "complexType"))
        .filter_map(|n| n.attribute("name"))
        .collect();
    let mut out: BTreeMap<(bool, String), Decl> = BTreeMap::new();
    for n in root.descendants() {
        let attribute = is_xsd(&n, "attribute");
        if !(attribute || is_xsd(&n, "element")) || n.attribute("ref").is_some() {
            continue;
        }
        let name = n.attribute("name")?.to_owned();
        let decl = if let Some(t) = n.attribute("type") {
            let local = t.rsplit(':').next()?;
            let builtin = builtin_of(n, t);
            if builtin.as_deref() == Some("anyType")
                || (builtin.is_none() && complex_named.contains(local))
            {
                Decl::Complex
            } else {
                Decl::Simple(type_named(n, t, &simple, 0)?)
            }
        } else if let Some(s) = n.children().find(|c| is_xsd(c, "simpleType")) {
            Decl::Simple(simple_type(s, &simple, 0)?)
        } else if attribute {
            Decl::Simple(Builtin::Atomic("anySimpleType".into(), Vec::new()))
        } else {
            Decl::Complex
        };
        match out.get(&(attribute, name.clone())) {
            Some(d) if *d != decl => return None,
            _ => {
                out.insert((attribute, name), decl);
            }
        }
    }
    Some(out)
}

/// The judge's prediction for an instance: `Some(valid)`, or `None` when not covered.
fn predict(decls: &BTreeMap<(bool, String), Decl>, instance: &str) -> Option<bool> {
    let doc = roxmltree::Document::parse(instance).ok()?;
    let mut valid = true;
    for e in doc.descendants().filter(roxmltree::Node::is_element) {
        let scope = |p: Option<&str>| e.lookup_namespace_uri(p);
        for a in e.attributes() {
            if a.namespace() == Some(XSI) {
                if matches!(a.name(), "type" | "nil") {
                    return None;
                }
                continue;
            }
            match decls.get(&(true, a.name().to_owned()))? {
                Decl::Simple(t) => valid &= value_ok(t, a.value(), &scope)?,
                Decl::Complex => return None,
            }
        }
        match decls.get(&(false, e.tag_name().name().to_owned()))? {
            Decl::Simple(t) => {
                if e.children().any(|c| c.is_element()) {
                    return None;
                }
                let text: String = e.children().filter_map(|c| c.text()).collect();
                valid &= value_ok(t, &text, &scope)?;
            }
            Decl::Complex => {}
        }
    }
    Some(valid)
}

/// Whether a `version` attribute lets a test apply to XSD 1.0.
fn for_xsd_1_0(node: roxmltree::Node<'_, '_>) -> bool {
    node.ancestors()
        .filter_map(|a| a.attribute("version"))
        .all(|v| {
            let tokens: Vec<&str> = v.split_whitespace().collect();
            tokens.contains(&"1.0") || !tokens.iter().any(|t| t.starts_with("1.1"))
        })
}

/// The expected validity for XSD 1.0.
fn expected(test: roxmltree::Node<'_, '_>) -> Option<bool> {
    test.children()
        .filter(|c| c.has_tag_name((TS, "expected")))
        .find(|c| {
            c.attribute("version")
                .is_none_or(|v| v.split_whitespace().any(|t| t == "1.0"))
        })
        .and_then(|c| c.attribute("validity"))
        .and_then(|v| match v {
            "valid" => Some(true),
            "invalid" => Some(false),
            _ => None,
        })
}

fn href(node: roxmltree::Node<'_, '_>, element: &str) -> Vec<String> {
    node.children()
        .filter(|c| c.has_tag_name((TS, element)))
        .filter_map(|c| c.attribute((XLINK, "href")))
        .map(str::to_owned)
        .collect()
}

fn unpack() -> Option<(tempfile::TempDir, PathBuf)> {
    let shared = common::shared("conformance")?;
    let archive = shared.join("xsdtests.tar.gz");
    let mut gz = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&archive).expect("the archive"))
        .read_to_end(&mut gz)
        .expect("a gzip archive");
    let dir = tempfile::tempdir().expect("a temporary folder");
    common::untar(&gz, dir.path());
    let root = dir.path().join("xsdtests");
    Some((dir, root))
}

fn known_failures() -> BTreeMap<String, String> {
    let text = include_str!("datatypes-w3c-known-failures.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (name, why) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
            assert!(
                !why.trim().is_empty(),
                "{name}: a known failure needs its reason"
            );
            (name.to_owned(), why.trim().to_owned())
        })
        .collect()
}

#[test]
fn w3c_datatype_instance_tests() {
    let Some((_dir, root)) = unpack() else {
        return;
    };
    let known = known_failures();
    let (mut covered, mut right, mut uncovered) = (0usize, 0usize, 0usize);
    let (mut invalid, mut invalid_right) = (0usize, 0usize);
    let mut wrong = BTreeSet::new();
    for set in TEST_SETS {
        let path = root.join(set);
        let text = std::fs::read_to_string(&path).expect("a test set");
        let doc = roxmltree::Document::parse(&text).expect("a test set reads");
        let folder = path.parent().expect("a folder");
        for group in doc
            .descendants()
            .filter(|n| n.has_tag_name((TS, "testGroup")))
        {
            let Some(schema_test) = group
                .children()
                .find(|c| c.has_tag_name((TS, "schemaTest")))
            else {
                continue;
            };
            let schemas = href(schema_test, "schemaDocument");
            let instances: Vec<_> = group
                .children()
                .filter(|c| c.has_tag_name((TS, "instanceTest")))
                .collect();
            if instances.is_empty() {
                continue;
            }
            let decls = (schemas.len() == 1
                && for_xsd_1_0(schema_test)
                && expected(schema_test) == Some(true))
            .then(|| std::fs::read_to_string(folder.join(&schemas[0])).ok())
            .flatten()
            .and_then(|s| declarations(&s));
            for test in instances {
                let name = format!("{set}:{}", test.attribute("name").unwrap_or("?"));
                let doc = href(test, "instanceDocument");
                let prediction = match (&decls, expected(test), doc.first()) {
                    (Some(decls), Some(_), Some(file)) if for_xsd_1_0(test) => {
                        std::fs::read_to_string(folder.join(file))
                            .ok()
                            .and_then(|i| predict(decls, &i))
                    }
                    _ => None,
                };
                let Some(prediction) = prediction else {
                    uncovered += 1;
                    continue;
                };
                covered += 1;
                if expected(test) == Some(false) {
                    invalid += 1;
                    invalid_right += usize::from(!prediction);
                }
                if Some(prediction) == expected(test) {
                    right += 1;
                } else {
                    wrong.insert(name);
                }
            }
        }
    }
    let unlisted: Vec<_> = wrong.iter().filter(|w| !known.contains_key(*w)).collect();
    let now_right: Vec<_> = known.keys().filter(|k| !wrong.contains(*k)).collect();
    let _ = std::io::Write::write_all(
        &mut std::io::stderr(),
        format!(
            "W3C datatype instance tests judged on the value types: {right}/{covered} right \
             ({} wrong, {uncovered} not covered); of them expected invalid: \
             {invalid_right}/{invalid} right\n",
            wrong.len()
        )
        .as_bytes(),
    );
    assert!(
        unlisted.is_empty() && now_right.is_empty(),
        "wrong and not listed in tests/datatypes-w3c-known-failures.txt: {unlisted:#?}\n\
         listed but now right: {now_right:#?}"
    );
    assert!(
        covered >= COVERED_AT_LEAST,
        "covered {covered} tests, fewer than {COVERED_AT_LEAST}"
    );
}
