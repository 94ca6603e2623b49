#!/usr/bin/env bash
# The whole test suite, on a fresh machine: installs the real MCP clients the tests drive (into
# ignored folders of this repo), runs every Rust test (unit, integration, ui, doc), the tool-call
# tests once more as a release build runs them, the runtime's own tests once more without its
# `http` feature (a stdio-only server), then the official MCP
# conformance suite over HTTP for both protocol revisions.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tests/clients/install.sh
# Headless Chromium for the MCP Apps views (tests/tests/views.rs): Debian's `chromium`. Without
# it (no apt-get, not root) the view tests say SKIPPED, and fail under CI.
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null && [[ -z "${CHROMIUM:-}" ]]; then
  sudo=""; [[ "$(id -u)" == 0 ]] || sudo="sudo"
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium; } >&2; then
    echo "run.sh: could not install chromium: the MCP Apps view tests will be skipped (failed under CI)" >&2
  fi
fi
# Redis and nginx for the replica tests (tests/tests/replicas.rs): Debian's `redis-server` and
# `nginx`, each test starting its own instances on free ports (never the system services, which
# are left stopped). Without them (no apt-get, not root) those tests say SKIPPED, and fail under CI.
missing=()
command -v redis-server >/dev/null || [[ -x /usr/bin/redis-server ]] || missing+=(redis-server)
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || missing+=(nginx)
if (( ${#missing[@]} )); then
  sudo=""; [[ "$(id -u)" == 0 ]] || sudo="sudo"
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >&2; then
    echo "run.sh: could not install ${missing[*]}: the replica tests will be skipped (failed under CI)" >&2
  fi
  # Debian starts the services it installs: the tests need neither (they start their own).
  for service in "${missing[@]}"; do
    $sudo systemctl disable --now "$service" >/dev/null 2>&1 || $sudo service "$service" stop >/dev/null 2>&1 || true
  done
fi
# Every test (unit, integration, UI, the benchmarks' smoke runs) under cargo-nextest, several
# at once (.config/nextest.toml), the examples they run built first; then the doc tests, which
# nextest does not run.
command -v cargo-nextest >/dev/null || cargo install --locked cargo-nextest
cargo build -p mcp-toolbelt-examples --examples
cargo build -p mcp-toolbelt-example-notes --bins
MCP_TOOLBELT_TESTS_PREBUILT=1 cargo nextest run --workspace --all-targets
cargo test --workspace --doc
# The code paths only release builds take (the argument parse and the result's serialization at
# full speed, tracked only on failure): the runtime's tests and the tool-call tests again, built
# with debug assertions off (the `release-paths` profile: no optimisation, no debug info).
cargo build --profile release-paths -p mcp-toolbelt-examples --example catalog
cargo test --profile release-paths -p mcp-toolbelt --lib -p mcp-toolbelt-tests --test validation \
  --test results --test properties --test schemas --test schema_hatches --test stdio_wire \
  --test output_schema_off
# A stdio-only server: without the `http` feature, no axum, hyper or tower-http is compiled.
if cargo tree -p mcp-toolbelt --no-default-features -e normal | grep -E '^[^a-z]*(axum|hyper|tower-http) '; then
  echo "run.sh: --no-default-features still pulls in an HTTP stack" >&2
  exit 1
fi
cargo test -p mcp-toolbelt --no-default-features --lib --test stdio_only
bash tests/conformance/run.sh
