//! Open content: elements of type `xs:anyType` (declared so, or declared without a type),
//! which generated code holds as the runtime's generic XML tree (`boardxml::any::AnyType`).

use xsd_parser::models::schema::xs::ElementType;

use super::Converter;
use crate::ir::Span;

/// Whether an element declaration of type `xs:anyType` asks only for what is supported:
/// its content is open, so a value constraint (which would apply to the text of an empty
/// element) and `nillable` (an element of open content that may be nil) are reported as
/// not supported rather than ignored.
pub(super) fn any_type_element_supported(
    cx: &mut Converter<'_>,
    el: &ElementType,
    span: Span,
    construct: &str,
) -> bool {
    let mut ok = true;
    if el.default.is_some() || el.fixed.is_some() {
        cx.unsupported(
            span,
            construct,
            "default= or fixed= on an element of type xs:anyType is not supported yet",
            Some("declare a simple type (or simple content) for the element".into()),
        );
        ok = false;
    }
    if el.nillable == Some(true) {
        cx.unsupported(
            span,
            construct,
            "nillable=\"true\" on an element of type xs:anyType is not supported yet",
            None,
        );
        ok = false;
    }
    ok
}
