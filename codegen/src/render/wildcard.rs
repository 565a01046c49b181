//! Attribute wildcards: the field that holds what `xs:anyAttribute` took
//! (`boardxml::any::OtherAttributes` of a marker type that carries the wildcard, the
//! type's own attribute names and the schema's global attribute declarations), and the
//! one type per schema that checks a value against a global attribute declaration.

use super::*;
use complex::FieldPlan;

/// The runtime's value of a namespace constraint.
fn namespaces(ns: &NamespaceConstraint) -> TokenStream {
    let list = |v: &[Option<String>]| {
        let items = v.iter().map(|n| match n {
            Some(uri) => quote! { ::core::option::Option::Some(#uri) },
            None => quote! { ::core::option::Option::None },
        });
        quote! { &[#(#items),*] }
    };
    match ns {
        NamespaceConstraint::Any => quote! { ::boardxml::any::Namespaces::Any },
        NamespaceConstraint::Not(v) => {
            let l = list(v);
            quote! { ::boardxml::any::Namespaces::Not(#l) }
        }
        NamespaceConstraint::Only(v) => {
            let l = list(v);
            quote! { ::boardxml::any::Namespaces::Only(#l) }
        }
    }
}

fn process(p: ProcessContents) -> TokenStream {
    match p {
        ProcessContents::Strict => quote! { ::boardxml::any::Process::Strict },
        ProcessContents::Lax => quote! { ::boardxml::any::Process::Lax },
        ProcessContents::Skip => quote! { ::boardxml::any::Process::Skip },
    }
}

impl Renderer<'_> {
    /// The field of a complex type's attribute wildcard, and its marker type.
    pub(super) fn attribute_wildcard_plan(
        &mut self,
        def: &TypeDef,
        w: &Wildcard,
        declared: &[Attribute],
        names: &mut FieldNames,
    ) -> FieldPlan {
        let globals = self.global_attributes_type();
        let marker_name = self.fresh_name(&format!("{}Wildcard", type_ident_name(&def.name)));
        let marker = type_ident(&marker_name);
        let (ns, pc) = (namespaces(&w.namespaces), process(w.process));
        // Expanded names (a qualified attribute's `{namespace}local`), as the runtime
        // compares them.
        let declared_id = declared.iter().any(|a| self.is_id_type(&a.type_ref));
        let declared: Vec<String> = declared.iter().map(|a| a.xml_name()).collect();
        let declared_id = declared_id.then(|| quote! { const DECLARED_ID: bool = true; });
        let disallowed = &w.disallowed.names;
        let disallowed = (!disallowed.is_empty())
            .then(|| quote! { const DISALLOWED: &'static [&'static str] = &[#(#disallowed),*]; });
        let doc = format!(
            "The attribute wildcard (`xs:anyAttribute`) of `{}`.",
            def.name
        );
        self.groups.insert(
            marker_name,
            quote! {
                #[doc = #doc]
                #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
                pub struct #marker;

                impl ::boardxml::any::AttributeWildcard for #marker {
                    const WILDCARD: ::boardxml::any::Wildcard = ::boardxml::any::Wildcard {
                        namespaces: #ns,
                        process: #pc,
                    };
                    const DECLARED: &'static [&'static str] = &[#(#declared),*];
                    type Globals = #globals;
                    #declared_id
                    #disallowed
                }
            },
        );
        let field = names.take("other_attributes");
        FieldPlan {
            field: Some(field),
            doc: quote! { #[doc = " The attributes the type's attribute wildcard took, in document order."] },
            ty: quote! { ::boardxml::any::OtherAttributes<#marker> },
            required: false,
            table: quote! { any_attribute(#ns, #pc) },
            kind: quote! { AnyAttributes(#marker) },
        }
    }

    /// Whether `t` is or is derived by restriction from `xs:ID`.
    fn is_id_type(&self, t: &TypeRef) -> bool {
        self.simple_base(t)
            .is_some_and(|b| b.builtin == Builtin::Value(ValueType::Id))
    }

    /// Whether a value of `t` may hold IDs or IDREFs: `xs:ID`, `xs:IDREF`, `xs:IDREFS` and
    /// their restrictions, and (not looked into) every list and union.
    fn may_hold_ids(&self, t: &TypeRef) -> bool {
        self.simple_base(t).is_none_or(|b| {
            matches!(
                b.builtin,
                Builtin::Value(ValueType::Id | ValueType::IdRef | ValueType::IdRefs)
            )
        })
    }

    /// The schema's type that checks values against its global attribute declarations.
    pub(super) fn global_attributes_type(&mut self) -> Ident {
        if let Some(i) = &self.global_attributes {
            return i.clone();
        }
        let name = self.fresh_name("GlobalAttributes");
        let ident = type_ident(&name);
        // Per global attribute, an arm of `check` (the value valid for it) and of `key` (its
        // typed value for identity constraints), matched on the expanded name.
        let mut arms: Vec<TokenStream> = Vec::new();
        let mut key_arms: Vec<TokenStream> = Vec::new();
        // And of `ids` where the type may hold IDs or IDREFs (the document-wide checks).
        let mut id_arms: Vec<TokenStream> = Vec::new();
        for a in self.schema.global_attributes.values() {
            let rt = self.rust_type(&a.type_ref);
            let local = &a.name;
            // A global attribute is in the target namespace (none without one).
            let ns = match &a.namespace {
                Some(ns) => quote! { ::core::option::Option::Some(#ns) },
                None => quote! { ::core::option::Option::None },
            };
            let parse = quote! { __s::parse_scoped::<#rt>(value, scope) };
            arms.push(match &a.fixed {
                // A fixed value is the only one allowed, compared in the value space.
                Some(fixed) => quote! {
                    (#ns, #local) => ::core::option::Option::Some(
                        #parse.and_then(|v| {
                            let want = <#rt as __s::SimpleValue>::parse_lexical(#fixed)?;
                            if __s::SimpleValue::to_lexical(&v) == __s::SimpleValue::to_lexical(&want) {
                                ::core::result::Result::Ok(())
                            } else {
                                ::core::result::Result::Err(__s::FacetError::Enumeration { allowed: &[#fixed] })
                            }
                        })
                    ),
                },
                None => quote! {
                    (#ns, #local) => ::core::option::Option::Some(#parse.map(drop)),
                },
            });
            key_arms.push(quote! {
                (#ns, #local) => #parse.ok().map(|v| __s::SimpleValue::identity_key(&v)),
            });
            if self.may_hold_ids(&a.type_ref) {
                id_arms.push(quote! {
                    (#ns, #local) => {
                        if let ::core::result::Result::Ok(v) = #parse {
                            __s::SimpleValue::ids(&v, found);
                        }
                    }
                });
            }
        }
        let ids_method = (!id_arms.is_empty()).then(|| {
            quote! {
                fn ids(
                    name: &::boardxml::any::ExpandedName,
                    value: &str,
                    scope: ::core::option::Option<&dyn __s::NamespaceScope>,
                    found: &mut dyn FnMut(__s::IdRole, &str),
                ) {
                    match (name.namespace(), name.local()) {
                        #(#id_arms)*
                        _ => {}
                    }
                }
            }
        });
        // A schema without global attributes (anyType content needs the type all the same)
        // declares none: no match to write.
        let by_name = |arms: Vec<TokenStream>| {
            if arms.is_empty() {
                quote! { ::core::option::Option::None }
            } else {
                quote! {
                    match (name.namespace(), name.local()) {
                        #(#arms)*
                        _ => ::core::option::Option::None,
                    }
                }
            }
        };
        let (body, key_body) = (by_name(arms), by_name(key_arms));
        // The global attributes of an ID type (at most one per element, 3.4.4 clause 5).
        let ids: Vec<TokenStream> = self
            .schema
            .global_attributes
            .values()
            .filter(|a| self.is_id_type(&a.type_ref))
            .map(|a| {
                let local = &a.name;
                match &a.namespace {
                    Some(ns) => quote! { (::core::option::Option::Some(#ns), #local) },
                    None => quote! { (::core::option::Option::None, #local) },
                }
            })
            .collect();
        let is_id = (!ids.is_empty()).then(|| {
            quote! {
                fn is_id(name: &::boardxml::any::ExpandedName) -> bool {
                    matches!((name.namespace(), name.local()), #(#ids)|*)
                }
            }
        });
        self.groups.insert(
            name,
            quote! {
                /// The schema's global attribute declarations, as strict and lax attribute
                /// wildcards check values against them.
                #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
                pub struct #ident;

                impl ::boardxml::any::GlobalAttributes for #ident {
                    #[allow(unused_variables)]
                    fn check(
                        name: &::boardxml::any::ExpandedName,
                        value: &str,
                        scope: ::core::option::Option<&dyn __s::NamespaceScope>,
                    ) -> ::core::option::Option<::core::result::Result<(), __s::FacetError>> {
                        #body
                    }
                    #[allow(unused_variables)]
                    fn key(
                        name: &::boardxml::any::ExpandedName,
                        value: &str,
                        scope: ::core::option::Option<&dyn __s::NamespaceScope>,
                    ) -> ::core::option::Option<::boardxml::identity::KeyValue> {
                        #key_body
                    }
                    #ids_method
                    #is_id
                }
            },
        );
        self.global_attributes = Some(ident.clone());
        ident
    }
}
