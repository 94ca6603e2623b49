//! The dispatcher: one request in, one response out, in either era. It knows nothing of how
//! the request arrived; the call lifecycle (`crate::session`) and the transports drive it.

use std::future::Future;
use std::sync::Arc;

use futures_util::future::BoxFuture;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;
use tracing::Instrument as _;

use super::era::{Era, parse_log_level};
use super::listing::{self, Listings};
use super::scope::RequestScope;
use super::subscriptions::{self, ListenFilter, Lists, Requested};
use super::{
    ChangeSender, Changes, Connection, ProtocolVersion, Transport, complete, downgrade, listen,
    meta, resources, tasks, trace,
};
use crate::ask::seal::Sealer;
use crate::client_capabilities::ClientCapabilities;
use crate::context::AuthInfo;
use crate::fields::Fields as _;
use crate::hook::Hook;
use crate::jsonrpc::{ErrorObject, Id, Method, Payload, Response, codes, to_json};
use crate::limits::Limits;
use crate::middleware::{Kind, Middleware};
use crate::rate_limit::Who;
use crate::registry::{PromptSet, ResourceSet, ToolSet};
use crate::result::CallToolResult;
use crate::state::StateMap;
use crate::task::{TaskSupport, Tasks};
use crate::types::{DiscoverResult, Empty, Implementation, InitializeResult, ServerCapabilities};
use crate::visibility::{ChangedTags, View, Visibility};

mod chain;
mod run;
mod scopes;

pub(crate) use scopes::refused;
#[cfg(feature = "http")]
pub(crate) use scopes::scope_refusal;

use run::Client;

/// What each caller sees of what the server serves ([`crate::Server::visibility`]).
pub(crate) type VisibilityRule = Arc<dyn Fn(Option<&AuthInfo>) -> Visibility + Send + Sync>;

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
    /// The middleware, outermost first (the scope check comes after the last).
    pub(crate) middleware: Arc<[Middleware]>,
    /// How the requests arrive (named in their spans).
    pub(crate) transport: Transport,
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
    /// What each caller sees of what is served, by tags.
    pub(crate) visibility: Option<VisibilityRule>,
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
    /// A dispatcher for `state`.
    pub(crate) fn new(state: ServerState) -> Self {
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
            middleware: Arc::new([]),
            transport: Transport::InProcess,
            legacy_changes: true,
            sealer: Arc::new(Sealer::new(None)),
            early_answers: false,
            limits: Limits::default(),
            visibility: None,
            #[cfg(feature = "skills")]
            skills: Arc::default(),
            tasks: Arc::new(Tasks::new(
                Arc::new(crate::task::MemoryTaskStore::new()),
                crate::task::TaskSettings::default(),
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
    /// dispatching it (HTTP: its `Mcp-Param-*` headers); `None` when `auth`'s view hides it.
    #[cfg(feature = "http")]
    pub(crate) fn tool(
        &self,
        name: &str,
        auth: Option<&AuthInfo>,
    ) -> Option<crate::registry::Tool> {
        self.state.tools.get_for(name, &self.caller_view(auth))
    }

    /// What the server's rule shows `auth`, before any session's own choice: for a transport
    /// that looks at an item before dispatching the request.
    #[cfg(feature = "http")]
    pub(crate) fn caller_view(&self, auth: Option<&AuthInfo>) -> View {
        View::new(self.state.visibility.as_ref().map(|rule| rule(auth)), None)
    }

    /// Whether answering `method` may run code of the user's: a tool, a read, a prompt, a
    /// completer ([`Method::runs_user_code`]); with middleware, every request it wraps (the
    /// listings too); with a visibility rule, every request that asks the rule (the listings,
    /// subscriptions). The transports never run such a request on the task that watches its
    /// client, which a middleware or rule computing before its first `.await` would stop.
    pub(crate) fn runs_user_code(&self, method: &Method) -> bool {
        let chained = Kind::of(method).is_some();
        method.runs_user_code()
            || (chained && !self.state.middleware.is_empty())
            || (self.state.visibility.is_some()
                && (chained
                    || matches!(
                        method,
                        Method::Subscribe | Method::Unsubscribe | Method::Listen
                    )))
    }

    /// Answers one request. Owns what it reads (the dispatcher is two pointers, the connection
    /// shared), so that a call's future is this one, boxed once by its transport. Not an async
    /// fn: an async fn's future holds each argument twice (as taken, and as moved into its
    /// body), where this block holds them once, where they were captured.
    pub(crate) fn request(
        self,
        id: Id,
        method: Method,
        params: Option<Map<String, Value>>,
        connection: Arc<Connection>,
        scope: RequestScope,
    ) -> impl Future<Output = Response> + Send + 'static {
        let params = params.unwrap_or_default();
        async move {
            // Opened as the call first runs: a call cancelled before then has no span.
            let span = trace::request_span(
                &method,
                &id,
                &params,
                connection.session_id.as_deref(),
                self.state.transport.network_transport(),
                |method, name| match method {
                    Method::GetPrompt => self.state.prompts.contains(name),
                    _ => self.state.tools.contains(name),
                },
            );
            // Boxed where it is made: the layers around it (the span, the time limit, the
            // abort, the call's task) then move a pointer, not a future of kilobytes. A listen
            // stream, which lasts, is set up apart and then holds its stream's future alone,
            // not that of `answer`'s largest path nor what its setup read.
            let outcome = if method == Method::Listen {
                let listening = Box::pin(self.listen(&id, params, &connection, scope))
                    .instrument(span.clone())
                    .await;
                listening.instrument(span.clone()).await
            } else {
                Box::pin(self.answer(&id, &method, params, &connection, scope))
                    .instrument(span.clone())
                    .await
            };
            trace::record_outcome(&span, &outcome);
            match outcome {
                Ok(result) => Response::answer(id, result),
                Err(error) => Response::error(id, error),
            }
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

    /// Checks the request's rate limit, then reads the era it is made in (taking the
    /// 2026-07-28 envelope out of `params`).
    async fn admit(
        &self,
        params: &mut Map<String, Value>,
        connection: &Connection,
        scope: &RequestScope,
    ) -> Result<Era, ErrorObject> {
        // Before anything of the request is looked at: past a limit it is not run.
        let who = Who::of(scope.auth.as_deref().map(AuthInfo::caller), scope.address);
        self.state
            .limits
            .rate
            .check_request(&who)
            .await
            .map_err(|limited| limited.error())?;
        let era = Era::of(params, connection)?;
        trace::record_version(era.version());
        Ok(era)
    }

    /// Answers every request but `subscriptions/listen` ([`Self::listen`]).
    async fn answer(
        &self,
        id: &Id,
        method: &Method,
        mut params: Map<String, Value>,
        connection: &Connection,
        scope: RequestScope,
    ) -> Result<Payload, ErrorObject> {
        debug_assert_ne!(*method, Method::Listen, "a listen is answered apart");
        let era = self.admit(&mut params, connection, &scope).await?;
        if let Some(kind) = Kind::of(method) {
            let view = self.view(&era, connection, scope.auth.as_deref());
            return self
                .through_chain(kind, id, params, &era, connection, (scope, view))
                .await;
        }
        let result = match (era.is_modern(), method) {
            (false, Method::Initialize) => Ok(self.initialize(&params, connection)),
            (false, Method::Ping) => Ok(to_json(&Empty {})),
            (false, Method::SetLogLevel) => set_level(&params, connection),
            (false, Method::Discover) => Err(ErrorObject::invalid_params(format!(
                "server/discover requires `_meta.{}`",
                meta::PROTOCOL_VERSION
            ))),
            (true, Method::Discover) => Ok(self.discover()),
            (false, Method::Subscribe | Method::Unsubscribe)
                if self.state.resources.is_served() && self.state.legacy_changes =>
            {
                let view = self.view(&era, connection, scope.auth.as_deref());
                let listed = self.listable(scope.auth.as_deref(), &view);
                subscriptions::subscribe(method, &params, connection.subscriptions(), &listed)
            }
            (true, Method::TasksGet | Method::TasksUpdate | Method::TasksCancel) => {
                let declared = Client::of(&era, connection).capabilities;
                tasks::answer(
                    &self.state.tasks,
                    method,
                    &params,
                    &declared,
                    scope.auth.as_deref(),
                )
                .await
            }
            #[cfg(feature = "skills")]
            (_, method) if method.is_skills() && !self.state.skills.is_empty() => {
                return self.skills(method, &params, &era);
            }
            _ => Err(method_not_found(method)),
        }?;
        Ok(self.payload(&era, result))
    }

    /// `completion/complete`, within the time limit of a call.
    async fn complete(
        &self,
        params: &Map<String, Value>,
        connection: &Connection,
        scope: &RequestScope,
        view: &View,
    ) -> Result<Value, ErrorObject> {
        let time_limit = self.time_limit(scope);
        let session_id = connection.session_id.clone();
        let completable = self.completable(view);
        complete::complete(params, &completable, time_limit, scope, session_id).await
    }

    /// What this request sees, by tags: the server's rule for its caller, and (legacy) its
    /// session's own choice.
    fn view(&self, era: &Era, connection: &Connection, auth: Option<&AuthInfo>) -> View {
        let rule = self.state.visibility.as_ref().map(|rule| rule(auth));
        let session = (!era.is_modern())
            .then(|| connection.chosen_tags())
            .flatten();
        View::new(rule, session)
    }

    /// Completes at the next change of `connection`'s own choice of tags, with the lists it
    /// changes (those with an item of a tag it named): what the session alone is told.
    pub(crate) async fn own_changes(&self, connection: &Connection) -> Vec<super::Change> {
        self.lists_touched(&connection.tags().next_change().await)
    }

    /// The lists with an item of a tag `changed` names: what a session whose own choice
    /// changed so is told.
    pub(crate) fn lists_touched(&self, changed: &ChangedTags) -> Vec<super::Change> {
        let tagged = |tags: &[String]| changed.touches(tags);
        let tools = self.state.tools.any_tagged(tagged);
        let prompts = self.state.prompts.any_tagged(tagged);
        let listed = self.state.resources.listed();
        let resources = listed
            .resources()
            .iter()
            .chain(listed.templates())
            .any(|resource| tagged(resource.tag_list().names()));
        [
            (tools, super::Change::Tools),
            (prompts, super::Change::Prompts),
            (resources, super::Change::Resources),
        ]
        .into_iter()
        .filter_map(|(changed, change)| changed.then_some(change))
        .collect()
    }

    /// The Skills extension's methods: `skills/list` a shared page, the others answered in
    /// `era`.
    #[cfg(feature = "skills")]
    fn skills(
        &self,
        method: &Method,
        params: &Map<String, Value>,
        era: &Era,
    ) -> Result<Payload, ErrorObject> {
        let served = super::skills::Served {
            skills: &self.state.skills,
            page_size: self.state.page_size,
            ttl_ms: self.state.ttl_ms,
        };
        if *method == Method::ListSkills {
            let info = &self.state.info;
            return super::skills::list(params, era.version(), &served, info).map(Payload::Shared);
        }
        super::skills::answer(method, params, era, &served)
            .unwrap_or_else(|| Err(method_not_found(method)))
            .map(|result| self.payload(era, result))
    }

    /// The resources as of now that `auth`'s scopes and `view` let it list: all it may
    /// subscribe to, so that a subscription tells nothing of a resource hidden from it.
    fn listable(&self, auth: Option<&AuthInfo>, view: &View) -> Arc<crate::registry::Listed> {
        let listed = self.state.resources.listed();
        match listed.visible_to(auth, view).0 {
            Some(visible) => Arc::new(visible),
            None => listed,
        }
    }

    /// `resources/list` and `resources/templates/list`, from the resources as of now that
    /// `auth`'s scopes and the request's view allow (a listing that varies so is `private`).
    fn list_resources(
        &self,
        method: &Method,
        params: &Map<String, Value>,
        era: &Era,
        (auth, view): (Option<&AuthInfo>, &View),
    ) -> Result<Value, ErrorObject> {
        let listed = self.state.resources.listed();
        let (visible, varies) = listed.visible_to(auth, view);
        let served = resources::Served {
            resources: visible.as_ref().unwrap_or(&listed),
            page_size: self.state.page_size,
            ttl_ms: self.state.ttl_ms,
        };
        let mut result = resources::answer(method, params, era, &served)
            .unwrap_or_else(|| Err(method_not_found(method)))?;
        if varies {
            listing::private(&mut result);
        }
        Ok(result)
    }

    /// `result` as it is answered in `era`: at 2026-07-28 with its `resultType` and the
    /// server's `_meta` (stamped as it is written when it has no `_meta` of its own).
    fn payload(&self, era: &Era, mut result: Value) -> Payload {
        if let (true, Value::Object(result)) = (era.is_modern(), &mut result) {
            if result.field("_meta").is_none() {
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

    /// `subscriptions/listen`, a stream in 2026-07-28 (unknown before): set up (its
    /// acknowledgement sent), the future that runs it until it ends, which holds the stream
    /// alone; refused, a future of its refusal.
    async fn listen(
        &self,
        id: &Id,
        params: Map<String, Value>,
        connection: &Connection,
        scope: RequestScope,
    ) -> BoxFuture<'static, Result<Payload, ErrorObject>> {
        let (era, mut stream) = match self.open_listen(id, params, connection, scope).await {
            Ok(opened) => opened,
            Err(refused) => return Box::pin(std::future::ready(Err(refused))),
        };
        let dispatcher = self.clone();
        // The stream is borrowed where the block holds it, not moved into a future of its own
        // (which would hold it twice).
        Box::pin(async move {
            let result = stream.run(&dispatcher.state.closing).await?;
            Ok(dispatcher.payload(&era, result))
        })
    }

    /// Reads a `subscriptions/listen` request: its era and its stream.
    async fn open_listen(
        &self,
        id: &Id,
        mut params: Map<String, Value>,
        connection: &Connection,
        scope: RequestScope,
    ) -> Result<(Era, listen::ListenStream), ErrorObject> {
        let era = self.admit(&mut params, connection, &scope).await?;
        if !era.is_modern() {
            return Err(method_not_found(&Method::Listen));
        }
        let (requested, followed) = self.listen_to(params, &era, connection, &scope).await?;
        let stream = listen::ListenStream::new(id, requested, (self.changes(), followed), scope);
        Ok((era, stream))
    }

    /// What a `subscriptions/listen` request (2026-07-28) asks for, honoured as far as served
    /// (its `taskIds` only the caller's own): what its stream ([`listen::ListenStream`]) follows.
    async fn listen_to(
        &self,
        params: Map<String, Value>,
        era: &Era,
        connection: &Connection,
        scope: &RequestScope,
    ) -> Result<(Requested, Option<listen::FollowedTasks>), ErrorObject> {
        let offered = Lists::declared(&self.capabilities());
        let view = self.view(era, connection, scope.auth.as_deref());
        let listed = self
            .state
            .resources
            .is_served()
            .then(|| self.listable(scope.auth.as_deref(), &view));
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
            scope.auth.as_deref(),
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
                    tasks::owner(scope.auth.as_deref()),
                )
            });
        Ok((requested, followed))
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
                .prompts_and_completions(
                    self.serves_prompts(),
                    self.completable(&View::default()).any(),
                );
        #[cfg(feature = "skills")]
        let capabilities = capabilities.skills(!self.state.skills.is_empty());
        capabilities
    }

    /// Whether prompts are served: there are some, or some may be added.
    fn serves_prompts(&self) -> bool {
        self.state.prompts_handle || !self.state.prompts.is_empty()
    }

    /// What `completion/complete` completes, of what `view` shows.
    fn completable<'a>(&'a self, view: &'a View) -> complete::Completable<'a> {
        complete::Completable {
            prompts: &self.state.prompts,
            resources: self.state.resources.listed().seen_through(view),
            states: &self.state.states,
            view,
        }
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
