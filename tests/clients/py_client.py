"""Drives an MCP server with the official Python client (PyPI `mcp` 2.x, `mcp.Client`), over stdio or
Streamable HTTP.

    tests/clients/.venv/bin/python tests/clients/py_client.py <auto|legacy|modern> <server command> [args...]
    tests/clients/.venv/bin/python tests/clients/py_client.py <auto|legacy|modern> --url http://127.0.0.1:PORT/mcp

auto (the SDK's default): `server/discover` probe, fallback to `initialize`; legacy: the `initialize`
handshake; modern: adopt 2026-07-28 directly. The server is expected to be the catalog example with
CATALOG_TEST_TOOLS=1 (for the `wait` tool). One line per check; exit 1 if any failed.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from checks import Checks, text

MODES: dict[str, tuple[str, str]] = {
    # mode name: (the Client's `mode=`, the protocol version expected to be negotiated)
    "auto": ("auto", "2026-07-28"),
    "legacy": ("legacy", "2025-11-25"),
    "modern": ("2026-07-28", "2026-07-28"),
}
CATALOG_TOOLS = ["search", "product-details", "get-weather", "echo", "clear-catalog"]


class Complaints(logging.Handler):
    """Collects what the SDK logs at WARNING and above (stray responses, bad notifications, ...)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(f"{record.name}: {record.getMessage()}")


class Wire:
    """Over HTTP: each request the transport made, the JSON-RPC message it carried, and the status
    of its response (None while none came)."""

    def __init__(self) -> None:
        self.exchanges: list[dict[str, Any]] = []

    async def on_request(self, request: httpx2.Request) -> None:
        message = json.loads(request.content) if request.method == "POST" else None
        self.exchanges.append({"request": request, "method": request.method, "message": message, "status": None})

    async def on_response(self, response: httpx2.Response) -> None:
        for exchange in self.exchanges:
            if exchange["request"] is response.request:
                exchange["status"] = response.status_code
                exchange["content_type"] = response.headers.get("content-type", "")

    def posts(self, method: str, name: str | None = None) -> list[dict[str, Any]]:
        return [
            exchange
            for exchange in self.exchanges
            if (exchange["message"] or {}).get("method") == method
            and (name is None or exchange["message"].get("params", {}).get("name") == name)
        ]


async def run(mode_name: str, server: str | StdioServerParameters, check: Checks, complaints: Complaints) -> None:
    with anyio.fail_after(60):
        if isinstance(server, str):
            # The SDK's Streamable HTTP transport, as `Client(url)` makes it, on an HTTP client that
            # records the wire (with the timeouts of the SDK's own).
            wire = Wire()
            hooks = {"request": [wire.on_request], "response": [wire.on_response]}
            async with httpx2.AsyncClient(timeout=httpx2.Timeout(30, read=300), event_hooks=hooks) as http:
                await run_checks(mode_name, streamable_http_client(server, http_client=http), check, wire)
        else:
            await run_checks(mode_name, server, check, None)
    check("the SDK logged no complaints", not complaints.records, complaints.records)


async def run_checks(mode_name: str, server: Any, check: Checks, wire: Wire | None) -> None:
    mode, version = MODES[mode_name]
    async with Client(server, mode=mode, read_timeout_seconds=20) as client:
        check("protocol version", client.protocol_version == version, client.protocol_version)
        # A pinned modern client adopts a synthesized discover result: nothing from the server yet.
        if mode_name != "modern":
            info = client.server_info
            check("server info", info is not None and info.name == "catalog", info)
            check("server advertises tools", client.server_capabilities.tools is not None, client.server_capabilities)

        listed = await client.list_tools()
        names = [tool.name for tool in listed.tools]
        check("tools/list has the catalog tools", all(name in names for name in CATALOG_TOOLS), names)
        tools = {tool.name: tool for tool in listed.tools}
        search = tools.get("search")
        query = (search.input_schema.get("properties") or {}).get("query") if search else None
        check("search inputSchema has query", query is not None and query.get("type") == "string", search)
        check(
            "search is read-only",
            search is not None and search.annotations is not None and search.annotations.read_only_hint is True,
            search,
        )
        weather = tools.get("get-weather")
        check(
            "get-weather has title and outputSchema",
            weather is not None and weather.title == "Get Weather" and (weather.output_schema or {}).get("type") == "object",
            weather,
        )
        icons = (weather.icons or []) if weather else []
        check(
            "get-weather icons: a URL and a data: URI",
            len(icons) == 2
            and (icons[0].src, icons[0].mime_type, icons[0].sizes) == ("https://example.com/icons/weather.png", "image/png", ["48x48"])
            and icons[1].src.startswith("data:image/svg+xml;base64,")
            and icons[1].theme == "light"
            and icons[1].sizes == ["any"],
            icons,
        )

        result = await client.call_tool("search", {"query": "mug"})
        check("search", not result.is_error and text(result) == "Travel mug\nMug rack", result)
        result = await client.call_tool("search", {"query": "mug", "limit": 1})
        check("search with limit", not result.is_error and text(result) == "Travel mug", result)
        result = await client.call_tool("product-details", {"name": "Travel mug"})
        check(
            "product-details structuredContent",
            not result.is_error and result.structured_content == {"name": "Travel mug", "price": 24},
            result,
        )
        check("product-details text is its JSON", json.loads(text(result) or "null") == result.structured_content, result)
        result = await client.call_tool("product-details", {"name": "Teapot"})
        check("product-details unknown name is isError", result.is_error and "Teapot" in text(result), result)
        result = await client.call_tool("get-weather", {"location": "Paris"})
        check(
            "get-weather",
            not result.is_error
            and result.structured_content == {"temperatureC": 22, "summary": "Paris: partly cloudy"},
            result,
        )
        result = await client.call_tool("echo", {"message": "hello, world"})
        check("echo", not result.is_error and text(result) == "hello, world", result)
        result = await client.call_tool("clear-catalog", {})
        check("clear-catalog", not result.is_error and text(result) == "Catalog cleared", result)

        # Arguments that fail the input schema: a tool execution error, not a protocol error.
        result = await client.call_tool("search", {"query": "mug", "limit": "x"})
        check(
            "invalid arguments are isError",
            result.is_error and text(result).startswith("Input validation error: Invalid arguments for tool search:"),
            result,
        )
        # An unknown tool: a JSON-RPC error.
        try:
            result = await client.call_tool("no-such-tool", {})
            check("unknown tool is a protocol error", False, result)
        except MCPError as error:
            check(
                "unknown tool is a protocol error",
                error.code == -32602 and "no-such-tool" in error.message,
                (error.code, error.message),
            )

        # Progress: the SDK sets a progressToken when given a callback.
        progress: list[tuple[float, float | None, str | None]] = []

        async def on_progress(value: float, total: float | None, message: str | None) -> None:
            progress.append((value, total, message))

        result = await client.call_tool("search", {"query": "cup"}, progress_callback=on_progress)
        check("search with progress", not result.is_error and text(result) == "Espresso cup", result)
        check("progress notifications arrived", len(progress) >= 1, progress)
        check("progress increases", all(b[0] > a[0] for a, b in zip(progress, progress[1:])), progress)
        check("progress has total 3", all(total == 3 for _, total, _ in progress), progress)
        if wire is not None:
            post = wire.posts("tools/call", "search")[-1]
            check(
                "progress came on an SSE stream",
                post["status"] == 200 and post["content_type"].startswith("text/event-stream"),
                post,
            )

        # Cancellation: cancel the anyio scope a long call runs in.
        scope = anyio.CancelScope()
        outcome: list[Any] = []

        async def call_wait() -> None:
            with scope:
                outcome.append(await client.call_tool("wait", {"seconds": 30}))

        started = time.monotonic()
        async with anyio.create_task_group() as group:
            group.start_soon(call_wait)
            await anyio.sleep(0.3)
            scope.cancel()
        elapsed = time.monotonic() - started
        check("wait is cancelled", scope.cancelled_caught and not outcome, outcome)
        check("cancellation is quick", elapsed < 5, f"{elapsed:.1f} s")
        if wire is not None:
            await check_http_cancellation(wire, version, check)
        result = await client.call_tool("echo", {"message": "still here"})
        check("server still serves after the cancel", not result.is_error and text(result) == "still here", result)
        # A late response to the cancelled request would be logged by the SDK; give it a moment.
        await anyio.sleep(0.2)


async def check_http_cancellation(wire: Wire, version: str, check: Checks) -> None:
    """What the cancellation of `wait` looked like on the wire."""
    post = wire.posts("tools/call", "wait")[0]
    cancels = wire.posts("notifications/cancelled")
    if version >= "2026-07-28":
        # Closing the call's response stream is the cancellation; nothing else is sent.
        check("no notifications/cancelled in 2026-07-28", not cancels, cancels)
        check("the call's POST got no response", post["status"] is None, post)
        return
    request_id = post["message"]["id"]
    check(
        "notifications/cancelled sent for it",
        [cancel["message"]["params"]["requestId"] for cancel in cancels] == [request_id],
        cancels,
    )
    # The server stops the call: its POST is answered with an event stream that ends without a
    # response (a response would be logged by the SDK as one for an unknown request). A server that
    # ignored the cancel would keep the POST open for the 30 s the tool waits.
    with anyio.move_on_after(2):
        while post["status"] is None:
            await anyio.sleep(0.02)
    check(
        "the call's POST was answered with an event stream",
        post["status"] == 200 and post.get("content_type", "").startswith("text/event-stream"),
        post,
    )


def main() -> int:
    arguments = sys.argv[1:]
    if len(arguments) < 2 or arguments[0] not in MODES or (arguments[1] == "--url" and len(arguments) != 3):
        usage = f"usage: py_client.py <{'|'.join(MODES)}> (<server command> [args...] | --url URL)"
        print(usage, file=sys.stderr)
        return 2
    mode_name, target = arguments[0], arguments[1:]
    server: str | StdioServerParameters
    if target[0] == "--url":
        # A URL: the SDK's Streamable HTTP transport.
        server, transport = target[1], "http"
    else:
        # The SDK hands the child only a few "safe" variables by default; the catalog needs ours.
        server, transport = StdioServerParameters(command=target[0], args=target[1:], env=dict(os.environ)), "stdio"
    check = Checks(f"py/{transport}/{mode_name}")
    complaints = Complaints()
    logging.getLogger("mcp").addHandler(complaints)
    try:
        anyio.run(run, mode_name, server, check, complaints)
    except Exception as error:  # noqa: BLE001 - any failure is reported as one
        check.failed = True
        print(f"FAIL {check.label} unexpected error: {error!r}", flush=True)
    print(f"{check.label}: {'FAILED' if check.failed else 'all checks passed'}", flush=True)
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
