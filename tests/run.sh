#!/usr/bin/env bash
# The whole test suite, on a fresh machine: installs the real MCP clients the tests drive (into
# ignored folders of this repo), runs every Rust test (unit, integration, ui, doc), then the
# official MCP conformance suite over HTTP for both protocol revisions.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tests/clients/install.sh
cargo test --workspace --all-targets
cargo test --workspace --doc
bash tests/conformance/run.sh
