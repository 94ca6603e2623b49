//! Resumable legacy SSE streams over real HTTP (`serve_http` on 127.0.0.1): event ids on every
//! legacy session event (none at 2026-07-28), the 2025-11-25 priming event, a streamed call that
//! runs on when its client disconnects and is resumed with `GET` + `Last-Event-ID` (every later
//! event once, then the response), the GET stream resumed with what it missed, unknown and
//! foreign ids refused, JSON answers still cancelled by a disconnect, and the replay limit.

mod http_tools;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{Method, Request, StatusCode, header};
use futures_util::StreamExt as _;
use futures_util::stream::BoxStream;
use http_tools::ending;
use mcp_toolbelt::http::HttpConfig;
use mcp_toolbelt::{Context, tool};
use mcp_toolbelt_tests::http::{
    LEGACY, TIMEOUT, bodiless, connect, legacy_call, listening, modern_call, modern_headers, post,
    server,
};
use serde_json::{Value, json};
use tokio::sync::Semaphore;

// ---- a tool that waits at gates the test opens ----------------------------------------------

/// The gates of `stepped` calls, by tag: the call waits for a permit between its steps.
static GATES: Mutex<Option<HashMap<String, Arc<Semaphore>>>> = Mutex::new(None);

fn gate(tag: &str) -> Arc<Semaphore> {
    let mut gates = GATES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Arc::clone(
        gates
            .get_or_insert_with(HashMap::new)
            .entry(tag.to_owned())
            .or_insert_with(|| Arc::new(Semaphore::new(0))),
    )
}

/// Reports progress `steps` times, waiting at its gate after the first, then answers
#[tool]
async fn stepped(
    /// Names its gate
    tag: String,
    /// How many progress notifications
    steps: u32,
    context: &Context,
) -> String {
    let gate = gate(&tag);
    for step in 1..=steps {
        context.progress(f64::from(step), Some(f64::from(steps)), None);
        if step == 1 {
            gate.acquire().await.expect("open").forget();
        }
    }
    format!("{tag} done")
}

// ---- the server and a client over a socket ---------------------------------------------------

/// The test tools served by `serve_http` on a free port, and a fn that removes one of its tools
/// (a `list_changed` for the GET streams).
async fn serve(config: HttpConfig) -> (SocketAddr, impl Fn(&str) -> bool) {
    // Bound here, so no other test's server can take the port in between.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let server = server().http_config(config);
    let tools = server.tools();
    tokio::spawn(server.serve_http_app(listener, |mcp| axum::Router::new().nest("/mcp", mcp)));
    listening(address).await;
    (address, move |name: &str| tools.remove(name))
}

/// One SSE event as it was written: its id and its data.
#[derive(Debug, Clone)]
struct RawEvent {
    id: Option<String>,
    data: String,
}

impl RawEvent {
    fn json(&self) -> Value {
        serde_json::from_str(&self.data).unwrap_or_else(|e| panic!("{e}: {self:?}"))
    }
}

/// A response over its own connection; dropping it closes the connection.
struct Exchange {
    status: StatusCode,
    content_type: String,
    session: Option<String>,
    body: BoxStream<'static, Result<Bytes, axum::Error>>,
    text: String,
    driver: tokio::task::JoinHandle<()>,
}

impl Drop for Exchange {
    fn drop(&mut self) {
        self.driver.abort();
    }
}

impl Exchange {
    async fn send(address: SocketAddr, mut request: Request<Body>) -> Self {
        *request.uri_mut() = "/mcp".parse().unwrap();
        request.headers_mut().insert(
            header::HOST,
            format!("localhost:{}", address.port()).parse().unwrap(),
        );
        let (mut sender, driver) = connect(address).await;
        let response = tokio::time::timeout(TIMEOUT, sender.send_request(request))
            .await
            .expect("an answer in time")
            .unwrap();
        let header = |name| {
            response
                .headers()
                .get(name)
                .map(|v: &axum::http::HeaderValue| v.to_str().unwrap().to_owned())
        };
        let content_type = header(header::CONTENT_TYPE).unwrap_or_default();
        let session = header(header::HeaderName::from_static("mcp-session-id"));
        let status = response.status();
        let body = Body::new(response.into_body()).into_data_stream().boxed();
        Self {
            status,
            content_type,
            session,
            body,
            text: String::new(),
            driver,
        }
    }

    /// The next event (comments skipped), or `None` when the stream ends.
    async fn next(&mut self) -> Option<RawEvent> {
        tokio::time::timeout(TIMEOUT, async {
            loop {
                let normalized = self.text.replace("\r\n", "\n");
                if let Some(end) = normalized.find("\n\n") {
                    let block = normalized[..end].to_owned();
                    normalized[end + 2..].clone_into(&mut self.text);
                    let mut event = RawEvent {
                        id: None,
                        data: String::new(),
                    };
                    let mut has_field = false;
                    for line in block.lines() {
                        if let Some(id) = line.strip_prefix("id:") {
                            event.id = Some(id.trim_start().to_owned());
                            has_field = true;
                        } else if let Some(data) = line.strip_prefix("data:") {
                            event.data.push_str(data.strip_prefix(' ').unwrap_or(data));
                            has_field = true;
                        }
                    }
                    if has_field {
                        return Some(event);
                    }
                    continue;
                }
                let chunk = self.body.next().await?.expect("the body can be read");
                self.text.push_str(std::str::from_utf8(&chunk).unwrap());
            }
        })
        .await
        .expect("an event or the end of the stream in time")
    }

    /// Every event until the stream ends.
    async fn rest(&mut self) -> Vec<RawEvent> {
        let mut events = Vec::new();
        while let Some(event) = self.next().await {
            events.push(event);
        }
        events
    }

    /// The whole body as JSON.
    async fn json(&mut self) -> Value {
        let mut bytes = Vec::new();
        tokio::time::timeout(TIMEOUT, async {
            while let Some(chunk) = self.body.next().await {
                bytes.extend_from_slice(&chunk.unwrap());
            }
        })
        .await
        .unwrap();
        serde_json::from_slice(&bytes).unwrap()
    }
}

/// Opens a legacy session at `version` and returns its id.
async fn open_session(address: SocketAddr, version: &str) -> String {
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": version,
        "capabilities": {},
        "clientInfo": {"name": "resume-tests", "version": "1.0.0"},
    }});
    let mut reply = Exchange::send(address, post(&initialize, &[])).await;
    assert_eq!(reply.status, StatusCode::OK);
    let session = reply.session.clone().expect("a session id");
    assert_eq!(reply.json().await["result"]["protocolVersion"], version);
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let reply = Exchange::send(address, post(&initialized, &headers(&session, version))).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED);
    session
}

fn headers<'a>(session: &'a str, version: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("mcp-session-id", session),
        ("mcp-protocol-version", version),
    ]
}

/// GET of the session's stream, resuming after `last` when given.
fn get(session: &str, last: Option<&str>) -> Request<Body> {
    let mut headers = headers(session, LEGACY);
    headers.push(("accept", "text/event-stream"));
    if let Some(last) = last {
        headers.push(("last-event-id", last));
    }
    bodiless(Method::GET, &headers)
}

/// The stream part and sequence number of an event id.
fn split(id: &str) -> (&str, u64) {
    let (stream, seq) = id.rsplit_once('-').expect("{stream}-{seq}");
    (stream, seq.parse().expect("a sequence number"))
}

/// The step a progress notification reports.
fn progress_of(event: &RawEvent) -> u32 {
    let message = event.json();
    assert_eq!(message["method"], "notifications/progress", "{message}");
    let progress = message["params"]["progress"].as_f64().unwrap();
    (0..=100)
        .find(|step| (f64::from(*step) - progress).abs() < f64::EPSILON)
        .unwrap_or_else(|| panic!("a whole step: {message}"))
}

// ---- the tests -------------------------------------------------------------------------------

#[tokio::test]
async fn legacy_events_carry_ids_after_a_priming_event_and_2026_events_none() {
    let (address, _) = serve(HttpConfig::new()).await;
    let session = open_session(address, LEGACY).await;
    let call = legacy_call(2, "count", &json!({}), Some("p"));
    let mut stream = Exchange::send(address, post(&call, &headers(&session, LEGACY))).await;
    assert_eq!(stream.content_type, "text/event-stream");
    let events = stream.rest().await;
    // The priming event (an id, empty data), three progress notifications, the response.
    assert_eq!(events.len(), 5, "{events:#?}");
    assert_eq!(events[0].data, "", "{events:#?}");
    let (name, seq) = split(events[0].id.as_deref().unwrap());
    assert_eq!(seq, 0);
    for (n, event) in events.iter().enumerate().skip(1) {
        assert_eq!(
            split(event.id.as_deref().unwrap()),
            (name, u64::try_from(n).unwrap())
        );
    }
    assert_eq!(events[4].json()["id"], 2);

    let call = modern_call(3, "count", &json!({}), &json!({"progressToken": "p"}));
    let mut stream = Exchange::send(
        address,
        post(&call, &modern_headers("tools/call", Some("count"))),
    )
    .await;
    let events = stream.rest().await;
    assert_eq!(events.len(), 4, "{events:#?}");
    assert!(
        events
            .iter()
            .all(|event| event.id.is_none() && !event.data.is_empty()),
        "2026-07-28 events carry no id, and there is no priming event: {events:#?}"
    );
}

#[tokio::test]
async fn a_session_before_2025_11_25_gets_ids_but_no_priming_event() {
    let (address, _) = serve(HttpConfig::new()).await;
    let session = open_session(address, "2025-06-18").await;
    let call = legacy_call(2, "count", &json!({}), Some("p"));
    let mut stream = Exchange::send(address, post(&call, &headers(&session, "2025-06-18"))).await;
    let events = stream.rest().await;
    assert_eq!(events.len(), 4, "{events:#?}");
    assert_eq!(progress_of(&events[0]), 1);
    assert_eq!(split(events[0].id.as_deref().unwrap()).1, 1);
}

#[tokio::test]
async fn a_call_that_answers_before_any_notification_stays_json() {
    let (address, _) = serve(HttpConfig::new()).await;
    let session = open_session(address, LEGACY).await;
    let call = legacy_call(2, "whoami", &json!({}), None);
    let mut reply = Exchange::send(address, post(&call, &headers(&session, LEGACY))).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.content_type, "application/json");
    assert_eq!(reply.json().await["id"], 2);
}

#[tokio::test]
async fn a_call_resumed_after_a_disconnect_sends_every_later_event_once_then_its_response() {
    let (address, _) = serve(HttpConfig::new()).await;
    let session = open_session(address, LEGACY).await;
    let call = legacy_call(
        7,
        "stepped",
        &json!({"tag": "resume", "steps": 4}),
        Some("p"),
    );
    let mut stream = Exchange::send(address, post(&call, &headers(&session, LEGACY))).await;
    let priming = stream.next().await.unwrap();
    let first = stream.next().await.unwrap();
    assert_eq!(progress_of(&first), 1);
    let last_seen = first.id.clone().unwrap();
    assert_eq!(split(&last_seen).0, split(priming.id.as_deref().unwrap()).0);
    // The client goes away; the call runs on and its events are kept.
    drop(stream);
    tokio::time::sleep(Duration::from_millis(100)).await;
    gate("resume").add_permits(1);
    tokio::time::sleep(Duration::from_millis(200)).await;

    let mut resumed = Exchange::send(address, get(&session, Some(&last_seen))).await;
    assert_eq!(resumed.status, StatusCode::OK);
    assert_eq!(resumed.content_type, "text/event-stream");
    let events = resumed.rest().await;
    assert_eq!(
        events.len(),
        4,
        "progress 2, 3, 4 and the response: {events:#?}"
    );
    for (n, event) in events.iter().take(3).enumerate() {
        assert_eq!(progress_of(event), u32::try_from(n).unwrap() + 2);
    }
    let response = events[3].json();
    assert_eq!(response["id"], 7, "{response}");
    assert_eq!(response["result"]["content"][0]["text"], "resume done");
    let seqs: Vec<u64> = events
        .iter()
        .map(|event| split(event.id.as_deref().unwrap()).1)
        .collect();
    assert_eq!(seqs, [2, 3, 4, 5]);

    // From the priming event: everything, once.
    let mut again = Exchange::send(address, get(&session, priming.id.as_deref())).await;
    assert_eq!(again.rest().await.len(), 5);
}

#[tokio::test]
async fn a_resumed_call_follows_events_still_to_come() {
    let (address, _) = serve(HttpConfig::new()).await;
    let session = open_session(address, LEGACY).await;
    let call = legacy_call(8, "stepped", &json!({"tag": "live", "steps": 2}), Some("p"));
    let mut stream = Exchange::send(address, post(&call, &headers(&session, LEGACY))).await;
    let priming = stream.next().await.unwrap();
    assert_eq!(priming.data, "");
    drop(stream);
    let mut resumed = Exchange::send(address, get(&session, priming.id.as_deref())).await;
    assert_eq!(progress_of(&resumed.next().await.unwrap()), 1);
    // Nothing more until the call goes on.
    gate("live").add_permits(1);
    let events = resumed.rest().await;
    assert_eq!(events.len(), 2, "{events:#?}");
    assert_eq!(progress_of(&events[0]), 2);
    assert_eq!(
        events[1].json()["result"]["content"][0]["text"],
        "live done"
    );
}

#[tokio::test]
async fn the_get_stream_resumes_with_what_it_missed() {
    let (address, remove) = serve(HttpConfig::new()).await;
    let session = open_session(address, LEGACY).await;
    let mut stream = Exchange::send(address, get(&session, None)).await;
    assert_eq!(stream.status, StatusCode::OK);
    let priming = stream.next().await.unwrap();
    let last_seen = priming.id.clone().unwrap();
    assert!(last_seen.starts_with("get-"), "{last_seen}");
    drop(stream);
    // A change while nobody listens.
    assert!(remove("count"));
    tokio::time::sleep(Duration::from_millis(200)).await;

    let mut resumed = Exchange::send(address, get(&session, Some(&last_seen))).await;
    assert_eq!(resumed.status, StatusCode::OK);
    let missed = resumed.next().await.unwrap();
    assert_eq!(missed.json()["method"], "notifications/tools/list_changed");
    assert_eq!(
        split(missed.id.as_deref().unwrap()),
        (split(&last_seen).0, 1)
    );
    // It goes on as a GET stream does.
    assert!(remove("chatty"));
    let live = resumed.next().await.unwrap();
    assert_eq!(live.json()["method"], "notifications/tools/list_changed");
    assert_eq!(split(live.id.as_deref().unwrap()).1, 2);
}

#[tokio::test]
async fn an_unknown_event_id_is_a_bad_request_and_an_unknown_get_stream_a_fresh_one() {
    let (address, _) = serve(HttpConfig::new()).await;
    let session = open_session(address, LEGACY).await;
    for unknown in ["0123456789abcdef0123456789abcdef-3", "garbage"] {
        let mut reply = Exchange::send(address, get(&session, Some(unknown))).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{unknown}");
        let body = reply.json().await;
        assert_eq!(body["error"]["code"], -32600, "{body}");
    }
    let call = legacy_call(2, "whoami", &json!({}), None);
    let reply = Exchange::send(address, post(&call, &headers(&session, LEGACY))).await;
    assert_eq!(reply.status, StatusCode::OK, "the session is still there");
    // A GET stream no longer known: a fresh GET stream rather than none.
    let gone = "get-0123456789abcdef0123456789abcdef-4";
    let mut fresh = Exchange::send(address, get(&session, Some(gone))).await;
    assert_eq!(fresh.status, StatusCode::OK);
    let priming = fresh.next().await.unwrap();
    assert_eq!(priming.data, "");
    assert_ne!(split(priming.id.as_deref().unwrap()).0, split(gone).0);
}

#[tokio::test]
async fn another_sessions_event_id_is_unknown() {
    let (address, _) = serve(HttpConfig::new()).await;
    let owner = open_session(address, LEGACY).await;
    let other = open_session(address, LEGACY).await;
    let call = legacy_call(2, "count", &json!({}), Some("p"));
    let mut stream = Exchange::send(address, post(&call, &headers(&owner, LEGACY))).await;
    let events = stream.rest().await;
    let id = events[1].id.clone().unwrap();
    let reply = Exchange::send(address, get(&other, Some(&id))).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    // Its own session resumes it.
    let mut reply = Exchange::send(address, get(&owner, Some(&id))).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.rest().await.len(), 3);
}

#[tokio::test]
async fn a_disconnect_cancels_a_json_answer_but_not_a_streamed_call() {
    let (address, _) = serve(HttpConfig::new()).await;
    let session = open_session(address, LEGACY).await;
    // JSON only: nothing was streamed, so the client going away cancels the call.
    let call = legacy_call(
        2,
        "slow",
        &json!({"tag": "resume-json", "seconds": 30}),
        None,
    );
    let mut request = post(&call, &headers(&session, LEGACY));
    request
        .headers_mut()
        .insert(header::ACCEPT, "application/json".parse().unwrap());
    let waiting = tokio::spawn(Exchange::send(address, request));
    ending("resume-json", Some("started")).await;
    waiting.abort();
    assert_eq!(ending("resume-json", None).await, "cancelled");

    // A stream that started: the call runs to its end.
    let call = legacy_call(
        3,
        "slow",
        &json!({"tag": "resume-sse", "seconds": 0.5}),
        Some("p"),
    );
    let mut stream = Exchange::send(address, post(&call, &headers(&session, LEGACY))).await;
    assert_eq!(stream.next().await.unwrap().data, "", "the priming event");
    drop(stream);
    assert_eq!(ending("resume-sse", None).await, "finished");
}

#[tokio::test]
async fn a_resuming_connection_takes_a_call_stream_over_from_the_one_still_open() {
    let (address, _) = serve(HttpConfig::new()).await;
    let session = open_session(address, LEGACY).await;
    let call = legacy_call(
        10,
        "stepped",
        &json!({"tag": "takeover", "steps": 2}),
        Some("p"),
    );
    let mut first = Exchange::send(address, post(&call, &headers(&session, LEGACY))).await;
    assert_eq!(first.next().await.unwrap().data, "", "the priming event");
    let progress = first.next().await.unwrap();
    assert_eq!(progress_of(&progress), 1);
    // The client resumes while its first connection is still open, then resumes once more.
    let second = Exchange::send(address, get(&session, progress.id.as_deref())).await;
    assert_eq!(second.status, StatusCode::OK);
    let mut third = Exchange::send(address, get(&session, progress.id.as_deref())).await;
    assert_eq!(third.status, StatusCode::OK);
    gate("takeover").add_permits(1);
    let events = third.rest().await;
    assert_eq!(events.len(), 2, "progress 2 and the response: {events:#?}");
    assert_eq!(progress_of(&events[0]), 2);
    assert_eq!(events[1].json()["id"], 10);
    // A message goes out on one connection, never on two: the others ended without it.
    let mut others = [first, second];
    for (n, other) in others.iter_mut().enumerate() {
        let rest = other.rest().await;
        assert!(rest.is_empty(), "connection {n} got {rest:#?}");
    }
}

#[tokio::test]
async fn a_resumed_get_stream_keeps_its_session_in_use() {
    let config = HttpConfig::new().session_idle_timeout(Duration::from_secs(1));
    let (address, _) = serve(config).await;
    let session = open_session(address, LEGACY).await;
    let mut stream = Exchange::send(address, get(&session, None)).await;
    let priming = stream.next().await.unwrap();
    let resumed = Exchange::send(address, get(&session, priming.id.as_deref())).await;
    assert_eq!(resumed.status, StatusCode::OK);
    // The connection it took over ends.
    assert!(stream.rest().await.is_empty());
    // Past the idle timeout, with the resumed GET stream open: the session is not idle.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let call = legacy_call(2, "whoami", &json!({}), None);
    let reply = Exchange::send(address, post(&call, &headers(&session, LEGACY))).await;
    assert_eq!(reply.status, StatusCode::OK, "the session is still there");
    // It holds the session's one GET stream.
    let reply = Exchange::send(address, get(&session, None)).await;
    assert_eq!(reply.status, StatusCode::CONFLICT);
    drop(resumed);
}

#[tokio::test]
async fn events_past_max_replay_events_are_not_replayed() {
    let (address, _) = serve(HttpConfig::new().max_replay_events(2)).await;
    let session = open_session(address, LEGACY).await;
    let call = legacy_call(
        4,
        "stepped",
        &json!({"tag": "limited", "steps": 5}),
        Some("p"),
    );
    let mut stream = Exchange::send(address, post(&call, &headers(&session, LEGACY))).await;
    let priming = stream.next().await.unwrap();
    drop(stream);
    gate("limited").add_permits(1);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut resumed = Exchange::send(address, get(&session, priming.id.as_deref())).await;
    let events = resumed.rest().await;
    // Six events were written (five progress, the response); the last two are kept.
    assert_eq!(events.len(), 2, "{events:#?}");
    assert_eq!(progress_of(&events[0]), 5);
    assert_eq!(split(events[0].id.as_deref().unwrap()).1, 5);
    assert_eq!(events[1].json()["id"], 4);
}

// ---- across replicas, on Redis ---------------------------------------------------------------
//
// Redis is `services::RedisServer` (a `redis-server` of the test's own on a free port, SKIPPED
// when not installed, a failure under `CI`). Each replica runs on a Tokio runtime of its own, in a thread of its own, so that dropping that
// runtime stops the replica as a crash would (its tasks gone, its heartbeat silent).

mod on_redis {
    use std::net::SocketAddr;

    use mcp_toolbelt::http::{HttpConfig, HttpService};
    use mcp_toolbelt::redis::Redis;
    use mcp_toolbelt_tests::http::server;

    /// One replica: the test tools served over hyper on a free port, sharing `url`'s Redis.
    pub(super) struct Replica {
        pub(super) address: SocketAddr,
        service: HttpService,
        stop: Option<std::sync::mpsc::Sender<()>>,
        thread: Option<std::thread::JoinHandle<()>>,
    }

    impl Replica {
        pub(super) fn start(url: &str) -> Self {
            let (ready, started) = std::sync::mpsc::channel();
            let (stop, stopped) = std::sync::mpsc::channel::<()>();
            let url = url.to_owned();
            let thread = std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(1)
                    .enable_all()
                    .build()
                    .unwrap();
                let serving = runtime.block_on(async {
                    let redis = Redis::connect(&url).await.expect("Redis answers");
                    let service = server()
                        .http_config(HttpConfig::new().redis_store(redis))
                        .into_service()
                        .unwrap();
                    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                    let address = listener.local_addr().unwrap();
                    let serving = axum::Router::new().nest_service("/mcp", service.clone());
                    tokio::spawn(async move {
                        loop {
                            let Ok((stream, _)) = listener.accept().await else {
                                return;
                            };
                            let service =
                                hyper_util::service::TowerToHyperService::new(serving.clone());
                            tokio::spawn(
                                hyper::server::conn::http1::Builder::new().serve_connection(
                                    hyper_util::rt::TokioIo::new(stream),
                                    service,
                                ),
                            );
                        }
                    });
                    (address, service)
                });
                ready.send(serving).unwrap();
                // Until stopped; then the runtime goes, and every task of the replica with it.
                let _ = stopped.recv();
                runtime.shutdown_background();
            });
            let (address, service) = started.recv().expect("the replica starts");
            Self {
                address,
                service,
                stop: Some(stop),
                thread: Some(thread),
            }
        }

        /// Stops as a crash would: its runtime dropped, nothing finished.
        pub(super) fn kill(&mut self) {
            if let Some(stop) = self.stop.take() {
                let _ = stop.send(());
            }
            if let Some(thread) = self.thread.take() {
                let _ = thread.join();
            }
        }

        /// Starts a graceful stop: its streams end, its calls run on.
        pub(super) fn shut_down(&self) {
            self.service.shutdown();
        }
    }

    impl Drop for Replica {
        fn drop(&mut self) {
            self.kill();
        }
    }
}

use mcp_toolbelt_tests::services::RedisServer;
use on_redis::Replica;

/// Opens a legacy session on `first`, and checks that `second` knows it (legacy sessions kept in
/// Redis: on this branch alone, before the sessions branch is merged, this is what fails).
async fn shared_session(first: &Replica, second: &Replica) -> String {
    let session = open_session(first.address, LEGACY).await;
    let call = legacy_call(1, "whoami", &json!({}), None);
    let reply = Exchange::send(second.address, post(&call, &headers(&session, LEGACY))).await;
    assert_eq!(
        reply.status,
        StatusCode::OK,
        "the second replica does not know a session opened on the first: legacy sessions must be kept in Redis"
    );
    session
}

/// A `stepped` call on `first`, read up to its first progress notification (its id returned),
/// then the connection dropped.
async fn start_and_drop(first: &Replica, session: &str, id: u64, tag: &str) -> String {
    let call = legacy_call(id, "stepped", &json!({"tag": tag, "steps": 3}), Some("p"));
    let mut stream = Exchange::send(first.address, post(&call, &headers(session, LEGACY))).await;
    assert_eq!(stream.next().await.unwrap().data, "", "the priming event");
    let progress = stream.next().await.unwrap();
    assert_eq!(progress_of(&progress), 1);
    drop(stream);
    // Its events reach Redis through a writer of their own.
    tokio::time::sleep(Duration::from_millis(300)).await;
    progress.id.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_started_on_one_replica_resumes_on_another() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (first, second) = (Replica::start(&redis.url()), Replica::start(&redis.url()));
    let session = shared_session(&first, &second).await;
    let last_seen = start_and_drop(&first, &session, 5, "across").await;

    let mut resumed = Exchange::send(second.address, get(&session, Some(&last_seen))).await;
    assert_eq!(resumed.status, StatusCode::OK);
    // The call goes on on the first replica; the second follows it.
    gate("across").add_permits(1);
    let events = resumed.rest().await;
    assert_eq!(
        events.len(),
        3,
        "progress 2, 3 and the response: {events:#?}"
    );
    assert_eq!(progress_of(&events[0]), 2);
    assert_eq!(progress_of(&events[1]), 3);
    assert_eq!(
        events[2].json()["result"]["content"][0]["text"],
        "across done"
    );
    let seqs: Vec<u64> = events
        .iter()
        .map(|event| split(event.id.as_deref().unwrap()).1)
        .collect();
    assert_eq!(seqs, [2, 3, 4], "each event once, in order");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_whose_replica_died_ends_with_an_error_response() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (mut first, second) = (Replica::start(&redis.url()), Replica::start(&redis.url()));
    let session = shared_session(&first, &second).await;
    let last_seen = start_and_drop(&first, &session, 6, "dies").await;
    first.kill();

    let mut resumed = Exchange::send(second.address, get(&session, Some(&last_seen))).await;
    assert_eq!(resumed.status, StatusCode::OK);
    // Within the replica's liveness (5 s) and one look (1 s): an error, never silence.
    let events = resumed.rest().await;
    assert_eq!(events.len(), 1, "{events:#?}");
    let response = events[0].json();
    assert_eq!(response["id"], 6, "{response}");
    assert_eq!(response["error"]["code"], -32603, "{response}");
    assert!(
        response["error"]["message"]
            .as_str()
            .unwrap()
            .contains("stopped before it answered"),
        "{response}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_stopping_ends_its_streams_and_their_calls_finish_for_another() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (first, second) = (Replica::start(&redis.url()), Replica::start(&redis.url()));
    let session = shared_session(&first, &second).await;
    let call = legacy_call(
        9,
        "stepped",
        &json!({"tag": "stopping", "steps": 2}),
        Some("p"),
    );
    let mut stream = Exchange::send(first.address, post(&call, &headers(&session, LEGACY))).await;
    let priming = stream.next().await.unwrap();
    assert_eq!(progress_of(&stream.next().await.unwrap()), 1);
    // SIGTERM: the stream ends without the response (its client resumes elsewhere)...
    first.shut_down();
    assert!(stream.next().await.is_none(), "the stream ends");
    // ...and the call runs on, its events written to the shared log.
    gate("stopping").add_permits(1);
    let mut resumed = Exchange::send(second.address, get(&session, priming.id.as_deref())).await;
    let events = resumed.rest().await;
    assert_eq!(events.len(), 3, "{events:#?}");
    assert_eq!(progress_of(&events[1]), 2);
    assert_eq!(
        events[2].json()["result"]["content"][0]["text"],
        "stopping done"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopping_replica_is_not_taken_for_dead_while_its_calls_run_on() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (first, second) = (Replica::start(&redis.url()), Replica::start(&redis.url()));
    let session = shared_session(&first, &second).await;
    let call = legacy_call(
        11,
        "stepped",
        &json!({"tag": "draining", "steps": 2}),
        Some("p"),
    );
    let mut stream = Exchange::send(first.address, post(&call, &headers(&session, LEGACY))).await;
    let priming = stream.next().await.unwrap();
    assert_eq!(progress_of(&stream.next().await.unwrap()), 1);
    first.shut_down();
    assert!(stream.next().await.is_none(), "the stream ends");
    let mut resumed = Exchange::send(second.address, get(&session, priming.id.as_deref())).await;
    assert_eq!(resumed.status, StatusCode::OK);
    assert_eq!(progress_of(&resumed.next().await.unwrap()), 1);
    // Past a dead replica's liveness (5 s) and one look (1 s), within the shutdown grace
    // (10 s): the call still runs, and its own response comes, not a "stopped" error.
    tokio::time::sleep(Duration::from_secs(7)).await;
    gate("draining").add_permits(1);
    let events = resumed.rest().await;
    assert_eq!(events.len(), 2, "{events:#?}");
    assert_eq!(progress_of(&events[0]), 2);
    assert_eq!(
        events[1].json()["result"]["content"][0]["text"],
        "draining done"
    );
}
