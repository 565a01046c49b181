//! The GitHub Action (`action.yml`) and the pre-commit hooks (`.pre-commit-hooks.yaml`):
//! both files are read, and the commands they hold are run against example files, with
//! the built binary standing in for the one they would install.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use yaml_rust2::{Yaml, YamlLoader};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn load(file: &str) -> Yaml {
    let text = std::fs::read_to_string(Path::new(ROOT).join(file)).unwrap();
    YamlLoader::load_from_str(&text)
        .unwrap_or_else(|e| panic!("{file}: {e}"))
        .remove(0)
}

fn text(y: &Yaml) -> &str {
    y.as_str().unwrap_or_else(|| panic!("not a string: {y:?}"))
}

/// The `${{ ... }}` expressions the action uses, replaced from `values`; any other is a
/// test failure (the action would depend on something this test does not model).
fn expand(template: &str, values: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(start) = rest.find("${{") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("}}").expect("a closed expression") + start;
        let name = rest[start + 3..end].trim();
        out.push_str(
            values
                .get(name)
                .unwrap_or_else(|| panic!("unknown expression {name}")),
        );
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

/// A folder like a checkout: examples/valid as `valid`, examples/invalid as `invalid`.
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (from, to) in [("examples/valid", "valid"), ("examples/invalid", "invalid")] {
        copy_tree(&Path::new(ROOT).join(from), &dir.path().join(to));
    }
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// Runs the action's steps as a runner would, in `work`, with `inputs` over the defaults;
/// the cache step is a hit holding the built binary, so the install step is skipped (its
/// command is checked instead). Returns the last step's output and the GITHUB_STEP_SUMMARY.
fn run_action(work: &Path, inputs: &[(&str, &str)]) -> (Output, String) {
    let action = load("action.yml");
    assert_eq!(text(&action["runs"]["using"]), "composite");
    let temp = tempfile::tempdir().unwrap();
    let home = temp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let (output_file, path_file, summary_file) = (
        temp.path().join("output"),
        temp.path().join("path"),
        temp.path().join("summary.md"),
    );
    std::fs::write(&path_file, "").unwrap();
    let mut values = BTreeMap::new();
    for (name, spec) in action["inputs"].as_hash().unwrap() {
        let default = spec["default"].as_str().unwrap_or("").to_owned();
        values.insert(format!("inputs.{}", text(name)), default);
    }
    for (k, v) in inputs {
        let key = format!("inputs.{k}");
        assert!(values.contains_key(&key), "the action has no input {k}");
        values.insert(key, (*v).to_owned());
    }
    for (k, v) in [
        ("runner.os", "Linux"),
        ("runner.arch", "X64"),
        ("github.action_ref", "v0"),
        ("github.action_path", ROOT),
    ] {
        values.insert(k.to_owned(), v.to_owned());
    }
    let mut last = None;
    for step in action["runs"]["steps"].as_vec().unwrap() {
        if let Some(uses) = step["uses"].as_str() {
            assert!(uses.starts_with("actions/cache@"), "unexpected step {uses}");
            let key = expand(text(&step["with"]["key"]), &values);
            assert!(
                key.contains(env!("CARGO_PKG_VERSION")),
                "keyed on the version: {key}"
            );
            // And on the sources built, never on the ref (empty in composite actions on
            // some runners): a hash the first step computed over the action's files.
            assert!(!text(&step["with"]["key"]).contains("action_ref"), "{key}");
            let source = values
                .get("steps.version.outputs.source")
                .cloned()
                .unwrap_or_default();
            assert!(
                source.len() == 16 && source.bytes().all(|b| b.is_ascii_hexdigit()),
                "the source hash: {source:?}"
            );
            assert!(key.ends_with(&source), "keyed on the sources: {key}");
            // A hit: what the install step would have put there.
            let cached = expand(text(&step["with"]["path"]), &values).replacen(
                '~',
                home.to_str().unwrap(),
                1,
            );
            std::fs::create_dir_all(Path::new(&cached).join("bin")).unwrap();
            std::os::unix::fs::symlink(
                env!("CARGO_BIN_EXE_boardxml"),
                Path::new(&cached).join("bin/boardxml"),
            )
            .unwrap();
            values.insert(
                format!("steps.{}.outputs.cache-hit", text(&step["id"])),
                "true".into(),
            );
            continue;
        }
        let script = text(&step["run"]);
        if let Some(condition) = step["if"].as_str() {
            assert_eq!(condition, "steps.cache.outputs.cache-hit != 'true'");
            assert!(
                script.contains("cargo install --locked --path \"$GITHUB_ACTION_PATH/cli\""),
                "{script}"
            );
            continue;
        }
        assert!(
            !script.contains("${{"),
            "inputs go through env, not into the script"
        );
        assert_eq!(text(&step["shell"]), "bash");
        let extra_path: Vec<PathBuf> = std::fs::read_to_string(&path_file)
            .unwrap()
            .lines()
            .map(PathBuf::from)
            .collect();
        let path = std::env::join_paths(
            extra_path
                .into_iter()
                .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
        )
        .unwrap();
        let mut command = Command::new("bash");
        command
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
            .current_dir(work)
            .env("HOME", &home)
            .env("PATH", path)
            .env("GITHUB_ACTION_PATH", ROOT)
            .env("GITHUB_OUTPUT", &output_file)
            .env("GITHUB_PATH", &path_file)
            .env("GITHUB_STEP_SUMMARY", &summary_file);
        if let Some(env) = step["env"].as_hash() {
            for (k, v) in env {
                command.env(text(k), expand(text(v), &values));
            }
        }
        let out = command.output().unwrap();
        if let Some(id) = step["id"].as_str() {
            assert!(out.status.success(), "step {id}: {out:?}");
            for line in std::fs::read_to_string(&output_file)
                .unwrap_or_default()
                .lines()
            {
                let (k, v) = line.split_once('=').unwrap();
                values.insert(format!("steps.{id}.outputs.{k}"), v.to_owned());
            }
        }
        last = Some(out);
    }
    let summary = std::fs::read_to_string(&summary_file).unwrap_or_default();
    (last.expect("a step ran"), summary)
}

#[test]
fn the_action_annotates_an_invalid_record_and_passes_valid_ones() {
    let work = workspace();
    let (out, summary) = run_action(
        work.path(),
        &[
            ("paths", "valid invalid"),
            ("args", "--exclude invalid/cif/ --exclude bad-markers.cif"),
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        stdout.contains("::error file=invalid/bad-record.cbf,line=8,col=11,title=E0210::"),
        "{stdout}"
    );
    assert_eq!(
        stdout.lines().count(),
        3,
        "only bad-record.cbf's errors: {stdout}"
    );
    assert!(
        summary.contains("| invalid/bad-record.cbf | 8 | 11 | error | E0210 |"),
        "{summary}"
    );

    let (out, _) = run_action(
        work.path(),
        &[
            ("paths", "valid invalid"),
            ("format", "sarif"),
            ("output", "boardxml.sarif"),
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let log: serde_json::Value =
        serde_json::from_slice(&std::fs::read(work.path().join("boardxml.sarif")).unwrap())
            .unwrap();
    assert_eq!(log["version"], "2.1.0");
    assert!(!log["runs"][0]["results"].as_array().unwrap().is_empty());

    let (out, _) = run_action(work.path(), &[("paths", "valid")]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

/// Unrelated XML in the paths (a Maven pom.xml, an SVG) is skipped by default, named on
/// stderr and counted, not failed (issue 29, item 5): the action passes `--only cbf,cif`.
/// With `only` empty every file is validated, and the pom is E0201; the `boardxml`
/// pre-commit hook, which takes every .xml, skips it too.
#[test]
fn unrelated_xml_is_skipped_by_default_not_failed() {
    let work = workspace();
    let pom = "<?xml version=\"1.0\"?>\n<project xmlns=\"http://maven.apache.org/POM/4.0.0\"><modelVersion>4.0.0</modelVersion></project>\n";
    std::fs::write(work.path().join("valid/pom.xml"), pom).unwrap();
    std::fs::write(
        work.path().join("valid/logo.xml"),
        "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
    )
    .unwrap();
    let (out, _) = run_action(work.path(), &[("paths", "valid")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        stderr.contains("skipped (not cbf or cif): valid/pom.xml"),
        "{stderr}"
    );
    assert!(stderr.contains("2 skipped (not cbf or cif)"), "{stderr}");
    let (out, _) = run_action(work.path(), &[("paths", "valid"), ("only", "")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        stdout.contains("valid/pom.xml") && stdout.contains("E0201"),
        "{stdout}"
    );
    // The hook for every .xml, on the pom alone and beside a valid record.
    let hooks = load(".pre-commit-hooks.yaml");
    let hook = &hooks.as_vec().unwrap()[0];
    assert_eq!(text(&hook["id"]), "boardxml");
    let entry: Vec<&str> = text(&hook["entry"]).split_whitespace().collect();
    let hook_exit = |files: [&str; 2]| {
        let out = Command::new(env!("CARGO_BIN_EXE_boardxml"))
            .args(&entry[1..])
            .args(files)
            .current_dir(work.path())
            .output()
            .unwrap();
        out.status.code()
    };
    assert_eq!(
        hook_exit(["valid/pom.xml", "valid/short-game-2007.cbf"]),
        Some(0)
    );
    // A CBF record with an error is still validated, and fails.
    assert_eq!(
        hook_exit(["invalid/bad-record.cbf", "valid/pom.xml"]),
        Some(1)
    );
}

#[test]
fn each_pre_commit_hook_runs_on_its_files() {
    let hooks = load(".pre-commit-hooks.yaml");
    let hooks = hooks.as_vec().unwrap();
    let ids: Vec<&str> = hooks.iter().map(|h| text(&h["id"])).collect();
    assert_eq!(ids, ["boardxml", "boardxml-cbf", "boardxml-cif"]);
    let work = workspace();
    let mut files = Vec::new();
    for dir in ["valid", "invalid", "invalid/cif"] {
        for e in std::fs::read_dir(work.path().join(dir)).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_file() {
                files.push(format!("{dir}/{}", e.file_name().to_string_lossy()));
            }
        }
    }
    std::fs::write(work.path().join("notes.txt"), "not a record").unwrap();
    files.push("notes.txt".into());
    files.sort();
    for hook in hooks {
        let id = text(&hook["id"]);
        // The boardxml on the PATH, installed --locked as README says: pre-commit's
        // `language: rust` would install without --locked.
        assert_eq!(text(&hook["language"]), "system", "{id}");
        // pre-commit reads `files` as a Python regex; these are in the common subset.
        let files_re = regex::Regex::new(text(&hook["files"])).unwrap();
        let picked: Vec<&String> = files.iter().filter(|f| files_re.is_match(f)).collect();
        let extensions: std::collections::BTreeSet<&str> = picked
            .iter()
            .map(|f| f.rsplit('.').next().unwrap())
            .collect();
        let expected: &[&str] = match id {
            "boardxml" => &["cbf", "cif"],
            "boardxml-cbf" => &["cbf"],
            _ => &["cif"],
        };
        assert_eq!(extensions.into_iter().collect::<Vec<_>>(), expected, "{id}");
        let entry: Vec<&str> = text(&hook["entry"]).split_whitespace().collect();
        assert_eq!(entry[0], "boardxml", "{id}");
        let args: Vec<&str> = hook["args"]
            .as_vec()
            .map(|a| a.iter().map(text).collect())
            .unwrap_or_default();
        for (subset, code) in [("valid/", 0), ("invalid/", 1)] {
            let chosen: Vec<&&String> = picked.iter().filter(|f| f.starts_with(subset)).collect();
            assert!(!chosen.is_empty(), "{id}: no {subset} file");
            let out = Command::new(env!("CARGO_BIN_EXE_boardxml"))
                .args(&entry[1..])
                .args(&args)
                .args(chosen.iter().map(|f| f.as_str()))
                .current_dir(work.path())
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(code), "{id} on {chosen:?}: {out:?}");
        }
    }
}

#[test]
fn the_readmes_workflow_and_pre_commit_config_are_yaml_that_use_what_exists() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let blocks: Vec<&str> = readme
        .split("```yaml\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
        .collect();
    assert_eq!(blocks.len(), 2, "the workflow and the pre-commit config");
    let workflow = &YamlLoader::load_from_str(blocks[0]).unwrap()[0];
    let action = load("action.yml");
    let inputs = action["inputs"].as_hash().unwrap();
    for step in workflow["jobs"]["validate"]["steps"].as_vec().unwrap() {
        if step["uses"]
            .as_str()
            .is_some_and(|u| u.starts_with("OWNER/boardxml@"))
        {
            for (k, _) in step["with"].as_hash().unwrap() {
                assert!(inputs.contains_key(k), "the action has no input {k:?}");
            }
        }
    }
    let config = &YamlLoader::load_from_str(blocks[1]).unwrap()[0];
    let hooks = load(".pre-commit-hooks.yaml");
    let ids: Vec<&str> = hooks
        .as_vec()
        .unwrap()
        .iter()
        .map(|h| text(&h["id"]))
        .collect();
    for hook in config["repos"][0]["hooks"].as_vec().unwrap() {
        assert!(ids.contains(&text(&hook["id"])), "{hook:?}");
    }
}
