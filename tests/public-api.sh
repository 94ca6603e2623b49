#!/usr/bin/env bash
# The public API of `mcp-toolbelt` as `cargo public-api` lists it (features `http`, `otel`, `redis` and `oauth`, not
# `fuzzing`; `#[doc(hidden)]` items left out; blanket impls omitted, since they follow dependencies'
# versions rather than ours), compared with the committed `runtime/public-api.txt`: a change to the
# API shows in review as a change to that file. `UPDATE_PUBLIC_API=1` writes the file instead.
#
# cargo-public-api reads rustdoc's JSON, which only a nightly toolchain writes: the script
# installs both when missing (the tool pinned and `--locked`, into Cargo's bin folder).
set -euo pipefail
cd "$(dirname "$0")/.."

version=0.52.0
# Installed into Cargo's own bin folder (the system's, like `rustup`'s nightly below), so a fresh
# clone on a machine that ran this once does not build it again (minutes).
tool="${CARGO_HOME:-$HOME/.cargo}/bin/cargo-public-api"

installed() { [ -x "$tool" ] && [ "$("$tool" --version 2>/dev/null)" = "cargo-public-api $version" ]; }

if ! installed; then
    cargo install --locked --version "$version" cargo-public-api
fi
# A dated nightly: rustdoc's JSON format, and the unstable auto traits (`Freeze`, `UnsafeUnpin`)
# it lists, change between nightlies; cargo-public-api 0.52.0 reads this one's.
toolchain=nightly-2026-05-20
if ! rustup run "$toolchain" rustc --version >/dev/null 2>&1; then
    rustup toolchain install "$toolchain" --profile minimal
fi
export RUSTUP_TOOLCHAIN=$toolchain

expected=runtime/public-api.txt
actual=target/public-api.txt
mkdir -p target
"$tool" public-api --package mcp-toolbelt --features http,otel,redis,oauth --simplified --color never \
    >"$actual"

if [ "${UPDATE_PUBLIC_API:-}" = 1 ]; then
    cp "$actual" "$expected"
    echo "public API written to $expected"
elif ! diff -u "$expected" "$actual"; then
    echo "The public API of mcp-toolbelt differs from $expected (above: - committed, + now)." >&2
    echo "If the change is meant, accept it with: UPDATE_PUBLIC_API=1 bash tests/public-api.sh" >&2
    echo "and commit $expected with the change (a removal or change breaks users: say why)." >&2
    exit 1
fi
