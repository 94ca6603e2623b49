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

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcp_toolbelt_tests::{CatalogHttp, collect, drain, example_binary, node22, repo_root};

/// How long one client run may take (a run takes a second or two).
const RUN_TIMEOUT: Duration = Duration::from_secs(90);

#[derive(Clone, Copy)]
enum Client {
    TypeScript,
    Python,
}

/// The interpreter and script of `client`, or `None` when it is not installed (a failure under
/// `CI`).
fn installed(client: Client) -> Option<(PathBuf, PathBuf)> {
    let clients = repo_root().join("tests/clients");
    let command = match client {
        Client::TypeScript => {
            let sdk = clients.join("node_modules/@modelcontextprotocol/client/package.json");
            node22()
                .filter(|_| sdk.exists())
                .map(|node| (node, clients.join("ts_subscriptions.mjs")))
        }
        Client::Python => {
            let python = clients.join(".venv/bin/python");
            python
                .exists()
                .then(|| (python, clients.join("py_subscriptions.py")))
        }
    };
    if command.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "the real MCP clients are not installed: run bash tests/clients/install.sh"
        );
        eprintln!("skipped: the real MCP clients are not installed");
    }
    command
}

/// Runs `client` in `mode` (`legacy`, `modern`) against the conformance example, over stdio or
/// (`http`) Streamable HTTP, and fails with the script's output unless every check passed.
fn run(client: Client, mode: &str, http: bool) {
    let Some((interpreter, script)) = installed(client) else {
        return;
    };
    let server = http.then(|| {
        CatalogHttp::start_example("conformance", |address| address.to_string(), &[], &[])
    });
    let target = match &server {
        Some(server) => vec!["--url".to_owned(), server.url()],
        None => vec![example_binary("conformance").display().to_string()],
    };
    let mut child = Command::new(&interpreter)
        .arg(&script)
        .arg(mode)
        .args(&target)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| panic!("cannot start {}: {error}", interpreter.display()));
    let stdout = drain(child.stdout.take().expect("piped"));
    let stderr = drain(child.stderr.take().expect("piped"));
    let deadline = Instant::now() + RUN_TIMEOUT;
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for the client") {
            break Some(status);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let (stdout, stderr) = (collect(stdout), collect(stderr));
    if status.is_some_and(|status| status.success()) {
        return;
    }
    let log = server.map(CatalogHttp::stop).unwrap_or_default();
    panic!(
        "`{} {mode} {}` failed ({status:?})\n--- stdout\n{stdout}--- stderr\n{stderr}--- server stderr\n{log}",
        script.display(),
        target.join(" ")
    );
}

#[test]
fn typescript_stdio_legacy() {
    run(Client::TypeScript, "legacy", false);
}

#[test]
fn typescript_stdio_modern() {
    run(Client::TypeScript, "modern", false);
}

#[test]
fn typescript_http_legacy() {
    run(Client::TypeScript, "legacy", true);
}

#[test]
fn typescript_http_modern() {
    run(Client::TypeScript, "modern", true);
}

#[test]
fn python_stdio_legacy() {
    run(Client::Python, "legacy", false);
}

#[test]
fn python_stdio_modern() {
    run(Client::Python, "modern", false);
}

#[test]
fn python_http_legacy() {
    run(Client::Python, "legacy", true);
}

#[test]
fn python_http_modern() {
    run(Client::Python, "modern", true);
}
