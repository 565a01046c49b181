//! Type substitution (XSD 1.0 Part 1, 3.3.4 Element Locally Valid (Element) 4): an
//! element may name, with `xsi:type`, a type validly derived from its declared type (3.4.6
//! Type Derivation OK (Complex), 3.14.6 Type Derivation OK (Simple)) that the element's
//! `block` (else its document's `blockDefault`) and the declared type's own `block` allow,
//! and that is not abstract; an element whose declared type is abstract needs one.
//!
//! Where some named type of the schema may stand in for an element's declared type (or the
//! declared type is abstract), the element is given a type of kind
//! [`TypeKind::Substitution`]: generated code reads it as an enum whose variant the
//! `xsi:type` chooses, and writes `xsi:type` back. The set of types is computed here, from
//! the derivation steps and `block`s the substitution-group pass reads
//! (`substitution.rs`: `steps`, `type_blocks`) and the union members and abstract types read
//! below, before anything is converted: an element is converted when its type is, and the
//! types derived from its declared type may come later.
//!
//! What stands in is the schema's named types only: a built-in derived from a built-in
//! declared type (`xsi:type="xs:integer"` on an `xs:decimal` element) is not offered, so an
//! element of a built-in type changes shape only where the schema derives a type from it
//! (otherwise every `xs:string` element of every schema would become an enum of a dozen
//! built-ins). Built-in members of a declared union are offered (they are the schema's).

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use xsd_parser::models::schema::xs::{ElementType, Schema as RawSchema, SimpleBaseTypeContent};

use super::substitution::{builtin_base, Blocked, Method, Ty};
use super::Converter;
use crate::ir::*;
use crate::xsd::adapter::{Item, What};

/// The XML Schema namespace: built-in types' expanded names are in it.
const XSD_NAMESPACE: &str = "http://www.w3.org/2001/XMLSchema";

/// What the conversion needs to know of every named type before converting any.
#[derive(Default)]
pub(super) struct TypeSubstitutions {
    /// Each named type's expanded name, by its key in `Schema::types`.
    names: BTreeMap<String, String>,
    /// Named simple types, by key.
    simple: HashSet<String>,
    /// Keys of components a redefinition replaces (registered under an original's name):
    /// no document names them (`xsi:type` names the redefinition), so `names` leaves them out.
    originals: HashSet<String>,
    /// Named complex types declared `abstract="true"`.
    abstract_types: HashSet<String>,
    /// Each named union's member types (memberTypes; inline members cannot be named).
    union_members: HashMap<String, Vec<Ty>>,
    /// Each document's `blockDefault`.
    block_defaults: HashMap<usize, Blocked>,
    /// The substitution types made so far, by declared type and what the element blocks:
    /// elements alike share one (Element Declarations Consistent compares types).
    made: HashMap<(TypeRef, Blocked), String>,
    /// For each type, the named types and built-ins whose chain of bases passes through it
    /// (itself included): the only candidates that can be derived from it. Built on first
    /// use, once every chain is noted (step 5 of the driver; the tables are made in step
    /// 7), so an element's table looks at its type's descendants, not at every type of the
    /// schema (which made UBL's 2,000 elements times 1,700 types a quadratic pass).
    descendants: std::cell::OnceCell<HashMap<Ty, Vec<Ty>>>,
}

impl Converter<'_> {
    /// Reads the current document's named types' expanded names, abstract complex types,
    /// union members and `blockDefault` (after every document's components are registered).
    pub(super) fn note_type_substitution(&mut self, raw: &RawSchema, root: Item<'_>) {
        let block_default = Blocked::of(&raw.block_default);
        self.typesub.block_defaults.insert(self.doc, block_default);
        let target = self.namespaces.target.clone();
        // The top level as the schema has it (xs:override, overrides.rs).
        for item in self.top_level(root) {
            match item.what {
                What::ComplexType(ct) => {
                    let Some(name) = &ct.name else { continue };
                    let key = self.declared("type", name);
                    let expanded = expanded_name(target.as_deref(), name);
                    if self.note_original(&key, name, &expanded).is_none() {
                        self.typesub.names.entry(key.clone()).or_insert(expanded);
                    }
                    if ct.abstract_ {
                        self.typesub.abstract_types.insert(key);
                    }
                }
                What::SimpleType(st) => {
                    let Some(name) = &st.name else { continue };
                    let key = self.declared("type", name);
                    let expanded = expanded_name(target.as_deref(), name);
                    match self.note_original(&key, name, &expanded) {
                        Some(redefinition) => drop(self.typesub.simple.insert(redefinition)),
                        None => drop(self.typesub.names.entry(key.clone()).or_insert(expanded)),
                    }
                    self.typesub.simple.insert(key.clone());
                    for c in &st.content {
                        if let SimpleBaseTypeContent::Union(u) = c {
                            let members = u
                                .member_types
                                .iter()
                                .flat_map(|l| l.0.iter())
                                .filter(|q| !q.as_bytes().is_empty())
                                .map(|q| self.quiet_type(q))
                                .collect();
                            self.typesub.union_members.insert(key.clone(), members);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// Records the named types an undeclared root's `xsi:type` may name: each named type
    /// of the schema that was converted and is not abstract (3.3.4 cvc-elt.2 and 4.2).
    pub(super) fn note_root_types(&mut self) {
        let builtins = BUILTIN_SIMPLE_TYPES
            .iter()
            .chain(&["anyType"])
            .filter_map(|local| {
                let b = Builtin::from_xsd_name(local)?;
                Some((
                    expanded_name(Some(XSD_NAMESPACE), local),
                    TypeRef::Builtin(b),
                ))
            });
        let named = self
            .typesub
            .names
            .iter()
            .filter(|(key, _)| {
                !self.typesub.abstract_types.contains(*key)
                    && !self.typesub.originals.contains(*key)
                    && self.schema.types.contains_key(*key)
            })
            .map(|(key, expanded)| (expanded.clone(), TypeRef::Named(key.clone())));
        let types: BTreeMap<String, TypeRef> = builtins.chain(named).collect();
        self.schema.root_types = types;
    }

    /// Every named type's expanded name, once each, in order (an original a redefinition
    /// replaces has the redefinition's name).
    fn known_types(&self) -> Vec<String> {
        let known: std::collections::BTreeSet<&String> = self.typesub.names.values().collect();
        known.into_iter().cloned().collect()
    }

    /// Where the current document's type `name` (registered as `key`) is replaced by a
    /// redefinition, the redefinition is what its expanded name names: recorded under the
    /// name references resolve to, and `key` noted as an original.
    fn note_original(&mut self, key: &str, name: &str, expanded: &str) -> Option<String> {
        let target = self.namespaces.target.clone();
        let redefinition = self.key_of("type", target, name.to_string());
        if redefinition == key {
            return None;
        }
        self.typesub.originals.insert(key.to_string());
        self.typesub
            .names
            .insert(redefinition.clone(), expanded.to_string());
        Some(redefinition)
    }

    /// What an element declaration's `block` (else its document's `blockDefault`) blocks.
    fn element_block(&self, el: &ElementType) -> Blocked {
        let block_default = self.typesub.block_defaults.get(&self.doc);
        let block_default = block_default.copied().unwrap_or_default();
        el.block.as_ref().map_or(block_default, Blocked::of)
    }

    /// The type an element declared with type `declared` (its declaration `el`, at `span`)
    /// reads with: `declared` itself, or a substitution type over it and the types that may
    /// stand in for it.
    pub(super) fn substitutable(
        &mut self,
        declared: TypeRef,
        el: &ElementType,
        span: Span,
    ) -> TypeRef {
        let (ty, declared_name) = match &declared {
            TypeRef::Named(k) => match self.typesub.names.get(k) {
                Some(n) => (Ty::Named(k.clone()), Some(n.clone())),
                // An anonymous type: nothing is derived from it, xsi:type cannot name it.
                None => return declared,
            },
            // Open content is the wildcard module's; anySimpleType stands for every
            // simple type, which is not offered (see the module documentation).
            TypeRef::Builtin(Builtin::AnyType | Builtin::Value(ValueType::AnySimpleType)) => {
                return declared
            }
            TypeRef::Builtin(b) => {
                let (ty, name) = builtin_ty(b);
                (ty, Some(name))
            }
        };
        let declared_abstract =
            matches!(&ty, Ty::Named(k) if self.typesub.abstract_types.contains(k));
        let element_block = self.element_block(el);
        let type_block = self.subst.type_blocks.get(&ty).copied().unwrap_or_default();
        let blocked = Blocked {
            extension: element_block.extension || type_block.extension,
            restriction: element_block.restriction || type_block.restriction,
            substitution: false,
        };
        let mut members = Vec::new();
        let mut refused = Vec::new();
        let candidates: Vec<(Ty, String, TypeRef)> = self
            .named_descendants(&ty)
            .into_iter()
            .chain(self.builtin_members(&ty))
            .collect();
        for (candidate, name, type_ref) in candidates {
            if candidate == ty {
                continue;
            }
            let Some(methods) = self.derivation(&candidate, &ty) else {
                continue;
            };
            if let Some(m) = methods.iter().find(|&&m| blocked.forbids(m)) {
                let by = if element_block.forbids(*m) {
                    format!("the element's block (or blockDefault) forbids {}", word(*m))
                } else {
                    format!("the declared type's block forbids {}", word(*m))
                };
                refused.push((name, format!("it is derived by {}, and {by}", word(*m))));
            } else if matches!(&candidate, Ty::Named(k) if self.typesub.abstract_types.contains(k))
            {
                refused.push((name, "it is abstract".to_string()));
            } else {
                members.push((name, type_ref));
            }
        }
        if members.is_empty() && !declared_abstract {
            // Nothing may stand in: the element reads as before (an xsi:type naming a
            // derived type is refused as one the element does not take).
            return declared;
        }
        let key = (declared.clone(), blocked);
        if let Some(name) = self.typesub.made.get(&key) {
            return TypeRef::Named(name.clone());
        }
        members.sort();
        refused.sort();
        let known: Vec<String> = self.known_types();
        let base = match &declared {
            TypeRef::Named(k) => k.clone(),
            TypeRef::Builtin(b) => b.xsd_name().trim_start_matches("xs:").to_string(),
        };
        let tname = self.synthesise(&format!("{base}-typed"));
        self.insert(Some(TypeDef {
            name: tname.clone(),
            // The renderer says what it is; `doc` is the schema's documentation.
            doc: None,
            span,
            kind: TypeKind::Substitution(TypeSubstitution {
                declared,
                declared_name,
                declared_abstract,
                members,
                refused,
                known,
            }),
        }));
        self.typesub.made.insert(key, tname.clone());
        TypeRef::Named(tname)
    }

    /// What `xsi:type` may name on an element declared (`el`) with the simple type
    /// `declared` (3.3.4 cvc-elt.4.3; 3.14.6 Type Derivation OK (Simple)): every simple type
    /// of the schema and every built-in validly derived from it, unless the element's
    /// `block` (else `blockDefault`) has `restriction`, which forbids every derivation of a
    /// simple type but the identity (3.14.6 clause 2.1: list and union count as
    /// restriction there). For `xs:anyType` the simple types are offered the same way, and
    /// the complex types its `block` allows are left `open` (read as anyType content).
    /// `None` where the declared type is complex or anonymous (nothing is derived from an
    /// anonymous type, and it cannot be named).
    pub(super) fn simple_substitution(
        &self,
        declared: &TypeRef,
        el: &ElementType,
    ) -> Option<SimpleSubstitution> {
        let (ty, declared_name) = match declared {
            TypeRef::Named(k) if self.typesub.simple.contains(k) => {
                (Ty::Named(k.clone()), self.typesub.names.get(k)?.clone())
            }
            TypeRef::Named(_) => return None,
            TypeRef::Builtin(b) => builtin_ty(b),
        };
        let element_block = self.element_block(el);
        // Every type is derived from anyType (3.4.6, 3.14.6): simple types by restriction
        // (through anySimpleType), complex ones by their own chain; for it every type is a
        // candidate, for others their descendants.
        let open = matches!(declared, TypeRef::Builtin(Builtin::AnyType));
        let related = (!open).then(|| self.related(&ty));
        let builtins = BUILTIN_SIMPLE_TYPES.iter().filter_map(|local| {
            let candidate = Ty::Builtin(local.to_string());
            if related.as_ref().is_some_and(|r| !r.contains(&candidate)) {
                return None;
            }
            let b = Builtin::from_xsd_name(local)?;
            let name = expanded_name(Some(XSD_NAMESPACE), local);
            Some((candidate, name, TypeRef::Builtin(b)))
        });
        let named: Vec<(Ty, String, TypeRef)> = match &related {
            Some(_) => self.named_descendants(&ty),
            None => self
                .typesub
                .names
                .iter()
                .map(|(k, n)| (Ty::Named(k.clone()), n.clone(), TypeRef::Named(k.clone())))
                .collect(),
        };
        let mut members = Vec::new();
        let mut refused = Vec::new();
        for (candidate, name, type_ref) in builtins.chain(named) {
            if candidate == ty {
                continue;
            }
            let methods = match self.derivation(&candidate, &ty) {
                Some(m) => m,
                // A complex type whose chain is not known here ends at anyType still:
                // taken as a restriction of it (the validity pass judges the chain).
                None if open => vec![Method::Restriction],
                None => continue,
            };
            let complex = matches!(&candidate, Ty::Named(k) if !self.typesub.simple.contains(k));
            if complex {
                // A complex type: its derivation's methods as the element's block judges
                // them; for an anyType element one allowed is read as anyType content
                // (the table's `open`).
                if let Some(m) = methods
                    .iter()
                    .find(|&&m| m != Method::Other && element_block.forbids(m))
                {
                    refused.push((
                        name,
                        format!(
                            "it is derived by {}, and the element's block (or blockDefault) forbids {}",
                            word(*m),
                            word(*m)
                        ),
                    ));
                } else if matches!(&candidate, Ty::Named(k) if self.typesub.abstract_types.contains(k))
                {
                    refused.push((name, "it is abstract".to_string()));
                } else if !open {
                    // Valid XSD (3.4.6 2.3.2: a complex type with simple content extending
                    // the declared type), but its attributes have no place in the declared
                    // type's Rust type.
                    refused.push((
                    name,
                    "it is a complex type (with simple content derived from the declared type), which an element declared with a simple type cannot be held as here (not supported)".to_string(),
                ));
                }
            } else if element_block.restriction {
                refused.push((
                    name,
                    "it is derived by restriction, and the element's block (or blockDefault) forbids restriction (XSD 1.0, 3.14.6 clause 2.1)".to_string(),
                ));
            } else {
                members.push((name, type_ref));
            }
        }
        members.sort();
        refused.sort();
        Some(SimpleSubstitution {
            declared: declared.clone(),
            declared_name: Some(declared_name),
            members,
            refused,
            known: self.known_types(),
            open,
        })
    }

    /// The built-in members of union `ty` (and of the unions among its members), which
    /// `xsi:type` may name (Type Derivation OK (Simple) 2.2.4).
    fn builtin_members(&self, ty: &Ty) -> Vec<(Ty, String, TypeRef)> {
        let mut out = Vec::new();
        let mut stack = vec![ty.clone()];
        let mut seen = HashSet::new();
        while let Some(t) = stack.pop() {
            let Ty::Named(k) = &t else { continue };
            if !seen.insert(k.clone()) {
                continue;
            }
            for m in self.typesub.union_members.get(k).into_iter().flatten() {
                match m {
                    Ty::Builtin(local) => {
                        if let Some(b) = Builtin::from_xsd_name(local) {
                            let name = expanded_name(Some(XSD_NAMESPACE), local);
                            if !out
                                .iter()
                                .any(|(_, n, _): &(Ty, String, TypeRef)| *n == name)
                            {
                                out.push((m.clone(), name, TypeRef::Builtin(b)));
                            }
                        }
                    }
                    Ty::Named(_) => stack.push(m.clone()),
                    _ => {}
                }
            }
        }
        out
    }

    /// The chain of bases from `from` up (itself first), as [`Converter::derivation`] walks
    /// it: ending at a type whose step is not known, at a cycle, or after anyType.
    fn chain(&self, from: &Ty) -> Vec<Ty> {
        let any_type = Ty::Builtin("anyType".into());
        let mut chain = vec![from.clone()];
        let mut visited = HashSet::from([from.clone()]);
        let mut current = from.clone();
        while current != any_type {
            let base = match &current {
                Ty::Builtin(b) => match builtin_base(b) {
                    Some(base) => Ty::Builtin(base.to_string()),
                    None => break,
                },
                Ty::Named(_) => match self.subst.steps.get(&current) {
                    Some((base, _)) => base.clone(),
                    None => break,
                },
                _ => break,
            };
            if !visited.insert(base.clone()) {
                break;
            }
            chain.push(base.clone());
            current = base;
        }
        chain
    }

    /// The candidates whose chain meets `to` or a type its union members reach: a superset
    /// of the types [`Converter::derivation`] finds derived from `to`.
    fn related(&self, to: &Ty) -> HashSet<Ty> {
        let descendants = self.typesub.descendants.get_or_init(|| {
            let mut index: HashMap<Ty, Vec<Ty>> = HashMap::new();
            let candidates = self
                .typesub
                .names
                .keys()
                .map(|k| Ty::Named(k.clone()))
                .chain(
                    BUILTIN_SIMPLE_TYPES
                        .iter()
                        .map(|b| Ty::Builtin(b.to_string())),
                );
            for candidate in candidates {
                for t in self.chain(&candidate) {
                    index.entry(t).or_default().push(candidate.clone());
                }
            }
            index
        });
        let mut related = HashSet::new();
        let mut targets = HashSet::new();
        let mut stack = vec![to.clone()];
        while let Some(t) = stack.pop() {
            if !targets.insert(t.clone()) {
                continue;
            }
            related.extend(descendants.get(&t).into_iter().flatten().cloned());
            if let Ty::Named(k) = &t {
                stack.extend(
                    self.typesub
                        .union_members
                        .get(k)
                        .into_iter()
                        .flatten()
                        .cloned(),
                );
            }
        }
        related
    }

    /// The named types among [`Converter::related`]`(to)`, as candidates (type, expanded
    /// name, reference), in key order.
    fn named_descendants(&self, to: &Ty) -> Vec<(Ty, String, TypeRef)> {
        let mut named: Vec<(Ty, String, TypeRef)> = self
            .related(to)
            .into_iter()
            .filter_map(|t| {
                let Ty::Named(k) = &t else { return None };
                let name = self.typesub.names.get(k)?.clone();
                let type_ref = TypeRef::Named(k.clone());
                Some((t, name, type_ref))
            })
            .collect();
        named.sort_by(|a, b| a.2.cmp(&b.2));
        named
    }

    /// The derivation methods by which `from` is validly derived from `to` (3.4.6, 3.14.6:
    /// through its chain of bases, or from a member of union `to`); `None` when it is not.
    ///
    /// A member of a union (or a type derived from one) is derived from the union; as every
    /// simple derivation other than the identity, only where restriction is not blocked
    /// (3.14.6 clause 2.1), hence a restriction step per union passed through. So `from` is
    /// derived from `to` when some type on `from`'s chain of bases is `to` or in the closure
    /// of `to`'s union members. Both walks keep a visited set: a circular union or base
    /// chain (reported by the validity pass) ends the walk instead of looping, and the cost
    /// is linear in the two (a recursion over both, as before, was exponential on a union
    /// naming itself).
    fn derivation(&self, from: &Ty, to: &Ty) -> Option<Vec<Method>> {
        // `to` and every type reachable from it through union members, with the fewest
        // union steps that reach it.
        let mut targets: HashMap<Ty, usize> = HashMap::new();
        let mut queue = VecDeque::from([(to.clone(), 0usize)]);
        while let Some((t, steps)) = queue.pop_front() {
            if targets.contains_key(&t) {
                continue;
            }
            targets.insert(t.clone(), steps);
            if let Ty::Named(k) = &t {
                for m in self.typesub.union_members.get(k).into_iter().flatten() {
                    if !targets.contains_key(m) {
                        queue.push_back((m.clone(), steps + 1));
                    }
                }
            }
        }
        let any_type = Ty::Builtin("anyType".into());
        // The chain of bases from `from`, each step's method kept (innermost last).
        let mut chain: Vec<Method> = Vec::new();
        let mut visited: HashSet<Ty> = HashSet::new();
        let mut current = from.clone();
        loop {
            if let Some(&union_steps) = targets.get(&current) {
                // The order the block messages read them in: the union steps, then the
                // chain from its top down to `from`'s own step.
                let mut methods = vec![Method::Restriction; union_steps];
                methods.extend(chain.into_iter().rev());
                return Some(methods);
            }
            if !visited.insert(current.clone()) {
                return None;
            }
            let (base, method) = match &current {
                Ty::Builtin(b) => (
                    Ty::Builtin(builtin_base(b)?.to_string()),
                    Method::Restriction,
                ),
                Ty::Named(_) => self.subst.steps.get(&current)?.clone(),
                _ => return None,
            };
            // anyType's chain ends there: it is derived from nothing else (3.4.6 2.3.1).
            if base == any_type && !targets.contains_key(&any_type) {
                return None;
            }
            chain.push(method);
            current = base;
        }
    }
}

/// The simple built-ins of XSD 1.0 Part 2 (3.2, 3.3) the generator holds, by local name.
const BUILTIN_SIMPLE_TYPES: &[&str] = &[
    "anySimpleType",
    "string",
    "normalizedString",
    "token",
    "language",
    "Name",
    "NCName",
    "ID",
    "IDREF",
    "IDREFS",
    "ENTITY",
    "ENTITIES",
    "NMTOKEN",
    "NMTOKENS",
    "boolean",
    "decimal",
    "integer",
    "nonPositiveInteger",
    "negativeInteger",
    "long",
    "int",
    "short",
    "byte",
    "nonNegativeInteger",
    "unsignedLong",
    "unsignedInt",
    "unsignedShort",
    "unsignedByte",
    "positiveInteger",
    "float",
    "double",
    "duration",
    "dateTime",
    "time",
    "date",
    "gYearMonth",
    "gYear",
    "gMonthDay",
    "gDay",
    "gMonth",
    "hexBinary",
    "base64Binary",
    "anyURI",
    "QName",
    "NOTATION",
];

fn word(m: Method) -> &'static str {
    match m {
        Method::Extension => "extension",
        Method::Restriction => "restriction",
        Method::Other => "list or union",
    }
}

/// A built-in type as the substitution tables know it, with its expanded name.
fn builtin_ty(b: &Builtin) -> (Ty, String) {
    let local = b.xsd_name().trim_start_matches("xs:").to_string();
    let name = expanded_name(Some(XSD_NAMESPACE), &local);
    (Ty::Builtin(local), name)
}
