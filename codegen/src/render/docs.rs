//! Documentation: schema prose (plain text) turned into doc comments.

use super::*;

pub(super) fn doc_attrs(doc: Option<&str>, fallback: &str) -> TokenStream {
    // The generator's own fallback is Markdown; a schema's documentation is plain text.
    let (text, plain) = match doc {
        Some(d) => (d, true),
        None => (fallback, false),
    };
    if text.is_empty() {
        return TokenStream::new();
    }
    let lines = markdown_lines(text, plain);
    quote! { #(#[doc = #lines])* }
}

/// Schema documentation as doc-comment lines: continuation lines of a `- ` list item are
/// indented so that Markdown (and rustdoc) keep them in the item. Schema prose is plain text,
/// not Markdown: the characters Markdown would read as links, code, emphasis or HTML are
/// escaped (a pattern such as `[1-8]` in a schema's documentation broke `cargo doc`).
pub(super) fn markdown_lines(text: &str, plain: bool) -> Vec<String> {
    let mut in_item = false;
    text.lines()
        .map(|l| {
            let rest = l.strip_prefix("- ").unwrap_or(l);
            let escaped = if plain {
                markdown_escape(rest)
            } else {
                rest.to_string()
            };
            let l = if l.starts_with("- ") {
                format!("- {escaped}")
            } else {
                escaped
            };
            let l = l.as_str();
            if l.starts_with("- ") {
                in_item = true;
                format!(" {l}")
            } else if l.is_empty() {
                in_item = false;
                String::new()
            } else if in_item {
                format!("   {l}")
            } else {
                format!(" {l}")
            }
        })
        .collect()
}

/// A schema's plain-text documentation as Markdown, lines kept.
pub(super) fn plain_to_markdown(text: &str) -> String {
    markdown_lines(text, true)
        .iter()
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Makes the characters a doc comment cannot hold visible escapes (`\u{202E}`): a CR
/// (rustc: "bare CR not allowed in doc-comment"), other control characters, and the
/// bidirectional controls that can make source read otherwise than it compiles (the
/// deny-by-default `text_direction_codepoint_in_comment`). Schema text (documentation, an
/// enumeration value, a name) may hold any of them.
pub(super) struct VisibleDocs;

impl syn::visit_mut::VisitMut for VisibleDocs {
    fn visit_attribute_mut(&mut self, attr: &mut syn::Attribute) {
        if !attr.path().is_ident("doc") {
            return;
        }
        if let syn::Meta::NameValue(nv) = &mut attr.meta {
            if let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &mut nv.value
            {
                let text = s.value();
                if text.chars().any(needs_escape) {
                    *s = syn::LitStr::new(&visible(&text), s.span());
                }
            }
        }
    }
}

/// Whether a character cannot stand raw in a doc comment (see [`VisibleDocs`]).
fn needs_escape(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n')
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{2028}' | '\u{2029}')
}

/// `text` with each character [`needs_escape`] written `\u{XXXX}`.
pub(super) fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if needs_escape(c) {
            out.push_str(&format!("\\u{{{:04X}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` with every character that Markdown gives a meaning escaped by a backslash.
pub(super) fn markdown_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '~'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
