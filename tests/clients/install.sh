#!/usr/bin/env bash
# Installs the real MCP clients the tests drive. Filled in by the real-clients work.
set -euo pipefail
