//! Not public API: what `#[tool]`-generated code uses. It may change in any release.
//!
//! Names here show up in compile errors of user code, so they are named for people.

use std::sync::OnceLock;

pub use futures_util::future::BoxFuture;
pub use inventory;
pub use schemars;
pub use serde;
pub use serde_json;

pub use crate::context::Context;
pub use crate::registry::{
    AppView, Completer, CompleterFn, Completion, CompletionContext, GetPromptResult,
    IconRegistration, IconSource, IntoCompletion, IntoPromptResult, IntoResourceBody,
    PromptArgumentRegistration, PromptError, PromptGet, PromptRegistration, ResourceBody,
    ResourceError, ResourceRead, ResourceRegistration, ToolRegistration, ToolUiRegistration,
    VariableCompleter,
};
pub use crate::result::{CallToolResult, IntoToolResult};
pub use crate::state::{State, StateKey};
pub use crate::task::TaskSupport;
pub use crate::types::IconTheme;

use serde::de::DeserializeOwned;
use serde_json::Value;

mod arguments;
mod complete;

pub use arguments::*;
pub use complete::*;

/// The type of a `#[tool]` fn's argument struct.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the arguments of a `#[tool]` fn",
    label = "this argument type must derive `serde::Deserialize` and `schemars::JsonSchema`",
    note = "add `#[derive(serde::Deserialize, schemars::JsonSchema)]` to `{Self}` (schemars 1.x: `schemars = \"1\"` in Cargo.toml)",
    note = "or document each parameter with `///` to take them inline",
    note = "if it is the request's `Context` under another name (`use mcp_toolbelt::Context as Ctx`), mark the parameter `#[context]`"
)]
pub trait ToolArguments: DeserializeOwned + schemars::JsonSchema {}

impl<T: DeserializeOwned + schemars::JsonSchema> ToolArguments for T {}

/// The portable input schema of argument type `T`.
#[must_use]
pub fn input_schema<T: ToolArguments>() -> Value {
    crate::schema::input_schema::<T>()
}

/// `#[tool(portable = false)]`: the input schema of `T` as schemars generates it.
#[must_use]
pub fn generated_input_schema<T: ToolArguments>() -> Value {
    crate::schema::generated_input_schema::<T>()
}

/// What a fn named by `#[tool(input_schema = …)]` or `output_schema = …` may return.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a JSON Schema",
    label = "this fn must return the schema",
    note = "return a `serde_json::Value` (`serde_json::json!(…)`) or a `schemars::Schema`"
)]
pub trait IntoSchema {
    /// The schema as JSON.
    fn into_schema(self) -> Value;
}

impl IntoSchema for Value {
    fn into_schema(self) -> Value {
        self
    }
}

impl IntoSchema for schemars::Schema {
    fn into_schema(self) -> Value {
        self.to_value()
    }
}

/// `#[tool(input_schema = path)]`: the hand-written input schema, served and validated against
/// as it is (the registry refuses to start when it is not an object schema).
pub fn hand_written_schema<S: IntoSchema>(schema: fn() -> S) -> Value {
    schema().into_schema()
}

/// A return type whose result carries structured content, which a hand-written
/// `output_schema` can describe.
#[diagnostic::on_unimplemented(
    message = "`{Self}` returns no structured content for an `output_schema` to describe",
    label = "a hand-written `output_schema` needs structured content",
    note = "return `mcp_toolbelt::Json<T>` (or `Result<Json<T>, E>`, or a `CallToolResult` with `structured_content`), or remove `output_schema`"
)]
pub trait StructuredOutput: IntoToolResult {}

impl<T: serde::Serialize + schemars::JsonSchema + 'static> StructuredOutput for crate::Json<T> {}
impl StructuredOutput for CallToolResult {}
impl<R: StructuredOutput, E: std::fmt::Display> StructuredOutput for Result<R, E> {}

/// `#[tool(output_schema = path)]`: the hand-written output schema of a tool returning `R`.
pub fn hand_written_output<R: StructuredOutput, S: IntoSchema>(schema: fn() -> S) -> Option<Value> {
    Some(schema().into_schema())
}

/// A type a `#[tool(asks(…))]` names: what `Context::elicit` takes.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be asked for with `Context::elicit`",
    label = "a form type of `asks(…)`",
    note = "derive `serde::Deserialize` and `schemars::JsonSchema` for `{Self}`, a struct of flat primitive fields"
)]
pub trait AskedForm: DeserializeOwned + schemars::JsonSchema + 'static {}

impl<T: DeserializeOwned + schemars::JsonSchema + 'static> AskedForm for T {}

/// `#[tool(asks(T))]`: why `T` cannot be an elicitation form, checked at start-up.
///
/// # Errors
///
/// What in `T`'s schema no form can hold.
pub fn form_check<T: AskedForm>() -> Result<(), String> {
    crate::ask::form_check::<T>()
}

/// The input schema of a tool without arguments.
#[must_use]
pub fn empty_input_schema() -> Value {
    crate::schema::empty_input_schema()
}

/// Turns validated arguments into `T`, or the `isError` result naming the field serde refused
/// (see `call::deserialize_arguments`; boxed: the rare path carries a large value).
pub fn parse_arguments<T: DeserializeOwned>(
    tool: &str,
    arguments: Value,
) -> Result<T, Box<CallToolResult>> {
    crate::call::deserialize_arguments(tool, arguments)
}

/// The input schema of a tool whose lone parameter (of a type of the user's) is `name`: its
/// type's schema when that is an object, otherwise one property `name`, described by the
/// parameter's doc comment (see `call::lone_parameter_schema`).
pub fn lone_parameter_schema<T>(
    schema: fn() -> Value,
    parse: fn(&str, Value) -> Result<T, Box<CallToolResult>>,
    name: &str,
    description: Option<&str>,
) -> Value {
    // Only this closure is compiled for each type `T`.
    crate::call::lone_parameter_schema(
        schema,
        &|| parse(name, Value::Null).is_ok(),
        name,
        description,
    )
}

/// What the lone parameter `name` reads of the (validated) arguments: all of them, or the
/// property `name` (see `call::lone_parameter_arguments`); `is_property` is the tool's own,
/// decided at its first call.
#[must_use]
pub fn lone_parameter_arguments(
    is_property: &OnceLock<bool>,
    schema: fn() -> Value,
    name: &str,
    arguments: Value,
) -> Value {
    crate::call::lone_parameter_arguments(is_property, schema, name, arguments)
}

/// `#[tool(output_schema = false)]`: the result without its `structuredContent` (its text is
/// the same JSON).
#[must_use]
pub fn text_only(result: CallToolResult) -> CallToolResult {
    CallToolResult {
        structured_content: None,
        ..result
    }
}

/// The output schema of an `async` tool fn whose return type rustc cannot name (`impl
/// IntoToolResult`): `call` is never run, it only names the fn's output type, whose concrete
/// type's schema (`Json<T>`'s) is the tool's `outputSchema`.
#[must_use]
pub fn output_schema_of_async<F, Fut>(call: F) -> Option<Value>
where
    F: FnOnce() -> Fut,
    Fut: Future<Output: IntoToolResult>,
{
    let _ = call;
    <Fut::Output as IntoToolResult>::output_schema()
}

/// [`output_schema_of_async`] for a plain (not `async`) tool fn.
#[must_use]
pub fn output_schema_of<F, R>(call: F) -> Option<Value>
where
    F: FnOnce() -> R,
    R: IntoToolResult,
{
    let _ = call;
    R::output_schema()
}

/// A value of any type, to pass to a tool fn in a call that is never run (see
/// [`output_schema_of`]).
///
/// # Panics
///
/// Always: it is never called.
#[must_use]
pub fn never<T>() -> T {
    unreachable!("only names a type: never called")
}

/// An inline `Option<Option<T>>` parameter: a `null` is `Some(None)` ("clear"), absence (serde's
/// `default`) is `None` ("keep").
///
/// # Errors
///
/// When the value is not a `T` or `null`.
pub fn double_option<'de, T, D>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    T: serde::Deserialize<'de>,
    D: serde::Deserializer<'de>,
{
    <Option<T> as serde::Deserialize>::deserialize(deserializer).map(Some)
}

/// Checks, at the user's fn, that its future can run on a multi-threaded server.
pub fn assert_send<F: Future + Send>(future: F) -> F {
    future
}

/// The call of arguments serde refused ([`parse_arguments`]): their `isError` result. One copy
/// for every tool.
#[must_use]
#[allow(
    clippy::boxed_local,
    reason = "unboxed here, once, rather than in every tool's adapter (28 LLVM lines each)"
)]
pub fn refused(refused: Box<CallToolResult>) -> BoxFuture<'static, CallToolResult> {
    Box::pin(std::future::ready(*refused))
}

/// Checks, at the user's fn, that its future can run on a multi-threaded server, and makes it
/// the call's future, its output turned into the result by `convert`. Not an `async` block: a
/// tool compiles no coroutine of its own besides the user's fn (one whose parameters borrow the
/// context, `&Context`, gets an `async move` block that owns it instead).
pub fn tool_future<F: Future + Send + 'static>(
    future: F,
    convert: fn(F::Output) -> CallToolResult,
) -> BoxFuture<'static, CallToolResult> {
    Box::pin(Converted {
        future: Box::pin(future),
        convert,
    })
}

/// A tool fn's future and the conversion of its output. Generic over the output type only (the
/// fn's future is boxed): every tool returning a `String` shares one `poll`.
struct Converted<R> {
    future: BoxFuture<'static, R>,
    convert: fn(R) -> CallToolResult,
}

impl<R> Future for Converted<R> {
    type Output = CallToolResult;

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<CallToolResult> {
        let convert = self.convert;
        self.future.as_mut().poll(cx).map(convert)
    }
}

/// [`tool_future`] for a plain (not `async`) `#[tool]` fn: `call` calls it and converts its
/// output on tokio's blocking threads ([`run_blocking`]), so only the result crosses back.
pub fn blocking_future<F>(call: F) -> BoxFuture<'static, CallToolResult>
where
    F: FnOnce() -> CallToolResult + Send + 'static,
{
    Box::pin(run_blocking(call))
}

/// The request's `Context`: the only type a `#[tool]` fn's `Context` parameter can be.
#[diagnostic::on_unimplemented(
    message = "this `{Self}` is not `mcp_toolbelt::Context`",
    label = "`#[tool]` takes a parameter of a type named `Context` as the request's `Context`",
    note = "rename your type, or write its path (`crate::Context`) to take it as the argument struct"
)]
pub trait ToolContext {
    /// The context itself.
    fn from_request(context: &Context) -> &Self;
    /// A clone of the context.
    fn cloned(context: &Context) -> Self
    where
        Self: Sized;
}

impl ToolContext for Context {
    fn from_request(context: &Context) -> &Self {
        context
    }

    fn cloned(context: &Context) -> Self {
        context.clone()
    }
}

/// The request's context for a `&Context` parameter, checked to be one.
#[must_use]
pub fn context_ref<T: ToolContext>(context: &Context) -> &T {
    T::from_request(context)
}

/// The request's context for a `Context` parameter, checked to be one.
#[must_use]
pub fn context_value<T: ToolContext>(context: &Context) -> T {
    T::cloned(context)
}

/// Names a parameter's type for the checks of an aliased `Context` (`use mcp_toolbelt::Context
/// as Ctx`), which `#[tool]` cannot see through: `(&TypeProbe::<T>::new()).kind()` is
/// [`IsContext`] for the `Context` ([`ProbeContext`]) and [`IsOther`] for any other type
/// ([`ProbeOther`], reached by autoref only when the first does not apply).
pub struct TypeProbe<T: ?Sized>(std::marker::PhantomData<T>);

impl<T: ?Sized> TypeProbe<T> {
    /// The probe of `T`.
    #[must_use]
    pub const fn new() -> Self {
        Self(std::marker::PhantomData)
    }
}

impl<T: ?Sized> std::fmt::Debug for TypeProbe<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TypeProbe")
    }
}

impl<T: ?Sized> Default for TypeProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// A parameter's type is the request's `Context`.
#[derive(Debug)]
pub struct IsContext;

/// A parameter's type is not the request's `Context`.
#[derive(Debug)]
pub struct IsOther;

/// [`TypeProbe`] of the `Context`.
pub trait ProbeContext {
    /// [`IsContext`].
    fn kind(&self) -> IsContext {
        IsContext
    }
}

impl ProbeContext for TypeProbe<Context> {}

/// [`TypeProbe`] of any other type.
pub trait ProbeOther {
    /// [`IsOther`].
    fn kind(&self) -> IsOther {
        IsOther
    }
}

impl<T: ?Sized> ProbeOther for &TypeProbe<T> {}

/// A parameter that is not the `Context` under another name.
#[diagnostic::on_unimplemented(
    message = "this parameter is the request's `Context` under another name: mark it `#[context]`",
    label = "`#[tool]` cannot see through `use mcp_toolbelt::Context as …`",
    note = "write `#[context] ctx: &Ctx` (or `#[context] ctx: Ctx`), or name it `Context`"
)]
pub trait NotAnAliasedContext {}

impl NotAnAliasedContext for IsOther {}

/// Checks that an unmarked parameter is not the `Context` under another name.
pub fn not_an_aliased_context<K: NotAnAliasedContext>(kind: K) {
    let _ = kind;
}

/// A borrowed parameter that may be the `Context` (`&Ctx`), not a borrowed input.
#[diagnostic::on_unimplemented(
    message = "a tool's input is deserialized from JSON into owned values: take `T` instead of `&T`",
    label = "the input cannot be borrowed",
    note = "take `String` instead of `&str`, `Vec<T>` instead of `&[T]`, `T` instead of `&T`"
)]
pub trait NotBorrowedInput {}

impl NotBorrowedInput for IsContext {}

/// Checks that a borrowed parameter `&T` (`T` a bare name, maybe an alias) is the `Context`.
pub fn not_borrowed_input<K: NotBorrowedInput>(kind: K) {
    let _ = kind;
}

/// App state: the only type a `#[tool]` fn's `State<…>` parameter can be.
#[diagnostic::on_unimplemented(
    message = "this `{Self}` is not `mcp_toolbelt::State<T>`",
    label = "`#[tool]` takes a parameter of a type named `State<…>` as app state",
    note = "rename your type, or write its path (`crate::State`) to take it as the tool's input"
)]
pub trait ToolState: Sized + sealed::Sealed {
    /// The type of the value, for the start-up check.
    fn key() -> StateKey;
    /// The value, from the request's context.
    fn from_context(context: &Context) -> Self;
}

/// Only the runtime's `State<T>` is app state: a type of the user's that implemented
/// [`ToolState`] would reach the request's `Context` while its tool is registered as taking none
/// (and so, at 2026-07-28, as one that cannot ask).
mod sealed {
    pub trait Sealed {}

    impl<T> Sealed for crate::state::State<T> {}
}

impl<T: Send + Sync + 'static> ToolState for State<T> {
    fn key() -> StateKey {
        StateKey::of::<T>()
    }

    fn from_context(context: &Context) -> Self {
        // `Server::check` refused to serve a tool whose state is missing: this is a bug of ours.
        context.state::<T>().unwrap_or_else(|| {
            panic!(
                "no app state of type `{}` (the start-up check should have refused to serve)",
                std::any::type_name::<T>()
            )
        })
    }
}

/// The key of the app state a `State<…>` parameter takes.
#[must_use]
pub fn state_key<S: ToolState>() -> StateKey {
    S::key()
}

/// The app state for a `State<…>` parameter.
#[must_use]
pub fn state_value<S: ToolState>(context: &Context) -> S {
    S::from_context(context)
}

/// The most plain tool fns running at once. tokio's blocking pool (512 threads) also reads
/// stdin for the stdio transport: tools that block, or calls cancelled while their fn runs on
/// (a blocking fn cannot be stopped), must not take every thread.
const MAX_BLOCKING_CALLS: usize = 128;

static BLOCKING_CALLS: tokio::sync::Semaphore =
    tokio::sync::Semaphore::const_new(MAX_BLOCKING_CALLS);

/// Runs a plain (non-`async`) tool fn, and the conversion of its output, on tokio's blocking
/// threads, so that a fn that blocks does not stall the requests on the worker threads; at most
/// `MAX_BLOCKING_CALLS` (128) at once. A panic is raised again here, where the call's panic guard
/// turns it into the same `isError` result an `async` tool's panic gives.
///
/// # Panics
///
/// When `call` panics, or when the runtime shuts down before it ran.
pub async fn run_blocking<F, T>(call: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    // The semaphore is never closed, so a place always comes.
    let place = BLOCKING_CALLS.acquire().await.ok();
    // The request's span goes along: what the fn logs belongs to its call.
    let span = tracing::Span::current();
    let running = tokio::task::spawn_blocking(move || {
        // Held until the fn really ends, even when its call was cancelled meanwhile.
        let _place = place;
        span.in_scope(call)
    });
    match running.await {
        Ok(output) => output,
        Err(error) => match error.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(error) => panic!("the tool's blocking task ended: {error}"),
        },
    }
}

/// What a `#[resource]` `static` or `const` can hold: fixed text or bytes.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the contents of a `#[resource]` static",
    label = "write `&str` (`include_str!`) or `&[u8]` (`include_bytes!`)",
    note = "for contents computed at read time, put `#[resource]` on an fn"
)]
pub trait StaticContents {
    /// The contents.
    fn body(self) -> ResourceBody;
}

impl StaticContents for &'static str {
    fn body(self) -> ResourceBody {
        ResourceBody::Text(self.into())
    }
}

impl StaticContents for &'static [u8] {
    fn body(self) -> ResourceBody {
        ResourceBody::Blob(self.into())
    }
}

impl<const N: usize> StaticContents for &'static [u8; N] {
    fn body(self) -> ResourceBody {
        ResourceBody::Blob(self.as_slice().into())
    }
}

/// The contents of a `#[resource]` `static` or `const`.
#[must_use]
pub fn static_resource<T: StaticContents>(contents: T) -> ResourceBody {
    contents.body()
}

/// The contents a `#[resource]` fn returned, or why there are none.
pub fn resource_body<T: IntoResourceBody>(contents: T) -> Result<ResourceBody, ResourceError> {
    contents.into_resource_body()
}

/// The value of the URI template's variable `name`, as the type of the fn's parameter; a value
/// the type refuses means the URI names no resource of this template.
pub fn template_value<T>(name: &str, value: &str) -> Result<T, ResourceError>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    value.parse().map_err(|error| {
        ResourceError::NotFound(Some(format!("invalid `{name}` {value:?}: {error}")))
    })
}

/// What a `#[prompt]` fn returned, as `prompts/get`'s result or the error it fails with.
///
/// # Errors
///
/// The fn's own error, as its message.
pub fn prompt_result<T: IntoPromptResult>(output: T) -> Result<GetPromptResult, PromptError> {
    output.into_prompt_result()
}

/// The completer of a completer fn (`#[complete(path)]`, `complete(name = path)`): the one
/// bound every completer meets ([`CompleterFn`]), so a fn of another shape is told the shape at
/// its path.
pub fn completer<Shape>(complete: impl CompleterFn<Shape>) -> Completer {
    complete.into_completer()
}

/// The value of prompt argument `name`, read as a `T`: `None` when absent; a value the type
/// refuses is `-32602`, naming the argument, the value and what the type said.
///
/// # Errors
///
/// The value is refused.
pub fn prompt_argument<T, R: ReadArgument<T>>(
    arguments: &std::collections::BTreeMap<String, String>,
    name: &str,
    reader: R,
) -> Result<Option<T>, PromptError> {
    let Some(value) = arguments.get(name) else {
        return Ok(None);
    };
    reader.read(value).map(Some).map_err(|why| {
        let expected = std::any::type_name::<T>()
            .rsplit("::")
            .next()
            .unwrap_or("value");
        PromptError::InvalidArgument(format!(
            "Invalid value {value:?} for argument `{name}`: {why} (expected a `{expected}`)"
        ))
    })
}
