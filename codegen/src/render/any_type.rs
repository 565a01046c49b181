//! The content of `xs:anyType` (XSD 1.0 Part 1, 3.4.7: mixed, a lax `##any` element
//! wildcard and a lax `##any` attribute wildcard), held as
//! `boardxml::any::lax::LaxContent` of `AnyChild` of the schema's one enum of its global
//! elements (which its wildcards share): an element of a global declaration is read and
//! validated by it, one the schema does not declare is held as
//! `boardxml::any::lax::LaxElement` (so its children are assessed laxly again). Every
//! element of type `xs:anyType` shares it: generated code does not grow with their number.

use super::*;

impl Renderer<'_> {
    /// Emits the schema's type of `xs:anyType` content's children, named `name`: the
    /// runtime's `AnyChild` of the schema's enum of its global elements, which its
    /// wildcards share.
    pub(super) fn any_type_child_type(&mut self, name: String) {
        let ident = self.any_type_child.0.clone();
        let globals = self.global_elements();
        self.groups.insert(
            name,
            quote! {
                /// A child element of `xs:anyType` content, assessed laxly (XSD 1.0, 3.4.7
                /// and 3.10.1): by its global declaration where the schema has one, else
                /// its children and attributes in turn.
                pub type #ident = ::boardxml::any::lax::AnyChild<#globals>;
            },
        );
    }
}
