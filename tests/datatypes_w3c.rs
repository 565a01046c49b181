//! The W3C XSD suite's datatype instance tests (`../shared/conformance/xsdtests.tar.gz`),
//! judged on the runtime value types (src/datatypes) directly, without generating code.
//!
//! What this judge covers, exactly: the XSD 1.0 instance tests of the datatype test sets
//! (msData datatypes and simpleType, sunData SType, boeingData, the IBM and Saxon datatype
//! sets where a test applies to XSD 1.0) whose schema is one document in which every element
//! and attribute declaration has a built-in simple type, a simple type restricted from
//! one with no facet, or a complex type (taken as a container: its structure is not
//! checked). Each simple-typed element's text and attribute's value in the instance is read
//! with the built-in's value type; the predicted outcome is "valid" when every value reads.
//! Everything else is counted as not covered and left to the suite harness of the
//! structures issue: schemas with facets, lists, unions, imports or includes, instances with
//! `xsi:type` or `xsi:nil`, undeclared names, names declared twice with different types,
//! substitution groups, value constraints (`fixed`, `default`), wildcards, identity
//! constraints, and
//! the built-ins that need more than the value (`NOTATION`, `ENTITY`, `ENTITIES`).
//!
//! Wrong answers are listed in `tests/datatypes-w3c-known-failures.txt`, each with its
//! reason; the test fails on an unlisted wrong answer and on a listed test that is now
//! right, and it fails if it covers fewer tests than it did when last counted.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::PathBuf;

use boardxml::datatypes as dt;
use boardxml::schema::{xs, SimpleValue};

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
const COVERED_AT_LEAST: usize = 376;

/// A declared simple type: the built-in it is (or restricts without facets).
type Builtin = String;

/// What a name is declared as in a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Decl {
    Simple(Builtin),
    Complex,
}

/// Reads the value `text` as the built-in `name`; `scope` resolves a QName's prefix.
/// `None` when the judge does not cover the built-in.
fn reads<'n>(
    name: &str,
    text: &str,
    scope: &dyn Fn(Option<&str>) -> Option<&'n str>,
) -> Option<bool> {
    fn ok<T: SimpleValue>(text: &str) -> bool {
        T::parse_lexical(text).is_ok()
    }
    Some(match name {
        "string" | "anySimpleType" => true,
        "normalizedString" => ok::<xs::NormalizedString>(text),
        "token" => ok::<xs::Token>(text),
        "anyURI" => ok::<xs::AnyUri>(text),
        "boolean" => ok::<bool>(text),
        "decimal" => ok::<dt::Decimal>(text),
        "integer" => ok::<dt::Integer>(text),
        "nonNegativeInteger" => ok::<dt::NonNegativeInteger>(text),
        "positiveInteger" => ok::<dt::PositiveInteger>(text),
        "nonPositiveInteger" => ok::<dt::NonPositiveInteger>(text),
        "negativeInteger" => ok::<dt::NegativeInteger>(text),
        "long" => ok::<i64>(text),
        "int" => ok::<i32>(text),
        "short" => ok::<i16>(text),
        "byte" => ok::<i8>(text),
        "unsignedLong" => ok::<u64>(text),
        "unsignedInt" => ok::<u32>(text),
        "unsignedShort" => ok::<u16>(text),
        "unsignedByte" => ok::<u8>(text),
        "float" => ok::<dt::Float>(text),
        "double" => ok::<dt::Double>(text),
        "duration" => ok::<dt::Duration>(text),
        "dateTime" => ok::<dt::DateTime>(text),
        "time" => ok::<dt::Time>(text),
        "date" => ok::<dt::Date>(text),
        "gYearMonth" => ok::<dt::GYearMonth>(text),
        "gYear" => ok::<dt::GYear>(text),
        "gMonthDay" => ok::<dt::GMonthDay>(text),
        "gDay" => ok::<dt::GDay>(text),
        "gMonth" => ok::<dt::GMonth>(text),
        "hexBinary" => ok::<dt::HexBinary>(text),
        "base64Binary" => ok::<dt::Base64Binary>(text),
        "Name" => ok::<dt::Name>(text),
        "NCName" => ok::<dt::NCName>(text),
        "NMTOKEN" => ok::<dt::NmToken>(text),
        "NMTOKENS" => ok::<dt::NmTokens>(text),
        "language" => ok::<dt::Language>(text),
        "ID" => ok::<dt::Id>(text),
        "IDREF" => ok::<dt::IdRef>(text),
        "IDREFS" => ok::<dt::IdRefs>(text),
        "QName" => dt::QName::parse(text).is_ok_and(|q| q.resolve(scope).is_some()),
        _ => return None,
    })
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
        let restriction = n.children().find(|c| is_xsd(c, "restriction"))?;
        if restriction
            .children()
            .any(|c| c.is_element() && !is_xsd(&c, "annotation"))
        {
            return None;
        }
        type_named(
            restriction,
            restriction.attribute("base")?,
            named,
            depth + 1,
        )
    }
    fn type_named(
        at: roxmltree::Node<'_, '_>,
        qname: &str,
        named: &BTreeMap<String, roxmltree::Node<'_, '_>>,
        depth: usize,
    ) -> Option<Builtin> {
        if let Some(b) = builtin_of(at, qname) {
            return Some(b);
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
            Decl::Simple("anySimpleType".into())
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
                Decl::Simple(t) => valid &= reads(t, a.value(), &scope)?,
                Decl::Complex => return None,
            }
        }
        match decls.get(&(false, e.tag_name().name().to_owned()))? {
            Decl::Simple(t) => {
                if e.children().any(|c| c.is_element()) {
                    return None;
                }
                let text: String = e.children().filter_map(|c| c.text()).collect();
                valid &= reads(t, &text, &scope)?;
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
             ({} wrong, {uncovered} not covered)\n",
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
