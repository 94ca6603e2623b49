//! Resources: what `#[resource]` submits ([`ResourceRegistration`]), the servable [`Resource`]
//! built from it or at run time, and the live [`ResourceSet`] a server reads from (a snapshot,
//! [`Listed`], per request). Reading one is [`Resource::read`].

use std::any::Any;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Display;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock, RwLock};

use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use serde_json::{Map, Value};

use super::complete::{Completer, CompletionContext, IntoCompletion, VariableCompleter};
use super::template::UriTemplate;
use super::view::{self, AppView};
use super::{ADDED_AT_RUN_TIME, IconRegistration, ItemKind, RegistryError};
use crate::context::Context;
use crate::state::{StateKey, StateMap};
use crate::sync::{read, write};
use crate::types::Icon;

/// What `#[resource]` submits to `inventory` for one item. Not public API: generated code builds
/// it.
#[doc(hidden)]
#[derive(Debug)]
pub struct ResourceRegistration {
    /// The URI, or the RFC 6570 level-1 template (`test://template/{id}/data`).
    pub uri: &'static str,
    /// The resource's name (the item's name unless the attribute gives one).
    pub name: &'static str,
    /// The display title.
    pub title: Option<&'static str>,
    /// The doc comment or `description = "…"`.
    pub description: Option<&'static str>,
    /// The MIME type; an app view's is always [`view::VIEW_MIME_TYPE`].
    pub mime_type: Option<&'static str>,
    /// The view's `_meta.ui`, for an MCP Apps view.
    pub app: Option<AppView>,
    /// Where the contents come from.
    pub read: ResourceRead,
    /// Where the item is, for error messages.
    pub file: &'static str,
    /// See `file`.
    pub line: u32,
    /// `icons(…)`.
    pub icons: &'static [IconRegistration],
    /// How the template's variables complete (`completion/complete`): each variable's
    /// completer fn, or its type's known values.
    pub completers: &'static [VariableCompleter],
    /// The app state its fn takes (`State<T>` parameters), checked at start-up.
    pub state: &'static [fn() -> StateKey],
}

inventory::collect!(ResourceRegistration);

/// Where a resource's contents come from. Not public API.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub enum ResourceRead {
    /// A `static`/`const` (`include_str!`, `include_bytes!`): the same contents every time.
    Static(fn() -> ResourceBody),
    /// An fn, given the template's variables in order (none for a plain URI) and the request's
    /// context (for its `Context` and `State<T>` parameters).
    Dynamic(fn(Vec<String>, Context) -> BoxFuture<'static, Result<ResourceBody, ResourceError>>),
}

/// A resource's contents: text, or bytes (sent base64-encoded as `blob`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResourceBody {
    /// Text, sent as `text`.
    Text(Cow<'static, str>),
    /// Bytes, sent as `blob`.
    Blob(Cow<'static, [u8]>),
}

/// What a `#[resource]` item or fn can give: text (`&'static str`, `String`), bytes
/// (`&'static [u8]`, `Vec<u8>`), a [`ResourceBody`], or (from an fn) an `Option` of one of those,
/// whose `None` means the URI names nothing (a template's `notes://{id}` for an id that does not
/// exist), or a `Result` whose error becomes the JSON-RPC error's message (a
/// `Result<T, ResourceError>` says itself whether the URI names nothing or reading failed).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the contents of a `#[resource]`",
    label = "a resource gives `&'static str`, `String`, `&'static [u8]`, `Vec<u8>` or `ResourceBody`",
    note = "an fn may also return `Option<T>` of one of these (`None`: not found), or `Result<T, E>` with `E: Display`"
)]
pub trait IntoResourceBody {
    /// The contents, or why there are none.
    ///
    /// # Errors
    ///
    /// [`ResourceError::NotFound`] when there is nothing at the URI, [`ResourceError::Failed`]
    /// when reading it failed.
    fn into_resource_body(self) -> Result<ResourceBody, ResourceError>;
}

impl IntoResourceBody for ResourceBody {
    fn into_resource_body(self) -> Result<ResourceBody, ResourceError> {
        Ok(self)
    }
}

impl IntoResourceBody for &'static str {
    fn into_resource_body(self) -> Result<ResourceBody, ResourceError> {
        Ok(ResourceBody::Text(Cow::Borrowed(self)))
    }
}

impl IntoResourceBody for String {
    fn into_resource_body(self) -> Result<ResourceBody, ResourceError> {
        Ok(ResourceBody::Text(Cow::Owned(self)))
    }
}

impl IntoResourceBody for &'static [u8] {
    fn into_resource_body(self) -> Result<ResourceBody, ResourceError> {
        Ok(ResourceBody::Blob(Cow::Borrowed(self)))
    }
}

impl<const N: usize> IntoResourceBody for &'static [u8; N] {
    fn into_resource_body(self) -> Result<ResourceBody, ResourceError> {
        Ok(ResourceBody::Blob(Cow::Borrowed(self)))
    }
}

impl IntoResourceBody for Vec<u8> {
    fn into_resource_body(self) -> Result<ResourceBody, ResourceError> {
        Ok(ResourceBody::Blob(Cow::Owned(self)))
    }
}

/// A [`ResourceError`] says which: not found (with its reason) or failed; any other error's
/// text is a failure's message.
impl<T: IntoResourceBody, E: Display + 'static> IntoResourceBody for Result<T, E> {
    fn into_resource_body(self) -> Result<ResourceBody, ResourceError> {
        self.map_err(|error| {
            // One impl for both (`ResourceError` is `Display` too): the type decides.
            let message = error.to_string();
            (Box::new(error) as Box<dyn Any>)
                .downcast::<ResourceError>()
                .map_or_else(|_| ResourceError::Failed(message), |error| *error)
        })?
        .into_resource_body()
    }
}

impl<T: IntoResourceBody> IntoResourceBody for Option<T> {
    fn into_resource_body(self) -> Result<ResourceBody, ResourceError> {
        self.ok_or(ResourceError::NotFound(None))?
            .into_resource_body()
    }
}

/// A resource (or resource template) a server serves: every `#[resource]` is one, and
/// [`Resource::new`] builds one at run time, to add while the server serves
/// ([`Resources::add`](crate::resource::Resources::add)). Clones share what they hold.
#[derive(Clone)]
pub struct Resource {
    uri: Arc<str>,
    name: Arc<str>,
    title: Option<Arc<str>>,
    description: Option<Arc<str>>,
    mime_type: Option<Arc<str>>,
    /// An MCP Apps view (`#[resource(app)]`).
    app: bool,
    template: Option<UriTemplate>,
    /// The `_meta` of list entries and contents (`{"ui": …}` for a view).
    meta: Option<Arc<Map<String, Value>>>,
    /// Its icons as served (a `data = …` icon encoded once).
    icons: Arc<[Icon]>,
    /// How the template's variables complete, by variable.
    completers: Arc<BTreeMap<String, Completer>>,
    reader: Reader,
    /// The app state its fn takes, checked at start-up.
    required_state: Arc<[StateKey]>,
    /// `file:line` of a `#[resource]`, or "added at run time", for error messages.
    place: Arc<str>,
}

/// Where a resource's contents come from.
#[derive(Clone)]
enum Reader {
    /// A `#[resource]`'s `static` or fn.
    Registered(ResourceRead),
    /// A run-time resource's handler.
    Handler(ReadHandler),
    /// Contents fixed when the server was built: a file of the skill whose root is `root`
    /// (`skill://pdf`). Shared, so that neither a read nor a change of the set copies them.
    #[cfg(feature = "skills")]
    Fixed {
        body: Arc<ResourceBody>,
        root: Arc<str>,
    },
}

/// A run-time resource's handler, its output made a body.
type ReadHandler = Arc<
    dyn Fn(ReadRequest) -> BoxFuture<'static, Result<ResourceBody, ResourceError>> + Send + Sync,
>;

/// What the handler of a run-time [`Resource`] is given: the URI read and, for a template, the
/// values of its variables (percent-decoded, each one name: never a path).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReadRequest {
    uri: String,
    variables: Vec<(String, String)>,
}

impl ReadRequest {
    /// A read of `uri` with the values of its template's `variables`, as the server builds it:
    /// to unit-test a handler without serving it.
    ///
    /// ```
    /// use mcp_toolbelt::resource::ReadRequest;
    ///
    /// async fn note(request: ReadRequest) -> String {
    ///     format!("note {}", request.variable("id").unwrap_or("?"))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let request = ReadRequest::new("notes://7", [("id", "7")]);
    /// assert_eq!(request.uri(), "notes://7");
    /// assert_eq!(note(request).await, "note 7");
    /// # }
    /// ```
    #[must_use]
    pub fn new<N, V>(uri: impl Into<String>, variables: impl IntoIterator<Item = (N, V)>) -> Self
    where
        N: Into<String>,
        V: Into<String>,
    {
        Self {
            uri: uri.into(),
            variables: variables
                .into_iter()
                .map(|(name, value)| (name.into(), value.into()))
                .collect(),
        }
    }

    /// The URI the client reads.
    #[must_use]
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The value of the template variable `name` (`None` for a plain URI, or a name the
    /// template does not have).
    #[must_use]
    pub fn variable(&self, name: &str) -> Option<&str> {
        self.variables
            .iter()
            .find(|(variable, _)| variable == name)
            .map(|(_, value)| value.as_str())
    }
}

/// Why a read failed: the URI names nothing (a template's variable its parameter's type
/// refused says why), or the resource's fn failed.
#[derive(Debug)]
pub(crate) enum ReadError {
    NotFound(Option<String>),
    Failed(String),
}

/// Why a resource gives no contents: what [`IntoResourceBody`] returns when there are none.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResourceError {
    /// The URI names nothing: the client is told "Resource not found" (`-32602`), with the
    /// reason if there is one. A fn's `None` gives it, and so does a template variable whose
    /// value its parameter's type refuses (`three` for a `u32`), with that reason. Another
    /// template matching the URI is then still tried.
    NotFound(Option<String>),
    /// Reading failed: the message becomes the JSON-RPC error's (`-32603`).
    Failed(String),
}

impl Display for ResourceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotFound(None) => f.write_str("resource not found"),
            Self::NotFound(Some(reason)) => write!(f, "resource not found: {reason}"),
            Self::Failed(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for ResourceError {}

impl Resource {
    /// A resource built at run time, served at `uri` under `name`, whose contents `read` gives
    /// (anything [`IntoResourceBody`]: text, bytes, an `Option` whose `None` is "not found", a
    /// `Result`). `uri` may be an RFC 6570 level-1 template (`notes://{id}`): the handler then
    /// reads the values from its [`ReadRequest`]. `Err` when the name is empty or the template
    /// does not parse.
    ///
    /// ```
    /// use mcp_toolbelt::resource::Resource;
    ///
    /// let note = Resource::new("notes://{id}", "note", |request| async move {
    ///     let id = request.variable("id").unwrap_or_default().to_owned();
    ///     (id == "1").then(|| "The first note".to_owned()) // `None`: not found
    /// })?
    /// .description("One note, by id")
    /// .mime_type("text/plain");
    /// assert!(note.is_template());
    /// # Ok::<(), mcp_toolbelt::error::RegistryError>(())
    /// ```
    pub fn new<F, Fut>(
        uri: impl Into<String>,
        name: impl Into<String>,
        read: F,
    ) -> Result<Self, RegistryError>
    where
        F: Fn(ReadRequest) -> Fut + Send + Sync + 'static,
        Fut: Future + Send + 'static,
        Fut::Output: IntoResourceBody,
    {
        let uri: String = uri.into();
        let name: String = name.into();
        let invalid = |problem: String| RegistryError::InvalidResource {
            uri: uri.clone(),
            location: ADDED_AT_RUN_TIME.to_owned(),
            problem,
        };
        if uri.is_empty() || uri.contains(char::is_whitespace) {
            return Err(invalid("its URI must be non-empty, without spaces".into()));
        }
        if name.is_empty() {
            return Err(invalid("its name must not be empty".into()));
        }
        let template = if uri.contains(['{', '}']) {
            Some(UriTemplate::parse(&uri).map_err(invalid)?)
        } else {
            None
        };
        let handler: ReadHandler = Arc::new(move |request| {
            let contents = read(request);
            Box::pin(async move { contents.await.into_resource_body() })
        });
        Ok(Self {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            app: false,
            template,
            meta: None,
            icons: Arc::new([]),
            completers: Arc::default(),
            reader: Reader::Handler(handler),
            required_state: Arc::new([]),
            place: ADDED_AT_RUN_TIME.into(),
        })
    }

    /// A file of the skill whose root is `root`, its contents fixed when the server is built:
    /// read without a handler, cached by clients as long as the server's TTL, never removed
    /// nor shadowed while the server serves.
    #[cfg(feature = "skills")]
    pub(crate) fn fixed(
        uri: String,
        name: String,
        body: ResourceBody,
        root: &str,
        place: &str,
    ) -> Self {
        Self {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            app: false,
            template: None,
            meta: None,
            icons: Arc::new([]),
            completers: Arc::default(),
            reader: Reader::Fixed {
                body: Arc::new(body),
                root: root.into(),
            },
            required_state: Arc::new([]),
            place: place.into(),
        }
    }

    /// A display title (sent to clients from 2025-06-18 on).
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into().into());
        self
    }

    /// What the resource is, for the model and the user.
    #[must_use]
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into().into());
        self
    }

    /// The MIME type of its contents (`text/markdown`).
    #[must_use]
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into().into());
        self
    }

    /// Completes the template variable `variable` with `complete`, given the partial value
    /// and the [`CompletionContext`] (the variables already resolved); it returns anything
    /// [`IntoCompletion`], as a completer fn of `#[resource]` does. A completer for a name that is
    /// no variable of the template is never asked.
    ///
    /// ```
    /// use mcp_toolbelt::resource::Resource;
    ///
    /// let note = Resource::new("notes://{id}", "note", |request| async move {
    ///     format!("note {}", request.variable("id").unwrap_or_default())
    /// })?
    /// .complete("id", |partial, _context| async move {
    ///     ["1", "2", "12"].into_iter().filter(|id| id.starts_with(&partial)).collect::<Vec<_>>()
    /// });
    /// # let _ = note;
    /// # Ok::<(), mcp_toolbelt::error::RegistryError>(())
    /// ```
    #[must_use]
    pub fn complete<F, Fut>(mut self, variable: impl Into<String>, complete: F) -> Self
    where
        F: Fn(String, CompletionContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output: IntoCompletion> + Send + 'static,
    {
        Arc::make_mut(&mut self.completers).insert(variable.into(), Completer::shared(complete));
        self
    }

    /// An icon a client may show beside it (repeat for several). Unlike `icons(…)` on
    /// `#[resource]`, its values are not checked at compile time.
    #[must_use]
    pub fn icon(mut self, icon: Icon) -> Self {
        let mut icons = self.icons.to_vec();
        icons.push(icon);
        self.icons = icons.into();
        self
    }

    fn from_registration(
        registration: &'static ResourceRegistration,
    ) -> Result<Self, RegistryError> {
        let invalid = |problem: String| RegistryError::InvalidResource {
            uri: registration.uri.to_owned(),
            location: place(registration),
            problem,
        };
        let is_template = registration.uri.contains(['{', '}']);
        let template = if is_template {
            Some(UriTemplate::parse(registration.uri).map_err(invalid)?)
        } else {
            None
        };
        if template.is_some() && matches!(registration.read, ResourceRead::Static(_)) {
            return Err(invalid("a URI template needs an fn to read it".into()));
        }
        if registration.app.is_some()
            && (template.is_some() || !registration.uri.starts_with("ui://"))
        {
            return Err(invalid("an app view's URI is a plain `ui://` URI".into()));
        }
        let meta = registration.app.as_ref().map(|app| Arc::new(app.meta()));
        let completers = registration
            .completers
            .iter()
            .filter_map(|completer| Some((completer.variable.to_owned(), (completer.complete)()?)))
            .collect();
        Ok(Self {
            uri: registration.uri.into(),
            name: registration.name.into(),
            title: registration.title.map(Into::into),
            description: registration.description.map(Into::into),
            mime_type: registration.mime_type.map(Into::into),
            app: registration.app.is_some(),
            template,
            meta,
            icons: registration
                .icons
                .iter()
                .map(IconRegistration::icon)
                .collect(),
            completers: Arc::new(completers),
            reader: Reader::Registered(registration.read),
            required_state: registration.state.iter().map(|key| key()).collect(),
            place: place(registration).into(),
        })
    }

    /// The URI, or the URI template, as given.
    #[must_use]
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// Whether its URI is a template (`notes://{id}`), listed by `resources/templates/list`.
    #[must_use]
    pub fn is_template(&self) -> bool {
        self.template.is_some()
    }

    /// An MCP Apps view: a `ui://` resource of MIME type [`view::VIEW_MIME_TYPE`].
    pub(crate) fn is_app_view(&self) -> bool {
        self.app
    }

    /// Fixed contents (a `static`), which a client may cache as long as the server's TTL.
    pub(crate) fn is_static(&self) -> bool {
        match self.reader {
            Reader::Registered(ResourceRead::Static(_)) => true,
            #[cfg(feature = "skills")]
            Reader::Fixed { .. } => true,
            _ => false,
        }
    }

    /// The root of the skill it is a file of (`skill://pdf`).
    fn skill_root(&self) -> Option<&str> {
        match &self.reader {
            #[cfg(feature = "skills")]
            Reader::Fixed { root, .. } => Some(root),
            _ => None,
        }
    }

    /// Whether `self` would serve a URI under the root of the skill `skill` is a file of, or
    /// the reverse, without being a file of that skill: what no run-time change may do to a
    /// skill, whose files are its manifest's.
    fn intrudes_on<'a>(&self, skill: &'a Self) -> Option<&'a str> {
        let root = skill.skill_root()?;
        if self.skill_root().is_some() {
            // Two skills' files: the same skill's, or another's, whose root the server
            // already refused to nest in this one's (`SkillEntry::clash`).
            return None;
        }
        let under = |uri: &str| {
            uri.strip_prefix(root)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        };
        let reaches = if self.is_template() {
            // A template's literal beginning (`skill://pdf/{path}`, `skill://{name}`) may
            // already reach under it.
            let literal = self.uri.split('{').next().unwrap_or_default();
            under(literal) || root.starts_with(literal)
        } else {
            under(self.uri())
        };
        reaches.then_some(root)
    }

    /// Its name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its display title, as listed.
    pub(crate) fn listed_title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// Its description, as listed.
    pub(crate) fn listed_description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The MIME type of its contents, as listed and read (an app view's is always
    /// [`view::VIEW_MIME_TYPE`]).
    pub(crate) fn listed_mime_type(&self) -> Option<&str> {
        if self.is_app_view() {
            return Some(view::VIEW_MIME_TYPE);
        }
        self.mime_type.as_deref()
    }

    pub(crate) fn meta(&self) -> Option<&Map<String, Value>> {
        self.meta.as_deref()
    }

    /// Where it was defined (`file:line`), or "added at run time".
    pub(crate) fn place(&self) -> &str {
        &self.place
    }

    /// Whether `uri` is one this resource serves: its own URI, or an expansion of its template.
    pub(crate) fn serves(&self, uri: &str) -> bool {
        match &self.template {
            Some(template) => template.matches(uri).is_some(),
            None => uri == self.uri(),
        }
    }

    /// The template, for a subscription to it.
    pub(crate) fn template(&self) -> Option<&UriTemplate> {
        self.template.as_ref()
    }

    pub(crate) fn icons(&self) -> &[Icon] {
        &self.icons
    }

    /// How the template's variable `name` completes: `Err` when the template has no such
    /// variable, `None` when it has no completer.
    pub(crate) fn completer(&self, name: &str) -> Result<Option<&Completer>, ()> {
        let template = self.template.as_ref().ok_or(())?;
        if !template.variables().any(|variable| variable == name) {
            return Err(());
        }
        Ok(self.completers.get(name))
    }

    /// Whether a template variable completes.
    pub(crate) fn completes(&self) -> bool {
        !self.completers.is_empty()
    }

    /// A start-up error for each app state its fn takes that `states` lacks.
    fn missing_state<'a>(
        &'a self,
        states: &'a StateMap,
    ) -> impl Iterator<Item = RegistryError> + 'a {
        self.required_state
            .iter()
            .filter(|key| !states.contains(key))
            .map(|missing| RegistryError::MissingState {
                kind: ItemKind::Resource,
                name: self.uri().to_owned(),
                location: Some(self.place().to_owned()),
                type_name: missing.type_name().to_owned(),
            })
    }

    /// The contents at `uri`, when this resource serves it (fixed ones borrowed, not copied);
    /// its fn is given `context`.
    async fn read(
        &self,
        uri: &str,
        context: &Context,
    ) -> Option<Result<Cow<'_, ResourceBody>, ResourceError>> {
        let values = match &self.template {
            Some(template) => template.matches(uri)?,
            None if uri == self.uri() => Vec::new(),
            None => return None,
        };
        let contents = match &self.reader {
            Reader::Registered(ResourceRead::Static(body)) => return Some(Ok(Cow::Owned(body()))),
            #[cfg(feature = "skills")]
            Reader::Fixed { body, .. } => return Some(Ok(Cow::Borrowed(body))),
            Reader::Registered(ResourceRead::Dynamic(read)) => read(values, context.clone()),
            Reader::Handler(handler) => {
                let names = self.template.iter().flat_map(UriTemplate::variables);
                handler(ReadRequest {
                    uri: uri.to_owned(),
                    variables: names.map(str::to_owned).zip(values).collect(),
                })
            }
        };
        Some(
            AssertUnwindSafe(contents)
                .catch_unwind()
                .await
                .unwrap_or_else(|_| {
                    tracing::error!(uri, "a resource fn panicked");
                    Err(ResourceError::Failed(format!("reading {uri} failed")))
                })
                .map(Cow::Owned),
        )
    }
}

impl std::fmt::Debug for Resource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resource")
            .field("uri", &self.uri)
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// The resources of one server at one moment: plain ones and templates, each sorted by URI.
#[derive(Clone, Default)]
pub(crate) struct Listed {
    resources: Vec<Resource>,
    templates: Vec<Resource>,
}

impl Listed {
    pub(crate) fn is_empty(&self) -> bool {
        self.resources.is_empty() && self.templates.is_empty()
    }

    /// Plain resources, sorted by URI.
    pub(crate) fn resources(&self) -> &[Resource] {
        &self.resources
    }

    /// Templates, sorted by template.
    pub(crate) fn templates(&self) -> &[Resource] {
        &self.templates
    }

    /// The template written exactly `template`.
    pub(crate) fn template(&self, template: &str) -> Option<&Resource> {
        self.templates
            .binary_search_by(|resource| resource.uri().cmp(template))
            .ok()
            .map(|index| &self.templates[index])
    }

    /// Whether a template variable completes.
    pub(crate) fn completes(&self) -> bool {
        self.templates.iter().any(Resource::completes)
    }

    /// The plain resource at exactly `uri`.
    pub(crate) fn get(&self, uri: &str) -> Option<&Resource> {
        self.resources
            .binary_search_by(|resource| resource.uri().cmp(uri))
            .ok()
            .map(|index| &self.resources[index])
    }

    /// The list (plain or templates) a resource of `uri` goes in.
    fn list_of(&mut self, template: bool) -> &mut Vec<Resource> {
        if template {
            &mut self.templates
        } else {
            &mut self.resources
        }
    }

    fn list_of_ref(&self, template: bool) -> &[Resource] {
        if template {
            &self.templates
        } else {
            &self.resources
        }
    }

    /// The resource or template registered under exactly `uri` (a template as written).
    fn position(&self, uri: &str) -> Option<(bool, usize)> {
        [false, true].into_iter().find_map(|template| {
            let list = if template {
                &self.templates
            } else {
                &self.resources
            };
            list.binary_search_by(|resource| resource.uri().cmp(uri))
                .ok()
                .map(|index| (template, index))
        })
    }

    /// The contents at `uri`: the plain resource of that URI, else the first template (in
    /// template order) that matches it, its fn given `context`. Also says whether they may be
    /// cached.
    pub(crate) async fn read(
        &self,
        uri: &str,
        context: &Context,
    ) -> Result<(&Resource, Cow<'_, ResourceBody>), ReadError> {
        let candidates = self.get(uri).into_iter().chain(&self.templates);
        let mut refused = None;
        for resource in candidates {
            match resource.read(uri, context).await {
                None => {}
                Some(Ok(body)) => return Ok((resource, body)),
                Some(Err(ResourceError::Failed(message))) => {
                    return Err(ReadError::Failed(message));
                }
                // A later template may still serve it (`{id}` as a number, then as a name).
                // The first refusal says why (a fn's `None` has no reason to give).
                Some(Err(ResourceError::NotFound(why))) => {
                    refused.get_or_insert(why);
                }
            }
        }
        Err(ReadError::NotFound(refused.flatten()))
    }
}

/// The live resources of one server: the collected ones plus those added at run time. Readers
/// take a snapshot ([`ResourceSet::listed`]) and never hold the lock; a change copies the lists.
#[derive(Default)]
pub(crate) struct ResourceSet {
    listed: RwLock<Arc<Listed>>,
    /// Set once a resource was added while serving: the server then serves resources (the
    /// capability, the methods) even after the last is removed.
    open: AtomicBool,
}

impl ResourceSet {
    pub(crate) fn new(listed: Listed) -> Self {
        Self {
            listed: RwLock::new(Arc::new(listed)),
            open: AtomicBool::new(false),
        }
    }

    /// The resources as of now.
    pub(crate) fn listed(&self) -> Arc<Listed> {
        Arc::clone(&read(&self.listed))
    }

    /// A start-up error for each app state a resource's fn takes that `states` lacks.
    pub(crate) fn missing_state(&self, states: &StateMap) -> Vec<RegistryError> {
        let listed = self.listed();
        listed
            .resources
            .iter()
            .chain(&listed.templates)
            .flat_map(|resource| resource.missing_state(states))
            .collect()
    }

    /// Whether resources are served: there are some, or were.
    pub(crate) fn is_served(&self) -> bool {
        self.open.load(Ordering::Acquire) || !self.listed().is_empty()
    }

    /// Adds a resource; refused when its URI (or template) is taken, or when it would serve a
    /// URI under a skill's root (or a skill's file would land under it).
    pub(crate) fn insert(&self, resource: Resource) -> Result<(), RegistryError> {
        let mut listed = write(&self.listed);
        let intrusion = listed
            .resources
            .iter()
            .chain(&listed.templates)
            .find_map(|existing| {
                let intruder = |intruder: &Resource, skill: &Resource| {
                    intruder.intrudes_on(skill).map(|root| {
                        (
                            intruder.uri().to_owned(),
                            intruder.place().to_owned(),
                            root.to_owned(),
                            skill.place().to_owned(),
                        )
                    })
                };
                intruder(&resource, existing).or_else(|| intruder(existing, &resource))
            });
        if let Some((uri, location, root, skill)) = intrusion {
            return Err(RegistryError::InvalidResource {
                uri,
                location,
                problem: format!(
                    "it is under {root}, the root of a skill ({skill}), whose files are its \
                     own: serve it at another URI"
                ),
            });
        }
        if let Some((template, index)) = listed.position(resource.uri()) {
            let existing = if template {
                &listed.templates[index]
            } else {
                &listed.resources[index]
            };
            return Err(RegistryError::DuplicateResource {
                uri: resource.uri().to_owned(),
                first: existing.place().to_owned(),
                second: resource.place().to_owned(),
            });
        }
        let list = Arc::make_mut(&mut listed).list_of(resource.is_template());
        let index = list.partition_point(|existing| existing.uri() < resource.uri());
        list.insert(index, resource);
        self.open.store(true, Ordering::Release);
        Ok(())
    }

    /// Removes the resource or template registered under exactly `uri`, returning it; a
    /// skill's file is never removed (`Err`).
    pub(crate) fn remove(&self, uri: &str) -> Result<Option<Resource>, RegistryError> {
        let mut listed = write(&self.listed);
        let Some((template, index)) = listed.position(uri) else {
            return Ok(None);
        };
        if let Some(root) = listed.list_of_ref(template)[index].skill_root() {
            return Err(RegistryError::InvalidResource {
                uri: uri.to_owned(),
                location: ADDED_AT_RUN_TIME.to_owned(),
                problem: format!(
                    "it is a file of the skill at {root}, listed in its manifest: a skill's \
                     files are served as long as the server"
                ),
            });
        }
        Ok(Some(
            Arc::make_mut(&mut listed).list_of(template).remove(index),
        ))
    }
}

/// Every `#[resource]` in the binary, built once per process: the ones that can be served, and
/// every problem with the others (so that views can still be checked against the good ones).
pub(crate) fn collected() -> &'static (Listed, Vec<RegistryError>) {
    static COLLECTED: OnceLock<(Listed, Vec<RegistryError>)> = OnceLock::new();
    COLLECTED.get_or_init(|| {
        build_all(
            inventory::iter::<ResourceRegistration>
                .into_iter()
                .collect(),
        )
    })
}

fn place(registration: &ResourceRegistration) -> String {
    format!("{}:{}", registration.file, registration.line)
}

/// The set of `registrations`, or every problem with them (a URI registered twice, a template
/// that does not parse).
fn build_all(
    mut registrations: Vec<&'static ResourceRegistration>,
) -> (Listed, Vec<RegistryError>) {
    registrations.sort_by(|a, b| (a.uri, a.file, a.line).cmp(&(b.uri, b.file, b.line)));
    let mut problems = Vec::new();
    let mut set = Listed::default();
    for (index, registration) in registrations.iter().enumerate() {
        if let Some(first) = registrations[..index]
            .iter()
            .find(|earlier| earlier.uri == registration.uri)
        {
            problems.push(RegistryError::DuplicateResource {
                uri: registration.uri.to_owned(),
                first: place(first),
                second: place(registration),
            });
            continue;
        }
        match Resource::from_registration(registration) {
            Ok(resource) if resource.is_template() => set.templates.push(resource),
            Ok(resource) => set.resources.push(resource),
            Err(problem) => problems.push(problem),
        }
    }
    (set, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn registration(
        uri: &'static str,
        line: u32,
        read: ResourceRead,
    ) -> ResourceRegistration {
        ResourceRegistration {
            uri,
            name: "r",
            title: None,
            description: None,
            mime_type: None,
            app: None,
            read,
            file: "r.rs",
            line,
            icons: &[],
            completers: &[],
            state: &[],
        }
    }

    fn context() -> Context {
        Context::detached(StateMap::default())
    }

    fn text() -> ResourceBody {
        ResourceBody::Text("hello".into())
    }

    /// A resource fn can hand its error to code that takes any `std::error::Error` (`?` into
    /// `anyhow`, a log line).
    #[test]
    fn a_resource_error_is_an_error_with_its_reason() {
        let errors: [Box<dyn std::error::Error>; 3] = [
            Box::new(ResourceError::NotFound(None)),
            Box::new(ResourceError::NotFound(Some("no page 0".into()))),
            Box::new(ResourceError::Failed("the disk is gone".into())),
        ];
        let texts: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            [
                "resource not found",
                "resource not found: no page 0",
                "the disk is gone"
            ]
        );
    }

    /// A fn's `Result` keeps which error it returned: not found stays not found.
    #[test]
    fn a_result_keeps_its_resource_error() {
        let missing: Result<String, ResourceError> =
            Err(ResourceError::NotFound(Some("no page 0".into())));
        assert_eq!(
            missing.into_resource_body(),
            Err(ResourceError::NotFound(Some("no page 0".into())))
        );
        let failed: Result<String, std::io::Error> = Err(std::io::Error::other("gone"));
        assert_eq!(
            failed.into_resource_body(),
            Err(ResourceError::Failed("gone".into()))
        );
    }

    fn echo(
        values: Vec<String>,
        _: Context,
    ) -> BoxFuture<'static, Result<ResourceBody, ResourceError>> {
        Box::pin(async move { Ok(ResourceBody::Text(values.join(",").into())) })
    }

    /// A fn returning `None`.
    fn nothing(
        _: Vec<String>,
        _: Context,
    ) -> BoxFuture<'static, Result<ResourceBody, ResourceError>> {
        Box::pin(async { None::<String>.into_resource_body() })
    }

    /// A fn returning `Err(ResourceError::NotFound(…))`.
    fn refuse(
        _: Vec<String>,
        _: Context,
    ) -> BoxFuture<'static, Result<ResourceBody, ResourceError>> {
        let why = ResourceError::NotFound(Some("no such name".into()));
        Box::pin(async { Err::<String, _>(why).into_resource_body() })
    }

    static A1: ResourceRegistration = registration("a://x", 1, ResourceRead::Static(text));
    static A2: ResourceRegistration = registration("a://x", 2, ResourceRead::Static(text));
    static T: ResourceRegistration = registration("a://{id}/y", 3, ResourceRead::Dynamic(echo));
    static BAD: ResourceRegistration = registration("a://{id}", 4, ResourceRead::Static(text));
    static NONE: ResourceRegistration =
        registration("a://{id}/w", 5, ResourceRead::Dynamic(nothing));
    static ECHO_W: ResourceRegistration =
        registration("a://{name}/w", 6, ResourceRead::Dynamic(echo));
    static REFUSE_W: ResourceRegistration =
        registration("a://{name}/w", 7, ResourceRead::Dynamic(refuse));

    #[test]
    fn a_uri_registered_twice_names_both_places() {
        let (_, problems) = build_all(vec![&A2, &A1]);
        assert_eq!(
            problems[0].to_string(),
            "two resources have the URI `a://x`: one at r.rs:1, one at r.rs:2; resource URIs must be unique"
        );
        let (_, problems) = build_all(vec![&BAD]);
        assert!(
            problems[0].to_string().contains("needs an fn"),
            "{problems:?}"
        );
    }

    /// A resource built at run time reads its template's values; the live set takes it once,
    /// and a problem names it as added at run time.
    #[tokio::test]
    async fn a_run_time_resource_joins_the_live_set() {
        let (collected, _) = build_all(vec![&A1]);
        let set = ResourceSet::new(collected);
        let note = Resource::new(
            "a://notes/{id}/v{version}",
            "note",
            |request: ReadRequest| async move {
                let id = request.variable("id").unwrap_or_default().to_owned();
                (id != "0").then(|| format!("{id} {}", request.variable("version").unwrap_or("?")))
            },
        )
        .unwrap()
        .mime_type("text/plain");
        set.insert(note.clone()).unwrap();
        let listed = set.listed();
        let (resource, body) = listed.read("a://notes/7/v2", &context()).await.unwrap();
        assert_eq!(resource.listed_mime_type(), Some("text/plain"));
        assert_eq!(*body, ResourceBody::Text("7 2".into()));
        assert!(matches!(
            listed.read("a://notes/0/v1", &context()).await,
            Err(ReadError::NotFound(None))
        ));
        assert_eq!(
            set.insert(note).unwrap_err().to_string(),
            "two resources have the URI `a://notes/{id}/v{version}`: one added at run time, one \
             added at run time; resource URIs must be unique"
        );
        let taken = Resource::new("a://x", "x", |_| async { "" }).unwrap();
        assert_eq!(
            set.insert(taken).unwrap_err().to_string(),
            "two resources have the URI `a://x`: one at r.rs:1, one added at run time; resource \
             URIs must be unique"
        );
        assert!(set.remove("a://notes/{id}/v{version}").unwrap().is_some());
        assert!(set.remove("a://notes/{id}/v{version}").unwrap().is_none());
        assert!(
            listed.read("a://notes/7/v2", &context()).await.is_ok(),
            "a snapshot stays whole"
        );
        assert!(
            set.listed()
                .read("a://notes/7/v2", &context())
                .await
                .is_err()
        );
        let bad = Resource::new("a://{", "x", |_| async { "" }).unwrap_err();
        assert!(
            bad.to_string().starts_with(
                "resource `a://{` added at run time cannot be served: `{` without `}`"
            ),
            "{bad}"
        );
        let unnamed = Resource::new("a://y", "", |_| async { "" }).unwrap_err();
        assert!(
            unnamed.to_string().ends_with("its name must not be empty"),
            "{unnamed}"
        );
    }

    #[cfg(feature = "skills")]
    #[tokio::test]
    async fn fixed_contents_are_shared_by_reads_and_by_changes_of_the_set() {
        let body = ResourceBody::Text(Cow::Owned("x".repeat(1024)));
        let fixed = Resource::fixed(
            "skill://a/SKILL.md".into(),
            "a".into(),
            body,
            "skill://a",
            "here",
        );
        let set = ResourceSet::new(Listed::default());
        set.insert(fixed).unwrap();
        let address = |contents: &ResourceBody| match contents {
            ResourceBody::Text(text) => text.as_ptr(),
            ResourceBody::Blob(bytes) => bytes.as_ptr(),
        };
        let before = set.listed();
        let (_, first) = before.read("skill://a/SKILL.md", &context()).await.unwrap();
        assert!(matches!(first, Cow::Borrowed(_)), "read without a copy");
        // A change copies the lists, not the contents.
        set.insert(Resource::new("b://x", "x", |_| async { "" }).unwrap())
            .unwrap();
        assert!(set.remove("b://x").unwrap().is_some());
        let after = set.listed();
        let (_, second) = after.read("skill://a/SKILL.md", &context()).await.unwrap();
        assert_eq!(address(&first), address(&second));
        assert!(
            set.remove("skill://a/SKILL.md").is_err(),
            "a skill's file stays"
        );
    }

    #[tokio::test]
    async fn reads_go_to_the_exact_uri_then_the_templates() {
        let (set, problems) = build_all(vec![&A1, &T]);
        assert!(problems.is_empty(), "{problems:?}");
        let (_, body) = set.read("a://x", &context()).await.unwrap();
        assert_eq!(*body, text());
        let (resource, body) = set.read("a://7/y", &context()).await.unwrap();
        assert_eq!(resource.uri(), "a://{id}/y");
        assert_eq!(*body, ResourceBody::Text("7".into()));
        assert!(matches!(
            set.read("a://7/z", &context()).await,
            Err(ReadError::NotFound(None))
        ));
    }

    #[tokio::test]
    async fn a_template_that_finds_nothing_leaves_the_uri_to_the_next() {
        let (set, problems) = build_all(vec![&NONE, &ECHO_W]);
        assert!(problems.is_empty(), "{problems:?}");
        let (resource, body) = set.read("a://7/w", &context()).await.unwrap();
        assert_eq!(resource.uri(), "a://{name}/w");
        assert_eq!(*body, ResourceBody::Text("7".into()));
        // Nothing serves it: the first refusal says why, and a fn's `None` gives no reason.
        let (set, problems) = build_all(vec![&REFUSE_W, &NONE]);
        assert!(problems.is_empty(), "{problems:?}");
        assert!(matches!(
            set.read("a://7/w", &context()).await,
            Err(ReadError::NotFound(None))
        ));
        let (set, _) = build_all(vec![&REFUSE_W]);
        assert!(matches!(
            set.read("a://7/w", &context()).await,
            Err(ReadError::NotFound(Some(why))) if why == "no such name"
        ));
    }
}
