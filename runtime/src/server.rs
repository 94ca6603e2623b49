//! [`Server`]: the builder users start from. It collects the tools and resources, and hands a
//! [`Dispatcher`] to the transport it is asked to serve on; it knows no transport's internals.

use std::sync::Arc;
use std::time::Duration;

use std::future::Future;

use crate::error::Error;
use crate::hook::{self, CallOutcome, Hook, Next, ToolCall};
use crate::limits::Limits;
use crate::middleware::{self, Middleware};
use crate::protocol::{CHANNEL_CAPACITY, ChangeSender};
use crate::registry::{self, PromptSet, RegistryError, ResourceSet, ToolSet};
use crate::state::StateMap;
use crate::task::{TaskSettings, TaskStore};
#[cfg(feature = "http")]
use crate::transport::http::HttpConfig;
use crate::types::Icon;

mod handles;
mod serving;

pub use handles::{Prompts, Resources, Tools};

/// An MCP server for every `#[tool]`, `#[prompt]` and `#[resource]` in the binary.
///
/// ```no_run
/// # async fn run() -> std::process::ExitCode {
/// mcp_toolbelt::Server::new("weather", "1.0.0")
///     .instructions("Ask for the weather of one city at a time.")
///     .run()
///     .await
/// # }
/// ```
///
/// `Server` is the builder: `serve_*` and [`run`](Server::run) consume it, and it is not
/// `Clone` (a clone would share the tools but not the state, hooks or limits given after it).
/// What changes while it serves is reached through a handle of its own, [`Server::tools`] and
/// [`Server::resources`].
///
/// # Limits
///
/// Every limit a client can reach on any transport, with a default safe for a local server
/// (those of Streamable HTTP alone are on `HttpConfig`, in [`http`](crate::http)). The protocol
/// leaves a server's limits to it, and reports a tool's own failures as results: a call past its
/// time limit is an `isError` result the model reads, not a protocol error.
///
/// | limit (setter) | default | past it |
/// | --- | --- | --- |
/// | [`Server::call_timeout`] | 5 min of the call's own time: waiting for the client's answer to a question (each bounded by [`ASK_TIMEOUT`](crate::ask::ASK_TIMEOUT), 10 min) does not count | the call's `Context` is cancelled and its future dropped (the tool stops at its next `.await`); it answers `isError`: `Error executing tool NAME: it ran longer than its time limit of 300s and was stopped`; a prompt's get or a resource's read, bounded alike, answers `-32603` saying the same |
/// | [`Server::max_calls_in_flight`] (per connection: the stdio client, a legacy HTTP session) | 1,024 | the request is refused at once with JSON-RPC error `-31000` (`Server busy: …`); the connection goes on reading, so `notifications/cancelled` still arrive |
/// | [`Server::max_batch_items`] (2025-03-26 batches) | 1,024 | the whole batch is refused, `-32600` (`a batch of N items; at most 1024 are taken`), none of it runs |
/// | [`Server::max_line_bytes`] (stdio message size) | 4 MiB | the line is discarded whole, up to its newline, and answered `-32600` |
/// | [`Server::max_queued_messages`] (stdio output not yet written) | 1,024 answers, and 1,024 notifications | answers (responses, requests to the client): the server stops reading stdin until the client reads some output; notifications: progress and log notifications from running tools are dropped (logged), and reading goes on |
/// | [`Server::max_queued_messages`] (HTTP: one call's event stream not yet read) | 1,024 messages | that call's progress and log notifications are dropped (logged); its response and its requests to the client wait for room |
/// | changes held per listener (`list_changed`, `resources/updated`: a stdio connection's announcements and its listen streams together; one HTTP `subscriptions/listen` stream; set with [`Server::max_queued_messages`]) | 1,024 notifications not yet written, then 1,024 changes in the server's channel (not settable) | none is dropped: the listener waits for its client to read before it takes the next change; once more than the channel holds went by, it is told that every list it hears changed and that every URI it subscribed to was updated (read them again); a `subscriptions/listen` stream subscribed to a template ends with its result instead (listen again). A legacy HTTP GET stream takes changes only as its client reads, with the same channel |
/// | [`Server::max_request_memory`] (what the requests in flight hold together: the stdio client's; over HTTP, every client's) | 64 MiB (a request holds its message as parsed until it is answered; see the setter) | HTTP: `503` with `Retry-After`; stdio: `-31000` (`Server busy: …`), and reading goes on. Notifications and responses are always taken. A message that would hold more than the whole budget by itself: `413` over HTTP, `-32600` on stdio |
/// | resource subscriptions per connection (a legacy client's `resources/subscribe`, on stdio or in an HTTP session) or per `subscriptions/listen` stream (not settable) | 10,000 URIs and templates, 1 MiB of them together | `resources/subscribe` answers `-32602` (`a connection may subscribe to at most 10000 resources at once, …`); a listen request's `resourceSubscriptions` past it are left out of its acknowledgement |
/// | resource subscriptions of every connection and listen stream together (server-wide; set with [`Server::max_request_memory`], counted apart from requests) | as much memory as `max_request_memory` (64 MiB: each subscription counts its URI and 64 bytes, a template its URI three times) | the same `-32602` on any connection, and the same leaving out of an acknowledgement, until a subscription is undone or its listener ends |
/// | `tools/list` pages kept, serialized once (not settable): one per protocol version, page start, set of the declared scopes the caller holds ([`scopes`](macro@crate::tool): a caller sees only the tools its scopes allow) and view (the visibility rule's answer, the session's own tags), shared by the callers alike in these | 256 pages and 16 MiB together (each page counted as its JSON, its key's scopes and view and 128 bytes); all dropped when the tool set changes | a page past either is built for its request alone and not kept: the same answer, built each time |
/// | a client's declared capabilities, as a legacy session, a running task or a session's Redis record keeps them (not settable) | what the server reads of them, never the client's tree: the names of at most 32 capabilities and 32 extensions, each at most 128 bytes, elicitation's modes and sampling's `tools` (a few hundred bytes, however large `capabilities` was) | names past those are not seen: a tool's `requires_client_capabilities` finds such a capability missing |
/// | tags a legacy session enabled or disabled for itself ([`Context::enable_tags`](crate::Context::enable_tags), `disable_tags`; kept for the session's life, with Redis in its record; not settable) | 4 KiB: each tag's length and 16 bytes | the change is refused, [`VisibilityError::TooLarge`](crate::VisibilityError::TooLarge), and nothing changes; `reset_tags` starts again |
/// | tasks one `subscriptions/listen` stream follows (its `taskIds`; not settable) | 1,024 ids: the first so many distinct ids of the shape the server mints, read from the store in one call | the rest are left out of its acknowledgement, as another's or an unknown task is |
/// | [`Server::max_tasks`] (tasks running at once in this process; the tasks extension, [`task`](crate::task); with a store shared by several processes, each counts its own) | 1,024 | a `task = "required"` call is refused with JSON-RPC error `-31000` (`Too many tasks: the server runs 1024 at most; …`); a `#[tool(task)]` call runs as an ordinary call, within its request |
/// | [`Server::max_tasks_per_principal`] (tasks running at once in this process for one authenticated caller; a caller without auth is bound by `max_tasks` alone, as HTTP's per-principal caps are) | 64 | the same, `-31000` (`Too many tasks: one principal runs 64 at most; …`) |
/// | [`Server::rate_limit`], `#[tool(rate_limit = "N/UNIT")]` ([`Tool::rate_limit`](crate::tool::Tool::rate_limit)): requests per principal (every request; a tool's calls) | none | the request is not run: JSON-RPC error `-32029` (`Rate limit exceeded: …`) with `data.retryAfterMs`; over HTTP `429` with `Retry-After` (seconds, rounded up), in both eras |
/// | principals each limit keeps (the server's, and each tool's with a limit of its own; in this process, or, with Redis, while Redis is down; not settable) | 65,536 principals, at most 80 bytes each (a fixed-size key: a token's client and subject are kept hashed; 5.3 MB per limit at most), a principal forgotten once its budget is whole again (swept once per period, at least a second apart) | a new principal while every place is taken by one still counting shares one budget with every other newcomer until room is made; those counted keep theirs |
/// | [`Server::task_timeout`] (how long a task may run) | 1 hour | its `Context` is cancelled, a second's grace, then the task is `failed` (`statusMessage`: `The task ran past its time limit …`) |
/// | [`Server::task_ttl`] (how long a task is kept past its run limit) | 1 hour: its `ttlMs`, fixed at its creation, is `task_timeout` + `task_ttl` (2 hours) | `tasks/get`, `tasks/update` and `tasks/cancel` answer `-32602` (`Failed to retrieve task: Task not found: …`), as for an unknown id |
/// | finished tasks kept until their TTL (in this process's memory, or in Redis with `redis::RedisTaskStore` (feature `redis`)): [`Server::max_finished_tasks`], [`Server::max_finished_task_bytes`] (each task counted as the memory its record holds, its result included; in Redis, its record's JSON text) | 10,000 tasks, 128 MiB | the oldest finished task is dropped first: its `tasks/get` answers `-32602`, as for an unknown id |
/// | one principal's finished tasks (every unauthenticated caller counts as one): [`Server::max_finished_tasks_per_principal`], [`Server::max_finished_task_bytes_per_principal`] | 1,000 tasks, 32 MiB | that principal's oldest finished task is dropped first, no one else's. A task whose result alone is past either byte budget is kept as `failed`, `-32603` (`The task finished, but its result is too large to keep: N bytes, …`) |
/// | `requestState` life (2026-07-28 rounds; not settable) | 10 min from the round that sealed it, usable any number of times within it; valid on every server holding its key ([`ask`](crate::ask)) | the retry is refused, `-32602` `Invalid or expired requestState`; the client calls again from the start |
/// | 128-bit integers (`u128`, `i128`) as JSON numbers (not settable: what `serde_json` reads and writes exactly) | from `i64::MIN` to `u64::MAX`, as their input schema's `minimum`/`maximum` say | an argument past it is refused by validation; a `Json<T>` result past it is an `isError` result naming the field (`Output serialization error: entries.0.id: integer out of range: …`). Send larger ones as strings |
/// | floats in a `Json<T>` result (not settable: JSON has no NaN or infinity) | finite | an `isError` result naming the field; in a field that may be `null` (`Option<f64>`) a NaN or infinity is sent as `null`, as `None` is |
///
/// ## Back-pressure on stdio
///
/// Past `max_calls_in_flight` new requests are refused at once while reading goes on, so the
/// cancellation that frees a place is read and acted on. When `max_queued_messages` answers
/// wait because the client does not read, the server stops reading; every waiting answer was
/// caused by a line already read, the calls running go on, and as soon as the client reads, the
/// queue drains and reading resumes: whatever the client sent meanwhile, cancellations included,
/// waits in the pipe and is read in order. Notifications are bounded apart and never stop the
/// reading: a tool that floods progress to a slow client loses progress, not its cancellation.
///
/// This is safe for a client that reads the server's output while it writes (every MCP SDK does,
/// with a reader task or thread). A client that writes all its requests before reading any
/// answer deadlocks once it has written more than the server queues plus what the two pipes and
/// its write buffer hold (a few thousand small requests with the defaults: 4,400 pings over
/// 64 KiB pipes; fewer when answers are large): read concurrently with writing, or raise
/// `max_queued_messages` above what such a client sends at once. A client that closes the
/// server's stdout has left: its calls are cancelled and the server ends.
///
/// What a message costs is what it needs: the members of `params` no method reads are skipped
/// as they are read, never built (a 4 MiB array of zeros nobody reads costs nothing, where built
/// it would cost some 150 MiB), the body is dropped once parsed, and a `subscriptions/listen`
/// stream keeps nothing of its request. 20 such streams and 20 running calls, each sent a 4 MiB
/// body, leave the repository's catalog example under 256 MiB.
pub struct Server {
    name: String,
    version: String,
    title: Option<String>,
    description: Option<String>,
    website_url: Option<String>,
    icons: Vec<Icon>,
    instructions: Option<String>,
    page_size: usize,
    cache_ttl: Duration,
    limits: Limits,
    #[cfg(feature = "http")]
    http: HttpConfig,
    tools: Arc<ToolSet>,
    prompts: Arc<PromptSet>,
    /// Whether a handle to the prompts was taken: then they are served even while none are.
    prompts_handle: std::sync::atomic::AtomicBool,
    resources: Arc<ResourceSet>,
    startup_error: Option<RegistryError>,
    changes: ChangeSender,
    states: StateMap,
    hooks: Vec<Hook>,
    /// The middleware, outermost first.
    middleware: Vec<Middleware>,
    /// The key that seals `requestState`.
    request_state_key: Option<[u8; 32]>,
    /// The other key it opens during a rotation.
    previous_request_state_key: Option<[u8; 32]>,
    /// Where the `requestState` key came from, when not from [`Server::request_state_key`].
    request_state_key_source: Option<String>,
    /// See [`Server::accept_early_answers`].
    early_answers: bool,
    /// The skills served ([`Server::skills_dir`], [`Server::skill`]); their files are among
    /// `resources`.
    #[cfg(feature = "skills")]
    skills: Vec<crate::skill::SkillEntry>,
    /// Where tasks are kept ([`Server::task_store`]); `None`: in memory, or in Redis when
    /// served over HTTP with one.
    task_store: Option<Arc<dyn TaskStore>>,
    /// The `task_*` settings and the task caps.
    task_settings: TaskSettings,
    /// What each caller sees of what is served ([`Server::visibility`]).
    visibility: Option<crate::protocol::VisibilityRule>,
}

impl Server {
    /// A server named `name` at `version` (usually `env!("CARGO_PKG_VERSION")`), serving every
    /// `#[tool]` linked into the binary.
    #[must_use]
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        let (tools, resources, mut startup_error) = match registry::served() {
            Ok((tools, resources)) => (
                ToolSet::new(tools.iter().cloned()),
                ResourceSet::new(resources),
                None,
            ),
            Err(error) => (ToolSet::default(), ResourceSet::default(), Some(error)),
        };
        let prompts = match registry::collected_prompts() {
            Ok(prompts) => PromptSet::new(prompts.iter().cloned()),
            Err(error) => {
                startup_error = Some(RegistryError::joined(startup_error, error));
                PromptSet::default()
            }
        };
        let mut server = Self {
            name: name.into(),
            version: version.into(),
            title: None,
            description: None,
            website_url: None,
            icons: Vec::new(),
            instructions: None,
            page_size: usize::MAX,
            cache_ttl: Duration::from_mins(1),
            limits: Limits::default(),
            #[cfg(feature = "http")]
            http: HttpConfig::default(),
            tools: Arc::new(tools),
            prompts: Arc::new(prompts),
            prompts_handle: std::sync::atomic::AtomicBool::new(false),
            resources: Arc::new(resources),
            startup_error,
            changes: ChangeSender::new(CHANNEL_CAPACITY),
            states: StateMap::default(),
            hooks: Vec::new(),
            middleware: Vec::new(),
            request_state_key: None,
            previous_request_state_key: None,
            request_state_key_source: None,
            early_answers: false,
            #[cfg(feature = "skills")]
            skills: Vec::new(),
            task_store: None,
            task_settings: TaskSettings::default(),
            visibility: None,
        };
        // The server's own handles are app state from the start: a call reaches them through
        // its `Context` (`Context::resources`, …) or a `State<Resources>` parameter, with
        // nothing to register. The prompts' is taken without declaring the capability, as
        // `Server::prompts` would.
        let handles = (
            server.tools(),
            server.prompts_unopened(),
            server.resources(),
        );
        server.states.insert(handles.0);
        server.states.insert(handles.1);
        server.states.insert(handles.2);
        server
    }

    /// Where tasks are kept (see [`task`](crate::task)): [`MemoryTaskStore`](crate::task::MemoryTaskStore) unless set, or,
    /// serving HTTP with Redis (feature `redis`), `RedisTaskStore` in that Redis. A store shared
    /// by several processes lets any of them answer `tasks/get`.
    #[must_use]
    pub fn task_store(mut self, store: impl TaskStore) -> Self {
        self.task_store = Some(Arc::new(store));
        self
    }

    /// How long a call of a `#[tool(task)]` tool may run within its request before it becomes a
    /// task, for a client that negotiated the extension. `Duration::ZERO` (the default): it is a
    /// task at once. Within the budget the call is an ordinary one: it answers with its result
    /// (a `task = "required"` tool with a task already completed), and its questions take the
    /// request's own way (a 2026-07-28 `input_required` round).
    #[must_use]
    pub fn task_budget(mut self, budget: Duration) -> Self {
        self.task_settings.budget = budget;
        self
    }

    /// How long a task is kept for `tasks/get` past its run limit ([`Server::task_timeout`];
    /// 1 hour by default; at least 100 ms, so that a finished task can be read at all). Its
    /// `ttlMs`, counted from its creation and fixed then, is the run limit plus this; past it,
    /// the task is unknown (`-32602`).
    #[must_use]
    pub fn task_ttl(mut self, ttl: Duration) -> Self {
        self.task_settings.ttl = ttl.max(Duration::from_millis(100));
        self
    }

    /// How long a task may run (1 hour by default, apart from [`Server::task_ttl`], which only
    /// says how long a finished task is kept). Past it the tool's
    /// `Context` is cancelled, it has a second to return, and the task is `failed` with a
    /// `statusMessage` saying so: a hung tool never holds its place for ever.
    #[must_use]
    pub fn task_timeout(mut self, timeout: Duration) -> Self {
        self.task_settings.timeout = timeout.max(Duration::from_millis(1));
        self
    }

    /// How often a client should poll a task (its `pollIntervalMs`; 1 s by default).
    #[must_use]
    pub fn task_poll_interval(mut self, interval: Duration) -> Self {
        self.task_settings.poll_interval = interval;
        self
    }

    /// The most finished tasks kept for `tasks/get` until their TTL (10,000 by default, at least
    /// 1; see the Limits table): past it the oldest finished task is dropped first. It applies to
    /// the store the server picks ([`MemoryTaskStore`](crate::task::MemoryTaskStore), or with Redis
    /// `redis::RedisTaskStore` (feature `redis`)); a store given to
    /// [`Server::task_store`] keeps its own settings (`MemoryTaskStore::within`, `task::FinishedCaps`).
    #[must_use]
    pub fn max_finished_tasks(mut self, max: usize) -> Self {
        self.task_settings.finished.count = max.max(1);
        self
    }

    /// The most finished tasks of one principal kept (1,000 by default, at least 1; every
    /// unauthenticated caller counts as one): past it that principal's oldest finished task is
    /// dropped first. As [`Server::max_finished_tasks`], for the store the server picks.
    #[must_use]
    pub fn max_finished_tasks_per_principal(mut self, max: usize) -> Self {
        self.task_settings.finished.count_per_owner = max.max(1);
        self
    }

    /// The most bytes the finished tasks kept hold together (128 MiB by default), each counted
    /// as the memory its record holds, its result included (in Redis, its record's JSON text): past it the oldest finished tasks are
    /// dropped first. As [`Server::max_finished_tasks`], for the store the server picks.
    #[must_use]
    pub fn max_finished_task_bytes(mut self, max: usize) -> Self {
        self.task_settings.finished.bytes = max;
        self
    }

    /// The most bytes one principal's finished tasks kept hold together (32 MiB by default):
    /// past it that principal's oldest finished tasks are dropped first, and a task whose result
    /// alone is larger (or larger than [`Server::max_finished_task_bytes`]) is kept as `failed`,
    /// its `statusMessage` saying the result was too large to keep. As
    /// [`Server::max_finished_tasks`], for the store the server picks.
    #[must_use]
    pub fn max_finished_task_bytes_per_principal(mut self, max: usize) -> Self {
        self.task_settings.finished.bytes_per_owner = max;
        self
    }

    /// The most tasks that may run at once, server-wide (1,024 by default; see the Limits
    /// table).
    #[must_use]
    pub fn max_tasks(mut self, max: usize) -> Self {
        self.limits.tasks = max.max(1);
        self
    }

    /// The most tasks one principal (one authenticated caller) may run at once (64 by default;
    /// see the Limits table). A caller without auth is bound by [`max_tasks`](Self::max_tasks)
    /// alone: nothing tells anonymous callers apart that they could not multiply.
    #[must_use]
    pub fn max_tasks_per_principal(mut self, max: usize) -> Self {
        self.limits.tasks_per_principal = max.max(1);
        self
    }

    /// At most `limit` requests for each principal, in bursts of up to its count (GCRA: the
    /// budget refills one request every `period / count`). Every JSON-RPC request counts, on
    /// every transport and in both eras (`initialize` and `ping` too); notifications and the
    /// client's responses to the server's requests never do. A tool's own
    /// `#[tool(rate_limit = "N/UNIT")]` ([`Tool::rate_limit`](crate::tool::Tool::rate_limit))
    /// counts that tool's calls on top. `run()` gives `--rate-limit N/UNIT`
    /// (`MCP_RATE_LIMIT`), which replaces this.
    ///
    /// A principal is the verified token's client and subject (HTTP with auth); without a
    /// token, the client's IP address (an IPv6 client by its `/64`; behind a proxy named by
    /// `HttpConfig::trust_proxy`, the address it
    /// forwarded); over stdio (and the test client), the one client.
    ///
    /// Past a limit the request is not run: it answers JSON-RPC error `-32029`
    /// (`Rate limit exceeded: …`) whose `data.retryAfterMs` says when the principal may try
    /// again; over HTTP with status `429` and `Retry-After` (the seconds, rounded up), in both
    /// eras. With Redis (`HttpConfig::redis`, feature `redis`) the count is every replica's
    /// together (see the `redis` module). What it keeps is in the Limits
    /// table.
    ///
    /// ```no_run
    /// use mcp_toolbelt::{RateLimit, Server};
    ///
    /// let limit: RateLimit = "600/min".parse().expect("N/UNIT");
    /// let server = Server::new("notes", "1.0.0").rate_limit(limit);
    /// # let _ = server;
    /// ```
    #[must_use]
    pub fn rate_limit(mut self, limit: crate::RateLimit) -> Self {
        self.limits.rate.set_server(limit);
        self
    }

    /// Serves only the tools, resources and prompts tagged with at least one of `tags`
    /// (`tags(…)` on the attributes, `.tags([…])` on the run-time builders); an untagged item is
    /// not served. What a server does not serve is absent from its listings and unknown to
    /// `tools/call`, `resources/read`, `prompts/get` and `completion/complete` (the same error as
    /// for a name nothing registered), and unseen by `--lint` and `--list-tools`.
    ///
    /// The selection applies to every item, whenever added: one added later through
    /// [`Server::tools`], [`Server::resources`], [`Server::prompts`] or a call's `Context` is
    /// served only if the selection serves it (`add` answers `Ok` either way). Calls add up:
    /// `only_tags(["a"]).only_tags(["b"])` serves items tagged `a` or `b`; an empty list changes
    /// nothing. With
    /// [`without_tags`](Self::without_tags) too, an item is served when it has one of these tags
    /// and none of those. A skill's files are not tagged items: every selection serves them.
    /// `run()` adds `--only-tags a,b` (`MCP_ONLY_TAGS`) to what the code chose. Each `Server`
    /// has its own selection: two in one binary can serve two sets.
    ///
    /// ```no_run
    /// use mcp_toolbelt::Server;
    ///
    /// // An endpoint for the beta tools, another for everything but the admin ones.
    /// let beta = Server::new("beta", "1.0.0").only_tags(["beta"]);
    /// let public = Server::new("public", "1.0.0").without_tags(["admin"]);
    /// # let _ = (beta, public);
    /// ```
    #[must_use]
    pub fn only_tags<I, S>(self, tags: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let tags: Vec<String> = tags.into_iter().map(Into::into).collect();
        self.select(|selection| selection.only(tags.iter().cloned()))
    }

    /// Serves no tool, resource or prompt tagged with any of `tags`; untagged items are
    /// served. It wins over [`only_tags`](Self::only_tags) for an item tagged from both, and
    /// applies as it does: to every item, whenever added; calls add up. `run()` adds
    /// `--without-tags c` (`MCP_WITHOUT_TAGS`) to what the code chose.
    #[must_use]
    pub fn without_tags<I, S>(self, tags: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let tags: Vec<String> = tags.into_iter().map(Into::into).collect();
        self.select(|selection| selection.without(tags.iter().cloned()))
    }

    /// Decides, for each caller, what it sees of what the server serves, by tags: `rule` is
    /// given the caller's [`AuthInfo`](crate::context::AuthInfo) (`None` without auth: stdio,
    /// or HTTP without a token verifier) and answers a [`Visibility`](crate::Visibility). What
    /// it hides from a caller is absent from that caller's listings and unknown to its
    /// `tools/call`, `resources/read`, `prompts/get` and `completion/complete` (the error of a
    /// name nothing registered), in both eras: a 2026-07-28 request has no session, so this is
    /// how it sees less.
    ///
    /// It applies within what the server serves ([`only_tags`](Self::only_tags),
    /// [`without_tags`](Self::without_tags): nothing shows what they leave out), and a legacy
    /// session's own choice ([`Context::enable_tags`](crate::Context::enable_tags),
    /// [`disable_tags`](crate::Context::disable_tags)) wins over it for the tags it names: a tool
    /// that unlocks tags decides who may. The rule runs once per request, so keep it cheap (a
    /// look at the scopes). While a rule is set, 2026-07-28 listings and reads say
    /// `cacheScope: "private"`.
    ///
    /// ```no_run
    /// use mcp_toolbelt::{Server, Visibility};
    ///
    /// // Admin tools only for tokens granting `admin`; beta tools hidden until a session
    /// // unlocks them (`ctx.enable_tags(["beta"])`).
    /// let server = Server::new("notes", "1.0.0").visibility(|caller| match caller {
    ///     Some(auth) if auth.scopes.iter().any(|scope| scope == "admin") => {
    ///         Visibility::all().without(["beta"])
    ///     }
    ///     _ => Visibility::all().without(["admin", "beta"]),
    /// });
    /// # let _ = server;
    /// ```
    #[must_use]
    pub fn visibility(
        mut self,
        rule: impl Fn(Option<&crate::context::AuthInfo>) -> crate::Visibility + Send + Sync + 'static,
    ) -> Self {
        self.visibility = Some(Arc::new(rule));
        self
    }

    /// Narrows the selection of each live set the same way.
    fn select(self, narrow: impl Fn(&mut registry::Selection)) -> Self {
        self.tools.select(&narrow);
        self.prompts.select(&narrow);
        self.resources.select(&narrow);
        self
    }

    /// A display name for hosts.
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// What the server is for, in a sentence people read where a host lists its servers (sent
    /// to clients of 2025-11-25 and later, as [`website_url`](Self::website_url) and
    /// [`icon`](Self::icon)).
    #[must_use]
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// The server's web site (`websiteUrl`), where people learn more about it.
    #[must_use]
    pub fn website_url(mut self, url: impl Into<String>) -> Self {
        self.website_url = Some(url.into());
        self
    }

    /// Adds an icon hosts may show beside the server (call it again for another size or theme).
    /// Its values are not checked here: `--lint` checks them as `#[tool(icons(…))]` does at
    /// compile time (an `https:` or `data:` source, a known image type, sizes `WxH` or `any`).
    ///
    /// The server's `serverInfo` rides on every 2026-07-28 result (`_meta`), so its icons do
    /// too: keep a [`data:`](Icon::data) icon small, or serve the image from an `https:` URL.
    ///
    /// ```no_run
    /// use mcp_toolbelt::icon::{Icon, IconTheme};
    ///
    /// # async fn run() -> std::process::ExitCode {
    /// mcp_toolbelt::Server::new("weather", "1.0.0")
    ///     .description("Forecasts for any city")
    ///     .website_url("https://example.com/weather")
    ///     .icon(Icon::new("https://example.com/weather.png").mime_type("image/png").sizes(["48x48"]))
    ///     .icon(Icon::new("https://example.com/weather-dark.svg").sizes(["any"]).theme(IconTheme::Dark))
    ///     .run()
    ///     .await
    /// # }
    /// ```
    #[must_use]
    pub fn icon(mut self, icon: Icon) -> Self {
        self.icons.push(icon);
        self
    }

    /// Instructions for the model on how to use these tools.
    #[must_use]
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// Serves the skills of the folder at `path` (the Skills extension): each sub-folder
    /// holding a `SKILL.md` is a skill named after it, with every file under it (hidden ones,
    /// a leading `.`, left out; files beside the sub-folders ignored). Read now, so a
    /// folder that cannot be read, a symbolic link or special file in it, or a skill whose
    /// `SKILL.md` or files break the rules, stops the server at start-up ([`Server::check`],
    /// every `serve_*`), naming the file and the field; see the [`skill`](crate::skill) module.
    ///
    /// A relative `path` is read from the current directory, which is the host's choice (often
    /// `/` or the home folder) for a stdio server: write
    /// `concat!(env!("CARGO_MANIFEST_DIR"), "/skills")`, or embed the skills with
    /// [`Server::skill`].
    ///
    /// Requires the `skills` feature (on by default).
    #[cfg(feature = "skills")]
    #[must_use]
    pub fn skills_dir(mut self, path: impl AsRef<std::path::Path>) -> Self {
        let (skills, problems) = crate::skill::Skill::read_dir(path.as_ref());
        for problem in problems {
            self.add_startup_problem(problem);
        }
        skills.into_iter().fold(self, Self::skill)
    }

    /// Serves `skill`, built in code (its `SKILL.md` and files `include_str!`'d, for a server
    /// shipped as one binary). Checked now: a bad front matter stops the server at start-up;
    /// see the [`skill`](crate::skill) module.
    ///
    /// Requires the `skills` feature (on by default).
    #[cfg(feature = "skills")]
    #[must_use]
    pub fn skill(mut self, skill: crate::skill::Skill) -> Self {
        match skill.prepare() {
            Ok((entry, files)) => {
                if let Some(problem) = entry.clash(&self.skills) {
                    self.add_startup_problem(problem);
                    return self;
                }
                let mut inserted = true;
                for file in files {
                    if let Err(problem) = self.resources.insert(file) {
                        self.add_startup_problem(problem);
                        inserted = false;
                    }
                }
                if inserted {
                    self.skills.push(entry);
                }
            }
            Err(problems) => {
                for problem in problems {
                    self.add_startup_problem(problem);
                }
            }
        }
        self
    }

    /// Keeps `problem` for [`Server::check`], next to the others.
    #[cfg(feature = "skills")]
    fn add_startup_problem(&mut self, problem: RegistryError) {
        self.startup_error = Some(RegistryError::joined(self.startup_error.take(), problem));
    }

    /// How many items one page of `tools/list`, `prompts/list`, `resources/list`,
    /// `resources/templates/list` and `skills/list` holds (default: all of them, one page). The
    /// spec leaves the page size to the server, and a host that never follows `nextCursor`
    /// would see only the first page: set one for a client that wants its lists in pieces.
    #[must_use]
    pub fn page_size(mut self, page_size: usize) -> Self {
        self.page_size = page_size.max(1);
        self
    }

    /// How long a 2026-07-28 client may cache `tools/list`, `prompts/list`, `server/discover`,
    /// `resources/list`, `resources/templates/list`, `skills/list`, `skills/get` and a
    /// `static`/`const` resource's (or a skill file's) contents (default one
    /// minute; sent as `ttlMs`, in whole milliseconds).
    #[must_use]
    pub fn cache_ttl(mut self, ttl: Duration) -> Self {
        self.cache_ttl = ttl;
        self
    }

    /// Whether a 2026-07-28 request's `inputResponses` may answer questions that no earlier
    /// round asked (default: no). Off, an answer counts only for a question the previous round
    /// asked (sealed in its `requestState`), so a first request cannot bring its own
    /// confirmation of a tool that confirms before it acts. On, a client may answer in advance
    /// and save a round trip; the conformance suite's `input-required-result-ignore-extra-params`
    /// expects it. Turn it on only when no tool relies on a question being asked first. Either
    /// way, a value under a key no question asked that is not an object (no answer can be) is
    /// ignored, not refused.
    #[must_use]
    pub fn accept_early_answers(mut self, accept: bool) -> Self {
        self.early_answers = accept;
        self
    }

    /// The key that seals a 2026-07-28 `requestState` (the answers of a tool that asks the client,
    /// carried by the client between rounds). Without one a key is drawn at start, so state
    /// lives as long as the process; give every replica behind a load balancer the same key
    /// (kept secret) and any of them takes any round.
    ///
    /// `run()` reads it from `--request-state-key-file PATH` or `MCP_REQUEST_STATE_KEY`.
    #[must_use]
    pub fn request_state_key(mut self, key: [u8; 32]) -> Self {
        self.request_state_key = Some(key);
        self
    }

    /// During a key rotation, the other key `requestState` is opened with (never sealed with),
    /// so that a round sealed with it (by this replica or another) still completes: the previous
    /// key, or, in the first step of a rolling rotation, the next one. It takes effect beside a
    /// [`request_state_key`](Self::request_state_key) (without one, a key is drawn at start and
    /// this is ignored).
    ///
    /// To roll the key of replicas updated one at a time without failing a round: give each
    /// `old` as the key and `new` as this one (it opens state of both and still seals with
    /// `old`), then each `new` as the key and `old` as this one, then, ten minutes (the state's
    /// life) after the last one switched, `new` alone. Replicas restarted all at once can go
    /// straight to the second step.
    #[must_use]
    pub fn previous_request_state_key(mut self, key: [u8; 32]) -> Self {
        self.previous_request_state_key = Some(key);
        self
    }

    /// The longest stdio line accepted, in bytes (default 4 MiB); a longer one is answered with an
    /// error and discarded.
    #[must_use]
    pub fn max_line_bytes(mut self, max_line_bytes: usize) -> Self {
        self.limits.max_line_bytes = max_line_bytes.max(1);
        self
    }

    /// How long one tool call may run (default 5 minutes), on every transport; over HTTP, the
    /// request time limit ([`HttpConfig::request_timeout`]) bounds it too, whichever is shorter.
    /// Past it the call's [`Context`](crate::Context) is cancelled and its future dropped (a tool
    /// stopped at its next `.await`), and it answers an `isError` result naming the limit, so
    /// the model learns what happened: the protocol leaves a server's limits to it, and reports
    /// a tool's failures as results. A prompt's `prompts/get` and a resource's `resources/read`
    /// run within the same limit, and answer `-32603` past it.
    ///
    /// The time a call waits for the client's answer to a question
    /// ([`Context::elicit`](crate::Context::elicit), `sample`, `roots`) does not count: a person
    /// may take minutes to answer, and each question has its own limit,
    /// [`ASK_TIMEOUT`](crate::ask::ASK_TIMEOUT) (10 minutes). Only the call's own time before and
    /// after does.
    ///
    // The link above leads to the `http` module when `HttpConfig` is compiled out.
    #[cfg_attr(
        feature = "http",
        doc = "[`HttpConfig::request_timeout`]: crate::http::HttpConfig::request_timeout"
    )]
    #[cfg_attr(
        not(feature = "http"),
        doc = "[`HttpConfig::request_timeout`]: crate::http"
    )]
    #[must_use]
    pub fn call_timeout(mut self, limit: Duration) -> Self {
        self.limits.call_timeout = limit;
        self
    }

    /// How many calls one connection (the stdio client, a legacy HTTP session) may have running
    /// at once (default 1024). Past it a request is refused at once with JSON-RPC error
    /// `-31000`, and the connection goes on reading, so `notifications/cancelled` still arrive.
    #[must_use]
    pub fn max_calls_in_flight(mut self, max: usize) -> Self {
        self.limits.max_calls_in_flight = max.max(1);
        self
    }

    /// How much memory the requests in flight may hold together, in bytes (default 64 MiB): on
    /// stdio the client's, over HTTP every client's. What a request holds is its message as
    /// parsed (the members of `params` no method reads are skipped, never built; a batch's items
    /// count 32 times their text, what parsing them can cost), from its parse until it is
    /// answered; a `subscriptions/listen` stream holds nothing of it once started (but the
    /// resource subscriptions it names, at most 1 MiB). The same amount bounds, apart, what
    /// every client's resource subscriptions hold together (the limits table). Over HTTP a
    /// body being parsed holds 32 times its length too (at most half the budget), so parses at
    /// once are bounded as well. The members a method reads (`arguments`, `_meta`) are built
    /// whole, at up to about 35 times their text: a parse weighing more than half the budget
    /// therefore runs one at a time, and what parses and requests hold together stays under the
    /// budget plus one parse of the largest body.
    ///
    /// Past it a request is refused at once: over HTTP with `503` and `Retry-After`, on stdio
    /// with JSON-RPC error `-31000`; notifications and responses (a client's answer to a
    /// question) are always taken (over HTTP, past the budget, parsed one at a time). A message that
    /// would hold more than the whole budget by itself is refused: `413` over HTTP, `-32600` on
    /// stdio.
    #[must_use]
    pub fn max_request_memory(mut self, bytes: usize) -> Self {
        self.limits.memory = crate::limits::MemoryBudget::new(bytes);
        self.limits.subscription_memory = crate::limits::MemoryBudget::new(bytes);
        self
    }

    /// How many items one JSON-RPC batch (protocol 2025-03-26) may hold (default 1024); a longer
    /// batch is refused whole with `-32600`, before any of it runs.
    #[must_use]
    pub fn max_batch_items(mut self, max: usize) -> Self {
        self.limits.max_batch_items = max.max(1);
        self
    }

    /// How many answers (responses, and requests to the client) may wait to be written to stdout
    /// (default 1024) before the server stops reading stdin: a client that sends without reading
    /// cannot make the server buffer without bound. Reading resumes as soon as the client reads;
    /// what it sent meanwhile (`notifications/cancelled` too) waits in the pipe and is read in
    /// order. Notifications waiting have the same bound, their own: past it the progress and log
    /// notifications running tools send are dropped (a warning is logged), and reading goes on,
    /// so a tool that reports progress without end neither grows the queue nor holds up the
    /// client's cancellation.
    ///
    /// A client must read while it writes: one that writes all its requests before reading any
    /// answer (more than this many, plus what the pipes hold) blocks on its write while the
    /// server waits for it to read. Raise the limit above what such a client sends at once.
    ///
    /// Over HTTP the same number bounds each call's event stream: past it, while the client does
    /// not read the stream, that call's notifications are dropped; its response waits for room.
    #[must_use]
    pub fn max_queued_messages(mut self, max: usize) -> Self {
        self.limits.max_queued_messages = max.max(1);
        self
    }

    #[cfg(feature = "http")]
    /// How the HTTP transport guards its endpoint (allowed hosts and origins, limits, sessions,
    /// bearer auth); see [`HttpConfig`].
    #[must_use]
    pub fn http_config(mut self, config: HttpConfig) -> Self {
        self.http = config;
        self
    }

    /// Gives the tools a value of type `T` (a database pool, an HTTP client, configuration):
    /// a `#[tool]` takes it as a parameter `State<T>`, any tool through
    /// [`Context::state`](crate::Context::state). One value per type; a second value of a type
    /// replaces the first. See [`State`](crate::State).
    ///
    /// The server's own handles, [`Tools`], [`Prompts`] and [`Resources`], are in its app state
    /// already: a tool takes `State<Resources>`, or calls
    /// [`Context::resources`](crate::Context::resources), without giving them here.
    #[must_use]
    pub fn state<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        if self.states.insert(value) {
            tracing::debug!(
                r#type = std::any::type_name::<T>(),
                "a second state value of one type replaces the first"
            );
        }
        self
    }

    /// Adds a hook that runs around every tool call: given the [`ToolCall`] (the tool's name and
    /// annotations, the arguments, the [`Context`](crate::Context)) and [`Next`], it may refuse
    /// the call or run it with `next.run(call).await` and see its result. Hooks run in the order
    /// they were added, the first outermost, before the arguments are validated; see
    /// [`hook`](crate::hook) for the whole contract. Hooks run for `tools/call` only, inside
    /// every [`middleware`](Self::middleware): for code around `resources/read`, `prompts/get`,
    /// `completion/complete` and the listings too, add a middleware.
    #[must_use]
    pub fn hook<F, Fut>(mut self, hook: F) -> Self
    where
        F: Fn(ToolCall, Next) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = CallOutcome> + Send + 'static,
    {
        self.hooks.push(hook::boxed(hook));
        self
    }

    /// Adds a middleware that runs around every `tools/call`, `resources/read`, `prompts/get`,
    /// `completion/complete` and listing: given the [`Request`](middleware::Request) (its
    /// [`Kind`](middleware::Kind), what it names, its params, the
    /// [`Context`](crate::Context) and through it the caller) and
    /// [`Next`](middleware::Next), it may refuse the request, change it or its response, or
    /// look at both. Middleware runs in the order it was added, the first outermost, then the
    /// built-in scope check, then the request (a tool's call [hooks](Self::hook) inside); see
    /// [`middleware`](crate::middleware) for the whole contract.
    #[must_use]
    pub fn middleware<F, Fut>(mut self, middleware: F) -> Self
    where
        F: Fn(middleware::Request, middleware::Next) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = middleware::Outcome> + Send + 'static,
    {
        self.middleware.push(middleware::boxed(middleware));
        self
    }

    /// Whether the tools, resources and skills can be served; `Err` names every problem (two
    /// tools with one name, an argument type that is not an object, a `State<T>` no one gave, two
    /// resources of one URI, a tool whose view is not a registered app view, a skill that
    /// breaks the rules of the `skill` module). Every `serve_*` checks this first.
    pub fn check(&self) -> Result<(), Error> {
        let mut problems: Vec<RegistryError> = match self.startup_error.clone() {
            Some(RegistryError::Several(problems)) => problems,
            Some(problem) => vec![problem],
            None => Vec::new(),
        };
        problems.extend(self.tools.missing_state(&self.states));
        problems.extend(self.prompts.missing_state(&self.states));
        problems.extend(self.resources.missing_state(&self.states));
        match problems.len() {
            0 => Ok(()),
            1 => Err(Error::Registry(problems.remove(0))),
            _ => Err(Error::Registry(RegistryError::Several(problems))),
        }
    }

    /// The handle to this server's tools: keep it (it is `Clone`) to add or remove tools while
    /// the server serves, or list them. Every handle, and the server once serving, share one set.
    #[must_use]
    pub fn tools(&self) -> Tools {
        Tools {
            tools: Arc::clone(&self.tools),
            changes: self.changes.clone(),
        }
    }

    /// The handle to this server's prompts: keep it (it is `Clone`) to add or remove prompts
    /// while the server serves, or list them. Every handle, and the server once serving, share
    /// one set; once a handle was taken, the `prompts` capability is declared even while there
    /// are none.
    #[must_use]
    pub fn prompts(&self) -> Prompts {
        self.prompts_handle
            .store(true, std::sync::atomic::Ordering::Relaxed);
        Prompts {
            prompts: Arc::clone(&self.prompts),
            changes: self.changes.clone(),
        }
    }

    /// The handle to the prompts, leaving the `prompts` capability as it is.
    fn prompts_unopened(&self) -> Prompts {
        Prompts {
            prompts: Arc::clone(&self.prompts),
            changes: self.changes.clone(),
        }
    }

    /// The handle to this server's resources: keep it (it is `Clone`) to add or remove resources
    /// and templates while the server serves, list them, or tell subscribers that a resource's
    /// contents changed ([`Resources::notify_updated`]). Every handle, and the server once
    /// serving, share one set. Taking it changes nothing the server serves: resources are
    /// served (the `resources` capability and methods) once there is one, and from then on,
    /// even after the last is removed; a client that initialized before learns of none.
    #[must_use]
    pub fn resources(&self) -> Resources {
        Resources {
            resources: Arc::clone(&self.resources),
            changes: self.changes.clone(),
        }
    }

    /// Where the `requestState` key was read from (`run()`), for the line at start.
    pub(crate) fn request_state_key_from(mut self, source: String) -> Self {
        self.request_state_key_source = Some(source);
        self
    }

    /// The HTTP configuration changed by `change` (what `run()`'s flags add).
    #[cfg(feature = "http")]
    pub(crate) fn update_http_config(
        mut self,
        change: impl FnOnce(HttpConfig) -> HttpConfig,
    ) -> Self {
        self.http = change(self.http);
        self
    }

    /// Whether requests over HTTP need `Authorization: Bearer <token>` (`--print-config` puts
    /// the header in the snippet).
    #[cfg_attr(
        not(feature = "http"),
        expect(clippy::unused_self, reason = "only HTTP has bearer auth")
    )]
    pub(crate) fn wants_bearer_token(&self) -> bool {
        #[cfg(feature = "http")]
        return self.http.wants_bearer_token();
        #[cfg(not(feature = "http"))]
        false
    }

    /// Whether only requests for localhost names would be answered over HTTP.
    #[cfg(feature = "http")]
    pub(crate) fn serves_only_localhost(&self) -> bool {
        self.http.serves_only_localhost()
    }

    /// The server's name, for the command line.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// The server's icons, for the lint.
    pub(crate) fn icons(&self) -> &[Icon] {
        &self.icons
    }

    /// Every resource's and template's icons, by URI, for the lint (without opening the
    /// resources as [`Server::resources`] does).
    pub(crate) fn resource_icons(&self) -> Vec<(String, Vec<Icon>)> {
        let listed = self.resources.listed();
        listed
            .resources()
            .iter()
            .chain(listed.templates())
            .filter(|resource| !resource.icons().is_empty())
            .map(|resource| (resource.uri().to_owned(), resource.icons().to_vec()))
            .collect()
    }

    /// Every tool, resource, template and prompt that needs a scope, with the scopes, for the
    /// lint's check of a server that checks no token.
    pub(crate) fn scoped_items(&self) -> Vec<(crate::lint::Subject, String, Vec<String>)> {
        use crate::lint::Subject;
        let listed = self.resources.listed();
        let resources = listed
            .resources()
            .iter()
            .chain(listed.templates())
            .filter(|resource| !resource.needed_scopes().needed().is_empty())
            .map(|resource| {
                let scopes = resource.needed_scopes().needed().to_vec();
                (Subject::Resource, resource.uri().to_owned(), scopes)
            });
        let named = |subject, items: Vec<(String, Vec<String>)>| {
            items
                .into_iter()
                .map(move |(name, scopes)| (subject, name, scopes))
        };
        named(Subject::Tool, self.tools.scoped())
            .chain(resources)
            .chain(named(Subject::Prompt, self.prompts.scoped()))
            .collect()
    }

    /// The server's version, for the command line.
    pub(crate) fn version(&self) -> &str {
        &self.version
    }

    /// How many tools are served now.
    pub(crate) fn tool_count(&self) -> usize {
        self.tools.definitions().len()
    }
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("name", &self.name)
            .field("version", &self.version)
            .field("tools", &self.tools.definitions().len())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::serving::joined;
    use super::*;
    use crate::protocol::Change;
    use crate::registry::Prompt;

    /// The `Server` limits table says what a listener holds of the server's changes, and
    /// what happens past it.
    #[test]
    fn the_limits_table_says_what_a_listener_holds() {
        let server = include_str!("server.rs");
        let row = server
            .lines()
            .find(|line| line.starts_with("/// | changes held per listener"))
            .expect("a row of the limits table for a listener's changes");
        assert!(row.contains("Server::max_queued_messages"), "{row}");
        assert_eq!(CHANNEL_CAPACITY, 1024, "the row says 1,024");
        assert!(
            row.contains("1,024 changes in the server's channel"),
            "{row}"
        );
        assert!(row.contains("none is dropped"), "{row}");
    }

    fn buggy_serving() -> Result<(), Error> {
        panic!("a bug while serving")
    }

    /// Adding and removing a prompt is told on the server's one channel of changes, as
    /// `Change::Prompts`; a refused add or a remove of nothing is not.
    #[test]
    fn prompt_changes_are_sent() {
        let server = Server::new("changes", "1.0.0");
        let mut changes = server.changes.subscribe();
        let prompts = server.prompts();
        let prompt = || Prompt::new("p", "A prompt", |_, _| async { "text" });
        prompts.add(prompt()).expect("a new name");
        assert_eq!(changes.try_recv(), Ok(Change::Prompts));
        assert!(prompts.add(prompt()).is_err());
        assert!(!prompts.remove("q"));
        assert!(changes.try_recv().is_err(), "nothing changed");
        assert!(prompts.remove("p"));
        assert_eq!(changes.try_recv(), Ok(Change::Prompts));
        assert!(prompts.list().prompts.is_empty());
    }

    #[tokio::test]
    #[should_panic(expected = "a bug while serving")]
    async fn a_panic_while_serving_stays_a_panic() {
        let serving = tokio::spawn(async { buggy_serving() });
        let _ = joined(serving.await);
    }
}
