//! Identity constraints (`xs:unique`, `xs:key`, `xs:keyref`; XSD 1.0 Part 1, 3.11), checked
//! while a document is read.
//!
//! Generated code hands each element type whose declaration has constraints a table of
//! [`Constraint`]s ([`crate::schema::Element::IDENTITY`]). When such an element starts, the
//! reader activates its constraints: from then on every element start is matched against
//! the selectors (child steps from the constraint's element, `.//` for any depth), a
//! selected element opens a row, and the fields fill the row's cells from the typed values
//! read (an attribute's, or an element's simple content), compared in their value spaces
//! ([`KeyValue`]). A row is complete when its selected element ends; the constraint's
//! table when its own element ends, and then the keyrefs declared there are resolved
//! against the key or unique of the same name declared there or carried up from the
//! elements below (3.11.5, the node tables of the identity-constraint bindings).
//!
//! Nothing is kept and nothing is matched while no constraint is active: documents of
//! schemas without identity constraints pay one counter per element.

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use crate::diagnostic::{Code, Diagnostic};
pub use crate::identity_key::{KeyValue, Primitive};

/// One identity-constraint definition, as generated code declares it.
#[derive(Debug)]
pub struct Constraint {
    /// Its expanded name (`{namespace}local`, or the local name in no namespace).
    pub name: &'static str,
    /// unique, key or keyref.
    pub kind: Kind,
    /// The selector's alternatives (`a | b`).
    pub selector: &'static [Path],
    /// The fields, each with its alternatives.
    pub fields: &'static [&'static [Path]],
    /// The fields' XPaths as written in the schema, for messages.
    pub written: &'static [&'static str],
}

/// Which kind of identity constraint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `xs:unique`: complete rows are distinct.
    Unique,
    /// `xs:key`: every selected element has every field, and rows are distinct.
    Key,
    /// `xs:keyref refer=`: each complete row is a row of the key or unique named (its
    /// expanded name).
    KeyRef(&'static str),
}

impl Kind {
    fn xsd(self) -> &'static str {
        match self {
            Kind::Unique => "xs:unique",
            Kind::Key => "xs:key",
            Kind::KeyRef(_) => "xs:keyref",
        }
    }
}

/// One path of XSD 1.0's XPath subset (3.11.6): `.//` or not, child steps (`.` steps are
/// dropped by the generator: they select the node they stand on), and for a field an
/// attribute step last.
#[derive(Debug)]
pub struct Path {
    /// Opens with `.//`: the steps start at any depth below the context.
    pub descendant: bool,
    /// The child steps' name tests.
    pub steps: &'static [Test],
    /// The attribute step's name test (fields only).
    pub attribute: Option<Test>,
}

/// A name test.
#[derive(Debug, Clone, Copy)]
pub enum Test {
    /// `*`: any name.
    Any,
    /// `prefix:*`: any name in this namespace.
    Namespace(&'static str),
    /// One expanded name.
    Name(&'static str),
}

impl Test {
    fn matches(self, name: &str) -> bool {
        self.matches_bytes(name.as_bytes())
    }

    /// [`Test::matches`] on a name's bytes (cut from a buffer of names without the checks
    /// of cutting text).
    #[inline(always)]
    fn matches_bytes(self, name: &[u8]) -> bool {
        match self {
            Test::Any => true,
            Test::Name(n) => n.as_bytes() == name,
            Test::Namespace(ns) => name
                .strip_prefix(b"{")
                .and_then(|r| r.strip_prefix(ns.as_bytes()))
                .is_some_and(|r| r.starts_with(b"}")),
        }
    }
}

impl Path {
    /// Whether the elements `names` (below the context, the last one the candidate) are
    /// what the path's steps select.
    #[inline]
    fn selects(&self, names: Below<'_>) -> bool {
        match names.len() {
            0 => self.steps.is_empty(),
            len => self.selects_candidate(names, names.get(len - 1)),
        }
    }

    /// [`Path::selects`] with the candidate's name given (it is the same for every path
    /// tested at an element: cut from the names once).
    // Always inlined: called for every selector path at every element, where most tests
    // end at the first comparison, a call costs more than the test.
    #[inline(always)]
    fn selects_candidate(&self, names: Below<'_>, candidate: &[u8]) -> bool {
        let n = self.steps.len();
        let len = names.len();
        if len < n || (!self.descendant && len != n) {
            return false;
        }
        // The candidate's own name first: it rejects nearly every element.
        let Some((last, before)) = self.steps.split_last() else {
            return true;
        };
        last.matches_bytes(candidate)
            && before
                .iter()
                .enumerate()
                .all(|(k, t)| t.matches_bytes(names.get(len - n + k)))
    }
}

/// The names of the open elements from the first activation's element down, in one
/// buffer (an allocation per element was a fifth of reading a document with constraints).
#[derive(Debug, Default)]
struct Names {
    text: String,
    /// Where each name ends in `text`.
    ends: Vec<usize>,
}

impl Names {
    fn push(&mut self, name: &str) {
        self.text.push_str(name);
        self.ends.push(self.text.len());
    }

    fn pop(&mut self) {
        self.ends.pop();
        self.text.truncate(self.ends.last().copied().unwrap_or(0));
    }

    fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }

    /// The names from index `from` on.
    fn below(&self, from: usize) -> Below<'_> {
        Below { names: self, from }
    }
}

/// Some of the open elements' names: those below an element.
#[derive(Clone, Copy)]
struct Below<'a> {
    names: &'a Names,
    from: usize,
}

impl Below<'_> {
    const NONE: Below<'static> = Below {
        names: &Names {
            text: String::new(),
            ends: Vec::new(),
        },
        from: 0,
    };

    #[inline]
    fn len(&self) -> usize {
        self.names.ends.len().saturating_sub(self.from)
    }

    #[inline]
    fn get(&self, k: usize) -> &[u8] {
        let i = self.from + k;
        let ends = &self.names.ends;
        let start = if i == 0 { 0 } else { ends[i - 1] };
        &self.names.text.as_bytes()[start..ends[i]]
    }
}

/// Where a row's element stands: for messages.
#[derive(Debug, Clone)]
struct Place {
    offset: usize,
    path: String,
}

/// The element path of the open element at a depth (the root is 1): paths are built only
/// for what is kept or reported.
pub(crate) type PathAt<'a> = &'a dyn Fn(usize) -> String;

/// A field's cell in a row.
#[derive(Debug, Clone)]
enum Cell {
    /// No node selected (yet).
    Empty,
    /// An element selected, its simple value not read (yet; an element of complex
    /// content never has one).
    Pending,
    /// The value.
    Value(KeyValue),
    /// More than one node selected.
    Many,
}

/// A selected element whose fields are being gathered.
#[derive(Debug)]
struct Row {
    /// Index of its activation in [`Engine::active`].
    activation: usize,
    /// The depth of the selected element.
    depth: usize,
    /// The offset of its start tag (its path is built when the row closes, if needed).
    offset: usize,
    cells: Vec<Cell>,
    /// For each cell that waits for an element's value: the depth of that element.
    waiting: Vec<Option<usize>>,
}

/// A key or unique's rows: each key-sequence and where its element stands (`None`: the
/// sequence came up from two different descendants, which XSD 1.0 3.11.5 leaves out of
/// the binding as conflicting).
type Table = HashMap<Vec<KeyValue>, Option<Place>>;

/// One constraint active at one element (its path is asked only for a message).
#[derive(Debug)]
struct Activation {
    constraint: &'static Constraint,
    depth: usize,
    /// Its own complete rows (key and unique).
    table: Table,
    /// Its complete rows (keyref), resolved when its element ends.
    references: Vec<(Vec<KeyValue>, Place)>,
}

/// The state of the identity checks of one document (see the module documentation).
#[derive(Debug, Default)]
pub(crate) struct Engine {
    /// The depth of the current element (the root is 1).
    depth: usize,
    /// The names of the open elements from depth `base` down, while constraints are active.
    names: Names,
    base: usize,
    active: Vec<Activation>,
    rows: Vec<Row>,
    /// Rows closed, kept to be opened again: a row's two lists are not allocated anew for
    /// every element selected.
    spare_rows: Vec<Row>,
    /// Key and unique tables carried up to the open elements from their children, merged as
    /// each child ends (so that an element with many children holds one table per
    /// constraint, not one per child): deepest last.
    carried: Vec<Level>,
    /// The depth of the element a skip wildcard took, while the reader is inside it (0:
    /// not inside one): see [`Engine::skip_next`].
    skipped_from: usize,
}

/// The tables carried up to one open element from the children that have ended so far.
#[derive(Debug)]
struct Level {
    depth: usize,
    /// Per constraint name: each key-sequence, with `None` where two children carried it
    /// (conflicting: left out when the element ends, but kept until then so that a third
    /// child's copy conflicts too).
    tables: Vec<(&'static str, Table)>,
}

impl Engine {
    /// Whether any constraint is active (else the reader only counts depth).
    #[inline]
    pub(crate) fn is_active(&self) -> bool {
        !self.active.is_empty()
    }

    /// The element about to be entered, and everything in it, is content a skip wildcard
    /// took: no schema assesses it, so no selector selects it and no field reads it
    /// (XSD 1.1, 3.11.4, as the W3C suite's wild101 to wild104 judge it: a key is neither
    /// missing nor duplicated in skipped content). Its depth is still counted.
    pub(crate) fn skip_next(&mut self) {
        if self.skipped_from == 0 {
            self.skipped_from = self.depth + 1;
        }
    }

    /// An element starts: `name` (expanded), its start tag at `offset`.
    pub(crate) fn enter(&mut self, name: &str, offset: usize) {
        self.depth += 1;
        if self.active.is_empty() {
            return;
        }
        self.names.push(name);
        if self.skipped_from != 0 {
            return;
        }
        let candidate = name.as_bytes();
        for a in 0..self.active.len() {
            let act = &self.active[a];
            if act.depth >= self.depth {
                continue;
            }
            let below = self.names.below(act.depth - self.base + 1);
            let selector = act.constraint.selector;
            if selector
                .iter()
                .any(|p| p.selects_candidate(below, candidate))
            {
                self.open_row(a, offset);
            }
        }
        // Element fields of the open rows selected above this one.
        for row in &mut self.rows {
            if row.depth >= self.depth {
                continue;
            }
            let below = self.names.below(row.depth - self.base + 1);
            let fields = self.active[row.activation].constraint.fields;
            for (i, alternatives) in fields.iter().enumerate() {
                if alternatives
                    .iter()
                    .any(|p| p.attribute.is_none() && p.selects_candidate(below, candidate))
                {
                    row.cells[i] = match row.cells[i] {
                        Cell::Empty => Cell::Pending,
                        _ => Cell::Many,
                    };
                    row.waiting[i] = Some(self.depth);
                }
            }
        }
    }

    /// Activates `constraints` at the element just entered.
    pub(crate) fn activate(
        &mut self,
        constraints: &'static [Constraint],
        name: &str,
        offset: usize,
    ) {
        if self.active.is_empty() {
            self.base = self.depth;
            self.names.clear();
            self.names.push(name);
        }
        for c in constraints {
            self.active.push(Activation {
                constraint: c,
                depth: self.depth,
                table: Table::new(),
                references: Vec::new(),
            });
            // A selector `.` selects the element itself.
            if c.selector.iter().any(|p| p.selects(Below::NONE)) {
                self.open_row(self.active.len() - 1, offset);
            }
        }
    }

    fn open_row(&mut self, activation: usize, offset: usize) {
        let fields = self.active[activation].constraint.fields;
        let mut row = self.spare_rows.pop().unwrap_or_else(|| Row {
            activation,
            depth: 0,
            offset,
            cells: Vec::new(),
            waiting: Vec::new(),
        });
        row.activation = activation;
        row.depth = self.depth;
        row.offset = offset;
        row.cells.clear();
        row.cells.resize(fields.len(), Cell::Empty);
        row.waiting.clear();
        row.waiting.resize(fields.len(), None);
        // Fields `.`: the selected element's own value.
        for (i, alternatives) in fields.iter().enumerate() {
            if alternatives
                .iter()
                .any(|p| p.attribute.is_none() && p.selects(Below::NONE))
            {
                row.cells[i] = Cell::Pending;
                row.waiting[i] = Some(self.depth);
            }
        }
        self.rows.push(row);
    }

    /// Whether a value read now (attribute `attribute` of the current element, or with
    /// `None` its simple content) fills a cell of an open row, as [`Engine::value`] would
    /// take it: else it need not be made into a key.
    pub(crate) fn wants(&self, attribute: Option<&str>) -> bool {
        let depth = self.depth;
        self.rows.iter().any(|row| {
            if row.depth > depth {
                return false;
            }
            match attribute {
                None => row
                    .waiting
                    .iter()
                    .zip(&row.cells)
                    .any(|(w, c)| *w == Some(depth) && matches!(c, Cell::Pending)),
                Some(name) => {
                    let below = self.names.below(row.depth - self.base + 1);
                    let fields = self.active[row.activation].constraint.fields;
                    // Nested loops rather than a flattened iterator, which did not inline.
                    fields.iter().any(|alternatives| {
                        alternatives.iter().any(|p| {
                            p.attribute.is_some_and(|t| t.matches(name)) && p.selects(below)
                        })
                    })
                }
            }
        })
    }

    /// A typed value was read: attribute `attribute` of the current element, or (`None`)
    /// its simple content.
    pub(crate) fn value(&mut self, attribute: Option<&str>, value: impl Fn() -> KeyValue) {
        let depth = self.depth;
        let mut key = None;
        for row in &mut self.rows {
            if row.depth > depth {
                continue;
            }
            match attribute {
                None => {
                    for (i, w) in row.waiting.iter().enumerate() {
                        if *w == Some(depth) && matches!(row.cells[i], Cell::Pending) {
                            row.cells[i] = Cell::Value(key.get_or_insert_with(&value).clone());
                        }
                    }
                }
                Some(name) => {
                    let below = self.names.below(row.depth - self.base + 1);
                    let fields = self.active[row.activation].constraint.fields;
                    for (i, alternatives) in fields.iter().enumerate() {
                        let hit = alternatives.iter().any(|p| {
                            p.attribute.is_some_and(|t| t.matches(name)) && p.selects(below)
                        });
                        if hit {
                            row.cells[i] = match row.cells[i] {
                                Cell::Empty => Cell::Value(key.get_or_insert_with(&value).clone()),
                                _ => Cell::Many,
                            };
                        }
                    }
                }
            }
        }
    }

    /// The current element ends: its rows are complete, the constraints active at it are
    /// checked, and its tables are carried up. Returns what is wrong; `path_at` gives the
    /// path of an open element (this one and those above).
    pub(crate) fn leave(&mut self, found: &mut Vec<Diagnostic>, path_at: PathAt<'_>) {
        let depth = self.depth;
        self.depth = depth.saturating_sub(1);
        if depth <= self.skipped_from {
            self.skipped_from = 0;
        }
        if self.active.is_empty() {
            return;
        }
        // Rows of elements selected here.
        let mut i = 0;
        while i < self.rows.len() {
            if self.rows[i].depth == depth {
                let mut row = self.rows.remove(i);
                self.close_row(&mut row, found, path_at);
                self.spare_rows.push(row);
            } else {
                i += 1;
            }
        }
        for row in &mut self.rows {
            for w in &mut row.waiting {
                if *w == Some(depth) {
                    *w = None;
                }
            }
        }
        // What the children carried up, without the sequences two of them carried.
        let mut children = match self.carried.last() {
            Some(level) if level.depth == depth => self.carried.pop().map(|l| l.tables),
            _ => None,
        }
        .unwrap_or_default();
        for (_, table) in &mut children {
            table.retain(|_, p| p.is_some());
        }
        // Constraints active here: the last ones (activations come in document order, and
        // those of the elements below have closed).
        let first = self
            .active
            .iter()
            .rposition(|a| a.depth < depth)
            .map_or(0, |i| i + 1);
        let bindings = if first < self.active.len() {
            let closing = self.active.drain(first..);
            Self::close_element(closing, children, found, &|| path_at(depth))
        } else {
            children
        };
        self.carry_up(depth, bindings);
        self.names.pop();
        if self.active.is_empty() {
            self.names.clear();
            self.carried.clear();
        }
    }

    /// The row of the element at `row.depth`, which ends (the current element).
    fn close_row(&mut self, row: &mut Row, found: &mut Vec<Diagnostic>, path_at: PathAt<'_>) {
        let act = &mut self.active[row.activation];
        let c = act.constraint;
        let (offset, depth) = (row.offset, row.depth);
        let place = || Place {
            offset,
            path: path_at(depth),
        };
        // A cell without a value first: the row is reported or left out, and no
        // key-sequence is made for it.
        for (i, cell) in row.cells.iter().enumerate() {
            let field = || {
                format!(
                    "the field {} of the {} \"{}\"",
                    c.written[i],
                    c.kind.xsd(),
                    local(c.name)
                )
            };
            let (problem, expected, what) = match cell {
                Cell::Value(_) => continue,
                Cell::Many => (
                    format!("{} selects more than one node here", field()),
                    "at most one attribute or element with a simple value".to_string(),
                    "several",
                ),
                // A field must select a node of a simple type, whatever the kind
                // (3.11.4: an element of complex content has no value to compare).
                Cell::Pending => (
                    format!("{} selects an element without a simple value here", field()),
                    "an attribute or an element of a simple type (or simple content)".to_string(),
                    "an element of complex or open content",
                ),
                Cell::Empty if c.kind == Kind::Key => (
                    format!(
                        "{} selects nothing here: every element the key selects needs every field",
                        field()
                    ),
                    format!("a value for {}", c.written[i]),
                    "none",
                ),
                // unique and keyref leave incomplete rows out (3.11.4).
                Cell::Empty => return,
            };
            found.push(
                Diagnostic::error(Code::IDENTITY_FIELD, offset, path_at(depth), problem)
                    .expected(expected)
                    .found(what),
            );
            return;
        }
        let values: Vec<KeyValue> = row
            .cells
            .drain(..)
            .filter_map(|cell| match cell {
                Cell::Value(v) => Some(v),
                _ => None,
            })
            .collect();
        match c.kind {
            Kind::KeyRef(_) => act.references.push((values, place())),
            Kind::Key | Kind::Unique => {
                // One look-up: the sequence is hashed once.
                let slot = match act.table.entry(values) {
                    Entry::Vacant(slot) => {
                        slot.insert(Some(place()));
                        return;
                    }
                    Entry::Occupied(slot) => slot,
                };
                let Some(first) = slot.get() else {
                    *slot.into_mut() = Some(place());
                    return;
                };
                let values = slot.key();
                found.push(
                    Diagnostic::error(
                        Code::DUPLICATE_KEY,
                        offset,
                        path_at(depth),
                        format!(
                            "the {} \"{}\" has {} here and at {} already",
                            c.kind.xsd(),
                            local(c.name),
                            shown(values),
                            first.path
                        ),
                    )
                    .expected(format!(
                        "a value no other element selected under {} has",
                        path_at(act.depth)
                    ))
                    .found(format!(
                        "{}, also at {}",
                        shown(values),
                        first.path
                    )),
                );
            }
        }
    }

    /// The element ends with the constraints `closing` active at it and the tables
    /// `children` carried up to it: its keyrefs are resolved, and its bindings returned.
    fn close_element(
        closing: impl Iterator<Item = Activation>,
        children: Vec<(&'static str, Table)>,
        found: &mut Vec<Diagnostic>,
        path: &dyn Fn() -> String,
    ) -> Vec<(&'static str, Table)> {
        // The bindings here: own tables first, then what the children carried up.
        let mut bindings: Vec<(&'static str, Table)> = Vec::new();
        let mut references = Vec::new();
        for a in closing {
            // An empty table binds nothing, and a keyref that selected nothing has nothing
            // to resolve: most elements' constraints, and nothing is allocated for them.
            match a.constraint.kind {
                Kind::KeyRef(_) if a.references.is_empty() => {}
                Kind::KeyRef(refer) => references.push((a, refer)),
                Kind::Key | Kind::Unique if a.table.is_empty() => {}
                Kind::Key | Kind::Unique => bindings.push((a.constraint.name, a.table)),
            }
        }
        add_children(&mut bindings, children);
        for (a, refer) in references {
            let table = bindings.iter().find(|(n, _)| *n == refer).map(|(_, t)| t);
            for (values, place) in a.references {
                if table.is_some_and(|t| t.contains_key(&values)) {
                    continue;
                }
                found.push(
                    Diagnostic::error(
                        Code::DANGLING_KEY_REF,
                        place.offset,
                        place.path.clone(),
                        format!(
                            "the xs:keyref \"{}\" refers to {} of \"{}\", which no element under {} has",
                            local(a.constraint.name),
                            shown(&values),
                            local(refer),
                            path()
                        ),
                    )
                    .expected(format!(
                        "a value of the key \"{}\" under {}",
                        local(refer),
                        path()
                    ))
                    .found(shown(&values)),
                );
            }
        }
        bindings
    }

    /// Carries the bindings of the element at `depth` that ends up to its parent, if a
    /// constraint is active above, merged into what its earlier children carried.
    fn carry_up(&mut self, depth: usize, bindings: Vec<(&'static str, Table)>) {
        // Activations come in document order: the first is the outermost.
        let above = self.active.first().is_some_and(|a| a.depth < depth);
        if !above || bindings.is_empty() {
            return;
        }
        if self.carried.last().is_none_or(|l| l.depth != depth - 1) {
            self.carried.push(Level {
                depth: depth - 1,
                tables: Vec::new(),
            });
        }
        let Some(level) = self.carried.last_mut() else {
            return;
        };
        for (name, table) in bindings {
            let Some(i) = level.tables.iter().position(|(n, _)| *n == name) else {
                level.tables.push((name, table));
                continue;
            };
            let target = &mut level.tables[i].1;
            for (values, place) in table {
                match target.get_mut(&values) {
                    None => {
                        target.insert(values, place);
                    }
                    // Carried by an earlier child too: conflicting.
                    Some(slot) => *slot = None,
                }
            }
        }
    }
}

/// Adds the tables carried up from the children (conflicts already left out) to the
/// bindings, the element's own: a sequence the element has itself stays its own.
fn add_children(bindings: &mut Vec<(&'static str, Table)>, children: Vec<(&'static str, Table)>) {
    for (name, table) in children {
        match bindings.iter().position(|(n, _)| *n == name) {
            Some(i) => {
                let own = &mut bindings[i].1;
                for (values, place) in table {
                    own.entry(values).or_insert(place);
                }
            }
            None => bindings.push((name, table)),
        }
    }
}

/// The local part of an expanded name, as the schema names a constraint.
fn local(name: &str) -> &str {
    name.rsplit_once('}').map_or(name, |(_, l)| l)
}

/// A key-sequence for messages: `"a"`, or `("a", "1")`.
fn shown(values: &[KeyValue]) -> String {
    let parts: Vec<String> = values
        .iter()
        .map(|v| format!("\"{}\"", v.shown()))
        .collect();
    if parts.len() == 1 {
        format!("the value {}", parts[0])
    } else {
        format!("the values ({})", parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity_key::canonical_decimal;

    #[test]
    fn decimals_compare_by_value() {
        assert_eq!(canonical_decimal("1.0"), "1");
        assert_eq!(canonical_decimal("+001.500"), "1.5");
        assert_eq!(canonical_decimal("-0.0"), "0");
        assert_eq!(canonical_decimal("-2"), "-2");
        assert_eq!(
            KeyValue::new(Primitive::Decimal, "1"),
            KeyValue::new(Primitive::Decimal, "1.0")
        );
        assert_ne!(
            KeyValue::new(Primitive::Decimal, "1"),
            KeyValue::new(Primitive::String, "1")
        );
    }

    /// `<r>` with a unique over its `<i>` children by their `<v>` child.
    static UNIQUE_V: [Constraint; 1] = [Constraint {
        name: "u",
        kind: Kind::Unique,
        selector: &[Path {
            descendant: false,
            steps: &[Test::Name("i")],
            attribute: None,
        }],
        fields: &[&[Path {
            descendant: false,
            steps: &[Test::Name("v")],
            attribute: None,
        }]],
        written: &["v"],
    }];

    /// Reads `<r>` and its `<i>` children, each with a `<v>` child holding `values[k]`
    /// (`None`: `<v>` of complex content, no value) or two `<v>` (`Some` repeated):
    /// the codes found.
    fn unique_v(items: &[&[Option<KeyValue>]]) -> Vec<&'static str> {
        let mut e = Engine::default();
        let mut found = Vec::new();
        let path = |_: usize| String::from("/r");
        e.enter("r", 0);
        e.activate(&UNIQUE_V, "r", 0);
        for (n, vs) in items.iter().enumerate() {
            e.enter("i", n + 1);
            for v in vs.iter() {
                e.enter("v", n + 1);
                if let Some(v) = v {
                    e.value(None, || v.clone());
                }
                e.leave(&mut found, &path);
            }
            e.leave(&mut found, &path);
        }
        e.leave(&mut found, &path);
        found.iter().map(|d| d.code.as_str()).collect()
    }

    #[test]
    fn rows_compare_by_value_and_fields_select_one_simple_node() {
        let dec = |s: &str| Some(KeyValue::new(Primitive::Decimal, s));
        let string = |s: &str| Some(KeyValue::new(Primitive::String, s));
        assert_eq!(unique_v(&[&[dec("1")], &[dec("2")]]), Vec::<&str>::new());
        assert_eq!(unique_v(&[&[dec("1")], &[dec("1.00")]]), ["E0217"]);
        // Values of different primitives are never equal.
        assert_eq!(unique_v(&[&[dec("1")], &[string("1")]]), Vec::<&str>::new());
        // A unique leaves out a row without the field.
        assert_eq!(unique_v(&[&[], &[]]), Vec::<&str>::new());
        // A field selecting an element without a simple value, or two nodes: E0218.
        assert_eq!(unique_v(&[&[None]]), ["E0218"]);
        assert_eq!(unique_v(&[&[dec("1"), dec("2")]]), ["E0218"]);
    }

    /// One field: the selected element's attribute `v`.
    const FIELD_V: &[&[Path]] = &[&[Path {
        descendant: false,
        steps: &[],
        attribute: Some(Test::Name("v")),
    }]];

    /// `<m>` holds a key "k" over its `<i v=>` children.
    static KEY_K: [Constraint; 1] = [Constraint {
        name: "k",
        kind: Kind::Key,
        selector: &[Path {
            descendant: false,
            steps: &[Test::Name("i")],
            attribute: None,
        }],
        fields: FIELD_V,
        written: &["@v"],
    }];

    /// `<r>` holds a keyref to "k" over its `.//ref/@v`.
    static REF_K: [Constraint; 1] = [Constraint {
        name: "kr",
        kind: Kind::KeyRef("k"),
        selector: &[Path {
            descendant: true,
            steps: &[Test::Name("ref")],
            attribute: None,
        }],
        fields: FIELD_V,
        written: &["@v"],
    }];

    /// A tiny tree: a name and its children.
    enum Node {
        /// `<m><i v=V/>...</m>`: an element declaring "k" with these values.
        Keyed(&'static [&'static str]),
        /// `<ref v=V/>`.
        Ref(&'static str),
        /// `<x>...</x>`: an element without constraints.
        Plain(Vec<Node>),
    }

    fn walk(e: &mut Engine, node: &Node, found: &mut Vec<Diagnostic>) {
        let path = |_: usize| String::from("/r/...");
        let string = |s: &str| KeyValue::new(Primitive::String, s);
        match node {
            Node::Keyed(values) => {
                e.enter("m", 0);
                e.activate(&KEY_K, "m", 0);
                for v in values.iter() {
                    e.enter("i", 0);
                    e.value(Some("v"), || string(v));
                    e.leave(found, &path);
                }
            }
            Node::Ref(v) => {
                e.enter("ref", 0);
                e.value(Some("v"), || string(v));
            }
            Node::Plain(children) => {
                e.enter("x", 0);
                for c in children {
                    walk(e, c, found);
                }
            }
        }
        e.leave(found, &path);
    }

    /// `<r>` (with the keyref) and `children`: the codes found.
    fn keyref_under(children: Vec<Node>) -> Vec<&'static str> {
        let mut e = Engine::default();
        let mut found = Vec::new();
        e.enter("r", 0);
        e.activate(&REF_K, "r", 0);
        for c in &children {
            walk(&mut e, c, &mut found);
        }
        e.leave(&mut found, &|_| String::from("/r"));
        found.iter().map(|d| d.code.as_str()).collect()
    }

    #[test]
    fn key_sequences_carried_from_two_children_conflict_at_each_element() {
        use Node::*;
        let none = Vec::<&str>::new();
        assert_eq!(keyref_under(vec![Keyed(&["1"]), Ref("1")]), none);
        assert_eq!(keyref_under(vec![Keyed(&["2"]), Ref("1")]), ["E0219"]);
        // Two children carry "1": conflicting, out of r's table; a third conflicts too.
        assert_eq!(
            keyref_under(vec![Keyed(&["1"]), Keyed(&["1"]), Ref("1")]),
            ["E0219"]
        );
        assert_eq!(
            keyref_under(vec![Keyed(&["1"]), Keyed(&["1"]), Keyed(&["1"]), Ref("1")]),
            ["E0219"]
        );
        // Carried up through elements without constraints of their own.
        assert_eq!(
            keyref_under(vec![Plain(vec![Plain(vec![Keyed(&["1"])])]), Ref("1")]),
            none
        );
        // The conflict under x leaves "1" out of x's table (3.11.5), so that r has it
        // from its other child alone.
        assert_eq!(
            keyref_under(vec![
                Plain(vec![Keyed(&["1"]), Keyed(&["1"])]),
                Keyed(&["1"]),
                Ref("1")
            ]),
            none
        );
    }

    #[test]
    fn qnames_compare_by_expanded_name() {
        let mut a = KeyValue::new(Primitive::QName, "p:x");
        a.resolve_qname(|p| (p == "p").then(|| "urn:a".to_string()));
        let mut b = KeyValue::new(Primitive::QName, "x");
        b.resolve_qname(|p| p.is_empty().then(|| "urn:a".to_string()));
        assert_eq!(a, b);
    }

    #[test]
    fn name_tests_match_expanded_names() {
        assert!(Test::Namespace("urn:a").matches("{urn:a}x"));
        assert!(!Test::Namespace("urn:a").matches("{urn:ab}x"));
        assert!(!Test::Namespace("urn:a").matches("x"));
        assert!(Test::Name("{urn:a}x").matches("{urn:a}x"));
        assert!(Test::Any.matches("x"));
    }
}
