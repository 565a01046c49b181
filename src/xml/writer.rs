//! The canonical writer.
//!
//! The canonical layout: an XML declaration naming the encoding, two-space indentation for
//! element-only content, simple content on the element's line, empty elements as `<x/>`,
//! attributes in schema order in double quotes, and mixed content written exactly as held
//! (no added white space: it would change the text). A document already in this layout
//! comes back byte for byte.

use std::borrow::Cow;

use encoding_rs::Encoding;

use crate::text_form::TextForm;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Children go on their own lines.
    Elements,
    /// Inside mixed content: nothing is added.
    Mixed,
}

/// Writes XML text.
pub struct Writer {
    out: String,
    stack: Vec<Mode>,
    /// The open start tag has not been closed with `>` yet.
    open: bool,
    encoding: &'static Encoding,
    /// The document's namespace declarations, (prefix, empty for the default namespace;
    /// namespace name), written on the root element; names are given to the writer as
    /// expanded names (`{namespace}local`) and written with these prefixes.
    namespaces: &'static [(&'static str, &'static str)],
    /// The declarations are still to be written (on the next start tag: the root's).
    declare: bool,
    /// The expanded name of the type the next start tag's `xsi:type` names (see
    /// [`Writer::type_substitution`]).
    xsi_type: Option<&'static str>,
    /// The `xsi:` attributes written on the open start tag (a bit each, [`xsi_bit`]): an
    /// element's `xsi:type` or `xsi:nil` may be given both by the reader's own machinery
    /// (type substitution, nil) and by an attribute use that names it (XSD 1.1, Part 1,
    /// 3.2.7), and is written once.
    xsi_written: u8,
    /// The text still to be written of the mixed elements being written over an element
    /// particle, innermost last (see [`Writer::interleave`]).
    interleaved: Vec<Interleaving>,
    /// The prefixes declared below the root for the QNames in values
    /// ([`Writer::lexical`]): (depth of the element declaring it, prefix, namespace).
    value_prefixes: Vec<(usize, String, String)>,
    /// A copy of one element for XPath ([`Writer::copy`]): no declaration, no added white
    /// space, and each name in a namespace written with a prefix declared where needed.
    copy: bool,
    /// The namespace bindings a copy's root declares (those in scope at the element
    /// copied, [`Writer::copy_in_scope`]), written with its next start tag.
    copied_bindings: Vec<(String, String)>,
}

/// The text of one mixed element being written: each run goes before the child it
/// preceded when read.
struct Interleaving {
    /// The element's content depth (`stack.len()` inside it).
    depth: usize,
    runs: Vec<crate::mixed::TextRun>,
    /// The order of the children of an `xs:all` ([`crate::mixed::MixedText::all_order`]).
    all_order: Vec<usize>,
    /// Runs written so far.
    next: usize,
    /// Child elements started so far.
    children: usize,
}

impl Writer {
    /// A writer for a document in `encoding` (named in the declaration; it also decides
    /// when CDATA is safe: characters the encoding lacks must be written as references,
    /// which CDATA cannot hold).
    pub fn new(encoding: &'static Encoding) -> Self {
        let name = if encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE {
            "UTF-16"
        } else {
            encoding.name()
        };
        let out = format!("<?xml version=\"1.0\" encoding=\"{name}\"?>\n");
        Writer {
            out,
            stack: Vec::new(),
            open: false,
            encoding,
            namespaces: &[],
            declare: false,
            xsi_type: None,
            xsi_written: 0,
            interleaved: Vec::new(),
            value_prefixes: Vec::new(),
            copy: false,
            copied_bindings: Vec::new(),
        }
    }

    /// A writer of one element as XPath is to see it (an XSD 1.1 assertion's tree): no XML
    /// declaration and no white space added between elements (XDM has no text children in
    /// element-only content, Data Model 3.3.1.2), and every name in a namespace written
    /// with a prefix declared on the element that needs it, as nothing is declared on a
    /// root above it.
    pub fn copy() -> Self {
        Writer {
            out: String::new(),
            copy: true,
            ..Writer::new(encoding_rs::UTF_8)
        }
    }

    /// [`Writer::copy`] of an element in whose scope `bindings` (prefix, namespace; outermost
    /// first) are: its root declares each prefixed one (a later binding of a prefix wins),
    /// so that the copy has the element's in-scope namespaces (`in-scope-prefixes(.)`, a
    /// QName value resolved by `resolve-QName`), and names in those namespaces keep their
    /// prefixes. The default namespace is not declared: a copy's names in no namespace
    /// are unprefixed.
    pub fn copy_in_scope<'b>(bindings: impl IntoIterator<Item = (&'b str, &'b str)>) -> Self {
        let mut copied: Vec<(String, String)> = Vec::new();
        for (prefix, ns) in bindings {
            // `xml` is bound everywhere and may not be declared to anything else.
            if prefix.is_empty() || prefix == "xml" || ns.is_empty() {
                continue;
            }
            copied.retain(|(p, _)| p != prefix);
            copied.push((prefix.to_string(), ns.to_string()));
        }
        Writer {
            copied_bindings: copied,
            ..Writer::copy()
        }
    }

    /// The document's namespace declarations (prefix, namespace; the empty prefix is the
    /// default namespace), in force on every element below the root.
    pub(crate) fn document_namespaces(&self) -> &'static [(&'static str, &'static str)] {
        self.namespaces
    }

    /// Declares the document's namespaces on its root element (the next start tag), in the
    /// order given: the generator makes them canonical (the target namespace as the
    /// default namespace when no element is unqualified, `ns1` for it otherwise and for
    /// qualified attributes). Names in these namespaces are then written with their
    /// prefixes.
    pub fn declare_namespaces(&mut self, namespaces: &'static [(&'static str, &'static str)]) {
        self.namespaces = namespaces;
        self.declare = !namespaces.is_empty();
    }

    /// How the name `name` (an expanded name: `local`, or `{namespace}local`) is written:
    /// with the prefix declared for its namespace (an element may take the default
    /// namespace; an attribute never does, Namespaces 1.0, 6.2).
    fn written<'n>(&self, name: &'n str, attribute: bool) -> Cow<'n, str> {
        // Names in no namespace (all of CIF's and CBF's) are written as they are.
        let Some(rest) = name.strip_prefix('{') else {
            return Cow::Borrowed(name);
        };
        let Some((ns, local)) = rest.split_once('}') else {
            return Cow::Borrowed(name);
        };
        if ns == crate::xml::wf::XML_NAMESPACE {
            return Cow::Owned(format!("xml:{local}"));
        }
        let prefix = self
            .namespaces
            .iter()
            .find(|(p, n)| *n == ns && (!attribute || !p.is_empty()))
            .map(|(p, _)| *p);
        match prefix {
            Some("") => Cow::Borrowed(local),
            Some(p) => Cow::Owned(format!("{p}:{local}")),
            // The generator declares every namespace its schema's names use; a name from
            // elsewhere keeps its expanded form, which no reader takes for a valid name.
            None => Cow::Borrowed(name),
        }
    }

    /// The text written, with a final line end.
    pub fn finish(mut self) -> String {
        self.out.push('\n');
        self.out
    }

    fn indent(&mut self) {
        if !self.copy && self.stack.last() != Some(&Mode::Mixed) {
            if !self.stack.is_empty() {
                self.out.push('\n');
            }
            for _ in 0..self.stack.len() {
                self.out.push_str("  ");
            }
        }
    }

    fn close_open_tag(&mut self) {
        if self.open {
            self.out.push('>');
            self.open = false;
        }
    }

    /// Starts element `name`; attributes follow, then one of the content calls.
    pub fn start(&mut self, name: &str) {
        if !self.value_prefixes.is_empty() {
            // Those of earlier siblings (and their descendants) are out of scope.
            let depth = self.stack.len();
            self.value_prefixes.retain(|(d, _, _)| *d < depth);
        }
        self.close_open_tag();
        self.text_before_child();
        self.indent();
        self.out.push('<');
        if self.copy && !self.copied_bindings.is_empty() {
            // The root of a copy: its bindings are in scope for its own name too.
            let depth = self.stack.len();
            let bindings = std::mem::take(&mut self.copied_bindings);
            for (prefix, ns) in &bindings {
                self.value_prefixes
                    .push((depth, prefix.clone(), ns.clone()));
            }
            let (written, declare) = self.copied_name(name);
            self.out.push_str(&written);
            for (prefix, ns) in &bindings {
                self.out.push_str(" xmlns:");
                self.out.push_str(prefix);
                self.out.push_str("=\"");
                escape_into(&mut self.out, ns, true);
                self.out.push('"');
            }
            if let Some((prefix, ns)) = declare {
                self.declare_value_prefix(&prefix, &ns);
            }
        } else if self.copy {
            // The prefix is declared after the name it qualifies.
            let (written, declare) = self.copied_name(name);
            self.out.push_str(&written);
            if let Some((prefix, ns)) = declare {
                self.declare_value_prefix(&prefix, &ns);
            }
        } else {
            let written = self.written(name, false);
            self.out.push_str(&written);
        }
        self.open = true;
        self.xsi_written = 0;
        if self.declare {
            self.declare = false;
            for (prefix, ns) in self.namespaces {
                self.out.push_str(if prefix.is_empty() {
                    " xmlns"
                } else {
                    " xmlns:"
                });
                self.out.push_str(prefix);
                self.out.push_str("=\"");
                escape_into(&mut self.out, ns, true);
                self.out.push('"');
            }
        }
        if let Some(name) = self.xsi_type.take() {
            self.write_xsi_type(name);
        }
    }

    /// Gives the next start tag `xsi:type` naming the type `name` (an expanded name): a
    /// substitution type writes the type `xsi:type` chose when it was read.
    pub fn type_substitution(&mut self, name: &'static str) {
        self.xsi_type = Some(name);
    }

    /// Writes the pending `xsi:type`, declaring the prefixes it needs on the element: `xsi`,
    /// and one for the type's namespace unless a prefix in scope is bound to it (a type in no
    /// namespace is written unprefixed, which is right while no default namespace is
    /// declared: the generator declares one only where no element is unqualified).
    fn write_xsi_type(&mut self, name: &str) {
        let (ns, local) = match name.strip_prefix('{').and_then(|r| r.split_once('}')) {
            Some((ns, local)) => (Some(ns), local),
            None => (None, name),
        };
        self.declare_xsi();
        self.xsi_written |= xsi_bit(crate::schema::XSI_TYPE).unwrap_or(0);
        let value = match ns {
            None => local.to_string(),
            Some(ns) if self.bound("") == Some(ns) => local.to_string(),
            Some(ns) => {
                let prefix = match self.prefix_for(ns) {
                    Some(p) => p,
                    // A prefix nothing in scope takes.
                    None => self.declare_fresh_prefix("xsit", ns),
                };
                format!("{prefix}:{local}")
            }
        };
        self.out.push_str(" xsi:type=\"");
        escape_into(&mut self.out, &value, true);
        self.out.push('"');
    }

    /// The lexical form of `value` to write on the element just started (as an attribute
    /// or as its simple content), with the namespace declarations its QNames rely on
    /// written on that element where they are not in force already (XSD Part 2, 3.2.18:
    /// a QName's value is its expanded name, which must read back the same). A prefix
    /// bound to another namespace here, and the default namespace (which would rename the
    /// element itself), are replaced by a prefix bound to the QName's namespace.
    pub fn lexical<'v, T: crate::schema::SimpleValue>(&mut self, value: &'v T) -> Cow<'v, str> {
        let text = value.to_lexical();
        let mut bindings: Vec<(String, String)> = Vec::new();
        value.bindings(&mut |p, ns| {
            if !bindings.iter().any(|(q, _)| q == p) {
                bindings.push((p.to_string(), ns.to_string()));
            }
        });
        if bindings.is_empty() {
            return text;
        }
        debug_assert!(self.open, "a value's declarations go on an open start tag");
        let mut renamed: Vec<(String, String)> = Vec::new();
        for (prefix, ns) in bindings {
            if self.bound(&prefix) == Some(ns.as_str()) {
                continue;
            }
            let reserved = ["xml", "xmlns", "xsi"].contains(&prefix.as_str());
            let chosen = if !prefix.is_empty() && !reserved && self.bound(&prefix).is_none() {
                self.declare_value_prefix(&prefix, &ns);
                prefix.clone()
            } else if let Some(p) = self.prefix_for(&ns) {
                p
            } else {
                self.declare_fresh_prefix("q", &ns)
            };
            if chosen != prefix {
                renamed.push((prefix, chosen));
            }
        }
        if renamed.is_empty() {
            return text;
        }
        // Items are separated by single spaces in canonical form (lists of QNames).
        let tokens: Vec<String> = text
            .split(' ')
            .map(|t| {
                let (p, local) = t.split_once(':').unwrap_or(("", t));
                match renamed.iter().find(|(from, _)| from == p) {
                    Some((_, to)) => format!("{to}:{local}"),
                    None => t.to_string(),
                }
            })
            .collect();
        Cow::Owned(tokens.join(" "))
    }

    /// The namespace `prefix` (`""`: the default namespace) is bound to on the element
    /// being written.
    fn bound(&self, prefix: &str) -> Option<&str> {
        self.value_prefixes
            .iter()
            .rev()
            .find(|(_, p, _)| p == prefix)
            .map(|(_, _, ns)| ns.as_str())
            .or_else(|| {
                self.namespaces
                    .iter()
                    .find(|(p, _)| *p == prefix)
                    .map(|(_, ns)| *ns)
            })
    }

    /// A prefix bound to `ns` on the element being written (not the default namespace).
    fn prefix_for(&self, ns: &str) -> Option<String> {
        let declared = self
            .value_prefixes
            .iter()
            .rev()
            .map(|(_, p, n)| (p.as_str(), n.as_str()));
        let document = self.namespaces.iter().copied();
        declared
            .chain(document)
            .find(|(p, n)| !p.is_empty() && *n == ns && self.bound(p) == Some(ns))
            .map(|(p, _)| p.to_string())
    }

    /// Declares `ns` on the open start tag under a prefix nothing in scope takes (`stem`
    /// followed by a number), and gives the prefix.
    fn declare_fresh_prefix(&mut self, stem: &str, ns: &str) -> String {
        let fresh = self.fresh_prefix(stem);
        self.declare_value_prefix(&fresh, ns);
        fresh
    }

    /// A prefix nothing in scope takes: `stem` followed by a number.
    fn fresh_prefix(&self, stem: &str) -> String {
        (1..)
            .map(|n| format!("{stem}{n}"))
            .find(|p| self.bound(p).is_none())
            .expect("an unbound prefix")
    }

    fn declare_value_prefix(&mut self, prefix: &str, ns: &str) {
        self.out.push_str(" xmlns:");
        self.out.push_str(prefix);
        self.out.push_str("=\"");
        escape_into(&mut self.out, ns, true);
        self.out.push('"');
        self.value_prefixes
            .push((self.stack.len(), prefix.to_string(), ns.to_string()));
    }

    /// Declares the `xsi` prefix on the open start tag, unless it is bound to the XSI
    /// namespace there already.
    fn declare_xsi(&mut self) {
        if self.bound("xsi") != Some(super::XSI_NAMESPACE) {
            self.declare_value_prefix("xsi", super::XSI_NAMESPACE);
        }
    }

    /// Writes an attribute of the element just started. An `xsi:` attribute (named
    /// `xsi:local` or by its expanded name) is written with the `xsi` prefix, declared
    /// where it is not in force, and once per element.
    pub fn attribute(&mut self, name: &str, value: &str) {
        debug_assert!(self.open, "attributes follow start()");
        // A copy declares no default namespace: its names in one are prefixed.
        if self.copy && name == "xmlns" {
            return;
        }
        // A namespace declaration written as an attribute (lax content keeps its own):
        // known to the writer, so that it declares no prefix twice.
        if let Some(prefix) = name.strip_prefix("xmlns:") {
            // `xsi` may be in force already: the writer declares it for xsi: attributes.
            if !(prefix == "xsi" && self.bound(prefix) == Some(value)) {
                self.declare_value_prefix(prefix, value);
            }
            return;
        }
        if let Some(bit) = xsi_bit(name) {
            if self.xsi_written & bit != 0 {
                return;
            }
            self.xsi_written |= bit;
            self.declare_xsi();
            let local = name.rsplit(['}', ':']).next().unwrap_or(name);
            self.out.push_str(" xsi:");
            self.out.push_str(local);
            self.out.push_str("=\"");
            escape_into(&mut self.out, value, true);
            self.out.push('"');
            return;
        }
        let written = if self.copy {
            let (written, declare) = self.copied_name(name);
            if let Some((prefix, ns)) = declare {
                self.declare_value_prefix(&prefix, &ns);
            }
            Cow::Owned(written)
        } else {
            self.written(name, true)
        };
        self.out.push(' ');
        self.out.push_str(&written);
        self.out.push_str("=\"");
        escape_into(&mut self.out, value, true);
        self.out.push('"');
    }

    /// How a copy ([`Writer::copy`]) writes the name `name` (an expanded name): with a
    /// prefix bound to its namespace on the element being written, or a fresh one, which
    /// is then given to be declared there. A name in no namespace is written as it is: a
    /// copy declares no default namespace.
    fn copied_name(&self, name: &str) -> (String, Option<(String, String)>) {
        let Some((ns, local)) = name.strip_prefix('{').and_then(|r| r.split_once('}')) else {
            return (name.to_string(), None);
        };
        if ns == crate::xml::wf::XML_NAMESPACE {
            return (format!("xml:{local}"), None);
        }
        if let Some(prefix) = self.prefix_for(ns) {
            return (format!("{prefix}:{local}"), None);
        }
        let prefix = self.fresh_prefix("n");
        (format!("{prefix}:{local}"), Some((prefix, ns.to_string())))
    }

    /// Ends an element with no content: `/>`.
    pub fn end_empty(&mut self) {
        self.out.push_str("/>");
        self.open = false;
    }

    /// Begins element-only content.
    pub fn begin_elements(&mut self) {
        self.stack.push(if self.stack.last() == Some(&Mode::Mixed) {
            Mode::Mixed
        } else {
            Mode::Elements
        });
    }

    /// Begins mixed content.
    pub fn begin_mixed(&mut self) {
        self.stack.push(Mode::Mixed);
    }

    /// Ends content begun with `begin_elements` or `begin_mixed`, closing element `name`.
    pub fn end(&mut self, name: &str) {
        self.text_after_children();
        let mode = self.stack.pop();
        // The prefixes the children declared are out of scope at this end tag.
        let depth = self.stack.len();
        self.value_prefixes.retain(|(d, _, _)| *d <= depth);
        if self.open {
            // Nothing was written inside.
            self.end_empty();
            return;
        }
        if mode == Some(Mode::Elements) {
            self.indent_close();
        }
        self.end_tag(name);
    }

    /// `</name>`, with the prefix in force (a copy's, see [`Writer::copied_name`]).
    fn end_tag(&mut self, name: &str) {
        self.out.push_str("</");
        let written = if self.copy {
            self.copied_name(name).0.into()
        } else {
            self.written(name, false)
        };
        self.out.push_str(&written);
        self.out.push('>');
    }

    fn indent_close(&mut self) {
        if self.copy {
            return;
        }
        self.out.push('\n');
        for _ in 0..self.stack.len() {
            self.out.push_str("  ");
        }
    }

    /// Mixed content over an element particle, begun with [`Writer::begin_mixed`]: `text`
    /// is written between the children that follow, each run before the child it is
    /// placed before ([`crate::mixed::TextRun::at`]); runs placed after the last child
    /// written come before the end tag, in their order.
    pub fn interleave(&mut self, text: &crate::mixed::MixedText) {
        self.interleaved.push(Interleaving {
            depth: self.stack.len(),
            runs: text.runs().to_vec(),
            all_order: text.all_order().to_vec(),
            next: 0,
            children: 0,
        });
    }

    /// The order of the `xs:all` children of the mixed element being interleaved, as given
    /// to [`Writer::interleave`] (fields of its type; empty: schema order).
    pub fn interleaved_all_order(&self) -> &[usize] {
        match self.interleaved.last() {
            Some(i) if i.depth == self.stack.len() => &i.all_order,
            _ => &[],
        }
    }

    /// The runs placed before the child element about to start, if it is a child of a
    /// mixed element being interleaved.
    fn text_before_child(&mut self) {
        let depth = self.stack.len();
        let Some(i) = self.interleaved.last_mut().filter(|i| i.depth == depth) else {
            return;
        };
        let (from, children) = (i.next, i.children);
        let upto = from
            + i.runs[from..]
                .iter()
                .take_while(|r| r.at <= children)
                .count();
        i.next = upto;
        i.children += 1;
        let runs = std::mem::take(&mut i.runs);
        self.write_runs(&runs[from..upto]);
        if let Some(i) = self.interleaved.last_mut() {
            i.runs = runs;
        }
    }

    /// The runs left when the mixed element being interleaved ends.
    fn text_after_children(&mut self) {
        if self
            .interleaved
            .last()
            .is_some_and(|i| i.depth == self.stack.len())
        {
            if let Some(i) = self.interleaved.pop() {
                self.write_runs(&i.runs[i.next..]);
            }
        }
    }

    fn write_runs(&mut self, runs: &[crate::mixed::TextRun]) {
        for r in runs {
            match r.form {
                TextForm::Text => self.text(&r.text),
                TextForm::CData => self.cdata(&r.text),
            }
        }
    }

    /// Text inside mixed content.
    pub fn text(&mut self, text: &str) {
        self.close_open_tag();
        escape_into(&mut self.out, text, false);
    }

    /// A CDATA section inside mixed content.
    pub fn cdata(&mut self, text: &str) {
        self.close_open_tag();
        self.write_cdata(text);
    }

    fn write_cdata(&mut self, text: &str) {
        if !crate::encoding::can_encode(self.encoding, text) {
            escape_into(&mut self.out, text, false);
            return;
        }
        // `]]>` cannot stand in a CDATA section: split it across two sections.
        self.out.push_str("<![CDATA[");
        self.out.push_str(&text.replace("]]>", "]]]]><![CDATA[>"));
        self.out.push_str("]]>");
    }

    /// Simple content for the element just started (its attributes written), then its end.
    pub fn simple_content(&mut self, name: &str, value: &str, form: TextForm) {
        if value.is_empty() && form == TextForm::Text {
            self.end_empty();
            return;
        }
        self.close_open_tag();
        match form {
            TextForm::Text => escape_into(&mut self.out, value, false),
            TextForm::CData => self.write_cdata(value),
        }
        self.end_tag(name);
    }

    /// A whole element with no attributes and simple content.
    pub fn simple_element(&mut self, name: &str, value: &str, form: TextForm) {
        self.start(name);
        self.simple_content(name, value, form);
    }
}

/// Escapes `&`, `<`, `>` (and in attributes `"` and the white-space characters that
/// attribute normalisation would otherwise turn into spaces).
fn escape_into(out: &mut String, text: &str, attribute: bool) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            '\t' if attribute => out.push_str("&#9;"),
            '\n' if attribute => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c => out.push(c),
        }
    }
}

/// The bit of [`Writer::xsi_written`] for the `xsi:` attribute `name` (written `xsi:local`
/// or as its expanded name), if it is one.
fn xsi_bit(name: &str) -> Option<u8> {
    let local = match name.strip_prefix("xsi:") {
        Some(local) => local,
        None => name
            .strip_prefix('{')?
            .strip_prefix(super::XSI_NAMESPACE)?
            .strip_prefix('}')?,
    };
    match local {
        "type" => Some(1),
        "nil" => Some(2),
        "schemaLocation" => Some(4),
        "noNamespaceSchemaLocation" => Some(8),
        _ => None,
    }
}
