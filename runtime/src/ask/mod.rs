//! Asking the client during a call: a form derived from a Rust type or a URL
//! ([`Context::elicit`](crate::Context::elicit), answered by an [`Elicitation`]), a completion
//! from the client's model ([`Context::sample`](crate::Context::sample), a [`Sampling`] request
//! answered by [`Sampled`]) and the client's [`Root`]s. Every question fails with an
//! [`AskError`] a tool can turn into a result: the client may not support it, decline it, or not
//! answer within [`ASK_TIMEOUT`].
//!
//! One handler serves both protocol eras (`examples/todo` confirms before it deletes and asks
//! for a missing value):
//!
//! ```
//! use mcp_toolbelt::ask::Elicitation;
//! use mcp_toolbelt::{tool, Context, ToolError};
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct ClearConfirmation {
//!     /// Delete every task
//!     confirm: bool,
//! }
//!
//! /// Delete every task, once the user confirms
//! #[tool(annotations(destructive), asks(ClearConfirmation))] // the form is checked at start-up
//! async fn ask_docs_clear_tasks(context: Context) -> Result<String, ToolError> {
//!     let answer = context
//!         .elicit::<ClearConfirmation>("Delete all tasks?")
//!         .await
//!         .map_err(|error| ToolError::new(error.to_string()))?;
//!     match answer {
//!         Elicitation::Accept(ClearConfirmation { confirm: true }) => Ok("Deleted".into()),
//!         _ => Ok("Nothing deleted".into()), // declined, cancelled, or not confirmed
//!     }
//! }
//! ```
//!
//! # The questions
//!
//! - [`Context::elicit::<T>(message)`](crate::Context::elicit) shows a form derived from `T`
//!   (flat fields only, as the spec requires: strings, numbers, booleans, enums as single
//!   selects, `Vec<Enum>` as multi selects; doc comments are descriptions, a documented variant is
//!   a titled option, `#[serde(default = …)]` values are defaults). A `T` that cannot be a form (a
//!   nested struct, a map) is an [`AskError`] naming the field, or, when the tool names its forms
//!   (`#[tool(asks(ClearConfirmation))]`), a start-up error naming the tool, before any call.
//! - [`Context::elicit_url`](crate::Context::elicit_url) sends the user to a URL (to sign in, to
//!   pay).
//! - [`Context::sample(&Sampling::user(prompt, max_tokens))`](crate::Context::sample) asks the
//!   host's model.
//! - [`Context::roots`](crate::Context::roots) lists the client's roots.
//!
//! Each first checks what the client declared (`elicitation`, `elicitation.url`, `sampling`,
//! `sampling.tools`, `roots`) and otherwise returns [`AskError::MissingCapability`] without
//! asking; a client's error answer, a reply that is not the protocol's shape, and no answer
//! within [`ASK_TIMEOUT`] (10 minutes) are `AskError`s too, each a sentence a tool can return.
//! At 2026-07-28 the spec answers a request that needs a capability the client did not declare
//! with `-32021` and `requiredCapabilities`: a call that ends in an error (`isError`) after such
//! a question gets that instead of its result (`{"code": -32021, "message": "Missing required
//! client capability: elicitation", "data": {"requiredCapabilities": {"elicitation": {}}}}`,
//! HTTP 400); a tool that goes on without the answer keeps its result.
//!
//! # Legacy connections: a request to the client
//!
//! On a legacy connection (stdio, an HTTP session) the question is a request to the client with
//! an id of its own, sent on the connection or on the call's own SSE stream, and the tool awaits
//! the answer; cancelling the call withdraws the question (`notifications/cancelled`). The time
//! spent waiting does not count against [`Server::call_timeout`](crate::Server::call_timeout),
//! but over HTTP the request time limit (`HttpConfig::request_timeout`, 5 minutes by default)
//! still bounds the whole call, the user's answer included: raise it for tools that wait on
//! people.
//!
//! Where no answer can come back the tool gets [`AskError::NoChannel`] at once, nothing is sent,
//! and it goes on: on a stateless legacy HTTP server (no session for the answer to reach), for a
//! POST whose `Accept` takes `application/json` only (no stream for the question to travel on)
//! and in an HTTP batch.
//!
//! # 2026-07-28: rounds, and the handler runs again
//!
//! At 2026-07-28 there is no back channel: the first question ends the call with
//! `resultType: "input_required"`, its questions under `inputRequests` by key
//! ([`Context::question("confirm")`](crate::Context::question)`.elicit(…)` names one; questions
//! awaited together with `join!` go out together) and a sealed `requestState`; the client
//! retries with `inputResponses`, and the handler **runs again from the start**, each answered
//! question returning at once. So ask before you act: what runs before a question may run again.
//!
//! An answer counts only for a question asked: `inputResponses` are taken for the keys the
//! previous round asked (sealed in its `requestState`), others are ignored (so a first call
//! cannot bring its own confirmation), and an answer sealed in an earlier round stands.
//! `requestState` carries the answers of earlier rounds, sealed (XChaCha20-Poly1305) and bound to
//! the caller, the tool, its arguments and ten minutes; a tampered, expired or foreign state gets
//! `-32602 "Invalid or expired requestState"`, and the client calls again from the start.
//!
//! Within its ten minutes a state is not single-use: the same retry can be sent again (the
//! handler runs again, with the same answers), so a tool that must act once guards that itself
//! (an idempotency key in its arguments, a check of what it already did).
//!
//! # The `requestState` key, replicas and rotation
//!
//! The key is drawn at start, so by default a round must come back to the process that asked.
//! Give every replica behind a load balancer the same key and any of them takes any round, with
//! no shared store: [`Server::request_state_key`](crate::Server::request_state_key), or with
//! [`Server::run`](crate::Server::run) a file of 32 random bytes in base64,
//! `--request-state-key-file /run/secrets/mcp-state-key` (make one with
//! `openssl rand -base64 32`), or the same text in `MCP_REQUEST_STATE_KEY`. Missing, unreadable or
//! malformed key material (not base64, not 32 bytes, both the flag and the variable) stops the
//! server at start-up, naming the source and never the key.
//!
//! To roll the key, state is sealed with the current key and opened with the current or a second
//! one, the previous or (first step below) the next (the second key is
//! [`Server::previous_request_state_key`](crate::Server::previous_request_state_key); with `run()`, on the key file's second line, or in the
//! variable after a comma or a newline: `MCP_REQUEST_STATE_KEY=CURRENT,PREVIOUS`; an empty
//! variable counts as unset). Replicas updated one at a time go through `(old, new)` (opens
//! both, still seals with the old), then `(new, old)`, then, ten minutes after the last
//! switched, `new` alone; replicas restarted together go straight to `(new, old)`. No round in
//! flight fails.
//!
//! A state names no server: one sealed by any server holding the key opens on any other, so use
//! one key per deployment (per server, not shared between different servers or tenants).
//!
//! # Testing a tool that asks
//!
//! [`TestClient::answering`](crate::testing::TestClient::answering) plays a legacy client that
//! declares capabilities and answers each request the tool sends;
//! [`TestClient::request`](crate::testing::TestClient::request) drives the 2026-07-28 rounds (send
//! the call with `_meta`, read `inputRequests`, retry with `inputResponses` and the
//! `requestState` it got). See [`testing`](crate::testing).
//!
//! # Why this design
//!
//! The TypeScript SDK has handlers return `inputRequired(…)` and read the answers themselves (two
//! code paths for two eras); the Python SDK declares questions as resolver parameters before the
//! handler runs (so what to ask cannot depend on what the tool found). Here the question is an
//! ordinary `await` wherever the tool needs it; re-running the handler instead of keeping it
//! suspended between rounds is what lets a stateless server answer a retry on any replica.

// How it works. One handler serves both eras. On a legacy connection a question is a real
// request to the client, with an id of its own, on the connection (stdio) or the call's own SSE
// stream (HTTP); the client's response comes back as a message without a method and `pending`
// hands it to the waiting call. On 2026-07-28 there is no back channel: the question ends the
// round with an `input_required` result and the client's retry runs the handler again (`round`),
// with the answers so far carried in a sealed `requestState` (`seal`). Each question checks the
// capabilities the client declared first, so a tool gets a clear `AskError` it can turn into a
// result instead of a request the client cannot answer.
//
// Why re-run the handler rather than keep it suspended between rounds: a suspended handler
// pins the call to one process and one memory, which a stateless 2026-07-28 server behind a
// load balancer cannot promise; re-running needs only the key. Why questions inside the
// handler rather than declared before it (Python's `Resolve` parameters): what to ask often
// depends on what the tool found (the file to delete exists, the value is missing), and the
// same `ctx.elicit` then reads the same in both eras. The cost is the rule the docs state:
// ask before acting, as what runs before a question may run again.

pub(crate) mod board;
mod form;
pub(crate) mod pending;
pub(crate) mod round;
pub(crate) mod seal;

use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use self::pending::Pending;
use self::round::Round;
use crate::client_capabilities::ClientCapabilities;
use crate::jsonrpc::{ErrorObject, Method, Outgoing, OutgoingSender, Request};
use crate::limits::CallClock;
use crate::sync::lock;

/// How long a question waits for the client's answer (a person may be typing it).
pub const ASK_TIMEOUT: Duration = Duration::from_mins(10);

/// The user's answer to an elicitation.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Elicitation<T> {
    /// The user submitted the form: its values (for a URL elicitation, `()`).
    Accept(T),
    /// The user said no.
    Decline,
    /// The user dismissed the question without choosing.
    Cancel,
}

/// Why a question got no answer. Each says so in a sentence a tool can return as its error.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum AskError {
    /// The client did not declare the capability the question needs (`elicitation`,
    /// `elicitation.url`, `sampling`, `sampling.tools`, `roots`).
    MissingCapability(&'static str),
    /// The type asked for cannot be a form (nested objects, maps, …): the reason.
    NotAForm(String),
    /// Nothing can carry a question to this client, or its answer back: a stateless HTTP
    /// request, an HTTP POST that accepts no event stream (or carries a batch), or a request
    /// already answered.
    NoChannel,
    /// The client answered with an error.
    Client(ErrorObject),
    /// The client's answer did not have the shape the protocol gives it: what was wrong.
    BadAnswer(String),
    /// No answer came in time.
    TimedOut(Duration),
}

impl fmt::Display for AskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MissingCapability(capability) => write!(
                f,
                "the client did not declare the `{capability}` capability this needs"
            ),
            Self::NotAForm(why) => f.write_str(why),
            Self::NoChannel => f.write_str(
                "this request has no way to ask the client (a stateless HTTP request, a POST that accepts no event stream or carries a batch, or one already answered)",
            ),
            Self::Client(error) => write!(f, "the client refused: {} ({})", error.message, error.code),
            Self::BadAnswer(why) => write!(f, "the client's answer was malformed: {why}"),
            Self::TimedOut(limit) => write!(f, "the client did not answer within {limit:?}"),
        }
    }
}

impl std::error::Error for AskError {}

/// Who speaks in a sampling message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The user (or the tool, speaking for it).
    User,
    /// The model.
    Assistant,
}

/// One message of a sampling conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SamplingMessage {
    /// Who says it.
    pub role: Role,
    /// A content block (`{"type": "text", "text": …}`, an image, …) or, from 2025-11-25, an
    /// array of them.
    pub content: Value,
}

/// A request for a completion from the client's model (`sampling/createMessage`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Sampling {
    /// The conversation so far.
    pub messages: Vec<SamplingMessage>,
    /// The most tokens the completion may have.
    pub max_tokens: u32,
    /// A system prompt the client may use.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    /// Hints and priorities for the client's choice of model (`hints`, `costPriority`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_preferences: Option<Value>,
    /// Tools the model may call (2025-11-25; the client must declare `sampling.tools`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<Value>>,
    /// How the model may use them (`{"mode": "auto"}`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<Value>,
}

impl SamplingMessage {
    /// `role` says `content` (a content block, or from 2025-11-25 an array of them).
    #[must_use]
    pub fn new(role: Role, content: Value) -> Self {
        Self { role, content }
    }

    /// `role` says `text`, as one text block.
    #[must_use]
    pub fn text(role: Role, text: impl Into<String>) -> Self {
        Self::new(role, json!({"type": "text", "text": text.into()}))
    }
}

impl Sampling {
    /// A completion of `messages`, at most `max_tokens` long.
    #[must_use]
    pub fn new(messages: Vec<SamplingMessage>, max_tokens: u32) -> Self {
        Self {
            messages,
            max_tokens,
            system_prompt: None,
            model_preferences: None,
            tools: None,
            tool_choice: None,
        }
    }

    /// A one-message conversation: the user says `text`.
    #[must_use]
    pub fn user(text: impl Into<String>, max_tokens: u32) -> Self {
        Self::new(vec![SamplingMessage::text(Role::User, text)], max_tokens)
    }

    /// Sets the system prompt the client may use.
    #[must_use]
    pub fn system_prompt(mut self, system_prompt: impl Into<String>) -> Self {
        self.system_prompt = Some(system_prompt.into());
        self
    }

    /// Sets the hints and priorities for the client's choice of model.
    #[must_use]
    pub fn model_preferences(mut self, model_preferences: Value) -> Self {
        self.model_preferences = Some(model_preferences);
        self
    }

    /// Sets the tools the model may call (2025-11-25; the client must declare `sampling.tools`).
    #[must_use]
    pub fn tools(mut self, tools: Vec<Value>) -> Self {
        self.tools = Some(tools);
        self
    }

    /// Sets how the model may use them (`{"mode": "auto"}`, …).
    #[must_use]
    pub fn tool_choice(mut self, tool_choice: Value) -> Self {
        self.tool_choice = Some(tool_choice);
        self
    }
}

/// The client's completion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Sampled {
    /// Who speaks (the assistant).
    pub role: Role,
    /// The content block(s) it produced.
    pub content: Value,
    /// The model that produced it.
    pub model: String,
    /// Why it stopped (`endTurn`, `maxTokens`, `toolUse`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
}

impl Sampled {
    /// The text of a text completion (the texts of its blocks, joined), if it has any.
    #[must_use]
    pub fn text(&self) -> Option<String> {
        let blocks = match &self.content {
            Value::Array(blocks) => blocks.iter().collect(),
            block => vec![block],
        };
        let texts: Vec<&str> = blocks
            .iter()
            .filter_map(|block| block.get("text").and_then(Value::as_str))
            .collect();
        (!texts.is_empty()).then(|| texts.concat())
    }
}

/// A root the client shares: a directory or other place the server may work in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Root {
    /// Its URI (`file://` for now).
    pub uri: String,
    /// A name to show for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// How one call reaches its client with questions: what a [`Context`](crate::Context) holds.
pub(crate) struct Asker {
    /// What the client declared it can answer (shared with the connection or the request).
    capabilities: Arc<ClientCapabilities>,
    channel: Channel,
    /// Whether the protocol version names an elicitation's `mode` (2025-11-25 on): an older
    /// client gets a form request without it.
    modes: bool,
    /// The call's time against its limit, stopped while a question waits for its answer.
    clock: Arc<CallClock>,
    /// Once the call runs as a task: its questions wait on the task's board (`inputRequests`),
    /// whatever the channel.
    board: OnceLock<Arc<board::Board>>,
    /// On a legacy connection, the capabilities its questions found undeclared (a 2026-07-28
    /// call keeps them in its round): a prompt that fails for one is answered `-32021`.
    lacking: round::Lacking,
}

/// Where a question goes.
pub(crate) enum Channel {
    /// A legacy call: a request on the connection, answered through the connection's pending
    /// requests; `None` where no answer can come back (stateless HTTP).
    Legacy(Option<Arc<Pending>>),
    /// A 2026-07-28 call: answered by this round, or asked in its `input_required` result.
    Modern(Arc<Round>),
}

/// Questions under a key of the tool's choosing ([`Context::question`](crate::Context::question)):
/// on 2026-07-28 the key names the question in `inputRequests` (on a legacy connection it is not
/// sent). Keys must be unique within a call.
pub struct Question<'a> {
    asker: &'a Asker,
    out: &'a Mutex<Option<OutgoingSender>>,
    key: Option<&'a str>,
}

impl fmt::Debug for Question<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Question")
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl<'a> Question<'a> {
    pub(crate) fn new(
        asker: &'a Asker,
        out: &'a Mutex<Option<OutgoingSender>>,
        key: Option<&'a str>,
    ) -> Self {
        Self { asker, out, key }
    }

    /// A form elicitation of `T`: see [`Context::elicit`](crate::Context::elicit).
    ///
    /// # Errors
    ///
    /// As [`Context::elicit`](crate::Context::elicit).
    pub async fn elicit<T: JsonSchema + DeserializeOwned + 'static>(
        self,
        message: &str,
    ) -> Result<Elicitation<T>, AskError> {
        let schema = form::requested_schema::<T>().map_err(AskError::NotAForm)?;
        self.asker.require("elicitation", Some("form"))?;
        let mut params = json!({"message": message, "requestedSchema": *schema});
        if self.asker.modes {
            params["mode"] = json!("form");
        }
        let answer = self.ask(Method::Elicit, params).await?;
        elicitation(answer, |content| {
            serde_json::from_value(content.unwrap_or_else(|| json!({})))
                .map_err(|error| AskError::BadAnswer(format!("the form's content: {error}")))
        })
    }

    /// A URL elicitation: see [`Context::elicit_url`](crate::Context::elicit_url).
    ///
    /// # Errors
    ///
    /// As [`Context::elicit`](crate::Context::elicit).
    pub async fn elicit_url(
        self,
        message: &str,
        url: &str,
        elicitation_id: &str,
    ) -> Result<Elicitation<()>, AskError> {
        self.asker.require("elicitation", Some("url"))?;
        let params =
            json!({"mode": "url", "message": message, "url": url, "elicitationId": elicitation_id});
        let answer = self.ask(Method::Elicit, params).await?;
        elicitation(answer, |_| Ok(()))
    }

    /// A completion from the client's model: see [`Context::sample`](crate::Context::sample).
    ///
    /// # Errors
    ///
    /// As [`Context::sample`](crate::Context::sample).
    pub async fn sample(self, sampling: &Sampling) -> Result<Sampled, AskError> {
        self.asker
            .require("sampling", sampling.tools.is_some().then_some("tools"))?;
        let params = serde_json::to_value(sampling).unwrap_or_default();
        let answer = self.ask(Method::Sample, params).await?;
        serde_json::from_value(answer).map_err(|error| AskError::BadAnswer(error.to_string()))
    }

    /// The client's roots: see [`Context::roots`](crate::Context::roots).
    ///
    /// # Errors
    ///
    /// As [`Context::roots`](crate::Context::roots).
    pub async fn roots(self) -> Result<Vec<Root>, AskError> {
        #[derive(Deserialize)]
        struct Roots {
            roots: Vec<Root>,
        }
        self.asker.require("roots", None)?;
        let answer = self.ask(Method::ListRoots, json!({})).await?;
        let roots: Roots = serde_json::from_value(answer)
            .map_err(|error| AskError::BadAnswer(error.to_string()))?;
        Ok(roots.roots)
    }

    /// Asks `method`: on a legacy connection, a request; on 2026-07-28, this round's answer,
    /// or the end of the round.
    async fn ask(self, method: Method, params: Value) -> Result<Value, AskError> {
        if let Some(board) = self.asker.board.get() {
            return board.ask(self.key, &method, params).await;
        }
        match &self.asker.channel {
            Channel::Legacy(pending) => {
                let pending = pending.as_ref().ok_or(AskError::NoChannel)?;
                request(pending, method, params, self.out, &self.asker.clock).await
            }
            Channel::Modern(round) => {
                let key = round.key(self.key, &method);
                match round.answer_or_ask(key, method, params) {
                    Some(answer) => Ok(answer),
                    // The round ends here: `Round::run` stops polling this call.
                    None => std::future::pending().await,
                }
            }
        }
    }
}

/// Why `T` cannot be an elicitation form, if it cannot (`#[tool(asks(T))]`, at start-up).
pub(crate) fn form_check<T: JsonSchema + 'static>() -> Result<(), String> {
    form::requested_schema::<T>().map(|_| ())
}

impl Asker {
    /// The questions of a call with a client that declared `capabilities`.
    pub(crate) fn new(
        capabilities: Arc<ClientCapabilities>,
        channel: Channel,
        modes: bool,
        clock: Arc<CallClock>,
    ) -> Self {
        Self {
            capabilities,
            channel,
            modes,
            clock,
            board: OnceLock::new(),
            lacking: round::Lacking::default(),
        }
    }

    /// `-32021` when the call's failure, whose text is `failure`, passes on what it was told
    /// of a capability the client did not declare ([`round::Lacking::behind`]).
    pub(crate) fn lacking_behind(&self, failure: &str) -> Option<ErrorObject> {
        match &self.channel {
            Channel::Modern(round) => round.lacking_behind(failure),
            Channel::Legacy(_) => self.lacking.behind(failure),
        }
    }

    /// From now on the call's questions wait on `board`: the call became a task.
    pub(crate) fn to_board(&self, board: Arc<board::Board>) {
        let _ = self.board.set(board);
    }

    /// The task's board, once the call became a task.
    pub(crate) fn board(&self) -> Option<&Arc<board::Board>> {
        self.board.get()
    }

    /// Checks the client declared `capability` (and, when named, its `sub` part). An
    /// `elicitation: {}` declares forms only, as the spec says.
    /// Where no answer can come back, that is the error, whatever the client declared (a
    /// stateless HTTP request does not know it).
    /// On 2026-07-28 a missing capability is also recorded in the round
    /// ([`Round::unless_lacking`]).
    fn require(&self, capability: &'static str, sub: Option<&'static str>) -> Result<(), AskError> {
        let checked = self.check(capability, sub);
        if let (Err(AskError::MissingCapability(missing)), None) = (&checked, self.board.get()) {
            match &self.channel {
                Channel::Modern(round) => round.lacks(missing),
                Channel::Legacy(_) => self.lacking.lacks(missing),
            }
        }
        checked
    }

    /// [`require`](Self::require)'s check.
    fn check(&self, capability: &'static str, sub: Option<&'static str>) -> Result<(), AskError> {
        if matches!(self.channel, Channel::Legacy(None)) && self.board.get().is_none() {
            return Err(AskError::NoChannel);
        }
        match self.capabilities.lacks(capability, sub) {
            Some(missing) => Err(AskError::MissingCapability(missing)),
            None => Ok(()),
        }
    }
}

/// Sends `method` to the client and waits for its answer, within [`ASK_TIMEOUT`]; the call's
/// `clock` stands still meanwhile, so the wait does not count against its time limit.
async fn request(
    pending: &Arc<Pending>,
    method: Method,
    params: Value,
    out: &Mutex<Option<OutgoingSender>>,
    clock: &CallClock,
) -> Result<Value, AskError> {
    let mut waiting = pending.register();
    let request = Request {
        id: waiting.id.clone(),
        method,
        params: params.as_object().cloned(),
    };
    {
        let out = lock(out);
        let Some(out) = out.as_ref() else {
            return Err(AskError::NoChannel);
        };
        if out
            .unbounded_send(Outgoing::Request(Box::new(request)))
            .is_err()
        {
            return Err(AskError::NoChannel);
        }
        waiting.sent_on(out.clone());
    }
    let _paused = clock.pause();
    match tokio::time::timeout(ASK_TIMEOUT, waiting.answer()).await {
        Ok(Some(Ok(answer))) => Ok(answer),
        Ok(Some(Err(error))) => Err(AskError::Client(error)),
        Ok(None) => Err(AskError::NoChannel),
        Err(_) => Err(AskError::TimedOut(ASK_TIMEOUT)),
    }
}

/// An `ElicitResult`: its action, and for `accept` its content read by `content`.
fn elicitation<T>(
    answer: Value,
    content: impl FnOnce(Option<Value>) -> Result<T, AskError>,
) -> Result<Elicitation<T>, AskError> {
    match answer.get("action").and_then(Value::as_str) {
        Some("accept") => Ok(Elicitation::Accept(content(
            answer.get("content").cloned(),
        )?)),
        Some("decline") => Ok(Elicitation::Decline),
        Some("cancel") => Ok(Elicitation::Cancel),
        _ => Err(AskError::BadAnswer(
            "`action` is not accept, decline or cancel".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampling_built_by_its_setters_keeps_the_wire_shape() {
        let sampling = Sampling::new(
            vec![
                SamplingMessage::text(Role::User, "Hi"),
                SamplingMessage::new(Role::Assistant, json!([{"type": "text", "text": "Hello"}])),
            ],
            40,
        )
        .system_prompt("Be brief")
        .model_preferences(json!({"hints": [{"name": "small"}]}))
        .tools(vec![
            json!({"name": "lookup", "inputSchema": {"type": "object"}}),
        ])
        .tool_choice(json!({"mode": "auto"}));
        assert_eq!(
            serde_json::to_value(&sampling).unwrap(),
            json!({
                "messages": [
                    {"role": "user", "content": {"type": "text", "text": "Hi"}},
                    {"role": "assistant", "content": [{"type": "text", "text": "Hello"}]}
                ],
                "maxTokens": 40,
                "systemPrompt": "Be brief",
                "modelPreferences": {"hints": [{"name": "small"}]},
                "tools": [{"name": "lookup", "inputSchema": {"type": "object"}}],
                "toolChoice": {"mode": "auto"}
            })
        );
        assert_eq!(
            serde_json::to_value(Sampling::user("Hi", 5)).unwrap(),
            json!({"messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}], "maxTokens": 5})
        );
    }

    fn asker(capabilities: Value) -> Asker {
        Asker::new(
            Arc::new(ClientCapabilities::from_declared(&capabilities)),
            Channel::Legacy(Some(Arc::default())),
            true,
            Arc::default(),
        )
    }

    #[test]
    fn a_question_needs_what_the_client_declared() {
        let forms_only = asker(json!({"elicitation": {}}));
        assert_eq!(forms_only.require("elicitation", Some("form")), Ok(()));
        assert_eq!(
            forms_only.require("elicitation", Some("url")),
            Err(AskError::MissingCapability("elicitation.url"))
        );
        let urls_only = asker(json!({"elicitation": {"url": {}}}));
        assert_eq!(urls_only.require("elicitation", Some("url")), Ok(()));
        assert_eq!(
            urls_only.require("elicitation", Some("form")),
            Err(AskError::MissingCapability("elicitation.form"))
        );
        let sampling = asker(json!({"sampling": {}, "roots": {"listChanged": true}}));
        assert_eq!(sampling.require("sampling", None), Ok(()));
        assert_eq!(
            sampling.require("sampling", Some("tools")),
            Err(AskError::MissingCapability("sampling.tools"))
        );
        assert_eq!(sampling.require("roots", None), Ok(()));
        assert_eq!(
            sampling.require("elicitation", Some("form")),
            Err(AskError::MissingCapability("elicitation"))
        );
        let stateless = Asker::new(
            Arc::new(ClientCapabilities::from_declared(&json!({"roots": {}}))),
            Channel::Legacy(None),
            true,
            Arc::default(),
        );
        assert_eq!(stateless.require("roots", None), Err(AskError::NoChannel));
    }
}
