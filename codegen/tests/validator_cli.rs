//! `boardxml-codegen validator` as a user runs it: what it writes, where it refuses to
//! write, and its exit statuses. (Building and running the package it writes is what
//! `tests/xsts_instances.rs` and `tests/xsd_real.rs` do, over many schemas.)

use std::path::Path;
use std::process::{Command, Output};

const SCHEMA: &str = r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="note">
    <xs:complexType><xs:sequence>
      <xs:element name="to" type="xs:string"/>
      <xs:element name="n" type="xs:positiveInteger"/>
    </xs:sequence></xs:complexType>
  </xs:element>
</xs:schema>
"#;

fn codegen(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardxml-codegen"))
        .arg("validator")
        .args(args)
        .output()
        .expect("boardxml-codegen runs")
}

fn os(s: &Path) -> &std::ffi::OsStr {
    s.as_os_str()
}

fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn writes_a_deterministic_package_and_rewrites_only_its_own_output() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("my.xsd");
    std::fs::write(&schema, SCHEMA).unwrap();
    let out = dir.path().join("v");
    let first = codegen(&[
        "--out".as_ref(),
        os(&out),
        "--published".as_ref(),
        os(&schema),
    ]);
    assert!(first.status.success(), "{first:?}");
    let files = snapshot(&out);
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            ".boardxml-validator",
            "Cargo.toml",
            "src/main.rs",
            "src/sets/s_my.rs"
        ]
    );
    let toml = String::from_utf8_lossy(&files[1].1).into_owned();
    assert!(
        toml.contains(&format!("boardxml = \"{}\"", env!("CARGO_PKG_VERSION"))),
        "{toml}"
    );
    let main = String::from_utf8_lossy(&files[2].1).into_owned();
    assert!(
        main.contains("Set::of::<s_my::__Document>(\"my\")"),
        "{main}"
    );
    // The module is what the generator gives for the schema.
    let (_, code) = boardxml_codegen::generate_str(&schema, SCHEMA).unwrap();
    assert_eq!(files[3].1, code.as_bytes());

    // Again: the same bytes, nothing changed.
    let again = codegen(&[
        "--out".as_ref(),
        os(&out),
        "--published".as_ref(),
        os(&schema),
    ]);
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stdout).contains("0 file(s) changed"));
    assert_eq!(snapshot(&out), files);

    // Another set: the old set's module goes, the runtime is a path now.
    let other = dir.path().join("other.xsd");
    std::fs::write(&other, SCHEMA).unwrap();
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let third = codegen(&[
        "--out".as_ref(),
        os(&out),
        "--runtime".as_ref(),
        os(&runtime),
        os(&other),
    ]);
    assert!(third.status.success(), "{third:?}");
    assert!(!out.join("src/sets/s_my.rs").exists());
    assert!(out.join("src/sets/s_other.rs").exists());
    let toml = std::fs::read_to_string(out.join("Cargo.toml")).unwrap();
    assert!(toml.contains("boardxml = { path = "), "{toml}");
    // Built as one program: the runtime's reader inlines into the generated types.
    assert!(
        toml.contains("[profile.release]\nlto = \"fat\"\ncodegen-units = 1\n"),
        "{toml}"
    );
}

/// Without `--runtime` or `--published`, a generator built from a checkout depends its
/// package on that checkout's runtime (the published crate may be older, or absent), so
/// README's two commands build on a fresh clone.
#[test]
fn depends_on_the_runtime_it_was_built_with() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("my.xsd");
    std::fs::write(&schema, SCHEMA).unwrap();
    let out = dir.path().join("v");
    let r = codegen(&["--out".as_ref(), os(&out), os(&schema)]);
    assert!(r.status.success(), "{r:?}");
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap();
    let toml = std::fs::read_to_string(out.join("Cargo.toml")).unwrap();
    let path = serde_json::to_string(&checkout.to_string_lossy()).unwrap();
    assert!(
        toml.contains(&format!("boardxml = {{ path = {path} }}")),
        "{toml}"
    );
    let said = String::from_utf8_lossy(&r.stdout);
    assert!(said.contains("on the boardxml runtime at "), "{said}");
    // Both at once is a usage error, not a silent choice.
    let both = codegen(&[
        "--out".as_ref(),
        os(&out),
        "--published".as_ref(),
        "--runtime".as_ref(),
        os(&checkout),
        os(&schema),
    ]);
    assert_eq!(both.status.code(), Some(2), "{both:?}");
}

/// A validator package depends on the runtime alone (issue 30): `cargo metadata` of the
/// package for the GPX 1.1 schema (the one `examples/gpx-edit` ships) lists no crate of the
/// board formats or the command line, none of the board formats' code is in the runtime's
/// folder, and none of xiangqi, resvg, clap or indicatif is built.
#[test]
fn a_validator_package_depends_on_the_runtime_alone() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("gpx-validator");
    let schema = workspace.join("examples/gpx-edit/schemas/gpx.xsd");
    let r = codegen(&["--out".as_ref(), os(&out), os(&schema)]);
    assert!(r.status.success(), "{r:?}");
    let metadata = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(out.join("Cargo.toml"))
        .output()
        .expect("cargo runs");
    assert!(metadata.status.success(), "{metadata:?}");
    let metadata: serde_json::Value = serde_json::from_slice(&metadata.stdout).unwrap();
    let packages = metadata["packages"].as_array().unwrap();
    let names: Vec<&str> = packages
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"boardxml"), "{names:?}");
    for absent in [
        "boardxml-formats",
        "boardxml-cli",
        "boardxml-xiangqi",
        "resvg",
        "clap",
        "indicatif",
    ] {
        assert!(!names.contains(&absent), "{absent} in {names:?}");
    }
    // The runtime's own sources hold none of the formats' modules.
    let runtime = packages.iter().find(|p| p["name"] == "boardxml").unwrap();
    let src = Path::new(runtime["manifest_path"].as_str().unwrap())
        .parent()
        .unwrap()
        .join("src");
    for module in ["cbf", "cif", "players", "cbf.rs", "cif.rs", "players.rs"] {
        assert!(!src.join(module).exists(), "{} has {module}", src.display());
    }
}

#[test]
fn refuses_folders_that_are_not_its_output_and_never_follows_links() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("my.xsd");
    std::fs::write(&schema, SCHEMA).unwrap();

    // A folder of the user's: refused, untouched.
    let mine = dir.path().join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("Cargo.toml"), "precious").unwrap();
    let r = codegen(&["--out".as_ref(), os(&mine), os(&schema)]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("not a previous validator output"));
    assert_eq!(
        std::fs::read_to_string(mine.join("Cargo.toml")).unwrap(),
        "precious"
    );

    // A file at --out: refused.
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    assert_eq!(
        codegen(&["--out".as_ref(), os(&file), os(&schema)])
            .status
            .code(),
        Some(2)
    );

    #[cfg(unix)]
    {
        // --out a link to a folder: refused.
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&mine, &link).unwrap();
        let r = codegen(&["--out".as_ref(), os(&link), os(&schema)]);
        assert_eq!(r.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&r.stderr).contains("is a link"));

        // A link planted in an earlier output: replaced, never written through.
        let out = dir.path().join("v");
        assert!(codegen(&["--out".as_ref(), os(&out), os(&schema)])
            .status
            .success());
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "keep me").unwrap();
        std::fs::remove_file(out.join("src/main.rs")).unwrap();
        std::os::unix::fs::symlink(&victim, out.join("src/main.rs")).unwrap();
        assert!(codegen(&["--out".as_ref(), os(&out), os(&schema)])
            .status
            .success());
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
        let meta = std::fs::symlink_metadata(out.join("src/main.rs")).unwrap();
        assert!(meta.is_file());
    }
}

#[test]
fn exit_statuses_follow_check() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("v");
    // Invalid XSD (an unknown type): exit 1, nothing written.
    let bad = dir.path().join("bad.xsd");
    std::fs::write(
        &bad,
        r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="a" type="nope"/></xs:schema>"#,
    )
    .unwrap();
    let r = codegen(&["--out".as_ref(), os(&out), os(&bad)]);
    assert_eq!(r.status.code(), Some(1), "{r:?}");
    assert!(String::from_utf8_lossy(&r.stderr).contains("set bad:"));
    assert!(!out.exists());

    // A sets file line without a schema: a usage error.
    let sets = dir.path().join("sets.tsv");
    std::fs::write(&sets, "only-a-name\n").unwrap();
    let r = codegen(&["--out".as_ref(), os(&out), "--sets".as_ref(), os(&sets)]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("sets.tsv:1:1"));

    // A set's documents form one schema through composition: one file named twice is
    // one document, a schema of its own (exit 0, the validator written).
    let a = dir.path().join("a.xsd");
    std::fs::write(&a, SCHEMA).unwrap();
    std::fs::write(&sets, "pair\ta.xsd\ta.xsd\n").unwrap();
    let set_out = dir.path().join("pair-validator");
    let r = codegen(&["--out".as_ref(), os(&set_out), "--sets".as_ref(), os(&sets)]);
    assert_eq!(r.status.code(), Some(0), "{r:?}");
    assert!(set_out.join("Cargo.toml").exists());

    // A broken catalog: a usage error.
    let catalog = dir.path().join("catalog.xml");
    std::fs::write(&catalog, "<notacatalog/>").unwrap();
    let r = codegen(&[
        "--out".as_ref(),
        os(&out),
        "--catalog".as_ref(),
        os(&catalog),
        os(&a),
    ]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("expected <catalog>"));
    assert!(!out.exists());
}

/// A schema whose types nest deeper than rustc's default recursion limit (128): each of
/// 200 complex types holds the previous one as an optional child, by value. Its validator
/// package type-checks: the generated `main.rs` raises the limit to what its schemas need
/// (without it, rustc stops with E0320, "queries overflow the depth limit").
#[test]
fn types_nested_past_rustcs_default_depth_compile() {
    let mut schema = String::from(r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">"#);
    for i in 0..200 {
        let child = if i == 0 {
            String::new()
        } else {
            format!(
                r#"<xs:element name="inner" type="Level{}" minOccurs="0"/>"#,
                i - 1
            )
        };
        schema.push_str(&format!(
            r#"<xs:complexType name="Level{i}"><xs:sequence><xs:element name="n" type="xs:int"/>{child}</xs:sequence></xs:complexType>"#
        ));
    }
    schema.push_str(r#"<xs:element name="top" type="Level199"/></xs:schema>"#);
    let dir = tempfile::tempdir().unwrap();
    let xsd = dir.path().join("deep.xsd");
    std::fs::write(&xsd, schema).unwrap();
    let out = dir.path().join("pkg");
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap();
    let r = codegen(&[
        "--out".as_ref(),
        os(&out),
        "--runtime".as_ref(),
        os(&workspace),
        os(&xsd),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let main = std::fs::read_to_string(out.join("src/main.rs")).unwrap();
    assert!(main.contains("#![recursion_limit = \""), "{main}");
    std::fs::copy(workspace.join("Cargo.lock"), out.join("Cargo.lock")).unwrap();
    let check = Command::new(env!("CARGO"))
        .args(["check", "-q", "--offline", "--message-format", "short"])
        .arg("--manifest-path")
        .arg(out.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", workspace.join("target/codegen-compile"))
        .env("CARGO_INCREMENTAL", "0")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
}

/// A schema with XSD 1.1 assertions or type alternatives' XPath tests asks for the runtime's
/// `xpath` feature, which evaluates them, for a path and for a published runtime; one
/// without does not.
#[test]
fn asks_for_the_xpath_feature_only_where_a_schema_has_assertions() {
    let dir = tempfile::tempdir().unwrap();
    let asserted = dir.path().join("even.xsd");
    std::fs::write(
        &asserted,
        r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:vc="http://www.w3.org/2007/XMLSchema-versioning" vc:minVersion="1.1">
  <xs:element name="n"><xs:simpleType><xs:restriction base="xs:int"><xs:assertion test="$value mod 2 = 0"/></xs:restriction></xs:simpleType></xs:element>
</xs:schema>
"#,
    )
    .unwrap();
    let plain = dir.path().join("my.xsd");
    std::fs::write(&plain, SCHEMA).unwrap();
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let toml = |name: &str, args: &[&std::ffi::OsStr]| {
        let out = dir.path().join(name);
        let mut all = vec!["--out".as_ref(), os(&out)];
        all.extend_from_slice(args);
        let r = codegen(&all);
        assert!(r.status.success(), "{r:?}");
        std::fs::read_to_string(out.join("Cargo.toml")).unwrap()
    };
    let path = toml("a", &["--runtime".as_ref(), os(&runtime), os(&asserted)]);
    assert!(path.contains(", features = [\"xpath\"] }"), "{path}");
    let published = toml("b", &["--published".as_ref(), os(&plain), os(&asserted)]);
    assert!(
        published.contains(&format!(
            "boardxml = {{ version = \"{}\", features = [\"xpath\"] }}",
            env!("CARGO_PKG_VERSION")
        )),
        "{published}"
    );
    let without = toml("c", &["--runtime".as_ref(), os(&runtime), os(&plain)]);
    assert!(!without.contains("xpath"), "{without}");
    // A type alternative's test beyond the attribute tests generated code makes itself is
    // evaluated by the same feature; one within them needs nothing.
    let alternatives = |test: &str| {
        format!(
            r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:vc="http://www.w3.org/2007/XMLSchema-versioning" vc:minVersion="1.1">
  <xs:element name="e" type="xs:decimal"><xs:alternative test="{test}" type="xs:int"/></xs:element>
</xs:schema>
"#
        )
    };
    let tested = dir.path().join("tested.xsd");
    std::fs::write(&tested, alternatives("@n > 1")).unwrap();
    let toml_tested = toml("d", &["--runtime".as_ref(), os(&runtime), os(&tested)]);
    assert!(
        toml_tested.contains(", features = [\"xpath\"] }"),
        "{toml_tested}"
    );
    let simple = dir.path().join("simple.xsd");
    std::fs::write(&simple, alternatives("@n = '1'")).unwrap();
    let toml_simple = toml("e", &["--runtime".as_ref(), os(&runtime), os(&simple)]);
    assert!(!toml_simple.contains("xpath"), "{toml_simple}");
}
