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
        }
    }

    /// The expression compiled: the test, with `$value` bound.
    pub fn expression(&self) -> String {
        expression(self.test, self.value)
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

    use super::{Assertion, LEXICAL_NAMESPACE};

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
        Queries::new(context).sequence(text)
    }

    thread_local! {
        /// Each assertion compiled once per thread (by its address: generated assertions
        /// are statics); `None` if it does not compile, which the generator rules out.
        static COMPILED: RefCell<HashMap<usize, Option<Rc<SequenceQuery>>>> =
            RefCell::new(HashMap::new());
        /// No document: a simple value's test has no context item.
        static DOCUMENTS: RefCell<Documents> = RefCell::new(Documents::new());
    }

    pub(super) fn holds(assertion: &'static Assertion, lexical: &str) -> bool {
        let key = assertion as *const Assertion as usize;
        let query = COMPILED.with(|compiled| {
            compiled
                .borrow_mut()
                .entry(key)
                .or_insert_with(|| {
                    compile(
                        &assertion.expression(),
                        vec![lexical_name()],
                        assertion.namespaces,
                        assertion.default_element_namespace,
                    )
                    .ok()
                    .map(Rc::new)
                })
                .clone()
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
}
