#!/usr/bin/env bash
# Runs every XSD 1.0 schema test of the W3C XML Schema Test Suite
# (../shared/conformance/xsdtests.tar.gz) through `boardxml-codegen check`, in process
# (codegen/tests/xsts.rs, `full_suite`), and writes the scores into CONFORMANCE.md.
#   scripts/xsts.sh           scores; fails on a wrong answer not in the known failures
#                             (or a listed test that now passes)
#   scripts/xsts.sh --bless   also rewrites codegen/tests/xsts-known-failures.txt
# Then every suite schema that `check` accepts is generated and compiled in one package
# (`accepted_schemas_compile`, a few minutes): no accepted schema may produce code that
# does not compile. Last, the instance tests: every group whose schema `check` accepts is
# generated into validators (`boardxml-codegen validator --sets`, shards of 250 sets, one
# release build each) that judge its documents (codegen/tests/xsts_instances.rs,
# `full_instance_suite`, about an hour on 2 cores, so only with --instances); the instance
# score and the datatype share go into CONFORMANCE.md, and with --bless the wrong verdicts
# into codegen/tests/xsts-instance-known-failures.txt.
#   scripts/xsts.sh [--bless] [--instances]
set -euo pipefail
cd "$(dirname "$0")/.."
export BOARDXML_XSTS_WRITE=1
instances=
for arg in "$@"; do
  case "$arg" in
    --bless) export BOARDXML_BLESS=1 ;;
    --instances) instances=1 ;;
    *) echo "usage: scripts/xsts.sh [--bless] [--instances]" >&2; exit 2 ;;
  esac
done
cargo test --release -q -p boardxml-codegen --test xsts -- --ignored --exact full_suite --nocapture
cargo test --release -q -p boardxml-codegen --test xsts -- --ignored --exact accepted_schemas_compile --nocapture
if [ -n "$instances" ]; then
  cargo test --release -q -p boardxml-codegen --test xsts_instances -- --ignored --exact full_instance_suite --nocapture
fi
