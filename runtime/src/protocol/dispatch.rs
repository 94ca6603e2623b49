//! The dispatcher: one request in, one response out, in either era. It knows nothing of how
//! the request arrived; the call lifecycle (`crate::session`) and the transports drive it.

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;
use tracing::Instrument as _;

use super::era::{Era, parse_log_level};
use super::listing::Listings;
use super::scope::RequestScope;
use super::subscriptions::{self, ListenFilter, Lists, Requested};
use super::{
    ChangeSender, Changes, Connection, ProtocolVersion, complete, downgrade, listen, meta, prompts,
    resources, tasks, trace,
};
use crate::ask::board::Board;
use crate::ask::round::{self, Outcome, Round};
use crate::ask::seal::{LazyBinding, Sealer, Subject};
use crate::ask::{Asker, Channel};
use crate::call;
use crate::client_capabilities::ClientCapabilities;
use crate::context::{AuthInfo, Context, ContextParts, LogLevel};
use crate::hook::{self, Hook};
use crate::jsonrpc::{ErrorObject, Id, Method, Payload, Response, codes, to_json};
use crate::limits::{CallClock, Limits};
use crate::registry::{PromptSet, ResourceSet, ToolSet, apps};
use crate::result::CallToolResult;
use crate::state::StateMap;
use crate::task::{self, TaskSupport, Tasks};
use crate::types::{DiscoverResult, Empty, Implementation, InitializeResult, ServerCapabilities};

/// What a running server shares between all its connections: fixed once serving starts,
/// except the tool, prompt and resource sets.
#[allow(
    clippy::struct_excessive_bools,
    reason = "independent settings (apps used, prompts served, legacy changes, early answers), each read in one place"
)]
pub(crate) struct ServerState {
    /// Its name, version and optional title.
    pub(crate) info: Implementation,
    pub(crate) instructions: Option<String>,
    pub(crate) page_size: usize,
    pub(crate) ttl_ms: u64,
    pub(crate) tools: Arc<ToolSet>,
    /// The live prompts.
    pub(crate) prompts: Arc<PromptSet>,
    /// Whether prompts are served even while there are none: a handle to them was taken
    /// ([`crate::Server::prompts`]), so some may be added.
    pub(crate) prompts_handle: bool,
    /// The live resources, MCP Apps views among them.
    pub(crate) resources: Arc<ResourceSet>,
    /// Whether a tool or resource uses the MCP Apps extension: then it is advertised.
    pub(crate) apps: bool,
    /// Sends what changes: a tool, prompt or resource added or removed, a resource's contents.
    pub(crate) changes: ChangeSender,
    /// Cancelled when the transport shuts down: `subscriptions/listen` streams then close with
    /// their result.
    pub(crate) closing: CancellationToken,
    /// The app state every call can reach.
    pub(crate) states: Arc<StateMap>,
    /// The call hooks, outermost first.
    pub(crate) hooks: Arc<[Hook]>,
    /// OpenTelemetry's `network.transport` of the requests (`pipe`, `tcp`), for their spans.
    pub(crate) network_transport: Option<&'static str>,
    /// Whether a legacy client can be told of changes after its request was answered (stdio,
    /// HTTP sessions; not stateless HTTP): if not, it is offered no `listChanged` and no
    /// `resources/subscribe`.
    pub(crate) legacy_changes: bool,
    /// Seals the 2026-07-28 `requestState` of calls that ask the client.
    pub(crate) sealer: Arc<Sealer>,
    /// Whether `inputResponses` may answer questions no earlier round asked
    /// ([`crate::Server::accept_early_answers`]).
    pub(crate) early_answers: bool,
    /// The `tools/list` pages built so far.
    pub(crate) listings: Listings,
    /// What one connection may ask at once, and for how long.
    pub(crate) limits: Limits,
    /// The skills served (their files are among `resources`).
    #[cfg(feature = "skills")]
    pub(crate) skills: Arc<crate::skill::SkillSet>,
    /// The tasks extension: the store, the tasks running here.
    pub(crate) tasks: Arc<Tasks>,
}

/// Drives the protocol for every transport. Cheap to clone.
#[derive(Clone)]
pub(crate) struct Dispatcher {
    state: Arc<ServerState>,
    /// The `_meta` of every 2026-07-28 result (the server's info), serialized once.
    modern_meta: Arc<RawValue>,
}

impl Dispatcher {
    /// A dispatcher for `state`, its first `tools/list` pages built.
    pub(crate) fn new(state: ServerState) -> Self {
        state.listings.warm(&state.tools);
        let modern_meta = json!({ meta::SERVER_INFO: state.info });
        let modern_meta =
            serde_json::value::to_raw_value(&modern_meta).expect("a JSON value serializes");
        Self {
            state: Arc::new(state),
            modern_meta: Arc::from(modern_meta),
        }
    }

    /// A dispatcher with no tools, for unit tests of the layers above.
    #[cfg(all(test, feature = "http"))]
    pub(crate) fn empty() -> Self {
        let info = Implementation::new("test", "0");
        Self::new(ServerState {
            listings: Listings::new(100, 0, &info),
            info,
            instructions: None,
            page_size: 100,
            ttl_ms: 0,
            tools: Arc::default(),
            prompts: Arc::default(),
            prompts_handle: false,
            resources: Arc::default(),
            apps: false,
            changes: ChangeSender::new(1),
            closing: CancellationToken::new(),
            states: Arc::default(),
            hooks: Arc::new([]),
            network_transport: None,
            legacy_changes: true,
            sealer: Arc::new(Sealer::new(None)),
            early_answers: false,
            limits: Limits::default(),
            #[cfg(feature = "skills")]
            skills: Arc::default(),
            tasks: Arc::new(Tasks::new(
                Arc::new(task::MemoryTaskStore::new()),
                task::TaskSettings::default(),
            )),
        })
    }

    /// What one connection may ask at once, and for how long.
    pub(crate) fn limits(&self) -> &Limits {
        &self.state.limits
    }

    /// A new view of the server's changes, for a transport that announces them.
    pub(crate) fn changes(&self) -> Changes {
        Changes::new(self.state.changes.subscribe())
    }

    /// The server's channel of changes: for a transport that relays them to other processes
    /// (`ChangeSender::raised`) and announces theirs (`ChangeSender::announce`).
    #[cfg_attr(
        not(feature = "redis"),
        allow(dead_code, reason = "the replicas relay changes")
    )]
    pub(crate) fn change_sender(&self) -> &ChangeSender {
        &self.state.changes
    }

    /// The resources served now (what a restored session's subscriptions are checked against).
    #[cfg(feature = "redis")]
    pub(crate) fn listed_resources(&self) -> Arc<crate::registry::Listed> {
        self.state.resources.listed()
    }

    /// Cancelled when the server is closing.
    pub(crate) fn closing(&self) -> &CancellationToken {
        &self.state.closing
    }

    /// The live tool named `name`, for a transport that checks a call against it before
    /// dispatching it (HTTP: its `Mcp-Param-*` headers).
    #[cfg(feature = "http")]
    pub(crate) fn tool(&self, name: &str) -> Option<crate::registry::Tool> {
        self.state.tools.get(name)
    }

    /// Answers one request.
    pub(crate) async fn request(
        &self,
        id: Id,
        method: &Method,
        params: Option<Map<String, Value>>,
        connection: &Connection,
        scope: RequestScope,
    ) -> Response {
        let params = params.unwrap_or_default();
        let span = trace::request_span(
            method,
            &id,
            &params,
            connection.session_id.as_deref(),
            self.state.network_transport,
            |method, name| match method {
                Method::GetPrompt => self.state.prompts.contains(name),
                _ => self.state.tools.contains(name),
            },
        );
        // Boxed where it is made: the layers around it (the span, the time limit, the abort,
        // the call's task) then move a pointer, not a future of kilobytes.
        let outcome = Box::pin(self.answer(&id, method, params, connection, scope))
            .instrument(span.clone())
            .await;
        trace::record_outcome(&span, &outcome);
        match outcome {
            Ok(result) => Response::answer(id, result),
            Err(error) => Response::error(id, error),
        }
    }

    /// Takes a notification other than `notifications/cancelled` (which the call lifecycle
    /// handles): nothing the client notifies changes what this server does.
    #[allow(
        clippy::unused_self,
        reason = "notifications the server acts on will need it"
    )]
    pub(crate) fn notification(&self, method: &Method, _params: Option<&Map<String, Value>>) {
        tracing::debug!(%method, "notification");
    }

    async fn answer(
        &self,
        id: &Id,
        method: &Method,
        mut params: Map<String, Value>,
        connection: &Connection,
        scope: RequestScope,
    ) -> Result<Payload, ErrorObject> {
        let era = Era::of(&mut params, connection)?;
        trace::record_version(era.version());
        let result = match (era.is_modern(), method) {
            (false, Method::Initialize) => Ok(self.initialize(&params, connection)),
            (false, Method::Ping) => Ok(to_json(&Empty {})),
            (false, Method::SetLogLevel) => set_level(&params, connection),
            (false, Method::Discover) => Err(ErrorObject::invalid_params(format!(
                "server/discover requires `_meta.{}`",
                meta::PROTOCOL_VERSION
            ))),
            (true, Method::Discover) => Ok(self.discover()),
            // Boxed, as every arm but the tool call's: each would widen the future of every call.
            (true, Method::Listen) => {
                Box::pin(self.listen(id, params, &era, connection, scope)).await
            }
            (false, Method::Subscribe | Method::Unsubscribe)
                if self.state.resources.is_served() && self.state.legacy_changes =>
            {
                let listed = self.state.resources.listed();
                subscriptions::subscribe(method, &params, connection.subscriptions(), &listed)
            }
            (_, Method::ListTools) => {
                let page = self
                    .state
                    .listings
                    .page(&self.state.tools, &params, era.version());
                return page.map(Payload::Shared);
            }
            (_, Method::CallTool) => {
                return self.call_tool(id, params, &era, connection, scope).await;
            }
            (true, Method::TasksGet | Method::TasksUpdate | Method::TasksCancel) => {
                let declared = Client::of(&era, connection).capabilities;
                tasks::answer(
                    &self.state.tasks,
                    method,
                    &params,
                    &declared,
                    scope.auth.as_ref(),
                )
                .await
            }
            (_, Method::ListPrompts) if self.serves_prompts() => prompts::list(
                &self.state.prompts,
                &params,
                era.version(),
                self.state.page_size,
                self.state.ttl_ms,
            ),
            (_, Method::GetPrompt) if self.serves_prompts() => {
                Box::pin(self.get_prompt(id, params, &era, connection, scope)).await
            }
            // `completions` came with 2025-03-26: an older client was not offered it.
            (_, Method::Complete)
                if self.completable().any() && era.version() >= ProtocolVersion::V2025_03_26 =>
            {
                let time_limit = self.time_limit(&scope);
                let session_id = connection.session_id.clone();
                complete::complete(&params, &self.completable(), time_limit, &scope, session_id)
                    .await
            }
            #[cfg(feature = "skills")]
            (_, method) if method.is_skills() && !self.state.skills.is_empty() => {
                let served = super::skills::Served {
                    skills: &self.state.skills,
                    page_size: self.state.page_size,
                    ttl_ms: self.state.ttl_ms,
                };
                if *method == Method::ListSkills {
                    let info = &self.state.info;
                    return super::skills::list(&params, era.version(), &served, info)
                        .map(Payload::Shared);
                }
                super::skills::answer(method, &params, &era, &served)
                    .unwrap_or_else(|| Err(method_not_found(method)))
            }
            (_, Method::ReadResource) if self.state.resources.is_served() => {
                Box::pin(self.read_resource(id, params, &era, connection, scope)).await
            }
            (_, method) if method.is_resources() && self.state.resources.is_served() => {
                let listed = self.state.resources.listed();
                let served = resources::Served {
                    resources: &listed,
                    page_size: self.state.page_size,
                    ttl_ms: self.state.ttl_ms,
                };
                resources::answer(method, &params, &era, &served)
                    .unwrap_or_else(|| Err(method_not_found(method)))
            }
            _ => Err(method_not_found(method)),
        }?;
        Ok(self.payload(&era, result))
    }

    /// `result` as it is answered in `era`: at 2026-07-28 with its `resultType` and the
    /// server's `_meta` (stamped as it is written when it has no `_meta` of its own).
    fn payload(&self, era: &Era, mut result: Value) -> Payload {
        if let (true, Value::Object(result)) = (era.is_modern(), &mut result) {
            if !result.contains_key("_meta") {
                // Stamped as it is written: nothing built per answer.
                let result = std::mem::take(result);
                return Payload::stamped(result, Arc::clone(&self.modern_meta));
            }
            // A call that asks the client has said `input_required` already.
            result
                .entry("resultType")
                .or_insert_with(|| json!("complete"));
            let meta = result.entry("_meta").or_insert_with(|| json!({}));
            meta[meta::SERVER_INFO] = to_json(&self.state.info);
        }
        Payload::Built(result)
    }

    /// A tool's completed `result` as a client of `era` reads it, written straight from its
    /// type: no `Value` is built for it (most of a small call's allocations were that tree).
    /// A result with a `_meta` of its own is merged with the server's as JSON, as before.
    fn tool_payload(&self, era: &Era, result: CallToolResult) -> Payload {
        let result = downgrade::downgraded_result(result, era.version());
        if era.is_modern() && result.meta.is_some() {
            return self.payload(era, to_json(&result));
        }
        let is_error = result.is_error;
        let written = if era.is_modern() {
            serde_json::value::to_raw_value(&Complete {
                result: &result,
                result_type: "complete",
                meta: &self.modern_meta,
            })
        } else {
            serde_json::value::to_raw_value(&result)
        };
        match written {
            Ok(json) => Payload::Written { json, is_error },
            // Not reached (a result is a tree of strings, numbers and maps); the JSON path says
            // the same thing the same way if it ever is.
            Err(_) => self.payload(era, to_json(&result)),
        }
    }

    /// `subscriptions/listen` (2026-07-28): what it asks for, honoured as far as served (its
    /// `taskIds` only the caller's own), then the stream ([`listen::listen`]).
    async fn listen(
        &self,
        id: &Id,
        params: Map<String, Value>,
        era: &Era,
        connection: &Connection,
        scope: RequestScope,
    ) -> Result<Value, ErrorObject> {
        let offered = Lists::declared(&self.capabilities());
        let listed = self
            .state
            .resources
            .is_served()
            .then(|| self.state.resources.listed());
        let mut filter = ListenFilter::parse(&params)?;
        let mut requested = Requested::of(
            &filter,
            offered,
            listed.as_deref(),
            &self.state.limits.subscription_memory,
        );
        let declared = Client::of(era, connection).capabilities;
        // Subscribed before its tasks are read, so that no change between the two is lost; and
        // only when it names some.
        let task_changes = filter.names_tasks().then(|| self.state.tasks.changes());
        requested.task_ids = tasks::listened(
            &self.state.tasks,
            filter.task_ids.take(),
            &declared,
            scope.auth.as_ref(),
        )
        .await?;
        let followed = task_changes
            .filter(|_| {
                requested
                    .task_ids
                    .as_ref()
                    .is_some_and(|ids| !ids.is_empty())
            })
            .map(|changes| {
                listen::FollowedTasks::new(
                    changes,
                    Arc::clone(&self.state.tasks),
                    tasks::owner(scope.auth.as_ref()),
                )
            });
        // Nothing of the request outlives its start: a stream holds what it sends.
        drop((params, filter, listed, declared));
        let changes = self.changes();
        listen::listen(
            id,
            requested,
            (changes, followed),
            &self.state.closing,
            scope,
        )
        .await
    }

    fn initialize(&self, params: &Map<String, Value>, connection: &Connection) -> Value {
        let requested = params.get("protocolVersion").and_then(Value::as_str);
        let version = requested
            .and_then(ProtocolVersion::parse_legacy)
            .unwrap_or(ProtocolVersion::LATEST_LEGACY);
        let declared = params
            .get("capabilities")
            .map(ClientCapabilities::from_declared)
            .unwrap_or_default();
        connection.initialize(version, declared);
        tracing::debug!(requested, negotiated = %version, "initialize");
        let mut capabilities = self.capabilities();
        if version < ProtocolVersion::V2025_03_26 {
            // `completions` came with 2025-03-26; an older client knows no such capability.
            capabilities.completions = None;
        }
        if !self.state.legacy_changes {
            capabilities = capabilities.without_changes();
        }
        connection.hear(Lists::declared(&capabilities));
        to_json(&InitializeResult {
            protocol_version: version.as_str(),
            capabilities,
            server_info: &downgrade::server_info(&self.state.info, version),
            instructions: self.state.instructions.as_deref(),
        })
    }

    /// The capabilities of this server: `resources` when served (some, or a handle that may add
    /// some), `prompts`, `completions`, the MCP Apps extension and the Skills extension when
    /// used.
    fn capabilities(&self) -> ServerCapabilities {
        let capabilities =
            ServerCapabilities::with(self.state.resources.is_served(), self.state.apps)
                .prompts_and_completions(self.serves_prompts(), self.completable().any());
        #[cfg(feature = "skills")]
        let capabilities = capabilities.skills(!self.state.skills.is_empty());
        capabilities
    }

    /// Whether prompts are served: there are some, or some may be added.
    fn serves_prompts(&self) -> bool {
        self.state.prompts_handle || !self.state.prompts.is_empty()
    }

    /// What `completion/complete` completes.
    fn completable(&self) -> complete::Completable<'_> {
        complete::Completable {
            prompts: &self.state.prompts,
            resources: self.state.resources.listed(),
            states: &self.state.states,
        }
    }

    /// `prompts/get`: the prompt and its arguments read, the round of a 2026-07-28 request
    /// that asks started (bound to this prompt and its arguments), then the prompt run with
    /// its context, as a tool's call is.
    async fn get_prompt(
        &self,
        id: &Id,
        mut params: Map<String, Value>,
        era: &Era,
        connection: &Connection,
        scope: RequestScope,
    ) -> Result<Value, ErrorObject> {
        let prompts::GetRequest {
            name,
            sent,
            arguments,
        } = prompts::name_and_arguments(&mut params)?;
        let prompt = self
            .state
            .prompts
            .get(&name)
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
    /// app state), as a tool is; it asks nothing of a 2026-07-28 client (no round).
    async fn read_resource(
        &self,
        id: &Id,
        params: Map<String, Value>,
        era: &Era,
        connection: &Connection,
        scope: RequestScope,
    ) -> Result<Value, ErrorObject> {
        let listed = self.state.resources.listed();
        let client = Client::of(era, connection);
        let context = self.context(id, &params, scope, client, None, &Arc::default());
        let served = resources::Served {
            resources: &listed,
            page_size: self.state.page_size,
            ttl_ms: self.state.ttl_ms,
        };
        resources::read(&params, era, &served, &context).await
    }

    /// The 2026-07-28 `DiscoverResult`, as the final revision (spec PR #3002) has it: the
    /// versions a client may name in a request's `_meta` (the modern ones; the legacy ones are
    /// spoken through `initialize`, and `-32022` lists the same), `serverInfo` only in `_meta`
    /// (stamped on every modern result), and no deprecated `logging` capability.
    fn discover(&self) -> Value {
        to_json(&DiscoverResult {
            supported_versions: ProtocolVersion::names(&ProtocolVersion::MODERN),
            capabilities: if self
                .state
                .tools
                .any(|tool| tool.task() != TaskSupport::Forbidden)
            {
                self.capabilities().modern().with_tasks()
            } else {
                self.capabilities().modern()
            },
            ttl_ms: self.state.ttl_ms,
            cache_scope: "public",
            instructions: self.state.instructions.as_deref(),
        })
    }

    /// `tools/call`: the tool and its arguments read, the client's capabilities checked, the
    /// round of a 2026-07-28 call that asks started, then the call run through the hooks
    /// within its time limit, its result shaped for the client's version.
    async fn call_tool(
        &self,
        id: &Id,
        mut params: Map<String, Value>,
        era: &Era,
        connection: &Connection,
        scope: RequestScope,
    ) -> Result<Payload, ErrorObject> {
        let (name, arguments) = tool_and_arguments(&mut params)?;
        let tool = self
            .state
            .tools
            .get(&name)
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
            return Ok(self.payload(era, answer));
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
                    return Ok(self.payload(era, input_required));
                }
            },
            None => call.await?,
        };
        Ok(self.tool_payload(era, result))
    }

    /// Whether a call of `tool` runs as a task: `Some((required, its place under the caps))` for
    /// a task tool called by a 2026-07-28 client that negotiated the extension (and may start
    /// one now), `None` for an
    /// ordinary call; `-32021` for a `task = "required"` tool without the extension, `-31000`
    /// for one past the task caps.
    fn as_task(
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
        let owner = tasks::owner(scope.auth.as_ref());
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
    async fn call_as_task(
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
        let owner = tasks::owner(scope.auth.as_ref());
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
    fn time_limit(&self, scope: &RequestScope) -> Duration {
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
    fn round(
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
        let principal = scope.auth.as_ref().map(AuthInfo::principal);
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
    fn context(
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
                .get("_meta")
                .and_then(|meta| meta.get("progressToken"))
                .cloned(),
            progress_messages: downgrade::progress_has_message(client.version),
            log_level: client.log_level,
            notifications: scope.notifications,
            cancellation: scope.cancellation,
            session_id: client.session_id,
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
}

/// What a call knows of its client: its version, its session, the log level it asked for and
/// the capabilities it declared (the connection's, or the request's own in 2026-07-28), shared
/// with the connection or taken out of the request, never copied.
struct Client {
    version: ProtocolVersion,
    session_id: Option<String>,
    log_level: Option<LogLevel>,
    capabilities: Arc<ClientCapabilities>,
}

impl Client {
    fn of(era: &Era, connection: &Connection) -> Self {
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
        }
    }
}

/// Whether a request carries what a round is made of: a `requestState` or `inputResponses`
/// (checked by the round, whatever the tool).
fn brings_answers(params: &Map<String, Value>) -> bool {
    params.contains_key("requestState") || params.contains_key("inputResponses")
}

/// A 2026-07-28 tool result as it is written: its own members, then `resultType` and the
/// server's `_meta`, as [`Payload::Stamped`] writes a built one.
#[derive(Serialize)]
struct Complete<'a> {
    #[serde(flatten)]
    result: &'a CallToolResult,
    #[serde(rename = "resultType")]
    result_type: &'static str,
    #[serde(rename = "_meta")]
    meta: &'a RawValue,
}

/// A `tools/call`'s `name` and `arguments`, taken out of its params.
fn tool_and_arguments(
    params: &mut Map<String, Value>,
) -> Result<(String, Option<Map<String, Value>>), ErrorObject> {
    let Some(Value::String(name)) = params.remove("name") else {
        return Err(ErrorObject::invalid_params(
            "tools/call requires a string `name`",
        ));
    };
    match params.remove("arguments") {
        None | Some(Value::Null) => Ok((name, None)),
        Some(Value::Object(arguments)) => Ok((name, Some(arguments))),
        Some(_) => Err(ErrorObject::invalid_params("`arguments` must be an object")),
    }
}

fn set_level(params: &Map<String, Value>, connection: &Connection) -> Result<Value, ErrorObject> {
    let level = parse_log_level(params.get("level").unwrap_or(&Value::Null))?;
    connection.set_log_level(level);
    Ok(to_json(&Empty {}))
}

fn method_not_found(method: &Method) -> ErrorObject {
    ErrorObject::new(
        codes::METHOD_NOT_FOUND,
        format!("Method not found: {method}"),
    )
}
