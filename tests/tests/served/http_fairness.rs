//! No client waits forever: what one client holds over `serve_http` leaves room for the others.
//! Long-lived streams take at most their share of the connections (`503` past it); bodies that
//! trickle in are cut under the minimum rate, and past their share must arrive at once; past the
//! connection cap, an idle connection or the next to finish a response makes room for a waiting
//! client (keep-alive clients cannot starve the others); a full session table makes room for a
//! new client; `413` and `415` are decided from the headers; and a user's own axum app gets the
//! same protections from `Server::serve_http_app`.
//!
//! Caps and timeouts are set small through `HttpConfig`; every wait is bounded by `TIMEOUT`, and
//! no test asserts a duration, only what happens first.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use axum::routing::get;
use mcp_toolbelt::http::HttpConfig;
use mcp_toolbelt_tests::http::{
    TIMEOUT, connect, in_session, initialize_body, listening, modern_headers, modern_request,
    open_session, post, router, send, send_over_socket, serve_http, server, tools_list,
};
use serde_json::json;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;
use tokio::sync::Barrier;

// The tools served (`count`, `chatty`, `whoami`, `slow`): the same in every `http_*` file.

/// `request` sent to `serve_http`'s path.
fn at_mcp(mut request: Request<Body>) -> Request<Body> {
    *request.uri_mut() = "/mcp".parse().unwrap();
    request
}

/// A 2026-07-28 `tools/list`, the request of a fresh client.
fn listing() -> Request<Body> {
    at_mcp(post(&tools_list(), &modern_headers("tools/list", None)))
}

/// A 2026-07-28 `subscriptions/listen` for tool changes.
fn listen(id: u64) -> Request<Body> {
    let body = modern_request(
        id,
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true}}),
        &json!({}),
    );
    at_mcp(post(&body, &modern_headers("subscriptions/listen", None)))
}

/// Reads from `stream` until the end of a response's headers, or until it closes; what was read.
async fn read_head(stream: &mut TcpStream) -> String {
    let mut received = Vec::new();
    tokio::time::timeout(TIMEOUT, async {
        let mut buffer = [0u8; 4096];
        while !received.windows(4).any(|w| w == b"\r\n\r\n") {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(read) => received.extend_from_slice(&buffer[..read]),
            }
        }
    })
    .await
    .expect("an answer in time");
    String::from_utf8_lossy(&received).into_owned()
}

/// The head of a POST to `/mcp` with `headers` and a body of `length` bytes (not sent).
fn post_head(address: SocketAddr, length: usize, headers: &str) -> String {
    format!(
        "POST /mcp HTTP/1.1\r\nHost: localhost:{}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {length}\r\n{headers}\r\n",
        address.port()
    )
}

// ---- item 2: long-lived streams hold at most a share of the connections -----------------------

#[tokio::test]
async fn streams_take_at_most_half_the_connections_and_a_fresh_client_is_answered() {
    let address = serve_http(HttpConfig::new().max_connections(8)).await;
    // One client opens as many streams as there are connections, each on its own connection.
    let (mut streams, mut refused) = (Vec::new(), Vec::new());
    for id in 0..8 {
        let (mut sender, driver) = connect(address).await;
        let mut request = listen(id);
        request.headers_mut().insert(
            "host",
            format!("localhost:{}", address.port()).parse().unwrap(),
        );
        let response = tokio::time::timeout(TIMEOUT, sender.send_request(request))
            .await
            .expect("every stream is answered")
            .unwrap();
        match response.status() {
            StatusCode::OK => streams.push((sender, driver, response)),
            StatusCode::SERVICE_UNAVAILABLE => {
                assert!(response.headers().contains_key("retry-after"));
                // Keeps its connection open, idle.
                refused.push((sender, driver));
            }
            other => panic!("stream {id}: {other}"),
        }
    }
    assert_eq!((streams.len(), refused.len()), (4, 4));
    // Every connection is taken (4 streams, 4 idle): the fresh client is still answered.
    let reply = send_over_socket(address, listing()).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
}

#[tokio::test]
async fn get_streams_and_listen_streams_share_one_cap() {
    let router = router(HttpConfig::new().max_connections(4));
    let listen_stream = router_response(&router, listen_at_root(1)).await;
    assert_eq!(listen_stream.status(), StatusCode::OK);
    let get_stream = |session: &str| {
        let mut request = Request::get("/")
            .header("host", "localhost:3000")
            .header("accept", "text/event-stream");
        for (name, value) in in_session(session) {
            request = request.header(name, value);
        }
        request.body(Body::empty()).unwrap()
    };
    let first = open_session(&router).await;
    let open = router_response(&router, get_stream(&first)).await;
    assert_eq!(open.status(), StatusCode::OK);
    let second = open_session(&router).await;
    let reply = send(&router, get_stream(&second)).await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE, "{reply:?}");
    assert!(reply.header("retry-after").is_some());
    let reply = send(&router, listen_at_root(2)).await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE, "{reply:?}");
    drop(open);
    let reopened = tokio::time::timeout(TIMEOUT, async {
        loop {
            let response = router_response(&router, get_stream(&second)).await;
            if response.status() == StatusCode::OK {
                return response;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(reopened.is_ok(), "closing a stream frees its place");
    drop(listen_stream);
}

fn listen_at_root(id: u64) -> Request<Body> {
    let mut request = listen(id);
    *request.uri_mut() = "/".parse().unwrap();
    request
}

async fn router_response(
    router: &axum::Router,
    request: Request<Body>,
) -> axum::response::Response {
    use tower::ServiceExt as _;
    tokio::time::timeout(TIMEOUT, router.clone().oneshot(request))
        .await
        .expect("answered in time")
        .unwrap()
}

// ---- item 3: slow bodies ------------------------------------------------------------------

#[tokio::test]
async fn a_body_under_the_minimum_rate_is_cut_off() {
    let config = HttpConfig::new()
        .min_body_rate(1_000)
        .body_rate_grace(Duration::from_millis(300));
    let address = serve_http(config).await;
    let mut slow = TcpStream::connect(address).await.unwrap();
    let body = tools_list().to_string();
    slow.write_all(post_head(address, body.len(), "").as_bytes())
        .await
        .unwrap();
    // A byte every 200 ms: 5 bytes a second, under the 1,000 asked for.
    let dripping = async {
        for byte in body.bytes() {
            if slow.write_all(&[byte]).await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(2), dripping).await;
    let answer = read_head(&mut slow).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("connection: close"),
        "{answer}"
    );
}

#[tokio::test]
async fn bodies_past_their_share_must_arrive_at_once_and_a_whole_body_is_still_read() {
    // 8 connections: 2 bodies may take their time (the grace here is long).
    let config = HttpConfig::new()
        .max_connections(8)
        .min_body_rate(1_000)
        .body_rate_grace(Duration::from_mins(1));
    let address = serve_http(config).await;
    let mut trickling = Vec::new();
    for _ in 0..3 {
        let mut stream = TcpStream::connect(address).await.unwrap();
        stream
            .write_all(format!("{}{{", post_head(address, 100, "")).as_bytes())
            .await
            .unwrap();
        trickling.push(stream);
    }
    // A fresh client whose body comes with its headers is answered meanwhile.
    let reply = send_over_socket(address, listing()).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    // The third trickling body found no place: refused, its connection closed.
    let answers = futures_util::future::join_all(trickling.iter_mut().map(|stream| async {
        let mut buffer = [0u8; 512];
        match tokio::time::timeout(Duration::from_secs(2), stream.read(&mut buffer)).await {
            Ok(Ok(read)) => String::from_utf8_lossy(&buffer[..read]).into_owned(),
            _ => String::new(),
        }
    }))
    .await;
    let refused: Vec<&String> = answers
        .iter()
        .filter(|answer| answer.starts_with("HTTP/1.1 503"))
        .collect();
    assert_eq!(refused.len(), 1, "{answers:?}");
    assert!(refused[0].to_ascii_lowercase().contains("retry-after"));
    assert_eq!(
        answers.iter().filter(|answer| answer.is_empty()).count(),
        2,
        "the two in their share still wait: {answers:?}"
    );
}

// ---- item 4: keep-alive clients past the connection cap -------------------------------------

/// One keep-alive client: `calls` requests over its connection, reconnecting when an answer
/// says `Connection: close`; then it keeps its connection open until every client is `done`.
async fn keep_alive_client(address: SocketAddr, calls: usize, done: Arc<Barrier>) -> usize {
    let (mut sender, mut driver) = connect(address).await;
    let mut answered = 0;
    for _ in 0..calls {
        // An idle keep-alive connection may be closed to make room just as the next request goes
        // out; as HTTP clients do, such a request (no answer begun) is sent again on a new one.
        let mut retries = 0;
        let response = loop {
            let mut request = listing();
            request.headers_mut().insert(
                "host",
                format!("localhost:{}", address.port()).parse().unwrap(),
            );
            match sender.send_request(request).await {
                Ok(response) => break response,
                Err(error)
                    if retries < 3
                        && (error.is_canceled()
                            || error.is_closed()
                            || error.is_incomplete_message()) =>
                {
                    retries += 1;
                    driver.abort();
                    (sender, driver) = connect(address).await;
                }
                Err(error) => panic!("a call failed: {error}"),
            }
        };
        let closes = response
            .headers()
            .get("connection")
            .is_some_and(|value| value == "close");
        let status = response.status();
        axum::body::to_bytes(Body::new(response.into_body()), usize::MAX)
            .await
            .unwrap();
        if status == StatusCode::OK {
            answered += 1;
        }
        if closes {
            driver.abort();
            (sender, driver) = connect(address).await;
        }
    }
    // Idle on its keep-alive connection until every client is done.
    done.wait().await;
    drop((sender, driver));
    answered
}

#[tokio::test]
async fn keep_alive_clients_past_the_cap_are_all_answered() {
    let address = serve_http(HttpConfig::new().max_connections(4)).await;
    let (clients, calls) = (12, 5);
    let done = Arc::new(Barrier::new(clients + 1));
    let tasks: Vec<_> = (0..clients)
        .map(|_| tokio::spawn(keep_alive_client(address, calls, Arc::clone(&done))))
        .collect();
    let all_done = tokio::time::timeout(TIMEOUT, done.wait()).await;
    assert!(
        all_done.is_ok(),
        "clients waiting behind keep-alive connections were never served"
    );
    let mut answered = 0;
    for task in tasks {
        answered += task.await.unwrap();
    }
    assert_eq!(answered, clients * calls);
}

// ---- item 5: the session table makes room -------------------------------------------------

#[tokio::test]
async fn a_full_session_table_makes_room_and_keeps_the_sessions_that_work() {
    let router = router(
        HttpConfig::new()
            .max_sessions(4)
            .session_idle_timeout(Duration::from_hours(1)),
    );
    let working = open_session(&router).await;
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let reply = send(&router, post(&list, &in_session(&working))).await;
    assert_eq!(reply.status, StatusCode::OK);
    // Sessions opened and named once (`notifications/initialized`), then left: the table is full.
    let mut flood = Vec::new();
    for _ in 0..3 {
        flood.push(open_session(&router).await);
    }
    // New clients still get sessions; the ones that never did anything made room.
    for _ in 0..3 {
        let reply = send(&router, post(&initialize_body(), &[])).await;
        assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
        assert!(reply.header("mcp-session-id").is_some());
    }
    let reply = send(&router, post(&list, &in_session(&working))).await;
    assert_eq!(reply.status, StatusCode::OK, "the working session stayed");
    let reply = send(&router, post(&list, &in_session(&flood[0]))).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{reply:?}");
}

// ---- item 11: 413 and 415 from the headers -------------------------------------------------

#[tokio::test]
async fn a_body_over_the_limit_is_refused_before_100_continue() {
    let address = serve_http(HttpConfig::new()).await;
    let mut client = TcpStream::connect(address).await.unwrap();
    let head = post_head(address, 5_000_000, "Expect: 100-continue\r\n");
    client.write_all(head.as_bytes()).await.unwrap();
    let answer = read_head(&mut client).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
}

#[tokio::test]
async fn a_compressed_body_is_unsupported_media() {
    let address = serve_http(HttpConfig::new()).await;
    let mut request = listing();
    request
        .headers_mut()
        .insert("content-encoding", "gzip".parse().unwrap());
    let reply = send_over_socket(address, request).await;
    assert_eq!(
        reply.status,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "{reply:?}"
    );
    assert_eq!(reply.header("accept-encoding"), Some("identity"));
    assert_eq!(
        reply.json()["error"]["message"],
        "Unsupported Media Type: Content-Encoding gzip is not supported; send the body uncompressed"
    );
}

// ---- item 10: a user's own app ------------------------------------------------------------

#[tokio::test]
async fn serve_http_app_serves_the_users_app_with_the_connection_protections() {
    // The header timeout (30 s) outlasts every wait here (`TIMEOUT`, 10 s), so the idle
    // connections below give way only because the connection cap makes room.
    let address = serve_app(
        HttpConfig::new()
            .max_connections(2)
            .header_timeout(Duration::from_secs(30)),
    )
    .await;
    let health = Request::builder()
        .method(Method::GET)
        .uri("/health")
        .body(Body::empty())
        .unwrap();
    let reply = send_over_socket(address, health).await;
    assert_eq!(
        (reply.status, &reply.body[..]),
        (StatusCode::OK, &b"ok"[..])
    );
    let reply = send_over_socket(address, listing()).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    // The connection cap: two idle connections, and a third client is served in their place.
    let _idle = (
        TcpStream::connect(address).await.unwrap(),
        TcpStream::connect(address).await.unwrap(),
    );
    let reply = send_over_socket(address, listing()).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    // The header timeout: a client that sends nothing is disconnected.
    let address = serve_app(HttpConfig::new().header_timeout(Duration::from_millis(500))).await;
    let mut silent = TcpStream::connect(address).await.unwrap();
    let mut buffer = [0u8; 64];
    let closed = tokio::time::timeout(TIMEOUT, silent.read(&mut buffer)).await;
    assert!(matches!(closed, Ok(Ok(0) | Err(_))), "{closed:?}");
}

/// A user's app (`/health` beside the MCP endpoint at `/mcp`) served by `serve_http_app` with
/// `config`, listening.
async fn serve_app(config: HttpConfig) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(
        server()
            .http_config(config)
            .serve_http_app(listener, |mcp| {
                axum::Router::new()
                    .route("/health", get(|| async { "ok" }))
                    .nest("/mcp", mcp)
            }),
    );
    listening(address).await;
    address
}
