//! The official MCP clients, installed by `tests/clients/install.sh`, against the prompts and
//! completions of the conformance example, over stdio and over Streamable HTTP, in every
//! negotiation mode: the TypeScript SDK (`tests/clients/ts_prompts.mjs`) and the Python SDK
//! (`tests/clients/py_prompts.py`) list and get prompts (text, arguments, an image, an embedded
//! resource, a missing argument refused), complete an argument, and answer the question a
//! prompt asks (a request in legacy mode, an `input_required` round in modern mode). Each script
//! prints a line per check and exits non-zero when any fails.
//!
//! Without the clients installed these tests only say so, unless `CI` is set: then they fail.

use mcp_toolbelt_tests::clients::{Scripts, Sdk, check_example};

const SCRIPTS: Scripts = Scripts {
    typescript: "ts_prompts.mjs",
    python: "py_prompts.py",
};

#[test]
fn typescript_prompts_stdio_legacy() {
    check_example(Sdk::TypeScript, SCRIPTS, "conformance", "legacy", false);
}

#[test]
fn typescript_prompts_stdio_modern() {
    check_example(Sdk::TypeScript, SCRIPTS, "conformance", "modern", false);
}

#[test]
fn typescript_prompts_http_legacy() {
    check_example(Sdk::TypeScript, SCRIPTS, "conformance", "legacy", true);
}

#[test]
fn typescript_prompts_http_auto() {
    check_example(Sdk::TypeScript, SCRIPTS, "conformance", "auto", true);
}

#[test]
fn python_prompts_stdio_legacy() {
    check_example(Sdk::Python, SCRIPTS, "conformance", "legacy", false);
}

#[test]
fn python_prompts_stdio_modern() {
    check_example(Sdk::Python, SCRIPTS, "conformance", "modern", false);
}

#[test]
fn python_prompts_http_legacy() {
    check_example(Sdk::Python, SCRIPTS, "conformance", "legacy", true);
}

#[test]
fn python_prompts_http_auto() {
    check_example(Sdk::Python, SCRIPTS, "conformance", "auto", true);
}
