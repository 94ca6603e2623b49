//! The official MCP clients, installed by `tests/clients/install.sh`, against the catalog example
//! over stdio and over Streamable HTTP (`catalog --http 127.0.0.1:PORT`, at `/mcp`): the TypeScript
//! SDK (`@modelcontextprotocol/client`) in legacy, auto and pinned-modern negotiation, and the
//! Python SDK (`mcp`) in auto, legacy and pinned-modern mode.
//!
//! Each run is one script (`tests/clients/ts_client.mjs`, `tests/clients/py_client.py`) that lists
//! the tools, calls each one, and checks argument validation, structured content, progress and
//! cancellation (over HTTP also what they looked like on the wire); it prints a line per check and
//! exits non-zero when any fails.
//!
//! The same clients also drive the apps example (`ts_apps.mjs`, `py_apps.py`): tools with views
//! (MCP Apps), their `_meta.ui`, the views read as resources, and the review pair.
//!
//! Without the clients installed these tests only say so, unless `CI` is set: then they fail.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mcp_toolbelt_tests::{CatalogHttp, collect, drain, example_binary, node22, repo_root};

/// How long one client run may take (a run takes one or two seconds).
const RUN_TIMEOUT: Duration = Duration::from_secs(90);

enum Client {
    TypeScript,
    Python,
}

impl Client {
    /// The interpreter and script, or `None` when the client is not installed.
    fn command(&self) -> Option<(PathBuf, PathBuf)> {
        let clients = repo_root().join("tests/clients");
        match self {
            Self::TypeScript => {
                let installed =
                    clients.join("node_modules/@modelcontextprotocol/client/package.json");
                Some((node22()?, clients.join("ts_client.mjs"))).filter(|_| installed.exists())
            }
            Self::Python => {
                let python = clients.join(".venv/bin/python");
                python
                    .exists()
                    .then(|| (python, clients.join("py_client.py")))
            }
        }
    }
}

/// The interpreter and script of `client`, or `None` when it is not installed (a failure under
/// `CI`).
fn installed(client: &Client) -> Option<(PathBuf, PathBuf)> {
    let command = client.command();
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

/// Runs `client` in `mode` against the catalog over stdio and fails the test with the script's
/// output unless every check passed.
fn run(client: &Client, mode: &str) {
    let Some((interpreter, script)) = installed(client) else {
        return;
    };
    let catalog = example_binary("catalog");
    if let Err(report) = run_script(&interpreter, &script, mode, &[catalog.as_os_str()]) {
        panic!("{report}");
    }
}

/// Runs `client`'s MCP Apps script (`ts_apps.mjs`, `py_apps.py`) in `mode` against the apps
/// example, over stdio or (`http`) Streamable HTTP.
fn run_apps(client: &Client, mode: &str, http: bool) {
    let Some((interpreter, script)) = installed(client) else {
        return;
    };
    let script = script.with_file_name(match client {
        Client::TypeScript => "ts_apps.mjs",
        Client::Python => "py_apps.py",
    });
    if http {
        let server = CatalogHttp::start_example("apps", |address| address.to_string(), &[], &[]);
        let url = server.url();
        let target = ["--url".as_ref(), url.as_ref()];
        if let Err(report) = run_script(&interpreter, &script, mode, &target) {
            let log = server.stop();
            panic!("{report}--- apps --http stderr\n{log}");
        }
    } else {
        let apps = example_binary("apps");
        if let Err(report) = run_script(&interpreter, &script, mode, &[apps.as_os_str()]) {
            panic!("{report}");
        }
    }
}

/// Runs `client` in `mode` against the catalog over Streamable HTTP, as [`run`] does over stdio.
fn run_http(client: &Client, mode: &str) {
    let Some((interpreter, script)) = installed(client) else {
        return;
    };
    let server = CatalogHttp::start();
    let url = server.url();
    if let Err(report) = run_script(
        &interpreter,
        &script,
        mode,
        &["--url".as_ref(), url.as_ref()],
    ) {
        let log = server.stop();
        panic!("{report}--- catalog --http stderr\n{log}");
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
    let child = Command::new(interpreter)
        .arg(script)
        .arg(mode)
        .args(target)
        .env("CATALOG_TEST_TOOLS", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| panic!("cannot start {}: {error}", interpreter.display()));
    let (outcome, stdout, stderr) = wait_with_timeout(child, RUN_TIMEOUT);
    let target: Vec<String> = target.iter().map(|part| short(Path::new(part))).collect();
    let command = format!(
        "{} {} {mode} {}",
        short(interpreter),
        short(script),
        target.join(" ")
    );
    match outcome {
        Some(status) if status.success() => Ok(()),
        Some(status) => Err(format!(
            "`{command}` failed ({status})\n--- stdout\n{stdout}--- stderr\n{stderr}"
        )),
        None => Err(format!(
            "`{command}` took longer than {RUN_TIMEOUT:?}\n--- stdout\n{stdout}--- stderr\n{stderr}"
        )),
    }
}

/// Waits for `child` at most `timeout` (killing it after), and returns its status (`None`: timed
/// out) and what it wrote.
fn wait_with_timeout(
    mut child: Child,
    timeout: Duration,
) -> (Option<std::process::ExitStatus>, String, String) {
    let stdout = drain(child.stdout.take().expect("stdout is piped"));
    let stderr = drain(child.stderr.take().expect("stderr is piped"));
    let deadline = Instant::now() + timeout;
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
    (status, collect(stdout), collect(stderr))
}

fn short(path: &Path) -> String {
    path.strip_prefix(repo_root())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn typescript_client_legacy() {
    run(&Client::TypeScript, "legacy");
}

#[test]
fn typescript_client_auto() {
    run(&Client::TypeScript, "auto");
}

#[test]
fn typescript_client_modern() {
    run(&Client::TypeScript, "modern");
}

#[test]
fn python_client_auto() {
    run(&Client::Python, "auto");
}

#[test]
fn python_client_legacy() {
    run(&Client::Python, "legacy");
}

#[test]
fn python_client_modern() {
    run(&Client::Python, "modern");
}

#[test]
fn typescript_client_http_legacy() {
    run_http(&Client::TypeScript, "legacy");
}

#[test]
fn typescript_client_http_auto() {
    run_http(&Client::TypeScript, "auto");
}

#[test]
fn typescript_client_http_modern() {
    run_http(&Client::TypeScript, "modern");
}

#[test]
fn python_client_http_auto() {
    run_http(&Client::Python, "auto");
}

#[test]
fn python_client_http_legacy() {
    run_http(&Client::Python, "legacy");
}

#[test]
fn python_client_http_modern() {
    run_http(&Client::Python, "modern");
}

#[test]
fn typescript_client_apps_legacy() {
    run_apps(&Client::TypeScript, "legacy", false);
}

#[test]
fn typescript_client_apps_http_legacy() {
    run_apps(&Client::TypeScript, "legacy", true);
}

#[test]
fn typescript_client_apps_auto() {
    run_apps(&Client::TypeScript, "auto", false);
}

#[test]
fn typescript_client_apps_http_auto() {
    run_apps(&Client::TypeScript, "auto", true);
}

#[test]
fn typescript_client_apps_modern() {
    run_apps(&Client::TypeScript, "modern", false);
}

#[test]
fn typescript_client_apps_http_modern() {
    run_apps(&Client::TypeScript, "modern", true);
}

#[test]
fn python_client_apps_legacy() {
    run_apps(&Client::Python, "legacy", false);
}

#[test]
fn python_client_apps_http_legacy() {
    run_apps(&Client::Python, "legacy", true);
}

#[test]
fn python_client_apps_auto() {
    run_apps(&Client::Python, "auto", false);
}

#[test]
fn python_client_apps_http_auto() {
    run_apps(&Client::Python, "auto", true);
}

#[test]
fn python_client_apps_modern() {
    run_apps(&Client::Python, "modern", false);
}

#[test]
fn python_client_apps_http_modern() {
    run_apps(&Client::Python, "modern", true);
}
