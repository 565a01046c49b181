//! Complex types of one shape, written once.
//!
//! Large schemas hold many complex types that differ only in their name: UBL declares a
//! thousand basic components, each a type that extends a data type and adds nothing
//! (`cbc:IDType` extends `udt:IdentifierType`). Each is a type of its own: an element's
//! `xsi:type` names it, and a later version of the schema may give it a field. Written out,
//! each repeated the struct, its field table and its reader: most of UBL's generated lines.
//! So the types whose items are the same but for their name (and the expanded name
//! `xsi:type` gives them) are written once, as a `macro_rules!` macro of the shape, and
//! each type is one invocation of it with its name and its documentation. The compiled
//! code is the same as before; only its text is shared.

use std::collections::HashMap;
use std::str::FromStr;

use proc_macro2::{Group, Ident, Literal, Punct, Spacing, TokenStream, TokenTree};
use quote::{format_ident, quote};

/// One complex type as rendered: where its items stand in the file, and their parts.
pub(super) struct ComplexItem {
    /// Its index among the file's items.
    pub(super) index: usize,
    /// Its Rust name.
    pub(super) ident: Ident,
    /// The expanded name an `xsi:type` names it by, if any.
    pub(super) xsi: Option<String>,
    /// Its documentation (`#[doc]` attributes).
    pub(super) doc: TokenStream,
    /// The struct without its documentation, and the items after it.
    pub(super) rest: TokenStream,
}

/// Replaces the items of each complex type that shares its shape with another by an
/// invocation of the shape's macro, defined before the first of them.
pub(super) fn share(items: &mut [TokenStream], complex: Vec<ComplexItem>) {
    // Shapes in the order of their first type: deterministic, as the items are.
    let mut shapes: Vec<Vec<ComplexItem>> = Vec::new();
    let mut by_shape: HashMap<String, usize> = HashMap::new();
    for item in complex {
        let template = template(&item.rest, &item.ident, item.xsi.as_deref());
        let key = format!("{}|{template}", item.xsi.is_some());
        match by_shape.get(&key) {
            Some(&k) => shapes[k].push(item),
            None => {
                by_shape.insert(key, shapes.len());
                shapes.push(vec![item]);
            }
        }
    }
    let mut n = 0u32;
    for members in shapes {
        if members.len() < 2 {
            continue;
        }
        // Inside a macro the doc comments are tokens the pass over the whole file does not
        // reach: they are made visible here, for the types written through one.
        let first = &members[0];
        let template = template(
            &visible(first.rest.clone()),
            &first.ident,
            first.xsi.as_deref(),
        );
        n += 1;
        let name = format_ident!("__shape_{}", n);
        let named = first.xsi.is_some();
        let pattern = if named {
            "($(#[$doc:meta])* $t:ident $x:literal)"
        } else {
            "($(#[$doc:meta])* $t:ident)"
        };
        let pattern = TokenStream::from_str(pattern).expect("a macro pattern");
        let docs = TokenStream::from_str("$(#[$doc])*").expect("a repetition");
        let text = format!(
            " The items of the {} complex types below that differ only in their name.",
            members.len()
        );
        let definition = quote! {
            #[doc = #text]
            macro_rules! #name {
                #pattern => {
                    #docs
                    #template
                };
            }
        };
        for (k, m) in members.into_iter().enumerate() {
            let doc = visible_attributes(m.doc);
            let ident = &m.ident;
            let xsi = m.xsi.as_deref().map(Literal::string);
            let call = quote! { #name! { #doc #ident #xsi } };
            items[m.index] = if k == 0 {
                quote! { #definition #call }
            } else {
                call
            };
        }
    }
}

/// `tokens` with the type's name as `$t` and its expanded name as `$x`.
fn template(tokens: &TokenStream, ident: &Ident, xsi: Option<&str>) -> TokenStream {
    substitute(
        tokens,
        ident,
        xsi.map(|x| Literal::string(x).to_string()).as_deref(),
    )
}

/// [`template`], `xsi` as its literal's text. Recurses into token groups, whose nesting is
/// the generator's own (a field type, a table), not the schema's.
fn substitute(tokens: &TokenStream, ident: &Ident, xsi: Option<&str>) -> TokenStream {
    let dollar = || TokenTree::Punct(Punct::new('$', Spacing::Alone));
    let mut out = TokenStream::new();
    for tt in tokens.clone() {
        match tt {
            TokenTree::Ident(i) if i == *ident => {
                out.extend([dollar(), TokenTree::Ident(Ident::new("t", i.span()))]);
            }
            TokenTree::Literal(l) if xsi == Some(l.to_string().as_str()) => {
                out.extend([dollar(), TokenTree::Ident(Ident::new("x", l.span()))]);
            }
            TokenTree::Group(g) => {
                let mut group = Group::new(g.delimiter(), substitute(&g.stream(), ident, xsi));
                group.set_span(g.span());
                out.extend([TokenTree::Group(group)]);
            }
            other => out.extend([other]),
        }
    }
    out
}

/// `items` with their doc comments made visible ([`super::docs::VisibleDocs`]) now: inside
/// a macro they are tokens the pass over the whole file does not reach. (Done again there,
/// it changes nothing.)
fn visible(items: TokenStream) -> TokenStream {
    match syn::parse2::<syn::File>(items.clone()) {
        Ok(mut file) => {
            syn::visit_mut::VisitMut::visit_file_mut(
                &mut super::docs::VisibleDocs::default(),
                &mut file,
            );
            quote! { #file }
        }
        Err(_) => items,
    }
}

/// [`visible`] for a list of attributes.
fn visible_attributes(attributes: TokenStream) -> TokenStream {
    let item = quote! { #attributes struct __Doc; };
    match syn::parse2::<syn::ItemStruct>(item) {
        Ok(mut s) => {
            let mut docs = super::docs::VisibleDocs::default();
            for a in &mut s.attrs {
                syn::visit_mut::VisitMut::visit_attribute_mut(&mut docs, a);
            }
            let attrs = &s.attrs;
            quote! { #(#attrs)* }
        }
        Err(_) => attributes,
    }
}
