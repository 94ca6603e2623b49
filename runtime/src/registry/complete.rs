//! Completions (`completion/complete`): what a prompt argument or a resource template variable
//! completes with ([`Completer`]: the known values of its type, or a completer fn), the values
//! a completer gives ([`Completion`], anything [`IntoCompletion`]), and what it is told of the
//! request ([`CompletionContext`]).

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;

use std::panic::AssertUnwindSafe;

use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use serde::Serialize;
use serde_json::Value;

use crate::context::AuthInfo;
use crate::state::{State, StateMap};

/// The most values one answer carries (the spec's limit).
pub(crate) const MAX_VALUES: usize = 100;

/// The values that complete a partial argument: at most 100 are sent; past that, `total` says
/// how many there are and `hasMore` that some were left out.
///
/// ```
/// use mcp_toolbelt::completion::Completion;
///
/// let completion = Completion::new(vec!["paris".into(), "park".into()]);
/// assert_eq!(completion.values.len(), 2);
/// let many = Completion::new((0..150).map(|n| n.to_string()).collect()).total(150);
/// assert_eq!(many.total, Some(150));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Completion {
    /// The values, best first.
    pub values: Vec<String>,
    /// How many values there are in all, when more exist than are sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Whether there are values beyond those sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_more: Option<bool>,
}

impl Completion {
    /// These values (cut to 100 when sent, with `total` and `hasMore` set).
    #[must_use]
    pub fn new(values: Vec<String>) -> Self {
        Self {
            values,
            total: None,
            has_more: None,
        }
    }

    /// Sets how many values there are in all.
    #[must_use]
    pub fn total(mut self, total: u64) -> Self {
        self.total = Some(total);
        self
    }

    /// Sets whether there are values beyond these.
    #[must_use]
    pub fn has_more(mut self, has_more: bool) -> Self {
        self.has_more = Some(has_more);
        self
    }

    /// What is sent: at most [`MAX_VALUES`], `total` and `hasMore` set when some were cut.
    pub(crate) fn capped(mut self) -> Self {
        if self.values.len() > MAX_VALUES {
            let total = self.values.len() as u64;
            self.values.truncate(MAX_VALUES);
            self.total = Some(self.total.unwrap_or(total).max(total));
            self.has_more = Some(true);
        }
        self
    }
}

impl From<Vec<String>> for Completion {
    fn from(values: Vec<String>) -> Self {
        Self::new(values)
    }
}

/// What a completer fn returns: `Vec<String>`, `Vec<&'static str>` or a [`Completion`], or a
/// `Result` of one of these: its `Err` (a database that could not be read) is a JSON-RPC error
/// (`-32603`) carrying its message, not a completion with no values.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a completer",
    label = "not a completion",
    note = "return `Vec<String>`, `Vec<&'static str>`, `mcp_toolbelt::completion::Completion`, or `Result<_, E>` of one of these with `E: Display`"
)]
pub trait IntoCompletion {
    /// The completion, or the message of the error the client gets.
    ///
    /// # Errors
    ///
    /// The completer failed: the text of its error.
    fn into_completion(self) -> Result<Completion, String>;
}

impl IntoCompletion for Completion {
    fn into_completion(self) -> Result<Completion, String> {
        Ok(self)
    }
}

impl IntoCompletion for Vec<String> {
    fn into_completion(self) -> Result<Completion, String> {
        Ok(Completion::new(self))
    }
}

impl IntoCompletion for Vec<&'static str> {
    fn into_completion(self) -> Result<Completion, String> {
        Ok(Completion::new(
            self.into_iter().map(str::to_owned).collect(),
        ))
    }
}

impl<T: IntoCompletion, E: std::fmt::Display> IntoCompletion for Result<T, E> {
    /// The error's alternate form (`{:#}`), as a tool's: `anyhow` renders its causes there.
    fn into_completion(self) -> Result<Completion, String> {
        self.map_err(|error| format!("{error:#}"))?
            .into_completion()
    }
}

/// What a completer is told besides the partial value: the arguments (or template variables)
/// the client already resolved (`context.arguments`), who is asking (the bearer token's
/// [`AuthInfo`], the legacy HTTP session), and the server's app state. Call hooks
/// ([`Server::hook`](crate::Server::hook)) do not run for completions: a completer over
/// per-user data scopes its values by [`auth`](Self::auth) itself.
#[derive(Clone, Default)]
pub struct CompletionContext {
    arguments: BTreeMap<String, String>,
    states: Arc<StateMap>,
    auth: Option<Arc<AuthInfo>>,
    session_id: Option<String>,
}

impl CompletionContext {
    pub(crate) fn new(arguments: BTreeMap<String, String>, states: Arc<StateMap>) -> Self {
        Self {
            arguments,
            states,
            auth: None,
            session_id: None,
        }
    }

    /// Who asks: the bearer token's verdict and the legacy HTTP session.
    pub(crate) fn caller(
        mut self,
        auth: Option<Arc<AuthInfo>>,
        session_id: Option<String>,
    ) -> Self {
        self.auth = auth;
        self.session_id = session_id;
        self
    }

    /// What the caller's bearer token said, when the HTTP server verifies tokens, as
    /// [`Context::auth`](crate::Context::auth) gives it to a tool.
    #[must_use]
    pub fn auth(&self) -> Option<&AuthInfo> {
        self.auth.as_deref()
    }

    /// The legacy HTTP session the request belongs to, if any.
    #[must_use]
    pub fn session_id(&self) -> Option<&str> {
        self.session_id.as_deref()
    }

    /// The value already resolved for the argument or variable `name`.
    #[must_use]
    pub fn argument(&self, name: &str) -> Option<&str> {
        self.arguments.get(name).map(String::as_str)
    }

    /// Every value already resolved, by name.
    #[must_use]
    pub fn arguments(&self) -> &BTreeMap<String, String> {
        &self.arguments
    }

    /// The app state of type `T` given to the server, as
    /// [`Context::state`](crate::Context::state) reads it.
    #[must_use]
    pub fn state<T: Send + Sync + 'static>(&self) -> Option<State<T>> {
        self.states.get::<T>()
    }
}

impl std::fmt::Debug for CompletionContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompletionContext")
            .field("arguments", &self.arguments)
            .field("auth", &self.auth)
            .field("session_id", &self.session_id)
            .finish_non_exhaustive()
    }
}

/// A completer: what completes a prompt argument or a template variable, one fn for both
/// (`#[complete(f)]` and `complete(name = f)` on `#[prompt]` and `#[resource]`,
/// [`Prompt::complete`](crate::prompt::Prompt::complete), `Resource::complete`). Two shapes are
/// completers, and each serves everywhere:
///
/// - an `async fn(&str, &CompletionContext) -> impl IntoCompletion` (the partial value and the
///   [`CompletionContext`], borrowed): the shape to write a completer fn in;
/// - a closure `Fn(String, CompletionContext) -> impl Future<Output: IntoCompletion>` (the same,
///   owned, which an `async move` block can keep): the shape for a closure. One whose body calls
///   a method of its parameters names their types, `|partial: String, context:
///   CompletionContext|`: with two shapes, Rust does not guess them before it reads the body.
///
/// ```
/// use mcp_toolbelt::completion::CompletionContext;
/// use mcp_toolbelt::prompt::{Prompt, PromptArgument};
/// use mcp_toolbelt::resource::Resource;
///
/// /// The cities that begin with what was typed.
/// async fn cities(partial: &str, _context: &CompletionContext) -> Vec<&'static str> {
///     ["Paris", "Perth", "Porto"]
///         .into_iter()
///         .filter(|city| city.starts_with(partial))
///         .collect()
/// }
///
/// let weather = Resource::new("weather://{city}", "weather", |_| async { "sunny" })?
///     .complete("city", cities);
/// let trip = Prompt::new("trip", "Plan a trip", |_, _| async { "Plan it" })
///     .argument(PromptArgument::new("city"))
///     .complete("city", cities);
/// # let _ = (weather, trip);
/// # Ok::<(), mcp_toolbelt::error::RegistryError>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a completer",
    label = "a completer is `async fn(&str, &CompletionContext) -> impl IntoCompletion`",
    note = "write it `async fn name(partial: &str, context: &CompletionContext) -> Vec<String>`; it may return `Vec<String>`, `Vec<&'static str>`, `Completion`, or a `Result` of one of these"
)]
pub trait CompleterFn<Shape>: Send + Sync + 'static {
    /// The completer the server keeps.
    #[doc(hidden)]
    fn into_completer(self) -> Completer;
}

/// The shape `async fn(&str, &CompletionContext)`, for [`CompleterFn`]'s impls.
#[doc(hidden)]
#[derive(Debug)]
pub enum Borrowing {}

/// The shape `Fn(String, CompletionContext) -> impl Future`, for [`CompleterFn`]'s impls.
#[doc(hidden)]
#[derive(Debug)]
pub enum Owning {}

/// An `async fn(&'a str, &'a CompletionContext)`: its future, which borrows them, named for
/// every `'a` at once (what a bound on the fn alone cannot say).
#[doc(hidden)]
pub trait BorrowingFn<'a>:
    Fn(&'a str, &'a CompletionContext) -> <Self as BorrowingFn<'a>>::Completing
{
    /// The fn's future.
    type Completing: Future<Output = Self::Completion> + Send + 'a;
    /// What it gives.
    type Completion: IntoCompletion;
}

impl<'a, F, Fut> BorrowingFn<'a> for F
where
    F: Fn(&'a str, &'a CompletionContext) -> Fut,
    Fut: Future<Output: IntoCompletion> + Send + 'a,
{
    type Completing = Fut;
    type Completion = Fut::Output;
}

impl<F> CompleterFn<Borrowing> for F
where
    F: for<'a> BorrowingFn<'a> + Send + Sync + 'static,
{
    fn into_completer(self) -> Completer {
        let complete = Arc::new(self);
        Completer::Shared(Arc::new(move |partial, context| {
            let complete = Arc::clone(&complete);
            Box::pin(async move { complete(&partial, &context).await.into_completion() })
        }))
    }
}

impl<F, Fut> CompleterFn<Owning> for F
where
    F: Fn(String, CompletionContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output: IntoCompletion> + Send + 'static,
{
    fn into_completer(self) -> Completer {
        Completer::Shared(Arc::new(move |partial, context| {
            let completing = self(partial, context);
            Box::pin(async move { completing.await.into_completion() })
        }))
    }
}

/// How one argument or variable completes. Not public API: generated code builds it.
#[doc(hidden)]
#[derive(Clone)]
pub enum Completer {
    /// The values of a type with a finite set of them (a unit enum, `bool`), filtered by the
    /// partial value's prefix.
    Known(Arc<[String]>),
    /// A completer fn or closure ([`CompleterFn`]), given the partial value and the context.
    Shared(SharedCompleter),
}

/// A completer fn or closure, as the server keeps it.
pub(crate) type SharedCompleter = Arc<
    dyn Fn(String, CompletionContext) -> BoxFuture<'static, Result<Completion, String>>
        + Send
        + Sync,
>;

impl std::fmt::Debug for Completer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Known(values) => f.debug_tuple("Known").field(values).finish(),
            Self::Shared(_) => f.write_str("Shared"),
        }
    }
}

impl Completer {
    /// The completion of `partial`; `Err` is the completer fn's failure, its message.
    pub(crate) async fn complete(
        &self,
        partial: String,
        context: CompletionContext,
    ) -> Result<Completion, String> {
        match self {
            Self::Known(values) => {
                let partial = partial.to_lowercase();
                Ok(Completion::new(
                    values
                        .iter()
                        .filter(|value| value.to_lowercase().starts_with(&partial))
                        .cloned()
                        .collect(),
                ))
            }
            // A panic in a completer fn completes nothing.
            Self::Shared(complete) => unwound(complete(partial, context)).await,
        }
    }
}

/// What a completer's future gives, a panic in it completing nothing.
async fn unwound(
    completing: BoxFuture<'static, Result<Completion, String>>,
) -> Result<Completion, String> {
    AssertUnwindSafe(completing)
        .catch_unwind()
        .await
        .unwrap_or_else(|_| {
            tracing::error!("a completer fn panicked");
            Ok(Completion::default())
        })
}

/// A template variable's completer, as `#[resource]` registers it. Not public API.
#[doc(hidden)]
#[derive(Debug)]
pub struct VariableCompleter {
    /// The variable.
    pub variable: &'static str,
    /// Its completer, if it has one (a fn's, or its type's known values).
    pub complete: fn() -> Option<Completer>,
}

/// The finite set of values a JSON Schema allows, in order: its `enum`, the `const`s of its
/// `oneOf`/`anyOf` branches (a unit enum with doc comments), or `true` and `false` for a
/// boolean. Empty when the set is not finite or not all strings and booleans.
pub(crate) fn known_values(schema: &Value) -> Vec<String> {
    let scalar = |value: &Value| match value {
        Value::String(text) => Some(text.clone()),
        Value::Bool(flag) => Some(flag.to_string()),
        _ => None,
    };
    if let Some(Value::Array(values)) = schema.get("enum") {
        return values
            .iter()
            .map(scalar)
            .collect::<Option<_>>()
            .unwrap_or_default();
    }
    if let Some(value) = schema.get("const") {
        return scalar(value).into_iter().collect();
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(Value::Array(branches)) = schema.get(key) {
            let mut values = Vec::new();
            for branch in branches {
                let branch_values = known_values(branch);
                if branch_values.is_empty() {
                    return Vec::new();
                }
                values.extend(branch_values);
            }
            return values;
        }
    }
    if schema.get("type") == Some(&Value::String("boolean".into())) {
        return vec!["true".into(), "false".into()];
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn known_values_come_from_enums_consts_and_booleans() {
        assert_eq!(known_values(&json!({"enum": ["a", "b"]})), ["a", "b"]);
        assert_eq!(
            known_values(&json!({"oneOf": [{"const": "x"}, {"enum": ["y"]}]})),
            ["x", "y"]
        );
        assert_eq!(known_values(&json!({"type": "boolean"})), ["true", "false"]);
        assert!(known_values(&json!({"type": "string"})).is_empty());
        assert!(known_values(&json!({"oneOf": [{"const": "x"}, {"type": "string"}]})).is_empty());
    }

    #[test]
    fn more_than_a_hundred_values_are_cut_and_counted() {
        let completion = Completion::new((0..150).map(|n| n.to_string()).collect()).capped();
        assert_eq!(completion.values.len(), 100);
        assert_eq!(completion.total, Some(150));
        assert_eq!(completion.has_more, Some(true));
        let few = Completion::new(vec!["a".into()]).capped();
        assert_eq!((few.total, few.has_more), (None, None));
    }

    #[tokio::test]
    async fn known_values_are_filtered_by_prefix() {
        let completer =
            Completer::Known(vec!["Formal".into(), "friendly".into(), "terse".into()].into());
        let completion = completer
            .complete("f".into(), CompletionContext::default())
            .await
            .expect("known values");
        assert_eq!(completion.values, ["Formal", "friendly"]);
    }
}
