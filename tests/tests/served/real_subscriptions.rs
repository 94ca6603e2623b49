//! Resource subscriptions through the official MCP clients, installed by
//! `tests/clients/install.sh`: the TypeScript SDK (`tests/clients/ts_subscriptions.mjs`) and the
//! Python SDK (`tests/clients/py_subscriptions.py`) subscribe to the conformance example's
//! `test://watched-resource` and hear it updated when a tool changes it, hear
//! `notifications/resources/list_changed` when a resource is added and removed at run time, and
//! (legacy) hear no more updates once unsubscribed: with `resources/subscribe` on a 2025-11-25
//! connection, with `subscriptions/listen` on a 2026-07-28 one, over stdio and Streamable HTTP.
//!
//! Each run prints a line per check and exits non-zero when any fails. Without the clients
//! installed these tests only say so, unless `CI` is set: then they fail.

use mcp_toolbelt_tests::clients::{Scripts, Sdk, check_example};

const SCRIPTS: Scripts = Scripts {
    typescript: "ts_subscriptions.mjs",
    python: "py_subscriptions.py",
};

#[test]
fn typescript_stdio_legacy() {
    check_example(Sdk::TypeScript, SCRIPTS, "conformance", "legacy", false);
}

#[test]
fn typescript_stdio_modern() {
    check_example(Sdk::TypeScript, SCRIPTS, "conformance", "modern", false);
}

#[test]
fn typescript_http_legacy() {
    check_example(Sdk::TypeScript, SCRIPTS, "conformance", "legacy", true);
}

#[test]
fn typescript_http_modern() {
    check_example(Sdk::TypeScript, SCRIPTS, "conformance", "modern", true);
}

#[test]
fn python_stdio_legacy() {
    check_example(Sdk::Python, SCRIPTS, "conformance", "legacy", false);
}

#[test]
fn python_stdio_modern() {
    check_example(Sdk::Python, SCRIPTS, "conformance", "modern", false);
}

#[test]
fn python_http_legacy() {
    check_example(Sdk::Python, SCRIPTS, "conformance", "legacy", true);
}

#[test]
fn python_http_modern() {
    check_example(Sdk::Python, SCRIPTS, "conformance", "modern", true);
}
