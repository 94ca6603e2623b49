//! Write Model Context Protocol (MCP) tools as annotated `async fn`s and serve every one of them
//! over stdio or Streamable HTTP.
//!
//! ```no_run
//! use mcp_toolbelt::{tool, Json};
//! use schemars::JsonSchema;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct WeatherArgs {
//!     /// City name
//!     location: String,
//! }
//!
//! #[derive(Serialize, JsonSchema)]
//! #[serde(rename_all = "camelCase")]
//! struct Weather {
//!     temperature_c: f64,
//!     summary: String,
//! }
//!
//! /// Get current weather for a location
//! #[tool(title = "Get Weather", annotations(read_only, open_world = false))]
//! async fn get_weather(args: WeatherArgs) -> Json<Weather> {
//!     Json(Weather { temperature_c: 22.0, summary: format!("{}: partly cloudy", args.location) })
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
//! [`Server::run`] serves stdio, or what the process arguments ask for (`--http 8080`,
//! `--list-tools`, `--lint`, `--print-config claude-desktop`, `--help`), and installs a stderr
//! logger; the `serve_*` methods (`serve_stdio`, `serve_http`) serve one transport and read no
//! arguments, for a binary that parses its own.
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
//! ```ignore
//! use my_tools as _; // links `my_tools`, so its `#[tool]`s are served
//! ```
//!
//! Without it the crate's tools are silently missing (`tests/tests/other_crate.rs` tests a
//! tools-only crate linked with this line; the case without it is not tested).
//! `extern crate my_tools;` works too, but the `unused_extern_crates` lint suggests deleting it,
//! which would drop the tools; prefer `use … as _`. Doc tests of one crate are merged into one binary (edition 2024), so their
//! tools share one registry too: give each a distinct name.
//!
//! # Cargo features
//!
//! - `http` (default): Streamable HTTP (`Server::serve_http`, `Server::into_router`,
//!   `HttpConfig`, `run()`'s `--http`). Without it (`default-features = false`) a stdio server
//!   compiles none of axum, hyper or tower-http.
//! - `otel` (off): a request whose `params._meta` carries W3C trace context (`traceparent`,
//!   `tracestate`) continues the client's trace: its span's parent is the client's span, through
//!   `tracing-opentelemetry`.
//!
//! # App state, call hooks, tracing
//!
//! [`Server::state`] gives tools shared values, taken as a [`State<T>`] parameter or through
//! [`Context::state`]. [`Server::hook`] adds code around every call; hooks run before the
//! arguments are validated, the first added outermost, and see what the client would get (see
//! [`hook`] for the order and how to refuse). Every request is a `tracing` span named and
//! attributed by the OpenTelemetry semantic conventions for MCP (`tools/call search`, with
//! `mcp.method.name`, `mcp.protocol.version`, `mcp.session.id`, `jsonrpc.request.id`,
//! `gen_ai.tool.name`, `gen_ai.operation.name`, `network.transport`, and `error.type` on failure).
//! ([`Server::run`]'s own stderr logger creates them only when `RUST_LOG` asks for them.)
//!
//! # Logging
//!
//! Everything is logged through `tracing`; the library installs no subscriber. [`Server::run`]
//! installs one writing to stderr (unless the application has its own): stdout carries only
//! protocol messages.
//!
//! # Errors, the contract
//!
//! | situation | what the client gets |
//! | --- | --- |
//! | invalid JSON | JSON-RPC `-32700`; the server keeps serving |
//! | not a JSON-RPC request | `-32600` |
//! | unknown method | `-32601` (2026-07-28 over HTTP: status 404) |
//! | unknown tool | `-32602` `Unknown tool: <name>` |
//! | arguments that fail the input schema | `isError: true`, `Input validation error: Invalid arguments for tool <name>: <path>: <message>, …` |
//! | the tool returns `Err(e)` | `isError: true` with `e`'s message |
//! | the tool panics | `isError: true`; the server keeps serving |
//! | `structuredContent` that fails the output schema | `isError: true`, `Output validation error: …` (logged as a server bug) |
//! | 2026-07-28 over HTTP: an `Mcp-Param-*` header missing or unlike its argument | status 400, `-32020` `Header mismatch: …` ([`tool`](macro@tool), "Header-routed arguments") |

#![warn(missing_debug_implementations)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod call;
mod cli;
mod context;
mod host_config;
mod jsonrpc;
mod limits;
mod principal;
mod registry;
mod schema;
mod server;
mod session;
mod state;
mod sync;
mod transport;
mod types;
mod validate;

pub mod apps;
pub mod ask;
pub mod error;
pub mod hook;
pub mod http;
pub mod lint;
pub mod protocol;
pub mod resource;
pub mod result;
pub mod testing;
pub mod tool;

#[doc(hidden)]
pub mod __private;

/// Entry points for the fuzz targets and property tests; not part of the API.
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod __fuzz;

pub use context::{Context, LogLevel, UnknownLogLevel};
pub use error::Error;
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
/// | `crate = path` | where the runtime crate is | `::mcp_toolbelt` |
///
/// A `static` or `const` is `&str` (`include_str!`) or `&[u8]` (`include_bytes!`, sent as a
/// base64 `blob`); clients of 2026-07-28 may cache it for the server's TTL, an fn's contents not
/// at all. A plain fn runs on the async worker, unlike a plain `#[tool]` fn: it must not block.
/// An fn (plain or `async`) takes one parameter per template variable, named
/// after it, of any `FromStr` type, and returns anything [`IntoResourceBody`](resource::IntoResourceBody) (`String`,
/// `Vec<u8>`, an `Option` of one whose `None` tells the client "Resource not found", a `Result`
/// of one whose error is the JSON-RPC error's message). A template variable
/// that is not a parameter, a parameter that is not a variable, and a malformed URI are compile
/// errors; two resources of one URI stop the server at start-up, naming both places.
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
///
/// A tool with a view still returns `content` that makes sense alone: hosts without the
/// extension ([`Context::client_supports_apps`]) show only that.
///
/// # Arguments
///
/// - **An argument struct**: the only parameter (besides [`Context`]), without a doc comment, of
///   a type that derives `serde::Deserialize` and `schemars::JsonSchema` (schemars 1). Its
///   fields' `///` comments become the properties' descriptions; serde (`rename_all`, `default`,
///   `skip`, `flatten`) and schemars (`range`, `length`, `regex`) attributes are honoured.
/// - **Inline parameters**: otherwise each parameter is one property named after it, its `///`
///   comment its description (exactly as on a struct field), required unless it is an `Option`.
///   `#[serde(…)]` and `#[schemars(…)]` attributes on a parameter apply to its property
///   (`#[serde(rename = "who")]`, `#[serde(default)]`, `#[schemars(range(max = 5))]`), and
///   `#[cfg(…)]` removes a parameter and its property. An `Option<Option<T>>` parameter is
///   "left out = keep, `null` = clear": `null` arrives as `Some(None)`, and the property is
///   advertised nullable (`"type": [T, "null"]`) so that a model can send it. In an argument
///   struct, a field reads `null` so when it says so: `#[serde(default)]` (left out reads
///   `None`), a double-option `deserialize_with` (`serde_with::rust::double_option`) and
///   `#[schemars(extend("x-mcp-nullable" = true))]`.
/// - A parameter of type `Context` or `&Context` is never part of the input, in any position.
///   The type is read as written: `Context`, `mcp_toolbelt::Context` and `<crate path>::Context`
///   are the request's context (a bare `Context` that is a type of yours is a compile error: write
///   its path, `crate::Context`, to take it as the argument struct). An alias
///   (`use mcp_toolbelt::Context as Ctx`) cannot be recognised by its name: mark the parameter,
///   `#[context] ctx: &Ctx` (unmarked, the compile error says so at its type).
///
/// A lone parameter of a standard type, documented or not, is a property
/// (`async fn echo(message: String)` takes `{"message": …}`). An undocumented type of yours next
/// to other parameters (a second argument struct) is a compile error that says what to write.
///
/// The fn itself must be a free fn (not a method), concrete (no generics, `where` clauses or
/// `impl Trait` parameters), safe (not `unsafe`), and take its input by value (`String`, not
/// `&str`: arguments are deserialized from JSON); the `Context` is taken as `Context` or
/// `&Context`, never `&mut`. An `async fn`'s future must be `Send`, since calls run on a
/// multi-threaded runtime. A plain `fn` runs on tokio's blocking threads
/// (`tokio::task::spawn_blocking`), so it may block without stalling other requests; its
/// parameters and result must then be `Send`, and a cancelled call cannot stop it midway.
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
/// `outputSchema`), [`Content`], `Vec<Content>`, [`CallToolResult`], or `Result<R, E: Display>`.
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
pub use result::{CallToolResult, Content, Json, ToolError};
pub use server::Server;
pub use state::State;
