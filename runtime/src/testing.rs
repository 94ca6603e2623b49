//! [`TestClient`]: call your tools in-process, through the same dispatch path a host's requests
//! take, and get exactly the JSON the host would get.
//!
//! ```
//! use mcp_toolbelt::{testing::TestClient, tool, Server};
//! use serde_json::json;
//!
//! /// Say hello
//! #[tool]
//! async fn hello(/// Who to greet
//!                name: String) -> String {
//!     format!("Hello, {name}!")
//! }
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! let client = TestClient::new(Server::new("demo", "1.0.0"));
//! let result = client.call_tool("hello", json!({"name": "Ada"})).await;
//! assert_eq!(result.text_content(), "Hello, Ada!");
//! # }
//! ```
//!
//! A tool that asks the client (elicitation, sampling, roots) is tested in both eras: on a
//! legacy connection, [`TestClient::answering`] declares the client's capabilities and answers
//! each request the tool sends; at 2026-07-28, [`TestClient::request`] drives the rounds
//! (`input_required`, then the retry with `inputResponses`).
//!
//! ```
//! use mcp_toolbelt::{testing::TestClient, tool, Context, ask::Elicitation, Server};
//! use serde_json::json;
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct Confirm {
//!     /// Go ahead
//!     confirm: bool,
//! }
//!
//! /// Empty the bin, once the user confirms
//! #[tool(asks(Confirm))]
//! async fn empty_bin(context: Context) -> String {
//!     match context.elicit::<Confirm>("Empty the bin?").await {
//!         Ok(Elicitation::Accept(Confirm { confirm: true })) => "emptied".into(),
//!         Ok(_) => "kept".into(),
//!         Err(error) => error.to_string(),
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! let client = TestClient::new(Server::new("bin", "1.0.0")).answering(
//!     json!({"elicitation": {}}),
//!     |method, params| {
//!         assert_eq!(method, "elicitation/create");
//!         assert_eq!(params["message"], "Empty the bin?");
//!         Ok(json!({"action": "accept", "content": {"confirm": true}}))
//!     },
//! );
//! let result = client.call_tool("empty_bin", json!({})).await;
//! assert_eq!(result.text_content(), "emptied");
//! # }
//! ```
//!
//! At 2026-07-28 each request stands alone: send the call with its `_meta`, read the
//! `inputRequests` of the `input_required` result, and retry with `inputResponses` and the
//! `requestState` it carried; the handler runs again and gets the answer at once.
//!
//! ```
//! use mcp_toolbelt::{testing::TestClient, tool, Context, ask::Elicitation, Server};
//! use serde_json::json;
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct PurgeConfirmation {
//!     /// Go ahead
//!     confirm: bool,
//! }
//!
//! /// Purge the cache, once the user confirms
//! #[tool(asks(PurgeConfirmation))]
//! async fn testing_docs_purge(context: Context) -> String {
//!     match context.question("confirm").elicit::<PurgeConfirmation>("Purge?").await {
//!         Ok(Elicitation::Accept(PurgeConfirmation { confirm: true })) => "purged".into(),
//!         Ok(_) => "kept".into(),
//!         Err(error) => error.to_string(),
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! let client = TestClient::new(Server::new("cache", "1.0.0"));
//! let meta = json!({
//!     "io.modelcontextprotocol/protocolVersion": "2026-07-28",
//!     "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
//! });
//! let call = json!({"name": "testing_docs_purge", "arguments": {}, "_meta": meta});
//! let first = client.request("tools/call", call.clone()).await;
//! assert_eq!(first["result"]["resultType"], "input_required");
//! assert_eq!(first["result"]["inputRequests"]["confirm"]["method"], "elicitation/create");
//!
//! let mut retry = call;
//! retry["inputResponses"] = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
//! retry["requestState"] = first["result"]["requestState"].clone();
//! let second = client.request("tools/call", retry).await;
//! assert_eq!(second["result"]["content"][0]["text"], "purged");
//! # }
//! ```
//!
//! [`assert_portable`] (or [`assert_portable_for`] the hosts you name) fails a test with the
//! `--lint` report when a host would refuse a tool (see [`lint`](mod@crate::lint)), and
//! [`assert_tools_snapshot`] keeps the `tools/list` JSON in a checked-in file
//! (`UPDATE_SNAPSHOTS=1` rewrites it), so that a schema change shows in review; the repository's
//! `examples/catalog` and `examples/conformance` do both.

use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context as TaskContext, Poll};

use serde_json::{Value, json};

use crate::client_capabilities::ClientCapabilities;
use crate::jsonrpc::{
    ErrorObject, Id, Method, Outgoing, Reply, Request, outgoing_channel, to_json,
};
use crate::lint::{self, Profile};
use crate::protocol::{ProtocolVersion, Transport};
use crate::result::CallToolResult;
use crate::server::Server;
use crate::session::{Caller, Calls};
use crate::sync::lock;
use crate::types::ListToolsResult;
use crate::types::ToolDefinition;

/// An in-process MCP client of one [`Server`], speaking the legacy era at protocol 2025-11-25 unless
/// told otherwise ([`TestClient::with_protocol_version`]), or the modern era through
/// [`TestClient::request`].
///
/// Every `tools/call` it sends asks for progress (it carries a `progressToken`), and the
/// notifications a call produced are kept for [`TestClient::notifications`].
pub struct TestClient {
    calls: Calls,
    next_id: AtomicU64,
    /// Each call's own progress token, so that concurrent calls never share one.
    next_token: AtomicU64,
    notifications: Mutex<Vec<Value>>,
    /// Answers the questions tools ask on this (legacy) connection ([`TestClient::answering`]).
    answer: Option<Arc<Answer>>,
}

impl std::fmt::Debug for TestClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestClient")
            .field("notifications", &lock(&self.notifications).len())
            .field("answering", &self.answer.is_some())
            .finish_non_exhaustive()
    }
}

/// What [`TestClient::answering`] calls with each request a tool sends the client: its method
/// and params; `Err` is the client's error answer.
type Answer = dyn Fn(&str, &Value) -> Result<Value, ErrorObject> + Send + Sync;

impl TestClient {
    /// A client of `server`, as if it had negotiated protocol 2025-11-25.
    ///
    /// # Panics
    ///
    /// When the server's tools cannot be served (two tools share a name, …), with the reason: a
    /// test should fail loudly there. [`Server::check`] tells without panicking.
    #[must_use]
    #[track_caller]
    pub fn new(server: Server) -> Self {
        Self::with_protocol_version(server, crate::protocol::LATEST_LEGACY_VERSION)
    }

    /// A client that negotiated `version` (one of [`crate::protocol::LEGACY_VERSIONS`]); results
    /// take that version's shape.
    ///
    /// # Panics
    ///
    /// As [`TestClient::new`], and when `version` is not a version we speak.
    #[must_use]
    #[track_caller]
    pub fn with_protocol_version(server: Server, version: &'static str) -> Self {
        let Some(version) = ProtocolVersion::parse(version) else {
            panic!(
                "{version} is not a protocol version this crate speaks; use one of {:?}",
                crate::protocol::LEGACY_VERSIONS
            );
        };
        let dispatcher = match server.into_dispatcher(Transport::InProcess) {
            Ok(dispatcher) => dispatcher,
            Err(error) => panic!("the server cannot start: {error}"),
        };
        Self {
            calls: Calls::new(dispatcher, version, None),
            next_id: AtomicU64::new(1),
            next_token: AtomicU64::new(1),
            notifications: Mutex::new(Vec::new()),
            answer: None,
        }
    }

    /// A legacy client that declared `capabilities` (as in `initialize`: `{"elicitation": {},
    /// "sampling": {}, "roots": {}}`) and answers each request a tool sends it
    /// (`elicitation/create`, `sampling/createMessage`, `roots/list`) with
    /// `answer(method, params)`: the result, or `Err` for the client's error answer. The
    /// requests are not recorded as [`notifications`](Self::notifications); a 2026-07-28
    /// request is answered by its retry instead (see the module's docs).
    #[must_use]
    pub fn answering<F>(self, capabilities: Value, answer: F) -> Self
    where
        F: Fn(&str, &Value) -> Result<Value, ErrorObject> + Send + Sync + 'static,
    {
        let calls = self.calls.answering();
        let version = calls.connection().version();
        calls
            .connection()
            .initialize(version, ClientCapabilities::from_declared(&capabilities));
        Self {
            calls,
            answer: Some(Arc::new(answer)),
            ..self
        }
    }

    /// Sends one request and returns the whole JSON-RPC response message. `params` (a JSON
    /// object, or `null` for none) is sent as given, so modern-era requests carry their own
    /// `_meta`. (`subscriptions/listen` answers only when its server shuts down, which never
    /// happens here: test subscriptions through [`Server::serve_io`].)
    ///
    /// # Panics
    ///
    /// When `params` is neither an object nor `null`: JSON-RPC has no other kind of params.
    pub async fn request(&self, method: &str, params: Value) -> Value {
        let id = Id::from(self.next_id.fetch_add(1, Ordering::Relaxed));
        let params = match params {
            Value::Object(params) => Some(params),
            Value::Null => None,
            other => panic!("request params must be a JSON object or null, not {other}"),
        };
        let (sender, mut receiver) = outgoing_channel();
        let caller = Caller {
            notifications: sender,
            auth: None,
            address: None,
            room: None,
        };
        let request = Request {
            id,
            method: Method::from(method),
            params,
        };
        let response = self.calls.answer_now(request, caller);
        let response = match &self.answer {
            None => response.await,
            Some(answer) => {
                // The call runs while its questions are answered, as a client reading the
                // connection would.
                let mut response = std::pin::pin!(response);
                loop {
                    tokio::select! {
                        response = &mut response => break response,
                        Some(message) = receiver.recv() => self.take(message, Some(answer)),
                    }
                }
            }
        };
        while let Ok(message) = receiver.try_recv() {
            self.take(message, self.answer.as_ref());
        }
        response.into_value()
    }

    /// A message the server sent during a request: a question is answered with `answer`, a
    /// notification recorded.
    fn take(&self, message: Outgoing, answer: Option<&Arc<Answer>>) {
        match (message, answer) {
            (Outgoing::Request(question), Some(answer)) => {
                let params = question.params.map_or(Value::Null, Value::Object);
                let outcome = answer(question.method.as_str(), &params);
                self.calls.reply(Reply {
                    id: question.id,
                    outcome,
                });
            }
            (message, _) => lock(&self.notifications).push(to_json(&message)),
        }
    }

    /// Every tool, all pages of `tools/list` joined.
    ///
    /// # Panics
    ///
    /// When the server answers with a JSON-RPC error.
    pub async fn list_tools(&self) -> ListToolsResult {
        let mut all = ListToolsResult {
            tools: Vec::new(),
            next_cursor: None,
        };
        let mut cursor: Option<String> = None;
        loop {
            let params = cursor.map_or_else(|| json!({}), |cursor| json!({"cursor": cursor}));
            let page: ListToolsResult = expect_result(self.request("tools/list", params).await);
            all.tools.extend(page.tools);
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => return all,
            }
        }
    }

    /// Calls tool `name` with `arguments` (a JSON object): `.await` it for the result.
    ///
    /// # Panics
    ///
    /// When the server answers with a JSON-RPC error (an unknown tool, …), reported at the
    /// test's `.await`; use [`try_call_tool`](Self::try_call_tool) to look at the error instead.
    pub fn call_tool<'a>(&'a self, name: &'a str, arguments: Value) -> CallTool<'a> {
        CallTool {
            name,
            call: Box::pin(self.try_call_tool(name, arguments)),
        }
    }

    /// Calls tool `name`; `Err` holds the JSON-RPC error the server answered with.
    pub async fn try_call_tool(
        &self,
        name: &str,
        arguments: Value,
    ) -> Result<CallToolResult, ErrorObject> {
        let token = format!(
            "progress-{}",
            self.next_token.fetch_add(1, Ordering::Relaxed)
        );
        let params =
            json!({"name": name, "arguments": arguments, "_meta": {"progressToken": token}});
        let response = self.request("tools/call", params).await;
        if let Some(error) = response.get("error") {
            return Err(serde_json::from_value(error.clone())
                .unwrap_or_else(|_| ErrorObject::new(0, error.to_string())));
        }
        Ok(expect_result(response))
    }

    /// The notifications (progress, log messages) the calls so far produced, in order.
    #[must_use]
    pub fn notifications(&self) -> Vec<Value> {
        lock(&self.notifications).clone()
    }

    /// Returns the recorded notifications and forgets them.
    pub fn take_notifications(&self) -> Vec<Value> {
        std::mem::take(&mut *lock(&self.notifications))
    }
}

/// The future of [`TestClient::call_tool`]: its result, or a test failure at the `.await`.
#[must_use = "the tool is called only when this is awaited"]
pub struct CallTool<'a> {
    name: &'a str,
    call: Pin<Box<dyn Future<Output = Result<CallToolResult, ErrorObject>> + Send + 'a>>,
}

impl std::fmt::Debug for CallTool<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallTool")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Future for CallTool<'_> {
    type Output = CallToolResult;

    // `.await` polls this where the test wrote it, so a failure names the test's line (an
    // `async fn` cannot pass its caller's place on: `#[track_caller]` is a no-op there).
    #[track_caller]
    fn poll(mut self: Pin<&mut Self>, context: &mut TaskContext<'_>) -> Poll<CallToolResult> {
        match self.call.as_mut().poll(context) {
            Poll::Ready(Ok(result)) => Poll::Ready(result),
            Poll::Ready(Err(error)) => panic!("tools/call {} failed: {error}", self.name),
            Poll::Pending => Poll::Pending,
        }
    }
}

fn expect_result<T: serde::de::DeserializeOwned>(response: Value) -> T {
    let result = response.get("result").cloned();
    let Some(result) = result else {
        panic!("expected a result, got {response}");
    };
    match serde_json::from_value(result) {
        Ok(result) => result,
        Err(error) => panic!("the result does not have the expected shape ({error}): {response}"),
    }
}

/// The variable that makes [`assert_tools_snapshot`] rewrite its file instead of comparing:
/// `UPDATE_SNAPSHOTS=1`.
pub const UPDATE_SNAPSHOTS: &str = "UPDATE_SNAPSHOTS";

/// Fails (panics) with the lint report when a tool of `server` breaks a rule of a host profile
/// ([`lint::default_profiles`]: every one but the strict modes); warnings do not fail.
/// [`assert_portable_for`] names the hosts.
///
/// # Panics
///
/// When the report has an error, with the report, one line per problem.
#[track_caller]
pub fn assert_portable(server: &Server) {
    assert_portable_for(server, &[]);
}

/// [`assert_portable`] for the profiles named (`["cursor", "anthropic-strict"]`); none means the
/// default ones.
///
/// # Panics
///
/// When a name is not a profile's, or when the report has an error.
#[track_caller]
pub fn assert_portable_for(server: &Server, profiles: &[&str]) {
    let profiles = named_profiles(profiles);
    let mut report = lint::lint(server.name(), &server.tools().list().tools, &profiles);
    lint::add_icons(
        &mut report,
        (server.name(), server.icons()),
        &server.resource_icons(),
        &profiles,
    );
    assert!(
        !report.has_errors(),
        "some hosts would refuse these tools:\n{report}"
    );
}

/// Fails (panics) with the lint report when `result`, a call result of `tool` (from
/// [`Tools::list`](crate::tool::Tools::list) or [`TestClient::list_tools`]), breaks what hosts need of results
/// (structured content with an `outputSchema` that declares its fields) under `profiles` (none
/// means the default ones).
///
/// # Panics
///
/// When a name is not a profile's, or when the report has an error.
#[track_caller]
pub fn assert_result_portable(tool: &ToolDefinition, result: &CallToolResult, profiles: &[&str]) {
    let profiles = named_profiles(profiles);
    let json = match serde_json::to_value(result) {
        Ok(json) => json,
        Err(error) => panic!("the call result does not serialize: {error}"),
    };
    let report = lint::lint_result(tool, &json, &profiles);
    assert!(
        !report.has_errors(),
        "some hosts would refuse this result:\n{report}"
    );
}

/// The profiles named, or the default ones for none.
#[track_caller]
fn named_profiles(names: &[&str]) -> Vec<&'static Profile> {
    if names.is_empty() {
        return lint::default_profiles();
    }
    let mut profiles = Vec::with_capacity(names.len());
    for name in names {
        match lint::profile(name) {
            Ok(profile) => profiles.push(profile),
            Err(problem) => panic!("{problem}"),
        }
    }
    profiles
}

/// Compares the `tools/list` result of `server` (pretty JSON, as `--list-tools` prints it) with
/// the file at `path`; with `UPDATE_SNAPSHOTS=1` in the environment, writes it there instead.
///
/// # Panics
///
/// When they differ (with both), or the file cannot be read or written.
#[track_caller]
pub fn assert_tools_snapshot(server: &Server, path: impl AsRef<Path>) {
    assert_listing_snapshot(&server.tools().list(), path);
}

/// [`assert_tools_snapshot`] for a `tools/list` result from elsewhere (another process's
/// `--list-tools`, a [`TestClient::list_tools`]).
///
/// # Panics
///
/// As [`assert_tools_snapshot`].
#[track_caller]
pub fn assert_listing_snapshot(listing: &ListToolsResult, path: impl AsRef<Path>) {
    let path = path.as_ref();
    let actual = match serde_json::to_string_pretty(listing) {
        Ok(json) => json + "\n",
        Err(error) => panic!("the tools/list result does not serialize: {error}"),
    };
    if std::env::var_os(UPDATE_SNAPSHOTS).is_some_and(|value| value == "1") {
        if let Some(folder) = path.parent()
            && let Err(e) = std::fs::create_dir_all(folder)
        {
            panic!("cannot create {}: {e}", folder.display());
        }
        if let Err(e) = std::fs::write(path, &actual) {
            panic!("cannot write {}: {e}", path.display());
        }
        return;
    }
    let expected = match std::fs::read_to_string(path) {
        Ok(expected) => expected,
        Err(e) => panic!(
            "cannot read {} ({e}); create it with {UPDATE_SNAPSHOTS}=1",
            path.display()
        ),
    };
    assert!(
        actual == expected,
        "tools/list differs from {}; if the change is intended, rerun with {UPDATE_SNAPSHOTS}=1 and \
         review the diff\n--- expected\n{expected}\n--- actual\n{actual}",
        path.display()
    );
}
