//! Mixed content over any particle (`boardxml::mixed`): the element children get the
//! fields, groups and content table that element-only content of the same particle gets,
//! and one more field holds the text between them, each run at its place among the
//! children. The children are thus judged by the particle exactly as element-only content
//! is; the text may stand anywhere between them (XSD 1.0, 3.4.4, Element Locally Valid
//! (Complex Type) 2.4 with mixed content).
//!
//! A repeated choice of elements each occurring once (or no element at all) keeps the
//! older document-order enum of render/mixed.rs, which holds that shape as naturally.

use super::complex::FieldPlan;
use super::*;

/// Whether the document-order enum of render/mixed.rs holds the mixed content of `p`: a
/// choice whose branches are single elements or wildcards occurring at most once, or no
/// particle at all. The enum counts elements against the choice's occurrence, which is
/// right when every branch takes one element, or when the choice may be absent anyway.
pub(super) fn fits_item_enum(p: &Particle) -> bool {
    match &p.term {
        Term::Choice(items) => {
            items.iter().all(|i| {
                matches!(i.term, Term::Element(_) | Term::Any(_))
                    && i.max == Some(1)
                    && (i.min == 1 || (i.min == 0 && p.min == 0))
            }) && !(items.is_empty() && p.min > 0)
        }
        Term::Sequence(items) => items.is_empty(),
        _ => false,
    }
}

impl Renderer<'_> {
    /// The plans and content table of mixed content over the element particle `p`.
    pub(super) fn interleaved(
        &mut self,
        def: &TypeDef,
        p: &Particle,
        names: &mut FieldNames,
        plans: &mut Vec<FieldPlan>,
    ) -> TokenStream {
        let elements = self.element_content(def, p, names, plans);
        let field = names.take("text");
        let i = Literal::usize_unsuffixed(plans.len());
        plans.push(FieldPlan {
            field: Some(field),
            doc: quote! {
                #[doc = " The character data between the element children, each run at its place"]
                #[doc = " among them (the fields above hold the children)."]
            },
            ty: quote! { ::boardxml::mixed::MixedText },
            required: false,
            table: quote! { MIXED },
            kind: quote! { TextRuns(::boardxml::mixed::MixedText) },
        });
        quote! { __c::Content::Interleaved { text: #i, elements: &#elements } }
    }
}
