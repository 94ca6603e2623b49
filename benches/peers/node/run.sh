#!/usr/bin/env bash
# Runs the TypeScript peer (arguments passed on): node, not npx, so that nothing but the server runs.
exec node "$(dirname "$0")/catalog.mjs" "$@"
