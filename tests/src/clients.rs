//! The official MCP clients (the TypeScript and Python SDKs, installed by
//! `tests/clients/install.sh`) running a script of checks against an example server, over stdio
//! or Streamable HTTP. Each script prints a line per check and exits non-zero when any fails.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{CatalogHttp, collect, drain, example_binary, node22, repo_root};

/// How long one client run may take (a run takes a second or two).
const RUN_TIMEOUT: Duration = Duration::from_secs(90);

/// An official MCP client SDK.
#[derive(Debug, Clone, Copy)]
pub enum Sdk {
    /// `@modelcontextprotocol/client`, run by Node 22.
    TypeScript,
    /// The `mcp` package, run by the virtualenv's Python.
    Python,
}

/// The scripts of one suite of checks, in `tests/clients/`.
#[derive(Debug, Clone, Copy)]
pub struct Scripts {
    /// The TypeScript script (`ts_….mjs`).
    pub typescript: &'static str,
    /// The Python script (`py_….py`).
    pub python: &'static str,
}

/// The interpreter of `sdk` and the path of `script`, or `None` when the SDK is not installed
/// (a failure under `CI`).
fn installed(sdk: Sdk, script: &str) -> Option<(PathBuf, PathBuf)> {
    let clients = repo_root().join("tests/clients");
    let command = match sdk {
        Sdk::TypeScript => {
            let package = clients.join("node_modules/@modelcontextprotocol/client/package.json");
            node22()
                .filter(|_| package.exists())
                .map(|node| (node, clients.join(script)))
        }
        Sdk::Python => {
            let python = clients.join(".venv/bin/python");
            python.exists().then(|| (python, clients.join(script)))
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

/// Runs `sdk`'s script of `scripts` in `mode` (`legacy`, `modern`, `auto`) against `example`,
/// over stdio or (`http`) Streamable HTTP, and fails the test with the script's output (and the
/// server's log) unless every check passed.
pub fn check_example(sdk: Sdk, scripts: Scripts, example: &str, mode: &str, http: bool) {
    check_binary(sdk, scripts, &example_binary(example), &[], mode, http);
}

/// Runs one script of `tests/clients/` (`script`, written for `sdk`: a suite with no
/// counterpart in the other SDK, such as `ts_tasks.mjs`) as [`check_example`] runs a suite's.
pub fn check_script(sdk: Sdk, script: &str, example: &str, mode: &str, http: bool) {
    run(sdk, script, &example_binary(example), &[], mode, http);
}

/// [`check_example`] for any server binary (the notes example, a package of its own), started
/// with `arguments` after its `--http ADDRESS` (HTTP) or alone (stdio).
pub fn check_binary(
    sdk: Sdk,
    scripts: Scripts,
    binary: &Path,
    arguments: &[&OsStr],
    mode: &str,
    http: bool,
) {
    let script = match sdk {
        Sdk::TypeScript => scripts.typescript,
        Sdk::Python => scripts.python,
    };
    run(sdk, script, binary, arguments, mode, http);
}

/// Runs `script` with `sdk`'s interpreter against `binary`; see [`check_binary`].
fn run(sdk: Sdk, script: &str, binary: &Path, arguments: &[&OsStr], mode: &str, http: bool) {
    let Some((interpreter, script)) = installed(sdk, script) else {
        return;
    };
    let example = binary
        .file_name()
        .map_or_else(String::new, |name| name.to_string_lossy().into_owned());
    let server = http.then(|| {
        let arguments: Vec<&str> = arguments
            .iter()
            .filter_map(|argument| argument.to_str())
            .collect();
        CatalogHttp::start_binary(binary, |address| address.to_string(), &arguments, &[])
    });
    let target = match &server {
        Some(server) => vec!["--url".to_owned(), server.url()],
        None => std::iter::once(binary.as_os_str())
            .chain(arguments.iter().copied())
            .map(|part| part.to_string_lossy().into_owned())
            .collect(),
    };
    let mut arguments = vec![mode.to_owned()];
    arguments.extend(target.iter().cloned());
    let (status, stdout, stderr) = run_script(&interpreter, &script, &arguments);
    if status.is_some_and(|status| status.success()) {
        return;
    }
    let outcome = status.map_or_else(
        || format!("took longer than {RUN_TIMEOUT:?}"),
        |status| format!("failed ({status})"),
    );
    let log = server.map(CatalogHttp::stop).unwrap_or_default();
    panic!(
        "`{} {mode} {}` {outcome}\n--- stdout\n{stdout}--- stderr\n{stderr}--- {example} stderr\n{log}",
        script.display(),
        target.join(" ")
    );
}

/// Runs `sdk`'s `script` of `tests/clients/` in `mode` against `url`, a server the caller runs
/// (replicas behind a balancer): `None` when the SDK is not installed (a failure under `CI`),
/// else `Ok` with what the script printed when every check passed, or `Err` with its output.
#[must_use]
pub fn run_against(
    sdk: Sdk,
    script: &str,
    mode: &str,
    url: &str,
) -> Option<Result<String, String>> {
    let (interpreter, script) = installed(sdk, script)?;
    let arguments = [mode.to_owned(), "--url".to_owned(), url.to_owned()];
    let (status, stdout, stderr) = run_script(&interpreter, &script, &arguments);
    if status.is_some_and(|status| status.success()) {
        return Some(Ok(stdout));
    }
    let outcome = status.map_or_else(
        || format!("took longer than {RUN_TIMEOUT:?}"),
        |status| format!("failed ({status})"),
    );
    Some(Err(format!(
        "`{} {mode} --url {url}` {outcome}\n--- stdout\n{stdout}--- stderr\n{stderr}",
        script.display()
    )))
}

/// Runs `interpreter script arguments…`, killed after [`RUN_TIMEOUT`]: its exit status (`None`:
/// it timed out), stdout and stderr.
fn run_script(
    interpreter: &Path,
    script: &Path,
    arguments: &[String],
) -> (Option<std::process::ExitStatus>, String, String) {
    let mut child = Command::new(interpreter)
        .arg(script)
        .args(arguments)
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
    (status, collect(stdout), collect(stderr))
}
