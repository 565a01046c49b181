//! Element types chosen by XSD 1.1 `xs:alternative`, and the root enum of a schema.

use std::collections::HashMap;

use super::*;

impl Renderer<'_> {
    pub(super) fn alternatives(&mut self, def: &TypeDef, alts: &[Alternative]) -> TokenStream {
        let ident = self.tident(&def.name);
        let doc = doc_attrs(
            def.doc.as_deref(),
            &format!(
                "The shapes of element `{}`, chosen by XSD 1.1 type alternatives in order.",
                def.name
            ),
        );
        let mut variants = Vec::new();
        let mut arms = Vec::new();
        let mut shapes = Vec::new();
        let mut tests = Vec::new();
        // A type chosen by several alternatives is one shape: each of their tests picks it.
        let mut seen: HashMap<String, usize> = HashMap::new();
        for a in alts {
            // A built-in type is a shape too, named after it (`xs:integer`: `XsInteger`,
            // which no schema type's name can be); xs:anyType, the declared type of an
            // element without a default alternative, holds its content laxly assessed.
            let (n, v, t) = match &a.type_ref {
                TypeRef::Named(n) => (n.clone(), self.tident(n), self.rust_type(&a.type_ref)),
                TypeRef::Builtin(b) => {
                    let name = b.xsd_name().to_string();
                    let local = name.trim_start_matches("xs:");
                    let mut variant = String::from("Xs");
                    let mut chars = local.chars();
                    if let Some(first) = chars.next() {
                        variant.extend(first.to_uppercase());
                        variant.extend(chars);
                    }
                    let ty = self.rust_type(&a.type_ref);
                    (name, format_ident!("{}", variant), ty)
                }
            };
            let n = &n;
            if let Some(&index) = seen.get(&v.to_string()) {
                let index = Literal::usize_unsuffixed(index);
                tests.push(
                    alternative_test(&a.test, quote! { return #index; })
                        .unwrap_or_else(|| quote! { #index }),
                );
                continue;
            }
            seen.insert(v.to_string(), shapes.len());
            let vdoc = format!("The shape of type `{n}`.");
            variants.push(quote! { #[doc = #vdoc] #v(#t), });
            let index = Literal::usize_unsuffixed(shapes.len());
            let pick = quote! { return #index; };
            // The default alternative is last (the adapter insists), so it is the tail.
            tests.push(alternative_test(&a.test, pick).unwrap_or_else(|| quote! { #index }));
            arms.push(quote! { #index #v });
            // What each shape declares, so that an element fitting none can be told which
            // shape its attributes come closest to and what that shape lacks.
            let (required, optional): (Vec<String>, Vec<String>) =
                match self.schema.types.get(n).map(|d| &d.kind) {
                    Some(TypeKind::Complex(c)) => (
                        c.attributes
                            .iter()
                            .filter(|a| a.required)
                            .map(|a| a.xml_name())
                            .collect(),
                        c.attributes
                            .iter()
                            .filter(|a| !a.required)
                            .map(|a| a.xml_name())
                            .collect(),
                    ),
                    _ => (Vec::new(), Vec::new()),
                };
            shapes.push(quote! {
                __x::Shape { name: #n, required: &[#(#required),*], optional: &[#(#optional),*] }
            });
        }
        let visit = self.visit_args(&ident);
        quote! {
            #doc
            #[derive(Debug, Clone, PartialEq, Eq, Hash)]
            pub enum #ident {
                #(#variants)*
            }

            impl #ident {
                /// The shapes in the order the alternatives try them.
                pub const SHAPES: &'static [__x::Shape] = &[#(#shapes),*];

                /// The shape the alternatives' tests choose for `tag` (an index into SHAPES),
                /// with the attributes the element inherits and the namespaces in scope
                /// (what the reader `r` knows of where the element stands).
                #[allow(unused_variables)]
                pub fn choose(tag: &__x::Tag, r: &__x::Reader<'_>) -> usize {
                    let inherited = r.inherited();
                    #(#tests)*
                }
            }

            ::boardxml::alternatives!(#ident, [#(#arms),*] #visit);
        }
    }

    pub(super) fn root(&mut self) -> TokenStream {
        let name = self.fresh_name("Root");
        let ident = type_ident(&name);
        let roots: Vec<&RootElement> = self.schema.roots.values().collect();
        let names: Vec<String> = roots.iter().map(|r| r.xml_name()).collect();
        // Distinct element names that map to one variant name (`a-b`, `aB`) get suffixes
        // 2, 3, ... in element name order, as type names do.
        let mut taken = HashSet::new();
        let variants: Vec<Ident> = roots
            .iter()
            .map(|r| {
                let base = variant_name(&r.name);
                let mut v = base.clone();
                let mut n = 2;
                while !taken.insert(v.clone()) {
                    v = format!("{base}{n}");
                    n += 1;
                }
                format_ident!("{}", v)
            })
            .collect();
        let types: Vec<TokenStream> = roots.iter().map(|r| self.root_type(r)).collect();
        let docs: Vec<String> = roots
            .iter()
            .map(|r| format!("A document whose root is `<{}>`.", r.name))
            .collect();
        // The document type is `Root` unless a schema type took the name (then `Root2`, ...):
        // the alias is a name no schema type can have (type names start with a letter), so
        // that code naming any schema's document type (`boardxml-codegen validator`) can.
        let alias_doc =
            format!("This schema's document type, [`{name}`], under a name no schema type takes.");
        let alias = quote! {
            #[doc = #alias_doc]
            pub type __Document = #ident;
        };
        let namespaces = super::namespaces::declarations(self.schema);
        let constraints = self.declaration_constraints(&roots);
        // What an undeclared root's xsi:type may name (validated, not held: see
        // `boardxml::schema::Document::TYPES`).
        let root_types: Vec<TokenStream> = self
            .schema
            .root_types
            .iter()
            .map(|(name, t)| {
                let rt = match t {
                    // Laxly assessed where the schema has its anyType content enum already;
                    // else read as a tree (no schema generates that enum for this alone).
                    TypeRef::Builtin(Builtin::AnyType) if !self.any_type_child.1.get() => {
                        quote! { ::boardxml::any::AnyType }
                    }
                    _ => self.rust_type(t),
                };
                quote! { #name #rt }
            })
            .collect();
        let root_types = (!root_types.is_empty()).then(|| quote! { , types [#(#root_types),*] });
        // The run-time rules of XSD 1.1 where they differ from 1.0's (`Document::XSD_1_1`).
        let version = self.schema.xsd_1_1.then(|| quote! { , xsd_version "1.1" });
        quote! {
            /// A document of this schema: one variant per global element.
            #[derive(Debug, Clone, PartialEq, Eq, Hash)]
            pub enum #ident {
                #(#[doc = #docs] #variants(#types),)*
            }

            ::boardxml::document!(#ident, [#(#names #variants #constraints),*] #namespaces #root_types #version);
            #alias
        }
    }
}

/// The statement that returns `pick` when test `test` holds of the element's `tag`; None
/// for the default alternative (no test), which the caller makes the tail.
fn alternative_test(test: &Option<AltTest>, pick: TokenStream) -> Option<TokenStream> {
    Some(match test.as_ref()? {
        AltTest::Present(at) => quote! { if inherited.attribute(tag, #at).is_some() { #pick } },
        AltTest::Absent(at) => quote! { if inherited.attribute(tag, #at).is_none() { #pick } },
        AltTest::Equals(at, val) => {
            quote! { if inherited.attribute(tag, #at) == ::core::option::Option::Some(#val) { #pick } }
        }
        AltTest::NotEquals(at, val) => {
            quote! { if inherited.attribute(tag, #at).is_some_and(|v| v != #val) { #pick } }
        }
        AltTest::XPath(a) => {
            let test = &a.test;
            let namespaces = a.namespaces.iter().map(|(p, ns)| quote! { (#p, #ns) });
            let default = a.default_element_namespace.as_deref().unwrap_or("");
            quote! {
                {
                    static TEST: ::boardxml::facets::TypeTest =
                        ::boardxml::facets::TypeTest::new(#test, &[#(#namespaces),*], #default);
                    if TEST.holds(tag.name(), inherited.attributes(tag), r.namespace_bindings()) { #pick }
                }
            }
        }
    })
}
