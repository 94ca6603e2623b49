"""Drives the apps example (MCP Apps: tools with views) with the official Python client (PyPI `mcp`
2.x, `mcp.Client`), over stdio or Streamable HTTP. It does not declare the extension, as a host
without views: the tools are listed all the same and their results stand alone as text.

    tests/clients/.venv/bin/python tests/clients/py_apps.py <auto|legacy|modern> <server command> [args...]
    tests/clients/.venv/bin/python tests/clients/py_apps.py <auto|legacy|modern> --url http://127.0.0.1:PORT/mcp

One line per check; exit 1 if any failed.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from checks import Checks, text

MODES = {"auto": "auto", "legacy": "legacy", "modern": "2026-07-28"}
VIEW_MIME_TYPE = "text/html;profile=mcp-app"


async def run(mode: str, server: Any, check: Checks) -> None:
    with anyio.fail_after(60):
        async with Client(server, mode=mode, read_timeout_seconds=20) as client:
            listed = await client.list_tools()
            tools = {tool.name: tool for tool in listed.tools}
            albums = tools.get("show-albums")
            meta = (albums.meta or {}) if albums else {}
            check("show-albums names its view", meta.get("ui", {}).get("resourceUri") == "ui://albums/view.html", meta)
            check("show-albums has the deprecated flat key", meta.get("ui/resourceUri") == "ui://albums/view.html", meta)
            review = tools.get("review")
            check("review is listed, for the app only", review is not None and review.meta == {"ui": {"visibility": ["app"]}}, review)

            resources = (await client.list_resources()).resources
            for uri in ["ui://albums/view.html", "ui://review/purchase.html"]:
                entry = next((resource for resource in resources if str(resource.uri) == uri), None)
                check(f"{uri} is listed as a view", entry is not None and entry.mime_type == VIEW_MIME_TYPE, entry)
                contents = (await client.read_resource(uri)).contents
                first = contents[0] if contents else None
                check(
                    f"{uri} reads as HTML with its MIME type",
                    len(contents) == 1
                    and first.mime_type == VIEW_MIME_TYPE
                    and getattr(first, "text", "").startswith("<!doctype html>")
                    and (first.meta or {}).get("ui", {}).get("prefersBorder") is True,
                    first,
                )
            try:
                await client.read_resource("ui://no/such/view.html")
                check("an unknown URI is an error", False)
            except MCPError as error:
                check("an unknown URI is -32602", error.error.code == -32602, error.error)

            result = await client.call_tool("show-albums", {})
            check("show-albums gives the albums", not result.is_error and len((result.structured_content or {}).get("albums", [])) == 3, result)
            result = await client.call_tool("review-purchase", {"item": "Espresso cup", "quantity": 3})
            check(
                "review-purchase says the order in words to a host without views",
                not result.is_error and "3 × Espresso cup" in text(result) and "Ask the user to confirm" in text(result),
                result,
            )
            arguments = {"action": "purchase", "decidedAt": "2026-12-01T12:00:00Z"}
            result = await client.call_tool("review", {**arguments, "confirmed": True, "payload": {"item": "Espresso cup"}})
            check("review confirmed", text(result) == "Completed." and (result.structured_content or {}).get("status") == "completed", result)
            result = await client.call_tool("review", {**arguments, "confirmed": False})
            check("review cancelled", text(result) == "Cancelled." and (result.structured_content or {}).get("status") == "cancelled", result)


def main() -> int:
    arguments = sys.argv[1:]
    if len(arguments) < 2 or arguments[0] not in MODES:
        print(f"usage: py_apps.py <{'|'.join(MODES)}> (<server command> [args...] | --url URL)", file=sys.stderr)
        return 2
    mode_name, target = arguments[0], arguments[1:]
    if target[0] == "--url":
        server: Any = target[1]
        transport = "http"
    else:
        server = StdioServerParameters(command=target[0], args=target[1:], env=dict(os.environ))
        transport = "stdio"
    check = Checks(f"py-apps/{transport}/{mode_name}")
    try:
        anyio.run(run, MODES[mode_name], server, check)
    except Exception as error:  # noqa: BLE001 - any failure is reported as one
        check.failed = True
        print(f"FAIL {check.label} unexpected error: {error!r}", flush=True)
    print(f"{check.label}: {'FAILED' if check.failed else 'all checks passed'}", flush=True)
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
