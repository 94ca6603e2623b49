//! Middleware: code that runs around every request that runs user code or lists what it
//! serves, written once — `tools/call`, `resources/read`, `prompts/get`, `completion/complete`
//! and the listings (`tools/list`, `resources/list`, `resources/templates/list`,
//! `prompts/list`). Shaped like axum's `middleware::from_fn`: an async fn given the
//! [`Request`] and [`Next`], which runs the rest of the chain; `FastMCP`'s `on_call_tool`,
//! `on_read_resource`, `on_list_tools`… are one `match` on [`Request::kind`].
//!
//! ```
//! use std::sync::Arc;
//! use std::sync::atomic::{AtomicUsize, Ordering};
//! use mcp_toolbelt::middleware::{Kind, Next, Request};
//! use mcp_toolbelt::{Content, Server, error::ErrorObject};
//!
//! let served = Arc::new(AtomicUsize::new(0));
//! let counted = Arc::clone(&served);
//! let server = Server::new("demo", "1.0.0")
//!     // Observes: counts every request it sees, of every kind.
//!     .middleware(move |request: Request, next: Next| {
//!         counted.fetch_add(1, Ordering::Relaxed);
//!         next.run(request)
//!     })
//!     // Refuses and transforms.
//!     .middleware(|mut request: Request, next: Next| async move {
//!         let guest = request.context().auth().is_none_or(|auth| auth.subject.is_none());
//!         match request.kind() {
//!             // The internal notes are nobody's business but a signed-in user's.
//!             Kind::ReadResource if guest && request.target().is_some_and(|uri| uri.starts_with("internal://")) => {
//!                 return Err(ErrorObject::invalid_params("Resource not found"));
//!             }
//!             // A default argument, filled in before the tool's schema checks it.
//!             Kind::CallTool => {
//!                 request.arguments_mut().entry("locale").or_insert("en".into());
//!             }
//!             _ => {}
//!         }
//!         let kind = request.kind();
//!         let mut outcome = next.run(request).await;
//!         if let Ok(response) = &mut outcome {
//!             // Hidden from guests: the tool named `admin` (its calls would still run: refuse
//!             // those above too when that matters).
//!             if kind == Kind::ListTools && guest {
//!                 response.retain_listed(|tool| tool["name"] != "admin");
//!             }
//!             if let Some(result) = response.tool_result_mut() {
//!                 result.content.push(Content::text("(served by demo)"));
//!             }
//!         }
//!         outcome
//!     });
//! # let _ = server;
//! ```
//!
//! # What a middleware is given
//!
//! A [`Request`]: its [`Kind`]; what it names ([`Request::target`]: the tool's name, the URI
//! read, the prompt's name, the prompt name or template URI a completion refers to; none for a
//! listing); its `params` as the client sent them (to read or change: a changed `name` or `uri`
//! names another item, which the scope check then checks); and a [`Context`] (the request's
//! id, the caller's session and [`auth`](Context::auth), the app state, progress and logs).
//! The context of a middleware asks the client nothing: its questions are for the tool,
//! prompt or resource fn.
//!
//! It answers with an [`Outcome`]: `Ok(`[`Response`]`)`, what the client is sent, or
//! `Err(ErrorObject)`, a JSON-RPC error. It refuses by not running `next`; transforms by
//! changing the request before `next.run` or the response after; observes by looking at both.
//! A `tools/call` refused as the model should read it is `Ok(CallToolResult::error(…).into())`.
//!
//! # Order
//!
//! Middleware runs in the order it was added, the first outermost (it sees the request first
//! and the response last), as tower's `ServiceBuilder` layers do. After the last one, built
//! in, comes the scope check of `scopes(…)`: a caller whose token lacks a scope the named item
//! needs is refused there (`-32600`, `data.error = "insufficient_scope"`; over HTTP a `403` with
//! the `insufficient_scope` challenge, when the refusal is the request's first message), so
//! every middleware sees that refusal come back from `next`. Then the request runs: for a
//! `tools/call`, the tool is found, then the call [hooks](crate::hook) run (tools-only, in their
//! own order), then the tool's arguments are validated and its fn runs.
//!
//! # Listings
//!
//! A listing's [`Response`] is its page as JSON (`{"tools": […], "nextCursor": …}`;
//! [`Response::retain_listed`] hides items). The server keeps the `tools/list` pages it builds
//! (per version, page and the caller's scopes) from before any middleware ran: a middleware
//! always runs on the request in hand, and what it changes is never kept, so one caller's
//! change is never served to another. A 2026-07-28 listing a middleware changed, or answered
//! itself ([`Response::json`]), says `cacheScope: "private"` (the server cannot tell whether
//! it depends on the caller).
//!
//! # Time, panics
//!
//! The time limit of a call (`Server::call_timeout`) bounds what runs after the chain (a
//! tool's hooks and fn, a prompt, a read, a completer), not the middleware itself: over HTTP
//! the request's time (`HttpConfig`) bounds it all, and a client's cancellation drops it
//! anywhere. A middleware that panics ends its request: a `tools/call` with an `isError`
//! result, as a tool that panics does, any other with `-32603`.

use std::fmt;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use tokio::sync::oneshot;

use crate::call::panic_message;
use crate::context::Context;
use crate::jsonrpc::{ErrorObject, Method, codes};
use crate::result::CallToolResult;

/// What a request ends with: its response, or a JSON-RPC error.
pub type Outcome = Result<Response, ErrorObject>;

/// One middleware, as the server keeps it.
pub(crate) type Middleware =
    Arc<dyn Fn(Request, Next) -> BoxFuture<'static, Outcome> + Send + Sync>;

/// Boxes `middleware` for the server.
pub(crate) fn boxed<F, Fut>(middleware: F) -> Middleware
where
    F: Fn(Request, Next) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Outcome> + Send + 'static,
{
    Arc::new(move |request, next| Box::pin(middleware(request, next)))
}

/// Which kind of request a middleware is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// `tools/call`: names a tool.
    CallTool,
    /// `resources/read`: names a URI.
    ReadResource,
    /// `prompts/get`: names a prompt.
    GetPrompt,
    /// `completion/complete`: names the prompt or resource template it completes for.
    Complete,
    /// `tools/list`.
    ListTools,
    /// `resources/list`.
    ListResources,
    /// `resources/templates/list`.
    ListResourceTemplates,
    /// `prompts/list`.
    ListPrompts,
}

impl Kind {
    /// The kind of a request of `method`; `None` for a method no middleware wraps.
    pub(crate) fn of(method: &Method) -> Option<Self> {
        Some(match method {
            Method::CallTool => Self::CallTool,
            Method::ReadResource => Self::ReadResource,
            Method::GetPrompt => Self::GetPrompt,
            Method::Complete => Self::Complete,
            Method::ListTools => Self::ListTools,
            Method::ListResources => Self::ListResources,
            Method::ListResourceTemplates => Self::ListResourceTemplates,
            Method::ListPrompts => Self::ListPrompts,
            _ => return None,
        })
    }

    /// The JSON-RPC method, as the client named it (`tools/call`, …).
    #[must_use]
    pub fn method(self) -> &'static str {
        match self {
            Self::CallTool => "tools/call",
            Self::ReadResource => "resources/read",
            Self::GetPrompt => "prompts/get",
            Self::Complete => "completion/complete",
            Self::ListTools => "tools/list",
            Self::ListResources => "resources/list",
            Self::ListResourceTemplates => "resources/templates/list",
            Self::ListPrompts => "prompts/list",
        }
    }

    /// Whether it lists what the server serves (and names nothing).
    #[must_use]
    pub fn is_listing(self) -> bool {
        matches!(
            self,
            Self::ListTools | Self::ListResources | Self::ListResourceTemplates | Self::ListPrompts
        )
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.method())
    }
}

/// The request a middleware is given: its kind, its params, for whom.
pub struct Request {
    kind: Kind,
    params: Map<String, Value>,
    context: Context,
}

impl Request {
    pub(crate) fn new(kind: Kind, params: Map<String, Value>, context: Context) -> Self {
        Self {
            kind,
            params,
            context,
        }
    }

    /// Which kind of request it is.
    #[must_use]
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// What it names: the tool's name (`tools/call`), the URI (`resources/read`), the prompt's
    /// name (`prompts/get`), the prompt's name or the template's URI a completion refers to
    /// (`completion/complete`); `None` for a listing, or a request that names nothing readable.
    #[must_use]
    pub fn target(&self) -> Option<&str> {
        fn text<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
            map.get(key).and_then(Value::as_str)
        }
        match self.kind {
            Kind::CallTool | Kind::GetPrompt => text(&self.params, "name"),
            Kind::ReadResource => text(&self.params, "uri"),
            Kind::Complete => {
                let reference = self.params.get("ref").and_then(Value::as_object)?;
                text(reference, "name").or_else(|| text(reference, "uri"))
            }
            _ => None,
        }
    }

    /// The request's params as the client sent them (`_meta` included), or as the middleware
    /// before this one left them.
    #[must_use]
    pub fn params(&self) -> &Map<String, Value> {
        &self.params
    }

    /// The params, to change before the rest of the chain sees them.
    pub fn params_mut(&mut self) -> &mut Map<String, Value> {
        &mut self.params
    }

    /// The `arguments` of a `tools/call` or `prompts/get` (`None` when there are none, or they
    /// are not an object: the request is refused for it after the chain).
    #[must_use]
    pub fn arguments(&self) -> Option<&Map<String, Value>> {
        self.params.get("arguments").and_then(Value::as_object)
    }

    /// The `arguments`, to change: made an empty object when there were none (or not an
    /// object). A tool's are validated against its input schema after the chain.
    pub fn arguments_mut(&mut self) -> &mut Map<String, Value> {
        let arguments = self
            .params
            .entry("arguments")
            .or_insert_with(|| Value::Object(Map::new()));
        if !arguments.is_object() {
            *arguments = Value::Object(Map::new());
        }
        match arguments {
            Value::Object(arguments) => arguments,
            _ => unreachable!("made an object above"),
        }
    }

    /// The request's context: its id, the caller's session and auth, the app state.
    #[must_use]
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// The kind and params, for the server once the chain let the request through.
    pub(crate) fn into_parts(self) -> (Kind, Map<String, Value>) {
        (self.kind, self.params)
    }
}

impl fmt::Debug for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Request")
            .field("kind", &self.kind)
            .field("params", &self.params)
            .field("context", &self.context)
            .finish()
    }
}

/// What a request answers, before the server writes it for the client's version.
pub struct Response {
    repr: Repr,
    /// Whether a middleware was given it to change: a listing then varies by caller.
    changed: bool,
}

pub(crate) enum Repr {
    /// A completed `tools/call`'s result.
    Tool(CallToolResult),
    /// Any other result, as JSON.
    Json(Value),
    /// A `tools/list` page as the server keeps it, shared; JSON once a middleware asks.
    Page(Arc<RawValue>),
}

impl Response {
    pub(crate) fn of(repr: Repr) -> Self {
        Self {
            repr,
            changed: false,
        }
    }

    /// A response that is this JSON result. A listing a middleware answers so, in place of the
    /// server's, is one the server cannot tell varies by caller: at 2026-07-28 it says
    /// `cacheScope: "private"`.
    #[must_use]
    pub fn json(result: Value) -> Self {
        Self {
            repr: Repr::Json(result),
            changed: true,
        }
    }

    /// The server's own JSON result for a request, as its handler made it.
    pub(crate) fn served(result: Value) -> Self {
        Self::of(Repr::Json(result))
    }

    /// The result of a completed `tools/call`; `None` for every other response (a call that
    /// asks a 2026-07-28 client and answers `input_required`, or became a task, answers JSON).
    #[must_use]
    pub fn tool_result(&self) -> Option<&CallToolResult> {
        match &self.repr {
            Repr::Tool(result) => Some(result),
            _ => None,
        }
    }

    /// The result of a completed `tools/call`, to change.
    pub fn tool_result_mut(&mut self) -> Option<&mut CallToolResult> {
        match &mut self.repr {
            Repr::Tool(result) => Some(result),
            _ => None,
        }
    }

    /// The response as JSON, as the server would write it (before the 2026-07-28 `_meta`).
    #[must_use]
    pub fn to_json(&self) -> Value {
        match &self.repr {
            Repr::Tool(result) => crate::jsonrpc::to_json(result),
            Repr::Json(value) => value.clone(),
            Repr::Page(page) => serde_json::from_str(page.get()).unwrap_or_default(),
        }
    }

    /// The response as JSON, to change. A tool's result becomes JSON for good, written as it
    /// is, no longer shaped for the client's version: change it with
    /// [`tool_result_mut`](Self::tool_result_mut) instead.
    pub fn json_mut(&mut self) -> &mut Value {
        self.changed = true;
        let json = match std::mem::replace(&mut self.repr, Repr::Json(Value::Null)) {
            Repr::Tool(result) => crate::jsonrpc::to_json(&result),
            Repr::Json(value) => value,
            Repr::Page(page) => serde_json::from_str(page.get()).unwrap_or_default(),
        };
        self.repr = Repr::Json(json);
        match &mut self.repr {
            Repr::Json(value) => value,
            _ => unreachable!("set above"),
        }
    }

    /// Keeps only the items of a listing (`tools`, `prompts`, `resources`,
    /// `resourceTemplates`) for which `keep` is true; nothing for any other response.
    pub fn retain_listed(&mut self, mut keep: impl FnMut(&Value) -> bool) {
        if matches!(self.repr, Repr::Tool(_)) {
            return;
        }
        let json = self.json_mut();
        for list in ["tools", "prompts", "resources", "resourceTemplates"] {
            if let Some(Value::Array(items)) = json.get_mut(list) {
                items.retain(&mut keep);
            }
        }
    }

    /// What the server writes, and whether a middleware could change it.
    pub(crate) fn into_parts(self) -> (Repr, bool) {
        (self.repr, self.changed)
    }
}

impl From<CallToolResult> for Response {
    fn from(result: CallToolResult) -> Self {
        Self::of(Repr::Tool(result))
    }
}

impl fmt::Debug for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Response").field(&self.to_json()).finish()
    }
}

/// The server's end of a chain: a request the middleware let through, and where its outcome
/// goes.
pub(crate) type Through = (Request, oneshot::Sender<Outcome>);

/// The rest of the chain after a middleware: the middleware added after it, then the scope
/// check and the request itself.
pub struct Next {
    chain: Arc<[Middleware]>,
    /// The index of the next middleware to run; past the end, the request runs.
    index: usize,
    /// Where a request let through goes: the server runs it where it holds what the request
    /// borrows (its connection), and sends back its outcome.
    end: oneshot::Sender<Through>,
}

impl Next {
    /// Runs the rest of the chain on `request` and gives what the client would get.
    pub async fn run(self, request: Request) -> Outcome {
        if let Some(middleware) = self.chain.get(self.index) {
            let middleware = Arc::clone(middleware);
            let next = Self {
                chain: self.chain,
                index: self.index + 1,
                end: self.end,
            };
            return middleware(request, next).await;
        }
        let (answer, outcome) = oneshot::channel();
        if self.end.send((request, answer)).is_err() {
            return Err(ended());
        }
        outcome.await.unwrap_or_else(|_| Err(ended()))
    }
}

impl fmt::Debug for Next {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Next")
            .field(
                "middleware_left",
                &self.chain.len().saturating_sub(self.index),
            )
            .finish_non_exhaustive()
    }
}

/// The error of a request whose server end is gone (it is being dropped: no one reads it).
fn ended() -> ErrorObject {
    ErrorObject::new(codes::INTERNAL_ERROR, "the request ended")
}

/// Runs `request` through `chain`; the request let through comes out of the receiver given
/// back, for the server to run and answer. A middleware's panic ends the request (a
/// `tools/call` with an `isError` result).
pub(crate) fn run(
    chain: &Arc<[Middleware]>,
    request: Request,
) -> (
    impl Future<Output = Outcome> + Send + 'static,
    oneshot::Receiver<Through>,
) {
    let (end, through) = oneshot::channel();
    let kind = request.kind;
    let next = Next {
        chain: Arc::clone(chain),
        index: 0,
        end,
    };
    let running = AssertUnwindSafe(next.run(request))
        .catch_unwind()
        .map(move |outcome| {
            outcome.unwrap_or_else(|panic| {
                let message = panic_message(panic.as_ref());
                tracing::error!(%kind, panic = message, "middleware panicked");
                let message = format!("Error: a middleware panicked: {message}");
                if kind == Kind::CallTool {
                    Ok(CallToolResult::error(message).into())
                } else {
                    Err(ErrorObject::new(codes::INTERNAL_ERROR, message))
                }
            })
        });
    (running, through)
}
