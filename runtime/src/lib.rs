//! Write Model Context Protocol (MCP) tools as annotated `async fn`s and serve every one of them
//! over stdio or Streamable HTTP, to any MCP host (Claude Desktop, Claude Code, VS Code, Cursor,
//! the MCP Inspector, the official SDK clients), in both protocol eras: the legacy one that opens
//! with `initialize` (up to 2025-11-25) and the stateless 2026-07-28 one.
//!
//! ```no_run
//! use mcp_toolbelt::{tool, Json};
//! use schemars::JsonSchema;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct ForecastArgs {
//!     /// City name
//!     location: String,
//!     /// How many days ahead, 1 to 7
//!     #[schemars(range(min = 1, max = 7))]
//!     days: u8,
//! }
//!
//! #[derive(Serialize, JsonSchema)]
//! #[serde(rename_all = "camelCase")]
//! struct Forecast {
//!     summary: String,
//! }
//!
//! /// Forecast the weather of a location
//! #[tool(title = "Get Forecast", annotations(read_only, open_world = false))]
//! async fn get_forecast(args: ForecastArgs) -> Json<Forecast> {
//!     Json(Forecast { summary: format!("{}: sunny for {} days", args.location, args.days) })
//! }
//!
//! #[tokio::main]
//! async fn main() -> std::process::ExitCode {
//!     mcp_toolbelt::Server::new("weather", env!("CARGO_PKG_VERSION"))
//!         .run()
//!         .await
//! }
//! ```
//!
//! The tool's input schema comes from `ForecastArgs` (each field's `///` comment its
//! description, `range` its bounds); the arguments are validated against it before the fn runs,
//! and its `Json` result against the output schema before it leaves.
//!
//! [`Server::run`] serves stdio, or what the process arguments ask for (`--http 8080`,
//! `--list-tools`, `--lint`, `--print-config claude-desktop`, `--help`), and installs a stderr
//! logger; the `serve_*` methods ([`Server::serve_stdio`], `Server::serve_http`) serve one
//! transport and read no arguments, for a binary that parses its own.
//!
//! # Where each topic lives
//!
//! | topic | where |
//! | --- | --- |
//! | a tool: every attribute key, arguments (a struct or parameters, `#[header]`, `#[context]`), results, portable schemas | [`macro@tool`] |
//! | a resource: every attribute key, templates | [`macro@resource`], and the [`resource`](mod@resource) module for what an fn returns |
//! | a prompt: every attribute key, arguments, what it returns, prompts added at run time | [`macro@prompt`], and the [`prompt`](mod@prompt) module |
//! | completing a prompt's argument or a template's variable | [`completion`] |
//! | what a tool returns: text, [`Json`], [`Content`] blocks, errors the model reads | [`result`] |
//! | reporting progress, logging to the client, cancellation, the caller's auth | [`Context`] |
//! | asking the user (forms, URLs), the client's model, its roots, in both eras | [`ask`] |
//! | MCP Apps: tools with a view | [`apps`] |
//! | long-running tools as tasks (the tasks extension): `#[tool(task)]`, the store, the budget, TTL and caps | [`task`] |
//! | app state (a pool, a client, configuration given once) | [`State`] |
//! | code around every request that runs user code or lists (access checks, hiding items, rate limits, metrics), the built-in scope check among its layers | [`middleware`] |
//! | code around every tool call only | [`hook`] |
//! | tools added and removed while serving | [`tool`](mod@tool) |
//! | icons beside tools, resources and the server, the server's description and web site | [`icon`] |
//! | resource subscriptions, resources added and removed while serving, saying a resource changed | [`resource`](mod@resource) |
//! | skills: a folder of `SKILL.md`s or skills built in code, served as the Skills extension (the `skills` feature) | `skill` |
//! | serving over HTTP, its protections, bearer auth, load balancers | [`http`] |
//! | replicas behind a load balancer, sharing sessions, streams and tasks through Redis (the `redis` feature) | `redis` |
//! | every limit, its default and what happens past it | [`Server`] (every transport), `http::HttpConfig` (HTTP) |
//! | what hosts reject, checked before a host does (`--lint`) | [`lint`] |
//! | testing tools in-process, schema snapshots | [`testing`] |
//! | errors: what start-up and serving return ([`Error`]), the JSON-RPC errors a middleware or hook answers | [`error`] |
//! | protocol versions and `_meta` keys | [`protocol`] |
//!
//! # How tools are found
//!
//! `#[tool]` leaves your function as it is and submits a registration for it to
//! [`inventory`](https://docs.rs/inventory). The first [`Server::new`] collects every registration
//! linked into the binary, sorts them by name, computes each tool's schemas and validators once,
//! and refuses to start ([`Server::check`], every `serve_*`) when two tools share a name, naming
//! both source locations. There is no list to keep in sync: a tool that compiles is a tool that is
//! served.
//!
//! Tools defined in another crate are collected like local ones, as long as that crate is linked
//! into the binary. Rust links a dependency only when the code mentions it, so a crate that holds
//! nothing but tools needs one line in the binary (or in a crate the binary links):
//!
//! ```text
//! use my_tools as _; // links `my_tools`, so its `#[tool]`s are served
//! ```
//!
//! Without it the crate's tools are silently missing.
//! `extern crate my_tools;` works too, but the `unused_extern_crates` lint suggests deleting it,
//! which would drop the tools; prefer `use … as _`. Doc tests of one crate are merged into one
//! binary (edition 2024), so their tools share one registry too: give each a distinct name.
//!
//! # Cargo features
//!
//! - `http` (default): Streamable HTTP (`Server::serve_http`, `Server::serve_http_app`,
//!   `Server::into_service`, `Server::into_router`, `http::HttpConfig`, `run()`'s `--http`). Without it
//!   (`default-features = false`) a stdio server compiles none of axum, hyper or tower-http.
//! - `skills` (default): the Skills extension (`skill`, `Server::skills_dir`, `Server::skill`);
//!   it brings `yaml-rust2` (the front matter) and `sha2` (the files' digests).
//! - `oauth` (off; implies `http`): the server verifies OAuth access tokens itself
//!   (`http::HttpConfig::oauth`, `run()`'s `--oauth-issuer URL`): JWTs against the issuer's JWKS,
//!   opaque tokens by introspection; the `http` module's guide says how. It brings `jsonwebtoken`
//!   (pure-Rust crypto) and `reqwest` (rustls) to fetch the issuer's keys.
//! - `otel` (off): a request whose `params._meta` carries W3C trace context (`traceparent`,
//!   `tracestate`) continues the client's trace: its span's parent is the client's span, through
//!   `tracing-opentelemetry`. Add a `tracing_opentelemetry::layer()` to your subscriber to export
//!   the spans.
//! - `redis` (off; implies `http`): replicas behind a load balancer share legacy sessions,
//!   resumable streams, tasks, change notifications and the `requestState` key through Redis
//!   (`http::HttpConfig::redis`, `run()`'s `--redis URL`); see the `redis` module.
//!
//! # Logging and tracing
//!
//! Everything is logged through `tracing`; the library never installs a global subscriber:
//! `serve_stdio`, `serve_io` and `serve_http` log into whatever subscriber your application set
//! up. [`Server::run`], the ready-made entry, installs one writing to stderr unless you installed
//! your own: stdout carries only protocol messages. `RUST_LOG` set to valid directives is obeyed
//! as written (invalid ones are reported and ignored), request spans included (`RUST_LOG=info`
//! prints each event with its request's span); unset, events at `info` and above are written
//! without span context and no request span is created, which makes each call cheaper.
//!
//! Every request is a `tracing` span named and attributed by the OpenTelemetry semantic
//! conventions for MCP (`tools/call search`, with `mcp.method.name`, `mcp.protocol.version`,
//! `mcp.session.id`, `jsonrpc.request.id`, `gen_ai.tool.name`, `gen_ai.operation.name`,
//! `network.transport`, and `error.type` on failure); what a tool logs is inside it.
//! [`Context::log`] sends a log message to the client instead (`notifications/message`).
//!
//! # Errors, the contract
//!
//! | situation | what the client gets |
//! | --- | --- |
//! | invalid JSON | JSON-RPC `-32700` (with the id when it can still be read); the server keeps serving |
//! | not a JSON-RPC request | `-32600` |
//! | unknown method | `-32601` (2026-07-28 over HTTP: status 404) |
//! | unknown tool | `-32602` `Unknown tool: <name>` |
//! | arguments that fail the input schema | `isError: true`, `Input validation error: Invalid arguments for tool <name>: <path>: <message>, …` |
//! | the tool returns `Err(e)` | `isError: true` with `e`'s message |
//! | the tool panics | `isError: true`; the server keeps serving |
//! | the tool runs past [`Server::call_timeout`] | `isError: true`, naming the limit |
//! | `structuredContent` that fails the output schema | `isError: true`, `Output validation error: …` (logged as a server bug) |
//! | a `u128`/`i128` past `i64::MIN..=u64::MAX`, a NaN or infinite float in a `Json<T>` result | `isError: true` naming the field (in an `Option<f64>` a NaN is sent as `null`): JSON numbers cannot carry them; send such values as strings |
//! | 2026-07-28 over HTTP: an `Mcp-Param-*` header missing or unlike its argument | status 400, `-32020` `Header mismatch: …` ([`tool`](macro@tool), "Header-routed arguments") |
//! | a `task = "required"` tool called by a client without the tasks extension (every legacy client, whose `tools/list` leaves it out) | `-32021` with `data.requiredCapabilities.extensions` ([`task`]) |
//! | a task past [`Server::max_tasks`] or [`Server::max_tasks_per_principal`] | `-31000` `Too many tasks: …` for a required-task tool; a `#[tool(task)]` call runs within its request |
//! | `tasks/get`, `tasks/update`, `tasks/cancel` of an unknown, expired or another caller's task | `-32602` `Failed to retrieve task: Task not found: …` |
//!
//! A string holding a lone UTF-16 surrogate (`"\ud83d"`, a truncated emoji JavaScript and
//! Python write) is read as they read it, the surrogate become U+FFFD.
//!
//! # What is not served
//!
//! The experimental tasks of 2025-11-25 (SEP-1686: `tools/call`'s `task` param, `tasks/result`,
//! `tasks/list`): a legacy client's call runs to its result within its request. Tasks are served
//! as the 2026-07-28 extension ([`task`]).

#![warn(missing_debug_implementations)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod arguments;
mod call;
mod caps;
mod cli;
mod client_capabilities;
mod context;
mod fields;
mod host_config;
mod jsonrpc;
mod limits;
mod principal;
mod random;
mod rate_limit;
mod registry;
#[cfg(feature = "redis")]
mod replicas;
mod schema;
mod server;
mod session;
mod state;
mod sync;
mod transport;
mod types;
mod validate;
mod visibility;

pub mod apps;
pub mod ask;
pub mod completion;
pub mod error;
pub mod hook;
pub mod http;
pub mod icon;
pub mod lint;
pub mod middleware;
pub mod prompt;
pub mod protocol;
#[cfg(feature = "redis")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub mod redis;
pub mod resource;
pub mod result;
#[cfg(feature = "skills")]
#[cfg_attr(docsrs, doc(cfg(feature = "skills")))]
pub mod skill;
pub mod task;
pub mod testing;
pub mod tool;

#[doc(hidden)]
pub mod __private;

/// Entry points for the fuzz targets and property tests; not part of the API.
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod __fuzz;

pub use context::{Context, LogLevel};
pub use error::Error;
/// Makes an fn an MCP prompt (`prompts/list`, `prompts/get`), served by every [`Server`] in the
/// binary; see the [`prompt`](mod@prompt) module for what it returns and prompts built at run
/// time.
///
/// | key | meaning | default |
/// | --- | --- | --- |
/// | `name = "…"` | the prompt's name, checked at compile time against `^[A-Za-z0-9_.-]{1,64}$` | the fn name |
/// | `title = "…"` | the name people see | none |
/// | `description = "…"` | what the prompt is for | the fn's `///` doc comment; neither is a compile error |
/// | `complete(param = path, …)` | the completer fn of an argument (see [`completion`]), named by its parameter (without `r#`) or by its name on the wire (a `#[serde(rename)]`); a name that is neither is a compile error | its type's known values, if any |
/// | `icons(src = "https://…", …)`, `icons(data = include_bytes!("icon.png"), mime_type = "image/png")` | an icon hosts may show, as on `#[tool]` (see [`icon`]), the key repeated for each | none |
/// | `tags("admin", "beta")` | labels a server chooses what it serves by ([`Server::only_tags`]: only the prompts tagged with one of its tags, so an untagged one is not served; [`Server::without_tags`]: none tagged with one of its tags; `run()`'s `--only-tags`, `--without-tags`), and what each caller sees of what is served by ([`Server::visibility`], a rule on the caller, both eras; a legacy session's own [`Context::enable_tags`]/[`disable_tags`](Context::disable_tags), told to that session alone as `list_changed`); string literals, each not empty, without comma or white space, given once | none |
/// | `scopes("notes:read")` | the OAuth scopes a caller's token must grant, all of them, to see the prompt in `prompts/list`, to get it and to complete its arguments; a caller lacking one gets `403` with the `insufficient_scope` challenge naming them (see [`http`], "Scopes"). Only a caller identity is checked: without one (stdio; HTTP without auth) it is served to everyone. The rules of a scope are `#[tool]`'s | none: anyone |
/// | `crate = path` | where the runtime crate is | `::mcp_toolbelt` |
///
/// On a parameter: its `///` comment is the argument's description; `#[serde(default)]` makes
/// it optional (absent: `Default::default()`), as `Option<T>` does (absent: `None`); every
/// other parameter is required; `#[serde(rename = "…")]` names the argument (the parameter's
/// name otherwise); `#[complete(path)]` names its completer fn. A parameter is any
/// `FromStr` type (`String`, numbers, `bool`, your own), or a type that deserializes from a JSON
/// string (a unit enum deriving `serde::Deserialize`); a value it refuses, or a required
/// argument missing, is `-32602` naming the argument and what was expected. A [`Context`]
/// (to ask the client: [`Context::elicit`]) or [`State<T>`](State) parameter works as in a
/// tool. A plain `fn` runs on tokio's blocking threads, as a plain `#[tool]` fn does, so it may
/// block (a database read) without stalling other requests.
///
/// An argument struct, as a tool takes one: a lone parameter (besides `Context` and app state)
/// of a type of yours deriving `Deserialize` and `JsonSchema` whose schema is an object has its
/// fields for arguments, in their order, each described by its `///` comment and required
/// unless it is an `Option` or `#[serde(default)]`; each value is read as the field's JSON type
/// (`"12"` a number, `"true"` a boolean, a unit enum's name), a value the field refuses is
/// `-32602` naming the argument, and a unit enum field completes with its values. Any other
/// lone type (a unit enum, your own `FromStr`) is one argument named after the parameter.
///
/// ```
/// use mcp_toolbelt::prompt;
/// use schemars::JsonSchema;
/// use serde::Deserialize;
///
/// #[derive(Deserialize, JsonSchema)]
/// struct TriageArgs {
///     /// The issue's number
///     issue: u32,
///     /// Who looks at it
///     assignee: Option<String>,
/// }
///
/// /// Triage an issue
/// #[prompt]
/// async fn triage(args: TriageArgs) -> String {
///     format!("Triage #{} for {}", args.issue, args.assignee.as_deref().unwrap_or("anyone"))
/// }
/// ```
///
/// The fn returns `String` or `&'static str` (one user message), `Vec<PromptMessage>`, a
/// [`GetPromptResult`](prompt::GetPromptResult) (with a description), or a `Result` of one of
/// these: an `Err` of [`PromptError::invalid_argument`](prompt::PromptError::invalid_argument)
/// refuses a value (`-32602`), any other `Err` is a JSON-RPC error (`-32603`) carrying its
/// message. Two prompts of one name stop the server at start-up, naming both places.
///
/// ```
/// use mcp_toolbelt::prompt;
///
/// /// Review a change for one concern
/// #[prompt(name = "review", title = "Review")]
/// async fn review_prompt(
///     /// What to look for
///     concern: String,
///     /// How many findings at most
///     #[serde(default)]
///     limit: u32,
/// ) -> String {
///     format!("Review the change for {concern}; list at most {limit} findings.")
/// }
/// ```
///
/// ```compile_fail
/// #[mcp_toolbelt::prompt] // no description: add a `///` comment
/// async fn undocumented() -> String { String::new() }
/// ```
pub use mcp_toolbelt_macros::prompt;
/// Serves a `static`/`const` of text or bytes, or an fn, as an MCP resource (`resources/list`,
/// `resources/read`, `resources/templates/list`).
///
/// | key | meaning | default |
/// | --- | --- | --- |
/// | `uri = "…"` | the URI, or an RFC 6570 level-1 template (`docs://{topic}/{page}`) for an fn | required |
/// | `name = "…"` | the resource's name | the item's name (a `static`'s in lower case) |
/// | `title = "…"`, `description = "…"` | for people and the model | none; the `///` comment |
/// | `mime_type = "…"` | `mimeType` on list and read | none |
/// | `app`, `app(csp(connect_domains = […], resource_domains = […], frame_domains = […], base_uri_domains = […]), permissions(camera, microphone, geolocation, clipboard_write), domain = "…", prefers_border)` | an MCP Apps view: MIME type `text/html;profile=mcp-app` and that `_meta.ui`; its URI must be a plain `ui://` URI | not a view |
/// | `complete(var = path, …)` | the completer fn of a template variable (see [`completion`]); a name that is no variable is a compile error | its parameter type's known values, if any (a unit enum deriving `JsonSchema`) |
/// | `crate = path` | where the runtime crate is | `::mcp_toolbelt` |
/// | `icons(src = "https://…", mime_type = "image/png", sizes = ["48x48"], theme = "dark")`, `icons(data = include_bytes!("icon.png"), mime_type = "image/png")` | an icon hosts may show (SEP-973; sent to clients of 2025-11-25 and later), the key repeated for each: `src` an `https:` URL or `data:` URI, or `data` bytes sent as a base64 `data:` URI of `mime_type`; a literal that clients would reject (another scheme, a type that is no image, a size not `WxH`/`any`, a theme not `light`/`dark`) is a compile error, a `const` is checked by `--lint` | none |
/// | `tags("admin", "beta")` | labels a server chooses what it serves by ([`Server::only_tags`]: only the resources tagged with one of its tags, so an untagged one is not served; [`Server::without_tags`]: none tagged with one of its tags; `run()`'s `--only-tags`, `--without-tags`), and what each caller sees of what is served by ([`Server::visibility`], a rule on the caller, both eras; a legacy session's own [`Context::enable_tags`]/[`disable_tags`](Context::disable_tags), told to that session alone as `list_changed`); string literals, each not empty, without comma or white space, given once | none |
/// | `scopes("notes:read")` | the OAuth scopes a caller's token must grant, all of them, to see the resource (or template) in `resources/list` (`resources/templates/list`), to read it (or a URI its template matches) and to complete its variables; a caller lacking one gets `403` with the `insufficient_scope` challenge naming them (see [`http`], "Scopes"). Only a caller identity is checked: without one (stdio; HTTP without auth) it is served to everyone. The rules of a scope are `#[tool]`'s | none: anyone |
///
/// A `static` or `const` is `&str` (`include_str!`) or `&[u8]` (`include_bytes!`, sent as a
/// base64 `blob`); clients of 2026-07-28 may cache it for the server's TTL, an fn's contents not
/// at all. A plain fn runs on the async worker, unlike a plain `#[tool]` fn: it must not block.
/// An fn (plain or `async`) takes one parameter per template variable, named
/// after it, of any `FromStr` type, and, anywhere among them, the request's [`Context`] and app
/// state ([`State<T>`](State)) as a `#[tool]` does; it returns anything [`IntoResourceBody`](resource::IntoResourceBody) (`String`,
/// `Vec<u8>`, an `Option` of one whose `None` tells the client "Resource not found", a `Result`
/// of one: `Err(ResourceError::NotFound(_))` is `-32602` "Resource not found", any other error
/// `-32603` with its text). A template variable
/// that is not a parameter, a parameter that is not a variable (nor a `Context` or `State<T>`),
/// and a malformed URI are compile errors; two resources of one URI, and a `State<T>` the server
/// was not given, stop the server at start-up, naming the places.
///
/// ```
/// use mcp_toolbelt::resource;
///
/// /// The albums view
/// #[resource(uri = "ui://doc-albums/view.html", app(prefers_border))]
/// static ALBUMS_VIEW: &str = "<!doctype html><p>albums</p>";
///
/// /// One chapter of the manual
/// #[resource(uri = "docs://manual/{chapter}", mime_type = "text/markdown")]
/// async fn chapter(chapter: u32) -> String {
///     format!("# Chapter {chapter}")
/// }
/// ```
///
/// ```compile_fail
/// #[mcp_toolbelt::resource(uri = "docs://manual/{chapter}")] // `chapter` is not a parameter
/// async fn manual() -> String { String::new() }
/// ```
pub use mcp_toolbelt_macros::resource;
/// Makes an `async fn` (or a plain `fn`) an MCP tool, served by every [`Server`] in the binary.
///
/// | key | meaning | default |
/// | --- | --- | --- |
/// | `name = "get-weather"` | the MCP tool name, checked at compile time against `^[A-Za-z0-9_.-]{1,64}$` | the fn name |
/// | `title = "…"` | the name people see (`title`) | none |
/// | `description = "…"` | what the model reads (`description`) | the fn's `///` doc comment; neither is a compile error |
/// | `annotations(read_only, destructive, idempotent, open_world)` | `readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`; a bare word means `true`, `= false` is allowed; `read_only` with `destructive` is a compile error | left out |
/// | `output_schema = false` | no `outputSchema` and no `structuredContent` (a `Json<T>` result is its JSON text alone), for hosts that fail tools declaring an output schema (`--lint`'s `output-schema` warning) | the return type's schema |
/// | `output_schema = path` | a hand-written `outputSchema`: the fn at `path` returns a `serde_json::Value` or a `schemars::Schema`; results are checked against it; only for a return type with structured content (`Json<T>`, `CallToolResult`; else a compile error) | the return type's schema |
/// | `portable = false` | the input schema exactly as schemars generates it (`format: "uint8"`, `type: ["string", "null"]`, …), without the portable rewrite, for a host that takes what the rewrite removes; `--lint` then judges it as served, per the profiles you name. Unknown arguments are still refused | portable |
/// | `input_schema = path` | a hand-written input schema: the fn at `path` returns a `serde_json::Value` or a `schemars::Schema`, served as written and the one arguments are validated against (serde still reads them into your types: keep the two in step); not an object schema stops the server at start-up, naming the tool. Excludes `portable` and `#[header]` (write `x-mcp-header` in the schema) | derived |
/// | `asks(ConfirmDelete, …)` | the form types the tool elicits ([`Context::elicit`]): one that cannot be a form stops the server at start-up, naming the tool | none (checked when asked) |
/// | `crate = path` | where the runtime crate is, when you renamed it | `::mcp_toolbelt` |
/// | `ui = "ui://…"` | MCP Apps: the tool's view, a [`resource`](macro@resource) marked `app` (`_meta.ui.resourceUri`, and the deprecated `_meta["ui/resourceUri"]`); a URI that is no app view stops the server at start-up | none |
/// | `visibility(model, app)` | MCP Apps: who may call the tool (`_meta.ui.visibility`); `visibility(app)` hides it from the model, for a view's buttons | both |
/// | `task`, `task = "optional"` (the same), `task = "required"` | the tasks extension ([`task`]): the tool may run as a task (`task`: when the client negotiated `io.modelcontextprotocol/tasks`, at once or past [`Server::task_budget`]) or always does (`"required"`: a client without the extension gets `-32021`, and a legacy client's `tools/list` leaves the tool out); `tools/list` shows `execution.taskSupport` (from 2025-11-25); the fn is unchanged (a plain `fn`, which cannot be stopped midway, keeps its cancelled task `working` until it returns). Any other value is a compile error | never a task |
/// | `icons(src = "https://…", mime_type = "image/png", sizes = ["48x48"], theme = "dark")`, `icons(data = include_bytes!("icon.png"), mime_type = "image/png")` | an icon hosts may show (SEP-973; sent to clients of 2025-11-25 and later), the key repeated for each: `src` an `https:` URL or `data:` URI, or `data` bytes sent as a base64 `data:` URI of `mime_type`; a literal that clients would reject (another scheme, a type that is no image, a size not `WxH`/`any`, a theme not `light`/`dark`) is a compile error, a `const` is checked by `--lint` | none |
/// | `tags("admin", "beta")` | labels a server chooses what it serves by ([`Server::only_tags`]: only the tools tagged with one of its tags, so an untagged one is not served; [`Server::without_tags`]: none tagged with one of its tags; `run()`'s `--only-tags`, `--without-tags`), and what each caller sees of what is served by ([`Server::visibility`], a rule on the caller, both eras; a legacy session's own [`Context::enable_tags`]/[`disable_tags`](Context::disable_tags), told to that session alone as `list_changed`); string literals, each not empty, without comma or white space, given once | none |
/// | `scopes("notes:write", "notes:admin")` | the OAuth scopes a caller's token must grant, all of them, to see the tool in `tools/list` and to call it (the same key on [`resource`](macro@resource) and [`prompt`](macro@prompt) guards reads, gets and completions); a caller lacking one gets `403` with the `insufficient_scope` challenge naming them (see [`http`], "Scopes"). Only a caller identity is checked: over stdio, a local process its user started, and over HTTP without auth, there is none, and the tool is served to everyone (`--lint` warns of this: `scopes-without-auth`). A scope that is empty, has a space, `"`, `\` or a non-ASCII character, or is listed twice is a compile error (given to a run-time `Tool`, `Resource` or `Prompt`'s `.scopes([…])`, the same is refused when the item is added) | none: anyone |
/// | `rate_limit = "10/min"` | the tool's own limit: at most N calls per UNIT (`s`, `min` or `h`) for each principal, bursts up to N, on top of the server's limit on every request ([`Server::rate_limit`], which says who a principal is); past it the call is not run and answers `-32029` with `data.retryAfterMs` (over HTTP `429` with `Retry-After`). Counted in this process, or with Redis by every replica together. A literal that is not `N/UNIT` (N from 1 to 1,000,000) is a compile error saying what to write | none: the server's limit alone |
///
/// A tool with a view still returns `content` that makes sense alone: hosts without the
/// extension ([`Context::client_supports_apps`]) show only that (see [`apps`]).
///
/// On a parameter:
///
/// | attribute | meaning |
/// | --- | --- |
/// | `///` comment | the property's `description` |
/// | `#[serde(…)]`, `#[schemars(…)]` | apply to the property as on a struct field (`rename`, `default`, `range`, …) |
/// | `#[cfg(…)]` | removes the parameter and its property |
/// | `#[header("Name")]` | the argument also travels as the HTTP header `Mcp-Param-Name` (see "Header-routed arguments") |
/// | `#[property]` | the parameter is one property named after it, whatever its type: a lone `filter: Filter` then takes `{"filter": {…}}` rather than `Filter`'s fields (see "Arguments") |
/// | `#[context]` | the parameter is the request's [`Context`], under a name the macro cannot recognise (an alias) |
///
/// # Arguments
///
/// - **An argument struct**: the only parameter (besides [`Context`] and app state) of a type of
///   yours that derives `serde::Deserialize` and `schemars::JsonSchema` (schemars 1): the
///   arguments are its fields (`async fn list(filter: Filter)` takes `{…Filter's fields}`).
///   The parameter's type decides, never its doc comment: documenting it changes no wire shape
///   (a doc comment there describes nothing, unless the type's schema is no object, below).
///   Mark it `#[property]` to take it as one property instead (`{"filter": {…}}`). Its fields'
///   `///` comments become the properties' descriptions; serde (`rename_all`, `default`,
///   `skip`, `flatten`) and schemars (`range`, `length`, `regex`) attributes are honoured. A
///   lone type of yours whose schema is no object (a newtype of a string, `uuid::Uuid`) is one
///   property named after the parameter, described by its doc comment; this is decided when
///   the server starts, from the schema.
/// - **Inline parameters**: otherwise each parameter is one property named after it, its `///`
///   comment its description (exactly as on a struct field), required unless it is an `Option`.
///   `#[serde(…)]` and `#[schemars(…)]` attributes on a parameter apply to its property
///   (`#[serde(rename = "who")]`, `#[serde(default)]`, `#[schemars(range(max = 5))]`), and
///   `#[cfg(…)]` removes a parameter and its property. An `Option<Option<T>>` parameter is
///   "left out = keep, `null` = clear": `null` arrives as `Some(None)`, and the property is
///   advertised nullable (`"type": [T, "null"]`) so that a model can send it. In an argument
///   struct, the serde pattern does the same: `#[serde(default)]` (left out reads `None`) and a
///   double-option `deserialize_with` (`serde_with::rust::double_option`) read `null` as
///   `Some(None)`; add `#[schemars(extend("x-mcp-nullable" = true))]` to advertise the
///   property nullable too (without it, it is advertised as `T`, and a `null` still reaches the
///   field).
/// - A parameter of type `Context` or `&Context` is never part of the input, in any position.
///   The type is read as written: `Context`, `mcp_toolbelt::Context` and `<crate path>::Context`
///   are the request's context (a bare `Context` that is a type of yours is a compile error: write
///   its path, `crate::Context`, to take it as the argument struct). An alias
///   (`use mcp_toolbelt::Context as Ctx`) cannot be recognised by its name: mark the parameter,
///   `#[context] ctx: &Ctx` (unmarked, the compile error says so at its type).
///
/// A lone parameter of a standard type is a property (`async fn echo(message: String)` takes
/// `{"message": …}`). A type of yours next to other parameters is a property when it is
/// documented or marked `#[property]`; otherwise (a second argument struct) it is a compile
/// error that says what to write.
///
/// The fn itself must be a free fn (not a method), concrete (no generics, `where` clauses or
/// `impl Trait` parameters), safe (not `unsafe`), and take its input by value (`String`, not
/// `&str`: arguments are deserialized from JSON); the `Context` is taken as `Context` or
/// `&Context`, never `&mut`. An `async fn`'s future must be `Send`, since calls run on a
/// multi-threaded runtime. A plain `fn` runs on tokio's blocking threads
/// (`tokio::task::spawn_blocking`), so it may block without stalling other requests; its
/// parameters and result must then be `Send`, and a cancelled call cannot stop it midway (as a
/// task, it stays `working` until it returns: see [`task`]).
///
/// The description is the fn's doc comment as rustdoc shows it, `#[doc = include_str!("…")]` and
/// other macro-valued doc attributes included, or `description = "…"` (never empty).
///
/// # Header-routed arguments
///
/// A load balancer or gateway that routes on an argument (a `region`, a `tenant`) need not read
/// the body: mark the argument, and a 2026-07-28 HTTP client also sends it as the header
/// `Mcp-Param-{Name}` (SEP-2243). On an inline parameter, `#[header("Name")]`; on a field of an
/// argument struct (or of a struct nested in it), schemars' own
/// `#[schemars(extend("x-mcp-header" = "Name"))]`. Either puts `"x-mcp-header": "Name"` on the
/// property in the input schema.
///
/// ```
/// use mcp_toolbelt::tool;
///
/// /// Run a query in a region
/// #[tool]
/// async fn run_query(
///     /// Where to run it
///     #[header("Region")]
///     region: String,
///     /// The SQL
///     sql: String,
/// ) -> String {
///     format!("{sql} in {region}")
/// }
/// ```
///
/// The server checks every such header of a 2026-07-28 `tools/call` over HTTP against the
/// argument, `=?base64?…?=` values decoded and integers compared as numbers (`42.0` is `42`): a
/// missing, repeated, undecodable or different header is refused with status `400` and JSON-RPC
/// error `-32020` (`HeaderMismatch`), before the tool runs. An argument that is absent or `null`
/// needs no header (and a header for it is refused). Legacy clients and stdio send no such headers
/// and need none. The spec's rules for a mark are checked when the server starts (a
/// [`RegistryError`](error::RegistryError) naming the tool and the property, as for [`Tool::new`](tool::Tool::new)): only a `string`,
/// `integer` or `boolean` property, reached from the arguments through properties alone (not
/// inside a list or an enum), named by an RFC 9110 token, and no two names equal ignoring case.
/// `#[header]`'s own mistakes (no name, not a token, two parameters in one header) are compile
/// errors. Headers are seen by every proxy on the way: never mark a secret.
///
/// # Results
///
/// Anything [`IntoToolResult`](result::IntoToolResult): `String`, `&str`, `()`, [`Json<T>`] (structured content and an
/// `outputSchema`), [`Content`], `Vec<Content>`, [`CallToolResult`], or `Result<R, E: Display>`
/// (`Err` becomes an `isError` result the model reads). A panic becomes an `isError` result too;
/// the server keeps serving. See [`result`].
///
/// # Portable schemas
///
/// Hosts drop tools, or fail a whole request, for schemas they dislike, so schemas are
/// **portable by default**: no `$schema`, no `$ref`/`$defs` (everything inlined, except
/// recursive types), an optional *property* (`Option<T>`) advertised as `T` and not required (a
/// `null` is accepted: validated as absent, then given to your type, which reads it (an
/// `Option`: `None`; a double-option `deserialize_with`: `Some(None)`) or, refusing it (a
/// `#[serde(default)] count: u32`), is given it absent; inside a list, map or tuple `null` stays
/// a value), no
/// `uint32`/`double` formats (integer widths become `minimum`/`maximum`), `type` on every
/// property (a list of types for a mixed enum, every JSON type for `serde_json::Value`), `items`
/// on every array, unit enums as string `enum`s. These are the shapes Claude, OpenAI, Cursor and
/// VS Code accept.
///
/// Unknown arguments are refused, whatever the tool's style and at every depth: every object the
/// arguments describe (the root, a nested struct, an enum's variant, a map's values, a recursive
/// type's `$defs`) advertises `additionalProperties: false` and is validated against it (unless
/// it is a map or has a flattened map; an enum of objects closes each branch; a struct with a
/// flattened enum stays open, as no one `additionalProperties` can see its branches' fields).
///
/// Four shapes need a `type` list, which hosts that convert schemas to OpenAPI (some
/// Gemini-backed ones) refuse, and Cursor refuses `[T, "null"]`: an `Option` inside a list, map
/// or tuple, an `Option<Option<T>>` property, a mixed enum, and `serde_json::Value`. Avoid them
/// in tools meant for such hosts (an `Option<Option<T>>` has no one-type form: an `Option<T>`
/// beside a `clear_…: bool` says the same). [`lint`] (`--lint`) says which host minds what;
/// `portable = false`, `input_schema` and `output_schema` are the escape hatches, per tool.
///
/// # What you write, what you get
///
/// ```
/// use mcp_toolbelt::{tool, Context};
///
/// /// Add two numbers
/// #[tool(annotations(read_only, idempotent))]
/// async fn add(
///     /// Left operand
///     a: i64,
///     /// Right operand
///     b: i64,
///     context: &Context,
/// ) -> String {
///     context.progress(1.0, Some(1.0), None);
///     (a + b).to_string()
/// }
/// ```
///
/// `add` stays as you wrote it (less the parameter doc comments rustc would reject) and callable.
/// Next to it, inside a `const _: () = { … };`, the attribute generates a hidden argument struct
/// (`a`, `b`, deriving `Deserialize` and `JsonSchema`), an adapter that deserializes the validated
/// arguments, awaits `add` and converts its output with [`IntoToolResult`](result::IntoToolResult), and an
/// `inventory::submit!` of the tool's name, title, description, hints, schema functions and
/// adapter.
///
/// Renamed dependency:
///
/// ```
/// use mcp_toolbelt as toolbelt;
///
/// /// Say hello through the renamed crate
/// #[toolbelt::tool(crate = toolbelt)]
/// async fn hello_from_renamed_crate() -> &'static str {
///     "hello"
/// }
/// ```
///
/// Misuses are compile errors at your token:
///
/// ```compile_fail
/// #[mcp_toolbelt::tool] // no description: add a `///` comment or `description = "…"`
/// async fn undocumented() -> String { String::new() }
/// ```
///
/// ```compile_fail
/// /// Reads and deletes
/// #[mcp_toolbelt::tool(annotations(read_only, destructive))] // contradictory hints
/// async fn contradictory() -> String { String::new() }
/// ```
///
/// ```compile_fail
/// struct NotAnArgument;
/// /// Takes a type that is neither `Deserialize` nor `JsonSchema`
/// #[mcp_toolbelt::tool]
/// async fn bad_arguments(args: NotAnArgument) -> String { String::new() }
/// ```
pub use mcp_toolbelt_macros::tool;
pub use rate_limit::{RateLimit, RateLimitError};
pub use result::{CallToolResult, Content, Json, ToolError};
pub use server::Server;
pub use state::State;
pub use visibility::{Visibility, VisibilityError};

/// The README's Rust blocks, compiled and run as doctests, so that the README shows no code that
/// does not build (`cargo test -p mcp-toolbelt --doc ReadmeDoctests`).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
