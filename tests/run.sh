#!/usr/bin/env bash
# The whole test suite, on a fresh machine: installs the real MCP clients the tests drive (into
# ignored folders of this repo), runs every Rust test (unit, integration, ui, doc), the runtime's
# own tests once more without its `http` feature (a stdio-only server), then the official MCP
# conformance suite over HTTP for both protocol revisions.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tests/clients/install.sh
cargo test --workspace --all-targets
cargo test --workspace --doc
# A stdio-only server: without the `http` feature, no axum, hyper or tower-http is compiled.
if cargo tree -p mcp-toolbelt --no-default-features -e normal | grep -E '^[^a-z]*(axum|hyper|tower-http) '; then
  echo "run.sh: --no-default-features still pulls in an HTTP stack" >&2
  exit 1
fi
cargo test -p mcp-toolbelt --no-default-features --lib --test stdio_only
bash tests/conformance/run.sh
