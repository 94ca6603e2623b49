"""Drives the skills of the notes example with the official Python client (PyPI `mcp` 2.x,
`mcp.Client`), which has no skills client of its own: the extension's requests are sent as
generic requests (`ClientSession.send_request`), over stdio or Streamable HTTP. Checks the
capability, `skills/list`, `skills/get`, each listed file read with `resources/read` against its
size and SHA-256 digest, a directory read, and an unknown skill refused.

    tests/clients/.venv/bin/python tests/clients/py_skills.py <auto|legacy|modern> <server command> [args...]
    tests/clients/.venv/bin/python tests/clients/py_skills.py <auto|legacy|modern> --url http://127.0.0.1:PORT/mcp

One line per check; exit 1 if any failed.
"""

from __future__ import annotations

import base64
import hashlib
import sys
from typing import Any

import anyio
from mcp import Client, types
from mcp.shared.exceptions import MCPError
from pydantic import TypeAdapter

from checks import Checks, main

MODES: dict[str, tuple[str, str]] = {
    # mode name: (the Client's `mode=`, the protocol version expected to be negotiated)
    "auto": ("auto", "2026-07-28"),
    "legacy": ("legacy", "2025-11-25"),
    "modern": ("2026-07-28", "2026-07-28"),
}
SKILL = "skill://note-taking/SKILL.md"
EXTENSION = "io.modelcontextprotocol/skills"
ANY_RESULT = TypeAdapter(dict[str, Any])


async def request(client: Client, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """A request the SDK has no method for, its result as the JSON object it is."""
    generic = types.Request[dict[str, Any], str](method=method, params=params)
    return await client.session.send_request(generic, ANY_RESULT)


async def run(mode_name: str, server: Any, check: Checks) -> None:
    modern = MODES[mode_name][1] == "2026-07-28"
    with anyio.fail_after(60):
        async with Client(server, mode=MODES[mode_name][0], read_timeout_seconds=20) as client:
            check("protocol version", client.protocol_version == MODES[mode_name][1], client.protocol_version)
            if mode_name == "modern":
                # A pinned 2026-07-28 client adopts the version without `server/discover`: ask.
                capabilities = (await client.session.send_discover("2026-07-28")).get("capabilities", {})
            else:
                capabilities = client.server_capabilities.model_dump(by_alias=True, exclude_none=True)
            declared = (capabilities.get("extensions") or {}).get(EXTENSION)
            check("the server declares the skills extension with directoryRead", declared == {"directoryRead": True}, capabilities)

            listed = await request(client, "skills/list", {})
            skills = listed.get("skills", [])
            check("one skill is listed, note-taking", [skill.get("uri") for skill in skills] == [SKILL], skills)
            check("the listing carries its caching fields at 2026-07-28", ("ttlMs" in listed) == modern, listed)
            entry = skills[0] if skills else {}
            check("its front matter names it", entry.get("frontmatter", {}).get("name") == "note-taking", entry)

            files = entry.get("resources", [])
            # SKILL.md and references/SEARCH.md: a loop over nothing would check nothing.
            check(
                "the entry lists the skill's two files",
                sorted(file.get("uri") for file in files) == [SKILL, "skill://note-taking/references/SEARCH.md"],
                files,
            )
            for file in files:
                read = await client.read_resource(file["uri"])
                contents = read.contents[0]
                data = contents.text.encode() if isinstance(contents, types.TextResourceContents) else base64.b64decode(contents.blob)
                digest = "sha256:" + hashlib.sha256(data).hexdigest()
                check(f"{file['uri']} is read as its listed size and digest", len(data) == file["size"] and digest == file["digest"], file)

            got = await request(client, "skills/get", {"uri": SKILL})
            check("skills/get gives the listed entry", got.get("skill") == entry, got)

            directory = await request(client, "resources/directory/read", {"uri": "skill://note-taking"})
            children = [(child.get("uri"), child.get("mimeType")) for child in directory.get("resources", [])]
            check(
                "the skill directory lists SKILL.md and the references folder",
                children == [(SKILL, "text/markdown"), ("skill://note-taking/references", "inode/directory")],
                children,
            )

            try:
                await request(client, "skills/get", {"uri": "skill://no-such-skill/SKILL.md"})
                check("an unknown skill is -32602", False, "it was answered")
            except MCPError as error:
                check("an unknown skill is -32602", error.error.code == -32602, error.error)


if __name__ == "__main__":
    sys.exit(main("py_skills.py", MODES, "py-skills/{transport}/{mode}", run))
