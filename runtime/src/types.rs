//! MCP wire types shared by every layer: what the registry builds and the protocol sends. A leaf
//! module: it depends on serde and `serde_json` only, so any layer may use it. Results are built
//! from these types and serialized. `json!` is left where it is the honest tool: fields stamped
//! onto any result after it is built (2026-07-28's `resultType` and `_meta.serverInfo`, a
//! listing's cache fields), the one-member `_meta` of a `subscriptions/listen` result and its
//! notifications, and what a client sent, passed on as it came (a question's params).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How a tool appears in `tools/list`. Built with [`ToolDefinition::new`] and its setters, so a
/// field a new protocol revision adds is not a breaking change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolDefinition {
    /// The name clients call it by.
    pub name: String,
    /// The name people see.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the model reads to decide when and how to call it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON Schema of its arguments (always `type: "object"`).
    pub input_schema: Value,
    /// The JSON Schema of its `structuredContent`, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// The behaviour hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
    /// Icons a client may show beside it (since 2025-11-25).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<Icon>,
    /// How it runs: `execution.taskSupport` for a tool that may run as a task (`#[tool(task)]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution: Option<ToolExecution>,
    /// Extensions' data, such as the MCP Apps `ui` (`resourceUri`, `visibility`).
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<serde_json::Map<String, Value>>,
}

/// Whether a tool may run as a task: `#[tool(task)]` is [`Optional`](Self::Optional),
/// `#[tool(task = "required")]` is [`Required`](Self::Required); a tool built at run time says it
/// with [`Tool::task_support`](crate::tool::Tool::task_support).
///
/// It is `execution.taskSupport` in `tools/list` (`"forbidden"`, `"optional"`, `"required"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum TaskSupport {
    /// The tool always answers within its request (the default).
    #[default]
    Forbidden,
    /// The tool runs as a task when the client negotiated the extension (at once, or once the
    /// call outlives the server's `task_budget`); otherwise it answers within its request.
    Optional,
    /// The tool always runs as a task: a client that did not negotiate the extension is refused
    /// with `-32021` (missing required client capability), and a legacy client, which has no
    /// tasks, does not see it in `tools/list`.
    Required,
}

/// How a tool runs, as `tools/list` says it (`execution`): whether it may run as a task.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolExecution {
    /// `"optional"` or `"required"` (absent: `"forbidden"`, the tool never runs as a task).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_support: Option<TaskSupport>,
}

/// The MCP tool hints. Absent hints take the protocol's defaults (`destructiveHint` and
/// `openWorldHint` default to `true`, the others to `false`).
///
/// ```
/// use mcp_toolbelt::tool::ToolAnnotations;
///
/// let hints = ToolAnnotations::new().read_only(true).open_world(false);
/// assert_eq!(hints.read_only_hint, Some(true));
/// assert_eq!(hints.destructive_hint, None);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolAnnotations {
    /// A display title (tools' own `title` takes precedence).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not change its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may destroy data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Calling it twice with the same arguments does no more than calling it once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool talks to the world outside the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

/// The result of `tools/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ListToolsResult {
    /// One page of tools, in name order.
    pub tools: Vec<ToolDefinition>,
    /// Where the next page starts; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

impl ToolDefinition {
    /// A tool named `name` whose arguments `input_schema` describes (a `type: "object"` schema),
    /// with nothing else set.
    #[must_use]
    pub fn new(name: impl Into<String>, input_schema: Value) -> Self {
        Self {
            name: name.into(),
            title: None,
            description: None,
            input_schema,
            output_schema: None,
            annotations: None,
            icons: Vec::new(),
            execution: None,
            meta: None,
        }
    }

    /// Sets the name people see.
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets what the model reads.
    #[must_use]
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Sets the JSON Schema of its `structuredContent`.
    #[must_use]
    pub fn output_schema(mut self, output_schema: Value) -> Self {
        self.output_schema = Some(output_schema);
        self
    }

    /// Sets the behaviour hints.
    #[must_use]
    pub fn annotations(mut self, annotations: ToolAnnotations) -> Self {
        self.annotations = Some(annotations);
        self
    }

    /// Adds an icon (call it again for another size or theme).
    #[must_use]
    pub fn icon(mut self, icon: Icon) -> Self {
        self.icons.push(icon);
        self
    }

    /// Sets `_meta`, extensions' data.
    #[must_use]
    pub fn meta(mut self, meta: serde_json::Map<String, Value>) -> Self {
        self.meta = Some(meta);
        self
    }
}

impl ToolAnnotations {
    /// No hints: every one takes the protocol's default.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the display title.
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets `readOnlyHint`.
    #[must_use]
    pub fn read_only(mut self, read_only: bool) -> Self {
        self.read_only_hint = Some(read_only);
        self
    }

    /// Sets `destructiveHint`.
    #[must_use]
    pub fn destructive(mut self, destructive: bool) -> Self {
        self.destructive_hint = Some(destructive);
        self
    }

    /// Sets `idempotentHint`.
    #[must_use]
    pub fn idempotent(mut self, idempotent: bool) -> Self {
        self.idempotent_hint = Some(idempotent);
        self
    }

    /// Sets `openWorldHint`.
    #[must_use]
    pub fn open_world(mut self, open_world: bool) -> Self {
        self.open_world_hint = Some(open_world);
        self
    }
}

impl ListToolsResult {
    /// One page of `tools`, the last one (no `nextCursor`).
    #[must_use]
    pub fn new(tools: Vec<ToolDefinition>) -> Self {
        Self {
            tools,
            next_cursor: None,
        }
    }
}

/// The server's name and version (`serverInfo`), and how people see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Implementation {
    pub(crate) name: String,
    pub(crate) version: String,
    /// Since 2025-06-18.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) title: Option<String>,
    /// Since 2025-11-25, as the two below.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) website_url: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) icons: Vec<Icon>,
}

impl Implementation {
    /// `name` at `version`, nothing else said.
    pub(crate) fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            version: version.into(),
            title: None,
            description: None,
            website_url: None,
            icons: Vec::new(),
        }
    }
}

/// What this server offers: tools (whose list may change) and log messages; resources (which
/// may be subscribed to, and whose list may change) and the MCP Apps extension when it has them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) struct ServerCapabilities {
    pub(crate) tools: ToolsCapability,
    /// Legacy clients only: 2026-07-28 deprecates the capability ("new implementations SHOULD
    /// NOT adopt it"); its log level travels in each request's `_meta` instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) logging: Option<Empty>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) resources: Option<ResourcesCapability>,
    /// Only when there are prompts (or a handle may add some).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) prompts: Option<PromptsCapability>,
    /// Only when a prompt argument or a template variable completes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) completions: Option<Empty>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) extensions: Option<Extensions>,
}

impl ServerCapabilities {
    /// The capabilities of every server of this crate.
    pub(crate) const SERVED: Self = Self {
        tools: ToolsCapability { list_changed: true },
        logging: Some(Empty {}),
        resources: None,
        prompts: None,
        completions: None,
        extensions: None,
    };

    /// [`Self::SERVED`], plus `resources` and the MCP Apps extension when they are used.
    pub(crate) fn with(resources: bool, apps: bool) -> Self {
        Self {
            resources: resources.then_some(ResourcesCapability {
                subscribe: true,
                list_changed: true,
            }),
            extensions: apps.then_some(Extensions {
                ui: Some(Empty {}),
                skills: None,
                tasks: None,
            }),
            ..Self::SERVED
        }
    }

    /// These capabilities with `prompts` (its list may change) and `completions` when served.
    pub(crate) fn prompts_and_completions(self, prompts: bool, completions: bool) -> Self {
        Self {
            prompts: prompts.then_some(PromptsCapability { list_changed: true }),
            completions: completions.then_some(Empty {}),
            ..self
        }
    }

    /// These capabilities with the Skills extension declared (and `resources`, which serve its
    /// files), `resources/directory/read` offered, when skills are served.
    #[cfg(feature = "skills")]
    pub(crate) fn skills(self, served: bool) -> Self {
        if !served {
            return self;
        }
        let extensions = self.extensions.unwrap_or(Extensions {
            ui: None,
            skills: None,
            tasks: None,
        });
        Self {
            resources: self.resources.or(Some(ResourcesCapability {
                subscribe: true,
                list_changed: true,
            })),
            extensions: Some(Extensions {
                skills: Some(SkillsSettings {
                    directory_read: true,
                }),
                ..extensions
            }),
            ..self
        }
    }

    /// These capabilities without what tells a client of changes after its request
    /// (`listChanged`, `subscribe`): for a legacy client that nothing can reach then
    /// (stateless HTTP).
    pub(crate) fn without_changes(self) -> Self {
        Self {
            tools: ToolsCapability {
                list_changed: false,
            },
            resources: self.resources.map(|_| ResourcesCapability {
                subscribe: false,
                list_changed: false,
            }),
            prompts: self.prompts.map(|_| PromptsCapability {
                list_changed: false,
            }),
            ..self
        }
    }

    /// These capabilities as `server/discover` shows them at 2026-07-28: without the deprecated
    /// `logging`.
    pub(crate) fn modern(self) -> Self {
        Self {
            logging: None,
            ..self
        }
    }

    /// These capabilities with the tasks extension (2026-07-28: a tool may run as a task).
    pub(crate) fn with_tasks(self) -> Self {
        let extensions = self.extensions.unwrap_or(Extensions {
            ui: None,
            skills: None,
            tasks: None,
        });
        Self {
            extensions: Some(Extensions {
                tasks: Some(Empty {}),
                ..extensions
            }),
            ..self
        }
    }
}

/// `capabilities.extensions`: the MCP Apps extension and the tasks extension, which take no
/// settings, and the Skills extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) struct Extensions {
    #[serde(
        rename = "io.modelcontextprotocol/ui",
        skip_serializing_if = "Option::is_none"
    )]
    pub(crate) ui: Option<Empty>,
    #[serde(
        rename = "io.modelcontextprotocol/skills",
        skip_serializing_if = "Option::is_none"
    )]
    pub(crate) skills: Option<SkillsSettings>,
    #[serde(
        rename = "io.modelcontextprotocol/tasks",
        skip_serializing_if = "Option::is_none"
    )]
    pub(crate) tasks: Option<Empty>,
}

/// The Skills extension's settings, inline under its identifier (SEP-2133).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SkillsSettings {
    /// `resources/directory/read` is served.
    pub(crate) directory_read: bool,
}

/// The `tools` capability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ToolsCapability {
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) list_changed: bool,
}

/// The `resources` capability: resources may be subscribed to (legacy `resources/subscribe`,
/// 2026-07-28 `resourceSubscriptions`), and their list may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ResourcesCapability {
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) subscribe: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) list_changed: bool,
}

/// `{}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) struct Empty {}

/// The result of `initialize` (legacy era).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InitializeResult<'a> {
    pub(crate) protocol_version: &'static str,
    pub(crate) capabilities: ServerCapabilities,
    pub(crate) server_info: &'a Implementation,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) instructions: Option<&'a str>,
}

/// A 2026-07-28 `tools/call` round that ends on questions the handler waits for: the questions
/// by key, and the sealed state the client echoes with its answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InputRequiredResult {
    /// Always `input_required`.
    pub(crate) result_type: &'static str,
    /// Key → `{method, params}`.
    pub(crate) input_requests: serde_json::Map<String, Value>,
    pub(crate) request_state: String,
}

/// The result of `server/discover` (2026-07-28).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DiscoverResult<'a> {
    pub(crate) supported_versions: Vec<&'static str>,
    pub(crate) capabilities: ServerCapabilities,
    pub(crate) ttl_ms: u64,
    pub(crate) cache_scope: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) instructions: Option<&'a str>,
}

/// A resource or resource template as `resources/list` and `resources/templates/list` show it,
/// and as [`Resources::list`](crate::resource::Resources::list) gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceDefinition {
    /// A resource's URI (`None` for a template).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
    /// A template's URI template, RFC 6570 level 1 (`None` for a resource).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uri_template: Option<String>,
    /// Its name.
    pub name: String,
    /// A title for people (since 2025-06-18).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The MIME type of its contents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Icons a client may show beside it (since 2025-11-25).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<Icon>,
    /// `_meta` (an MCP Apps view's `ui`).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<serde_json::Map<String, Value>>,
}

/// The result of `resources/list`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ListResourcesResult {
    pub(crate) resources: Vec<ResourceDefinition>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) next_cursor: Option<String>,
}

/// The result of `resources/templates/list`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ListResourceTemplatesResult {
    pub(crate) resource_templates: Vec<ResourceDefinition>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) next_cursor: Option<String>,
}

/// One item of `resources/read`'s `contents`: `text`, or base64 `blob`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReadContents<'a> {
    pub(crate) uri: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) mime_type: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) text: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) blob: Option<String>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub(crate) meta: Option<&'a serde_json::Map<String, Value>>,
}

/// The result of `resources/read`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct ReadResourceResult<'a> {
    pub(crate) contents: Vec<ReadContents<'a>>,
}

/// An icon a client may show beside a tool, resource, resource template, prompt or the server
/// itself (SEP-973, since 2025-11-25; left out for older clients). Its `src` is an `https:` URL
/// or a `data:` URI ([`Icon::data`] makes one from bytes in the binary).
///
/// ```
/// use mcp_toolbelt::icon::{Icon, IconTheme};
///
/// let icon = Icon::new("https://example.com/icon.png")
///     .mime_type("image/png")
///     .sizes(["48x48"])
///     .theme(IconTheme::Dark);
/// assert_eq!(icon.sizes, ["48x48"]);
/// let inline = Icon::data("image/png", &[0x89, b'P', b'N', b'G']);
/// assert_eq!(inline.src, "data:image/png;base64,iVBORw==");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Icon {
    /// An `https:` URL or a `data:` URI.
    pub src: String,
    /// The image's MIME type (`image/png`, `image/svg+xml`, …), when the URL does not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// The sizes it comes in, each `WxH` (`48x48`) or `any` (a scalable image).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<String>,
    /// The background it is drawn for, when it suits only one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<IconTheme>,
}

impl Icon {
    /// An icon at `src` (an `https:` URL or a `data:` URI).
    #[must_use]
    pub fn new(src: impl Into<String>) -> Self {
        Self {
            src: src.into(),
            mime_type: None,
            sizes: Vec::new(),
            theme: None,
        }
    }

    /// An icon carried in the message: `bytes` as a base64 `data:` URI of `mime_type`.
    #[must_use]
    pub fn data(mime_type: &str, bytes: &[u8]) -> Self {
        use base64::Engine as _;
        let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
        Self::new(format!("data:{mime_type};base64,{encoded}")).mime_type(mime_type)
    }

    /// Its MIME type.
    #[must_use]
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// The sizes it comes in, each `WxH` or `any`.
    #[must_use]
    pub fn sizes<S: Into<String>>(mut self, sizes: impl IntoIterator<Item = S>) -> Self {
        self.sizes = sizes.into_iter().map(Into::into).collect();
        self
    }

    /// The background it is drawn for.
    #[must_use]
    pub fn theme(mut self, theme: IconTheme) -> Self {
        self.theme = Some(theme);
        self
    }
}

/// The background an [`Icon`] is drawn for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum IconTheme {
    /// A light background.
    Light,
    /// A dark background.
    Dark,
}

/// How a prompt appears in `prompts/list`. Built with [`PromptDefinition::new`] and its setters.
///
/// ```
/// use mcp_toolbelt::prompt::{PromptArgument, PromptDefinition};
///
/// let prompt = PromptDefinition::new("summarise")
///     .description("Summarise a note")
///     .argument(PromptArgument::new("title").required(true));
/// assert_eq!(prompt.arguments[0].name, "title");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PromptDefinition {
    /// The name clients get it by.
    pub name: String,
    /// The name people see (since 2025-06-18).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the prompt is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The arguments it takes, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arguments: Vec<PromptArgument>,
    /// Icons a client may show beside it (since 2025-11-25).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<Icon>,
}

impl PromptDefinition {
    /// A prompt named `name`, with nothing else set.
    #[must_use]
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            title: None,
            description: None,
            arguments: Vec::new(),
            icons: Vec::new(),
        }
    }

    /// Sets the name people see.
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets what the prompt is for.
    #[must_use]
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Adds an argument, after those already added.
    #[must_use]
    pub fn argument(mut self, argument: PromptArgument) -> Self {
        self.arguments.push(argument);
        self
    }

    /// Adds an icon.
    #[must_use]
    pub fn icon(mut self, icon: Icon) -> Self {
        self.icons.push(icon);
        self
    }
}

/// One argument of a prompt: its value is a string on the wire.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PromptArgument {
    /// The argument's name.
    pub name: String,
    /// The name people see (since 2025-06-18).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the value is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether `prompts/get` needs it.
    #[serde(default)]
    pub required: bool,
}

impl PromptArgument {
    /// An optional argument named `name`.
    #[must_use]
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            title: None,
            description: None,
            required: false,
        }
    }

    /// Sets the name people see.
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets what the value is.
    #[must_use]
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Sets whether `prompts/get` needs it.
    #[must_use]
    pub fn required(mut self, required: bool) -> Self {
        self.required = required;
        self
    }
}

/// The result of `prompts/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ListPromptsResult {
    /// One page of prompts, in name order.
    pub prompts: Vec<PromptDefinition>,
    /// Where the next page starts; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

impl ListPromptsResult {
    /// One page of `prompts`, the last one (no `nextCursor`).
    #[must_use]
    pub fn new(prompts: Vec<PromptDefinition>) -> Self {
        Self {
            prompts,
            next_cursor: None,
        }
    }
}

/// The `prompts` capability: the list may change (prompts are added and removed at run time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PromptsCapability {
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) list_changed: bool,
}
