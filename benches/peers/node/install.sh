#!/usr/bin/env bash
# Installs the TypeScript peer's packages (package-lock.json) into benches/peers/node/node_modules
# (ignored by git). Idempotent. Needs node (>= 20) and npm.
set -euo pipefail
cd "$(dirname "$0")"
stamp=node_modules/.installed-from
want="$(sha256sum package.json package-lock.json | sha256sum | cut -d' ' -f1)"
if [[ ! -f node_modules/@modelcontextprotocol/server/package.json || "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
    npm ci --no-audit --no-fund --loglevel=error
    echo "$want" >"$stamp"
fi
