//! Runs over Streamable HTTP: the server is spawned on a free local port; each of
//! `load.concurrency` keep-alive HTTP/1 connections (`TCP_NODELAY` on the driver's side) has one
//! request in flight at a time. Replies may be JSON or an SSE stream; a legacy run opens one
//! session and shares it, a 2026-07-28 run sends `_meta` and the matching headers.

use std::net::{Ipv4Addr, TcpListener};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt as _, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use crate::messages::{self, Reply};
use crate::{Era, Error, Load, Measured, Mode, rss};

/// How long a server may take to answer its first request.
const READY_WITHIN: Duration = Duration::from_secs(30);

/// Spawns `command` (every `{port}` replaced by a free port) and measures `load` against
/// `url` (its `{port}` replaced too).
pub fn run(command: &[String], url: &str, load: &Load) -> Result<Measured, Error> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let port = free_port()?;
    let command: Vec<String> = command
        .iter()
        .map(|part| part.replace("{port}", &port.to_string()))
        .collect();
    let url = url.replace("{port}", &port.to_string());
    let target = Target::parse(&url)?;
    if matches!(load.mode, Mode::FirstPage | Mode::AllPages) {
        return Err("--mode first-page and all-pages: over stdio only".into());
    }
    if load.mode == Mode::Startup {
        return runtime.block_on(startup(&command, &target, load));
    }
    let child = spawn(&command)?;
    let measured = runtime.block_on(async {
        let began = Instant::now();
        let session = ready(&target, load.era, began).await?;
        let target = Arc::new(Target { session, ..target });
        if load.warmup > 0 {
            measure(&target, load, 1_000_000, load.warmup).await?;
        }
        let cpu_before = rss::cpu_of_tree(child.id());
        let (elapsed, latencies) = measure(&target, load, 0, load.calls).await?;
        Ok::<_, Error>(Measured {
            calls: load.calls,
            elapsed,
            latencies,
            peak_rss: rss::peak_of_tree(child.id()),
            server_cpu: rss::cpu_of_tree(child.id()).saturating_sub(cpu_before),
        })
    });
    stop(child);
    measured
}

/// Where requests go.
#[derive(Clone)]
pub(crate) struct Target {
    /// `host:port`.
    pub(crate) authority: String,
    pub(crate) path: String,
    /// The legacy session, once `initialize` opened one.
    pub(crate) session: Option<String>,
}

impl Target {
    pub(crate) fn parse(url: &str) -> Result<Self, Error> {
        let rest = url
            .strip_prefix("http://")
            .ok_or_else(|| format!("only http:// URLs are served: {url}"))?;
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        Ok(Self {
            authority: authority.to_owned(),
            path: if path.is_empty() {
                "/".into()
            } else {
                path.to_owned()
            },
            session: None,
        })
    }
}

pub(crate) fn free_port() -> Result<u16, Error> {
    Ok(TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?
        .local_addr()?
        .port())
}

pub(crate) fn spawn(command: &[String]) -> Result<Child, Error> {
    use std::os::unix::process::CommandExt as _;
    let (program, arguments) = command.split_first().ok_or("no server command given")?;
    Ok(Command::new(program)
        .args(arguments)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .process_group(0)
        .spawn()
        .map_err(|error| format!("cannot start {program}: {error}"))?)
}

/// Ends the server and whatever it started (its process group).
pub(crate) fn stop(mut child: Child) {
    let _ = Command::new("kill")
        .args(["-TERM", "--", &format!("-{}", child.id())])
        .status();
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", child.id())])
        .status();
    let _ = child.wait();
}

/// A keep-alive connection to the target.
pub(crate) async fn connect(target: &Target) -> Result<SendRequest<Full<Bytes>>, Error> {
    let stream = TcpStream::connect(&target.authority).await?;
    stream.set_nodelay(true)?;
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(connection);
    Ok(sender)
}

/// Waits until the server answers: for a legacy run, its `initialize` (then
/// `notifications/initialized`); the session it opened, if any.
pub(crate) async fn ready(
    target: &Target,
    era: Era,
    began: Instant,
) -> Result<Option<String>, Error> {
    loop {
        let attempt = async {
            let mut sender = connect(target).await?;
            match era {
                Era::Legacy => {
                    let (session, _) = post(
                        &mut sender,
                        target,
                        &messages::initialize(0),
                        Mode::Startup,
                        era,
                    )
                    .await?;
                    let opened = Target {
                        session: session.clone(),
                        ..target.clone()
                    };
                    notify(&mut sender, &opened, &messages::initialized()).await?;
                    Ok::<_, Error>(session)
                }
                Era::Modern => {
                    let request = messages::request(0, Mode::Call, Era::Modern);
                    post(&mut sender, target, &request, Mode::Call, era).await?;
                    Ok(None)
                }
            }
        };
        match attempt.await {
            Ok(session) => return Ok(session),
            Err(error) if began.elapsed() > READY_WITHIN => {
                return Err(format!("the server never answered: {error}").into());
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(5)).await,
        }
    }
}

/// One request: the session header it carried back, and its answer's id. A server that
/// answers with `Connection: close` (making room for a client waiting past its connection cap)
/// closes the connection after the answer: the next request goes over a new one, as every HTTP
/// client does.
pub(crate) async fn post(
    sender: &mut SendRequest<Full<Bytes>>,
    target: &Target,
    body: &str,
    mode: Mode,
    era: Era,
) -> Result<(Option<String>, u64), Error> {
    let request = request(target, body.to_owned(), messages::method(mode), mode, era)?;
    if sender.ready().await.is_err() {
        // Closed while idle (a server making room past its cap closes idle connections first):
        // nothing was sent on it, so the request goes over a new one, as a client's pool does.
        *sender = connect(target).await?;
        sender.ready().await?;
    }
    let response = sender.send_request(request).await?;
    if response
        .headers()
        .get(hyper::header::CONNECTION)
        .is_some_and(|value| value.as_bytes().eq_ignore_ascii_case(b"close"))
    {
        *sender = connect(target).await?;
    }
    let status = response.status();
    let session = response
        .headers()
        .get("mcp-session-id")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let event_stream = response
        .headers()
        .get(hyper::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/event-stream"));
    let body = response.into_body().collect().await?.to_bytes();
    if status != StatusCode::OK {
        return Err(format!("HTTP {status}: {}", String::from_utf8_lossy(&body)).into());
    }
    let id = if event_stream {
        answer_in_stream(&body, mode)?
    } else {
        match messages::check(&body, mode)? {
            Reply::Answer(id) => id,
            Reply::Other => return Err("a JSON reply that is no answer".into()),
        }
    };
    Ok((session, id))
}

/// The answer among an SSE stream's events.
fn answer_in_stream(body: &[u8], mode: Mode) -> Result<u64, Error> {
    for line in body.split(|&byte| byte == b'\n') {
        let Some(data) = line.strip_prefix(b"data:") else {
            continue;
        };
        let data = data.trim_ascii();
        if data.is_empty() {
            continue;
        }
        if let Reply::Answer(id) = messages::check(data, mode)? {
            return Ok(id);
        }
    }
    Err(format!(
        "an event stream without an answer: {}",
        String::from_utf8_lossy(body)
    )
    .into())
}

/// A notification: accepted (202) with no answer.
pub(crate) async fn notify(
    sender: &mut SendRequest<Full<Bytes>>,
    target: &Target,
    body: &str,
) -> Result<(), Error> {
    let request = request(
        target,
        body.to_owned(),
        "notifications/initialized",
        Mode::List,
        Era::Legacy,
    )?;
    sender.ready().await?;
    let response = sender.send_request(request).await?;
    let status = response.status();
    response.into_body().collect().await?;
    if !status.is_success() {
        return Err(format!("notifications/initialized: HTTP {status}").into());
    }
    Ok(())
}

fn request(
    target: &Target,
    body: String,
    method: &str,
    mode: Mode,
    era: Era,
) -> Result<Request<Full<Bytes>>, Error> {
    let mut request = Request::post(&target.path)
        .header(hyper::header::HOST, &target.authority)
        .header(hyper::header::CONTENT_TYPE, "application/json")
        .header(hyper::header::ACCEPT, "application/json, text/event-stream");
    match era {
        Era::Legacy => {
            if let Some(session) = &target.session {
                request = request
                    .header("mcp-session-id", session)
                    .header("mcp-protocol-version", messages::LEGACY_VERSION);
            }
        }
        Era::Modern => {
            request = request
                .header("mcp-protocol-version", messages::MODERN_VERSION)
                .header("mcp-method", method);
            if mode != Mode::List {
                request = request.header("mcp-name", "echo");
            }
        }
    }
    Ok(request.body(Full::new(Bytes::from(body)))?)
}

/// `count` requests with ids from `first` over `load.concurrency` connections: the time from
/// the first send to the last answer, and each latency, sorted.
async fn measure(
    target: &Arc<Target>,
    load: &Load,
    first: u64,
    count: usize,
) -> Result<(Duration, Vec<Duration>), Error> {
    let next = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    // Each connection sends its first request as soon as it is open, as a client does (one left
    // idle is the first a server closes to make room past its connection cap).
    let workers: Vec<_> = (0..load.concurrency.max(1))
        .map(|_| {
            let (target, next, load) = (Arc::clone(target), Arc::clone(&next), load.clone());
            tokio::spawn(async move {
                let mut sender = connect(&target).await?;
                let mut latencies = Vec::new();
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= count {
                        return Ok::<_, Error>(latencies);
                    }
                    let id = first + index as u64;
                    let body = messages::request(id, load.mode, load.era);
                    let sent = Instant::now();
                    let (_, answered) =
                        post(&mut sender, &target, &body, load.mode, load.era).await?;
                    if answered != id {
                        return Err(format!("the answer to {id} came with id {answered}").into());
                    }
                    latencies.push(sent.elapsed());
                }
            })
        })
        .collect();
    let mut latencies = Vec::with_capacity(count);
    for worker in workers {
        latencies.extend(worker.await??);
    }
    let elapsed = start.elapsed();
    latencies.sort_unstable();
    Ok((elapsed, latencies))
}

/// Starts the server `load.calls` times, measuring from the spawn to its first answer; the
/// memory is the largest resident size just after that answer.
async fn startup(command: &[String], target: &Target, load: &Load) -> Result<Measured, Error> {
    let mut latencies = Vec::with_capacity(load.calls);
    let mut peak_rss = 0;
    let start = Instant::now();
    for _ in 0..load.calls {
        let began = Instant::now();
        let child = spawn(command)?;
        let answered = ready(target, load.era, began).await;
        latencies.push(began.elapsed());
        peak_rss = peak_rss.max(rss::current_of_tree(child.id()));
        stop(child);
        answered?;
    }
    latencies.sort_unstable();
    Ok(Measured {
        calls: load.calls,
        elapsed: start.elapsed(),
        latencies,
        peak_rss,
        server_cpu: Duration::ZERO,
    })
}
