//! Call hooks: code that runs around every tool call, written once for all tools —
//! authorization, rate limits, metrics, auditing. Shaped like axum's `middleware::from_fn`: an
//! async fn given the call and [`Next`], which runs the rest of the chain. For code around
//! `resources/read`, `prompts/get`, `completion/complete` and the listings too, write a
//! [middleware](crate::middleware) instead: hooks run inside every middleware (and after the
//! built-in scope check), for `tools/call` only.
//!
//! ```
//! use std::time::Instant;
//! use mcp_toolbelt::{CallToolResult, Server};
//!
//! let server = Server::new("demo", "1.0.0").hook(|call, next| async move {
//!     let destructive = call.annotations().and_then(|hints| hints.destructive_hint) == Some(true);
//!     let admin = call.context().auth().is_some_and(|auth| auth.scopes.iter().any(|s| s == "admin"));
//!     if destructive && !admin {
//!         // Refused as a tool result the model can read; `Err(ErrorObject)` is a JSON-RPC error.
//!         return Ok(CallToolResult::error(format!("{} needs the admin scope", call.name())));
//!     }
//!     let started = Instant::now();
//!     let name = call.name().to_owned();
//!     let outcome = next.run(call).await;
//!     tracing::info!(tool = name, elapsed = ?started.elapsed(), "tool call");
//!     outcome
//! });
//! ```
//!
//! # Order
//!
//! Hooks run in the order they were added, the first outermost (it sees the call first and the
//! result last), as tower's `ServiceBuilder` layers do. They run inside the server's
//! [`middleware`](crate::middleware) (which may have changed the arguments), after the tool is
//! found by name, its `scopes(…)` and its own rate limit checked: the arguments a hook sees are
//! not yet validated. [`Next::run`] of the last hook validates them (a hook that changed them gets them
//! validated too), deserializes them, runs the tool and checks its output; what it returns is
//! what the client would get, an invalid-arguments or panic result included.
//!
//! A hook refuses a call by not running `next`: `Ok(CallToolResult::error(…))` is an `isError`
//! result the model reads and may act on; `Err(ErrorObject::new(code, …))` is a JSON-RPC error
//! the client application sees. A hook that panics ends its call with an `isError` result, as a
//! tool that panics does.

use std::fmt;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use serde_json::{Map, Value};

use crate::call::panic_message;
use crate::context::Context;
use crate::jsonrpc::ErrorObject;
use crate::registry::Tool;
use crate::result::CallToolResult;
use crate::types::{ToolAnnotations, ToolDefinition};

/// What a call ends with: the tool's result (an `isError` one included), or a JSON-RPC error.
pub type CallOutcome = Result<CallToolResult, ErrorObject>;

/// One hook, as the server keeps it.
pub(crate) type Hook = Arc<dyn Fn(ToolCall, Next) -> BoxFuture<'static, CallOutcome> + Send + Sync>;

/// Boxes `hook` for the server.
pub(crate) fn boxed<F, Fut>(hook: F) -> Hook
where
    F: Fn(ToolCall, Next) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = CallOutcome> + Send + 'static,
{
    Arc::new(move |call, next| Box::pin(hook(call, next)))
}

/// The call a hook is given: which tool, with what arguments, for whom.
pub struct ToolCall {
    tool: Tool,
    arguments: Option<Map<String, Value>>,
    context: Context,
}

impl ToolCall {
    /// The tool's name.
    #[must_use]
    pub fn name(&self) -> &str {
        self.tool.name()
    }

    /// The tool as `tools/list` shows it: title, description, schemas, annotations.
    #[must_use]
    pub fn definition(&self) -> &ToolDefinition {
        self.tool.definition()
    }

    /// The tool's behaviour hints (`read_only`, `destructive`, …), if it declared any.
    #[must_use]
    pub fn annotations(&self) -> Option<&ToolAnnotations> {
        self.tool.definition().annotations.as_ref()
    }

    /// The arguments as the client sent them (`None` when it sent none), not yet validated.
    #[must_use]
    pub fn arguments(&self) -> Option<&Map<String, Value>> {
        self.arguments.as_ref()
    }

    /// The arguments, to change before the tool sees them; they are validated after the last
    /// hook, so a change cannot slip past the input schema. `Mcp-Param-*` headers (header-routed
    /// arguments) were checked against the client's arguments before any hook ran: changing such
    /// an argument here is the server's own decision, not the client's.
    pub fn arguments_mut(&mut self) -> &mut Map<String, Value> {
        self.arguments.get_or_insert_with(Map::new)
    }

    /// The request's context: its id, the caller's session and auth, the app state.
    #[must_use]
    pub fn context(&self) -> &Context {
        &self.context
    }
}

impl fmt::Debug for ToolCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolCall")
            .field("name", &self.name())
            .field("arguments", &self.arguments)
            .field("context", &self.context)
            .finish_non_exhaustive()
    }
}

/// The rest of the chain after a hook: the hooks added after it, then the tool.
pub struct Next {
    hooks: Arc<[Hook]>,
    /// The index of the next hook to run; past the end, the tool runs.
    index: usize,
}

impl Next {
    /// Runs the rest of the chain on `call` and gives what the client would get.
    pub async fn run(self, call: ToolCall) -> CallOutcome {
        match self.hooks.get(self.index) {
            Some(hook) => {
                let hook = Arc::clone(hook);
                let next = Self {
                    hooks: self.hooks,
                    index: self.index + 1,
                };
                hook(call, next).await
            }
            None => Ok(call.tool.call(call.arguments, call.context).await),
        }
    }
}

impl fmt::Debug for Next {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Next")
            .field("hooks_left", &self.hooks.len().saturating_sub(self.index))
            .finish()
    }
}

/// `hooks`, then one that calls `on_start` once every hook has let the call through and its
/// arguments (as the hooks left them) are valid, just before the tool's fn runs: the call of a
/// task tool becomes a task only then, so that a refusal answers its request. Invalid arguments
/// are `-32602`.
pub(crate) fn then_started(
    hooks: &Arc<[Hook]>,
    on_start: Box<dyn FnOnce() + Send + 'static>,
) -> Arc<[Hook]> {
    let on_start = Arc::new(std::sync::Mutex::new(Some(on_start)));
    let marker: Hook = Arc::new(move |call: ToolCall, next: Next| {
        let on_start = Arc::clone(&on_start);
        Box::pin(async move {
            if let Some(refusal) = call.tool.refusal(call.arguments.as_ref()) {
                return Err(ErrorObject::invalid_params(refusal));
            }
            let on_start = crate::sync::lock(&on_start).take();
            if let Some(on_start) = on_start {
                on_start();
            }
            next.run(call).await
        })
    });
    hooks.iter().cloned().chain([marker]).collect()
}

/// Runs `tool` through every hook of `hooks`; a hook's panic becomes an `isError` result.
pub(crate) async fn run(
    hooks: &Arc<[Hook]>,
    tool: Tool,
    arguments: Option<Map<String, Value>>,
    context: Context,
) -> CallOutcome {
    if hooks.is_empty() {
        return Ok(tool.call(arguments, context).await);
    }
    let name = tool.name().to_owned();
    let call = ToolCall {
        tool,
        arguments,
        context,
    };
    let next = Next {
        hooks: Arc::clone(hooks),
        index: 0,
    };
    // Boxed: the chain of hooks would otherwise widen the future of every call, hooked or not.
    AssertUnwindSafe(Box::pin(next.run(call)))
        .catch_unwind()
        .await
        .unwrap_or_else(|panic| {
            let message = panic_message(panic.as_ref());
            tracing::error!(tool = name, panic = message, "call hook panicked");
            Ok(CallToolResult::error(format!(
                "Error executing tool {name}: a call hook panicked: {message}"
            )))
        })
}
