//! XSD 1.1's assertion facet (Part 2, 4.3.13): an XPath expression a simple value must make
//! true, with the value as `$value` and no context item. An evaluation that raises an
//! error is false, as the facet says.
//!
//! The generator writes each assertion with the expression that builds `$value` from the
//! value's lexical form (`$Q{urn:boardxml:assertion}lexical`): a constructor of the
//! built-in type the value's type is derived from, each item of a list, or the first member
//! of a union the lexical form is castable to. The test and that expression are compiled
//! together as `let $value := (VALUE) return (TEST)`, once per thread, by xee (the `xpath`
//! feature). Without the feature a value with an assertion to check is refused, never
//! taken unchecked; generated code that has assertions asks for the feature by calling
//! `Step::assertions`, which exists only with it.

/// The namespace of the variable that holds a value's lexical form: no schema's test can
/// name it by chance.
pub const LEXICAL_NAMESPACE: &str = "urn:boardxml:assertion";

/// One `xs:assertion` of a derivation step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Assertion {
    /// The test, as the schema writes it.
    pub test: &'static str,
    /// The XPath expression that builds `$value` from `$Q{urn:boardxml:assertion}lexical`.
    pub value: &'static str,
    /// The namespace bindings in scope at the `xs:assertion` (prefix, namespace).
    pub namespaces: &'static [(&'static str, &'static str)],
    /// The namespace of unprefixed element names (its `xpathDefaultNamespace`; `""`:
    /// none).
    pub default_element_namespace: &'static str,
    /// The test as evaluated, where it differs from [`Assertion::test`] (`""`: it does
    /// not): a complex type's test with the paths it compares made typed (see
    /// [`Assertion::typed`]).
    pub evaluated: &'static str,
}

impl Assertion {
    /// An assertion (see the fields).
    pub const fn new(
        test: &'static str,
        value: &'static str,
        namespaces: &'static [(&'static str, &'static str)],
        default_element_namespace: &'static str,
    ) -> Assertion {
        Assertion {
            test,
            value,
            namespaces,
            default_element_namespace,
            evaluated: "",
        }
    }

    /// The assertion, evaluated as `evaluated`: its test with each path it compares (a
    /// `ComparedPath`, with the `xpath` feature) whose nodes the schema gives one simple type written to give
    /// their typed values. XSD 1.1 compares the typed values of nodes (Part 1, 3.13.4.1:
    /// the tree is typed), so that `@min le @max` compares two integers as numbers; xee's
    /// nodes are untyped, whose values compare as text. The message still shows `test`.
    pub const fn typed(self, evaluated: &'static str) -> Assertion {
        Assertion { evaluated, ..self }
    }

    /// The expression compiled: the test (as evaluated), with `$value` bound.
    pub fn expression(&self) -> String {
        let test = if self.evaluated.is_empty() {
            self.test
        } else {
            self.evaluated
        };
        expression(test, self.value)
    }

    /// Whether the value whose (white-space processed) lexical form is `lexical` makes the
    /// test true. Without the `xpath` feature nothing is evaluated, and the answer is no.
    pub fn holds(&'static self, lexical: &str) -> bool {
        #[cfg(feature = "xpath")]
        {
            xpath::holds(self, lexical)
        }
        #[cfg(not(feature = "xpath"))]
        {
            let _ = lexical;
            false
        }
    }
}

/// The assertions of a complex type (XSD 1.1's `xs:assert`, Part 1, 3.13): each
/// [`Assertion`]'s test evaluated with the element as the context item, and `$value` built
/// from the lexical form of its simple content (the empty sequence, `()`, where it has
/// none). Only with the `xpath` feature, which evaluates them: generated code with such
/// assertions does not compile without it.
#[cfg(feature = "xpath")]
pub const fn element_assertions(assertions: &'static [Assertion]) -> &'static [Assertion] {
    assertions
}

/// The tests of `assertions` (a complex type's, see `element_assertions`) that the
/// element `copy` does not make true: `copy` is the element as XML text (its attributes and
/// content, names in a namespace prefixed, as [`crate::xml::Writer::copy`] writes it), and
/// `lexical` its simple content (`""` without). The element is the root of the tree the
/// tests see: it has no parent (Part 1, 3.13.4.1). An evaluation that raises an error is
/// false. Without the `xpath` feature nothing is evaluated, and every test fails.
pub fn failed_on_element(
    assertions: &'static [Assertion],
    lexical: &str,
    copy: &str,
) -> Vec<&'static str> {
    #[cfg(feature = "xpath")]
    {
        xpath::failed_on_element(assertions, lexical, copy)
    }
    #[cfg(not(feature = "xpath"))]
    {
        let _ = (lexical, copy);
        assertions.iter().map(|a| a.test).collect()
    }
}

/// The test of an XSD 1.1 `xs:alternative` that generated code does not decide itself (it
/// does `@a`, `not(@a)`, `@a = 'v'` and `@a != 'v'`): any XPath 2.0 expression, evaluated
/// as Part 1, 3.12.4 says, on a copy of the element that has its attributes, untyped, and
/// no children and no parent. An evaluation that raises an error is false (3.12.4, 2).
/// Only with the `xpath` feature, which evaluates it: generated code with such a test does
/// not compile without it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypeTest {
    /// The test, as the schema writes it.
    pub test: &'static str,
    /// The namespace bindings in scope at the `xs:alternative` (prefix, namespace).
    pub namespaces: &'static [(&'static str, &'static str)],
    /// The namespace of unprefixed element names (its `xpathDefaultNamespace`; `""`:
    /// none).
    pub default_element_namespace: &'static str,
}

impl TypeTest {
    /// A type alternative's test (see the fields).
    pub const fn new(
        test: &'static str,
        namespaces: &'static [(&'static str, &'static str)],
        default_element_namespace: &'static str,
    ) -> TypeTest {
        TypeTest {
            test,
            namespaces,
            default_element_namespace,
        }
    }

    /// Whether the element named `element` with `attributes` (names expanded as the
    /// reader gives them: `local` or `{namespace}local`; values as written, after XML's
    /// attribute-value normalization) and the namespace bindings in scope `namespaces`
    /// ((prefix, namespace), `""` the default namespace; a later binding of a prefix wins)
    /// makes the test true.
    #[cfg(feature = "xpath")]
    pub fn holds<'t, 'n>(
        &'static self,
        element: &str,
        attributes: impl IntoIterator<Item = (&'t str, &'t str)>,
        namespaces: impl IntoIterator<Item = (&'n str, &'n str)>,
    ) -> bool {
        xpath::type_test_holds(
            self,
            element,
            &mut attributes.into_iter(),
            &mut namespaces.into_iter(),
        )
    }
}

/// One step of a [`ComparedPath`].
#[cfg(feature = "xpath")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathStep {
    /// `.`: the context item itself (a path of this one step).
    Context,
    /// A child element, by its name as the test writes it (prefix, `""` without; local).
    Child(String, String),
    /// An attribute (`@prefix:local`; prefix `""` without): only as the last step.
    Attribute(String, String),
}

/// A path of an assertion's test that is by itself an operand of a comparison or the
/// argument of `data()`: relative to the context item, of child steps (`x`,
/// `child::x`) and a last attribute step (`@x`, `attribute::x`), each with any
/// predicates (`@min le @max`, `./ele = 3`, `a/b != .`, `data(d[1])`). Where the schema
/// gives such a path one simple type, the generator makes its nodes' values typed
/// ([`Assertion::typed`]).
#[cfg(feature = "xpath")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComparedPath {
    /// Where it stands in the test (bytes).
    pub span: std::ops::Range<usize>,
    /// Its steps.
    pub steps: Vec<PathStep>,
}

/// The paths of `test` that are by themselves operands of a comparison or arguments of
/// `data()` (see [`ComparedPath`]), found by xee's own lexer, in the order they stand. A
/// path next to anything that binds tighter than a comparison (arithmetic, `|`, `to`, a
/// cast) is not one: only its whole operand would be.
#[cfg(feature = "xpath")]
pub fn compared_paths(test: &str) -> Vec<ComparedPath> {
    xpath::compared_paths(test)
}

/// `test` with `$value` bound to what `value` builds from the lexical form.
fn expression(test: &str, value: &str) -> String {
    format!("let $value := ({value}) return ({test})")
}

/// Compiles `test` as an assertion's test: with `$value` (declared when `value` is true,
/// as on a simple type's assertion), the namespace bindings in scope and the default
/// element namespace. The error is XPath's (its code and where in the text).
#[cfg(feature = "xpath")]
pub fn compile_test(
    test: &str,
    value: bool,
    namespaces: &[(&str, &str)],
    default_element_namespace: &str,
) -> Result<(), String> {
    let names = if value {
        vec![xot::xmlname::OwnedName::new(
            "value".to_string(),
            String::new(),
            String::new(),
        )]
    } else {
        Vec::new()
    };
    xpath::compile(test, names, namespaces, default_element_namespace)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Compiles an assertion as the runtime does ([`Assertion::expression`]): `test` with
/// `$value` built by `value` (see [`Assertion::value`]).
#[cfg(feature = "xpath")]
pub fn compile_assertion(
    test: &str,
    value: &str,
    namespaces: &[(&str, &str)],
    default_element_namespace: &str,
) -> Result<(), String> {
    xpath::compile(
        &expression(test, value),
        vec![xpath::lexical_name()],
        namespaces,
        default_element_namespace,
    )
    .map(|_| ())
    .map_err(|e| e.to_string())
}

#[cfg(feature = "xpath")]
mod xpath {
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::rc::Rc;

    use xee_xpath::context::{StaticContextBuilder, Variables};
    use xee_xpath::query::SequenceQuery;
    use xee_xpath::{Atomic, Documents, Item, Queries, Query, Sequence};
    use xot::xmlname::OwnedName;

    use super::{Assertion, TypeTest, LEXICAL_NAMESPACE};

    pub(super) fn lexical_name() -> OwnedName {
        OwnedName::new(
            "lexical".to_string(),
            LEXICAL_NAMESPACE.to_string(),
            String::new(),
        )
    }

    pub(super) fn compile(
        text: &str,
        variables: Vec<OwnedName>,
        namespaces: &[(&str, &str)],
        default_element_namespace: &str,
    ) -> Result<SequenceQuery, xee_xpath::error::Error> {
        let mut context = StaticContextBuilder::default();
        context.variable_names(variables);
        for (prefix, namespace) in namespaces {
            if prefix.is_empty() {
                continue;
            }
            context.add_namespace(prefix, namespace);
        }
        context.default_element_namespace(default_element_namespace);
        let text = with_type_namespace(text, default_element_namespace);
        let text = with_rooted_paths(&text);
        Queries::new(context).sequence(&text)
    }

    /// What a leading `/` stands for (XPath 2.0, 3.2): the root of the context node's tree,
    /// which must be a document node. xee takes the root as it is; the copy an assertion
    /// or a type alternative's test sees has an element at its root, where `//x` is an
    /// error (so the test is false: Part 1, 3.13.4.1, the test stays in the subtree).
    const ROOT: &str = "(root(self::node()) treat as document-node())";

    /// `text` with each `/` or `//` that begins a path written with [`ROOT`] before it
    /// (found by xee's lexer); `text` unchanged where there is none.
    pub(super) fn with_rooted_paths(text: &str) -> std::borrow::Cow<'_, str> {
        use xee_xpath_lexer::Token;
        let tokens: Vec<(Token<'_>, std::ops::Range<usize>)> =
            xee_xpath_lexer::lexer(text).collect();
        // A token after which `/` starts a path rather than continuing one: an operator,
        // an opening bracket, a keyword that ends a clause (a keyword that may be a name,
        // `div` in `a/div`, only where no step comes before it).
        let opens = |k: usize| -> bool {
            let Some(k) = k.checked_sub(1) else {
                return true;
            };
            let after_step = k.checked_sub(1).is_some_and(|j| {
                matches!(
                    tokens[j].0,
                    Token::Slash | Token::DoubleSlash | Token::At | Token::DoubleColon
                )
            });
            match tokens[k].0 {
                Token::LeftParen
                | Token::LeftBracket
                | Token::LeftBrace
                | Token::Comma
                | Token::Equal
                | Token::NotEqual
                | Token::LessThan
                | Token::LessThanEqual
                | Token::GreaterThan
                | Token::GreaterThanEqual
                | Token::Precedes
                | Token::Follows
                | Token::Plus
                | Token::Minus
                | Token::Pipe
                | Token::DoublePipe
                | Token::ColonEqual
                | Token::ExclamationMark => true,
                Token::And
                | Token::Or
                | Token::Eq
                | Token::Ne
                | Token::Lt
                | Token::Le
                | Token::Gt
                | Token::Ge
                | Token::Is
                | Token::Div
                | Token::Idiv
                | Token::Mod
                | Token::To
                | Token::Union
                | Token::Intersect
                | Token::Except
                | Token::Return
                | Token::Then
                | Token::Else
                | Token::Satisfies
                | Token::In => !after_step,
                _ => false,
            }
        };
        // What may follow a `/` that is a path by itself (the root alone).
        let alone = |k: usize| {
            tokens.get(k + 1).is_none_or(|(t, _)| {
                matches!(
                    t,
                    Token::RightParen
                        | Token::RightBracket
                        | Token::RightBrace
                        | Token::Comma
                        | Token::Equal
                        | Token::NotEqual
                        | Token::Pipe
                        | Token::And
                        | Token::Or
                        | Token::Is
                        | Token::Precedes
                        | Token::Follows
                        | Token::Else
                        | Token::Return
                )
            })
        };
        let mut out = String::new();
        let mut at = 0;
        for (k, (t, span)) in tokens.iter().enumerate() {
            let step = match t {
                Token::Slash if opens(k) && alone(k) => "",
                Token::Slash if opens(k) => "/",
                Token::DoubleSlash if opens(k) => "//",
                _ => continue,
            };
            out.push_str(&text[at..span.start]);
            out.push_str(ROOT);
            out.push_str(step);
            at = span.end;
        }
        if at == 0 {
            return text.into();
        }
        out.push_str(&text[at..]);
        out.into()
    }

    /// `text` with each unprefixed type name written as `Q{namespace}name`: XPath's
    /// default element/type namespace (XPath 2.0, 2.1.1) applies to type names too, which
    /// xee does not do. A type name stands after `cast as`, `castable as`, `instance of`
    /// and `treat as`, and as the second argument of `element(..., T)` and
    /// `attribute(..., T)`. Found by xee's own lexer, so a string literal or a comment
    /// that looks like one is left alone; `text` unchanged without a default namespace (or
    /// with one a braced URI literal cannot hold).
    pub(super) fn with_type_namespace<'t>(
        text: &'t str,
        namespace: &str,
    ) -> std::borrow::Cow<'t, str> {
        use xee_xpath_lexer::Token;
        if namespace.is_empty() || namespace.contains(['{', '}']) {
            return text.into();
        }
        let tokens: Vec<(Token<'_>, std::ops::Range<usize>)> =
            xee_xpath_lexer::lexer(text).collect();
        let mut names = Vec::new();
        for (i, (token, span)) in tokens.iter().enumerate() {
            let Token::NCName(_) = token else { continue };
            let before = |back: usize| i.checked_sub(back).map(|j| &tokens[j].0);
            let typed = match (before(2), before(1)) {
                (Some(Token::Cast | Token::Castable | Token::Treat), Some(Token::As))
                | (Some(Token::Instance), Some(Token::Of)) => true,
                // element(NAME, T) / attribute(*, T): the comma after the first argument.
                (_, Some(Token::Comma)) => matches!(
                    (before(4), before(3)),
                    (
                        Some(Token::Element | Token::Attribute),
                        Some(Token::LeftParen)
                    )
                ),
                _ => false,
            };
            // A name followed by `(` is a call, not a type (a sequence type's kind tests
            // are keywords, not names).
            let call = matches!(tokens.get(i + 1), Some((Token::LeftParen, _)));
            if typed && !call {
                names.push(span.clone());
            }
        }
        if names.is_empty() {
            return text.into();
        }
        let mut out = String::with_capacity(text.len() + names.len() * (namespace.len() + 3));
        let mut at = 0;
        for span in names {
            out.push_str(&text[at..span.start]);
            out.push_str("Q{");
            out.push_str(namespace);
            out.push('}');
            at = span.start;
        }
        out.push_str(&text[at..]);
        out.into()
    }

    pub(super) fn compared_paths(test: &str) -> Vec<super::ComparedPath> {
        use super::{ComparedPath, PathStep};
        use xee_xpath_lexer::Token;
        let tokens: Vec<(Token<'_>, std::ops::Range<usize>)> =
            xee_xpath_lexer::lexer(test).collect();
        let comparison = |t: &Token<'_>| {
            matches!(
                t,
                Token::Equal
                    | Token::NotEqual
                    | Token::LessThan
                    | Token::LessThanEqual
                    | Token::GreaterThan
                    | Token::GreaterThanEqual
                    | Token::Eq
                    | Token::Ne
                    | Token::Lt
                    | Token::Le
                    | Token::Gt
                    | Token::Ge
            )
        };
        // What may stand on either side of a whole operand of a comparison (besides a
        // comparison): a clause's keyword or a comma; before one also `(`, `return` and
        // `satisfies`, after one `)`.
        let clause = |t: &Token<'_>| {
            comparison(t)
                || matches!(
                    t,
                    Token::Comma | Token::And | Token::Or | Token::Then | Token::Else
                )
        };
        let opens = |t: Option<&Token<'_>>| {
            t.is_none_or(|t| {
                clause(t) || matches!(t, Token::LeftParen | Token::Return | Token::Satisfies)
            })
        };
        let closes =
            |t: Option<&Token<'_>>| t.is_none_or(|t| clause(t) || matches!(t, Token::RightParen));
        let name = |t: &Token<'_>| match t {
            Token::NCName(local) => Some((String::new(), local.to_string())),
            Token::PrefixedQName(q) => Some((q.prefix.to_string(), q.local_name.to_string())),
            _ => None,
        };
        // After `@` or `/` a keyword's text is a name (`@to`, `a/div`): nothing else may
        // stand there.
        let named = |k: usize| {
            let (t, span) = tokens.get(k)?;
            name(t).or_else(|| {
                let text = &test[span.clone()];
                let mut chars = text.chars();
                let first = chars.next()?;
                ((first.is_alphabetic() || first == '_')
                    && chars.all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.')))
                .then(|| (String::new(), text.to_string()))
            })
        };
        // Whether each token stands where the context item is another than the test's
        // (inside a predicate, or in parentheses after `/`, `//` or `!`): a path there is
        // relative to other nodes, which the type of the asserted element does not tell.
        let mut moved = Vec::with_capacity(tokens.len());
        let mut open: Vec<bool> = Vec::new();
        for (k, (t, _)) in tokens.iter().enumerate() {
            let here = open.last().copied().unwrap_or(false);
            match t {
                Token::LeftBracket => open.push(true),
                Token::LeftParen | Token::LeftBrace => {
                    let after_step = k.checked_sub(1).is_some_and(|p| {
                        matches!(
                            tokens[p].0,
                            Token::Slash | Token::DoubleSlash | Token::ExclamationMark
                        )
                    });
                    open.push(here || after_step);
                }
                Token::RightBracket | Token::RightParen | Token::RightBrace => {
                    open.pop();
                }
                _ => {}
            }
            moved.push(here);
        }
        let mut found = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            let start = i;
            if moved[i] {
                i += 1;
                continue;
            }
            let mut steps = Vec::new();
            let mut j = i;
            if matches!(tokens[j].0, Token::Dot) {
                if matches!(tokens.get(j + 1), Some((Token::Slash, _))) {
                    // `./`: the path goes on from the context item.
                    j += 2;
                } else {
                    steps.push(PathStep::Context);
                    j += 1;
                }
            }
            if steps.is_empty() {
                loop {
                    // `child::x` and `attribute::x`: the axes a bare step and `@` abbreviate.
                    let axis = match (tokens.get(j), tokens.get(j + 1)) {
                        (Some((Token::Child, _)), Some((Token::DoubleColon, _))) => Some(false),
                        (Some((Token::Attribute, _)), Some((Token::DoubleColon, _))) => Some(true),
                        (Some((Token::At, _)), _) => Some(true),
                        _ => None,
                    };
                    let attribute = axis == Some(true);
                    let (at, length) = match (axis, tokens.get(j)) {
                        (Some(_), Some((Token::At, _))) => (j + 1, 2),
                        (Some(_), _) => (j + 2, 3),
                        (None, _) => (j, 1),
                    };
                    let step = if axis.is_some() || !steps.is_empty() {
                        named(at)
                    } else {
                        tokens.get(at).and_then(|(t, _)| name(t))
                    };
                    let Some((prefix, local)) = step else {
                        steps.clear();
                        break;
                    };
                    steps.push(if attribute {
                        PathStep::Attribute(prefix, local)
                    } else {
                        PathStep::Child(prefix, local)
                    });
                    j += length;
                    // Predicates filter the nodes a step selects: their type stays.
                    while matches!(tokens.get(j), Some((Token::LeftBracket, _))) {
                        match closing_bracket(&tokens, j) {
                            Some(end) => j = end + 1,
                            None => {
                                steps.clear();
                                break;
                            }
                        }
                    }
                    if attribute || steps.is_empty() {
                        break;
                    }
                    if matches!(tokens.get(j), Some((Token::Slash, _))) {
                        j += 1;
                    } else {
                        break;
                    }
                }
            }
            let before = start.checked_sub(1).map(|k| &tokens[k].0);
            let after = tokens.get(j).map(|t| &t.0);
            // `data(P)`: the typed values of P's nodes, which P typed gives as they are.
            let data_argument = matches!(before, Some(Token::LeftParen))
                && matches!(after, Some(Token::RightParen))
                && start
                    .checked_sub(2)
                    .and_then(|k| name(&tokens[k].0))
                    .is_some_and(|(prefix, local)| {
                        local == "data" && (prefix.is_empty() || prefix == "fn")
                    });
            let operand = !steps.is_empty()
                && opens(before)
                && closes(after)
                && (before.is_some_and(comparison)
                    || after.is_some_and(comparison)
                    || data_argument);
            if operand {
                found.push(ComparedPath {
                    span: tokens[start].1.start..tokens[j - 1].1.end,
                    steps,
                });
                i = j;
            } else {
                i += 1;
            }
        }
        found
    }

    /// The index of the `]` that closes the `[` at `open`, brackets nested; None if none.
    fn closing_bracket(
        tokens: &[(xee_xpath_lexer::Token<'_>, std::ops::Range<usize>)],
        open: usize,
    ) -> Option<usize> {
        use xee_xpath_lexer::Token;
        let mut depth = 0usize;
        for (k, (t, _)) in tokens.iter().enumerate().skip(open) {
            match t {
                Token::LeftBracket => depth += 1,
                Token::RightBracket => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(k);
                    }
                }
                _ => {}
            }
        }
        None
    }

    thread_local! {
        /// Each assertion compiled once per thread (by its address: generated assertions
        /// are statics); `None` if it does not compile, which the generator rules out.
        static COMPILED: RefCell<HashMap<usize, Option<Rc<SequenceQuery>>>> =
            RefCell::new(HashMap::new());
        /// No document: a simple value's test has no context item.
        static DOCUMENTS: RefCell<Documents> = RefCell::new(Documents::new());
    }

    /// The query compiled for the static `key` (an assertion's or a test's address), made
    /// by `make` the first time on this thread.
    fn compiled(
        key: usize,
        make: impl FnOnce() -> Option<SequenceQuery>,
    ) -> Option<Rc<SequenceQuery>> {
        COMPILED.with(|compiled| {
            compiled
                .borrow_mut()
                .entry(key)
                .or_insert_with(|| make().map(Rc::new))
                .clone()
        })
    }

    pub(super) fn holds(assertion: &'static Assertion, lexical: &str) -> bool {
        let key = assertion as *const Assertion as usize;
        let query = compiled(key, || {
            compile(
                &assertion.expression(),
                vec![lexical_name()],
                assertion.namespaces,
                assertion.default_element_namespace,
            )
            .ok()
        });
        let Some(query) = query else {
            return false;
        };
        DOCUMENTS.with(|documents| {
            let mut documents = documents.borrow_mut();
            let result = query.execute_build_context(&mut documents, |context| {
                let mut variables = Variables::new();
                variables.insert(
                    lexical_name(),
                    Sequence::from(vec![Item::from(Atomic::from(lexical.to_string()))]),
                );
                context.variables(variables);
            });
            // An error is false (Part 2, 4.3.13.4), as is a false effective boolean value.
            result.is_ok_and(|s| s.effective_boolean_value().unwrap_or(false))
        })
    }

    pub(super) fn failed_on_element(
        assertions: &'static [Assertion],
        lexical: &str,
        copy: &str,
    ) -> Vec<&'static str> {
        COPIES.with(|copies| {
            let (documents, made) = &mut *copies.borrow_mut();
            if *made >= COPIES_PER_TREE {
                *documents = Documents::new();
                *made = 0;
            }
            *made += 1;
            let xot = documents.xot_mut();
            // The writer's copy is well-formed; were it not, nothing holds.
            let Ok(document) = xot.parse(copy) else {
                return assertions.iter().map(|a| a.test).collect();
            };
            let Ok(element) = xot.document_element(document) else {
                let _ = xot.remove(document);
                return assertions.iter().map(|a| a.test).collect();
            };
            // The element is the tree's root: no parent, no document node above it.
            let _ = xot.detach(element);
            let _ = xot.remove(document);
            let mut failed = Vec::new();
            for assertion in assertions {
                let key = assertion as *const Assertion as usize;
                let query = compiled(key, || {
                    compile(
                        &assertion.expression(),
                        vec![lexical_name()],
                        assertion.namespaces,
                        assertion.default_element_namespace,
                    )
                    .ok()
                });
                let holds = query.is_some_and(|query| {
                    let result = query.execute_build_context(documents, |context| {
                        let mut variables = Variables::new();
                        variables.insert(
                            lexical_name(),
                            Sequence::from(vec![Item::from(Atomic::from(lexical.to_string()))]),
                        );
                        context.variables(variables);
                        context.context_item(Item::Node(element));
                    });
                    // An error is false (3.13.4.1), as is a false effective boolean value.
                    result.is_ok_and(|s| s.effective_boolean_value().unwrap_or(false))
                });
                if !holds {
                    failed.push(assertion.test);
                }
            }
            // Removed at once: the tree holds one copy at a time.
            let _ = documents.xot_mut().remove(element);
            failed
        })
    }

    /// After this many elements the tree of copies is made anew: each copy is removed
    /// after its test, but the names of elements and attributes stay interned in it, and a
    /// document may use ever new ones.
    const COPIES_PER_TREE: usize = 4096;

    thread_local! {
        /// The tree the elements' copies are made in, and how many were made in it.
        static COPIES: RefCell<(Documents, usize)> = RefCell::new((Documents::new(), 0));
    }

    /// The name `name` (`local` or `{namespace}local`) in `xot`.
    fn name_in(xot: &mut xot::Xot, name: &str) -> xot::NameId {
        match name.strip_prefix('{').and_then(|rest| rest.split_once('}')) {
            Some((namespace, local)) => {
                let namespace = xot.add_namespace(namespace);
                xot.add_name_ns(local, namespace)
            }
            None => xot.add_name(name),
        }
    }

    pub(super) fn type_test_holds(
        test: &'static TypeTest,
        element: &str,
        attributes: &mut dyn Iterator<Item = (&str, &str)>,
        namespaces: &mut dyn Iterator<Item = (&str, &str)>,
    ) -> bool {
        let key = test as *const TypeTest as usize;
        let query = compiled(key, || {
            compile(
                test.test,
                Vec::new(),
                test.namespaces,
                test.default_element_namespace,
            )
            .ok()
        });
        let Some(query) = query else {
            return false;
        };
        COPIES.with(|copies| {
            let (documents, made) = &mut *copies.borrow_mut();
            if *made >= COPIES_PER_TREE {
                *documents = Documents::new();
                *made = 0;
            }
            *made += 1;
            let xot = documents.xot_mut();
            let name = name_in(xot, element);
            let copy = xot.new_element(name);
            for (name, value) in attributes {
                let name = name_in(xot, name);
                xot.attributes_mut(copy).insert(name, value.to_string());
            }
            // The bindings in scope in the document, declared on the copy: names know
            // their prefixes, and resolve-QName and in-scope-prefixes see them.
            for (prefix, namespace) in namespaces {
                let prefix = if prefix.is_empty() {
                    xot.empty_prefix()
                } else {
                    xot.add_prefix(prefix)
                };
                let namespace = xot.add_namespace(namespace);
                xot.namespaces_mut(copy).insert(prefix, namespace);
            }
            let result = query.execute(documents, copy);
            // Removed at once: the tree holds one copy at a time.
            let _ = documents.xot_mut().remove(copy);
            result.is_ok_and(|s| s.effective_boolean_value().unwrap_or(false))
        })
    }
}

#[cfg(all(test, feature = "xpath"))]
mod tests {
    use super::*;

    const XS: &str = "http://www.w3.org/2001/XMLSchema";
    static EVEN: Assertion = Assertion::new(
        "$value mod 2 = 0",
        "Q{http://www.w3.org/2001/XMLSchema}integer($Q{urn:boardxml:assertion}lexical)",
        &[("xs", XS)],
        "",
    );
    static ASCENDING: Assertion = Assertion::new(
        "every $i in 1 to count($value) - 1 satisfies $value[$i] lt $value[$i + 1]",
        "for $t in tokenize($Q{urn:boardxml:assertion}lexical, ' ') return Q{http://www.w3.org/2001/XMLSchema}integer($t)",
        &[],
        "",
    );
    static CONTEXT: Assertion = Assertion::new(
        ". = 1",
        "Q{http://www.w3.org/2001/XMLSchema}integer($Q{urn:boardxml:assertion}lexical)",
        &[],
        "",
    );

    #[test]
    fn a_value_makes_its_test_true_or_false() {
        assert!(EVEN.holds("4"));
        assert!(!EVEN.holds("5"));
        // Not an integer: the constructor raises an error, which is false.
        assert!(!EVEN.holds("four"));
        assert!(ASCENDING.holds("1 5 9"));
        assert!(!ASCENDING.holds("1 9 5"));
        assert!(ASCENDING.holds(""));
        // No context item: `.` raises an error.
        assert!(!CONTEXT.holds("1"));
    }

    #[test]
    fn tests_compile_with_the_schemas_bindings() {
        assert!(compile_test("$value gt xs:integer(2)", true, &[("xs", XS)], "").is_ok());
        let syntax = compile_test("$value +", true, &[], "").unwrap_err();
        assert!(syntax.contains("XPST0003"), "{syntax}");
        let prefix = compile_test("p:a", true, &[], "").unwrap_err();
        assert!(prefix.contains("XPST0081"), "{prefix}");
        let variable = compile_test("$value", false, &[], "").unwrap_err();
        assert!(variable.contains("XPST0008"), "{variable}");
        let function = compile_test("no-such-function()", true, &[], "").unwrap_err();
        assert!(function.contains("XPST0017"), "{function}");
        assert!(compile_assertion(EVEN.test, EVEN.value, EVEN.namespaces, "").is_ok());
    }

    static FEW_CHILDREN: TypeTest = TypeTest::new("@children < 5 and @children > 0", &[], "");
    static ALONE: TypeTest = TypeTest::new(
        "empty(..) and (. is root()) and empty(node()) and self::p:when",
        &[("p", "urn:p")],
        "",
    );
    static UNTYPED: TypeTest = TypeTest::new(
        "@n instance of attribute(*, xs:untypedAtomic)",
        &[("xs", XS)],
        "",
    );
    static CAST: TypeTest = TypeTest::new("@v cast as xs:boolean", &[("xs", XS)], "");

    #[test]
    fn a_type_alternatives_test_sees_the_element_alone_with_its_attributes_untyped() {
        assert!(FEW_CHILDREN.holds("e", [("children", "3")], []));
        assert!(!FEW_CHILDREN.holds("e", [("children", "7")], []));
        // Untyped: compared with a number, the value is taken as a double.
        assert!(FEW_CHILDREN.holds("e", [("children", "2.5")], []));
        assert!(!FEW_CHILDREN.holds("e", [], []));
        assert!(ALONE.holds("{urn:p}when", [], [("p", "urn:p")]));
        assert!(!ALONE.holds("when", [], []));
        assert!(UNTYPED.holds("e", [("n", "1")], []));
        assert!(CAST.holds("e", [("v", "true")], []));
        assert!(!CAST.holds("e", [("v", "false")], []));
        // An error (not a boolean) is false.
        assert!(!CAST.holds("e", [("v", "maybe")], []));
        // Namespaced attributes keep their namespace.
        static NAMESPACED: TypeTest =
            TypeTest::new("@q:a = 'x' and not(@a)", &[("q", "urn:q")], "");
        assert!(NAMESPACED.holds("e", [("{urn:q}a", "x")], []));
        assert!(!NAMESPACED.holds("e", [("a", "x")], []));
        // The document's bindings: names and QName values resolve by them, the innermost
        // binding of a prefix winning; an element in a namespace has its name.
        static NAMES: TypeTest = TypeTest::new(
            "resolve-QName(@kind, .) = QName('urn:b', 'x') and node-name(.) = node-name(.)",
            &[],
            "",
        );
        assert!(NAMES.holds(
            "{urn:e}e",
            [("kind", "p:x")],
            [("p", "urn:a"), ("p", "urn:b"), ("", "urn:e")]
        ));
        assert!(!NAMES.holds(
            "{urn:e}e",
            [("kind", "p:x")],
            [("p", "urn:b"), ("p", "urn:a"), ("", "urn:e")]
        ));
        assert!(!NAMES.holds(
            "{urn:e}e",
            [("kind", "q:x")],
            [("p", "urn:b"), ("", "urn:e")]
        ));
    }

    #[test]
    fn copies_of_elements_do_not_accumulate() {
        for i in 0..3 * 4096 {
            let name = format!("a{i}");
            assert!(FEW_CHILDREN.holds("e", [(name.as_str(), "1"), ("children", "1")], []));
        }
    }

    #[test]
    fn unprefixed_type_names_take_the_default_namespace() {
        let q = |t: &str| xpath::with_type_namespace(t, XS).into_owned();
        assert_eq!(
            q("$value castable as double"),
            format!("$value castable as Q{{{XS}}}double")
        );
        assert_eq!(
            q("@a cast as integer? = 1 and . instance of decimal*"),
            format!("@a cast as Q{{{XS}}}integer? = 1 and . instance of Q{{{XS}}}decimal*")
        );
        assert_eq!(
            q("(. treat as element(x, anyType)) instance of attribute(*, string)"),
            format!(
                "(. treat as element(x, Q{{{XS}}}anyType)) instance of attribute(*, Q{{{XS}}}string)"
            )
        );
        // Prefixed names, element names, literals, comments and calls stay as written.
        for kept in [
            "$value castable as xs:double",
            "double = 'cast as double' (: cast as double :)",
            "count(a, double) and f(x, double)",
            ". instance of element(double)",
        ] {
            assert_eq!(q(kept), kept);
        }
        // No default namespace: nothing to apply.
        assert_eq!(
            xpath::with_type_namespace("$value castable as double", ""),
            "$value castable as double"
        );
    }

    #[test]
    fn a_test_with_the_xsd_namespace_as_default_compiles() {
        assert!(compile_test("$value castable as double", true, &[], XS).is_ok());
        // Without it, `double` is a type in no namespace, which no schema has.
        assert!(compile_test("$value castable as double", true, &[], "").is_err());
    }

    /// The paths that are by themselves operands of a comparison or `data()`'s argument,
    /// and only those: not another function's argument, one next to arithmetic, one in a
    /// predicate, a variable. Predicates and the `child::`/`attribute::` axes keep a path.
    #[test]
    fn compared_paths_are_whole_operands_of_comparisons() {
        let found = |test: &str| -> Vec<(String, Vec<PathStep>)> {
            compared_paths(test)
                .into_iter()
                .map(|p| (test[p.span.clone()].to_string(), p.steps))
                .collect()
        };
        let child = |p: &str, l: &str| PathStep::Child(p.into(), l.into());
        let attribute = |p: &str, l: &str| PathStep::Attribute(p.into(), l.into());
        assert_eq!(
            found("@min le @max"),
            [
                ("@min".to_string(), vec![attribute("", "min")]),
                ("@max".to_string(), vec![attribute("", "max")])
            ]
        );
        assert_eq!(
            found("if (./t:a/b:c = . ) then @to > 3 else true()"),
            [
                (
                    "./t:a/b:c".to_string(),
                    vec![child("t", "a"), child("b", "c")]
                ),
                (".".to_string(), vec![PathStep::Context]),
                ("@to".to_string(), vec![attribute("", "to")]),
            ]
        );
        assert_eq!(
            found("data(child::d[1][@a = 2]) instance of xs:date and x[1] = attribute::t:n"),
            [
                ("child::d[1][@a = 2]".to_string(), vec![child("", "d")]),
                ("x[1]".to_string(), vec![child("", "x")]),
                ("attribute::t:n".to_string(), vec![attribute("t", "n")]),
            ]
        );
        assert_eq!(
            found("fn:data(e/d) instance of xs:date*"),
            [("e/d".to_string(), vec![child("", "e"), child("", "d")])]
        );
        // data() gives typed values wherever it stands.
        assert_eq!(
            found("data(x) + 1"),
            [("x".to_string(), vec![child("", "x")])]
        );
        for none in [
            "count(x) eq @n + 1",
            "string(x) instance of xs:string",
            "data(x[1) = 3",
            "child:: = 3",
            "@a + 1 lt 5",
            "$value lt 5",
            "exists(@a) and string-length(ele) le 10",
            "//a = 1",
            "x | y = 1",
            "- @a lt 3",
            "x[@a = 1]",
            "a/(@b = 1)",
            "a ! (. lt 3)",
        ] {
            assert_eq!(found(none), [], "{none}");
        }
    }

    /// A path that begins at the root starts from a document node, which an element's copy
    /// does not have; a `/` inside a path, or after a name that is a keyword, is a step.
    #[test]
    fn rooted_paths_ask_for_a_document_node() {
        use super::xpath::with_rooted_paths;
        const ROOT: &str = "(root(self::node()) treat as document-node())";
        assert_eq!(
            with_rooted_paths("count(//ele1) eq 1"),
            format!("count({ROOT}//ele1) eq 1")
        );
        assert_eq!(
            with_rooted_paths("/a/b = 1 and exists(/)"),
            format!("{ROOT}/a/b = 1 and exists({ROOT})")
        );
        for unchanged in ["a/b//c", "a/div/b", "(a)/b", "x[1]//y", "@a div 2", "$v/a"] {
            assert_eq!(with_rooted_paths(unchanged), unchanged);
        }
        // On an element's copy, a test that stays in its subtree holds; one that starts at
        // the root is an error, so false; and the element has no parent.
        static INSIDE: [Assertion; 2] = [
            Assertion::new("count(.//b) = 1", "()", &[], ""),
            Assertion::new("empty(..)", "()", &[], ""),
        ];
        static OUTSIDE: [Assertion; 1] = [Assertion::new("count(//b) = 1", "()", &[], "")];
        assert_eq!(
            failed_on_element(&INSIDE, "", "<a><b/></a>"),
            [] as [&str; 0]
        );
        assert_eq!(
            failed_on_element(&OUTSIDE, "", "<a><b/></a>"),
            ["count(//b) = 1"]
        );
    }
}
