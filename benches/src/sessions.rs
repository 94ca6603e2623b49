//! Many clients at once over Streamable HTTP (`mcp-bench sessions`): the server is spawned on a
//! free local port, then `count` clients open a session each, and, as asked, a long-lived
//! stream each:
//!
//! - `none`: legacy sessions (`initialize`, `notifications/initialized`) left idle. They are
//!   opened over `concurrency` keep-alive connections, reused: a legacy session outlives the
//!   connection that opened it (later requests may come over any), so what is measured is the
//!   session the server keeps, not a connection per client, and no cap on connections is met.
//! - `get`: the same sessions, each then holding its GET stream, on a connection of its own
//!   (HTTP/1: a stream holds its connection for as long as it lasts).
//! - `listen`: 2026-07-28 `subscriptions/listen` streams (no session), each on a connection of
//!   its own, counted open once its acknowledgement arrived.
//! - `open`: `initialize` on a connection of its own, kept open and idle (keep-alive): against
//!   the hyper floor (`floor-http`, which opens no session) what hyper itself holds for a
//!   connection, the bound under every stream's figure.
//!
//! Measured: the time from the first client to the last one open; the server's resident size
//! (`VmRSS` of its process tree) before and after, and so KiB per client; then, with them all
//! open, a fresh client's `initialize` + `notifications/initialized` + `tools/list` on a new
//! connection, 20 times, the median. Each of the `count` streams holds a file on both sides: a
//! run is refused when the limit of open files is below `count + 200` (`benches/sessions.sh`
//! raises the soft limit to the hard one; the server it spawns inherits it).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt as _, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use serde_json::json;

use crate::http::{self, Target};
use crate::{Era, Error, Mode, messages, rss};

/// The long-lived stream each client holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Streams {
    /// None: idle legacy sessions.
    None,
    /// A legacy session's GET stream.
    Get,
    /// A 2026-07-28 `subscriptions/listen` stream.
    Listen,
    /// A keep-alive connection left idle after its `initialize`.
    Open,
}

impl Streams {
    /// The name used on the command line and in the table.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Streams::None => "none",
            Streams::Get => "get",
            Streams::Listen => "listen",
            Streams::Open => "open",
        }
    }

    /// From its name.
    ///
    /// # Errors
    ///
    /// An unknown name.
    pub fn parse(name: &str) -> Result<Self, Error> {
        match name {
            "none" => Ok(Streams::None),
            "get" => Ok(Streams::Get),
            "listen" => Ok(Streams::Listen),
            "open" => Ok(Streams::Open),
            other => Err(format!("--streams: none, get, listen or open, not {other}").into()),
        }
    }
}

/// How a run is shaped.
#[derive(Clone, Copy, Debug)]
pub struct Crowd {
    /// Clients opened.
    pub count: usize,
    /// What each holds.
    pub streams: Streams,
    /// Clients opening at once (and, for `none`, the connections they share).
    pub concurrency: usize,
}

/// What one run measured.
#[derive(Clone, Debug)]
pub struct Opened {
    /// From the first client to the last one open.
    pub elapsed: Duration,
    /// `VmRSS` of the server's tree before the first client, in bytes.
    pub rss_before: u64,
    /// And with every client open.
    pub rss_after: u64,
    /// A fresh client's `initialize` + `notifications/initialized` + `tools/list` with them all
    /// open, each of the tries, sorted.
    pub fresh: Vec<Duration>,
}

/// How many fresh clients are timed with the crowd open.
const FRESH_TRIES: usize = 20;

/// Spawns `command` (`{port}` replaced by a free port, in `url` too) and opens `crowd` on it.
///
/// # Errors
///
/// The server could not be started or did not answer, a client was refused, or the limit of
/// open files is too low for `crowd.count`.
pub fn run(command: &[String], url: &str, crowd: Crowd) -> Result<Opened, Error> {
    check_open_files(crowd.count + 200)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let port = http::free_port()?;
    let command: Vec<String> = command
        .iter()
        .map(|part| part.replace("{port}", &port.to_string()))
        .collect();
    let target = Target::parse(&url.replace("{port}", &port.to_string()))?;
    let child = http::spawn(&command)?;
    let result = runtime.block_on(async {
        http::ready(&target, Era::Legacy, Instant::now()).await?;
        settle().await;
        let rss_before = rss::current_of_tree(child.id());
        let target = Arc::new(target);
        let started = Instant::now();
        let held = open_all(&target, crowd).await?;
        let elapsed = started.elapsed();
        settle().await;
        let rss_after = rss::current_of_tree(child.id());
        let mut fresh = Vec::with_capacity(FRESH_TRIES);
        for _ in 0..FRESH_TRIES {
            fresh.push(fresh_client(&target).await?);
        }
        fresh.sort_unstable();
        Ok::<_, Error>((
            Opened {
                elapsed,
                rss_before,
                rss_after,
                fresh,
            },
            held,
        ))
    });
    // The server goes first, so the closed connections wait out TIME_WAIT on its side (its port
    // is never used again) rather than take the driver's ephemeral ports.
    http::stop(child);
    runtime.shutdown_timeout(Duration::from_secs(1));
    result.map(|(opened, _held)| opened)
}

/// Lets the server finish what the last client started (a stream's task, a freed buffer).
async fn settle() {
    tokio::time::sleep(Duration::from_millis(500)).await;
}

/// What keeps a client's stream or connection open (held for its drop).
#[allow(dead_code, reason = "held for its drop")]
enum Hold {
    /// A stream: its response, whose body is never read to the end.
    Stream(Response<Incoming>),
    /// A keep-alive connection.
    Connection(hyper::client::conn::http1::SendRequest<Full<Bytes>>),
}

/// Every client's [`Hold`].
type Held = Vec<Hold>;

/// Opens `crowd.count` clients, `crowd.concurrency` at a time.
async fn open_all(target: &Arc<Target>, crowd: Crowd) -> Result<Held, Error> {
    let next = Arc::new(AtomicUsize::new(0));
    let workers: Vec<_> = (0..crowd.concurrency.max(1))
        .map(|_| {
            let (target, next) = (Arc::clone(target), Arc::clone(&next));
            tokio::spawn(async move {
                let mut shared = http::connect(&target).await?;
                let mut held = Vec::new();
                while next.fetch_add(1, Ordering::Relaxed) < crowd.count {
                    match crowd.streams {
                        Streams::Listen => held.push(Hold::Stream(listen(&target).await?)),
                        Streams::Open => held.push(Hold::Connection(kept_open(&target).await?)),
                        Streams::None => {
                            open_session(&mut shared, &target).await?;
                        }
                        Streams::Get => {
                            let session = open_session(&mut shared, &target).await?;
                            held.push(Hold::Stream(get_stream(&session).await?));
                        }
                    }
                }
                Ok::<_, Error>(held)
            })
        })
        .collect();
    let mut held = Vec::with_capacity(crowd.count);
    for worker in workers {
        held.extend(worker.await??);
    }
    Ok(held)
}

/// `initialize` then `notifications/initialized` over `sender`: the session's target.
async fn open_session(
    sender: &mut hyper::client::conn::http1::SendRequest<Full<Bytes>>,
    target: &Target,
) -> Result<Target, Error> {
    let (session, _) = http::post(
        sender,
        target,
        &messages::initialize(0),
        Mode::Startup,
        Era::Legacy,
    )
    .await?;
    let opened = Target {
        authority: target.authority.clone(),
        path: target.path.clone(),
        session: Some(session.ok_or("initialize opened no session")?),
    };
    http::notify(sender, &opened, &messages::initialized()).await?;
    Ok(opened)
}

/// A connection of its own, left open and idle after its `initialize`.
async fn kept_open(
    target: &Target,
) -> Result<hyper::client::conn::http1::SendRequest<Full<Bytes>>, Error> {
    let mut sender = http::connect(target).await?;
    http::post(
        &mut sender,
        target,
        &messages::initialize(0),
        Mode::Startup,
        Era::Legacy,
    )
    .await?;
    Ok(sender)
}

/// A session's GET stream on a connection of its own, open once its headers came.
async fn get_stream(session: &Target) -> Result<Response<Incoming>, Error> {
    let mut sender = http::connect(session).await?;
    let request = Request::get(&session.path)
        .header(hyper::header::HOST, &session.authority)
        .header(hyper::header::ACCEPT, "text/event-stream")
        .header("mcp-session-id", session.session.as_deref().unwrap_or(""))
        .header("mcp-protocol-version", messages::LEGACY_VERSION)
        .body(Full::new(Bytes::new()))?;
    let response = sender.send_request(request).await?;
    opened(response, "GET stream").await
}

/// A `subscriptions/listen` stream on a connection of its own, open once its acknowledgement
/// came.
async fn listen(target: &Target) -> Result<Response<Incoming>, Error> {
    let mut sender = http::connect(target).await?;
    let body = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "subscriptions/listen",
        "params": {
            "notifications": {"toolsListChanged": true},
            "_meta": messages::modern_meta(),
        },
    })
    .to_string();
    let request = Request::post(&target.path)
        .header(hyper::header::HOST, &target.authority)
        .header(hyper::header::CONTENT_TYPE, "application/json")
        .header(hyper::header::ACCEPT, "application/json, text/event-stream")
        .header("mcp-protocol-version", messages::MODERN_VERSION)
        .header("mcp-method", "subscriptions/listen")
        .body(Full::new(Bytes::from(body)))?;
    let mut response = sender.send_request(request).await?;
    if response.status() == StatusCode::OK {
        // The acknowledgement: the stream is registered.
        response
            .body_mut()
            .frame()
            .await
            .ok_or("a listen stream that ended at once")??;
    }
    opened(response, "subscriptions/listen").await
}

/// `response` if it is a stream that opened; else why not.
async fn opened(response: Response<Incoming>, what: &str) -> Result<Response<Incoming>, Error> {
    if response.status() == StatusCode::OK {
        return Ok(response);
    }
    let status = response.status();
    let body = response.into_body().collect().await?.to_bytes();
    Err(format!("{what}: HTTP {status}: {}", String::from_utf8_lossy(&body)).into())
}

/// A fresh client: a new connection, `initialize`, `notifications/initialized`, `tools/list`
/// (against a server that opens no session, the hyper floor, `initialize` alone).
async fn fresh_client(target: &Target) -> Result<Duration, Error> {
    let began = Instant::now();
    let mut sender = http::connect(target).await?;
    let (session, _) = http::post(
        &mut sender,
        target,
        &messages::initialize(0),
        Mode::Startup,
        Era::Legacy,
    )
    .await?;
    if session.is_some() {
        let session = Target {
            authority: target.authority.clone(),
            path: target.path.clone(),
            session,
        };
        http::notify(&mut sender, &session, &messages::initialized()).await?;
        let list = messages::request(1, Mode::List, Era::Legacy);
        http::post(&mut sender, &session, &list, Mode::List, Era::Legacy).await?;
    }
    Ok(began.elapsed())
}

/// `Err` when the soft limit of open files is below `needed` (the driver has no way to raise it
/// without a crate the workspace does not build: the shell's `ulimit -n` does).
fn check_open_files(needed: usize) -> Result<(), Error> {
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
    let soft = limits
        .lines()
        .find(|line| line.starts_with("Max open files"))
        .and_then(|line| line.split_whitespace().nth(3))
        .and_then(|soft| soft.parse::<usize>().ok());
    match soft {
        Some(soft) if soft < needed => Err(format!(
            "{needed} open files are needed, the limit is {soft}: run `ulimit -n {needed}` (or more) first"
        )
        .into()),
        _ => Ok(()),
    }
}

/// One run as a JSON line.
#[must_use]
pub fn line(server: &str, crowd: Crowd, opened: &Opened) -> String {
    #[allow(
        clippy::cast_precision_loss,
        reason = "sizes and counts far below 2^52"
    )]
    let kib_each = (opened.rss_after.saturating_sub(opened.rss_before)) as f64
        / 1024.0
        / crowd.count.max(1) as f64;
    json!({
        "kind": "sessions",
        "server": server,
        "count": crowd.count,
        "streams": crowd.streams.name(),
        "concurrency": crowd.concurrency,
        "open_s": opened.elapsed.as_secs_f64(),
        "rss_before_kib": opened.rss_before / 1024,
        "rss_after_kib": opened.rss_after / 1024,
        "kib_each": kib_each,
        "fresh_ms": opened.fresh[opened.fresh.len() / 2].as_secs_f64() * 1000.0,
    })
    .to_string()
}

/// The table of the `sessions` runs among `lines`: per count, streams and server, the median of
/// each column over the rounds, and each figure's ratio to rmcp's (a server named `rmcp`).
#[must_use]
pub fn table(lines: &str) -> String {
    use std::collections::BTreeMap;
    use std::fmt::Write as _;
    let mut runs: BTreeMap<(u64, String, String), Vec<serde_json::Value>> = BTreeMap::new();
    for run in lines
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|run| run["kind"] == "sessions")
    {
        let text = |key: &str| run[key].as_str().unwrap_or("?").to_owned();
        let key = (
            run["count"].as_u64().unwrap_or(0),
            text("streams"),
            text("server"),
        );
        runs.entry(key).or_default().push(run);
    }
    let median = |runs: &[serde_json::Value], key: &str| {
        let mut values: Vec<f64> = runs.iter().filter_map(|run| run[key].as_f64()).collect();
        values.sort_by(f64::total_cmp);
        match values.len() {
            0 => f64::NAN,
            n if n % 2 == 1 => values[n / 2],
            n => f64::midpoint(values[n / 2 - 1], values[n / 2]),
        }
    };
    let columns = ["open_s", "kib_each", "fresh_ms"];
    let mut out = String::from(
        "| clients | streams | server | rounds | time to open them, s | KiB each | fresh client's initialize+tools/list, ms | x rmcp (time, KiB, fresh) |\n\
         | ---: | --- | --- | ---: | ---: | ---: | ---: | --- |\n",
    );
    for ((count, streams, server), of_row) in &runs {
        let values = columns.map(|key| median(of_row, key));
        let rmcp = runs
            .get(&(*count, streams.clone(), "rmcp".to_owned()))
            .map(|rmcp| columns.map(|key| median(rmcp, key)));
        let ratios = rmcp.map_or_else(
            || "-".to_owned(),
            |rmcp| {
                format!(
                    "{:.2} / {:.2} / {:.2}",
                    values[0] / rmcp[0],
                    values[1] / rmcp[1],
                    values[2] / rmcp[2]
                )
            },
        );
        let _ = writeln!(
            out,
            "| {count} | {streams} | {server} | {} | {:.2} | {:.1} | {:.2} | {ratios} |",
            of_row.len(),
            values[0],
            values[1],
            values[2],
        );
    }
    out
}
