//! Helpers shared by the integration tests in `tests/tests/`.

use std::io::{BufRead, BufReader, Read};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub mod clients;
pub mod http;
pub mod in_process;
pub mod oauth;
pub mod services;
pub mod stdio;

/// The path of example `name` (`catalog`, `conformance`, `weather`, `axum-app`), built first so
/// that a test never runs a stale binary (cheap when it is up to date; once per test process and
/// example).
#[must_use]
pub fn example_binary(name: &str) -> PathBuf {
    built("mcp-toolbelt-examples", "--example", name)
}

/// The path of binary `name` of workspace package `package` (the notes example, a package of its
/// own), built first as [`example_binary`] does.
#[must_use]
pub fn package_binary(package: &str, name: &str) -> PathBuf {
    built(package, "--bin", name)
}

/// Builds target `name` (`kind` is `--example` or `--bin`) of `package` once per test process
/// (not at all with `MCP_TOOLBELT_TESTS_PREBUILT` set, when it is there), and gives its path.
fn built(package: &str, kind: &str, name: &str) -> PathBuf {
    static BUILT: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let target_dir = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.to_path_buf()))
        .expect("test binaries live in target/<profile>/deps");
    let folder = if kind == "--example" {
        target_dir.join("examples")
    } else {
        target_dir
    };
    let binary = folder.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    let mut built = BUILT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let key = format!("{package} {kind} {name}");
    // `tests/run.sh` builds every example before the tests start (a cargo call per test
    // process would queue on the target directory's lock when tests run in processes of
    // their own, as under nextest).
    let prebuilt = std::env::var_os("MCP_TOOLBELT_TESTS_PREBUILT").is_some() && binary.exists();
    if !prebuilt && !built.contains(&key) {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args(["build", "--quiet", kind, name, "-p", package])
            .status()
            .expect("cargo runs");
        assert!(
            status.success(),
            "building {kind} {name} of {package} failed"
        );
        built.push(key);
    }
    binary
}

/// The root of this repository.
#[must_use]
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is inside the repository")
        .to_path_buf()
}

/// Node 22, as `tests/clients/install.sh` installs it (npm's `node@22`, under `.tools/node22`), or
/// `None` when it is not installed. Put its directory first on `PATH` to run `npx` with it.
#[must_use]
pub fn node22() -> Option<PathBuf> {
    let node = repo_root().join(".tools/node22/node_modules/node/bin/node");
    node.exists().then_some(node)
}

/// How long the catalog may take to accept connections over HTTP.
const START_TIMEOUT: Duration = Duration::from_secs(20);

/// `catalog --http` (with `CATALOG_TEST_TOOLS=1`, which adds the `wait` tool) on a free local
/// port, its stderr drained so a chatty server never blocks; killed when dropped.
pub struct CatalogHttp {
    /// The server process.
    pub child: Child,
    /// Where it accepts connections.
    pub address: SocketAddr,
    stderr: Option<JoinHandle<String>>,
}

impl CatalogHttp {
    /// Starts the catalog on a port that was free a moment ago (another process may take it
    /// first: then the catalog exits and another port is tried), and waits until it says it
    /// serves (its `serving MCP over Streamable HTTP` log line: a connection alone could reach
    /// another test's server that took the port first) and accepts connections.
    ///
    /// # Panics
    ///
    /// When it cannot be started, or accepts no connection in time.
    #[must_use]
    pub fn start() -> Self {
        Self::start_with(|address| address.to_string(), &[], &[])
    }

    /// [`CatalogHttp::start`] with `--http` given `bind(address)` (the server is reached at
    /// `address` all the same: bind `0.0.0.0:PORT` to test a server bound to every address), and
    /// `arguments` and `environment` added.
    ///
    /// # Panics
    ///
    /// As [`CatalogHttp::start`].
    #[must_use]
    pub fn start_with(
        bind: impl Fn(SocketAddr) -> String,
        arguments: &[&str],
        environment: &[(&str, &str)],
    ) -> Self {
        Self::start_example("catalog", bind, arguments, environment)
    }

    /// [`CatalogHttp::start_with`] for example `name` (`apps`, …) instead of the catalog.
    /// `MCP_REQUEST_STATE_KEY` and `MCP_STATELESS` are taken from `environment` only, never
    /// from this process's.
    ///
    /// # Panics
    ///
    /// As [`CatalogHttp::start`].
    #[must_use]
    pub fn start_example(
        name: &str,
        bind: impl Fn(SocketAddr) -> String,
        arguments: &[&str],
        environment: &[(&str, &str)],
    ) -> Self {
        Self::start_binary(&example_binary(name), bind, arguments, environment)
    }

    /// [`CatalogHttp::start_example`] for the binary at `catalog` (a test binary,
    /// `env!("CARGO_BIN_EXE_…")`).
    ///
    /// # Panics
    ///
    /// As [`CatalogHttp::start`].
    #[must_use]
    pub fn start_binary(
        catalog: &Path,
        bind: impl Fn(SocketAddr) -> String,
        arguments: &[&str],
        environment: &[(&str, &str)],
    ) -> Self {
        for _ in 0..5 {
            let address = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
                .and_then(|listener| listener.local_addr())
                .expect("a free local port");
            let mut child = Command::new(catalog)
                .arg("--http")
                .arg(bind(address))
                .args(arguments)
                // The developer's own settings must not change a test's result.
                .env_remove("MCP_REQUEST_STATE_KEY")
                .env_remove("MCP_STATELESS")
                // Its start-up line at `info` is how readiness is told.
                .env_remove("RUST_LOG")
                .envs(environment.iter().copied())
                .env("CATALOG_TEST_TOOLS", "1")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap_or_else(|error| panic!("cannot start {}: {error}", catalog.display()));
            let serving = Arc::new(AtomicBool::new(false));
            let stderr = drain_watching(
                child.stderr.take().expect("stderr is piped"),
                Arc::clone(&serving),
            );
            let mut server = Self {
                child,
                address,
                stderr: Some(stderr),
            };
            let deadline = Instant::now() + START_TIMEOUT;
            loop {
                if server
                    .child
                    .try_wait()
                    .expect("waiting for the catalog")
                    .is_some()
                {
                    eprintln!(
                        "catalog --http {address} exited at once:\n{}",
                        server.stop()
                    );
                    break;
                }
                if serving.load(Ordering::SeqCst)
                    && TcpStream::connect_timeout(&address, Duration::from_secs(1)).is_ok()
                {
                    return server;
                }
                assert!(
                    Instant::now() < deadline,
                    "catalog --http {address} accepted no connection within {START_TIMEOUT:?}:\n{}",
                    server.stop()
                );
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        panic!("catalog --http could not be started on a free port (5 tries)");
    }

    /// The MCP endpoint.
    #[must_use]
    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.address)
    }

    /// Kills the server and returns what it wrote to stderr.
    #[must_use]
    pub fn stop(mut self) -> String {
        self.kill();
        self.stderr.take().map_or_else(String::new, collect)
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for CatalogHttp {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Reads `stream` to its end on a thread of its own; the handle yields what it read.
pub fn drain(stream: impl Read + Send + 'static) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = { stream }.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// [`drain`], setting `serving` once a line says the server serves over HTTP.
fn drain_watching(
    stream: impl Read + Send + 'static,
    serving: Arc<AtomicBool>,
) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stream);
        let mut all = Vec::new();
        let mut line = Vec::new();
        while reader
            .read_until(b'\n', &mut line)
            .is_ok_and(|read| read > 0)
        {
            if String::from_utf8_lossy(&line).contains("serving MCP over Streamable HTTP") {
                serving.store(true, Ordering::SeqCst);
            }
            all.append(&mut line);
        }
        String::from_utf8_lossy(&all).into_owned()
    })
}

/// What `handle` drained, waiting for it at most a few seconds: a process left behind may hold
/// the pipes open.
#[must_use]
pub fn collect(handle: JoinHandle<String>) -> String {
    let until = Instant::now() + Duration::from_secs(5);
    while !handle.is_finished() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    if handle.is_finished() {
        handle.join().unwrap_or_default()
    } else {
        "(output still open)\n".into()
    }
}
