//! The official MCP clients, installed by `tests/clients/install.sh`, against the prompts and
//! completions of the conformance example, over stdio and over Streamable HTTP, in every
//! negotiation mode: the TypeScript SDK (`tests/clients/ts_prompts.mjs`) and the Python SDK
//! (`tests/clients/py_prompts.py`) list and get prompts (text, arguments, an image, an embedded
//! resource, a missing argument refused), complete an argument, and answer the question a
//! prompt asks (a request in legacy mode, an `input_required` round in modern mode). Each script
//! prints a line per check and exits non-zero when any fails.
//!
//! Without the clients installed these tests only say so, unless `CI` is set: then they fail.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcp_toolbelt_tests::{CatalogHttp, collect, drain, example_binary, node22, repo_root};

/// How long one client run may take (a run takes one or two seconds).
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
            let installed = clients.join("node_modules/@modelcontextprotocol/client/package.json");
            node22()
                .filter(|_| installed.exists())
                .map(|node| (node, clients.join("ts_prompts.mjs")))
        }
        Client::Python => {
            let python = clients.join(".venv/bin/python");
            python
                .exists()
                .then(|| (python, clients.join("py_prompts.py")))
        }
    };
    if command.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "the real MCP clients are not installed: run bash tests/clients/install.sh"
        );
        eprintln!(
            "skipped: the real MCP clients are not installed (run bash tests/clients/install.sh)"
        );
    }
    command
}

/// Runs `client`'s script in `mode` against the conformance example, over stdio or (`http`)
/// Streamable HTTP, and fails the test with its output unless every check passed.
fn run(client: Client, mode: &str, http: bool) {
    let Some((interpreter, script)) = installed(client) else {
        return;
    };
    if http {
        let server =
            CatalogHttp::start_example("conformance", |address| address.to_string(), &[], &[]);
        let url = server.url();
        let target = ["--url".as_ref(), url.as_ref()];
        if let Err(report) = run_script(&interpreter, &script, mode, &target) {
            let log = server.stop();
            panic!("{report}--- conformance --http stderr\n{log}");
        }
    } else {
        let binary = example_binary("conformance");
        if let Err(report) = run_script(&interpreter, &script, mode, &[binary.as_os_str()]) {
            panic!("{report}");
        }
    }
}

/// Runs `script` in `mode` against `target` (a server command, or `--url URL`); `Err` is the
/// report of a failed or timed-out run.
fn run_script(
    interpreter: &Path,
    script: &Path,
    mode: &str,
    target: &[&OsStr],
) -> Result<(), String> {
    let mut child = Command::new(interpreter)
        .arg(script)
        .arg(mode)
        .args(target)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| panic!("cannot start {}: {error}", interpreter.display()));
    let stdout = drain(child.stdout.take().expect("stdout is piped"));
    let stderr = drain(child.stderr.take().expect("stderr is piped"));
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
    let command = format!("{} {mode}", script.display());
    match status {
        Some(status) if status.success() => Ok(()),
        Some(status) => Err(format!(
            "`{command}` failed ({status})\n--- stdout\n{stdout}--- stderr\n{stderr}"
        )),
        None => Err(format!(
            "`{command}` took longer than {RUN_TIMEOUT:?}\n--- stdout\n{stdout}--- stderr\n{stderr}"
        )),
    }
}

#[test]
fn typescript_prompts_stdio_legacy() {
    run(Client::TypeScript, "legacy", false);
}

#[test]
fn typescript_prompts_stdio_modern() {
    run(Client::TypeScript, "modern", false);
}

#[test]
fn typescript_prompts_http_legacy() {
    run(Client::TypeScript, "legacy", true);
}

#[test]
fn typescript_prompts_http_auto() {
    run(Client::TypeScript, "auto", true);
}

#[test]
fn python_prompts_stdio_legacy() {
    run(Client::Python, "legacy", false);
}

#[test]
fn python_prompts_stdio_modern() {
    run(Client::Python, "modern", false);
}

#[test]
fn python_prompts_http_legacy() {
    run(Client::Python, "legacy", true);
}

#[test]
fn python_prompts_http_auto() {
    run(Client::Python, "auto", true);
}
