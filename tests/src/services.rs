//! Real services for the replica tests: a Redis server, nginx as a load balancer, and replicas of
//! an example server sharing one Redis. Each runs as a process of its own on a free local port,
//! in a temporary folder of its own (never a system service, never a well-known port), and is
//! killed when its value is dropped.
//!
//! `redis-server` and `nginx` are Debian's (`tests/run.sh` installs them when missing). Without
//! them [`RedisServer::start`] and [`Nginx::start`] say SKIPPED and give `None`, unless `CI` is
//! set: then they fail the test.

use std::fmt::Write as _;
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::{CatalogHttp, collect, drain, example_binary};

/// How long a service may take to answer after it was started.
const START_TIMEOUT: Duration = Duration::from_secs(20);

/// How long a replica stopped with SIGTERM may take to exit (its shutdown lets calls finish).
const STOP_TIMEOUT: Duration = Duration::from_secs(30);

/// `program` found on `PATH` (or in `/usr/sbin`, where Debian puts nginx for root only), or
/// `None` after saying SKIPPED (a failure under `CI`).
fn installed(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/usr/bin")])
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file());
    if found.is_none() {
        let missing = format!(
            "{program} is not installed (run bash tests/run.sh: apt-get install redis-server nginx)"
        );
        assert!(std::env::var_os("CI").is_none(), "{missing}");
        eprintln!("SKIPPED: {missing}");
    }
    found
}

/// A port of 127.0.0.1 that was free a moment ago.
fn free_port() -> u16 {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|listener| listener.local_addr())
        .expect("a free local port")
        .port()
}

/// A fresh folder of its own under the system's temporary folder, for `what`.
fn temp_dir(what: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "mcp-toolbelt-{what}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// Sends `signal` (`TERM`, `KILL`) to process `pid`.
fn signal(pid: u32, signal: &str) {
    let status = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -{signal} {pid} failed");
}

/// Waits at most `timeout` for `child` to exit.
fn wait_for(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(status) = child.try_wait().expect("waiting for a child process") {
            return Some(status);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

// ---- Redis ---------------------------------------------------------------------------------

/// A `redis-server` of this test alone: a free port, its own folder, nothing saved to disk
/// (`--save "" --appendonly no`). Killed when dropped.
pub struct RedisServer {
    binary: PathBuf,
    port: u16,
    dir: PathBuf,
    child: Option<Child>,
    log: Option<JoinHandle<String>>,
    earlier_logs: String,
}

impl RedisServer {
    /// Starts one and waits until it answers `PING`; `None` (SKIPPED) when `redis-server` is
    /// not installed (a failure under `CI`).
    ///
    /// # Panics
    ///
    /// When it cannot be started, or does not answer in time.
    #[must_use]
    pub fn start() -> Option<Self> {
        let binary = installed("redis-server")?;
        for _ in 0..5 {
            let mut redis = Self {
                binary: binary.clone(),
                port: free_port(),
                dir: temp_dir("redis"),
                child: None,
                log: None,
                earlier_logs: String::new(),
            };
            if redis.spawn() {
                return Some(redis);
            }
        }
        panic!("redis-server could not be started on a free port (5 tries)");
    }

    /// `redis://127.0.0.1:PORT`.
    #[must_use]
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Its port.
    #[must_use]
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Kills it (SIGKILL: an outage, not a shutdown), and waits until it is gone.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        if let Some(log) = self.log.take() {
            self.earlier_logs.push_str(&collect(log));
        }
    }

    /// Starts it again on the same port (empty: nothing was saved), after [`RedisServer::stop`].
    ///
    /// # Panics
    ///
    /// When it is running, or does not answer in time (another process took the port).
    pub fn start_again(&mut self) {
        assert!(self.child.is_none(), "redis-server is still running");
        let started = self.spawn();
        assert!(
            started,
            "redis-server could not start again on port {}:\n{}",
            self.port,
            self.logs()
        );
    }

    /// Whether it answers `PING` now.
    #[must_use]
    pub fn answers(&self) -> bool {
        ping(self.port)
    }

    /// Sends one inline command (`PTTL key`, `DEBUG SLEEP 3`) and waits for its reply; its
    /// first line (`""` when Redis cannot be reached).
    #[must_use]
    pub fn command(&self, command: &str) -> String {
        let Ok(mut stream) = TcpStream::connect((Ipv4Addr::LOCALHOST, self.port)) else {
            return String::new();
        };
        let _ = stream.set_read_timeout(Some(START_TIMEOUT));
        if stream
            .write_all(format!("{command}\r\n").as_bytes())
            .is_err()
        {
            return String::new();
        }
        let mut reply = [0; 256];
        let read = stream.read(&mut reply).unwrap_or(0);
        String::from_utf8_lossy(&reply[..read]).trim().to_owned()
    }

    /// The field `name` of `INFO section` (`used_memory` of `memory`, `total_net_input_bytes`
    /// of `stats`) as a number; `0` when Redis cannot be reached or has no such field.
    #[must_use]
    pub fn info(&self, section: &str, name: &str) -> u64 {
        let Ok(mut stream) = TcpStream::connect((Ipv4Addr::LOCALHOST, self.port)) else {
            return 0;
        };
        let _ = stream.set_read_timeout(Some(START_TIMEOUT));
        if stream
            .write_all(format!("INFO {section}\r\nQUIT\r\n").as_bytes())
            .is_err()
        {
            return 0;
        }
        let mut reply = String::new();
        let _ = stream.read_to_string(&mut reply);
        reply
            .lines()
            .find_map(|line| line.strip_prefix(&format!("{name}:")))
            .and_then(|value| value.trim().parse().ok())
            .unwrap_or(0)
    }

    /// What it logged so far (every run of it).
    #[must_use]
    pub fn logs(&self) -> String {
        let mut logs = self.earlier_logs.clone();
        if let Ok(text) = std::fs::read_to_string(self.dir.join("redis.log")) {
            logs.push_str(&text);
        }
        logs
    }

    /// Starts the process on `self.port`; whether it answers `PING` in time.
    fn spawn(&mut self) -> bool {
        let mut child = Command::new(&self.binary)
            .args(["--port", &self.port.to_string()])
            .args(["--bind", "127.0.0.1"])
            .args(["--save", ""])
            .args(["--appendonly", "no"])
            // `DEBUG SLEEP`: the tests of a slow Redis.
            .args(["--enable-debug-command", "yes"])
            .arg("--dir")
            .arg(&self.dir)
            .arg("--logfile")
            .arg(self.dir.join("redis.log"))
            .args(["--daemonize", "no"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {}: {error}", self.binary.display()));
        self.log = Some(drain(child.stderr.take().expect("stderr is piped")));
        let deadline = Instant::now() + START_TIMEOUT;
        self.child = Some(child);
        while Instant::now() < deadline {
            let exited = self
                .child
                .as_mut()
                .and_then(|child| child.try_wait().ok().flatten());
            if exited.is_some() {
                self.child = None;
                return false;
            }
            if ping(self.port) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        self.stop();
        false
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Whether a Redis on `port` answers `PING` with `+PONG`.
fn ping(port: u16) -> bool {
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let Ok(mut stream) = TcpStream::connect_timeout(&address, Duration::from_millis(200)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    let mut reply = [0; 7];
    stream.write_all(b"PING\r\n").is_ok()
        && stream.read_exact(&mut reply).is_ok()
        && &reply == b"+PONG\r\n"
}

// ---- nginx ---------------------------------------------------------------------------------

/// nginx in front of `upstreams`, as a deployment runs it for MCP's Streamable HTTP: round robin
/// with no stickiness, HTTP/1.1 to the upstreams with keep-alive (`Connection ""`), no
/// buffering and no cache (SSE flows as it is written), an hour before a quiet stream is cut.
/// Its own prefix folder, configuration and error log ([`Nginx::error_log`], for a failing
/// test to print). Killed when dropped.
pub struct Nginx {
    child: Child,
    address: SocketAddr,
    prefix: PathBuf,
}

impl Nginx {
    /// Starts it on a free port in front of `upstreams`, and waits until it accepts
    /// connections; `None` (SKIPPED) when `nginx` is not installed (a failure under `CI`).
    ///
    /// # Panics
    ///
    /// When it cannot be started.
    #[must_use]
    pub fn start(upstreams: &[SocketAddr]) -> Option<Self> {
        let binary = installed("nginx")?;
        for _ in 0..5 {
            let prefix = temp_dir("nginx");
            let address = SocketAddr::from((Ipv4Addr::LOCALHOST, free_port()));
            std::fs::write(
                prefix.join("nginx.conf"),
                config(&prefix, address, upstreams),
            )
            .expect("nginx.conf written");
            let mut child = Command::new(&binary)
                .arg("-p")
                .arg(&prefix)
                .arg("-c")
                .arg(prefix.join("nginx.conf"))
                .arg("-e")
                .arg(prefix.join("error.log"))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap_or_else(|error| panic!("cannot start {}: {error}", binary.display()));
            let deadline = Instant::now() + START_TIMEOUT;
            loop {
                if child.try_wait().expect("waiting for nginx").is_some() {
                    eprintln!(
                        "nginx on {address} exited at once:\n{}",
                        std::fs::read_to_string(prefix.join("error.log")).unwrap_or_default()
                    );
                    break;
                }
                if TcpStream::connect_timeout(&address, Duration::from_secs(1)).is_ok() {
                    return Some(Self {
                        child,
                        address,
                        prefix,
                    });
                }
                if Instant::now() >= deadline {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!(
                        "nginx on {address} accepted no connection within {START_TIMEOUT:?}:\n{}",
                        std::fs::read_to_string(prefix.join("error.log")).unwrap_or_default()
                    );
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        panic!("nginx could not be started on a free port (5 tries)");
    }

    /// Where it accepts connections.
    #[must_use]
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The MCP endpoint, through the balancer.
    #[must_use]
    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.address)
    }

    /// Its error log so far (upstreams refused or cut, as nginx saw them).
    #[must_use]
    pub fn error_log(&self) -> String {
        std::fs::read_to_string(self.prefix.join("error.log")).unwrap_or_default()
    }

    /// Its access log so far: one line per request, with the upstream that served it.
    #[must_use]
    pub fn access_log(&self) -> String {
        std::fs::read_to_string(self.prefix.join("access.log")).unwrap_or_default()
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        // The master process alone was started: SIGKILL would leave its workers listening.
        let _ = Command::new("kill")
            .args(["-QUIT", &self.child.id().to_string()])
            .status();
        if wait_for(&mut self.child, Duration::from_secs(5)).is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.prefix);
    }
}

/// The configuration of an nginx listening on `address`, its files under `prefix`.
fn config(prefix: &Path, address: SocketAddr, upstreams: &[SocketAddr]) -> String {
    let servers = upstreams
        .iter()
        .fold(String::new(), |mut servers, upstream| {
            let _ = writeln!(servers, "        server {upstream} max_fails=0;");
            servers
        });
    let prefix = prefix.display();
    format!(
        r#"# Written by tests/src/services.rs for one test.
daemon off;
master_process on;
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log info;
# Running as root, the workers would otherwise switch to a user that cannot write here.
user root;

events {{
    worker_connections 1024;
}}

http {{
    client_body_temp_path {prefix}/client_body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    log_format upstream '$request_method $status upstream=$upstream_addr session=$http_mcp_session_id last_event_id=$http_last_event_id';
    access_log {prefix}/access.log upstream;

    # Round robin, no stickiness: any replica gets any request. A replica that refuses
    # connections (killed) is skipped for the next one.
    upstream replicas {{
{servers}        keepalive 16;
    }}

    server {{
        listen {address};

        location / {{
            proxy_pass http://replicas;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            # SSE: every event goes out as it is written; a quiet stream stays open.
            proxy_buffering off;
            proxy_cache off;
            proxy_request_buffering off;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
            proxy_next_upstream error timeout;
        }}
    }}
}}
"#
    )
}

// ---- replicas ------------------------------------------------------------------------------

/// `count` replicas of one example server (`--http 127.0.0.1:PORT --redis URL`), sharing the
/// `requestState` key (`--request-state-key-file`, one file for all), each killed when dropped.
pub struct Replicas {
    running: Vec<Option<CatalogHttp>>,
    addresses: Vec<SocketAddr>,
    /// What the replicas stopped or killed so far wrote to stderr, by index.
    logs: Vec<String>,
    key_dir: PathBuf,
}

/// The shared `requestState` key, as `openssl rand -base64 32` writes one.
const SHARED_KEY: &str = "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=\n";

impl Replicas {
    /// Starts `count` replicas of example `example` on Redis `redis_url`, with `arguments` added
    /// to each, and waits until each serves.
    ///
    /// # Panics
    ///
    /// When one cannot be started.
    #[must_use]
    pub fn start(example: &str, count: usize, redis_url: &str, arguments: &[&str]) -> Self {
        Self::start_keyed(example, count, redis_url, arguments, true)
    }

    /// As [`start`](Self::start), but given no `requestState` key: only `--redis` (the
    /// replicas must agree on one through Redis).
    ///
    /// # Panics
    ///
    /// When one cannot be started.
    #[must_use]
    pub fn start_without_key(
        example: &str,
        count: usize,
        redis_url: &str,
        arguments: &[&str],
    ) -> Self {
        Self::start_keyed(example, count, redis_url, arguments, false)
    }

    fn start_keyed(
        example: &str,
        count: usize,
        redis_url: &str,
        arguments: &[&str],
        keyed: bool,
    ) -> Self {
        let binary = example_binary(example);
        let key_dir = temp_dir("replica-key");
        let key_file = key_dir.join("request-state.key");
        std::fs::write(&key_file, SHARED_KEY).expect("the key file written");
        let key_file = key_file
            .to_str()
            .expect("a UTF-8 temporary path")
            .to_owned();
        let replicas: Vec<_> = (0..count)
            .map(|_| {
                let mut all = vec!["--redis", redis_url];
                if keyed {
                    all.extend(["--request-state-key-file", key_file.as_str()]);
                }
                all.extend_from_slice(arguments);
                Some(CatalogHttp::start_binary(
                    &binary,
                    |address| address.to_string(),
                    &all,
                    &[],
                ))
            })
            .collect();
        let addresses = replicas
            .iter()
            .flatten()
            .map(|replica: &CatalogHttp| replica.address)
            .collect();
        Self {
            running: replicas,
            addresses,
            logs: vec![String::new(); count],
            key_dir,
        }
    }

    /// The addresses of every replica, running or not, by index (nginx's upstreams).
    #[must_use]
    pub fn addresses(&self) -> &[SocketAddr] {
        &self.addresses
    }

    /// The index of the running replica whose process is `pid`.
    #[must_use]
    pub fn index_of(&self, pid: u32) -> Option<usize> {
        self.running
            .iter()
            .position(|replica| replica.as_ref().is_some_and(|r| r.child.id() == pid))
    }

    /// The process id of replica `index`, while it runs.
    #[must_use]
    pub fn pid(&self, index: usize) -> Option<u32> {
        self.running[index]
            .as_ref()
            .map(|replica| replica.child.id())
    }

    /// Kills replica `index` with SIGKILL (a crash: nothing of it runs after this).
    pub fn kill(&mut self, index: usize) {
        if let Some(replica) = self.running[index].take() {
            signal(replica.child.id(), "KILL");
            self.logs[index] = replica.stop();
        }
    }

    /// Stops replica `index` with SIGTERM (a rolling update), and waits until it exits; its
    /// exit status (`None`: it did not exit within 30 s, and was killed).
    pub fn stop(&mut self, index: usize) -> Option<ExitStatus> {
        let mut replica = self.running[index].take()?;
        signal(replica.child.id(), "TERM");
        let status = wait_for(&mut replica.child, STOP_TIMEOUT);
        self.logs[index] = replica.stop();
        status
    }

    /// Whether replica `index` has exited (killed by a test, or by itself) — waiting for it
    /// at most `timeout`.
    pub fn exited(&mut self, index: usize, timeout: Duration) -> bool {
        match &mut self.running[index] {
            None => true,
            Some(replica) => wait_for(&mut replica.child, timeout).is_some(),
        }
    }

    /// What every replica wrote to stderr (the running ones are killed first), for a failing
    /// test to print.
    #[must_use]
    pub fn logs(&mut self) -> String {
        let mut text = String::new();
        for index in 0..self.running.len() {
            if let Some(replica) = self.running[index].take() {
                self.logs[index] = replica.stop();
            }
            let _ = write!(text, "--- replica {index} stderr\n{}", self.logs[index]);
        }
        text
    }
}

impl Drop for Replicas {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.key_dir);
    }
}
