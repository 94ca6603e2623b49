#!/usr/bin/env bash
# Runs the Python peer (arguments passed on) with the venv's interpreter.
here="$(dirname "$0")"
exec "$here/.venv/bin/python" "$here/catalog.py" "$@"
