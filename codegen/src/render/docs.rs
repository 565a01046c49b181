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
///
/// It also makes every bare `http://` or `https://` URL outside code an autolink
/// (`<https://...>`): a namespace name in a wildcard's description, or a URL in a
/// schema's documentation, is otherwise rustdoc's `bare_urls` warning, an error under
/// `RUSTDOCFLAGS=-D warnings` in the crate that includes the generated code.
#[derive(Default)]
pub(super) struct VisibleDocs {
    /// Inside a fenced code block (its lines are code: no URL is linked there).
    in_fence: bool,
}

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
                let mut text = s.value();
                let mut changed = false;
                if text.trim_start().starts_with("```") {
                    self.in_fence = !self.in_fence;
                } else if !self.in_fence && text.contains("://") {
                    let linked = link_bare_urls(&text);
                    if linked != text {
                        text = linked;
                        changed = true;
                    }
                }
                if text.chars().any(needs_escape) {
                    text = visible(&text);
                    changed = true;
                }
                if changed {
                    *s = syn::LitStr::new(&text, s.span());
                }
            }
        }
    }
}

/// `line` (one line of Markdown) with each bare `http://` or `https://` URL outside a
/// code span written as an autolink. A URL runs to white space or an angle bracket; the
/// punctuation that ends a sentence is left after it; the backslash escapes
/// [`markdown_escape`] put in it are taken out (an autolink reads its text literally). A URL
/// already in angle brackets or a link's destination (`](...)`) is left as it is.
pub(super) fn link_bare_urls(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut in_code = false;
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if c == '\\' {
            // An escaped character is text, never a code span's backtick.
            let len = rest[1..].chars().next().map_or(0, char::len_utf8);
            out.push_str(&rest[..1 + len]);
            rest = &rest[1 + len..];
            continue;
        }
        if c == '`' {
            in_code = !in_code;
        }
        let at_url = !in_code
            && (rest.starts_with("http://") || rest.starts_with("https://"))
            && !((out.ends_with('<') && !out.ends_with("\\<")) || out.ends_with("]("))
            && !out.chars().next_back().is_some_and(char::is_alphanumeric);
        if !at_url {
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let mut end = rest
            .find(|ch: char| ch.is_whitespace() || matches!(ch, '<' | '>' | '`'))
            .unwrap_or(rest.len());
        // An escaped angle bracket ends it too (`\<` from markdown_escape).
        if let Some(i) = rest[..end].find("\\<").or_else(|| rest[..end].find("\\>")) {
            end = i;
        }
        let mut url = &rest[..end];
        while let Some(last) = url.chars().next_back() {
            if matches!(
                last,
                '.' | ',' | ';' | ':' | '!' | '?' | ')' | '\'' | '"' | '\\'
            ) {
                url = &url[..url.len() - last.len_utf8()];
            } else {
                break;
            }
        }
        if url.len() <= "https://".len() {
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        out.push('<');
        let mut chars = url.chars();
        while let Some(ch) = chars.next() {
            if ch == '\\' {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            } else {
                out.push(ch);
            }
        }
        out.push('>');
        rest = &rest[url.len()..];
    }
    out
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

#[cfg(test)]
mod tests {
    use super::link_bare_urls;

    #[test]
    fn bare_urls_become_autolinks_and_nothing_else_changes() {
        // A wildcard's description: the namespace, then the sentence's full stop.
        assert_eq!(
            link_bare_urls(
                " an element in a namespace other than http://www.topografix.com/GPX/1/1."
            ),
            " an element in a namespace other than <http://www.topografix.com/GPX/1/1>."
        );
        assert_eq!(
            link_bare_urls("see https://example.com/a, or (https://example.com/b)"),
            "see <https://example.com/a>, or (<https://example.com/b>)"
        );
        // markdown_escape's backslashes are taken out of the link; an escaped angle
        // bracket ends it.
        assert_eq!(
            link_bare_urls(r"at https://example.com/a\_b\#c\> end"),
            r"at <https://example.com/a_b#c>\> end"
        );
        assert_eq!(
            link_bare_urls(r"\<https://example.com/x\>"),
            r"\<<https://example.com/x>\>"
        );
        // Left alone: code spans, links, autolinks, a scheme inside a word, no host.
        for same in [
            "the name `{http://example.com/ns}a` in code",
            "[the spec](https://example.com/spec)",
            "<https://example.com/already>",
            "xhttp://example.com",
            "just http:// and nothing",
            "urn:example:no-url",
        ] {
            assert_eq!(link_bare_urls(same), same);
        }
    }
}
