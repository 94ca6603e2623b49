"""Meets a server's rate limit with the official Python client (PyPI `mcp` 2.x: `mcp.Client` on the SDK's
own Streamable HTTP transport, `streamable_http_client`, or over stdio), as an application would: calls
until one is refused, checks what the SDK raised, waits what the server said, and calls again.

    py_rate_limit.py <legacy|modern> --url URL                  # limited --http ... --rate-limit 3/s
    py_rate_limit.py <legacy|modern> <server command> [args...] # limited --rate-limit 3/s

The server is `tests/src/bin/limited.rs` (its `echo` tool) with `--rate-limit 3/s`. The SDK raises the
refusal as `MCPError` (code `-32029`, `data.retryAfterMs`); over HTTP it reads the JSON-RPC error in
the `429`'s body and shows neither the status nor `Retry-After`, so the script reads those through an
httpx event hook on the SDK's HTTP client. One line per check; exit 1 if any failed.
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from checks import Checks, text, main

MODES: dict[str, tuple[str, str]] = {
    # mode name: (the Client's `mode=`, the protocol version expected to be negotiated)
    "legacy": ("legacy", "2025-11-25"),
    "modern": ("2026-07-28", "2026-07-28"),
}
LIMIT = "3/s"
# At 3/s a request's place comes back every 334 ms at most.
MAX_RETRY_AFTER_MS = 334
MAX_CALLS = 50


class Wire:
    """Over HTTP: each POST's JSON-RPC message, session header, status and `Retry-After`."""

    def __init__(self) -> None:
        self.posts: list[dict[str, Any]] = []

    async def on_request(self, request: httpx2.Request) -> None:
        if request.method == "POST":
            self.posts.append(
                {
                    "request": request,
                    "message": json.loads(request.content),
                    "session": request.headers.get("mcp-session-id"),
                    "status": None,
                    "retry_after": None,
                }
            )

    async def on_response(self, response: httpx2.Response) -> None:
        for post in self.posts:
            if post["request"] is response.request:
                post["status"] = response.status_code
                post["retry_after"] = response.headers.get("retry-after")

    def call(self, request_id: Any) -> dict[str, Any] | None:
        """The POST of the `tools/call` with `request_id`."""
        for post in self.posts:
            message = post["message"]
            if message.get("method") == "tools/call" and message.get("id") == request_id:
                return post
        return None

    def last_call(self) -> dict[str, Any] | None:
        calls = [post for post in self.posts if post["message"].get("method") == "tools/call"]
        return calls[-1] if calls else None


async def run(mode_name: str, server: str | StdioServerParameters, check: Checks) -> None:
    with anyio.fail_after(30):
        if isinstance(server, str):
            wire = Wire()
            hooks = {"request": [wire.on_request], "response": [wire.on_response]}
            async with httpx2.AsyncClient(timeout=httpx2.Timeout(30, read=300), event_hooks=hooks) as http:
                await run_checks(mode_name, streamable_http_client(server, http_client=http), check, wire)
        else:
            await run_checks(mode_name, server, check, None)


async def run_checks(mode_name: str, server: Any, check: Checks, wire: Wire | None) -> None:
    mode, version = MODES[mode_name]
    async with Client(server, mode=mode, read_timeout_seconds=20) as client:
        check("protocol version", client.protocol_version == version, client.protocol_version)
        # Listed first, so the SDK does not list by itself after the first call (to learn its
        # output schema), which would spend a request of the budget.
        names = [tool.name for tool in (await client.list_tools()).tools]
        check("echo is listed", "echo" in names, names)

        refused: MCPError | None = None
        answered = 0
        for attempt in range(MAX_CALLS):
            try:
                result = await client.call_tool("echo", {"text": f"call {attempt}"})
            except MCPError as error:
                refused = error
                break
            if not check(f"call {attempt} answered", not result.is_error and text(result) == f"call {attempt}", result):
                return
            answered += 1
        if not check(f"a burst past {LIMIT} is refused", refused is not None, f"{answered} calls answered"):
            return
        assert refused is not None
        print(f"info {check.label} after {answered} calls the SDK raised {type(refused).__qualname__}{refused.args!r}", flush=True)
        check("refused with MCPError code -32029", type(refused) is MCPError and refused.code == -32029, refused.error)
        check(
            "its message names the limit",
            refused.message.startswith(f"Rate limit exceeded: the server's limit is {LIMIT} per caller; retry after "),
            refused.message,
        )
        millis = refused.data.get("retryAfterMs") if isinstance(refused.data, dict) else None
        check(
            "data.retryAfterMs: the wait, in milliseconds",
            isinstance(millis, int) and 1 <= millis <= MAX_RETRY_AFTER_MS,
            refused.data,
        )
        if not isinstance(millis, int):
            return
        wait = millis / 1000
        if wire is not None:
            post = wire.last_call()
            status = post["status"] if post else None
            check("over HTTP: 429 Too Many Requests", status == 429, post)
            retry_after = post["retry_after"] if post else None
            check(
                "Retry-After: retryAfterMs in seconds, rounded up",
                retry_after == str(math.ceil(millis / 1000)),
                (retry_after, millis),
            )
            if retry_after is not None and retry_after.isdigit():
                wait = int(retry_after)
        await anyio.sleep(wait)

        result = await client.call_tool("echo", {"text": "after the wait"})
        check(
            "after the wait the next call is answered",
            not result.is_error and text(result) == "after the wait",
            result,
        )
        if wire is not None and mode_name == "legacy":
            first, last = wire.posts[0], wire.last_call()
            session = first["message"].get("method") == "initialize" and last is not None and last["session"]
            sessions = {post["session"] for post in wire.posts[1:]}
            check(
                "the session is kept: every request after initialize names the same one",
                bool(session) and sessions == {session},
                sessions,
            )


if __name__ == "__main__":
    sys.exit(main("py_rate_limit.py", MODES, "py/{transport}/{mode}/rate-limit", run))
