//! One servable tool: its definition, its validators (checked when it is built, compiled at its
//! first call) and its handler, built from a `#[tool]` registration or at run time. Running it
//! is [`crate::call`]'s job.

use crate::rate_limit::{Limiter, RateLimit};
use std::fmt;
use std::future::Future;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::kept::KeptDefinition;
use super::{IconRegistration, ItemKind, RegistryError, Scopes, ToolRegistration};
use crate::call::{Callee, Handler};
use crate::client_capabilities::ClientCapabilities;
use crate::context::Context;
use crate::result::CallToolResult;
use crate::schema::{self, HeaderParam};
use crate::state::{StateKey, StateMap};
use crate::task::TaskSupport;
use crate::types::{Icon, ToolAnnotations, ToolDefinition, ToolExecution};
use crate::validate::LazyValidator;

/// A servable tool: its definition, its validators and its handler.
#[derive(Clone)]
pub struct Tool {
    /// Its schemas kept as text, parsed again at its first call.
    definition: Arc<KeptDefinition>,
    handler: Handler,
    /// Compiled at the first call, shared by the tool's clones.
    input: Arc<LazyValidator>,
    output: Option<Arc<LazyValidator>>,
    /// `structuredContent` is wrapped as `{"result": …}` (a non-object output type).
    wraps_output: bool,
    /// `file:line` of a `#[tool]` fn.
    source: Option<Arc<str>>,
    /// Client capabilities the tool cannot run without (`{"sampling": {}}`).
    required_capabilities: Option<Arc<Map<String, Value>>>,
    /// The app state its `State<T>` parameters take.
    required_state: Arc<[StateKey]>,
    /// The arguments a 2026-07-28 HTTP client also sends as `Mcp-Param-*` headers.
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "only HTTP carries `Mcp-Param-*` headers")
    )]
    header_params: Arc<[HeaderParam]>,
    /// Whether it may run as a task.
    task_support: TaskSupport,
    /// Whether its handler is given a `Context` it can ask the client with (a `#[tool]` fn
    /// without a `Context` parameter cannot).
    may_ask: bool,
    /// Whose handler it is: a `#[tool]` fn's or one given at run time.
    kind: Kind,
    /// What a server's selection chooses it by.
    tags: super::Tags,
    /// The OAuth scopes a caller needs to see and call it.
    scopes: Scopes,
    /// Its own rate limit per principal, on top of the server's, and its state.
    rate_limit: Option<Arc<Limiter>>,
}

/// Whose handler a tool has.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// A handler given at run time ([`Tool::new`]): it reads the validated arguments itself.
    RunTime,
    /// A `#[tool]` fn's adapter, which reads the arguments with serde and is then given the
    /// `null`s validation leaves out (`call::Callee::reads_nulls`); `blocking`: a plain fn,
    /// which cannot be stopped midway (`ToolRegistration::blocking`).
    Fn { blocking: bool },
}

impl Tool {
    /// A tool added at run time. `input_schema` must be an object schema, and its `x-mcp-header`
    /// marks what the spec allows (see [`tool`](macro@crate::tool), "Header-routed arguments");
    /// `handler` gets the validated arguments.
    pub fn new<F, Fut>(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: Value,
        handler: F,
    ) -> Result<Self, RegistryError>
    where
        F: Fn(Value, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = CallToolResult> + Send + 'static,
    {
        let definition = ToolDefinition {
            name: name.into(),
            title: None,
            description: Some(description.into()),
            input_schema,
            output_schema: None,
            annotations: None,
            icons: Vec::new(),
            execution: None,
            meta: None,
        };
        let handler: Handler =
            Arc::new(move |arguments, context| Box::pin(handler(arguments, context)));
        Self::build(definition, handler, None, false)
    }

    /// Builds the tool of one `#[tool]` fn: portable schemas, validators.
    pub(crate) fn from_registration(
        registration: &'static ToolRegistration,
    ) -> Result<Self, RegistryError> {
        let source = format!("{}:{}", registration.file, registration.line);
        let hints = ToolAnnotations {
            title: None,
            read_only_hint: registration.read_only,
            destructive_hint: registration.destructive,
            idempotent_hint: registration.idempotent,
            open_world_hint: registration.open_world,
        };
        let mut output_schema = (registration.output_schema)();
        let mut wraps_output = false;
        if let Some(output) = output_schema.take() {
            wraps_output = !schema::is_object_schema(&output);
            output_schema = Some(if wraps_output {
                schema::wrap_in_result(output)
            } else {
                output
            });
        }
        let definition = ToolDefinition {
            name: registration.name.to_owned(),
            title: registration.title.map(str::to_owned),
            description: Some(registration.description.to_owned()),
            input_schema: (registration.input_schema)(),
            output_schema,
            annotations: (hints != ToolAnnotations::default()).then_some(hints),
            icons: registration
                .icons
                .iter()
                .map(IconRegistration::icon)
                .collect(),
            execution: None,
            meta: None,
        };
        // A form the tool says it asks for must be one: told now, not at its first call.
        if let Some(problem) = registration.asks.iter().find_map(|check| check().err()) {
            return Err(RegistryError::InvalidTool {
                name: definition.name,
                location: Some(source),
                problem: format!("it asks (`asks(…)`) for a form that cannot be one: {problem}"),
            });
        }
        let call = registration.call;
        let mut tool = Self::build(
            definition,
            Arc::new(call),
            Some(source.into()),
            wraps_output,
        )?;
        tool.required_state = registration.state.iter().map(|key| key()).collect();
        tool.may_ask = registration.context;
        tool.tags = super::Tags::from_static(registration.tags);
        tool.kind = Kind::Fn {
            blocking: registration.blocking,
        };
        tool.scopes = Scopes::registered(registration.scopes);
        // The macro checked the text at compile time.
        if let Some(limit) = registration.rate_limit.and_then(|text| text.parse().ok()) {
            tool = tool.rate_limit(limit);
        }
        Ok(tool.task_support(registration.task))
    }

    /// The one constructor: checks the name and schemas (each compiled once, the validators
    /// kept for the first call to compile again).
    fn build(
        mut definition: ToolDefinition,
        handler: Handler,
        source: Option<Arc<str>>,
        wraps_output: bool,
    ) -> Result<Self, RegistryError> {
        let invalid = |problem: String| RegistryError::InvalidTool {
            name: definition.name.clone(),
            location: source.as_deref().map(str::to_owned),
            problem,
        };
        // `#[tool]` checks its names at compile time; tools added at run time are checked here.
        let name = &definition.name;
        if name.is_empty()
            || name.len() > 64
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
        {
            return Err(invalid(
                "its name must be 1 to 64 characters from `A-Z a-z 0-9 _ . -`".into(),
            ));
        }
        if !schema::is_object_schema(&definition.input_schema) {
            return Err(invalid(format!(
                "its input schema must describe a JSON object (`\"type\": \"object\"` at its root), \
                 but it is {}; take an argument struct, or inline parameters (or return an object \
                 schema from the fn `input_schema = …` names)",
                definition.input_schema
            )));
        }
        schema::ensure_object_root(&mut definition.input_schema);
        let header_params = schema::header_params(&definition.input_schema).map_err(&invalid)?;
        let input = LazyValidator::for_input(&definition.input_schema)
            .map_err(|e| invalid(format!("invalid input schema: {e}")))?;
        let output = match &definition.output_schema {
            Some(schema) => Some(Arc::new(
                LazyValidator::for_output(schema)
                    .map_err(|e| invalid(format!("invalid output schema: {e}")))?,
            )),
            None => None,
        };
        Ok(Self {
            definition: Arc::new(KeptDefinition::new(definition)),
            handler,
            input: Arc::new(input),
            output,
            wraps_output,
            source,
            required_capabilities: None,
            required_state: Arc::new([]),
            header_params: header_params.into(),
            task_support: TaskSupport::Forbidden,
            may_ask: true,
            kind: Kind::RunTime,
            tags: super::Tags::default(),
            scopes: Scopes::default(),
            rate_limit: None,
        })
    }

    /// Whether the tool may run as a task (what `#[tool(task)]` and `#[tool(task = "required")]`
    /// say for a `#[tool]` fn); `tools/list` shows it as `execution.taskSupport`. See
    /// [`task`](crate::task).
    #[must_use]
    pub fn task_support(mut self, support: TaskSupport) -> Self {
        self.task_support = support;
        Arc::make_mut(&mut self.definition).edit().execution = match support {
            TaskSupport::Forbidden => None,
            _ => Some(ToolExecution {
                task_support: Some(support),
            }),
        };
        self
    }

    /// The OAuth scopes a caller's token must grant, all of them, to see the tool listed and to
    /// call it (what `scopes(…)` on the attribute says); a caller lacking one gets `403` with
    /// an `insufficient_scope` challenge naming them. With no caller identity (stdio, HTTP
    /// without auth) the tool is served to everyone. Replaces the scopes given before.
    /// Each is checked as the attribute checks its: when the item is added
    /// ([`Tools::add`](crate::tool::Tools::add)), a scope no token can carry (empty, with a space, not printable
    /// ASCII, `"` or `\`) or one given twice is refused with a
    /// [`RegistryError::InvalidScope`](crate::error::RegistryError::InvalidScope) naming it.
    ///
    /// ```
    /// use mcp_toolbelt::tool::Tool;
    /// use serde_json::json;
    ///
    /// let purge = Tool::new("purge", "Delete every note", json!({"type": "object"}), |_, _| async {
    ///     mcp_toolbelt::CallToolResult::text("purged")
    /// })?
    /// .scopes(["notes:write", "notes:admin"]);
    /// # let _ = purge;
    /// # Ok::<(), mcp_toolbelt::error::RegistryError>(())
    /// ```
    #[must_use]
    pub fn scopes<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.scopes = Scopes::given(scopes);
        self
    }

    /// At most `limit` calls of this tool for each principal (what `rate_limit = "N/UNIT"` on
    /// the attribute says), on top of the server's own limit on every request
    /// ([`Server::rate_limit`](crate::Server::rate_limit), which says who a principal is and
    /// what a caller past a limit is answered). Replaces the limit given before, and starts it
    /// afresh. The count is this process's, shared by every server it serves the tool from
    /// (with Redis, every replica's).
    ///
    /// ```
    /// use mcp_toolbelt::tool::Tool;
    /// use serde_json::json;
    ///
    /// let search = Tool::new("search", "Search the web", json!({"type": "object"}), |_, _| async {
    ///     mcp_toolbelt::CallToolResult::text("results")
    /// })?
    /// .rate_limit("10/min".parse().unwrap());
    /// # let _ = search;
    /// # Ok::<(), mcp_toolbelt::error::RegistryError>(())
    /// ```
    #[must_use]
    pub fn rate_limit(mut self, limit: RateLimit) -> Self {
        self.rate_limit = Some(Arc::new(Limiter::new(limit)));
        self
    }

    /// Its own rate limit and that limit's state, if it has one.
    pub(crate) fn rate_limiter(&self) -> Option<&Limiter> {
        self.rate_limit.as_deref()
    }

    /// The OAuth scopes a caller needs to see and call it.
    pub(crate) fn needed_scopes(&self) -> &Scopes {
        &self.scopes
    }

    /// Whether the tool may run as a task.
    pub(crate) fn task(&self) -> TaskSupport {
        self.task_support
    }

    /// Whether a call can be stopped midway (its future dropped): not a plain `#[tool]` fn's,
    /// which runs on a blocking thread until it returns.
    pub(crate) fn stoppable(&self) -> bool {
        self.kind != Kind::Fn { blocking: true }
    }

    /// Whether a call of the tool can ask the client anything: a handler given the request's
    /// `Context` can (every tool added at run time, a `#[tool]` fn that takes one), one without
    /// it cannot.
    pub(crate) fn may_ask(&self) -> bool {
        self.may_ask
    }

    /// Sets the display title.
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        Arc::make_mut(&mut self.definition).edit().title = Some(title.into());
        self
    }

    /// Sets the behaviour hints.
    #[must_use]
    pub fn annotations(mut self, annotations: ToolAnnotations) -> Self {
        Arc::make_mut(&mut self.definition).edit().annotations = Some(annotations);
        self
    }

    /// Adds an icon a client may show beside the tool (call it again for another size or
    /// theme). Its values are not checked when the tool is built: `--lint` (the `mcp`
    /// profile's `icon-source` and `icon-format` rules) checks what `#[tool(icons(…))]` checks at
    /// compile time.
    ///
    /// ```
    /// use mcp_toolbelt::icon::Icon;
    /// use mcp_toolbelt::tool::Tool;
    /// use mcp_toolbelt::CallToolResult;
    ///
    /// let tool = Tool::new("paint", "Paint", serde_json::json!({"type": "object"}), |_, _| async {
    ///     CallToolResult::text("painted")
    /// })?
    /// .icon(Icon::new("https://example.com/paint.png").mime_type("image/png").sizes(["48x48"]));
    /// assert_eq!(tool.definition().icons.len(), 1);
    /// # Ok::<(), mcp_toolbelt::error::RegistryError>(())
    /// ```
    #[must_use]
    pub fn icon(mut self, icon: Icon) -> Self {
        Arc::make_mut(&mut self.definition).edit().icons.push(icon);
        self
    }

    /// Tags the tool, as `#[tool(tags(…))]` does: a server's
    /// [`only_tags`](crate::Server::only_tags) and [`without_tags`](crate::Server::without_tags)
    /// choose by them whether it serves the tool. A second call replaces the first's tags.
    ///
    /// ```
    /// use mcp_toolbelt::tool::Tool;
    /// use mcp_toolbelt::CallToolResult;
    ///
    /// let tool = Tool::new("purge", "Purge the cache", serde_json::json!({"type": "object"}), |_, _| async {
    ///     CallToolResult::text("purged")
    /// })?
    /// .tags(["admin", "beta"]);
    /// # let _ = tool;
    /// # Ok::<(), mcp_toolbelt::error::RegistryError>(())
    /// ```
    #[must_use]
    pub fn tags<I, S>(mut self, tags: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.tags = super::Tags::new(tags);
        self
    }

    /// Sets the tool's `_meta`, e.g. the MCP Apps `ui` (`{"ui": {"resourceUri": "ui://…"}}`).
    #[must_use]
    pub fn meta(mut self, meta: Map<String, Value>) -> Self {
        Arc::make_mut(&mut self.definition).edit().meta = Some(meta);
        self
    }

    /// The MCP Apps view the tool names (`_meta.ui.resourceUri`), if any.
    pub(crate) fn view_uri(&self) -> Option<&str> {
        self.definition
            .head()
            .meta
            .as_ref()?
            .get("ui")?
            .get("resourceUri")?
            .as_str()
    }

    /// Declares client capabilities the tool needs (e.g. `{"sampling": {}}`): a client that did not
    /// declare them gets error `-32021` (`MissingRequiredClientCapability`) instead of a call.
    #[must_use]
    pub fn requires_client_capabilities(mut self, capabilities: Map<String, Value>) -> Self {
        self.required_capabilities = Some(Arc::new(capabilities));
        self
    }

    /// The required capabilities the client's `declared` ones lack, if any.
    pub(crate) fn missing_capabilities(
        &self,
        declared: &ClientCapabilities,
    ) -> Option<Map<String, Value>> {
        let missing: Map<String, Value> = self
            .required_capabilities
            .as_deref()?
            .iter()
            .filter(|(name, _)| !declared.has(name))
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        (!missing.is_empty()).then_some(missing)
    }

    /// The arguments marked `x-mcp-header`, which a 2026-07-28 HTTP client also sends as
    /// `Mcp-Param-{Name}` headers.
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "only HTTP carries `Mcp-Param-*` headers")
    )]
    pub(crate) fn header_params(&self) -> &[HeaderParam] {
        &self.header_params
    }

    /// The tool's name.
    #[must_use]
    pub fn name(&self) -> &str {
        self.definition.name()
    }

    /// How the tool appears in `tools/list`. The server keeps a tool's schemas as JSON text:
    /// the first call of this (or of the tool) parses them, and they are then kept parsed.
    #[must_use]
    pub fn definition(&self) -> &ToolDefinition {
        self.definition.whole()
    }

    /// Validates `arguments` (absent means `{}`), runs the tool, and checks its structured output
    /// ([`crate::call`]). Every failure is a result with `isError: true`; a panic in the tool is
    /// one too.
    pub(crate) async fn call(
        &self,
        arguments: Option<Map<String, Value>>,
        context: Context,
    ) -> CallToolResult {
        match self.callee() {
            Ok(callee) => callee.call(arguments, context).await,
            Err(problem) => CallToolResult::error(problem),
        }
    }

    /// Why `arguments` would be refused by [`call`](Self::call) (its validation error's text);
    /// `None` when they are valid.
    pub(crate) fn refusal(&self, arguments: Option<&Map<String, Value>>) -> Option<String> {
        match self.callee() {
            Ok(callee) => callee.refusal(arguments),
            Err(problem) => Some(problem),
        }
    }

    /// What a call needs, its validators compiled now if this is the first; why not, should a
    /// schema that compiled when the tool was built fail to now.
    fn callee(&self) -> Result<Callee<'_>, String> {
        let definition = self.definition.whole();
        let unusable = |which: &str, error: &str| {
            format!(
                "Tool {} cannot validate its {which}: {error}",
                definition.name
            )
        };
        let input = self
            .input
            .get(&definition.input_schema)
            .map_err(|error| unusable("arguments", error))?;
        let output = match (&self.output, &definition.output_schema) {
            (Some(output), Some(schema)) => Some(
                output
                    .get(schema)
                    .map_err(|error| unusable("structured content", error))?,
            ),
            _ => None,
        };
        Ok(Callee {
            name: self.name(),
            input_schema: &definition.input_schema,
            input,
            output,
            wraps_output: self.wraps_output,
            handler: &self.handler,
            reads_nulls: self.kind != Kind::RunTime,
        })
    }

    /// The definition, shared with `tools/list` answers rather than copied.
    pub(super) fn shared_definition(&self) -> Arc<KeptDefinition> {
        Arc::clone(&self.definition)
    }

    /// Where the tool comes from, for a duplicate name: `file:line` of a `#[tool]` fn.
    pub(super) fn place(&self) -> &str {
        self.source.as_deref().unwrap_or(super::ADDED_AT_RUN_TIME)
    }
}

impl super::set::Named for Tool {
    type Definition = KeptDefinition;
    const KIND: ItemKind = ItemKind::Tool;

    fn scopes(&self) -> &Scopes {
        &self.scopes
    }

    fn name(&self) -> &str {
        Self::name(self)
    }

    fn shared_definition(&self) -> Arc<KeptDefinition> {
        Self::shared_definition(self)
    }

    fn place(&self) -> &str {
        Self::place(self)
    }

    fn duplicate(name: &str, first: &str, second: &str) -> RegistryError {
        RegistryError::DuplicateName {
            kind: ItemKind::Tool,
            name: name.to_owned(),
            first: first.to_owned(),
            second: second.to_owned(),
        }
    }

    fn missing_state(&self, states: &StateMap) -> Vec<RegistryError> {
        let (name, source) = (self.name(), self.source.as_deref());
        RegistryError::missing_state(ItemKind::Tool, name, source, &self.required_state, states)
    }

    fn tags(&self) -> &super::Tags {
        &self.tags
    }
}

impl fmt::Debug for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tool")
            .field("definition", &self.definition)
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}
