//! Prompts: what `#[prompt]` submits ([`PromptRegistration`]), what a prompt returns
//! ([`GetPromptResult`], anything [`IntoPromptResult`]), and the servable [`Prompt`], built from
//! a registration or at run time. Getting one is [`Prompt::get`].

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt::{self, Display};
use std::future::Future;
use std::sync::{Arc, OnceLock};

use std::panic::AssertUnwindSafe;

use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::complete::{Completer, CompleterFn};
use super::set::Named;
use super::{IconRegistration, ItemKind, RegistryError, Scopes};
use crate::ask::Role;
use crate::context::Context;
use crate::result::Content;
use crate::state::{StateKey, StateMap};
use crate::types::{Icon, PromptArgument, PromptDefinition};

/// One message of a prompt: who says it, and a content block (text, an image, audio, a
/// resource link or an embedded resource).
///
/// ```
/// use mcp_toolbelt::prompt::PromptMessage;
/// use mcp_toolbelt::Content;
///
/// let question = PromptMessage::user("What does this note say?");
/// let answer = PromptMessage::assistant(Content::text("Let me read it."));
/// assert_eq!(question.content, Content::text("What does this note say?"));
/// # let _ = answer;
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PromptMessage {
    /// Who says it.
    pub role: Role,
    /// What is said.
    pub content: Content,
}

impl PromptMessage {
    /// A message of the user's.
    #[must_use]
    pub fn user(content: impl Into<Content>) -> Self {
        Self {
            role: Role::User,
            content: content.into(),
        }
    }

    /// A message of the model's.
    #[must_use]
    pub fn assistant(content: impl Into<Content>) -> Self {
        Self {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

/// What `prompts/get` answers: the messages, and a description of this use of the prompt.
///
/// ```
/// use mcp_toolbelt::prompt::{GetPromptResult, PromptMessage};
///
/// let result = GetPromptResult::new(vec![PromptMessage::user("Summarise the note")])
///     .description("A summary of one note");
/// assert_eq!(result.messages.len(), 1);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct GetPromptResult {
    /// What this prompt, with these arguments, is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The messages, in order.
    pub messages: Vec<PromptMessage>,
}

impl GetPromptResult {
    /// These messages, without a description.
    #[must_use]
    pub fn new(messages: Vec<PromptMessage>) -> Self {
        Self {
            description: None,
            messages,
        }
    }

    /// Sets the description.
    #[must_use]
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }
}

/// Turns what a prompt fn returns into a [`GetPromptResult`]: text (`String`, `&'static str`:
/// one user message), `Vec<PromptMessage>`, a [`GetPromptResult`], or a `Result` of one of
/// these: an `Err` of [`PromptError`] is what it says (an argument refused: `-32602`), any
/// other error a JSON-RPC error (`-32603`) carrying its message.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a `#[prompt]` fn",
    label = "not a prompt result",
    note = "return `String`, `&'static str`, `Vec<PromptMessage>`, `GetPromptResult`, or `Result<_, E>` of one of these with `E: Display`"
)]
pub trait IntoPromptResult {
    /// The result, or the error the client gets.
    ///
    /// # Errors
    ///
    /// The prompt failed, or refused an argument.
    fn into_prompt_result(self) -> Result<GetPromptResult, PromptError>;
}

impl IntoPromptResult for GetPromptResult {
    fn into_prompt_result(self) -> Result<GetPromptResult, PromptError> {
        Ok(self)
    }
}

impl IntoPromptResult for Vec<PromptMessage> {
    fn into_prompt_result(self) -> Result<GetPromptResult, PromptError> {
        Ok(GetPromptResult::new(self))
    }
}

impl IntoPromptResult for String {
    fn into_prompt_result(self) -> Result<GetPromptResult, PromptError> {
        Ok(GetPromptResult::new(vec![PromptMessage::user(
            Content::text(self),
        )]))
    }
}

impl IntoPromptResult for &'static str {
    fn into_prompt_result(self) -> Result<GetPromptResult, PromptError> {
        self.to_owned().into_prompt_result()
    }
}

impl<T: IntoPromptResult, E: Display + 'static> IntoPromptResult for Result<T, E> {
    /// A [`PromptError`] (also inside a `Box<dyn Error + Send + Sync>`, what `?` makes of it)
    /// as it is; any other error is a failure, in its alternate form (`{:#}`), as a tool's:
    /// `anyhow` renders its causes there.
    fn into_prompt_result(self) -> Result<GetPromptResult, PromptError> {
        match self {
            Ok(value) => value.into_prompt_result(),
            Err(error) => {
                let any: &dyn Any = &error;
                let own = any.downcast_ref::<PromptError>().or_else(|| {
                    any.downcast_ref::<Box<dyn std::error::Error + Send + Sync>>()
                        .and_then(|boxed| boxed.downcast_ref::<PromptError>())
                });
                Err(own
                    .cloned()
                    .unwrap_or_else(|| PromptError::Failed(format!("{error:#}"))))
            }
        }
    }
}

/// Why `prompts/get` gave no result: an argument the prompt refuses (`-32602`, invalid params:
/// the client's to fix) or the prompt's own failure (`-32603`, internal error). A prompt fn
/// returns it as the `Err` of its `Result` to say which; any other error type is a failure.
///
/// ```
/// use mcp_toolbelt::prompt::PromptError;
///
/// /// Summarise one note
/// #[mcp_toolbelt::prompt]
/// async fn summarise(id: u64) -> Result<String, PromptError> {
///     if id == 0 {
///         return Err(PromptError::invalid_argument("id", "no note has id 0"));
///     }
///     Ok(format!("Summarise note {id}"))
/// }
///
/// let refused = PromptError::invalid_argument("id", "no note has id 0");
/// assert_eq!(refused.to_string(), "Invalid argument `id`: no note has id 0");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PromptError {
    /// An argument is missing or its value refused: `-32602` with this text.
    InvalidArgument(String),
    /// The prompt failed: `-32603` with this text.
    Failed(String),
}

impl PromptError {
    /// The value of the argument `name` is refused, because `why`: `-32602`.
    #[must_use]
    pub fn invalid_argument(name: impl Display, why: impl Display) -> Self {
        Self::InvalidArgument(format!("Invalid argument `{name}`: {why}"))
    }

    /// The prompt failed, saying `message`: `-32603`.
    #[must_use]
    pub fn failed(message: impl Into<String>) -> Self {
        Self::Failed(message.into())
    }
}

impl Display for PromptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidArgument(message) | Self::Failed(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for PromptError {}

/// The adapter of a `#[prompt]` fn: reads the arguments, runs the fn. Not public API.
#[doc(hidden)]
pub type PromptGet = fn(
    BTreeMap<String, String>,
    Context,
) -> BoxFuture<'static, Result<GetPromptResult, PromptError>>;

/// What `#[prompt]` submits to `inventory` for one fn. Not public API: generated code builds it.
#[doc(hidden)]
#[derive(Debug)]
pub struct PromptRegistration {
    /// The prompt's name.
    pub name: &'static str,
    /// The display title.
    pub title: Option<&'static str>,
    /// The doc comment or `description = "…"`.
    pub description: &'static str,
    /// The arguments, in the fn's order.
    pub arguments: &'static [PromptArgumentRegistration],
    /// Its icons.
    pub icons: &'static [IconRegistration],
    /// The app state the fn takes (its `State<T>` parameters), checked at start-up.
    pub state: &'static [fn() -> StateKey],
    /// Reads the arguments and runs the user's fn.
    pub get: PromptGet,
    /// Where the fn is, for error messages.
    pub file: &'static str,
    /// See `file`.
    pub line: u32,
    /// `tags(…)`: what a server's selection chooses it by.
    pub tags: &'static [&'static str],
    /// `scopes(…)`: the OAuth scopes a caller needs, all of them.
    pub scopes: &'static [&'static str],
}

inventory::collect!(PromptRegistration);

/// One argument of a `#[prompt]` fn. Not public API.
#[doc(hidden)]
#[derive(Debug)]
pub struct PromptArgumentRegistration {
    /// The parameter's name.
    pub name: &'static str,
    /// Its `///` comment.
    pub description: Option<&'static str>,
    /// Not an `Option` and without `#[serde(default)]`.
    pub required: bool,
    /// How it completes: its completer fn, or its type's known values.
    pub complete: fn() -> Option<Completer>,
    /// The lone argument of a type of the user's: its type's input schema, when the type has
    /// one; an object's properties are then the prompt's arguments in its place
    /// ([`field_arguments`]).
    pub fields: Option<fn() -> Option<Value>>,
}

/// The arguments an argument struct's `schema` stands for, each with the completer of its
/// known values: one per property, described by its doc comment, required as the schema says;
/// `None` when the schema is no object (the type is then one argument).
fn field_arguments(schema: &Value) -> Option<Vec<(PromptArgument, Option<Completer>)>> {
    let properties = schema.get("properties").and_then(Value::as_object)?;
    let required = schema.get("required").and_then(Value::as_array);
    let fields = properties.iter().map(|(name, property)| {
        let required = required.is_some_and(|required| required.iter().any(|r| r == name));
        let mut argument = PromptArgument::new(name.clone()).required(required);
        argument.description = property
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let values = super::known_values(property);
        let completer = (!values.is_empty()).then(|| Completer::Known(values.into()));
        (argument, completer)
    });
    Some(fields.collect())
}

/// An argument struct read from a prompt's string arguments: each argument named by a property
/// of `schema` taken as that property's JSON type (a number, a boolean, a list or object
/// written as JSON; as the string itself otherwise), then the whole deserialized as `T`; a
/// value the type refuses is `-32602`, naming the argument. Arguments the struct has no field
/// for are ignored, as a prompt fn's parameters ignore them. `None` when the schema lists no
/// properties (as [`field_arguments`]): the type is then one argument.
pub(crate) fn read_fields<T: serde::de::DeserializeOwned>(
    schema: &Value,
    arguments: &BTreeMap<String, String>,
) -> Option<Result<T, PromptError>> {
    let properties = schema.get("properties").and_then(Value::as_object)?;
    let mut object = Map::new();
    for (name, value) in arguments {
        if let Some(property) = properties.get(name) {
            object.insert(name.clone(), typed_value(property, value));
        }
    }
    let object = Value::Object(object);
    let read = serde_path_to_error::deserialize(&object).map_err(|error| {
        let name = match error.path().iter().next() {
            Some(serde_path_to_error::Segment::Map { key }) => key.clone(),
            _ => String::new(),
        };
        let why = error.inner().to_string();
        PromptError::InvalidArgument(match arguments.get(&name) {
            Some(value) => format!("Invalid value {value:?} for argument `{name}`: {why}"),
            None => format!("Invalid arguments: {why}"),
        })
    });
    Some(read)
}

/// A string argument as the JSON value its property's type wants: `"12"` is `12` for a number,
/// `"true"` is `true` for a boolean, `"[1, 2]"` a list for an array; the string itself when it
/// is not one (serde then says what it wanted).
fn typed_value(property: &Value, value: &str) -> Value {
    let kinds: Vec<&str> = match property.get("type") {
        Some(Value::String(kind)) => vec![kind.as_str()],
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let as_json = || serde_json::from_str::<Value>(value).ok();
    let wanted = |parsed: &Value| match parsed {
        Value::Number(number) => {
            kinds.contains(&"number") || (kinds.contains(&"integer") && !number.is_f64())
        }
        Value::Bool(_) => kinds.contains(&"boolean"),
        Value::Array(_) => kinds.contains(&"array"),
        Value::Object(_) => kinds.contains(&"object"),
        Value::Null | Value::String(_) => false,
    };
    if kinds.contains(&"string") {
        return Value::String(value.to_owned());
    }
    as_json()
        .filter(wanted)
        .unwrap_or_else(|| Value::String(value.to_owned()))
}

/// What runs a prompt: the arguments as strings and the request's context in, the result out.
type Handler = Arc<
    dyn Fn(
            BTreeMap<String, String>,
            Context,
        ) -> BoxFuture<'static, Result<GetPromptResult, PromptError>>
        + Send
        + Sync,
>;

/// A servable prompt: its definition, how its arguments complete, and its handler. Built by
/// `#[prompt]`, or at run time with [`Prompt::new`] and added with
/// [`Prompts::add`](crate::prompt::Prompts::add).
#[derive(Clone)]
pub struct Prompt {
    definition: Arc<PromptDefinition>,
    handler: Handler,
    completers: Arc<BTreeMap<String, Completer>>,
    required_state: Arc<[StateKey]>,
    /// `file:line` of a `#[prompt]` fn.
    source: Option<Arc<str>>,
    /// What a server's selection chooses it by.
    tags: super::Tags,
    /// The OAuth scopes a caller needs to see and get it.
    scopes: Scopes,
}

impl Prompt {
    /// A prompt built at run time, named `name`, for `description`. `handler` gets the
    /// arguments as strings (the required ones checked present) and the request's
    /// [`Context`], and returns anything [`IntoPromptResult`].
    pub fn new<F, Fut>(name: impl Into<String>, description: impl Into<String>, handler: F) -> Self
    where
        F: Fn(BTreeMap<String, String>, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output: IntoPromptResult> + Send + 'static,
    {
        let handler: Handler = Arc::new(move |arguments, context| {
            let output = handler(arguments, context);
            Box::pin(async move { output.await.into_prompt_result() })
        });
        Self {
            definition: Arc::new(PromptDefinition::new(name).description(description)),
            handler,
            completers: Arc::default(),
            required_state: Arc::new([]),
            source: None,
            tags: super::Tags::default(),
            scopes: Scopes::default(),
        }
    }

    /// Sets the name people see.
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        Arc::make_mut(&mut self.definition).title = Some(title.into());
        self
    }

    /// Adds an argument, after those already added.
    #[must_use]
    pub fn argument(mut self, argument: PromptArgument) -> Self {
        Arc::make_mut(&mut self.definition).arguments.push(argument);
        self
    }

    /// Adds an icon.
    #[must_use]
    pub fn icon(mut self, icon: Icon) -> Self {
        Arc::make_mut(&mut self.definition).icons.push(icon);
        self
    }

    /// Tags the prompt, as `#[prompt(tags(…))]` does: a server's
    /// [`only_tags`](crate::Server::only_tags) and [`without_tags`](crate::Server::without_tags)
    /// choose by them whether it serves the prompt. A second call replaces the first's tags.
    #[must_use]
    pub fn tags<I, S>(mut self, tags: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.tags = super::Tags::new(tags);
        self
    }

    /// Completes the argument `argument` (one added with [`argument`](Self::argument)) with
    /// `complete`, given the partial value and the
    /// [`CompletionContext`](crate::completion::CompletionContext); it returns anything
    /// [`IntoCompletion`](crate::completion::IntoCompletion). The completer fn of a `#[prompt]`
    /// or `#[resource]` (`async fn(&str, &CompletionContext)`) serves here as it is, and so does
    /// a closure of the same values owned ([`CompleterFn`]). A second completer for one argument
    /// replaces the first.
    ///
    /// ```
    /// use mcp_toolbelt::prompt::{Prompt, PromptArgument};
    ///
    /// let greet = Prompt::new("greet", "Greet someone", |arguments, _context| async move {
    ///     format!("Say hello to {}", arguments["name"])
    /// })
    /// .argument(PromptArgument::new("name").required(true))
    /// .complete("name", |partial, _context| async move {
    ///     ["Ada", "Alan", "Grace"]
    ///         .into_iter()
    ///         .filter(|name| name.starts_with(&partial))
    ///         .collect::<Vec<_>>()
    /// });
    /// # let _ = greet;
    /// ```
    #[must_use]
    pub fn complete<Shape>(
        mut self,
        argument: impl Into<String>,
        complete: impl CompleterFn<Shape>,
    ) -> Self {
        Arc::make_mut(&mut self.completers).insert(argument.into(), complete.into_completer());
        self
    }

    /// The OAuth scopes a caller's token must grant, all of them, to see the prompt listed and to
    /// get (or complete) it (what `scopes(…)` on the attribute says); a caller lacking one gets `403` with
    /// an `insufficient_scope` challenge naming them. With no caller identity (stdio, HTTP
    /// without auth) it is served to everyone. Replaces the scopes given before.
    /// Each is checked as the attribute checks its: when the item is added
    /// ([`Prompts::add`](crate::prompt::Prompts::add)), a scope no token can carry (empty, with a space, not printable
    /// ASCII, `"` or `\`) or one given twice is refused with a
    /// [`RegistryError::InvalidScope`](crate::error::RegistryError::InvalidScope) naming it.
    ///
    /// ```
    /// use mcp_toolbelt::prompt::Prompt;
    ///
    /// let summarise = Prompt::new("summarise", "Summarise the notes", |_, _| async { "Summarise" })
    ///     .scopes(["notes:read"]);
    /// # let _ = summarise;
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

    /// The OAuth scopes a caller needs to see and get it.
    pub(crate) fn needed_scopes(&self) -> &Scopes {
        &self.scopes
    }

    /// The prompt of one `#[prompt]` fn.
    fn from_registration(registration: &'static PromptRegistration) -> Self {
        let mut definition =
            PromptDefinition::new(registration.name).description(registration.description);
        definition.title = registration.title.map(str::to_owned);
        definition.icons = registration
            .icons
            .iter()
            .map(IconRegistration::icon)
            .collect();
        let mut completers = BTreeMap::new();
        for argument in registration.arguments {
            let fields = argument.fields.and_then(|schema| schema());
            if let Some(fields) = fields.as_ref().and_then(field_arguments) {
                for (entry, completer) in fields {
                    if let Some(completer) = completer {
                        completers.insert(entry.name.clone(), completer);
                    }
                    definition.arguments.push(entry);
                }
                continue;
            }
            let mut entry = PromptArgument::new(argument.name).required(argument.required);
            entry.description = argument.description.map(str::to_owned);
            definition.arguments.push(entry);
            if let Some(completer) = (argument.complete)() {
                completers.insert(argument.name.to_owned(), completer);
            }
        }
        let get = registration.get;
        Self {
            definition: Arc::new(definition),
            handler: Arc::new(get),
            completers: Arc::new(completers),
            required_state: registration.state.iter().map(|key| key()).collect(),
            source: Some(format!("{}:{}", registration.file, registration.line).into()),
            tags: super::Tags::from_static(registration.tags),
            scopes: Scopes::registered(registration.scopes),
        }
    }

    /// The prompt's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.definition.name
    }

    /// How the prompt appears in `prompts/list`.
    #[must_use]
    pub fn definition(&self) -> &PromptDefinition {
        &self.definition
    }

    /// Runs the prompt with `arguments`: a required argument missing is refused first, naming
    /// it.
    pub(crate) async fn get(
        &self,
        arguments: BTreeMap<String, String>,
        context: Context,
    ) -> Result<GetPromptResult, PromptError> {
        if let Some(missing) = self
            .definition
            .arguments
            .iter()
            .find(|argument| argument.required && !arguments.contains_key(&argument.name))
        {
            return Err(PromptError::InvalidArgument(format!(
                "Missing required argument `{}` of prompt `{}`",
                missing.name,
                self.name()
            )));
        }
        // A panic in the prompt's fn is its failure, answered as one, as a tool's is.
        AssertUnwindSafe((self.handler)(arguments, context))
            .catch_unwind()
            .await
            .unwrap_or_else(|_| {
                tracing::error!(prompt = self.name(), "a prompt fn panicked");
                Err(PromptError::Failed(format!(
                    "Error getting prompt {}: it panicked",
                    self.name()
                )))
            })
    }

    /// How the argument `name` completes: `Err` when the prompt has no such argument, `None`
    /// when it has no completer.
    pub(crate) fn completer(&self, name: &str) -> Result<Option<&Completer>, ()> {
        if !self
            .definition
            .arguments
            .iter()
            .any(|argument| argument.name == name)
        {
            return Err(());
        }
        Ok(self.completers.get(name))
    }

    /// Whether some argument completes.
    pub(crate) fn completes(&self) -> bool {
        !self.completers.is_empty()
    }
}

impl Named for Prompt {
    type Definition = PromptDefinition;
    const KIND: ItemKind = ItemKind::Prompt;

    fn scopes(&self) -> &Scopes {
        &self.scopes
    }

    fn name(&self) -> &str {
        &self.definition.name
    }

    fn shared_definition(&self) -> Arc<PromptDefinition> {
        Arc::clone(&self.definition)
    }

    fn place(&self) -> &str {
        self.source.as_deref().unwrap_or("added at run time")
    }

    fn duplicate(name: &str, first: &str, second: &str) -> RegistryError {
        RegistryError::DuplicateName {
            kind: ItemKind::Prompt,
            name: name.to_owned(),
            first: first.to_owned(),
            second: second.to_owned(),
        }
    }

    fn missing_state(&self, states: &StateMap) -> Vec<RegistryError> {
        let (name, source) = (self.name(), self.source.as_deref());
        RegistryError::missing_state(ItemKind::Prompt, name, source, &self.required_state, states)
    }

    fn tags(&self) -> &super::Tags {
        &self.tags
    }
}

impl fmt::Debug for Prompt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Prompt")
            .field("definition", &self.definition)
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

/// Every `#[prompt]` in the binary, built once per process, sorted by name; `Err` names every
/// two prompts of one name.
pub(crate) fn collected() -> Result<&'static [Prompt], RegistryError> {
    static COLLECTED: OnceLock<Result<Vec<Prompt>, RegistryError>> = OnceLock::new();
    COLLECTED
        .get_or_init(|| {
            let registrations: Vec<&'static PromptRegistration> =
                inventory::iter::<PromptRegistration>.into_iter().collect();
            super::unique_by_name(
                registrations,
                |registration| registration.name,
                |registration| (registration.file, registration.line),
                <Prompt as Named>::duplicate,
            )
            .map(|registrations| {
                registrations
                    .into_iter()
                    .map(Prompt::from_registration)
                    .collect()
            })
        })
        .as_ref()
        .map(Vec::as_slice)
        .map_err(Clone::clone)
}
