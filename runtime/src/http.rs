//! Streamable HTTP: [`HttpConfig`] tunes [`Server::serve_http`] (limits, auth, origins) and
//! [`ProtectedResourceMetadata`] is the OAuth metadata it serves, both with the `http` feature;
//! [`AuthInfo`], the caller a token proved, is present without it, as tools read it from their
//! [`Context`](crate::Context) whatever the transport.
//!
//! # Serving
//!
//! [`Server::serve_http`] (or [`Server::run`](crate::Server::run) with `--http ADDR`) serves
//! `/mcp`; [`Server::serve_http_app`] serves your own axum app with the MCP endpoint where you
//! put it (`|mcp| app.nest("/mcp", mcp)`), with the same connection protections.
//!
//! [`Server::into_service`] returns the bare endpoint as an [`HttpService`], a tower service of
//! `http` 1 types that hyper or any axum version mounts (`Router::nest_service("/mcp", …)`);
//! [`Server::into_router`] returns it as an axum 0.8 `Router`. Either answers at `/` wherever
//! you mount it and keeps admission, bodies, places and sessions, but served by `axum::serve`
//! it has no header timeout, no connection cap and no body rate, and its long-lived streams end
//! only when you say so: call `HttpService::shutdown` as your server stops (a `Router` from
//! `into_router` has no such handle: bound your shutdown with a timeout). (Why
//! both: `HttpService`'s signature names no axum type, so it outlives an axum release; the
//! `Router` is the shortest path for an axum 0.8 app.) Both protocol eras are served on one endpoint: 2026-07-28 requests (per-request
//! `_meta`) statelessly, legacy clients with `initialize` and an `Mcp-Session-Id` session.
//!
//! On SIGINT/SIGTERM, `serve_http` (and `serve_http_app`) stops accepting, lets calls in flight
//! finish (up to `HttpConfig::shutdown_grace`, 10 s; a streamed legacy call whose client went
//! away too) and closes the streams. With Redis it also ends its legacy POST streams at once,
//! so that their clients resume on another replica while the calls finish here.
//!
//! # Resumable streams
//!
//! A legacy client (2025-03-26 … 2025-11-25, with an `Mcp-Session-Id` session) that loses its
//! connection resumes: every event of its session's streams carries an id, `{stream}-{seq}`, and
//! a `GET` with its `Mcp-Session-Id` and `Last-Event-ID` replays that stream's events after the
//! id, then goes on with it: a POST's stream until its response (which ends it), the GET stream
//! as a GET stream does. At 2025-11-25 a stream starts with a priming event (an id and empty
//! data), so that the client holds an id before anything else is sent. A call that answers
//! before sending anything is still answered as plain JSON, and nothing is kept for it.
//!
//! - A client that disconnects from a call's stream does not cancel the call (the protocol says
//!   it SHOULD NOT): the call runs on within its time limit, its events kept for the client to
//!   resume. A call answered as JSON is still cancelled when its client goes away (nothing was
//!   sent that it could resume from); `notifications/cancelled` still cancels.
//! - One connection follows a stream at a time (a message is never sent on two): a client that
//!   resumes takes the stream over from its older connection, which ends.
//! - An id the session cannot resume (unknown, expired, another session's) is `400`, `-32600`:
//!   the TypeScript SDK's server answers so, and a `404` would tell the client its session is gone.
//! - Each stream keeps its last `HttpConfig::max_replay_events` (1,000),
//!   for `replay_ttl` (5 min) after it ended; a client resuming from
//!   an event older than what is kept gets what is kept.
//! - In memory (one process), 64 MiB of events in all, the streams quiet longest forgotten first.
//!   With Redis (`HttpConfig::redis`, the `redis` feature), every event is also written to
//!   Redis, so a client resumes on any replica; when the replica that ran its call died before
//!   it answered, the resumed stream ends with a `-32603` error response for the request (within
//!   about 6 s: the replica's liveness), never in silence. A replica stopping (SIGTERM) ends its
//!   call streams, so their clients resume elsewhere, and stays alive for the others while those
//!   calls run on (at most the shutdown grace).
//! - 2026-07-28 has no resumability: its events carry no id, `Last-Event-ID` means nothing, and
//!   closing a stream cancels its call (its way to cancel). Stateless mode keeps nothing.
//!
//! ```
//! # #[cfg(feature = "http")] {
//! use std::time::Duration;
//! use mcp_toolbelt::http::HttpConfig;
//!
//! // Long jobs whose clients reconnect slowly: keep fewer events, longer.
//! let config = HttpConfig::new()
//!     .max_replay_events(200)
//!     .replay_ttl(Duration::from_mins(30));
//! # }
//! ```
//!
//! # Safe to expose by default
//!
//! - It binds where you tell it (`--http 8080` means `127.0.0.1:8080`) and answers only
//!   localhost `Host`s and `Origin`s (`HttpConfig::allow_hosts`, `allow_origins` for more;
//!   `403` otherwise). `Host` and `Origin` are parsed, not prefix-matched; an absolute-form
//!   request target's authority wins over `Host`; a repeated `Host`, `Origin`, `Authorization` or
//!   MCP header is a `400`. A browser page that calls the server directly (the MCP Inspector's
//!   "direct" connection, your web app) needs its origin named:
//!   `HttpConfig::new().allow_origins(["http://localhost:6274"])` grants that origin CORS; no
//!   other origin gets it.
//! - `serve_http` keeps at most `max_connections` (512) connections open and gives each
//!   `header_timeout` (30 s) to send a request's headers, so silent, slow-header and idle
//!   keep-alive connections are closed; past the cap, a waiting client gets the place of the
//!   longest idle connection, or of the next busy one to answer (`Connection: close`), so a crowd
//!   of keep-alive clients cannot starve the rest.
//! - No client holds every connection: long-lived streams (GET and `subscriptions/listen`) take
//!   at most half of them, bodies still arriving a quarter, and a body must keep arriving at
//!   `min_body_rate` (1 KiB/s after a 5 s `body_rate_grace`); past these, `503` with `Retry-After` or `408`.
//! - Bodies are bounded in size (`413`, decided from `Content-Length` before any
//!   `100 Continue`), coding (`415` for a `Content-Encoding` other than identity) and time
//!   (`408`); a request takes one of `max_requests` places only once its body is read;
//!   `subscriptions/listen` streams and legacy sessions are capped too (`503` with
//!   `Retry-After`; a full session table first closes the least recently used session not in
//!   use), and with bearer auth one principal holds at most 64 requests (and as many GET and
//!   `subscriptions/listen` streams) and 32 sessions.
//!
//! Every HTTP limit, its default and what happens past it is in the table on [`HttpConfig`];
//! those of every transport (call time, calls in flight, request memory) on
//! [`Server`](crate::Server).
//!
//! # Bearer auth
//!
//! [`HttpConfig::bearer_auth`] (an example is there) requires `Authorization: Bearer <token>` on
//! every request: your async `verify` returns what the token grants, an [`AuthInfo`] (its client,
//! subject and scopes; tools read it as [`Context::auth`](crate::Context::auth), hooks as
//! `call.context().auth()`), or `None`, answered `401` with a `WWW-Authenticate` header pointing
//! at the RFC 9728 metadata document ([`ProtectedResourceMetadata`]) the server then serves.
//! Its URLs name the server: give them (`ProtectedResourceMetadata::new`), or let
//! [`Server::serve_http`] and `run()` fill them in from the address they serve
//! (`ProtectedResourceMetadata::at_served_address`; `run()`'s `--resource URL` names the URL
//! clients use behind a proxy). `--print-config` then puts the `Authorization` header in each
//! snippet.
//! Legacy sessions belong to the token's client and subject that opened them.
//!
//! # Scopes
//!
//! `scopes("notes:read")` on [`tool`](macro@crate::tool), [`resource`](macro@crate::resource)
//! and [`prompt`](macro@crate::prompt) (`.scopes([…])` on [`Tool`](crate::tool::Tool),
//! [`Resource`](crate::resource::Resource) and [`Prompt`](crate::prompt::Prompt)) names the
//! scopes a token must grant, all of them, to use the item: a `tools/call`, `resources/read`
//! (of the resource, or of a URI its template matches), `prompts/get` or `completion/complete`
//! (of the prompt or template) by a caller whose [`AuthInfo::scopes`] lack one is answered
//! `403` with `WWW-Authenticate: Bearer error="insufficient_scope", scope="<every scope it
//! needs>", resource_metadata="…"` (the 2025-11-25 scope challenge) and a JSON-RPC error
//! (`-32600`, `data.scope` the same list), in both eras; the client then asks its authorization
//! server for a token with those scopes and sends the request again (step-up; a legacy session
//! stays the client's and user's). Only a caller identity is checked: without auth (stdio, a
//! process its user started; HTTP without bearer auth) every item is served to every caller.
//! Listings show a caller only the items its scopes allow (a 2026-07-28 one then says
//! `cacheScope: "private"`, as does the read of a resource with scopes: no shared cache may hand
//! it to a caller without them), and the RFC 9728 document `serve_http` publishes lists in
//! `scopes_supported`, after those given, every scope an item served when it is asked for
//! needs (items added at run time too); with the built-in verifier the `401` names those of
//! the items served at start-up (`scope="…"`). A run-time item's `.scopes([…])` are checked as
//! the attribute's are: one no token can carry, or given twice, is refused when the item is
//! added.
//!
//! # Tags and who sees them
//!
//! `tags(…)` choose what a server serves at all ([`Server::only_tags`](crate::Server::only_tags),
//! `--only-tags`, `--without-tags`), whatever the transport. Over HTTP two more layers decide
//! what each request sees of that: [`Server::visibility`](crate::Server::visibility), a rule on
//! the caller's [`AuthInfo`] (its scopes, its subject), in both eras; and a legacy session's own
//! choice, made by a tool ([`Context::enable_tags`](crate::Context::enable_tags),
//! `disable_tags`, `reset_tags`), which that session alone sees and is told of
//! (`notifications/tools/list_changed` and the others concerned, on its GET stream). What is
//! hidden is absent from the request's listings and unknown to its calls (a 2026-07-28 listing
//! under a rule says `cacheScope: "private"`). With Redis the session's choice is in its record,
//! so its next request sees it on any replica and the notification reaches its GET stream on
//! whichever replica holds it. A scope check (`403`) is made only of what the caller can see.
//!
//! # Rate limits
//!
//! [`Server::rate_limit`](crate::Server::rate_limit) (`run()`'s `--rate-limit 600/min`,
//! `MCP_RATE_LIMIT`) gives each principal N requests per unit, bursts up to N, and
//! `#[tool(rate_limit = "10/min")]` a tool's calls a limit of their own on top. Past a limit the
//! request is not run; over HTTP it is answered `429 Too Many Requests` in both eras, with
//! `Retry-After: <seconds, rounded up>` and a JSON-RPC error body carrying the request's id:
//!
//! ```text
//! HTTP/1.1 429 Too Many Requests
//! Retry-After: 20
//!
//! {"jsonrpc":"2.0","id":4,"error":{"code":-32029,"message":"Rate limit exceeded: the server's limit is 3/min per caller; retry after 19874 ms","data":{"retryAfterMs":19874}}}
//! ```
//!
//! (over stdio, the same JSON-RPC error). Every request counts, `initialize` and `ping` too;
//! notifications and responses never do (a client can always cancel). Each item of a
//! 2025-03-26 batch counts, and one past the limit answers `-32029` inside the batch's `200`.
//!
//! A principal is the bearer token's client and subject ([`AuthInfo`]); without auth, the
//! client's IP address (an IPv6 client by its `/64`). Behind a reverse proxy every client comes
//! from the proxy's address: name the proxy with `--trust-proxy 10.0.0.0/8` (repeatable or
//! comma-separated; `MCP_TRUST_PROXY`; `HttpConfig::trust_proxy`) and the address it appends
//! to `X-Forwarded-For` is counted instead (read from the right, past every trusted hop). No
//! proxy is trusted by default: the header of any other peer is ignored, since any client can
//! write it. An app serving `Server::into_router` itself gives the
//! peer's address with axum's `into_make_service_with_connect_info::<SocketAddr>()`; without it,
//! every caller without a token shares one budget.
//!
//! With Redis (`--redis`), the replicas share the counts: the limit holds for the whole
//! deployment, not per replica (see the `redis` module for what it keeps and what happens while
//! Redis is down).
//!
//! # OAuth: tokens verified by the server (feature `oauth`)
//!
//! With the `oauth` feature the server is an OAuth 2.1 resource server itself, as the MCP
//! authorization spec describes it: `HttpConfig::oauth(issuer)` in code, or `run()`'s
//! `--oauth-issuer URL` (`MCP_OAUTH_ISSUER`). Every request then needs a JWT access token of that
//! issuer, signed by a key of its JWKS (`RS256`, `ES256` or `EdDSA`), typed as an access token
//! (RFC 9068's `at+jwt`, or the `JWT` most providers write, or no `typ`), whose `aud` names this server's
//! resource URI: `http://HOST:PORT/mcp` where it is served, or `--resource URL`
//! (`MCP_RESOURCE`), the public URL behind a proxy. Clients ask the authorization server for
//! tokens of that resource (RFC 8707's `resource` parameter); the RFC 9728 document served names
//! the issuer. Opaque tokens are introspected when the server has a client of its own at the
//! issuer: `HttpConfig::oauth_introspection(issuer, client_id, client_secret)`, or
//! `MCP_OAUTH_CLIENT_ID` and `MCP_OAUTH_CLIENT_SECRET` with `--oauth-issuer`. The token's
//! client, subject, scopes and every claim reach tools, resources, prompts and hooks as
//! [`Context::auth`](crate::Context::auth) (an [`AuthInfo`]: `client_id` (the `client_id`
//! claim, else `azp`), `subject` (`sub`), `scopes` (`scope`, else `scp`), the claims in `extra`).
//!
//! ```
//! use mcp_toolbelt::{Context, Server, tool};
//!
//! /// Adds a note, signed by whoever the token speaks for
//! #[tool(scopes("notes:write"))]
//! async fn add_note(context: &Context, text: String) -> String {
//!     let author = context
//!         .auth()
//!         .and_then(|auth| auth.subject.as_deref())
//!         .unwrap_or("the local user");
//!     format!("{author} wrote: {text}")
//! }
//!
//! let server = Server::new("notes", "1.0.0");
//! # #[cfg(feature = "oauth")]
//! let server = server.http_config(
//!     mcp_toolbelt::http::HttpConfig::new().oauth("https://id.example.com/realms/notes"),
//! );
//! // or, with `run()`: notes --http 0.0.0.0:8080 --oauth-issuer https://id.example.com/realms/notes
//! ```
//!
//! | `run()` flag | variable | what it sets |
//! | --- | --- | --- |
//! | `--oauth-issuer URL` | `MCP_OAUTH_ISSUER` | the issuer whose tokens are accepted (`HttpConfig::oauth`); `https://`, or `http://` on loopback only |
//! | `--resource URL` | `MCP_RESOURCE` | this server's URI as clients reach it, the tokens' audience and the metadata's `resource` (default `http://{--http address}/mcp`) |
//! | | `MCP_OAUTH_CLIENT_ID`, `MCP_OAUTH_CLIENT_SECRET` | this server's own client at the issuer: opaque tokens introspected (`HttpConfig::oauth_introspection`) |
//!
//! A client meets it as the spec says: its first request is `401` with
//! `WWW-Authenticate: Bearer resource_metadata="…", scope="…"` (every scope the items declare);
//! it reads the RFC 9728 document, then the issuer's metadata, registers (dynamic client
//! registration, where the issuer allows it) and gets a token by an authorization code with
//! PKCE, for this server as `resource`. A token lacking an item's scopes is `403`
//! `insufficient_scope` naming them (see "Scopes" above): the client asks the user for those
//! scopes and sends the request again with its new token (step-up; the official TypeScript
//! SDK does it by itself). A 2026-07-28 client keeps a listing (`cacheScope: "private"`) for
//! its user: after a step-up it lists again to see what the new scopes allow.
//!
//! Which hosted identity providers issue tokens this server can check: the issuer is the
//! `issuer` of its metadata, exactly (the server reads `/.well-known/oauth-authorization-server`,
//! else `/.well-known/openid-configuration`).
//!
//! | hosted identity provider | `--oauth-issuer` | the resource URI (`--resource`) is | its access tokens |
//! | --- | --- | --- | --- |
//! | Keycloak | `https://id.example.com/realms/REALM` | a client scope with an audience mapper adding it to `aud` | JWTs (`scope`, `azp`); a confidential client of the realm may also introspect (`oauth_introspection`) |
//! | Auth0 | `https://TENANT.auth0.com/` (the trailing slash is part of it) | an API whose identifier is the URI (`audience=` in the token request) | JWTs when asked for that API; without an audience, opaque tokens meant for Auth0's own `/userinfo`, which no resource server can check (`401`) |
//! | Okta | `https://ORG.okta.com/oauth2/default` (a custom authorization server) | the authorization server's audience | JWTs (`scp`, `cid`: read the client from `extra["cid"]`); the org authorization server's (`https://ORG.okta.com`) are for Okta's APIs only, not for you to check |
//! | Microsoft Entra ID | `https://login.microsoftonline.com/TENANT_ID/v2.0` | the application ID URI of the API registration | JWTs (`scp`, `azp`; an app-only token has `roles`, read from `extra`); a v2 token's `aud` is the API's client id, not its URI, so such tokens are refused until an extra audience can be accepted; no dynamic registration: clients are registered ahead |
//!
//! ```sh
//! my-server --http 0.0.0.0:8080 --allow-host mcp.example.com \
//!     --resource https://mcp.example.com/mcp \
//!     --oauth-issuer https://id.example.com/realms/notes
//! ```
//!
//! What the verifier keeps (the issuer's keys, introspection answers) is bounded, in the Limits
//! table on [`HttpConfig`]; the repository's `examples/secured` is a server of scoped notes
//! served this way, tested against a real authorization server and the TypeScript SDK's flow.
//!
//! # Deploying
//!
//! Deployed behind a name, tell `run()` which: `--http 0.0.0.0:8080 --allow-host mcp.internal`
//! (repeatable; also `--allow-origin ORIGIN`, `--stateless` and
//! `--request-state-key-file PATH`), or in a container the variables
//! `MCP_ALLOWED_HOSTS=mcp.internal,…`, `MCP_ALLOWED_ORIGINS`, `MCP_STATELESS=1`,
//! `MCP_REQUEST_STATE_KEY`. Bound to a non-loopback address with only the localhost defaults, it
//! says at start-up which flag to add.
//!
//! To run many replicas behind a load balancer, use `HttpConfig::new().stateless(true)`: no
//! legacy sessions are kept, so any replica can answer any request (2026-07-28 clients are
//! stateless anyway; legacy clients then get no GET stream and no `Mcp-Session-Id`), and give
//! them one `requestState` key (see [`ask`](crate::ask), "The `requestState` key") so that a
//! tool's questions can be answered on any of them. Or keep legacy sessions and share them
//! through Redis (`HttpConfig::redis`, `--redis URL`, feature `redis`): any replica then serves
//! any request of any session, with no sticky routing (see the `redis` module).
//!
//! # Health
//!
//! `serve_http` and `serve_http_app` answer `GET /healthz` beside the MCP endpoint (no `Host`
//! check, no auth, never routed to your app): `200 {"status":"serving","redis":"off"}` while
//! serving (`"up"` or `"down"` with Redis: a Redis that is down does not make it fail, since
//! 2026-07-28 requests still work), `503 {"status":"closing",…}` once SIGINT/SIGTERM started
//! the shutdown, so a load balancer sends no new client to a replica that is stopping. In
//! Kubernetes, make it the readiness probe:
//!
//! ```yaml
//! readinessProbe:
//!   httpGet: { path: /healthz, port: 8080 }
//!   periodSeconds: 2
//! ```
//!
//! A load balancer can route on an argument without reading the body: mark it
//! (`#[header("Region")]`), and 2026-07-28 clients send it again as a header
//! (`Mcp-Param-Region`, SEP-2243), checked against the body before the tool runs (see
//! [`tool`](macro@crate::tool), "Header-routed arguments"). Only 2026-07-28 requests carry these
//! headers: a balancer that routes legacy sessions must route on the session, not on
//! `Mcp-Param-*`.
//!
// The links above that name items of the `http` feature lead to this module without it.
#![cfg_attr(feature = "http", doc = "[`HttpConfig`]: HttpConfig")]
#![cfg_attr(
    feature = "http",
    doc = "[`ProtectedResourceMetadata`]: ProtectedResourceMetadata"
)]
#![cfg_attr(
    feature = "http",
    doc = "[`Server::serve_http`]: crate::Server::serve_http"
)]
#![cfg_attr(
    feature = "http",
    doc = "[`Server::serve_http_app`]: crate::Server::serve_http_app"
)]
#![cfg_attr(
    feature = "http",
    doc = "[`Server::into_router`]: crate::Server::into_router"
)]
#![cfg_attr(feature = "http", doc = "[`HttpService`]: HttpService")]
#![cfg_attr(
    feature = "http",
    doc = "[`Server::into_service`]: crate::Server::into_service"
)]
#![cfg_attr(not(feature = "http"), doc = "[`HttpService`]: self")]
#![cfg_attr(not(feature = "http"), doc = "[`Server::into_service`]: self")]
#![cfg_attr(
    feature = "http",
    doc = "[`HttpConfig::bearer_auth`]: HttpConfig::bearer_auth"
)]
#![cfg_attr(not(feature = "http"), doc = "[`HttpConfig::bearer_auth`]: self")]
#![cfg_attr(not(feature = "http"), doc = "[`HttpConfig`]: self")]
#![cfg_attr(not(feature = "http"), doc = "[`ProtectedResourceMetadata`]: self")]
#![cfg_attr(not(feature = "http"), doc = "[`Server::serve_http`]: self")]
#![cfg_attr(not(feature = "http"), doc = "[`Server::serve_http_app`]: self")]
#![cfg_attr(not(feature = "http"), doc = "[`Server::into_router`]: self")]

pub use crate::context::AuthInfo;
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub use crate::transport::http::{HttpBody, HttpConfig, HttpService, ProtectedResourceMetadata};
