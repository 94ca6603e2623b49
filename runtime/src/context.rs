//! [`Context`]: what a tool can know about and do with the request it serves.

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, Mutex};

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::ask::{AskError, Asker, Elicitation, Question, Root, Sampled, Sampling};
use crate::jsonrpc::{Method, Notification, Outgoing, OutgoingSender};
use crate::principal::Principal;
use crate::state::{State, StateMap};
use crate::sync::lock;
use crate::visibility::{self, SessionTags, VisibilityError};

/// The request a tool is serving: its id, cancellation, progress and log notifications, and what
/// the transport knows of the caller (session, auth).
///
/// Take it as a parameter of type `Context` (or `&Context`) anywhere in a `#[tool]` fn (under
/// another name, an alias, mark the parameter `#[context]`):
///
/// ```
/// use mcp_toolbelt::{tool, Context, LogLevel};
///
/// /// Count the lines of some files
/// #[tool(annotations(read_only))]
/// async fn context_docs_count_lines(
///     /// The files' contents
///     files: Vec<String>,
///     context: &Context,
/// ) -> String {
///     let total = files.len() as f64;
///     let mut lines = 0;
///     for (done, file) in files.iter().enumerate() {
///         if context.is_cancelled() {
///             return "cancelled".into(); // only long synchronous work needs to look
///         }
///         lines += file.lines().count();
///         context.progress(done as f64 + 1.0, Some(total), Some("counting"));
///     }
///     context.log(LogLevel::Info, format!("{lines} lines"));
///     lines.to_string()
/// }
/// ```
///
/// What the tool logs with `tracing` goes to the server's own log, inside the request's span;
/// [`Context::log`] goes to the client. Asking the client (forms, the client's model, its roots)
/// is in [`ask`](crate::ask); app state is [`Context::state`] or a [`State`] parameter; the
/// server's live handles are [`Context::resources`] (to say a resource changed),
/// [`Context::tools`] and [`Context::prompts`]; what the session sees of them, by tags, is
/// [`Context::enable_tags`], [`Context::disable_tags`] and [`Context::reset_tags`].
#[derive(Clone)]
pub struct Context {
    inner: Arc<Inner>,
}

struct Inner {
    request_id: Value,
    progress_token: Option<Value>,
    /// Whether the protocol version has a `message` on progress (2025-03-26 on).
    progress_messages: bool,
    log_level: Option<LogLevel>,
    /// Where progress and logs go, until the request is answered: then it is dropped, so that
    /// nothing is sent after the response and a clone of this context a tool left behind (in a
    /// spawned task, say) keeps no transport stream open. Sending happens under this lock.
    notifications: Mutex<Option<OutgoingSender>>,
    cancellation: CancellationToken,
    last_progress: Mutex<Option<f64>>,
    session_id: Option<String>,
    /// The legacy session's own choice of tags (`None`: no session to keep one).
    session_tags: Option<Arc<SessionTags>>,
    auth: Option<Arc<AuthInfo>>,
    states: Arc<StateMap>,
    /// The client declared the MCP Apps extension.
    apps: bool,
    asker: Asker,
    /// The tool panicked (see [`Context::mark_panicked`]).
    panicked: std::sync::atomic::AtomicBool,
}

/// What an authenticated HTTP caller presented, as the server's token verifier saw it: built
/// with [`AuthInfo::new`] and its setters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct AuthInfo {
    /// The client application the token was issued to.
    pub client_id: String,
    /// The user (or other principal) it acts for: the token's `sub` claim. A legacy HTTP session
    /// belongs to the client and subject that opened it; no other may use it.
    #[serde(default)]
    pub subject: Option<String>,
    /// The scopes the token grants.
    pub scopes: Vec<String>,
    /// Anything else the verifier wants the tool to see.
    #[serde(default)]
    pub extra: Value,
}

impl AuthInfo {
    /// The client and subject, borrowed (what the rate limits count by).
    pub(crate) fn caller(&self) -> (&str, Option<&str>) {
        (&self.client_id, self.subject.as_deref())
    }

    /// The caller the token speaks for, as every comparison and seal of the caller takes it.
    pub(crate) fn principal(&self) -> Principal {
        Principal::new(self.client_id.clone(), self.subject.clone())
    }

    /// A token issued to the client application `client_id`, for no subject, granting no scope.
    #[must_use]
    pub fn new(client_id: impl Into<String>) -> Self {
        Self {
            client_id: client_id.into(),
            ..Self::default()
        }
    }

    /// Sets the user (or other principal) the token acts for.
    #[must_use]
    pub fn subject(mut self, subject: impl Into<String>) -> Self {
        self.subject = Some(subject.into());
        self
    }

    /// Sets the scopes the token grants.
    #[must_use]
    pub fn scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Sets anything else the verifier wants the tool to see.
    #[must_use]
    pub fn extra(mut self, extra: Value) -> Self {
        self.extra = extra;
        self
    }
}

/// How the parts of a request's context are given to [`Context::new`].
pub(crate) struct ContextParts {
    pub(crate) request_id: Value,
    pub(crate) progress_token: Option<Value>,
    pub(crate) progress_messages: bool,
    pub(crate) log_level: Option<LogLevel>,
    pub(crate) notifications: OutgoingSender,
    pub(crate) cancellation: CancellationToken,
    pub(crate) session_id: Option<String>,
    pub(crate) session_tags: Option<Arc<SessionTags>>,
    pub(crate) auth: Option<Arc<AuthInfo>>,
    pub(crate) states: Arc<StateMap>,
    pub(crate) apps: bool,
    pub(crate) asker: Asker,
}

impl Context {
    pub(crate) fn new(parts: ContextParts) -> Self {
        let ContextParts {
            request_id,
            progress_token,
            progress_messages,
            log_level,
            notifications,
            cancellation,
            session_id,
            session_tags,
            auth,
            states,
            apps,
            asker,
        } = parts;
        Self {
            inner: Arc::new(Inner {
                request_id,
                progress_token,
                progress_messages,
                log_level,
                notifications: Mutex::new(Some(notifications)),
                cancellation,
                last_progress: Mutex::new(None),
                session_id,
                session_tags,
                auth,
                states,
                apps,
                asker,
                panicked: std::sync::atomic::AtomicBool::new(false),
            }),
        }
    }

    /// A context of no request, for unit tests of what takes one: its notifications go
    /// nowhere, it asks nothing, its app state is `states`.
    #[cfg(test)]
    pub(crate) fn detached(states: StateMap) -> Self {
        Self::new(ContextParts {
            request_id: Value::Null,
            progress_token: None,
            progress_messages: false,
            log_level: None,
            notifications: crate::jsonrpc::outgoing_channel().0,
            cancellation: CancellationToken::new(),
            session_id: None,
            session_tags: None,
            auth: None,
            states: Arc::new(states),
            apps: false,
            asker: Asker::new(
                Arc::default(),
                crate::ask::Channel::Legacy(None),
                false,
                Arc::default(),
            ),
        })
    }

    /// The JSON-RPC id of the `tools/call` request.
    #[must_use]
    pub fn request_id(&self) -> &Value {
        &self.inner.request_id
    }

    /// The legacy HTTP session the request belongs to, if any.
    #[must_use]
    pub fn session_id(&self) -> Option<&str> {
        self.inner.session_id.as_deref()
    }

    /// What the caller's bearer token said, when the HTTP server verifies tokens.
    #[must_use]
    pub fn auth(&self) -> Option<&AuthInfo> {
        self.inner.auth.as_deref()
    }

    /// Shows this session the tools, resources and prompts tagged with any of `tags`, from
    /// its next request on, whatever the server's rule ([`Server::visibility`](crate::Server::visibility))
    /// hides from its caller; never what the server does not serve at all
    /// ([`only_tags`](crate::Server::only_tags), [`without_tags`](crate::Server::without_tags)).
    /// Undoes an earlier [`disable_tags`](Self::disable_tags) of them.
    ///
    /// A legacy session's own choice (stdio, or an HTTP session: `FastMCP`'s per-session
    /// `enable_components`): the session is told `notifications/tools/list_changed` (and the
    /// prompts' and resources' when they have items of those tags), and no other session is.
    /// With Redis the choice is kept in the session's record before this returns, so its next
    /// request sees it on any replica, and the notification goes to its GET stream wherever
    /// that is held. It holds at most 4 KiB of tags (the `Server` Limits table).
    ///
    /// ```
    /// use mcp_toolbelt::{tool, Context, VisibilityError};
    ///
    /// /// Join the beta: its tools appear
    /// #[tool]
    /// async fn context_docs_join_beta(context: Context) -> Result<String, VisibilityError> {
    ///     context.enable_tags(["beta"]).await?;
    ///     Ok("welcome to the beta".into())
    /// }
    /// ```
    ///
    /// # Errors
    ///
    /// [`VisibilityError::NoSession`] for a request of no session (2026-07-28, stateless HTTP,
    /// before `initialize`); [`VisibilityError::TooLarge`] past 4 KiB of tags;
    /// [`VisibilityError::Store`] when Redis could not keep it (then nothing changed).
    pub async fn enable_tags<I, S>(&self, tags: I) -> Result<(), VisibilityError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let tags: Vec<String> = tags.into_iter().map(Into::into).collect();
        self.session_tags()?
            .change(|toggles| visibility::enable(toggles, tags))
            .await
    }

    /// Hides from this session the tools, resources and prompts tagged with any of `tags`,
    /// from its next request on: absent from its listings, unknown to its calls, reads and
    /// gets (as a name nothing registered). It wins over an item's other tags the session
    /// enabled, and undoes an earlier [`enable_tags`](Self::enable_tags) of them. Told and kept
    /// as `enable_tags` says.
    ///
    /// # Errors
    ///
    /// As [`enable_tags`](Self::enable_tags).
    pub async fn disable_tags<I, S>(&self, tags: I) -> Result<(), VisibilityError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let tags: Vec<String> = tags.into_iter().map(Into::into).collect();
        self.session_tags()?
            .change(|toggles| visibility::disable(toggles, tags))
            .await
    }

    /// Forgets every tag this session enabled or disabled: it sees again what the server's
    /// rule shows its caller. Told and kept as [`enable_tags`](Self::enable_tags) says.
    ///
    /// # Errors
    ///
    /// As [`enable_tags`](Self::enable_tags) (never `TooLarge`).
    pub async fn reset_tags(&self) -> Result<(), VisibilityError> {
        self.session_tags()?
            .change(|toggles| *toggles = visibility::Toggles::default())
            .await
    }

    fn session_tags(&self) -> Result<&SessionTags, VisibilityError> {
        self.inner
            .session_tags
            .as_deref()
            .ok_or(VisibilityError::NoSession)
    }

    /// The app state of type `T` the server was given ([`Server::state`](crate::Server::state)),
    /// as a `State<T>` parameter would get it; `None` when there is none. For tools added at run
    /// time ([`Tool::new`](crate::tool::Tool::new)) this is the way to the state.
    #[must_use]
    pub fn state<T: Send + Sync + 'static>(&self) -> Option<State<T>> {
        self.inner.states.get::<T>()
    }

    /// Whether the client declared the MCP Apps extension (`io.modelcontextprotocol/ui`): it
    /// renders the view a `#[tool(ui = …)]` names. Other clients see only the result's
    /// `content`, which must then say what the view would have shown.
    #[must_use]
    pub fn client_supports_apps(&self) -> bool {
        self.inner.apps
    }

    /// Whether the client cancelled the request. The future of a cancelled call is dropped at its
    /// next `.await`, so only long synchronous loops need to poll this.
    ///
    /// Such a loop never runs on the task that watches the client, so the cancellation (or,
    /// over HTTP, the client going away) reaches it. Over stdio the calls read together share a
    /// task, and the loop holds up the others of its read (never the reading: a `ping` or a
    /// cancellation still arrives). A plain (not `async`) `#[tool]` fn runs on tokio's blocking
    /// threads and holds up nothing.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancellation.is_cancelled()
    }

    /// Completes when the client cancels the request.
    pub async fn cancelled(&self) {
        self.inner.cancellation.cancelled().await;
    }

    /// Reports progress: `progress` out of `total` (when known), with an optional message.
    ///
    /// Sent only when the request asked for progress (it carried a `progressToken`), and only when
    /// `progress` is greater than the last value sent, as the protocol requires: a value that does
    /// not increase (or is not a finite number) is dropped. Returns whether a notification was
    /// sent. A client of protocol 2024-11-05, which has no progress messages, gets no message.
    ///
    /// Once the call runs as a task ([`task`](crate::task)), which has no progress
    /// notifications, the message (or "`progress` of `total`") becomes the task's
    /// `statusMessage`, read by whoever polls it.
    pub fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) -> bool {
        if self.is_cancelled() || !progress.is_finite() {
            return false;
        }
        if let Some(board) = self.inner.asker.board() {
            // A task has no progress notifications: its poller reads the status message.
            let status = match (message, total.filter(|total| total.is_finite())) {
                (Some(message), _) => message.to_owned(),
                (None, Some(total)) => format!("{progress} of {total}"),
                (None, None) => progress.to_string(),
            };
            board.report(status);
            return true;
        }
        let Some(token) = &self.inner.progress_token else {
            return false;
        };
        {
            let mut last = lock(&self.inner.last_progress);
            if last.is_some_and(|last| progress <= last) {
                tracing::debug!(progress, "progress that does not increase is not sent");
                return false;
            }
            *last = Some(progress);
        }
        let mut params = json!({"progressToken": token, "progress": progress});
        if let Some(total) = total.filter(|total| total.is_finite()) {
            params["total"] = json!(total);
        }
        if let Some(message) = message.filter(|_| self.inner.progress_messages) {
            params["message"] = json!(message);
        }
        self.notify(Method::Progress, params)
    }

    /// Sends a log message to the client (`notifications/message`), when the client asked for
    /// messages of this level. `data` is any JSON value, usually a string.
    pub fn log(&self, level: LogLevel, data: impl Into<Value>) -> bool {
        self.log_to(level, None, data)
    }

    /// [`log`](Self::log) with a logger name.
    pub fn log_to(&self, level: LogLevel, logger: Option<&str>, data: impl Into<Value>) -> bool {
        if self.is_cancelled() || self.inner.log_level.is_none_or(|min| level < min) {
            return false;
        }
        let mut params = json!({"level": level, "data": data.into()});
        if let Some(logger) = logger {
            params["logger"] = json!(logger);
        }
        self.notify(Method::Log, params)
    }

    /// Asks the user to fill in a form derived from `T` (a struct of flat primitive fields:
    /// strings, numbers, booleans, enums as single selects, `Vec`s of enums as multi selects;
    /// doc comments become descriptions, `#[serde(default)]` values defaults).
    ///
    /// Ask before acting: on a 2026-07-28 request what ran before the question runs again when
    /// the client retries with the answer.
    ///
    /// Name the form types on the tool, `#[tool(asks(ConfirmDelete))]`, and a `T` that cannot
    /// be a form (a nested struct, a map) stops the server at start-up, naming the tool, instead
    /// of failing the first call that asks. A type left out is still asked for, and checked at
    /// that call: refusing it there would be one more call-time failure, the kind the
    /// declaration exists to prevent, and a form the tool builds generically (a type parameter
    /// of a helper) has no name the attribute could list. Whether `T` is a form is decided by
    /// its schema, which only exists once the program runs, so start-up is the earliest check.
    ///
    /// # Errors
    ///
    /// [`AskError`] when the client did not declare `elicitation`, `T` cannot be a form, nothing
    /// can carry the question to the client ([`AskError::NoChannel`], at once: a stateless HTTP
    /// request, a POST that accepts no event stream or carries a batch), or the client answered
    /// with an error or not in time.
    pub async fn elicit<T: JsonSchema + DeserializeOwned + 'static>(
        &self,
        message: &str,
    ) -> Result<Elicitation<T>, AskError> {
        self.ask(None).elicit(message).await
    }

    /// Sends the user to `url` (to sign in, to pay, …) and waits for their decision. The
    /// client must declare `elicitation.url`; `elicitation_id` names this elicitation.
    ///
    /// # Errors
    ///
    /// [`AskError`] when the client did not declare `elicitation.url`, nothing can carry the
    /// question to the client ([`AskError::NoChannel`], at once, as for
    /// [`elicit`](Self::elicit)), or the client answered with an error or not in time.
    pub async fn elicit_url(
        &self,
        message: &str,
        url: &str,
        elicitation_id: &str,
    ) -> Result<Elicitation<()>, AskError> {
        self.ask(None)
            .elicit_url(message, url, elicitation_id)
            .await
    }

    /// Asks the client's model for a completion (`sampling/createMessage`).
    ///
    /// # Errors
    ///
    /// [`AskError`] when the client did not declare `sampling` (`sampling.tools` for a request
    /// with tools), nothing can carry the question to the client ([`AskError::NoChannel`], at
    /// once, as for [`elicit`](Self::elicit)), or the client answered with an error or not in
    /// time.
    pub async fn sample(&self, sampling: &Sampling) -> Result<Sampled, AskError> {
        self.ask(None).sample(sampling).await
    }

    /// The roots the client shares (`roots/list`).
    ///
    /// # Errors
    ///
    /// [`AskError`] when the client did not declare `roots`, nothing can carry the question to
    /// the client ([`AskError::NoChannel`], at once, as for [`elicit`](Self::elicit)), or the
    /// client answered with an error or not in time.
    pub async fn roots(&self) -> Result<Vec<Root>, AskError> {
        self.ask(None).roots().await
    }

    /// A question under `key`, which names it in a 2026-07-28 `input_required` result (the
    /// methods above number their questions instead): `ctx.question("confirm").elicit(…)`.
    #[must_use]
    pub fn question<'a>(&'a self, key: &'a str) -> Question<'a> {
        self.ask(Some(key))
    }

    fn ask<'a>(&'a self, key: Option<&'a str>) -> Question<'a> {
        Question::new(&self.inner.asker, &self.inner.notifications, key)
    }

    /// The call became a task: its questions now wait on the task's `board`.
    pub(crate) fn to_board(&self, board: Arc<crate::ask::board::Board>) {
        self.inner.asker.to_board(board);
    }

    /// `-32021` when the request's failure, whose text is `failure`, passes on what it was
    /// told of a client capability the client did not declare.
    pub(crate) fn lacking_behind(&self, failure: &str) -> Option<crate::jsonrpc::ErrorObject> {
        self.inner.asker.lacking_behind(failure)
    }

    /// Records that the tool panicked: as a task, that is a failure (`failed`), not a result.
    pub(crate) fn mark_panicked(&self) {
        self.inner
            .panicked
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether the tool panicked.
    pub(crate) fn panicked(&self) -> bool {
        self.inner
            .panicked
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Marks the request answered (or dropped): nothing more is sent for it, as the protocol
    /// requires, from this context or any clone of it.
    pub(crate) fn finish(&self) {
        lock(&self.inner.notifications).take();
    }

    fn notify(&self, method: Method, params: Value) -> bool {
        let notifications = lock(&self.inner.notifications);
        let Some(notifications) = notifications.as_ref() else {
            return false;
        };
        let message = Outgoing::Notification(Box::new(Notification::new(method, params)));
        notifications.unbounded_send(message).is_ok()
    }
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("request_id", &self.inner.request_id)
            .field("progress_token", &self.inner.progress_token)
            .field("log_level", &self.inner.log_level)
            .field("session_id", &self.inner.session_id)
            .field("cancelled", &self.is_cancelled())
            .finish_non_exhaustive()
    }
}

/// The syslog severities MCP uses for `notifications/message`, least severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// Detailed debugging information.
    Debug,
    /// Normal operation.
    Info,
    /// Normal but significant.
    Notice,
    /// Something to look at.
    Warning,
    /// An error.
    Error,
    /// A critical condition.
    Critical,
    /// Action must be taken now.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl FromStr for LogLevel {
    type Err = UnknownLogLevel;

    fn from_str(level: &str) -> Result<Self, Self::Err> {
        serde_json::from_value(Value::String(level.to_owned()))
            .map_err(|_| UnknownLogLevel(level.to_owned()))
    }
}

/// A text that names no [`LogLevel`] (`"loud"`): what parsing one (`str::parse`) fails with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownLogLevel(String);

impl fmt::Display for UnknownLogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown log level {:?}: the levels are debug, info, notice, warning, error, \
             critical, alert and emergency",
            self.0
        )
    }
}

impl std::error::Error for UnknownLogLevel {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_log_level_names_the_levels() {
        assert_eq!("warning".parse::<LogLevel>(), Ok(LogLevel::Warning));
        let error: Box<dyn std::error::Error> = Box::new("loud".parse::<LogLevel>().unwrap_err());
        assert_eq!(
            error.to_string(),
            "unknown log level \"loud\": the levels are debug, info, notice, warning, error, \
             critical, alert and emergency"
        );
    }
}
