"""What every client script prints: one line per check, and whether any failed; and the `main` they share."""

from __future__ import annotations

import os
import sys
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import anyio
from mcp.client.stdio import StdioServerParameters


class Checks:
    def __init__(self, label: str) -> None:
        self.label = label
        self.failed = False

    def __call__(self, name: str, condition: bool, detail: Any = None) -> bool:
        if condition:
            print(f"ok   {self.label} {name}", flush=True)
        else:
            self.failed = True
            suffix = "" if detail is None else f": {detail!r}"
            print(f"FAIL {self.label} {name}{suffix}", flush=True)
        return condition


def text(result: Any) -> str:
    """The text blocks of a tool result, one per line."""
    return "\n".join(block.text for block in result.content if block.type == "text")


def main(
    script: str,
    modes: Iterable[str],
    label: str,
    run: Callable[[str, str | StdioServerParameters, Checks], Awaitable[None]],
) -> int:
    """The `main` of a script run as `script <mode> (<server command> [args...] | --url URL)`:
    `run(mode, server, check)` with the URL or the command to start (with this environment), under
    the checks labelled `label` (`{transport}` and `{mode}` filled in); an error it raises is a
    failed check. Prints the verdict; returns the exit status (1 if any check failed)."""
    modes = list(modes)
    arguments = sys.argv[1:]
    if len(arguments) < 2 or arguments[0] not in modes or (arguments[1] == "--url" and len(arguments) != 3):
        print(f"usage: {script} <{'|'.join(modes)}> (<server command> [args...] | --url URL)", file=sys.stderr)
        return 2
    mode, target = arguments[0], arguments[1:]
    server: str | StdioServerParameters
    if target[0] == "--url":
        server, transport = target[1], "http"
    else:
        server, transport = StdioServerParameters(command=target[0], args=target[1:], env=dict(os.environ)), "stdio"
    check = Checks(label.format(transport=transport, mode=mode))
    try:
        anyio.run(run, mode, server, check)
    except Exception as error:  # noqa: BLE001 - any failure is reported as one
        check.failed = True
        print(f"FAIL {check.label} unexpected error: {error!r}", flush=True)
    print(f"{check.label}: {'FAILED' if check.failed else 'all checks passed'}", flush=True)
    return 1 if check.failed else 0
