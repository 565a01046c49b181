//! `boardxml-codegen check` over schemas built and mutated from the input (issue 28): the
//! input drives a generator (nesting, repetition, references between components, named and
//! anonymous types, derivations, facets, occurrence bounds) or mutates a seed schema by
//! splicing generated fragments into it. Invariant: `check_str` never panics and never
//! overflows its stack, whatever it concludes, and no run takes over 2 s of CPU.
#![no_main]

use std::path::Path;
use std::time::Duration;

use boardxml_codegen::check::check_str;
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

const HEAD: &str = "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">";
const TAIL: &str = "</xs:schema>";

/// Seeds whose structure the mutations start from.
const SEEDS: &[&str] = &[
    include_str!("../../schemas/cif.xsd"),
    include_str!("../../codegen/tests/cases/content-models/schema.xsd"),
    include_str!("../../codegen/tests/cases/references/schema.xsd"),
    include_str!("../../codegen/tests/cases/derivation/schema.xsd"),
    include_str!("../../codegen/tests/cases/substitution-groups/schema.xsd"),
    include_str!("../../codegen/tests/cases/recursive-groups/schema.xsd"),
    include_str!("../../codegen/tests/cases/simple-derivations/schema.xsd"),
];

/// Where a schema stops growing: enough for every limit to be crossed, small enough that
/// a run takes milliseconds (10^6 of them are asked for).
const MAX_SCHEMA: usize = 60_000;

/// How many components of each kind a generated schema refers among.
const NAMES: u8 = 6;
/// How deep the generator itself nests particles (a repetition nests further, iteratively).
const GENERATOR_DEPTH: u32 = 6;

/// The most CPU time one run may take (issue 28: nothing over 2 s). The process's CPU time,
/// not the wall clock: beside other work (CI, a second fuzzing job, at the lowest
/// priority) a wall-clock limit fires on inputs that take 0.1 s alone. Not the calling
/// thread's either: `check_str` runs the schema on a thread of its own (a large stack), so
/// the caller's CPU clock stands still while it works (each libFuzzer job is a process of
/// its own). libFuzzer's `-timeout` (30 s, scripts/fuzz.sh) still catches a run that hangs
/// without using the CPU.
const CPU_LIMIT: Duration = Duration::from_secs(2);

/// The CPU time this process has used, all its threads together.
fn process_cpu() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

fn name(u: &mut Unstructured<'_>, prefix: &str) -> Result<String> {
    Ok(format!("{prefix}{}", u.int_in_range(0..=NAMES - 1)?))
}

fn occurs(u: &mut Unstructured<'_>) -> Result<String> {
    let mut s = String::new();
    if u.arbitrary()? {
        s += &format!(" minOccurs=\"{}\"", u.int_in_range(0..=3u8)?);
    }
    if u.arbitrary()? {
        s += &match u.int_in_range(0..=3u8)? {
            0 => " maxOccurs=\"unbounded\"".to_owned(),
            n => format!(" maxOccurs=\"{n}\""),
        };
    }
    Ok(s)
}

fn builtin(u: &mut Unstructured<'_>) -> Result<&'static str> {
    u.choose(&[
        "xs:string",
        "xs:int",
        "xs:decimal",
        "xs:boolean",
        "xs:QName",
        "xs:anyType",
        "xs:date",
    ])
    .copied()
}

/// A type reference: a generated named type or a built-in one.
fn type_ref(u: &mut Unstructured<'_>) -> Result<String> {
    if u.arbitrary()? {
        name(u, "t")
    } else {
        Ok(builtin(u)?.to_owned())
    }
}

fn particle(u: &mut Unstructured<'_>, depth: u32) -> Result<String> {
    let kind = if depth >= GENERATOR_DEPTH {
        u.int_in_range(0..=2u8)?
    } else {
        u.int_in_range(0..=7u8)?
    };
    let mut p = match kind {
        0 => format!(
            "<xs:element name=\"{}\" type=\"{}\"{}/>",
            name(u, "a")?,
            type_ref(u)?,
            occurs(u)?
        ),
        1 => format!("<xs:element ref=\"{}\"{}/>", name(u, "e")?, occurs(u)?),
        2 => format!("<xs:group ref=\"{}\"{}/>", name(u, "g")?, occurs(u)?),
        3 => format!("<xs:any processContents=\"lax\"{}/>", occurs(u)?),
        4 => format!(
            "<xs:element name=\"{}\"{}>{}</xs:element>",
            name(u, "a")?,
            occurs(u)?,
            complex_type(u, depth + 1, "")?
        ),
        _ => {
            let model = *u.choose(&["sequence", "choice", "all"])?;
            let mut s = format!("<xs:{model}{}>", occurs(u)?);
            for _ in 0..u.int_in_range(0..=3u8)? {
                s += &particle(u, depth + 1)?;
            }
            s + &format!("</xs:{model}>")
        }
    };
    // Repetition: nested in model groups, now and then past the nesting limit (256).
    if u.ratio(1, 8)? {
        let model = *u.choose(&["sequence", "choice"])?;
        let n = if u.ratio(1, 4)? {
            u.int_in_range(200..=600u16)?
        } else {
            u.int_in_range(1..=20u16)?
        } as usize;
        p = format!("<xs:{model}>").repeat(n) + &p + &format!("</xs:{model}>").repeat(n);
    }
    Ok(p)
}

fn attributes(u: &mut Unstructured<'_>) -> Result<String> {
    let mut s = String::new();
    for _ in 0..u.int_in_range(0..=2u8)? {
        s += &if u.arbitrary()? {
            format!(
                "<xs:attribute name=\"{}\" type=\"{}\"/>",
                name(u, "at")?,
                builtin(u)?
            )
        } else {
            format!("<xs:attributeGroup ref=\"{}\"/>", name(u, "ag")?)
        };
    }
    Ok(s)
}

fn complex_type(u: &mut Unstructured<'_>, depth: u32, named: &str) -> Result<String> {
    let mixed = if u.ratio(1, 6)? {
        " mixed=\"true\""
    } else {
        ""
    };
    let body = match u.int_in_range(0..=3u8)? {
        0 => format!(
            "<xs:complexContent><xs:extension base=\"{}\">{}{}</xs:extension></xs:complexContent>",
            name(u, "t")?,
            particle(u, depth + 1)?,
            attributes(u)?
        ),
        1 => format!(
            "<xs:complexContent><xs:restriction base=\"{}\">{}</xs:restriction></xs:complexContent>",
            name(u, "t")?,
            particle(u, depth + 1)?
        ),
        2 => format!(
            "<xs:simpleContent><xs:extension base=\"{}\">{}</xs:extension></xs:simpleContent>",
            type_ref(u)?,
            attributes(u)?
        ),
        _ => particle(u, depth + 1)? + &attributes(u)?,
    };
    Ok(format!(
        "<xs:complexType{named}{mixed}>{body}</xs:complexType>"
    ))
}

fn facet(u: &mut Unstructured<'_>) -> Result<String> {
    Ok(match u.int_in_range(0..=5u8)? {
        0 => format!("<xs:length value=\"{}\"/>", u.int_in_range(0..=9u8)?),
        1 => format!("<xs:maxLength value=\"{}\"/>", u.int_in_range(0..=9u8)?),
        2 => format!("<xs:minInclusive value=\"{}\"/>", u.int_in_range(-3..=9i8)?),
        3 => format!("<xs:totalDigits value=\"{}\"/>", u.int_in_range(0..=5u8)?),
        4 => format!(
            "<xs:pattern value=\"{}\"/>",
            u.choose(&["[a-h][1-8]", "\\d+", "(ab)*", "\\c\\i*", "."])?
        ),
        _ => format!(
            "<xs:enumeration value=\"{}\"/>",
            u.choose(&["a", "1", "x:y", "&#13;", "&#x202E;"])?
        ),
    })
}

fn simple_type(u: &mut Unstructured<'_>, named: &str) -> Result<String> {
    let body = match u.int_in_range(0..=2u8)? {
        0 => format!("<xs:list itemType=\"{}\"/>", type_ref(u)?),
        1 => format!(
            "<xs:union memberTypes=\"{} {}\"/>",
            type_ref(u)?,
            type_ref(u)?
        ),
        _ => {
            let mut s = format!("<xs:restriction base=\"{}\">", type_ref(u)?);
            for _ in 0..u.int_in_range(0..=3u8)? {
                s += &facet(u)?;
            }
            s + "</xs:restriction>"
        }
    };
    Ok(format!("<xs:simpleType{named}>{body}</xs:simpleType>"))
}

/// One top-level component.
fn component(u: &mut Unstructured<'_>) -> Result<String> {
    Ok(match u.int_in_range(0..=4u8)? {
        0 => {
            let named = format!(" name=\"{}\"", name(u, "t")?);
            complex_type(u, 0, &named)?
        }
        1 => {
            let named = format!(" name=\"{}\"", name(u, "t")?);
            simple_type(u, &named)?
        }
        2 => format!("<xs:group name=\"{}\">{}</xs:group>", name(u, "g")?, {
            let model = *u.choose(&["sequence", "choice", "all"])?;
            format!("<xs:{model}>{}</xs:{model}>", particle(u, 1)?)
        }),
        3 => format!(
            "<xs:attributeGroup name=\"{}\">{}</xs:attributeGroup>",
            name(u, "ag")?,
            attributes(u)?
        ),
        _ => {
            let head = if u.ratio(1, 3)? {
                format!(" substitutionGroup=\"{}\"", name(u, "e")?)
            } else {
                String::new()
            };
            if u.arbitrary()? {
                format!(
                    "<xs:element name=\"{}\" type=\"{}\"{head}/>",
                    name(u, "e")?,
                    type_ref(u)?
                )
            } else {
                format!(
                    "<xs:element name=\"{}\"{head}>{}</xs:element>",
                    name(u, "e")?,
                    complex_type(u, 0, "")?
                )
            }
        }
    })
}

/// A chain of `n` components of one kind, each referring to the next: long reference chains.
fn chain(u: &mut Unstructured<'_>) -> Result<String> {
    // Now and then past the reference limit (512).
    let n = if u.ratio(1, 8)? {
        u.int_in_range(300..=700u16)?
    } else {
        u.int_in_range(2..=40u16)?
    };
    let kind = u.int_in_range(0..=3u8)?;
    let mut s = String::new();
    for i in 0..n {
        let next = format!("c{}", i + 1);
        s += &match (kind, i + 1 == n) {
            (0, false) => format!("<xs:group name=\"c{i}\"><xs:sequence><xs:group ref=\"{next}\"/></xs:sequence></xs:group>"),
            (0, true) => format!("<xs:group name=\"c{i}\"><xs:sequence><xs:any/></xs:sequence></xs:group>"),
            (1, false) => format!("<xs:simpleType name=\"c{i}\"><xs:restriction base=\"{next}\"/></xs:simpleType>"),
            (1, true) => format!("<xs:simpleType name=\"c{i}\"><xs:restriction base=\"xs:string\"/></xs:simpleType>"),
            (2, false) => format!("<xs:attributeGroup name=\"c{i}\"><xs:attributeGroup ref=\"{next}\"/></xs:attributeGroup>"),
            (2, true) => format!("<xs:attributeGroup name=\"c{i}\"/>"),
            (_, false) => format!("<xs:complexType name=\"c{i}\"><xs:complexContent><xs:extension base=\"{next}\"/></xs:complexContent></xs:complexType>"),
            (_, true) => format!("<xs:complexType name=\"c{i}\"/>"),
        };
    }
    Ok(s)
}

fn generated(u: &mut Unstructured<'_>) -> Result<String> {
    let mut s = HEAD.to_owned();
    while !u.is_empty() && s.len() < MAX_SCHEMA {
        s += &if u.ratio(1, 16)? {
            chain(u)?
        } else {
            component(u)?
        };
    }
    Ok(s + TAIL)
}

/// A seed with generated fragments spliced in, slices repeated or removed at element
/// boundaries.
fn mutated(u: &mut Unstructured<'_>) -> Result<String> {
    let mut s = u.choose(SEEDS)?.to_string();
    while !u.is_empty() && s.len() < MAX_SCHEMA {
        let starts: Vec<usize> = s.match_indices('<').map(|(i, _)| i).collect();
        if starts.is_empty() {
            break;
        }
        let at = *u.choose(&starts)?;
        match u.int_in_range(0..=3u8)? {
            0 => s.insert_str(at, &component(u)?),
            1 => s.insert_str(at, &particle(u, 0)?),
            2 => {
                let end = *u.choose(&starts)?;
                let (a, b) = (at.min(end), at.max(end));
                let slice = s[a..b].repeat(u.int_in_range(1..=4u8)? as usize);
                s.insert_str(b, &slice);
            }
            _ => {
                let end = *u.choose(&starts)?;
                s.replace_range(at.min(end)..at.max(end), "");
            }
        }
    }
    Ok(s)
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let text = match if u.ratio(1, 3).unwrap_or(false) {
        mutated(&mut u)
    } else {
        generated(&mut u)
    } {
        Ok(t) => t,
        Err(_) => return,
    };
    // To see what an artifact is: `BOARDXML_FUZZ_DUMP=file.xsd` writes the schema built.
    if let Some(to) = std::env::var_os("BOARDXML_FUZZ_DUMP") {
        let _ = std::fs::write(to, &text);
    }
    let start = process_cpu();
    let report = check_str(Path::new("fuzz.xsd"), &text);
    let _ = report.verdict.exit_code();
    let spent = process_cpu() - start;
    assert!(
        spent <= CPU_LIMIT,
        "check took {spent:?} of CPU, over the limit of {CPU_LIMIT:?}"
    );
});
