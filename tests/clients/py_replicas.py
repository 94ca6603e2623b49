"""Drives replicas of examples/replicas behind nginx (round robin, no stickiness, one Redis) with the
official Python client (PyPI `mcp` 2.x, `mcp.Client`) over Streamable HTTP. Every tool of the
example names the replica (its process id) that did the work.

    py_replicas.py <legacy|modern|kill|term> --url URL

legacy (2025-11-25): one session whose calls are spread over the replicas; its GET stream hears
  `tools/list_changed` raised on every replica; a tool that asks (elicitation), the answer POSTed
  through the balancer to whichever replica.
modern (2026-07-28): calls spread over the replicas; a question round whose retry (the answer and
  the sealed requestState) lands on another replica than the one that asked.
kill / term (2025-11-25): a call streaming progress; its replica is sent SIGKILL / SIGTERM (by
  this script: the pid is in the progress message) after a few events; the client resumes
  through nginx with `Last-Event-ID` and sees every event: with SIGTERM every step and the
  result, with SIGKILL the steps kept, then the -32603 error response.

One line per check; exit 1 if any failed. The line `signalled PID` says which replica was sent a
signal, for the test to check it exited.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from typing import Any

import anyio
import httpx2
from mcp import Client, MCPError, types
from mcp.client.streamable_http import streamable_http_client

from checks import Checks, text

MODES: dict[str, tuple[str, str]] = {
    "legacy": ("legacy", "2025-11-25"),
    "modern": ("2026-07-28", "2026-07-28"),
    "kill": ("legacy", "2025-11-25"),
    "term": ("legacy", "2025-11-25"),
}
SIGNALS = {"kill": signal.SIGKILL, "term": signal.SIGTERM}


def pid_in(value: str | None) -> int | None:
    """The pid a tool's text names ("... pid 1234 ...")."""
    found = re.search(r"pid (\d+)", value or "")
    return int(found.group(1)) if found else None


class Exchanges:
    """Every HTTP request the client makes: its method, its Last-Event-ID, its status."""

    def __init__(self) -> None:
        self.all: list[dict[str, Any]] = []

    async def request(self, request: httpx2.Request) -> None:
        self.all.append({"method": request.method, "last_event_id": request.headers.get("last-event-id"), "request": request})

    async def response(self, response: httpx2.Response) -> None:
        for exchange in reversed(self.all):
            if exchange["request"] is response.request:
                exchange["status"] = response.status_code
                break

    def seen(self) -> list[dict[str, Any]]:
        return [{key: value for key, value in exchange.items() if key != "request"} for exchange in self.all]


class Session:
    """One client through the balancer, and what it saw."""

    def __init__(self, mode_name: str) -> None:
        self.mode_name = mode_name
        self.asked: list[str] = []
        self.heard: list[str] = []
        self.exchanges = Exchanges()

    async def answer(self, _context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.asked.append(params.message)
        return types.ElicitResult(action="accept", content={"name": "Ada"})

    async def handler(self, message: Any) -> None:
        if getattr(message, "method", None) == "notifications/tools/list_changed":
            self.heard.append("tools/list_changed")

    def client(self, url: str) -> Client:
        http = httpx2.AsyncClient(
            timeout=httpx2.Timeout(30, read=300),
            event_hooks={"request": [self.exchanges.request], "response": [self.exchanges.response]},
        )
        return Client(
            streamable_http_client(url, http_client=http),
            mode=MODES[self.mode_name][0],
            read_timeout_seconds=30,
            elicitation_callback=self.answer,
            message_handler=self.handler,
        )


async def until(condition: Any, seconds: float) -> bool:
    with anyio.move_on_after(seconds):
        while not condition():
            await anyio.sleep(0.02)
    return bool(condition())


async def spread(client: Client, times: int) -> set[int | None]:
    """`whoami` called `times` times: the pids that answered."""
    return {pid_in(text(await client.call_tool("whoami", {}))) for _ in range(times)}


async def ask_name(client: Client, session: Session, check: Checks) -> str:
    session.asked.clear()
    result = await client.call_tool("ask_name", {})
    check("the tool that asks gets the answer", not result.is_error and text(result).startswith("Hello, Ada!"), result)
    check(
        "the question was asked once",
        len(session.asked) == 1 and session.asked[0].startswith("What is your name?"),
        session.asked,
    )
    return text(result)


async def legacy(client: Client, session: Session, check: Checks) -> None:
    pids = await spread(client, 6)
    check("the session was served by at least 2 replicas", len(pids) >= 2, pids)
    # The GET stream opens after `initialized`: wait for it, then raise a change on each replica
    # in turn (round robin), each heard on the one GET stream, wherever it is.
    get_open = lambda: any(e["method"] == "GET" and e.get("status") == 200 for e in session.exchanges.all)  # noqa: E731
    check("the GET stream is open", await until(get_open, 5), session.exchanges.seen())
    changed_on = set()
    for change in range(1, 7):
        said = text(await client.call_tool("change_tools", {}))
        changed_on.add(pid_in(said))
        heard = await until(lambda: len(session.heard) >= change, 5)
        check(f"list_changed {change} (raised on pid {pid_in(said)}) heard on the GET stream", heard, session.heard)
        if not heard:
            break
    check("the changes were raised on at least 2 replicas", len(changed_on) >= 2, changed_on)
    # Three times: each answer's POST goes through the balancer at another turn of the round
    # robin, so at least one reaches another replica than the one whose tool waits for it.
    for _ in range(3):
        await ask_name(client, session, check)
    gets = [e for e in session.exchanges.seen() if e["method"] == "GET"]
    check("one GET stream for the whole session", len(gets) == 1, gets)


async def modern(client: Client, session: Session, check: Checks) -> None:
    pids = await spread(client, 6)
    check("calls were served by at least 2 replicas", len(pids) >= 2, pids)
    # Round robin: the retry of a round goes to the next replica; try a few rounds so that one
    # asked on one replica is surely answered on another.
    crossed = False
    for _ in range(3):
        # The question names the replica whose round asked it; the result the one whose round
        # (the retry, with the answer) finished the call.
        said = await ask_name(client, session, check)
        asked_on = pid_in(session.asked[0]) if session.asked else None
        found = re.search(r"answered on pid (\d+)", said)
        if asked_on is not None and found and int(found.group(1)) != asked_on:
            crossed = True
            break
    check("a round asked on one replica was answered on another", crossed)


async def resume(client: Client, session: Session, check: Checks) -> None:
    steps = 30
    progress: list[float] = []
    signalled: list[int] = []

    async def on_progress(value: float, _total: float | None, message: str | None) -> None:
        progress.append(value)
        if value == 5 and not signalled:
            pid = pid_in(message)
            if pid is not None:
                signalled.append(pid)
                os.kill(pid, SIGNALS[session.mode_name])
                print(f"signalled {pid}", flush=True)

    result: types.CallToolResult | None = None
    error: MCPError | None = None
    try:
        result = await client.call_tool("count", {"steps": steps, "step_ms": 100}, read_timeout_seconds=60, progress_callback=on_progress)
    except MCPError as caught:
        error = caught
    check("a replica was signalled mid-call", len(signalled) == 1, progress)
    # The session's GET stream resumes too when it was on that replica: its event ids start with
    # `get-`; the call's stream is the other.
    resumed = [
        e
        for e in session.exchanges.seen()
        if e["method"] == "GET" and e["last_event_id"] is not None and not e["last_event_id"].startswith("get-")
    ]
    check("the client resumed with Last-Event-ID", any(e.get("status") == 200 for e in resumed), session.exchanges.seen())
    in_order = all(step == index + 1 for index, step in enumerate(progress))
    pid = signalled[0] if signalled else None
    if session.mode_name == "term":
        check("every step, once, in order", in_order and len(progress) == steps, progress)
        expected = f"Counted to {steps} on pid {pid}"
        check("the result", result is not None and not result.is_error and text(result) == expected, result or error)
    else:
        check("every step kept, once, in order", in_order and len(progress) >= 5, progress)
        check("then the -32603 error response", error is not None and error.code == -32603, result or error)
    after = text(await client.call_tool("whoami", {}))
    check("the session goes on after the replica is gone", pid_in(after) != pid, after)


async def run(mode_name: str, url: str, check: Checks) -> None:
    session = Session(mode_name)
    with anyio.fail_after(90):
        async with session.client(url) as client:
            version = MODES[mode_name][1]
            check("protocol version", client.protocol_version == version, client.protocol_version)
            scenario = {"legacy": legacy, "modern": modern, "kill": resume, "term": resume}[mode_name]
            await scenario(client, session, check)


def main() -> int:
    arguments = sys.argv[1:]
    if len(arguments) != 3 or arguments[0] not in MODES or arguments[1] != "--url":
        print(f"usage: py_replicas.py <{'|'.join(MODES)}> --url URL", file=sys.stderr)
        return 2
    mode_name, url = arguments[0], arguments[2]
    check = Checks(f"py/replicas/{mode_name}")
    try:
        anyio.run(run, mode_name, url, check)
    except Exception as error:  # noqa: BLE001 - any failure is reported as one
        check.failed = True
        print(f"FAIL {check.label} unexpected error: {error!r}", flush=True)
    print(f"{check.label}: {'FAILED' if check.failed else 'all checks passed'}", flush=True)
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
