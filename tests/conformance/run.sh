#!/usr/bin/env bash
# Runs the official MCP conformance suite (HTTP only; it needs Node 22) against
# examples/conformance, once for the 2025-11-25 requirements and once for 2026-07-28. Each run
# must match its baseline file exactly: a scenario outside the baseline that fails, or one in it
# that passes, fails the run. Pending scenarios we pass (`pending-passing.txt`) must pass too;
# pending ones we fail must be listed with their reason (`pending-failing.txt`), and judge.sh
# prints every failure with the reason it is expected. Extension scenarios, which no requirement
# set runs (`extensions-passing.txt`: the Skills extension's), must pass by name in both eras.
# Needs `bash tests/clients/install.sh` first (it installs Node 22).
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/tests/conformance"
node22="$root/.tools/node22/node_modules/node/bin/node"
port="${CONFORMANCE_PORT:-3917}"
say() { printf 'conformance: %s\n' "$*" >&2; }

[[ -x "$node22" ]] || { say "no Node 22 at $node22: run bash tests/clients/install.sh"; exit 1; }

stamp="$here/node_modules/.installed-from"
want="$(sha256sum "$here/package.json" "$here/package-lock.json" | sha256sum | cut -d' ' -f1)"
if [[ "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
    say "npm: installing the suite into tests/conformance/node_modules"
    (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" >"$stamp"
fi
suite="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"

# Built here unless the caller built it (`tests/run.sh` did, and runs this beside other cargo
# commands: waiting for their lock on the build directory would undo running beside them).
if [[ -z "${MCP_TOOLBELT_TESTS_PREBUILT:-}" || ! -x "$root/target/debug/examples/conformance" ]]; then
    cargo build --quiet --example conformance
fi
server_log="$(mktemp)"
# Early answers on: the suite's input-required-result-ignore-extra-params answers a question
# before any round asked it (see `Server::accept_early_answers`).
CONFORMANCE_EARLY_ANSWERS=1 "$root/target/debug/examples/conformance" --http "127.0.0.1:$port" 2>"$server_log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
# Our server must be the one listening: if it exits (the port is taken), nothing is tested.
listening=""
for _ in $(seq 100); do
    kill -0 "$server" 2>/dev/null || { say "the server exited: $(cat "$server_log")"; exit 1; }
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && { listening=1; break; }
    sleep 0.1
done
[[ -n "$listening" ]] || { say "the server is not listening on port $port after 10 s"; exit 1; }

status=0
work="$(mktemp -d)" # the suite writes results/ into its working directory
for requirements in 2025-11-25 2026-07-28; do
    say "requirements $requirements"
    output="$work/suite-$requirements.txt"
    pending=/dev/null
    [[ "$requirements" == 2026-07-28 ]] && pending="$here/pending-failing.txt"
    # The suite's own verdict scores only the scenarios it does not run as pending; judge.sh
    # then says what was judged, each failure with the reason it is expected, or fails.
    if ! (cd "$work" && "$node22" "$suite" server --url "http://127.0.0.1:$port/mcp" \
        --requirements "$requirements" --expected-failures "$here/baseline-$requirements.yml" \
        2>&1 | tee "$output"); then
        status=1
        say "requirements $requirements: the suite FAILED (server log: $server_log)"
    fi
    say "requirements $requirements: what was judged"
    bash "$here/judge.sh" "$output" "$here/baseline-$requirements.yml" "$pending" >&2 || status=1
done
# Scenarios the 2026-07-28 requirement set runs as *pending* (not scored against a baseline,
# because the reference fixture cannot pass them yet) that this server passes: each must pass
# on its own, so a regression fails the run.
while read -r scenario; do
    [[ -z "$scenario" || "$scenario" == \#* ]] && continue
    say "pending scenario $scenario"
    if ! (cd "$work" && "$node22" "$suite" server --url "http://127.0.0.1:$port/mcp" \
        --scenario "$scenario" >"$work/$scenario.log" 2>&1); then
        status=1
        say "$scenario: FAILED ($work/$scenario.log; server log: $server_log)"
    fi
done <"$here/pending-passing.txt"
# Extension scenarios, which no requirement set runs: each by name, in both eras.
while read -r scenario; do
    [[ -z "$scenario" || "$scenario" == \#* ]] && continue
    for version in 2026-07-28 2025-11-25; do
        say "extension scenario $scenario at $version"
        if ! (cd "$work" && "$node22" "$suite" server --url "http://127.0.0.1:$port/mcp" \
            --scenario "$scenario" --spec-version "$version" --force \
            >"$work/$scenario-$version.log" 2>&1); then
            status=1
            say "$scenario at $version: FAILED ($work/$scenario-$version.log; server log: $server_log)"
        fi
    done
done <"$here/extensions-passing.txt"
exit "$status"
