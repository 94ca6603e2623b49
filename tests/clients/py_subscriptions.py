"""Subscribes to a resource with the official Python client (PyPI `mcp` 2.x, `mcp.Client`) against
the conformance example, and checks that it hears what changes: `resources/subscribe` on a legacy
connection, `subscriptions/listen` with `resourceSubscriptions` on a 2026-07-28 one.

    py_subscriptions.py <legacy|modern> <server command> [args...]
    py_subscriptions.py <legacy|modern> --url URL

The example's tool `test_update_watched_resource` changes `test://watched-resource` (and says so on
the server's `Resources` handle); `test_trigger_resource_change` adds or removes
`test://dynamic-resource`. Each is called an even number of times in all, so a run leaves the
server as it found it. One line per check; exit 1 if any failed.
"""

from __future__ import annotations

import sys
import warnings
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.subscriptions import ResourcesListChanged, ResourceUpdated

from checks import Checks, main

MODES: dict[str, tuple[str, str]] = {
    "legacy": ("legacy", "2025-11-25"),
    "modern": ("2026-07-28", "2026-07-28"),
}

WATCHED = "test://watched-resource"
DYNAMIC = "test://dynamic-resource"


class Heard:
    """What the legacy connection heard: `resources/updated` (its URI) and `list_changed`, in order."""

    def __init__(self) -> None:
        self.send, self.receive = anyio.create_memory_object_stream[Any](100)

    async def handler(self, message: Any) -> None:
        method = getattr(message, "method", None)
        if method == "notifications/resources/updated":
            await self.send.send(ResourceUpdated(uri=str(message.params.uri)))
        elif method == "notifications/resources/list_changed":
            await self.send.send(ResourcesListChanged())

    async def next(self, seconds: float) -> Any:
        with anyio.move_on_after(seconds):
            return await self.receive.receive()
        return None


async def watched_text(client: Client) -> str:
    read = await client.read_resource(WATCHED)
    return read.contents[0].text if read.contents else ""


async def legacy(client: Client, heard: Heard, check: Checks) -> None:
    resources = client.server_capabilities.resources
    check(
        "resources capability: subscribe and listChanged",
        resources is not None and resources.subscribe is True and resources.list_changed is True,
        resources,
    )
    with warnings.catch_warnings():
        # Deprecated only for 2026-07-28 servers; this connection is a 2025-11-25 one.
        warnings.simplefilter("ignore")
        await client.subscribe_resource(WATCHED)
    before = await watched_text(client)
    # Over HTTP the session's GET stream may open after the first update: call until one is heard.
    event = None
    for _ in range(20):
        await client.call_tool("test_update_watched_resource", {})
        event = await heard.next(0.5)
        if event is not None:
            break
    check("subscribed: resources/updated for the watched resource", event == ResourceUpdated(uri=WATCHED), event)
    after = await watched_text(client)
    check("it reads the new contents", after != before and "version" in after, (before, after))
    while await heard.next(0.2) is not None:
        pass  # updates of the calls that went before the one heard

    await client.call_tool("test_trigger_resource_change", {})
    event = await heard.next(10)
    check("resources/list_changed when a resource is added", event == ResourcesListChanged(), event)
    listed = [str(resource.uri) for resource in (await client.list_resources()).resources]
    check("the added resource is listed", DYNAMIC in listed, listed)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        await client.unsubscribe_resource(WATCHED)
    await client.call_tool("test_update_watched_resource", {})
    await client.call_tool("test_trigger_resource_change", {})
    event = await heard.next(10)
    check("unsubscribed: the next thing heard is the list change, not an update", event == ResourcesListChanged(), event)


async def modern(client: Client, check: Checks) -> None:
    async with client.listen(resources_list_changed=True, resource_subscriptions=[WATCHED, "test://nothing"]) as sub:
        honored = sub.honored
        check(
            "listen honours the served URI and the list",
            honored.resource_subscriptions == [WATCHED] and honored.resources_list_changed is True,
            honored,
        )
        before = await watched_text(client)
        await client.call_tool("test_update_watched_resource", {})
        with anyio.fail_after(10):
            event = await sub.__anext__()
        check("resources/updated for the watched resource", event == ResourceUpdated(uri=WATCHED), event)
        after = await watched_text(client)
        check("it reads the new contents", after != before and "version" in after, (before, after))
        for step in ("added", "removed"):
            await client.call_tool("test_trigger_resource_change", {})
            with anyio.fail_after(10):
                event = await sub.__anext__()
            check(f"resources/list_changed when a resource is {step}", event == ResourcesListChanged(), event)
        # Even calls of the update tool in all: one more.
        await client.call_tool("test_update_watched_resource", {})
        with anyio.fail_after(10):
            event = await sub.__anext__()
        check("a second update is heard too", event == ResourceUpdated(uri=WATCHED), event)


async def run(mode_name: str, server: str | StdioServerParameters, check: Checks) -> None:
    mode, version = MODES[mode_name]
    heard = Heard()
    with anyio.fail_after(60):
        async with Client(server, mode=mode, read_timeout_seconds=20, message_handler=heard.handler) as client:
            check("protocol version", client.protocol_version == version, client.protocol_version)
            if mode_name == "legacy":
                await legacy(client, heard, check)
            else:
                await modern(client, check)


if __name__ == "__main__":
    sys.exit(main("py_subscriptions.py", MODES, "py/{transport}/{mode}/subscriptions", run))
