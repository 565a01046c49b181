#!/usr/bin/env bash
# Runs every XSD 1.0 schema test of the W3C XML Schema Test Suite
# (../shared/conformance/xsdtests.tar.gz) through `boardxml-codegen check`, in process
# (codegen/tests/xsts.rs, `full_suite`), and writes the scores into CONFORMANCE.md.
#   scripts/xsts.sh           scores; fails on a wrong answer not in the known failures
#                             (or a listed test that now passes)
#   scripts/xsts.sh --bless   also rewrites codegen/tests/xsts-known-failures.txt
#   scripts/xsts.sh --datatypes [--bless]
#                             only the instance tests of issue 15's datatype test sets
#                             (`datatype_instances`, sharded as the full run): prints the
#                             datatype share; --bless rewrites those sets' known failures
# Then every suite schema that `check` accepts is generated and compiled in one package
# (`accepted_schemas_compile`, a few minutes): no accepted schema may produce code that
# does not compile. Last, the instance tests: every group whose schema `check` accepts is
# generated into validators (`boardxml-codegen validator --sets`, shards of 250 sets, one
# release build each) that judge its documents (codegen/tests/xsts_instances.rs,
# `full_instance_suite`, about an hour on 2 cores, so only with --instances); the instance
# score and the datatype share go into CONFORMANCE.md, and with --bless the wrong verdicts
# into codegen/tests/xsts-instance-known-failures.txt.
#   scripts/xsts.sh [--bless] [--instances]
#   scripts/xsts.sh --xsd-version 1.1 [--bless] [--instances]
#                             the XSD 1.1 schema tests instead (check --xsd-version 1.1);
#                             with --instances also the XSD 1.1 instance tests
#                             (`full_instance_suite_1_1`: validators generated with
#                             --xsd-version 1.1; every applicable test counted, a schema
#                             check does not accept a wrong verdict), scores into
#                             CONFORMANCE.md, with --bless the wrong verdicts into
#                             codegen/tests/xsts-1.1-instance-known-failures.txt
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--datatypes" ]; then
  if [ "${2:-}" = "--bless" ]; then
    export BOARDXML_BLESS=1
  elif [ -n "${2:-}" ]; then
    echo "usage: scripts/xsts.sh --datatypes [--bless]" >&2
    exit 2
  fi
  # A debug harness (the validators are release builds either way): check is quick enough.
  exec cargo test -q -p boardxml-codegen --test xsts_instances -- --ignored --exact datatype_instances --nocapture
fi
export BOARDXML_XSTS_WRITE=1
instances=
version=1.0
while [ $# -gt 0 ]; do
  case "$1" in
    --bless) export BOARDXML_BLESS=1 ;;
    --instances) instances=1 ;;
    --xsd-version)
      version="${2:-}"
      shift
      ;;
    *) echo "usage: scripts/xsts.sh [--xsd-version 1.0|1.1] [--bless] [--instances]" >&2; exit 2 ;;
  esac
  shift
done
case "$version" in
  1.0) ;;
  1.1)
    # XSD 1.1's schema tests (full_suite_1_1): scores into CONFORMANCE.md's 1.1 block,
    # --bless rewrites codegen/tests/xsts-1.1-known-failures.txt.
    cargo test --release -q -p boardxml-codegen --test xsts -- --ignored --exact full_suite_1_1 --nocapture
    if [ -n "$instances" ]; then
      # The validators at opt-level 0: no verdict changes, the builds take a quarter of
      # the time (CONFORMANCE.md).
      CARGO_PROFILE_RELEASE_OPT_LEVEL=0 cargo test --release -q -p boardxml-codegen --test xsts_instances -- --ignored --exact full_instance_suite_1_1 --nocapture
    fi
    exit 0
    ;;
  *) echo "scripts/xsts.sh: --xsd-version is 1.0 or 1.1, not '$version'" >&2; exit 2 ;;
esac
cargo test --release -q -p boardxml-codegen --test xsts -- --ignored --exact full_suite --nocapture
cargo test --release -q -p boardxml-codegen --test xsts -- --ignored --exact accepted_schemas_compile --nocapture
if [ -n "$instances" ]; then
  cargo test --release -q -p boardxml-codegen --test xsts_instances -- --ignored --exact full_instance_suite --nocapture
fi
