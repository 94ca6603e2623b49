//! The requests that run the user's code: `tools/call` (and as a task), `prompts/get` and
//! `resources/read`, each with its `Context`, the round of a 2026-07-28 request that may ask,
//! and its time limit.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;
use tracing::Instrument as _;

use super::Dispatcher;
use crate::ask::board::Board;
use crate::ask::round::{self, Outcome, Round};
use crate::ask::seal::{LazyBinding, Subject};
use crate::ask::{Asker, Channel};
use crate::call;
use crate::client_capabilities::ClientCapabilities;
use crate::context::{AuthInfo, Context, ContextParts, LogLevel};
use crate::fields::{Fields as _, field_mut};
use crate::hook;
use crate::jsonrpc::{ErrorObject, Id, codes};
use crate::limits::CallClock;
use crate::middleware::{self, Response};
use crate::protocol::connection::Connection;
use crate::protocol::era::Era;
use crate::protocol::scope::RequestScope;
use crate::protocol::{ProtocolVersion, downgrade, prompts, resources, tasks};
use crate::rate_limit::Who;
use crate::registry::apps;
use crate::task::{self, TaskSupport};
use crate::visibility::{SessionTags, View};

impl Dispatcher {
    /// `tools/call`: the tool and its arguments read, the client's capabilities checked, the
    /// round of a 2026-07-28 call that asks started, then the call run through the hooks
    /// within its time limit, its result shaped for the client's version.
    pub(super) async fn call_tool(
        &self,
        id: &Id,
        mut params: Map<String, Value>,
        era: &Era,
        connection: &Connection,
        (scope, view): (RequestScope, View),
    ) -> middleware::Outcome {
        let (name, arguments) = tool_and_arguments(&mut params)?;
        let tool = self
            .state
            .tools
            .get_for(&name, &view)
            .ok_or_else(|| ErrorObject::invalid_params(format!("Unknown tool: {name}")))?;
        let client = Client::of(era, connection);
        if let Some(missing) = tool.missing_capabilities(&client.capabilities) {
            return Err(round::missing_capabilities(&missing));
        }
        // A call that can ask nothing needs no round: neither the tool nor a hook is given a
        // `Context`, it brings no answers, and a task of its own is never started.
        let can_ask = tool.may_ask()
            || !self.state.hooks.is_empty()
            || tool.task() != TaskSupport::Forbidden
            || brings_answers(&params);
        let round = if can_ask {
            self.round(
                era,
                &scope,
                Subject::Tool(&name),
                arguments.as_ref(),
                &params,
            )?
        } else {
            None
        };
        // A tool's own limit counts calls, not rounds: a 2026-07-28 call that brings the
        // answers to its questions (its sealed state checked by `round` above) continues one.
        if let Some(limiter) = tool.rate_limiter()
            && !brings_answers(&params)
        {
            let who = Who::of(scope.auth.as_deref().map(AuthInfo::caller), scope.address);
            let rate = &self.state.limits.rate;
            rate.check_tool(limiter, &name, &who)
                .await
                .map_err(|limited| limited.error())?;
        }
        if let Some((required, reservation)) = self.as_task(&tool, era, &client, &scope)? {
            // Boxed: a task's start is rare, and its future would otherwise widen every call's.
            let answer = Box::pin(self.call_as_task(
                id,
                params,
                client,
                scope,
                round,
                (tool, arguments),
                (required, reservation),
            ))
            .await?;
            return Ok(Response::served(answer));
        }
        let time_limit = self.time_limit(&scope);
        let cancellation = scope.cancellation.clone();
        let clock = Arc::new(CallClock::default());
        let context = self.context(id, &params, scope, client, round.as_ref(), &clock);
        // What is left of the request (`_meta`, the round's answers) is not held while it runs.
        drop(params);
        // Pinned here, once: the layers around it (the time limit, the round) hold a pointer to
        // it, not a copy each (an async fn keeps its future argument and the local it pins, so
        // passing the future itself down made this call's future ten kilobytes).
        let call = std::pin::pin!(hook::run(&self.state.hooks, tool, arguments, context));
        let mut call = std::pin::pin!(call::time_limited(
            call,
            &name,
            time_limit,
            &clock,
            &cancellation
        ));
        let result = match round {
            Some(round) => match round.run(&self.state.sealer, call.as_mut()).await? {
                Outcome::Completed(result) => round.unless_lacking(result?)?,
                Outcome::InputRequired(input_required) => {
                    return Ok(Response::served(input_required));
                }
            },
            None => call.await?,
        };
        Ok(result.into())
    }

    /// Whether a call of `tool` runs as a task: `Some((required, its place under the caps))` for
    /// a task tool called by a 2026-07-28 client that negotiated the extension (and may start
    /// one now), `None` for an
    /// ordinary call; `-32021` for a `task = "required"` tool without the extension, `-31000`
    /// for one past the task caps.
    pub(super) fn as_task(
        &self,
        tool: &crate::registry::Tool,
        era: &Era,
        client: &Client,
        scope: &RequestScope,
    ) -> Result<Option<(bool, task::Reservation)>, ErrorObject> {
        let required = match tool.task() {
            TaskSupport::Required => true,
            TaskSupport::Optional => false,
            _ => return Ok(None),
        };
        if !(era.is_modern() && task::negotiated(&client.capabilities)) {
            return if required && !era.is_modern() {
                // Declaring the extension cannot help a legacy client: say what would.
                Err(task::extension_missing_legacy())
            } else if required {
                Err(task::extension_missing())
            } else {
                Ok(None)
            };
        }
        let owner = tasks::owner(scope.auth.as_deref());
        match self.state.tasks.admit(owner.as_deref()) {
            Ok(reservation) => Ok(Some((required, reservation))),
            Err(busy) if required => Err(busy),
            // An optional task past the caps runs as an ordinary call.
            Err(_) => Ok(None),
        }
    }

    /// A call that may become a task ([`tasks::call`]): its context cancelled by the task, not
    /// the request, and no time limit but the client's cancelling it.
    #[allow(
        clippy::too_many_arguments,
        reason = "the parts of one call, taken apart by call_tool"
    )]
    pub(super) async fn call_as_task(
        &self,
        id: &Id,
        params: Map<String, Value>,
        client: Client,
        mut scope: RequestScope,
        round: Option<Arc<Round>>,
        (tool, arguments): (crate::registry::Tool, Option<Map<String, Value>>),
        (required, reservation): (bool, task::Reservation),
    ) -> Result<Value, ErrorObject> {
        // Refused arguments are the request's error, not a failed task: checked before any
        // task exists (when no call hook may still change them; else once the hooks ran).
        if self.state.hooks.is_empty()
            && let Some(refusal) = tool.refusal(arguments.as_ref())
        {
            return Err(ErrorObject::invalid_params(refusal));
        }
        let owner = tasks::owner(scope.auth.as_deref());
        let stoppable = tool.stoppable();
        let cancel = CancellationToken::new();
        let request_cancel = std::mem::replace(&mut scope.cancellation, cancel.clone());
        let clock = Arc::new(CallClock::default());
        let version = client.version;
        let context = self.context(id, &params, scope, client, round.as_ref(), &clock);
        drop(params);
        let board = Arc::new(Board::new(self.state.tasks.settings.ttl));
        let (started, fn_started) = tokio::sync::oneshot::channel();
        let at_once = self.state.tasks.settings.budget.is_zero();
        let (starting, its_board) = (context.clone(), Arc::clone(&board));
        let on_start = Box::new(move || {
            // With no budget, a task from its fn's first step: its questions go to the board.
            if at_once {
                tasks::become_task(&starting, &its_board);
            }
            let _ = started.send(());
        });
        let hooks = hook::then_started(&self.state.hooks, on_start);
        let sealer = Arc::clone(&self.state.sealer);
        let running = context.clone();
        let asked_round = round.clone();
        let job = Box::pin(
            async move {
                let call = hook::run(&hooks, tool, arguments, running.clone());
                let outcome = match round {
                    Some(round) => match round.run(&sealer, call).await {
                        Err(error) => Err(error),
                        Ok(Outcome::InputRequired(input_required)) => {
                            return tasks::Ran::InputRequired(input_required);
                        }
                        Ok(Outcome::Completed(result)) => {
                            result.and_then(|result| round.unless_lacking(result))
                        }
                    },
                    None => call.await,
                };
                tasks::Ran::Done(outcome, running.panicked())
            }
            // The request's span: the tool's logs say which call they belong to.
            .instrument(tracing::Span::current()),
        );
        let call = tasks::TaskCall {
            stoppable,
            owner,
            required,
            reservation,
            context,
            cancel,
            request_cancel,
            version,
            round: asked_round,
            fn_started,
            board,
        };
        tasks::call(&self.state.tasks, call, job).await
    }

    /// How long user code may run for a request: the server's call time limit, or the
    /// transport's own limit on the request when that is shorter.
    pub(super) fn time_limit(&self, scope: &RequestScope) -> Duration {
        scope
            .time_limit
            .map_or(self.state.limits.call_timeout, |limit| {
                limit.min(self.state.limits.call_timeout)
            })
    }

    /// 2026-07-28: the round of a call (or a prompt's get), with the answers it has from
    /// `requestState` (sealed for this caller, subject and arguments) and `inputResponses`.
    /// `None` for a legacy request. The round keeps what it is bound to, and binds only when it
    /// opens or seals state ([`LazyBinding`]).
    pub(super) fn round(
        &self,
        era: &Era,
        scope: &RequestScope,
        subject: Subject<'_>,
        arguments: Option<&Map<String, Value>>,
        params: &Map<String, Value>,
    ) -> Result<Option<Arc<Round>>, ErrorObject> {
        if !era.is_modern() {
            return Ok(None);
        }
        let principal = scope.auth.as_deref().map(AuthInfo::principal);
        let binding = LazyBinding::new(principal, subject, arguments.cloned());
        let round = Round::start(
            &self.state.sealer,
            params,
            binding,
            self.state.early_answers,
        )?;
        Ok(Some(Arc::new(round)))
    }

    /// The context a call's tool is given: what the request and the client bring, and the
    /// channel its questions take (the round, or the legacy connection).
    pub(super) fn context(
        &self,
        id: &Id,
        params: &Map<String, Value>,
        scope: RequestScope,
        client: Client,
        round: Option<&Arc<Round>>,
        clock: &Arc<CallClock>,
    ) -> Context {
        let channel = match round {
            Some(round) => Channel::Modern(Arc::clone(round)),
            // A 2026-07-28 call without a round cannot ask: nothing may reach a connection's
            // pending requests from it, which a legacy client alone answers.
            None if client.version.is_modern() => Channel::Legacy(None),
            None => Channel::Legacy(scope.pending),
        };
        Context::new(ContextParts {
            request_id: id.to_value(),
            progress_token: params
                .field("_meta")
                .and_then(|meta| meta.field("progressToken"))
                .cloned(),
            progress_messages: downgrade::progress_has_message(client.version),
            log_level: client.log_level,
            notifications: scope.notifications,
            cancellation: scope.cancellation,
            session_id: client.session_id,
            session_tags: client.tags,
            auth: scope.auth,
            states: Arc::clone(&self.state.states),
            apps: apps::client_declares(&client.capabilities),
            // Elicitation modes (form, URL) are named from 2025-11-25 on.
            asker: Asker::new(
                client.capabilities,
                channel,
                client.version >= ProtocolVersion::V2025_11_25,
                Arc::clone(clock),
            ),
        })
    }

    /// `prompts/get`: the prompt and its arguments read, the round of a 2026-07-28 request
    /// that asks started (bound to this prompt and its arguments), then the prompt run with
    /// its context, as a tool's call is.
    pub(super) async fn get_prompt(
        &self,
        id: &Id,
        mut params: Map<String, Value>,
        era: &Era,
        connection: &Connection,
        (scope, view): (RequestScope, View),
    ) -> Result<Value, ErrorObject> {
        let prompts::GetRequest {
            name,
            sent,
            arguments,
        } = prompts::name_and_arguments(&mut params)?;
        let prompt = self
            .state
            .prompts
            .get_for(&name, &view)
            .ok_or_else(|| ErrorObject::invalid_params(format!("Unknown prompt: {name}")))?;
        let client = Client::of(era, connection);
        let version = client.version;
        let round = self.round(era, &scope, Subject::Prompt(&name), sent.as_ref(), &params)?;
        drop(sent);
        let time_limit = self.time_limit(&scope);
        let cancellation = scope.cancellation.clone();
        let clock = Arc::new(CallClock::default());
        let context = self.context(id, &params, scope, client, round.as_ref(), &clock);
        drop(params);
        let asked = context.clone();
        let get = prompt.get(arguments, context);
        // Bounded as a tool call is: a prompt that hangs gives its place back.
        let get = async {
            call::within(get, time_limit, &clock, &cancellation)
                .await
                .unwrap_or_else(|| {
                    tracing::warn!(prompt = %name, limit = ?time_limit, "prompt stopped at its time limit");
                    Err(crate::registry::PromptError::Failed(format!(
                        "Error getting prompt {name}: it ran longer than its time limit of {time_limit:?} and was stopped"
                    )))
                })
        };
        let outcome = match round {
            Some(round) => match round.run(&self.state.sealer, get).await? {
                Outcome::Completed(outcome) => outcome,
                Outcome::InputRequired(input_required) => return Ok(input_required),
            },
            None => get.await,
        };
        // A prompt that failed for want of a capability its question needed is refused as a
        // tool's call is: `-32021`, with `requiredCapabilities`, in both eras.
        outcome
            .map(|result| downgrade::prompt_result(result, version))
            .map_err(|error| {
                match &error {
                    crate::registry::PromptError::Failed(message) => asked.lacking_behind(message),
                    _ => None,
                }
                .unwrap_or_else(|| prompts::error(error))
            })
    }

    /// `resources/read`: a resource fn is given the request's `Context` (and through it the
    /// app state), as a tool is, within the same time limit; it asks nothing of a 2026-07-28
    /// client (no round).
    pub(super) async fn read_resource(
        &self,
        id: &Id,
        params: Map<String, Value>,
        era: &Era,
        connection: &Connection,
        (scope, view): (RequestScope, View),
    ) -> Result<Value, ErrorObject> {
        let listed = self.state.resources.listed().seen_through(&view);
        let client = Client::of(era, connection);
        let time_limit = self.time_limit(&scope);
        let cancellation = scope.cancellation.clone();
        let clock = Arc::new(CallClock::default());
        let context = self.context(id, &params, scope, client, None, &clock);
        let served = resources::Served {
            resources: &listed,
            page_size: self.state.page_size,
            ttl_ms: self.state.ttl_ms,
        };
        let read = resources::read(&params, era, &served, (&context, view.varies()));
        // Bounded as a tool call is: a read that hangs gives its place back.
        call::within(read, time_limit, &clock, &cancellation)
            .await
            .unwrap_or_else(|| {
                let uri = params
                    .get("uri")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                tracing::warn!(uri, limit = ?time_limit, "resource read stopped at its time limit");
                Err(ErrorObject::new(
                    codes::INTERNAL_ERROR,
                    format!(
                        "Error reading resource {uri}: it ran longer than its time limit of \
                         {time_limit:?} and was stopped"
                    ),
                )
                .data(json!({"uri": uri})))
            })
    }
}

/// What a call knows of its client: its version, its session, the log level it asked for and
/// the capabilities it declared (the connection's, or the request's own in 2026-07-28), shared
/// with the connection or taken out of the request, never copied.
pub(super) struct Client {
    pub(super) version: ProtocolVersion,
    session_id: Option<String>,
    log_level: Option<LogLevel>,
    pub(super) capabilities: Arc<ClientCapabilities>,
    /// The session's own choice of tags, for its calls to change: a legacy client that
    /// initialized its connection (stdio, an HTTP session) has one.
    tags: Option<Arc<SessionTags>>,
}

impl Client {
    pub(super) fn of(era: &Era, connection: &Connection) -> Self {
        let tags = (!era.is_modern() && connection.is_initialized())
            .then(|| Arc::clone(connection.tags()));
        let (log_level, capabilities) = match era {
            Era::Legacy(_) => (
                Some(connection.log_level()),
                connection.client_capabilities(),
            ),
            Era::Modern {
                log_level,
                client_capabilities,
                ..
            } => (*log_level, Arc::clone(client_capabilities)),
        };
        Self {
            version: era.version(),
            session_id: connection.session_id.clone(),
            log_level,
            capabilities,
            tags,
        }
    }
}

/// Whether a request carries what a round is made of: a `requestState` or `inputResponses`
/// (checked by the round, whatever the tool).
fn brings_answers(params: &Map<String, Value>) -> bool {
    params.field("requestState").is_some() || params.field("inputResponses").is_some()
}

/// A `tools/call`'s `name` and `arguments`, taken out of its params: found without hashing
/// (`fields`), `null` left in their place.
fn tool_and_arguments(
    params: &mut Map<String, Value>,
) -> Result<(String, Option<Map<String, Value>>), ErrorObject> {
    let Some(Value::String(name)) = field_mut(params, "name").map(Value::take) else {
        return Err(ErrorObject::invalid_params(
            "tools/call requires a string `name`",
        ));
    };
    match field_mut(params, "arguments").map(Value::take) {
        None | Some(Value::Null) => Ok((name, None)),
        Some(Value::Object(arguments)) => Ok((name, Some(arguments))),
        Some(_) => Err(ErrorObject::invalid_params("`arguments` must be an object")),
    }
}
