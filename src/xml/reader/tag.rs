//! Start tags: the [`Tag`] handed to generated code, and the reading of one start tag with
//! every check XML 1.0 and Namespaces 1.0 make there (the names, the attribute syntax, the
//! limits, duplicates, the values, namespace declarations and prefixes). The namespace scope
//! a start tag opens is closed here too, at its end, and finished tags come back to a pool.

use quick_xml::events::BytesStart;

use super::text::{forbidden_char, forbidden_message, push_attribute_value, text_of};
use super::{excerpt, Node, Reader, KEEP_CAPACITY};
use crate::diagnostic::Code;
use crate::xml::wf;

/// A start tag with its attributes.
///
/// The name and every attribute's name and value live in one buffer, and the reader hands
/// finished tags back to a pool: after the first few elements, reading a start tag
/// allocates nothing (per-element allocation was a quarter of validation time).
#[derive(Debug, Clone, Default)]
pub struct Tag {
    /// The element name, then each attribute's name and value, back to back.
    text: String,
    name_end: usize,
    /// Byte offset of `<`.
    pub offset: usize,
    pub(super) attributes: Vec<Attr>,
    /// Some attribute was written with a prefix (it may be `xsi:type`, whose value is
    /// resolved where the element stands).
    pub(super) prefixed: bool,
    /// The prefixes names were written with (rare): the element's, and each prefixed
    /// attribute's by index. Open content keeps them, to write a document back as it was.
    written_prefixes: Option<Box<WrittenPrefixes>>,
}

/// The prefixes of a start tag written with some (see `Tag::element_prefix`).
#[derive(Debug, Clone, Default)]
struct WrittenPrefixes {
    element: Option<String>,
    attributes: Vec<(usize, String)>,
}

/// An attribute: its name is `text[start..split]` and its value `text[split..end]` of its
/// tag's buffer.
#[derive(Debug, Clone, Copy)]
pub(super) struct Attr {
    start: usize,
    split: usize,
    end: usize,
    pub(super) offset: usize,
}

impl Tag {
    /// The element's expanded name: its local name in no namespace, `{namespace}local`
    /// (Clark notation) in one, whatever prefix it is written with. Generated code matches
    /// it against names of the same form; diagnostics show it so.
    pub fn name(&self) -> &str {
        &self.text[..self.name_end]
    }

    /// The value of attribute `name`, if present.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|a| self.attr_name(a) == name)
            .map(|a| self.attr_value(a))
    }

    /// The prefix the element's name was written with, if any (its name is expanded).
    pub fn element_prefix(&self) -> Option<&str> {
        self.written_prefixes.as_ref()?.element.as_deref()
    }

    /// The prefix attribute `name` (an expanded name) was written with, if any.
    pub fn attribute_prefix(&self, name: &str) -> Option<&str> {
        let written = self.written_prefixes.as_ref()?;
        let i = self
            .attributes
            .iter()
            .position(|a| self.attr_name(a) == name)?;
        written
            .attributes
            .iter()
            .find(|(at, _)| *at == i)
            .map(|(_, p)| p.as_str())
    }

    /// The attributes present: each one's expanded name and its value.
    pub fn attributes(&self) -> impl Iterator<Item = (&str, &str)> {
        self.attributes
            .iter()
            .map(|a| (self.attr_name(a), self.attr_value(a)))
    }

    /// The names of the attributes present.
    pub fn attribute_names(&self) -> impl Iterator<Item = &str> {
        self.attributes.iter().map(|a| self.attr_name(a))
    }

    pub(super) fn attr_name(&self, a: &Attr) -> &str {
        &self.text[a.start..a.split]
    }

    /// The name of `a` as bytes (no character-boundary checks: for comparing).
    #[inline]
    pub(super) fn attr_name_bytes(&self, a: &Attr) -> &[u8] {
        &self.text.as_bytes()[a.start..a.split]
    }

    pub(super) fn attr_value(&self, a: &Attr) -> &str {
        &self.text[a.split..a.end]
    }

    /// Empties a tag from the pool for the element `name` at `offset`.
    fn reset(&mut self, offset: usize, name: &str) {
        self.text.clear();
        self.attributes.clear();
        self.prefixed = false;
        self.written_prefixes = None;
        self.offset = offset;
        self.text.push_str(name);
        self.name_end = self.text.len();
    }

    /// Puts the element in namespace `ns`: its name becomes `{ns}name` (Clark notation),
    /// which no declaration of ours matches, so it is reported as unexpected, naming the
    /// namespace.
    fn qualify(&mut self, ns: &str) {
        // In place: the buffer is reused from tag to tag, so this allocates nothing.
        let shift = ns.len() + 2;
        self.text.reserve(shift);
        self.text.insert(0, '}');
        self.text.insert_str(0, ns);
        self.text.insert(0, '{');
        self.name_end += shift;
        for a in &mut self.attributes {
            a.start += shift;
            a.split += shift;
            a.end += shift;
        }
    }
}

/// A start tag was refused: the problem is reported (it is fatal) and the tag dropped.
struct Refused;

/// Up to this many attributes (and, apart, namespace declarations) on a tag, each name is
/// checked for a repeat by a scan of those before it; past it, by a set.
const SCANNED_NAMES: usize = 16;

/// What the attributes of one start tag declared, gathered while they are read.
struct Declared {
    /// `xmlns="..."`, if present (`Some(None)`: `xmlns=""`, no namespace).
    default: Option<Option<std::sync::Arc<str>>>,
    /// The names of the namespace declarations seen (rare: a list allocated only when
    /// there are some).
    names: Vec<String>,
    /// Attributes with a prefix (rare), by index and the colon's place, resolved once the
    /// tag's own declarations are known.
    prefixed: Vec<(usize, usize)>,
    /// How many prefixes were in scope before the tag (its own come after).
    mark: usize,
}

/// One attribute of the tag being read, as text, and where it stands.
struct Attribute<'s> {
    key: &'s str,
    raw: &'s str,
    /// Whether it is a namespace declaration (`xmlns`, `xmlns:prefix`).
    declaration: bool,
    /// Offset of its name.
    offset: usize,
    /// Offset of its value (after the quote).
    value_offset: usize,
}

impl Reader<'_> {
    /// Reads a start tag at `offset` (its bytes cut from `source`, if known): the element
    /// entered, its namespace scope opened. `None`: the tag is refused (the problem is
    /// reported, and fatal).
    pub(super) fn start_tag(
        &mut self,
        start: &BytesStart<'_>,
        offset: usize,
        source: Option<&str>,
    ) -> Option<Box<Tag>> {
        let name = start.name().into_inner();
        self.depth += 1;
        self.check_element_limits(name.len(), offset).ok()?;
        // The input is UTF-8 (decoded before the reader), so names are valid text. Without
        // a source, the tag is checked as UTF-8 once, whole, and its name and attributes are
        // cut from that (one check instead of one per name and value).
        let content: &[u8] = start.as_ref();
        let source = source.or_else(|| std::str::from_utf8(content).ok());
        let mut tag = self.spare_tags.pop().unwrap_or_default();
        tag.reset(offset, &text_of(source, name));
        let mut declared = Declared {
            default: None,
            names: Vec::new(),
            prefixed: Vec::new(),
            mark: self.prefixes.len(),
        };
        let read = self.read_start_tag(&mut tag, &mut declared, content, source, name.len());
        let element_colon = match read {
            Ok(colon) => colon,
            Err(Refused) => {
                self.prefixes.truncate(declared.mark);
                self.recycle(tag);
                return None;
            }
        };
        let in_scope = match declared.default {
            Some(d) => d,
            None => self.default_ns.last().cloned().flatten(),
        };
        if element_colon.is_some() || !declared.prefixed.is_empty() {
            // Rare (our own formats use no prefixes): names written with a prefix become
            // expanded names, so a schema matches them by namespace, not by prefix.
            self.expand_prefixed(
                &mut tag,
                element_colon,
                in_scope.as_deref(),
                &declared.prefixed,
            );
        } else if let Some(ns) = &in_scope {
            tag.qualify(ns);
        }
        self.default_ns.push(in_scope);
        if self.prefixes.len() > declared.mark {
            self.prefix_marks.push((self.depth, declared.mark));
        }
        Some(tag)
    }

    /// The depth and the name's length, checked before anything is copied.
    fn check_element_limits(&mut self, name_len: usize, offset: usize) -> Result<(), Refused> {
        if self.depth > self.limits.max_depth {
            self.fatal_error(
                Code::LIMIT,
                offset,
                format!("elements nested deeper than {}", self.limits.max_depth),
            );
            return Err(Refused);
        }
        if name_len > self.limits.max_name {
            self.fatal_error(
                Code::LIMIT,
                offset,
                format!("an element name longer than {} bytes", self.limits.max_name),
            );
            return Err(Refused);
        }
        Ok(())
    }

    /// XML 1.0 [40] STag ::= '<' Name (S Attribute)* S? '>', with QNames (Namespaces
    /// 1.0): the element name, each attribute into `tag` or `declared`, then the prefixes.
    fn read_start_tag(
        &mut self,
        tag: &mut Tag,
        declared: &mut Declared,
        content: &[u8],
        source: Option<&str>,
        name_len: usize,
    ) -> Result<Option<usize>, Refused> {
        let checked = if wf::simple_name(&content[..name_len]) {
            Ok(None)
        } else {
            wf::check_qname(tag.name(), "element name")
        };
        let element_colon = match checked {
            Ok(colon) => colon,
            Err(e) => {
                let found = format!("<{}", excerpt(tag.name()));
                self.malformed(tag.offset + 1 + e.at, e.message, "an element name", found);
                return Err(Refused);
            }
        };
        let mut at = name_len;
        loop {
            let attr = match wf::next_attribute(content, &mut at) {
                Ok(Some(a)) => a,
                Ok(None) => break,
                Err(e) => {
                    self.bad_tag_syntax(tag, content, e);
                    return Err(Refused);
                }
            };
            self.read_attribute(tag, declared, content, source, attr)?;
        }
        if tag.attributes.len() > SCANNED_NAMES || declared.names.len() > SCANNED_NAMES {
            self.check_unique_names(tag, declared)?;
        }
        // Namespaces 1.0: every prefix used is declared (5, Prefix Declared), `xmlns` is
        // no element's prefix, and no two attributes have the same expanded name (6.3).
        if element_colon.is_some() || !declared.prefixed.is_empty() {
            if let Err((at, message)) = self.check_prefixes(tag, element_colon, &declared.prefixed)
            {
                let found = format!("<{}", excerpt(tag.name()));
                let expected = "a declared prefix (xmlns:prefix=\"...\")";
                self.malformed(at, message, expected, found);
                return Err(Refused);
            }
        }
        Ok(element_colon)
    }

    /// Reports a syntax error of the start tag, at `e.at` of its content.
    fn bad_tag_syntax(&mut self, tag: &Tag, content: &[u8], e: wf::TagError) {
        let name = tag.name().to_string();
        let rest = &content[e.at.min(content.len())..];
        let found = if rest.is_empty() {
            "the end of the tag".to_string()
        } else {
            let n = rest.len().min(20);
            format!("\"{}\"", excerpt(&String::from_utf8_lossy(&rest[..n])))
        };
        self.malformed(
            tag.offset + 1 + e.at,
            format!("malformed start tag <{name}>: expected {}", e.expected),
            e.expected,
            found,
        );
    }

    /// One attribute of the start tag: checked, then added to `tag`, or to `declared` if
    /// it is a namespace declaration.
    fn read_attribute(
        &mut self,
        tag: &mut Tag,
        declared: &mut Declared,
        content: &[u8],
        source: Option<&str>,
        attr: wf::RawAttr,
    ) -> Result<(), Refused> {
        let (key, value) = (&content[attr.key.clone()], &content[attr.value.clone()]);
        self.check_attribute_limits(tag, declared, key.len(), value.len())?;
        // Borrowed (read in place, or cut from the tag checked whole) unless unreachable.
        let (key, raw) = (text_of(source, key), text_of(source, value));
        // Offsets: the tag's content starts right after `<`.
        let attribute = Attribute {
            key: &key,
            raw: &raw,
            declaration: is_declaration(&key),
            offset: tag.offset + 1 + attr.key.start,
            value_offset: tag.offset + 1 + attr.value.start,
        };
        let colon = self.check_attribute_name(tag, declared, &attribute, attr.simple)?;
        let plain = attr.plain || self.check_attribute_value(tag, &attribute)?;
        // Namespace declarations are not attributes (Namespaces in XML, 3). A prefix
        // declaration changes nothing here: a prefixed name never matches our
        // no-namespace schemas. A default namespace puts the element in it.
        if attribute.declaration {
            return self.declare_namespace(declared, &attribute);
        }
        if let Some(colon) = colon {
            declared.prefixed.push((tag.attributes.len(), colon));
        }
        let start = tag.text.len();
        tag.text.push_str(attribute.key);
        let split = tag.text.len();
        if plain {
            tag.text.push_str(attribute.raw);
        } else if let Err(message) = push_attribute_value(&mut tag.text, attribute.raw) {
            self.fatal_error(Code::MALFORMED, attribute.value_offset, message);
            return Err(Refused);
        }
        tag.attributes.push(Attr {
            start,
            split,
            end: tag.text.len(),
            offset: attribute.offset,
        });
        Ok(())
    }

    /// How many attributes, how long a name and a value may be.
    fn check_attribute_limits(
        &mut self,
        tag: &Tag,
        declared: &Declared,
        key_len: usize,
        value_len: usize,
    ) -> Result<(), Refused> {
        let limits = self.limits;
        let message = if tag.attributes.len() + declared.names.len() >= limits.max_attributes {
            format!(
                "more than {} attributes on <{}>",
                limits.max_attributes,
                tag.name()
            )
        } else if key_len > limits.max_name {
            format!("an attribute name longer than {} bytes", limits.max_name)
        } else if value_len > limits.max_attribute {
            format!(
                "an attribute value longer than {} bytes",
                limits.max_attribute
            )
        } else {
            return Ok(());
        };
        self.fatal_error(Code::LIMIT, tag.offset, message);
        Err(Refused)
    }

    /// The attribute's name: a QName (Namespaces 1.0), not twice in one tag (XML 1.0 3.1,
    /// Unique Att Spec, namespace declarations included). The colon's place, if any.
    fn check_attribute_name(
        &mut self,
        tag: &Tag,
        declared: &Declared,
        attribute: &Attribute<'_>,
        simple: bool,
    ) -> Result<Option<usize>, Refused> {
        let key = attribute.key;
        let checked = if simple {
            Ok(None)
        } else {
            wf::check_qname(key, "attribute name")
        };
        let colon = match checked {
            Ok(colon) => colon,
            Err(e) => {
                let found = format!("{}=", excerpt(key));
                let at = attribute.offset + e.at;
                self.malformed(at, e.message, "an attribute name", found);
                return Err(Refused);
            }
        };
        // A scan of the few names before this one; a tag of many attributes is checked
        // through a set once all are read ([`Self::check_unique_names`]), so the check
        // stays linear in the number of attributes.
        let duplicate = if attribute.declaration {
            declared.names.len() < SCANNED_NAMES && declared.names.iter().any(|n| n == key)
        } else {
            tag.attributes.len() < SCANNED_NAMES && tag.attribute_names().any(|n| n == key)
        };
        if duplicate {
            let message = format!("attribute {key} appears twice in <{}>", tag.name());
            self.fatal_error(Code::MALFORMED, attribute.offset, message);
            return Err(Refused);
        }
        Ok(colon)
    }

    /// XML 1.0 3.1 (Unique Att Spec) for a tag of more than [`SCANNED_NAMES`] attributes
    /// or namespace declarations: the names past the scanned ones, through a set.
    fn check_unique_names(&mut self, tag: &Tag, declared: &Declared) -> Result<(), Refused> {
        let mut seen = std::collections::HashSet::with_capacity(tag.attributes.len());
        let repeated = tag
            .attributes
            .iter()
            .find(|a| !seen.insert(tag.attr_name(a)))
            .map(|a| (tag.attr_name(a).to_string(), a.offset));
        let mut seen = std::collections::HashSet::with_capacity(declared.names.len());
        // Namespace declarations keep no offset: the tag's.
        let repeated = repeated.or_else(|| {
            declared
                .names
                .iter()
                .find(|n| !seen.insert(n.as_str()))
                .map(|n| (n.clone(), tag.offset))
        });
        if let Some((key, offset)) = repeated {
            let message = format!("attribute {key} appears twice in <{}>", tag.name());
            self.fatal_error(Code::MALFORMED, offset, message);
            return Err(Refused);
        }
        Ok(())
    }

    /// The characters of a value that is not plain (see [`wf::RawAttr::plain`]; XML 1.0
    /// [10] AttValue: no literal `<`, no forbidden character). Whether it is plain after
    /// all: copied as it is, nothing to normalise.
    fn check_attribute_value(
        &mut self,
        tag: &Tag,
        attribute: &Attribute<'_>,
    ) -> Result<bool, Refused> {
        let (key, raw) = (attribute.key, attribute.raw);
        if let Some(lt) = raw.find('<') {
            self.malformed(
                attribute.value_offset + lt,
                format!("a `<` in the value of attribute {key} of <{}>", tag.name()),
                "&lt; instead of <",
                "<".into(),
            );
            return Err(Refused);
        }
        if let Some(at) = forbidden_char(raw) {
            let message = format!(
                "in attribute {key} of <{}>: {}",
                tag.name(),
                forbidden_message(&raw[at..])
            );
            self.fatal_error(Code::MALFORMED, attribute.value_offset + at, message);
            return Err(Refused);
        }
        Ok(false)
    }

    /// A namespace declaration (`xmlns` or `xmlns:prefix`): checked, then in scope from
    /// this tag on.
    fn declare_namespace(
        &mut self,
        declared: &mut Declared,
        attribute: &Attribute<'_>,
    ) -> Result<(), Refused> {
        let key = attribute.key;
        declared.names.push(key.to_string());
        let mut value = String::new();
        if let Err(message) = push_attribute_value(&mut value, attribute.raw) {
            self.fatal_error(Code::MALFORMED, attribute.value_offset, message);
            return Err(Refused);
        }
        if let Err((message, expected)) = check_declaration(key, &value) {
            let found = format!("{key}=\"{}\"", excerpt(&value));
            self.malformed(attribute.offset, message, expected, found);
            return Err(Refused);
        }
        match key.strip_prefix("xmlns:") {
            Some(prefix) => self.prefixes.push((prefix.to_string(), value)),
            None => declared.default = Some((!value.is_empty()).then(|| value.into())),
        }
        Ok(())
    }

    /// Gives a start tag whose element or attributes are written with a prefix its
    /// expanded names (`{namespace}local`, see [`Tag::name`]); its prefixes are checked
    /// as declared already. An unprefixed element is in the default namespace `default`;
    /// an unprefixed attribute stays in none (Namespaces 1.0, 6.2).
    fn expand_prefixed(
        &self,
        tag: &mut Tag,
        element_colon: Option<usize>,
        default: Option<&str>,
        prefixed: &[(usize, usize)],
    ) {
        let qualified = |prefix: &str, local: &str| {
            let ns = self.namespace_of(prefix).unwrap_or_default();
            format!("{{{ns}}}{local}")
        };
        let name = tag.name();
        let element = match (element_colon, default) {
            (Some(colon), _) => qualified(&name[..colon], &name[colon + 1..]),
            (None, Some(ns)) => format!("{{{ns}}}{name}"),
            (None, None) => name.to_string(),
        };
        let mut text = String::with_capacity(tag.text.len() + 64);
        text.push_str(&element);
        let name_end = text.len();
        let mut attributes = Vec::with_capacity(tag.attributes.len());
        let mut written = WrittenPrefixes {
            element: element_colon.map(|colon| name[..colon].to_string()),
            attributes: Vec::new(),
        };
        // `prefixed` is in the attributes' order: walked along with them.
        let mut next_prefixed = prefixed.iter().peekable();
        for (i, a) in tag.attributes.iter().enumerate() {
            let key = tag.attr_name(a);
            let start = text.len();
            match next_prefixed.next_if(|(at, _)| *at == i) {
                Some(&(_, colon)) => {
                    text.push_str(&qualified(&key[..colon], &key[colon + 1..]));
                    written.attributes.push((i, key[..colon].to_string()));
                }
                None => text.push_str(key),
            }
            let split = text.len();
            text.push_str(tag.attr_value(a));
            attributes.push(Attr {
                start,
                split,
                end: text.len(),
                offset: a.offset,
            });
        }
        tag.text = text;
        tag.name_end = name_end;
        tag.attributes = attributes;
        tag.prefixed = !prefixed.is_empty();
        tag.written_prefixes = Some(Box::new(written));
    }

    /// The expanded name (`{namespace}local`, or `local` in no namespace) of the QName
    /// `value` where the reader stands, as a QName-valued attribute is resolved (an
    /// unprefixed one by the default namespace, XSD 1.0, 3.15.3); why not, if it is not
    /// one.
    pub(super) fn resolve_qname(&self, value: &str) -> Result<String, String> {
        let v = value.trim_matches([' ', '\t', '\n', '\r']);
        let colon = wf::check_qname(v, "QName").map_err(|e| e.message)?;
        let (ns, local) = match colon {
            Some(c) => {
                let prefix = &v[..c];
                let ns = self
                    .namespace_of(prefix)
                    .ok_or_else(|| format!("the prefix {prefix} is not declared"))?;
                (Some(ns), &v[c + 1..])
            }
            None => (self.default_ns.last().and_then(|d| d.as_deref()), v),
        };
        Ok(match ns {
            Some(ns) => format!("{{{ns}}}{local}"),
            None => local.to_string(),
        })
    }

    /// The default namespace where the reader stands, if one is declared.
    pub(crate) fn default_namespace(&self) -> Option<&str> {
        self.default_ns.last().and_then(|d| d.as_deref())
    }

    /// The namespace `prefix` is bound to where the reader stands (`xml` always is).
    pub(super) fn namespace_of(&self, prefix: &str) -> Option<&str> {
        if prefix == "xml" {
            return Some(wf::XML_NAMESPACE);
        }
        self.prefixes
            .iter()
            .rev()
            .find(|(p, _)| p == prefix)
            .map(|(_, ns)| ns.as_str())
    }

    /// The namespace declarations in force for a value read now: an attribute's (its
    /// element open, `closed` false) or the simple content of the element just closed
    /// (`closed` true: its own declarations, which its end tag took out of scope, first).
    pub(crate) fn scope(&self, closed: bool) -> InScope<'_> {
        InScope {
            reader: self,
            closed,
        }
    }

    /// The prefix checks of Namespaces 1.0 for a start tag (with its own declarations in
    /// scope already): the offset and message of the first problem.
    fn check_prefixes(
        &self,
        tag: &Tag,
        element_colon: Option<usize>,
        prefixed: &[(usize, usize)],
    ) -> Result<(), (usize, String)> {
        if let Some(colon) = element_colon {
            let prefix = &tag.name()[..colon];
            if prefix == "xmlns" {
                return Err((
                    tag.offset + 1,
                    format!(
                        "element <{}>: the prefix xmlns is reserved for namespace declarations",
                        tag.name()
                    ),
                ));
            }
            if self.namespace_of(prefix).is_none() {
                return Err((
                    tag.offset + 1,
                    format!(
                        "element <{}>: the prefix {prefix} is not declared",
                        tag.name()
                    ),
                ));
            }
        }
        let mut expanded: std::collections::HashMap<(&str, &str), usize> =
            std::collections::HashMap::with_capacity(prefixed.len());
        for &(i, colon) in prefixed {
            let a = &tag.attributes[i];
            let name = tag.attr_name(a);
            let (prefix, local) = (&name[..colon], &name[colon + 1..]);
            let Some(ns) = self.namespace_of(prefix) else {
                return Err((
                    a.offset,
                    format!(
                        "attribute {name} of <{}>: the prefix {prefix} is not declared",
                        tag.name()
                    ),
                ));
            };
            if let Some(first) = expanded.get(&(ns, local)) {
                let first = tag.attr_name(&tag.attributes[*first]);
                return Err((
                    a.offset,
                    format!(
                        "attributes {first} and {name} of <{}> are the same name {{{ns}}}{local} (Namespaces 1.0, 6.3)",
                        tag.name()
                    ),
                ));
            }
            expanded.insert((ns, local), i);
        }
        Ok(())
    }

    /// The end of the innermost open element, reported at `offset`: the namespace scope
    /// its start tag opened is closed.
    #[inline]
    pub(super) fn close_element(&mut self, offset: usize) -> Node {
        self.depth = self.depth.saturating_sub(1);
        self.closed_default = self.default_ns.pop().flatten();
        self.closed_prefixes.clear();
        if let Some(&(depth, mark)) = self.prefix_marks.last() {
            if depth > self.depth {
                let closed = self.prefixes.drain(mark..);
                self.closed_prefixes.extend(closed);
                self.prefix_marks.pop();
            }
        }
        Node::End(offset)
    }

    /// Gives a tag whose element has been read back to the pool.
    #[inline]
    pub(super) fn recycle(&mut self, tag: Box<Tag>) {
        if tag.text.capacity() <= KEEP_CAPACITY && self.spare_tags.len() < 64 {
            self.spare_tags.push(tag);
        }
    }
}

/// Whether attribute `key` is a namespace declaration.
#[inline]
fn is_declaration(key: &str) -> bool {
    key == "xmlns" || key.starts_with("xmlns:")
}

/// expected instead).
fn check_declaration(key: &str, value: &str) -> Result<(), (String, &'static str)> {
    let reserved = |ns: &str| ns == wf::XML_NAMESPACE || ns == wf::XMLNS_NAMESPACE;
    match key.strip_prefix("xmlns:") {
        None if reserved(value) => Err((
            format!("the default namespace may not be {value}"),
            "another namespace name",
        )),
        None => Ok(()),
        Some("xmlns") => Err((
            "the prefix xmlns may not be declared".into(),
            "no declaration of xmlns",
        )),
        Some("xml") if value != wf::XML_NAMESPACE => Err((
            format!("the prefix xml may only be bound to {}", wf::XML_NAMESPACE),
            wf::XML_NAMESPACE,
        )),
        Some("xml") => Ok(()),
        Some(prefix) if reserved(value) => Err((
            format!("the prefix {prefix} may not be bound to {value}, which is reserved"),
            "another namespace name",
        )),
        Some(prefix) if value.is_empty() => Err((
            format!("xmlns:{prefix}=\"\": Namespaces 1.0 does not allow undeclaring a prefix"),
            "a non-empty namespace name",
        )),
        Some(_) => Ok(()),
    }
}

/// The offset of the name of attribute `name` in the start tag at `offset` of `text`, a
/// start tag the reader has read (so well-formed): `<` Name, then each attribute as Name,
/// optional white space, `=`, optional white space, a quoted value.
pub(super) fn attribute_in(text: &str, offset: usize, name: &str) -> Option<usize> {
    let b = text.as_bytes();
    let space = |c: u8| matches!(c, b' ' | b'\t' | b'\r' | b'\n');
    let mut i = offset.checked_add(1)?;
    // The element name.
    while i < b.len() && !space(b[i]) && b[i] != b'>' && b[i] != b'/' {
        i += 1;
    }
    loop {
        while i < b.len() && space(b[i]) {
            i += 1;
        }
        if i >= b.len() || b[i] == b'>' || b[i] == b'/' {
            return None;
        }
        let start = i;
        while i < b.len() && !space(b[i]) && b[i] != b'=' {
            i += 1;
        }
        let found = &b[start..i] == name.as_bytes();
        while i < b.len() && (space(b[i]) || b[i] == b'=') {
            i += 1;
        }
        let quote = *b.get(i)?;
        i += 1;
        while i < b.len() && b[i] != quote {
            i += 1;
        }
        i += 1;
        if found {
            return Some(start);
        }
    }
}

/// The namespace declarations in force where the reader stands (see [`Reader::scope`]):
/// what a QName value's prefix means.
pub(crate) struct InScope<'r> {
    reader: &'r Reader<'r>,
    closed: bool,
}

impl crate::schema::NamespaceScope for InScope<'_> {
    fn namespace(&self, prefix: &str) -> Option<&str> {
        let r = self.reader;
        if prefix.is_empty() {
            return match self.closed {
                true => r.closed_default.as_deref(),
                false => r.default_namespace(),
            };
        }
        if self.closed {
            if let Some((_, ns)) = r.closed_prefixes.iter().rev().find(|(p, _)| p == prefix) {
                return Some(ns);
            }
        }
        r.namespace_of(prefix)
    }
}

#[cfg(test)]
mod tests {
    use super::attribute_in;

    /// What the reader calls an attribute's offset (where its name starts) is found again
    /// in a start tag read earlier, past values that look like attributes.
    #[test]
    fn an_attribute_is_found_in_a_start_tag_read_earlier() {
        let text = "<a/><Move\n nid = '1' value=\"x value='2'\"\tend=\"1\"/><b>";
        let at = text.find("<Move").unwrap();
        let of = |name| attribute_in(text, at, name).map(|o| &text[o..o + 4]);
        assert_eq!(of("nid"), Some("nid "));
        assert_eq!(of("value"), Some("valu"));
        assert_eq!(of("end"), Some("end="));
        assert_eq!(of("branch"), None);
        assert_eq!(attribute_in(text, 0, "value"), None, "<a/> has none");
    }
}
