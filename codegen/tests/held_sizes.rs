//! Which single children are held in a `Box` (`render/holding.rs`): those that would make
//! a type contain itself, and those whose type is large, so that no type's inline size
//! grows with the depth of the schema under it (issue 31: a UBL invoice, held by value
//! all the way down, overflowed an 8 MiB stack).

use std::path::Path;

fn generate(body: &str) -> String {
    let text =
        format!("<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{body}\n</xs:schema>");
    match boardxml_codegen::generate_str(Path::new("t.xsd"), &text) {
        Ok((_, code)) => code,
        Err(d) => panic!("{d}"),
    }
}

/// A complex type `name` of `attributes` optional string attributes and the `children`
/// elements given (`(name, type)`, each once).
fn complex(name: &str, attributes: usize, children: &[(&str, &str)]) -> String {
    let attributes: String = (0..attributes)
        .map(|i| format!("<xs:attribute name=\"a{i}\" type=\"xs:string\"/>"))
        .collect();
    let children: String = children
        .iter()
        .map(|(n, t)| format!("<xs:element name=\"{n}\" type=\"{t}\"/>"))
        .collect();
    format!(
        "<xs:complexType name=\"{name}\"><xs:sequence>{children}</xs:sequence>{attributes}</xs:complexType>"
    )
}

#[test]
fn a_large_child_is_boxed_and_a_small_one_is_not() {
    let schema = [
        complex("Small", 1, &[]),
        complex("Large", 12, &[]),
        complex("Holder", 0, &[("small", "Small"), ("large", "Large")]),
        "<xs:element name=\"holder\" type=\"Holder\"/>".to_string(),
    ]
    .concat();
    let code = generate(&schema);
    assert!(code.contains("pub small: Small,"), "{code}");
    assert!(
        code.contains("pub large: ::std::boxed::Box<Large>,"),
        "{code}"
    );
}

#[test]
fn sizes_do_not_add_up_down_a_deep_chain() {
    // T0 holds T1 holds ... T59, each with two attributes: held by value all the way, T0
    // would hold all sixty. Boxes must come at regular intervals, wherever the chain is.
    let depth = 60;
    let mut schema = String::new();
    for i in 0..depth {
        let next = format!("T{}", i + 1);
        let children: Vec<(&str, &str)> = if i + 1 < depth {
            vec![("next", next.as_str())]
        } else {
            vec![]
        };
        schema.push_str(&complex(&format!("T{i}"), 2, &children));
    }
    schema.push_str("<xs:element name=\"root\" type=\"T0\"/>");
    let code = generate(&schema);
    let mut inline_run = 0;
    let mut longest = 0;
    for i in 0..depth - 1 {
        let next = format!("T{}", i + 1);
        if code.contains(&format!("pub next: ::std::boxed::Box<{next}>,")) {
            inline_run = 0;
        } else {
            assert!(code.contains(&format!("pub next: {next},")), "{code}");
            inline_run += 1;
            longest = longest.max(inline_run);
        }
    }
    assert!(
        (1..=4).contains(&longest),
        "at most a few levels held inline in a row, and some: {longest}"
    );
}

#[test]
fn a_cycle_is_boxed_whatever_the_sizes() {
    let schema = [
        complex("A", 0, &[("b", "B")]),
        complex("B", 0, &[("a", "A")]),
        "<xs:element name=\"a\" type=\"A\"/>".to_string(),
    ]
    .concat();
    let code = generate(&schema);
    assert!(
        code.contains("::std::boxed::Box<B>") || code.contains("::std::boxed::Box<A>"),
        "{code}"
    );
    // Deterministic: the same schema gives the same code.
    assert_eq!(generate(&schema), code);
}
