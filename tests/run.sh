#!/usr/bin/env bash
# The whole test suite, on a fresh machine: installs the real MCP clients the tests drive (into
# ignored folders of this repo), runs every Rust test (unit, integration, ui, doc), the runtime's
# own tests once more without its `http` feature (a stdio-only server), then the official MCP
# conformance suite over HTTP for both protocol revisions.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step prints how long it took, as `.ci/run`'s do.
step() {
  local start=$SECONDS
  "$@"
  echo "run.sh: $((SECONDS - start)) s: $*" >&2
}
step bash tests/clients/install.sh
# Headless Chromium for the MCP Apps views (tests/tests/served/views.rs): Debian's `chromium`. Without
# it (no apt-get, not root) the view tests say SKIPPED, and fail under CI.
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null && [[ -z "${CHROMIUM:-}" ]]; then
  sudo=""; [[ "$(id -u)" == 0 ]] || sudo="sudo"
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium; } >&2; then
    echo "run.sh: could not install chromium: the MCP Apps view tests will be skipped (failed under CI)" >&2
  fi
fi
# Redis and nginx for the replica tests (tests/tests/served/replicas.rs): Debian's `redis-server` and
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
# at once (.config/nextest.toml), the examples they run built first (in the workspace's feature
# set, so with the tests' own build of every crate); then the doc tests, which nextest does not
# run. The tests crate turns on the runtime's `release-paths`: the paths only release builds take
# are the ones tested (a debug build's are, by the stdio-only step below).
command -v cargo-nextest >/dev/null || cargo install --locked cargo-nextest
step cargo build --workspace --examples --bins
# `--tests --benches`, not `--all-targets`: every target with `test = true` (libraries, integration
# tests, the two examples with tests) and the benchmarks, but no test harness for the 46 programs
# that have no tests (`test = false`), which `--all-targets` (through `--bins`, `--examples`)
# builds and links all the same.
step env MCP_TOOLBELT_TESTS_PREBUILT=1 cargo nextest run --workspace --tests --benches
# The conformance suite (a Node client and our server, mostly waiting on each other: a quarter
# of the two cores) runs beside the doc tests and the stdio-only tests (both compiling), its
# output kept apart and shown after them.
conformance_log=target/conformance.log
conformance_started=$SECONDS
MCP_TOOLBELT_TESTS_PREBUILT=1 bash tests/conformance/run.sh >"$conformance_log" 2>&1 &
conformance=$!
# A step that fails ends this script: the suite is not left running behind it.
trap 'kill "$conformance" 2>/dev/null || true' EXIT
step cargo test --workspace --doc
# A stdio-only server: without the `http` feature, no axum, hyper or tower-http is compiled. The
# runtime's own tests run here in a debug build's paths too (without the tests crate's
# `release-paths`: the argument parse and result serialization a user's edit-compile loop takes).
if cargo tree -p mcp-toolbelt --no-default-features -e normal | grep -E '^[^a-z]*(axum|hyper|tower-http) '; then
  echo "run.sh: --no-default-features still pulls in an HTTP stack" >&2
  exit 1
fi
step cargo test -p mcp-toolbelt --no-default-features --lib --test stdio_only
conformance_status=0
wait "$conformance" || conformance_status=$?
trap - EXIT
cat "$conformance_log" >&2
echo "run.sh: $((SECONDS - conformance_started)) s (beside the tests above): bash tests/conformance/run.sh" >&2
if ((conformance_status)); then
  echo "run.sh: the conformance suite failed" >&2
  exit 1
fi
