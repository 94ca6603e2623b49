//! The official MCP clients, installed by `tests/clients/install.sh`, against the catalog example
//! over stdio and over Streamable HTTP (`catalog --http 127.0.0.1:PORT`, at `/mcp`): the TypeScript
//! SDK (`@modelcontextprotocol/client`) in legacy, auto and pinned-modern negotiation, and the
//! Python SDK (`mcp`) in auto, legacy and pinned-modern mode.
//!
//! Each run is one script (`tests/clients/ts_client.mjs`, `tests/clients/py_client.py`) that lists
//! the tools, calls each one, and checks argument validation, structured content, progress and
//! cancellation (over HTTP also what they looked like on the wire), and that the SDK's own schema
//! parses the icons (SEP-973) of `get-weather` (a URL and a `data:` URI); it prints a line per
//! check and exits non-zero when any fails.
//!
//! The same clients also drive the examples as a host would (`tests/clients/ts_examples.mjs`,
//! `tests/clients/py_examples.py`): `weather` (the README's example) and `notes` (SQLite; each note
//! the resource `notes://{id}`, subscribed to and heard updated in both eras; the server's icon)
//! over stdio, `todo` (tools that ask the user, answered by the client in both eras) over stdio,
//! `axum-app` over HTTP with a token that has the write scope and one that lacks it; for `todo`
//! and `axum-app` also the server's description, web site and icons (SEP-973; a `data:` SVG among
//! `todo`'s), as the SDKs parse them.
//! The same clients also drive the apps example (`ts_apps.mjs`, `py_apps.py`): tools with views
//! (MCP Apps), their `_meta.ui`, the views read as resources, and the review pair.
//!
//! Without the clients installed these tests only say so, unless `CI` is set: then they fail.

use std::ffi::OsStr;
use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use mcp_toolbelt_tests::{
    CatalogHttp, collect, drain, example_binary, node22, package_binary, repo_root,
};

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

// ---- the examples ------------------------------------------------------------------------------

/// Runs `client`'s examples script in `mode` for `example` against `target` (a server command, or
/// the axum app's base URL and tokens); `Err` is the report of a failed run. A client that is not
/// installed is skipped (a failure under `CI`, as [`installed`] says).
fn run_example(
    client: &Client,
    mode: &str,
    example: &str,
    target: &[&OsStr],
) -> Result<(), String> {
    let Some((interpreter, script)) = installed(client) else {
        return Ok(());
    };
    let script = script.with_file_name(match client {
        Client::TypeScript => "ts_examples.mjs",
        Client::Python => "py_examples.py",
    });
    let mut arguments = vec![OsStr::new(example)];
    arguments.extend_from_slice(target);
    run_script(&interpreter, &script, mode, &arguments)
}

/// The README's example over stdio: its one tool, as listed and called.
fn weather(client: &Client, mode: &str) {
    let weather = example_binary("weather");
    run_example(client, mode, "weather", &[weather.as_os_str()])
        .unwrap_or_else(|report| panic!("{report}"));
}

/// The to-do example, whose tools ask the user before they act: the client answers their
/// elicitations (requests in legacy mode, `input_required` rounds in modern mode).
fn todo(client: &Client, mode: &str) {
    let todo = example_binary("todo");
    run_example(client, mode, "todo", &[todo.as_os_str()])
        .unwrap_or_else(|report| panic!("{report}"));
}

/// The notes server on a database that does not exist yet (nor does its folder): add, search,
/// list, edit and delete in one run (`mode`), then a second server on the same file finds the
/// note the first left (`reopened_mode`). Each run reads a note as the resource `notes://{id}`,
/// subscribes to it and hears it updated: the two modes are the two eras (`auto` negotiates
/// 2026-07-28).
fn notes(client: &Client, mode: &str, reopened_mode: &str) {
    let notes = package_binary("mcp-toolbelt-example-notes", "notes");
    let scratch = Scratch::new(&format!("notes-{mode}"));
    let database = scratch.0.join("data/notes.db");
    let target = [notes.as_os_str(), database.as_os_str()];
    if installed(client).is_none() {
        return;
    }
    run_example(client, mode, "notes", &target).unwrap_or_else(|report| panic!("{report}"));
    assert!(database.is_file(), "{} was not created", database.display());
    run_example(client, reopened_mode, "notes-reopened", &target)
        .unwrap_or_else(|report| panic!("{report}"));
}

/// [`notes`] over Streamable HTTP (`notes --http ADDRESS DATABASE`): one server, a first client in
/// `mode` on an empty database, then a second in `second_mode` that finds the note the first
/// left; each subscribes to a note (on a legacy session, told on its GET stream).
fn notes_http(client: &Client, mode: &str, second_mode: &str) {
    if installed(client).is_none() {
        return;
    }
    let scratch = Scratch::new(&format!("notes-http-{mode}"));
    let database = scratch.0.join("notes.db");
    let notes = package_binary("mcp-toolbelt-example-notes", "notes");
    let server = CatalogHttp::start_binary(
        &notes,
        |address| address.to_string(),
        &[database.to_str().expect("a UTF-8 temporary path")],
        &[],
    );
    let url = server.url();
    let target = ["--url".as_ref(), url.as_ref()];
    let run = run_example(client, mode, "notes", &target)
        .and_then(|()| run_example(client, second_mode, "notes-reopened", &target));
    if let Err(report) = run {
        let log = server.stop();
        panic!("{report}--- notes --http stderr\n{log}");
    }
}

/// A folder of its own under the system's temporary one, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(label: &str) -> Self {
        let folder =
            std::env::temp_dir().join(format!("mcp-toolbelt-{label}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        Self(folder)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The token that may read and write the inventory.
const WRITER: &str = "writer-7f3a";
/// The token that may only read it.
const READER: &str = "reader-91cd";

/// The axum app on a free port with [`WRITER`] and [`READER`], driven by `client`: its own
/// routes, the `401` without a token, the tools with the write scope, the refusal without it.
fn axum_app(client: &Client, mode: &str) {
    if installed(client).is_none() {
        return;
    }
    let app = AxumApp::start();
    let target = [app.base.as_ref(), WRITER.as_ref(), READER.as_ref()];
    if let Err(report) = run_example(client, mode, "axum-app", &target) {
        let log = app.stop();
        panic!("{report}--- axum-app stderr\n{log}");
    }
}

/// `axum-app 127.0.0.1:0`: the port it bound is read from its first line on stderr, so no other
/// process can take it first. Killed when dropped.
struct AxumApp {
    child: Child,
    base: String,
    stderr: Option<JoinHandle<String>>,
}

impl AxumApp {
    fn start() -> Self {
        let binary = example_binary("axum-app");
        let mut child = Command::new(&binary)
            .arg("127.0.0.1:0")
            .env(
                "APP_TOKENS",
                format!("{READER}=inventory:read {WRITER}=inventory:read,inventory:write"),
            )
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {}: {error}", binary.display()));
        let stderr = child.stderr.take().expect("stderr is piped");
        let (address, listening) = mpsc::channel();
        let stderr = std::thread::spawn(move || {
            let mut log = String::new();
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(rest) = line.strip_prefix("axum-app: listening on ") {
                    let _ = address.send(rest.split(' ').next().unwrap_or_default().to_owned());
                }
                log.push_str(&line);
                log.push('\n');
            }
            log
        });
        let mut app = Self {
            child,
            base: String::new(),
            stderr: Some(stderr),
        };
        match listening.recv_timeout(Duration::from_secs(20)) {
            Ok(base) => app.base = base,
            Err(error) => panic!(
                "axum-app did not say where it listens ({error}):\n{}",
                app.stop()
            ),
        }
        app
    }

    /// Kills the app and returns what it wrote to stderr.
    fn stop(mut self) -> String {
        self.kill();
        self.stderr.take().map_or_else(String::new, collect)
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for AxumApp {
    fn drop(&mut self) {
        self.kill();
    }
}

#[test]
fn python_client_weather() {
    weather(&Client::Python, "auto");
}

#[test]
fn typescript_client_todo_legacy() {
    todo(&Client::TypeScript, "legacy");
}

#[test]
fn typescript_client_todo_modern() {
    todo(&Client::TypeScript, "modern");
}

#[test]
fn python_client_todo_legacy() {
    todo(&Client::Python, "legacy");
}

#[test]
fn python_client_todo_modern() {
    todo(&Client::Python, "modern");
}

#[test]
fn typescript_client_weather() {
    weather(&Client::TypeScript, "legacy");
}

#[test]
fn python_client_notes() {
    notes(&Client::Python, "auto", "legacy");
}

#[test]
fn typescript_client_notes() {
    notes(&Client::TypeScript, "modern", "legacy");
}

#[test]
fn python_client_notes_http() {
    notes_http(&Client::Python, "legacy", "auto");
}

#[test]
fn typescript_client_notes_http() {
    notes_http(&Client::TypeScript, "auto", "legacy");
}

#[test]
fn python_client_axum_app_auto() {
    axum_app(&Client::Python, "auto");
}

#[test]
fn python_client_axum_app_legacy() {
    axum_app(&Client::Python, "legacy");
}

#[test]
fn typescript_client_axum_app_auto() {
    axum_app(&Client::TypeScript, "auto");
}

#[test]
fn typescript_client_axum_app_legacy() {
    axum_app(&Client::TypeScript, "legacy");
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
