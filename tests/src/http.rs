//! A Streamable HTTP client for the `http_*` tests: requests built as a well-behaved local client
//! sends them, in both eras (legacy sessions, 2026-07-28 envelopes and headers), answered in
//! process by a `Router` (`tower::ServiceExt::oneshot`) or over a socket on 127.0.0.1, responses
//! read whole ([`Reply`]) or as they stream ([`Events`]), and SSE bodies parsed into their JSON
//! messages.
//!
//! Every wait is bounded by [`TIMEOUT`]: a server that hangs fails the test instead of blocking
//! it. The tools the requests call (`count`, `chatty`, `whoami`, `slow`) are not defined here
//! (a `#[tool]` in this library would be served by every test binary that links it): each
//! `http_*` test file includes them from `tests/tests/http_tools/mod.rs`.

use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use futures_util::StreamExt as _;
use mcp_toolbelt::{Server, http::AuthInfo, http::HttpConfig, http::ProtectedResourceMetadata};
use serde_json::{Value, json};
use tower::ServiceExt as _;

/// The longest any single wait in these tests may take.
pub const TIMEOUT: Duration = Duration::from_secs(10);
/// The 2026-07-28 protocol revision: no sessions, every request carries its envelope.
pub const MODERN: &str = "2026-07-28";
/// The legacy protocol revision the tests initialize sessions with.
pub const LEGACY: &str = "2025-11-25";

// ---- in-process requests -------------------------------------------------------------------

/// The server under test, serving the tools of the test binary.
#[must_use]
pub fn server() -> Server {
    Server::new("http-tests", "1.0.0")
}

/// [`server()`] as a `Router`, configured with `config`.
///
/// # Panics
///
/// When the tools cannot be served.
pub fn router(config: HttpConfig) -> Router {
    server()
        .http_config(config)
        .into_router()
        .expect("the tools can be served")
}

/// One HTTP response, its body read whole.
#[derive(Debug)]
pub struct Reply {
    /// The status code.
    pub status: StatusCode,
    /// The response headers.
    pub headers: HeaderMap,
    /// The whole body.
    pub body: Bytes,
}

impl Reply {
    /// The body, parsed as JSON.
    ///
    /// # Panics
    ///
    /// When the body is not JSON.
    #[must_use]
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    /// The value of header `name`, if it was sent.
    ///
    /// # Panics
    ///
    /// When the value is not ASCII.
    #[must_use]
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(name)
            .map(|value| value.to_str().expect("an ASCII header"))
    }

    /// The `Content-Type`, or `""` without one.
    #[must_use]
    pub fn content_type(&self) -> &str {
        self.header("content-type").unwrap_or("")
    }

    /// The JSON messages of an SSE body, in order.
    ///
    /// # Panics
    ///
    /// When the body is not an event stream.
    #[must_use]
    pub fn events(&self) -> Vec<Value> {
        assert_eq!(self.content_type(), "text/event-stream", "{self:?}");
        sse_messages(&String::from_utf8_lossy(&self.body))
    }
}

/// The `data` of each complete event in `text`, parsed as JSON (comments, keep-alives and
/// priming events, an id with empty data, skipped: as the SDKs' clients skip them).
///
/// # Panics
///
/// When the data of an event is not JSON.
#[must_use]
pub fn sse_messages(text: &str) -> Vec<Value> {
    let text = text.replace("\r\n", "\n");
    let mut complete: Vec<&str> = text.split("\n\n").collect();
    complete.pop(); // what follows the last blank line is not a whole event yet
    complete
        .into_iter()
        .filter_map(|event| {
            let data: Vec<&str> = event
                .lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(|data| data.strip_prefix(' ').unwrap_or(data))
                .collect();
            let data = data.join("\n");
            (!data.is_empty()).then(|| serde_json::from_str(&data).expect("SSE data is JSON"))
        })
        .collect()
}

/// Sends `request` to `router` and reads the whole response.
///
/// # Panics
///
/// When the response does not come, whole, within [`TIMEOUT`].
pub async fn send(router: &Router, request: Request<Body>) -> Reply {
    let exchange = async {
        let response = router
            .clone()
            .oneshot(request)
            .await
            .expect("the router is infallible");
        let (parts, body) = response.into_parts();
        let body = axum::body::to_bytes(body, usize::MAX)
            .await
            .expect("the body can be read");
        Reply {
            status: parts.status,
            headers: parts.headers,
            body,
        }
    };
    tokio::time::timeout(TIMEOUT, exchange)
        .await
        .expect("the response came in time")
}

/// A POST of `body` as a well-behaved local client sends it, plus `headers`.
///
/// # Panics
///
/// When a header is invalid.
#[must_use]
pub fn post(body: &Value, headers: &[(&str, &str)]) -> Request<Body> {
    let mut request = Request::post("/")
        .header(header::HOST, "localhost:3000")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json, text/event-stream");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request
        .body(Body::from(body.to_string()))
        .expect("a valid request")
}

/// A GET or DELETE of the endpoint, with `headers`.
///
/// # Panics
///
/// When a header is invalid.
#[must_use]
pub fn bodiless(method: Method, headers: &[(&str, &str)]) -> Request<Body> {
    let mut request = Request::builder()
        .method(method)
        .uri("/")
        .header(header::HOST, "localhost:3000");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.body(Body::empty()).expect("a valid request")
}

/// A legacy `initialize` request (id 1) at [`LEGACY`].
#[must_use]
pub fn initialize_body() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": LEGACY,
        "capabilities": {},
        "clientInfo": {"name": "http-tests", "version": "1.0.0"},
    }})
}

/// A legacy `tools/call`; `progress_token` asks for progress.
#[must_use]
pub fn legacy_call(id: u64, name: &str, arguments: &Value, progress_token: Option<&str>) -> Value {
    let mut params = json!({"name": name, "arguments": arguments});
    if let Some(token) = progress_token {
        params["_meta"] = json!({"progressToken": token});
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

/// Opens a legacy session (initialize, then initialized) and returns its id.
///
/// # Panics
///
/// When the server does not open the session.
pub async fn open_session(router: &Router) -> String {
    let reply = send(router, post(&initialize_body(), &[])).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let session = reply
        .header("mcp-session-id")
        .expect("initialize opens a session")
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let reply = send(router, post(&initialized, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED);
    session
}

/// The headers of a request in legacy session `session`.
#[must_use]
pub fn in_session(session: &str) -> [(&str, &str); 2] {
    [
        ("mcp-session-id", session),
        ("mcp-protocol-version", LEGACY),
    ]
}

/// The text of the first content block of a JSON-RPC response's result.
///
/// # Panics
///
/// When there is none.
#[must_use]
pub fn result_text(response: &Value) -> &str {
    response
        .pointer("/result/content/0/text")
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no text result: {response}"))
}

// ---- modern era (2026-07-28) ---------------------------------------------------------------

/// The `_meta` envelope every 2026-07-28 request carries: its version, no client capabilities.
#[must_use]
pub fn envelope() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

/// A 2026-07-28 request: `params` plus the `_meta` envelope (merged with `meta`).
///
/// # Panics
///
/// When `meta` is not an object.
#[must_use]
pub fn modern_request(id: u64, method: &str, mut params: Value, meta: &Value) -> Value {
    let mut envelope = envelope();
    for (key, value) in meta.as_object().unwrap() {
        envelope[key] = value.clone();
    }
    params["_meta"] = envelope;
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// A 2026-07-28 `tools/call` of tool `name`, its `_meta` envelope merged with `meta`.
#[must_use]
pub fn modern_call(id: u64, name: &str, arguments: &Value, meta: &Value) -> Value {
    modern_request(
        id,
        "tools/call",
        json!({"name": name, "arguments": arguments}),
        meta,
    )
}

/// The headers that must agree with a 2026-07-28 body.
#[must_use]
pub fn modern_headers<'a>(method: &'a str, name: Option<&'a str>) -> Vec<(&'a str, &'a str)> {
    let mut headers = vec![("mcp-protocol-version", MODERN), ("mcp-method", method)];
    if let Some(name) = name {
        headers.push(("mcp-name", name));
    }
    headers
}

/// Asserts a `400` answer with JSON-RPC error `code` for request `id`, and returns the error.
///
/// # Panics
///
/// When the answer is another.
pub fn assert_bad_request(reply: &Reply, id: u64, code: i64) -> Value {
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");
    let body = reply.json();
    assert_eq!(body["id"], id, "{body}");
    assert_eq!(body["error"]["code"], code, "{body}");
    body["error"].clone()
}

/// A 2026-07-28 `tools/list` (id 1), which needs no session.
#[must_use]
pub fn tools_list() -> Value {
    modern_request(1, "tools/list", json!({}), &json!({}))
}

/// The events of a streamed response body, read as they come.
pub struct Events {
    body: futures_util::stream::BoxStream<'static, Result<Bytes, axum::Error>>,
    text: String,
    seen: usize,
}

impl Events {
    /// Reads the events of `response`.
    ///
    /// # Panics
    ///
    /// When `response` is not a `200` event stream.
    #[must_use]
    pub fn of(response: axum::response::Response) -> Self {
        assert_eq!(response.status(), StatusCode::OK, "{response:?}");
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "text/event-stream",
            "{response:?}"
        );
        Self {
            body: response.into_body().into_data_stream().boxed(),
            text: String::new(),
            seen: 0,
        }
    }

    /// The next message, or `None` when the stream ends first.
    ///
    /// # Panics
    ///
    /// When neither comes within [`TIMEOUT`], or the body cannot be read.
    pub async fn next(&mut self) -> Option<Value> {
        tokio::time::timeout(TIMEOUT, async {
            loop {
                if let Some(message) = sse_messages(&self.text).get(self.seen) {
                    self.seen += 1;
                    return Some(message.clone());
                }
                let chunk = self.body.next().await?.expect("the body can be read");
                self.text.push_str(std::str::from_utf8(&chunk).unwrap());
            }
        })
        .await
        .expect("a message or the end of the stream in time")
    }
}

// ---- bearer auth ---------------------------------------------------------------------------

/// `config` with bearer auth for `resource` (authorization server `https://auth.example.com`,
/// scope `tools`): `good-token` is issued to `client-7` with scope `tools`, any other is refused.
#[must_use]
pub fn with_bearer_auth(config: HttpConfig, resource: &str) -> HttpConfig {
    let metadata =
        ProtectedResourceMetadata::new(resource, "https://auth.example.com").scopes(["tools"]);
    config.bearer_auth(metadata, |token| async move {
        (token == "good-token").then(|| AuthInfo::new("client-7").scopes(["tools"]))
    })
}

// ---- over a real socket --------------------------------------------------------------------

/// Serves `router` nested at `/mcp` on a free port of 127.0.0.1 (for the rest of the test).
///
/// # Panics
///
/// When no port is free.
pub async fn serve_on_socket(router: Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = Router::new().nest("/mcp", router);
    tokio::spawn(async move { axum::serve(listener, app).await });
    address
}

/// One HTTP/1.1 connection to `address`; dropping the returned task handle's abort closes it.
///
/// # Panics
///
/// When the connection cannot be made within [`TIMEOUT`].
pub async fn connect(
    address: SocketAddr,
) -> (
    hyper::client::conn::http1::SendRequest<Body>,
    tokio::task::JoinHandle<()>,
) {
    connect_from(None, address).await
}

/// [`connect`], from the local address `from` when given (`127.0.0.2`: another client of the
/// loopback network, as a server that tells clients apart by address sees it).
///
/// # Panics
///
/// When the connection cannot be made within [`TIMEOUT`].
pub async fn connect_from(
    from: Option<std::net::IpAddr>,
    address: SocketAddr,
) -> (
    hyper::client::conn::http1::SendRequest<Body>,
    tokio::task::JoinHandle<()>,
) {
    let connecting = async {
        let socket = match address {
            SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4(),
            SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6(),
        }?;
        if let Some(from) = from {
            socket.bind(SocketAddr::new(from, 0))?;
        }
        socket.connect(address).await
    };
    let stream = tokio::time::timeout(TIMEOUT, connecting)
        .await
        .unwrap()
        .unwrap();
    let (sender, connection) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .unwrap();
    let driver = tokio::spawn(async move {
        let _ = connection.await;
    });
    (sender, driver)
}

/// Sends `request` over a fresh connection and reads the whole response.
///
/// # Panics
///
/// When the response does not come, whole, within [`TIMEOUT`].
pub async fn send_over_socket(address: SocketAddr, mut request: Request<Body>) -> Reply {
    request.headers_mut().insert(
        header::HOST,
        format!("localhost:{}", address.port()).parse().unwrap(),
    );
    exchange_over_socket(address, request).await
}

/// Sends `request` over a fresh connection as it is, its `Host` included, and reads the whole
/// response.
///
/// # Panics
///
/// When the response does not come, whole, within [`TIMEOUT`].
pub async fn exchange_over_socket(address: SocketAddr, request: Request<Body>) -> Reply {
    exchange_from(None, address, request).await
}

/// [`exchange_over_socket`] over a connection from the local address `from`, when given.
///
/// # Panics
///
/// When the response does not come, whole, within [`TIMEOUT`].
pub async fn exchange_from(
    from: Option<std::net::IpAddr>,
    address: SocketAddr,
    request: Request<Body>,
) -> Reply {
    let exchange = async {
        let (mut sender, _driver) = connect_from(from, address).await;
        let response = sender.send_request(request).await.unwrap();
        let (parts, body) = response.into_parts();
        let body = axum::body::to_bytes(Body::new(body), usize::MAX)
            .await
            .unwrap();
        Reply {
            status: parts.status,
            headers: parts.headers,
            body,
        }
    };
    tokio::time::timeout(TIMEOUT, exchange)
        .await
        .expect("the response came in time")
}

/// [`server()`] with `config`, served by `Server::serve_http` on a free port of 127.0.0.1 (for
/// the rest of the test), listening when this returns.
///
/// # Panics
///
/// When no port is free, or the server does not listen within [`TIMEOUT`].
pub async fn serve_http(config: HttpConfig) -> SocketAddr {
    serve_server_http(server().http_config(config)).await
}

/// `server`, served by `Server::serve_http` on a free port of 127.0.0.1 (for the rest of the
/// test), listening when this returns.
///
/// # Panics
///
/// When no port is free, or the server does not listen within [`TIMEOUT`].
pub async fn serve_server_http(server: Server) -> SocketAddr {
    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let address = SocketAddr::from(([127, 0, 0, 1], port));
    tokio::spawn(server.serve_http(address));
    listening(address).await;
    address
}

/// Waits until `address` accepts connections; the probe's connection is closed, and the server
/// given a moment to see it close.
///
/// # Panics
///
/// When it does not within [`TIMEOUT`].
pub async fn listening(address: SocketAddr) {
    tokio::time::timeout(TIMEOUT, async {
        loop {
            if let Ok(probe) = tokio::net::TcpStream::connect(address).await {
                drop(probe);
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the server listens");
    tokio::time::sleep(Duration::from_millis(100)).await;
}
