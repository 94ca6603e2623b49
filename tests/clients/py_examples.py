"""Drives the example servers (examples/weather, examples/notes, examples/axum-app) with the official
Python client (PyPI `mcp` 2.x, `mcp.Client`) as a host would, and checks what it sees.

    py_examples.py <auto|legacy|modern> weather <server command> [args...]
    py_examples.py <auto|legacy|modern> notes <server command> [args...]            # a new database
    py_examples.py <auto|legacy|modern> notes-reopened <server command> [args...]   # the same, again
    py_examples.py <auto|legacy|modern> notes --url URL                             # notes --http
    py_examples.py <auto|legacy|modern> axum-app <base URL> <write token> <read token>

`notes` adds, searches, lists, edits and deletes notes in an empty database and leaves one note
("Groceries"); `notes-reopened`, run after it on the same file, finds that note still there.
Both read a note as the resource `notes://{id}`, subscribe to it (`resources/subscribe` on a legacy
connection, `subscriptions/listen` on a 2026-07-28 one) and hear `notifications/resources/updated`
when it is edited or deleted, and nothing of another note's changes; they list and get the prompt
`summarise_note` and complete its `id` argument from the notes' titles.
One line per check; exit 1 if any failed.
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx2
from mcp import Client, MCPError, types
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.subscriptions import ResourceUpdated

from checks import Checks, text
from py_subscriptions import Heard

MODES: dict[str, tuple[str, str]] = {
    # mode name: (the Client's `mode=`, the protocol version expected to be negotiated)
    "auto": ("auto", "2026-07-28"),
    "legacy": ("legacy", "2025-11-25"),
    "modern": ("2026-07-28", "2026-07-28"),
}


def hints(tool: Any) -> dict[str, Any]:
    """The tool's annotations as the wire had them (camelCase, unset ones left out)."""
    if tool is None or tool.annotations is None:
        return {}
    return tool.annotations.model_dump(by_alias=True, exclude_none=True)


async def connect_checks(client: Client, mode_name: str, server_name: str, check: Checks) -> dict[str, Any]:
    """The checks every example shares: the negotiated version, the server's name; gives the tools
    by name."""
    check("protocol version", client.protocol_version == MODES[mode_name][1], client.protocol_version)
    # A pinned modern client adopts a synthesized discover result: nothing from the server yet.
    if mode_name != "modern":
        info = client.server_info
        check("server info", info is not None and info.name == server_name, info)
    listed = await client.list_tools()
    return {tool.name: tool for tool in listed.tools}


def check_about(
    info: Any, check: Checks, description: str, website_url: str, icons: list[tuple[str, str, list[str]]], dark_svg: bool
) -> None:
    """What a host shows beside the server (SEP-973, 2025-11-25), as the SDK's model parsed it: its
    description, web site and icons (`icons` the URL ones; `dark_svg`, whether a `data:` SVG for
    dark backgrounds follows)."""
    served = list(info.icons or []) if info is not None else []
    extra = served[len(icons) :]
    svg_ok = (
        len(extra) == 1
        and extra[0].src.startswith("data:image/svg+xml;base64,")
        and extra[0].theme == "dark"
        and extra[0].sizes == ["any"]
        if dark_svg
        else not extra
    )
    check(
        "server description, website and icons",
        info is not None
        and info.description == description
        and info.website_url == website_url
        and [(icon.src, icon.mime_type, icon.sizes) for icon in served[: len(icons)]] == icons
        and svg_ok,
        info,
    )


async def weather(client: Client, mode_name: str, check: Checks) -> None:
    tools = await connect_checks(client, mode_name, "weather", check)
    check("tools/list is the README's one tool", list(tools) == ["get_weather"], list(tools))
    tool = tools.get("get_weather")
    check("get_weather has its title", tool is not None and tool.title == "Get Weather", tool)
    check(
        "get_weather is read-only, closed-world",
        hints(tool) == {"readOnlyHint": True, "openWorldHint": False},
        hints(tool),
    )
    location = (tool.input_schema.get("properties") or {}).get("location") if tool else None
    check(
        "location is a documented string",
        location == {"type": "string", "description": "City name"},
        location,
    )
    output = (tool.output_schema or {}) if tool else {}
    check(
        "outputSchema names temperatureC and summary",
        sorted((output.get("properties") or {}).keys()) == ["summary", "temperatureC"],
        output,
    )
    result = await client.call_tool("get_weather", {"location": "Paris"})
    expected = {"temperatureC": 22.0, "summary": "Paris: partly cloudy"}
    check("get_weather structuredContent", not result.is_error and result.structured_content == expected, result)
    check("get_weather text is its JSON", json.loads(text(result) or "null") == expected, result)
    result = await client.call_tool("get_weather", {})
    check(
        "a missing location is isError",
        result.is_error and "location" in text(result),
        result,
    )


NOTES_TOOLS = ["add_note", "search_notes", "list_notes", "edit_note", "delete_note"]


def check_notes_about(client: Client, mode_name: str, check: Checks) -> None:
    """The notes server's description and its one icon, a `data:` SVG of any size."""
    # A pinned modern client adopts a synthesized discover result: nothing from the server yet.
    if mode_name == "modern":
        return
    info = client.server_info
    icons = list(info.icons or []) if info is not None else []
    check(
        "server description and its data: SVG icon",
        info is not None
        and info.description == "Personal notes on SQLite: full-text search, each note a resource"
        and len(icons) == 1
        and icons[0].src.startswith("data:image/svg+xml;base64,")
        and icons[0].sizes == ["any"],
        info,
    )


@asynccontextmanager
async def subscribed(
    client: Client, mode_name: str, uri: str, heard: Heard, check: Checks
) -> AsyncIterator[Callable[[float], Awaitable[Any]]]:
    """Subscribes to `uri` as the negotiated era does it; gives the next change heard (or `None`
    after so many seconds)."""
    if MODES[mode_name][1] == "2025-11-25":
        with warnings.catch_warnings():
            # Deprecated only for 2026-07-28 servers; this connection is a 2025-11-25 one.
            warnings.simplefilter("ignore")
            await client.subscribe_resource(uri)
            yield heard.next
            await client.unsubscribe_resource(uri)
        return
    async with client.listen(resource_subscriptions=[uri]) as sub:
        check("listen honours the note's URI", sub.honored.resource_subscriptions == [uri], sub.honored)

        async def next_event(seconds: float) -> Any:
            with anyio.move_on_after(seconds):
                return await sub.__anext__()
            return None

        yield next_event


async def watch_notes(client: Client, mode_name: str, check: Checks, heard: Heard) -> None:
    """A note is the resource `notes://{id}`: listed as a template, read as markdown; a client
    subscribed to one note hears when it is edited or deleted, and nothing of another note's
    changes. Adds two notes and deletes them: the database is left as it was."""
    templates = (await client.list_resource_templates()).resource_templates
    check(
        "resources/templates/list: notes://{id}, markdown",
        [(template.uri_template, template.mime_type) for template in templates] == [("notes://{id}", "text/markdown")],
        templates,
    )
    watched = (await client.call_tool("add_note", {"title": "Boiler", "body": "Service due in March"})).structured_content or {}
    other = (await client.call_tool("add_note", {"title": "Scratch", "body": "Nothing yet"})).structured_content or {}
    uri = f"notes://{watched.get('id')}"
    read = await client.read_resource(uri)
    check(
        "resources/read notes://{id}: title, body and creation date in markdown",
        [(content.mime_type, getattr(content, "text", None)) for content in read.contents]
        == [("text/markdown", f"# Boiler\n\nService due in March\n\n_Created {watched.get('createdAt')}_\n")],
        read,
    )
    async with subscribed(client, mode_name, uri, heard, check) as next_change:
        # The other note first: were its change told to this client, it would be heard first.
        result = await client.call_tool("edit_note", {"id": other.get("id"), "body": "Still nothing"})
        check("edit_note another note", not result.is_error, result)
        # Over HTTP a legacy session's GET stream may open after the first edit: edit until heard.
        legacy = MODES[mode_name][1] == "2025-11-25"
        event = None
        for _ in range(20 if legacy else 1):
            result = await client.call_tool("edit_note", {"id": watched.get("id"), "body": "Service booked for 3 March"})
            event = await next_change(0.5 if legacy else 10)
            if event is not None:
                break
        check(
            "edit_note returns the note as it now is",
            not result.is_error and (result.structured_content or {}).get("body") == "Service booked for 3 March" and (result.structured_content or {}).get("title") == "Boiler",
            result,
        )
        check("edit_note: resources/updated for the subscribed note only", event == ResourceUpdated(uri=uri), event)
        while legacy and await next_change(0.2) is not None:
            pass  # the updates of the edits before the one heard
        read = await client.read_resource(uri)
        check("the note read again is the edited one", "Service booked for 3 March" in getattr(read.contents[0], "text", ""), read)
        result = await client.call_tool("search_notes", {"query": "booked"})
        hits = (result.structured_content or {}).get("notes", [])
        check("search finds the edited text", [hit["id"] for hit in hits] == [watched.get("id")], result)
        await client.call_tool("delete_note", {"id": other.get("id")})
        await client.call_tool("delete_note", {"id": watched.get("id")})
        event = await next_change(10)
        check("delete_note: resources/updated for the subscribed note", event == ResourceUpdated(uri=uri), event)
    try:
        read = await client.read_resource(uri)
        check("a deleted note cannot be read", False, read)
    except MCPError as error:
        check("a deleted note cannot be read: -32602 naming it", error.code == -32602 and uri in error.error.message, error.error)


async def summarise_checks(client: Client, check: Checks) -> None:
    """The prompt `summarise_note`: listed with its `note` argument, the argument completed from
    the notes' ids and titles (by a completer over the database, each value beginning with what
    was typed), the prompt got with the note's text. Expects the one note "Groceries"."""
    listed = (await client.list_prompts()).prompts
    check(
        "prompts/list: summarise_note, its note argument required",
        [(prompt.name, prompt.title, [(argument.name, argument.required) for argument in prompt.arguments or []]) for prompt in listed]
        == [("summarise_note", "Summarise a note", [("note", True)])]
        and bool(listed[0].description),
        listed,
    )
    page = (await client.call_tool("list_notes", {})).structured_content or {}
    groceries = str(page.get("notes", [{}])[0].get("id"))
    reference = types.PromptReference(type="ref/prompt", name="summarise_note")
    completed = await client.complete(reference, {"name": "note", "value": "GROC"})
    check("note completes from a title's first letters (any case)", completed.completion.values == ["Groceries"], completed)
    completed = await client.complete(reference, {"name": "note", "value": groceries})
    check("note completes from an id's digits", completed.completion.values == [groceries], completed)
    completed = await client.complete(reference, {"name": "note", "value": "no such title"})
    check("nothing matches: no values", completed.completion.values == [], completed)
    for value in [groceries, "groceries"]:
        result = await client.get_prompt("summarise_note", {"note": value})
        message = result.messages[0] if result.messages else None
        check(
            f"prompts/get summarise_note {value!r}: one user message with the note",
            len(result.messages) == 1
            and message.role == "user"
            and "# Groceries\n\nBuy milk, eggs and coffee beans" in message.content.text
            and result.description == 'A summary of the note "Groceries"',
            result,
        )
    for value in ["eggs", "999999"]:
        try:
            await client.get_prompt("summarise_note", {"note": value})
            check(f"summarise_note refuses note {value!r}", False)
        except MCPError as error:
            check(f"summarise_note refuses note {value!r}, saying why", f'no note has the id or title "{value}"' in error.error.message, error.error)
            check(f"summarise_note refuses note {value!r} as invalid params", error.error.code == -32602, error.error)


async def notes(client: Client, mode_name: str, check: Checks, heard: Heard) -> None:
    tools = await connect_checks(client, mode_name, "notes", check)
    check_notes_about(client, mode_name, check)
    check("tools/list has the five notes tools", sorted(tools) == sorted(NOTES_TOOLS), list(tools))
    check("delete_note is destructive", hints(tools.get("delete_note")) == {"destructiveHint": True}, tools.get("delete_note"))
    check("edit_note is idempotent", hints(tools.get("edit_note")) == {"idempotentHint": True}, tools.get("edit_note"))
    for name in ("search_notes", "list_notes"):
        check(f"{name} is read-only", hints(tools.get(name)) == {"readOnlyHint": True}, tools.get(name))
    add = tools.get("add_note")
    check("add_note has no hints", add is not None and add.annotations is None, add)
    schema = add.input_schema if add else {}
    check(
        "add_note takes title and body, the database is no argument",
        sorted((schema.get("properties") or {}).keys()) == ["body", "title"] and sorted(schema.get("required") or []) == ["body", "title"],
        schema,
    )
    check(
        "every tool has an outputSchema",
        all((tool.output_schema or {}).get("type") == "object" for tool in tools.values()),
        {name: tool.output_schema for name, tool in tools.items()},
    )

    result = await client.call_tool("list_notes", {})
    check("a new database is empty", not result.is_error and result.structured_content == {"notes": [], "total": 0}, result)

    added = []
    for title, body in [
        ("Groceries", "Buy milk, eggs and coffee beans"),
        ("Team meeting", "Agenda: the release plan, then coffee with the new hires"),
        ("Deploy checklist", "Run the migrations before deploying the web servers"),
    ]:
        result = await client.call_tool("add_note", {"title": title, "body": body})
        note = result.structured_content or {}
        check(
            f"add_note {title!r}",
            not result.is_error and note.get("title") == title and note.get("body") == body and isinstance(note.get("id"), int) and note.get("createdAt", "").endswith("Z"),
            result,
        )
        added.append(note)
    ids = [note.get("id") for note in added]
    check("ids are distinct", len(set(ids)) == 3, ids)

    result = await client.call_tool("search_notes", {"query": "migrations"})
    hits = (result.structured_content or {}).get("notes", [])
    check(
        "search finds the note by a word of its body",
        not result.is_error and [hit["id"] for hit in hits] == [ids[2]] and "[migrations]" in hits[0]["snippet"],
        result,
    )
    result = await client.call_tool("search_notes", {"query": "coffee"})
    hits = (result.structured_content or {}).get("notes", [])
    check("search finds every note with the word", sorted(hit["id"] for hit in hits) == sorted(ids[:2]), result)
    result = await client.call_tool("search_notes", {"query": "coffee", "limit": 1})
    check("search honours limit", len((result.structured_content or {}).get("notes", [])) == 1, result)
    result = await client.call_tool("search_notes", {"query": "deploy*"})
    hits = (result.structured_content or {}).get("notes", [])
    check("a prefix query matches title and body", [hit["title"] for hit in hits] == ["Deploy checklist"], result)
    result = await client.call_tool("search_notes", {"query": '"release plan"'})
    hits = (result.structured_content or {}).get("notes", [])
    check("a phrase query", [hit["title"] for hit in hits] == ["Team meeting"], result)
    result = await client.call_tool("search_notes", {"query": '"unclosed'})
    check(
        "a malformed query is isError saying why",
        result.is_error and text(result).startswith('Cannot search for "\\"unclosed":'),
        result,
    )
    result = await client.call_tool("search_notes", {"query": ""})
    check("an empty query is refused by the schema", result.is_error and "query" in text(result), result)

    result = await client.call_tool("list_notes", {})
    page = result.structured_content or {}
    check(
        "list_notes: newest first, with the total",
        not result.is_error and [note["id"] for note in page.get("notes", [])] == ids[::-1] and page.get("total") == 3,
        result,
    )
    result = await client.call_tool("list_notes", {"limit": 2})
    page = result.structured_content or {}
    check("list_notes honours limit", len(page.get("notes", [])) == 2 and page.get("total") == 3, result)

    for deleted in added[1:]:
        result = await client.call_tool("delete_note", {"id": deleted["id"]})
        check(f"delete_note {deleted['title']!r} returns it", not result.is_error and result.structured_content == deleted, result)
    result = await client.call_tool("delete_note", {"id": ids[1]})
    check("deleting it again is isError", result.is_error and text(result) == f"No note with id {ids[1]}", result)
    result = await client.call_tool("search_notes", {"query": "coffee"})
    hits = (result.structured_content or {}).get("notes", [])
    check("a deleted note is no longer found", [hit["id"] for hit in hits] == [ids[0]], result)
    result = await client.call_tool("list_notes", {})
    check("list_notes after the deletes", (result.structured_content or {}) == {"notes": [added[0]], "total": 1}, result)
    result = await client.call_tool("edit_note", {"id": ids[1], "title": "Gone"})
    check("editing a deleted note is isError", result.is_error and text(result) == f"No note with id {ids[1]}", result)
    await watch_notes(client, mode_name, check, heard)
    await summarise_checks(client, check)


async def notes_reopened(client: Client, mode_name: str, check: Checks, heard: Heard) -> None:
    await connect_checks(client, mode_name, "notes", check)
    check_notes_about(client, mode_name, check)
    result = await client.call_tool("list_notes", {})
    page = result.structured_content or {}
    check(
        "the note left by the last run is still there",
        [note["title"] for note in page.get("notes", [])] == ["Groceries"] and page.get("total") == 1,
        result,
    )
    result = await client.call_tool("search_notes", {"query": "eggs"})
    hits = (result.structured_content or {}).get("notes", [])
    check("and still found by search", [hit["title"] for hit in hits] == ["Groceries"], result)
    await watch_notes(client, mode_name, check, heard)
    await summarise_checks(client, check)


async def axum_app(mode_name: str, base: str, write_token: str, read_token: str, check: Checks) -> None:
    url = f"{base}/mcp"
    async with httpx2.AsyncClient(timeout=10) as http:
        # The app's own routes, beside the MCP endpoint.
        response = await http.get(f"{base}/health")
        check("GET /health", response.status_code == 200 and response.text == "ok", (response.status_code, response.text))
        response = await http.post(f"{base}/api/items", json={"name": "Travel mug", "quantity": 3})
        check("POST /api/items", response.status_code == 200, (response.status_code, response.text))
        # No token: 401, pointing at the metadata document.
        response = await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, headers={"Accept": "application/json, text/event-stream"})
        challenge = response.headers.get("www-authenticate", "")
        check(
            "no token is 401 with a challenge",
            response.status_code == 401 and challenge.startswith("Bearer ") and "resource_metadata=" in challenge,
            (response.status_code, challenge),
        )
        metadata_url = challenge.split('resource_metadata="', 1)[-1].rstrip('"')
        response = await http.get(metadata_url)
        document = response.json() if response.status_code == 200 else None
        check(
            "the metadata document names the resource and scopes",
            document is not None and document.get("resource") == url and document.get("scopes_supported") == ["inventory:read", "inventory:write"],
            (response.status_code, response.text),
        )

    mode, _ = MODES[mode_name]

    def connect(token: str) -> Client:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(30, read=300))
        return Client(streamable_http_client(url, http_client=http), mode=mode, read_timeout_seconds=20)

    async with connect(write_token) as client:
        tools = await connect_checks(client, mode_name, "inventory", check)
        check_about(
            client.server_info,
            check,
            "The shop's inventory, behind bearer auth",
            "https://example.com/inventory",
            [("https://example.com/icons/inventory.png", "image/png", ["48x48", "96x96"])],
            dark_svg=False,
        )
        check("tools/list has the inventory tools", sorted(tools) == ["add_item", "list_items", "remove_item"], list(tools))
        check("list_items is read-only", hints(tools.get("list_items")) == {"readOnlyHint": True}, tools.get("list_items"))
        check(
            "remove_item is destructive and idempotent",
            hints(tools.get("remove_item")) == {"destructiveHint": True, "idempotentHint": True},
            tools.get("remove_item"),
        )
        result = await client.call_tool("list_items", {})
        check(
            "list_items sees what the app's own route added",
            not result.is_error and result.structured_content == {"items": [{"name": "Travel mug", "quantity": 3}]},
            result,
        )
        result = await client.call_tool("add_item", {"name": "Espresso cup", "quantity": 2})
        check(
            "add_item with the write scope",
            not result.is_error and result.structured_content == {"name": "Espresso cup", "quantity": 2},
            result,
        )
        result = await client.call_tool("remove_item", {"name": "Travel mug"})
        check("remove_item with the write scope", not result.is_error and text(result) == "Removed Travel mug", result)

    async with connect(read_token) as client:
        tools = await connect_checks(client, mode_name, "inventory", check)
        check("tools/list shows the read scope list_items alone", list(tools) == ["list_items"], list(tools))
        result = await client.call_tool("list_items", {})
        check(
            "list_items with the read scope",
            not result.is_error and result.structured_content == {"items": [{"name": "Espresso cup", "quantity": 2}]},
            result,
        )
        # The `403`'s body is the JSON-RPC error, which the SDK raises.
        for name, arguments in (("add_item", {"name": "Teapot", "quantity": 1}), ("remove_item", {"name": "Espresso cup"})):
            try:
                refused: Any = await client.call_tool(name, arguments)
            except MCPError as error:
                refused = error
            data = refused.data if isinstance(refused, MCPError) and isinstance(refused.data, dict) else {}
            check(
                f"{name} without the write scope is refused insufficient_scope, naming the scope",
                isinstance(refused, MCPError)
                and refused.code == -32600
                and data.get("error") == "insufficient_scope"
                and data.get("scope") == "inventory:write",
                refused.error if isinstance(refused, MCPError) else refused,
            )

    async with httpx2.AsyncClient(timeout=10) as http:
        response = await http.get(f"{base}/api/items")
        check(
            "the app's route sees what the tools did, and no refused call",
            response.status_code == 200 and response.json() == [{"name": "Espresso cup", "quantity": 2}],
            (response.status_code, response.text),
        )


async def todo(server: StdioServerParameters, mode_name: str, check: Checks) -> None:
    """The to-do example, whose tools ask the user (elicitation): this client is the user,
    answering from a script of answers; in legacy mode the server's questions are requests, in
    modern mode `input_required` results the SDK fulfils and retries."""
    asked: list[str] = []
    answers: list[types.ElicitResult] = []

    async def answer(_context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return answers.pop(0) if answers else types.ElicitResult(action="cancel")

    async with Client(
        server, mode=MODES[mode_name][0], read_timeout_seconds=20, elicitation_callback=answer
    ) as client:
        check("protocol version", client.protocol_version == MODES[mode_name][1], client.protocol_version)
        # A pinned modern client adopts a synthesized discover result: nothing from the server yet.
        if mode_name != "modern":
            check_about(
                client.server_info,
                check,
                "A to-do list that asks before it deletes",
                "https://example.com/todo",
                [("https://example.com/icons/todo.png", "image/png", ["48x48"])],
                dark_svg=True,
            )

        async def call(name: str, arguments: dict[str, Any], scripted: list[types.ElicitResult]) -> Any:
            asked.clear()
            answers[:] = scripted
            return await client.call_tool(name, arguments)

        accept = lambda content: types.ElicitResult(action="accept", content=content)  # noqa: E731
        result = await call("add-task", {"title": "Water plants", "priority": "low"}, [])
        check("add-task with a priority asks nothing", text(result) == 'Added "Water plants" (Low)' and not asked, (result, asked))
        result = await call("add-task", {"title": "File taxes"}, [accept({"priority": "high"})])
        check("add-task without a priority asks for it", asked == ['How urgent is "File taxes"?'], asked)
        check("add-task uses the answer", text(result) == 'Added "File taxes" (High)', result)
        result = await call("add-task", {"title": "Nap"}, [types.ElicitResult(action="decline")])
        check("a declined question adds nothing", result.is_error and text(result) == "No task added: the user gave no priority", result)
        result = await call("clear-tasks", {}, [types.ElicitResult(action="decline")])
        check("clear-tasks asks first", asked == ["Delete all 2 tasks? This cannot be undone."], asked)
        check("a declined clear deletes nothing", text(result) == "Nothing deleted: the user did not confirm", result)
        result = await call("list-tasks", {}, [])
        check("the tasks are still there", text(result) == "Water plants (Low)\nFile taxes (High)", result)
        result = await call("clear-tasks", {}, [accept({"confirm": True})])
        check("a confirmed clear deletes", text(result) == "Deleted 2 tasks", result)
        result = await call("list-tasks", {}, [])
        check("nothing is left", text(result) == "No tasks", result)


NOTES = {"notes": notes, "notes-reopened": notes_reopened}
STDIO = ["weather", *NOTES]


async def run(mode_name: str, example: str, target: list[str], check: Checks) -> None:
    with anyio.fail_after(60):
        if example == "axum-app":
            await axum_app(mode_name, *target, check)
            return
        # The SDK hands the child only a few "safe" variables by default; pass ours along.
        server: str | StdioServerParameters = (
            target[1] if target[0] == "--url" else StdioServerParameters(command=target[0], args=target[1:], env=dict(os.environ))
        )
        if example == "todo":
            await todo(server, mode_name, check)
            return
        heard = Heard()  # what a legacy connection is told (notes' resources/updated)
        async with Client(server, mode=MODES[mode_name][0], read_timeout_seconds=20, message_handler=heard.handler) as client:
            if example == "weather":
                await weather(client, mode_name, check)
            else:
                await NOTES[example](client, mode_name, check, heard)


def main() -> int:
    arguments = sys.argv[1:]
    examples = [*STDIO, "todo", "axum-app"]
    if (
        len(arguments) < 3
        or arguments[0] not in MODES
        or arguments[1] not in examples
        or (arguments[1] == "axum-app" and len(arguments) != 5)
    ):
        print(f"usage: py_examples.py <{'|'.join(MODES)}> <{'|'.join(examples)}> <server command or URL and tokens>", file=sys.stderr)
        return 2
    mode_name, example, target = arguments[0], arguments[1], arguments[2:]
    check = Checks(f"py/{example}/{mode_name}")
    try:
        anyio.run(run, mode_name, example, target, check)
    except Exception as error:  # noqa: BLE001 - any failure is reported as one
        check.failed = True
        print(f"FAIL {check.label} unexpected error: {error!r}", flush=True)
    print(f"{check.label}: {'FAILED' if check.failed else 'all checks passed'}", flush=True)
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
