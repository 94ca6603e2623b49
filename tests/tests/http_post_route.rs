//! `serve_http` answers `POST /mcp` past axum's router (its `PostRoute`: the POST handler with
//! the layers the router puts around it). The same requests, sent to `serve_http` and to the
//! router of `Server::into_router` served by axum, get the same answers: the same status, the
//! same headers that matter to a client (CORS, `Vary`, `WWW-Authenticate`, the media type, a
//! session id or none) and the same body, for calls that succeed and for every refusal the
//! layers make (media type, `Accept`, body size, `Host`, `Origin`, bearer token).

use std::net::SocketAddr;

use axum::body::Body;
use axum::http::Request;
use mcp_toolbelt::http::HttpConfig;
use mcp_toolbelt::tool;
use mcp_toolbelt_tests::http::{
    Reply, exchange_over_socket, initialize_body, modern_call, modern_headers, router, serve_http,
    serve_on_socket, with_bearer_auth,
};
use serde_json::{Value, json};

/// Says the word back
#[tool]
async fn say(word: String) -> String {
    word
}

/// The headers compared, besides the status and the body.
const COMPARED: [&str; 6] = [
    "content-type",
    "access-control-allow-origin",
    "access-control-expose-headers",
    "vary",
    "www-authenticate",
    "allow",
];

/// One request, built the same way for both servers.
struct Case {
    name: &'static str,
    body: String,
    /// `Host`, `Content-Type`, `Accept`, `Origin`, … (a well-behaved client's when `None`).
    headers: Vec<(&'static str, String)>,
    /// Sent in chunks, with no `Content-Length`: only reading it finds its size.
    chunked: bool,
}

impl Case {
    fn new(name: &'static str, body: &Value) -> Self {
        Self {
            name,
            body: body.to_string(),
            headers: Vec::new(),
            chunked: false,
        }
    }

    fn header(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }

    fn chunked(mut self) -> Self {
        self.chunked = true;
        self
    }

    fn raw(mut self, body: &str) -> Self {
        body.clone_into(&mut self.body);
        self
    }

    /// The request to `address`: the well-behaved client's headers, then the case's own.
    fn request(&self, address: SocketAddr) -> Request<Body> {
        let mut headers: Vec<(&str, String)> = vec![
            ("host", format!("localhost:{}", address.port())),
            ("content-type", "application/json".to_owned()),
            ("accept", "application/json, text/event-stream".to_owned()),
        ];
        for (name, value) in &self.headers {
            headers.retain(|(kept, _)| kept != name);
            headers.push((name, value.clone()));
        }
        let mut request = Request::post("/mcp");
        for (name, value) in headers {
            request = request.header(name, value);
        }
        let body = if self.chunked {
            let chunks =
                self.body.as_bytes().chunks(1000).map(|chunk| {
                    Ok::<_, std::io::Error>(axum::body::Bytes::copy_from_slice(chunk))
                });
            Body::from_stream(futures_util::stream::iter(chunks.collect::<Vec<_>>()))
        } else {
            Body::from(self.body.clone())
        };
        request.body(body).unwrap()
    }
}

/// What a client sees of `reply`: status, the compared headers, whether a session id came, and
/// the body (JSON when it is JSON; the events of an event stream as they are).
fn seen(reply: &Reply) -> Value {
    let headers: serde_json::Map<String, Value> = COMPARED
        .iter()
        .filter_map(|name| {
            let values: Vec<&str> = reply
                .headers
                .get_all(*name)
                .iter()
                .map(|value| value.to_str().unwrap())
                .collect();
            (!values.is_empty()).then(|| ((*name).to_owned(), json!(values)))
        })
        .collect();
    let body = serde_json::from_slice(&reply.body)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&reply.body).into_owned()));
    json!({
        "status": reply.status.as_u16(),
        "headers": headers,
        "session": reply.headers.contains_key("mcp-session-id"),
        "body": body,
    })
}

/// Sends every case to `serve_http` and to the router, both configured with `config`, and
/// asserts the answers alike; returns them, for the caller to check what they are.
async fn both_alike(config: &HttpConfig, cases: &[Case]) -> Vec<Value> {
    let direct = serve_http(config.clone()).await;
    let routed = serve_on_socket(router(config.clone())).await;
    let mut answers = Vec::new();
    for case in cases {
        let by_route = seen(&exchange_over_socket(direct, case.request(direct)).await);
        let by_router = seen(&exchange_over_socket(routed, case.request(routed)).await);
        assert_eq!(
            by_route, by_router,
            "{}: serve_http's POST route and the router answer differently",
            case.name
        );
        answers.push(by_route);
    }
    answers
}

fn call(id: u64, word: &str) -> Value {
    modern_call(id, "say", &json!({"word": word}), &json!({}))
}

#[tokio::test]
async fn serve_http_answers_a_post_as_the_router_does() {
    let config = HttpConfig::new()
        .allow_origins(["http://localhost:6274"])
        .max_body_bytes(4096);
    let modern = |case: Case| {
        modern_headers("tools/call", Some("say"))
            .into_iter()
            .fold(case, |case, (name, value)| case.header(name, value))
    };
    let cases = [
        Case::new("initialize", &initialize_body()),
        modern(Case::new("a 2026-07-28 call", &call(2, "hello"))),
        modern(Case::new("a call answered as JSON only", &call(3, "json")))
            .header("accept", "application/json"),
        Case::new("a body that is not JSON", &json!(null)).raw("{not json"),
        Case::new("another media type", &initialize_body()).header("content-type", "text/plain"),
        Case::new("an Accept of neither", &initialize_body()).header("accept", "text/html"),
        Case::new("a body past the limit", &call(4, &"x".repeat(8000))),
        Case::new("a chunked body past the limit", &call(6, &"x".repeat(8000))).chunked(),
        Case::new("a Host not served", &initialize_body()).header("host", "evil.example"),
        modern(Case::new("an allowed origin", &call(5, "cors")))
            .header("origin", "http://localhost:6274"),
        Case::new("an origin not served", &initialize_body())
            .header("origin", "https://evil.example"),
    ];
    let answers = both_alike(&config, &cases).await;
    let statuses: Vec<&Value> = answers.iter().map(|answer| &answer["status"]).collect();
    assert_eq!(
        statuses,
        [200, 200, 200, 400, 415, 406, 413, 413, 403, 200, 403],
        "{answers:#?}"
    );
    assert_eq!(answers[0]["session"], true);
    assert_eq!(answers[2]["body"]["result"]["content"][0]["text"], "json");
    assert_eq!(
        answers[9]["headers"]["access-control-allow-origin"],
        json!(["http://localhost:6274"])
    );
}

#[tokio::test]
async fn serve_http_refuses_a_post_without_its_token_as_the_router_does() {
    let config = with_bearer_auth(HttpConfig::new(), "http://localhost/mcp");
    let cases = [
        Case::new("no token", &initialize_body()),
        Case::new("a wrong token", &initialize_body()).header("authorization", "Bearer bad"),
        Case::new("the token", &initialize_body()).header("authorization", "Bearer good-token"),
    ];
    let answers = both_alike(&config, &cases).await;
    let statuses: Vec<&Value> = answers.iter().map(|answer| &answer["status"]).collect();
    assert_eq!(statuses, [401, 401, 200], "{answers:#?}");
    assert!(
        answers[0]["headers"]["www-authenticate"][0]
            .as_str()
            .unwrap()
            .starts_with("Bearer"),
        "{answers:#?}"
    );
}
