"""What every client script prints: one line per check, and whether any failed."""

from __future__ import annotations

from typing import Any


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
