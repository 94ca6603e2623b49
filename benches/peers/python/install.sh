#!/usr/bin/env bash
# Installs the Python peer's SDK (requirements.txt, pinned) into benches/peers/python/.venv
# (ignored by git). Idempotent. Needs python3 (>= 3.10) with venv and pip.
set -euo pipefail
cd "$(dirname "$0")"
stamp=.venv/.installed-from
want="$(sha256sum requirements.txt | cut -d' ' -f1)"
if [[ ! -x .venv/bin/python || "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
    rm -rf .venv
    "${PYTHON:-python3}" -m venv .venv
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-input -r requirements.txt
    echo "$want" >"$stamp"
fi
