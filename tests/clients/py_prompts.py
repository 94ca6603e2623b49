"""Drives the prompts and completions of the conformance example with the official Python client
(PyPI `mcp` 2.x, `mcp.Client`), over stdio or Streamable HTTP: lists and gets prompts (text,
arguments, an image, an embedded resource), a refused call, completes an argument, and answers
the question a prompt asks (a request in legacy mode, an `input_required` result the SDK fulfils
and retries in modern mode).

    tests/clients/.venv/bin/python tests/clients/py_prompts.py <auto|legacy|modern> <server command> [args...]
    tests/clients/.venv/bin/python tests/clients/py_prompts.py <auto|legacy|modern> --url http://127.0.0.1:PORT/mcp

One line per check; exit 1 if any failed.
"""

from __future__ import annotations

import sys
from typing import Any

import anyio
from mcp import Client, types
from mcp.shared.exceptions import MCPError

from checks import Checks, main

MODES: dict[str, tuple[str, str]] = {
    # mode name: (the Client's `mode=`, the protocol version expected to be negotiated)
    "auto": ("auto", "2026-07-28"),
    "legacy": ("legacy", "2025-11-25"),
    "modern": ("2026-07-28", "2026-07-28"),
}


async def run(mode_name: str, server: Any, check: Checks) -> None:
    asked: list[str] = []

    async def answer(_context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"context": "a rainy day"})

    with anyio.fail_after(60):
        async with Client(
            server, mode=MODES[mode_name][0], read_timeout_seconds=20, elicitation_callback=answer
        ) as client:
            check("protocol version", client.protocol_version == MODES[mode_name][1], client.protocol_version)
            listed = await client.list_prompts()
            prompts = {prompt.name: prompt for prompt in listed.prompts}
            for name in [
                "test_simple_prompt",
                "test_prompt_with_arguments",
                "test_prompt_with_embedded_resource",
                "test_prompt_with_image",
                "test_input_required_result_prompt",
            ]:
                check(f"{name} is listed with a description", name in prompts and bool(prompts[name].description), prompts.get(name))
            arguments = prompts["test_prompt_with_arguments"].arguments or []
            check(
                "arguments are listed, required, with their descriptions",
                [(argument.name, argument.required, argument.description) for argument in arguments]
                == [("arg1", True, "First test argument"), ("arg2", True, "Second test argument")],
                arguments,
            )

            result = await client.get_prompt("test_simple_prompt")
            first = result.messages[0]
            check(
                "a text prompt is one user message",
                len(result.messages) == 1 and first.role == "user" and first.content.text == "This is a simple prompt for testing.",
                result,
            )
            result = await client.get_prompt("test_prompt_with_arguments", {"arg1": "sun", "arg2": "rain"})
            check(
                "arguments reach the prompt",
                result.messages[0].content.text == "Prompt with arguments: arg1='sun', arg2='rain'",
                result,
            )
            result = await client.get_prompt("test_prompt_with_image")
            image = result.messages[0].content
            check("an image message", image.type == "image" and image.mime_type == "image/png" and bool(image.data), image)
            result = await client.get_prompt("test_prompt_with_embedded_resource", {"resourceUri": "test://doc"})
            embedded = result.messages[0].content
            check(
                "an embedded resource message",
                embedded.type == "resource" and str(embedded.resource.uri) == "test://doc",
                embedded,
            )
            try:
                await client.get_prompt("test_prompt_with_arguments", {"arg1": "sun"})
                check("a missing argument is refused", False)
            except MCPError as error:
                check(
                    "a missing argument is -32602 naming it",
                    error.error.code == -32602 and "arg2" in error.error.message,
                    error.error,
                )

            reference = types.PromptReference(type="ref/prompt", name="test_prompt_with_arguments")
            completed = await client.complete(reference, {"name": "arg1", "value": "tes"})
            check(
                "an argument completes from its completer",
                completed.completion.values == ["test", "testing", "tested"],
                completed,
            )

            asked.clear()
            result = await client.get_prompt("test_input_required_result_prompt")
            check("the prompt asked the user", asked == ["What context should the prompt use?"], asked)
            check(
                "the prompt uses the answer",
                result.messages[0].content.text == "Write with this context: a rainy day",
                result,
            )


if __name__ == "__main__":
    sys.exit(main("py_prompts.py", MODES, "py-prompts/{transport}/{mode}", run))
