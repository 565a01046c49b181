//! The program the nillable test builds around the generated module `s_nillable`: it
//! reads each document named on the command line (`ERR CODE at OFFSET: MESSAGE | expected: ...`
//! per diagnostic, or `OK` with the document written back and read again, which must give the
//! same value), and with `--construct` builds values in code and writes them.

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "sets/s_nillable.rs"]
mod s_nillable;

use boardxml::any::{AnyAttribute, ExpandedName};
use boardxml::nillable::{AnyNil, Nilled};
use boardxml::schema::{Document, Nillable, SimpleValue};
use boardxml::xml::{Reader, Writer};
use s_nillable::*;

fn write(doc: &Root) -> String {
    let mut w = Writer::new(boardxml::encoding_rs::UTF_8);
    doc.write_root(&mut w);
    w.finish()
}

/// Reads `text`; prints its diagnostics, or the round trip.
fn judge(text: &str) {
    let mut r = Reader::new(text);
    let doc = r.read_document::<Root>();
    if !r.diagnostics().is_empty() || doc.is_err() {
        for d in r.diagnostics() {
            let expected = d.expected.as_deref().unwrap_or("-");
            println!(
                "ERR {} at {}: {} | expected: {expected}",
                d.code.as_str(),
                d.offset,
                d.message
            );
        }
        return;
    }
    let doc = doc.unwrap();
    round_trip(&doc);
}

fn round_trip(doc: &Root) {
    let out = write(doc);
    let mut again = Reader::new(&out);
    let back = again.read_document::<Root>();
    for d in again.diagnostics() {
        println!("REREAD ERR {}: {}", d.code.as_str(), d.message);
    }
    match back {
        Ok(back) if &back == doc => println!("OK {}", out.replace('\n', "\\n")),
        _ => println!("CHANGED {}", out.replace('\n', "\\n")),
    }
}

fn construct() {
    let id = |s: &str| SimpleValue::parse_lexical(s).expect("an ID");
    let point = Point {
        id: id("v"),
        label: None,
        x: 1,
        y: 2,
    };
    let mut any = AnyNil::new();
    let a = AnyAttribute::new(ExpandedName::new(None, "a").unwrap(), None, "1").unwrap();
    any.push_attribute(a).unwrap();
    // xsi:nil is the nil element's own: not an attribute it keeps.
    let nil = ExpandedName::new(Some("http://www.w3.org/2001/XMLSchema-instance"), "nil").unwrap();
    let refused = any.push_attribute(AnyAttribute::new(nil, Some("xsi"), "false").unwrap());
    println!("PUSH XSI:NIL {}", if refused.is_err() { "refused" } else { "taken" });
    let doc = Root::Doc(Doc {
        p: vec![
            Nilled::Nil(PointNil {
                id: id("n"),
                label: Some("gone".into()),
            }),
            Nilled::Value(point),
        ],
        any: Some(Nilled::Nil(any)),
        n: Some(Nillable::Nil),
        ..Doc::default()
    });
    round_trip(&doc);
    round_trip(&Root::Shape(Nilled::Nil(PointNil {
        id: id("r"),
        label: None,
    })));
}

fn main() {
    for arg in std::env::args().skip(1) {
        println!("== {arg}");
        if arg == "--construct" {
            construct();
        } else {
            judge(&std::fs::read_to_string(&arg).expect("a document"));
        }
    }
}
