//! What the control plane costs a 2026-07-28 `tools/call` of an echo tool over Streamable HTTP,
//! in process (no socket, as `http.rs`: admission, the headers, the body, dispatch and the JSON
//! answer), each request from `127.0.0.1` as `serve_http` would say:
//!
//! - with nothing configured (no auth, no limit, no Redis): the baseline;
//! - rate limited in this process (`Server::rate_limit`, a limit no bench reaches), and the same
//!   limit shared through Redis (one script round trip per request to a local `redis-server`
//!   the bench starts on a free port; skipped, said on stderr, when it is not installed), beside
//!   the same Redis with no limit;
//! - with a bearer token: one checked by a `bearer_auth` fn that compares it with a string (the
//!   auth plumbing alone), and a JWT verified by the built-in resource server
//!   (`HttpConfig::oauth`): RS256, 2048-bit key, the issuer's metadata and JWKS served by a
//!   tiny local HTTP server and fetched at the first request, then kept; the token verified at
//!   its first request and kept too, so each request after pays the lookup of a verified token
//!   (that token calling a tool that declares the scope it grants: the scope check on top; and
//!   rate limited in memory besides: the whole control plane configured); and a token the
//!   server has not seen at each request (a pool of one more token than the server keeps, taken
//!   in turn), which pays the signature check and the claims.
//!
//! `cargo bench -p mcp-toolbelt --features oauth,redis --bench control`

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::body::{Body, Bytes, to_bytes};
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, HeaderValue, Method, Request, Uri};
use axum::routing::get;
use base64::Engine as _;
use criterion::{Criterion, criterion_group, criterion_main};
use jsonwebtoken::jwk::{Jwk, PublicKeyUse};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use mcp_toolbelt::http::{AuthInfo, HttpConfig, ProtectedResourceMetadata};
use mcp_toolbelt::{RateLimit, Server, tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tower::ServiceExt as _;

/// The resource URI the tokens are issued for (their audience).
const RESOURCE: &str = "http://localhost:3000/mcp";

/// The bench's own RSA key (2048 bits, PKCS #1 DER, base64): signs the bench's tokens, nothing
/// else. Made with `openssl genrsa -traditional 2048 | openssl rsa -outform DER -traditional`.
const RSA_KEY: [&str; 17] = [
    "MIIEpAIBAAKCAQEAq9J/2PW25kUNuRA62RTIttS9GlOtQEBEBsaeqTnLJ0VG0DeHhid4Pu3kmBCsU6joM15H0XUGzwyT7hkx",
    "NQbt7BfFDyO/inSG7RZ9MARi5qFCt/fKnEzKi8uLrttsIXn66mUpxfnywM1GldGjN62ZdmhG0LOH+aLS5Nqzbz9Xko06CrQO",
    "+rVFAcPQFsrcMZZSawJnHn6eHXG4slcn7l3abBfr3YMLy02GjN1xBihufYb1/naVIBHUaNysT7emQejDAnnHvy5Ffjo72qfa",
    "PFWp3MKuqVGRX0a7dYWYu4LybbElV5b77f0zzgq331MWMlW6zT4y2WwPOssRzJLW6IczbwIDAQABAoIBACRG/GFFd8lkeQJC",
    "z/n3bm1Tu11sn166cuJvWx5lqmPvN4VMxBtqB/RZa/NDSe8b8XKvDEDIEZjzkeQqg34rqV44oo2Qwacs9TPnlKTnuC3zjE+l",
    "TKz1dapQXnybrVfgFj8Y/tni7QMSFD4blfdyer1KRPFZhnMJkrdpCYuKdyXkvJD8OnIcb8XuljymijOSzU8nL9qg/vbqmwoL",
    "NYifDK6BXq6lW9AKb7WJcVa/3fuMloKqBIpkv7qGtaROkQbHQmkrXt/sx9veNQE3nFN0Wi+KdKfqGFTGtnZHd9UzF5zsNovK",
    "+4UtlKJ2KPvvE5n5XTpDjbBSoVuBeLAzBVnyflkCgYEA5mqeRgoaS/jxnBQ9uGepQtuEVhWE5UYMIlW4Yhqkmo4UOdbI9Jqr",
    "72+Rznvqc0SOnJkb0xB4+CoEGl/jM3V97FtwuEWAlsCeUkgATJAQm6Hfg6reTqKV2BXpXhO2dWHlRx/Hm4PhE7vxHTpCN1JD",
    "EnCiF+BgxhKhEKhehwJEZS0CgYEAvuZkpbBfJG5nctXbVAmgFG1ZRIbvEqp760UZxqmo6EqKgnWorCwOjEqxw25zGl7nxWaa",
    "Uvj7vx6gnpwbw5ricdm2yP/DL1R3SFPn4+fLNr/cjzUpo+OK4el7XnrS7iliA7N/r76MD34v9rRiOodlzEeBCgJ0i2gpoX8p",
    "Rnbn1IsCgYEAppDMebUz7Ve40SuQso29PieSMui7eUJ54xg0gjbgZxnuZSFvg+OMBzqQHMRXZ5xXu7yy8JEn4b392VMX20tE",
    "DGjNw2f63P/Bc5m5HZ/HYbpS6cvLiOzfhaXRXcDCVXi/VfsTQMjFHI7wbkB/PZ6p/dqOUtRRIN62sGQGcXKiHsECgYEAp2tf",
    "cYBQsJ6y0x+DDxyx67hKxbKhEPm7XAZqKLS6kZ5uAyQ1HWo2CAuqAv9mqwX4tkLZrVL3VhICQ5gdMVswpTCPAZBtGaE2S5Rq",
    "lpG+wvFY+a9iKX1xW9dsftuxCXX5o81UekjehOfiILbqPvJn8NP081Zb57cea6geBtJZVykCgYBSsFUeASgD/yy5KjjGSGWw",
    "SsE0AKzL+lPCTCnMdPUto+oqTegMBkn77yIRst2ZG2ReF6RuE6qtGY7+QqrLP2lFikM8D7e0FPn/T/rAb5O1pJhLz0LHMoID",
    "N5tdTfehe8Qh29rproZKJJ1EQXjMHxbsAPY7jcsImai8I+QgMap/YA==",
];

#[derive(Deserialize, JsonSchema)]
struct EchoArgs {
    /// The message to send back
    message: String,
}

/// Echo the message back
#[tool]
async fn echo(args: EchoArgs) -> String {
    args.message
}

/// Echo the message back, for a token granting `notes:read`
#[tool(scopes("notes:read"))]
async fn echo_scoped(args: EchoArgs) -> String {
    args.message
}

/// A 2026-07-28 `tools/call` of `name` from 127.0.0.1, with `token` as its bearer token: its
/// headers and body made once, so that each request costs the bench the same copy whatever it
/// carries (the server's work is what differs between the cases, not the client's).
#[derive(Clone)]
struct Call {
    headers: HeaderMap,
    body: Bytes,
}

impl Call {
    fn new(name: &str, token: Option<&str>) -> Self {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": name,
            "arguments": {"message": "hello"},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            },
        }});
        let mut headers = HeaderMap::new();
        let mut add = |name: &'static str, value: &str| {
            headers.insert(name, HeaderValue::from_str(value).expect("a header value"));
        };
        add("host", "localhost:3000");
        add("content-type", "application/json");
        add("accept", "application/json, text/event-stream");
        add("mcp-protocol-version", "2026-07-28");
        add("mcp-method", "tools/call");
        add("mcp-name", name);
        if let Some(token) = token {
            add("authorization", &format!("Bearer {token}"));
        }
        Self {
            headers,
            body: Bytes::from(body.to_string()),
        }
    }

    /// The request, as `serve_http` hands it to the router.
    fn request(&self) -> Request<Body> {
        let mut request = Request::new(Body::from(self.body.clone()));
        *request.method_mut() = Method::POST;
        *request.uri_mut() = Uri::from_static("/");
        *request.headers_mut() = self.headers.clone();
        request
            .extensions_mut()
            .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 50_000))));
        request
    }
}

/// A `redis-server` of the bench's own on a free port, nothing saved; killed when dropped.
struct RedisServer {
    child: Child,
    port: u16,
}

impl RedisServer {
    /// Started, or `None` (said on stderr) when `redis-server` cannot be run.
    fn start() -> Option<Self> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let dir = std::env::temp_dir();
        let spawned = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        match spawned {
            Ok(child) => Some(Self { child, port }),
            Err(error) => {
                eprintln!("SKIPPED the Redis cases: redis-server cannot be run ({error})");
                None
            }
        }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// A connection, once it listens (it may take a moment).
    fn connect(&self, runtime: &tokio::runtime::Runtime) -> mcp_toolbelt::redis::Redis {
        runtime.block_on(async {
            for _ in 0..100 {
                if let Ok(connected) = mcp_toolbelt::redis::Redis::connect(&self.url()).await {
                    return connected;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            panic!("redis-server did not answer at {}", self.url());
        })
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How many verified tokens a server keeps (`HttpConfig`'s Limits table): a pool of one more,
/// taken in turn, finds none of them kept.
const KEPT_TOKENS: usize = 10_000;

/// The issuer: its metadata and JWKS served on 127.0.0.1 from a thread of its own, for as long
/// as the bench runs. Returns the issuer URL and what signs its tokens ([`Signer::tokens`]).
fn issuer() -> (String, Signer) {
    let der = base64::engine::general_purpose::STANDARD
        .decode(RSA_KEY.concat())
        .expect("the key is base64");
    let key = EncodingKey::from_rsa_der(&der);
    let mut jwk = Jwk::from_encoding_key(&key, Algorithm::RS256).expect("a public JWK");
    jwk.common.key_id = Some("bench".into());
    jwk.common.public_key_use = Some(PublicKeyUse::Signature);
    let jwks = json!({"keys": [jwk]});

    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener
        .set_nonblocking(true)
        .expect("a non-blocking socket");
    let issuer = format!("http://{}", listener.local_addr().expect("an address"));
    let metadata = json!({"issuer": issuer, "jwks_uri": format!("{issuer}/jwks")});
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let app = axum::Router::new()
                .route(
                    "/.well-known/oauth-authorization-server",
                    get(move || std::future::ready(axum::Json(metadata.clone()))),
                )
                .route(
                    "/jwks",
                    get(move || std::future::ready(axum::Json(jwks.clone()))),
                );
            let listener = tokio::net::TcpListener::from_std(listener).expect("a tokio listener");
            axum::serve(listener, app).await.expect("the issuer serves");
        });
    });

    let signer = Signer {
        issuer: issuer.clone(),
        key,
    };
    (issuer, signer)
}

/// The issuer's signing key.
struct Signer {
    issuer: String,
    key: EncodingKey,
}

impl Signer {
    /// `count` tokens issued for [`RESOURCE`], granting `notes:read`, valid for an hour, each
    /// with its own `jti`.
    fn tokens(&self, count: usize) -> Vec<String> {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .expect("after 1970")
            .as_secs();
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some("bench".into());
        (0..count)
            .map(|jti| {
                let claims = json!({
                    "iss": self.issuer, "aud": RESOURCE, "sub": "ada", "client_id": "bench-client",
                    "scope": "notes:read", "iat": now, "exp": now + 3600, "jti": jti.to_string(),
                });
                jsonwebtoken::encode(&header, &claims, &self.key).expect("a signed token")
            })
            .collect()
    }
}

/// The tokens a case's requests carry, in turn.
enum Tokens<'a> {
    None,
    /// One token, every request.
    One(&'a str),
    /// A pool of `n`, signed when the case is first run (minutes in a debug build, seconds in
    /// release): a run filtered to other cases does not pay for them.
    Pool(usize),
}

#[expect(
    clippy::too_many_lines,
    reason = "the cases, one after another, as they are reported"
)]
fn control(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let _entered = runtime.enter();
    let limit = || -> RateLimit { "1000000/s".parse().expect("a limit") };
    let metadata = || ProtectedResourceMetadata::new(RESOURCE, "https://unused.example");
    // Signing 10,001 tokens takes minutes in a debug build: the smoke run of the tests
    // (criterion without `--bench`) only needs the case to work, so it signs two.
    let measuring = std::env::args().any(|argument| argument == "--bench");
    let (issuer, signer) = issuer();
    let token = signer.tokens(1).remove(0);
    let redis = RedisServer::start();

    let mut group = c.benchmark_group("control");
    // Each case is set up (its tokens, its first request) only when it runs: criterion calls a
    // case's routine only when its name passes the filter.
    let mut bench = |name: &str, server: &dyn Fn() -> Server, tool: &str, tokens: Tokens<'_>| {
        let mut router = None;
        let mut calls: Vec<Call> = Vec::new();
        let mut turn = 0;
        group.bench_function(name, |b| {
            let router = router
                .get_or_insert_with(|| server().into_router().expect("the tools can be served"));
            if calls.is_empty() {
                calls = match &tokens {
                    Tokens::None => vec![Call::new(tool, None)],
                    Tokens::One(token) => vec![Call::new(tool, Some(token))],
                    Tokens::Pool(count) => signer
                        .tokens(if measuring { *count } else { 2 })
                        .iter()
                        .map(|token| Call::new(tool, Some(token)))
                        .collect(),
                };
            }
            let first = turn == 0;
            let mut answer = || {
                let call = &calls[turn % calls.len()];
                turn += 1;
                runtime.block_on(async {
                    let response = router
                        .clone()
                        .oneshot(call.request())
                        .await
                        .expect("an answer");
                    assert!(response.status().is_success(), "{}", response.status());
                    let body = to_bytes(response.into_body(), usize::MAX)
                        .await
                        .expect("a body");
                    let body: Value = serde_json::from_slice(&body).expect("JSON");
                    assert_eq!(body["result"]["content"][0]["text"], "hello", "{body}");
                });
            };
            // The first request outside the measurement: it fetches the issuer's keys, once.
            if first {
                answer();
            }
            b.iter(&mut answer);
        });
    };

    bench(
        "http tools/call echo, nothing configured",
        &|| Server::new("bench", "1.0.0"),
        "echo",
        Tokens::None,
    );
    bench(
        "http tools/call echo, rate limited in memory",
        &|| Server::new("bench", "1.0.0").rate_limit(limit()),
        "echo",
        Tokens::None,
    );
    if let Some(redis) = &redis {
        let config = || HttpConfig::new().redis_store(redis.connect(&runtime));
        bench(
            "http tools/call echo, Redis, no limit",
            &|| Server::new("bench", "1.0.0").http_config(config()),
            "echo",
            Tokens::None,
        );
        bench(
            "http tools/call echo, rate limited in Redis",
            &|| {
                Server::new("bench", "1.0.0")
                    .rate_limit(limit())
                    .http_config(config())
            },
            "echo",
            Tokens::None,
        );
    }
    bench(
        "http tools/call echo, bearer token checked by a fn",
        &|| {
            Server::new("bench", "1.0.0").http_config(HttpConfig::new().bearer_auth(
                metadata(),
                |token: String| async move {
                    (token == "let-me-in").then(|| AuthInfo::new("bench-client").subject("ada"))
                },
            ))
        },
        "echo",
        Tokens::One("let-me-in"),
    );
    // `oauth` after `bearer_auth`: the resource URI named there is kept (`into_router` cannot
    // learn it from an address served).
    let oauth = || {
        Server::new("bench", "1.0.0").http_config(
            HttpConfig::new()
                .bearer_auth(metadata(), |_: String| async { None })
                .oauth(issuer.clone()),
        )
    };
    bench(
        "http tools/call echo, OAuth JWT (RS256, keys cached)",
        &oauth,
        "echo",
        Tokens::One(&token),
    );
    bench(
        "http tools/call echo_scoped, OAuth JWT with its scope",
        &oauth,
        "echo_scoped",
        Tokens::One(&token),
    );
    bench(
        "http tools/call echo, OAuth JWT and rate limited in memory",
        &|| oauth().rate_limit(limit()),
        "echo",
        Tokens::One(&token),
    );
    bench(
        "http tools/call echo, OAuth JWT, a token not kept at each request",
        &oauth,
        "echo",
        Tokens::Pool(KEPT_TOKENS + 1),
    );
    group.finish();
}

criterion_group!(benches, control);
criterion_main!(benches);
