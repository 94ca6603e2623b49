//! [`Resource`]: one resource or template a server serves, `#[resource]`'s or built at run time,
//! and how its contents are read.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use serde_json::{Map, Value};

use super::registration::place;
use super::{
    IntoResourceBody, ReadRequest, ResourceBody, ResourceError, ResourceRead, ResourceRegistration,
};
use crate::context::Context;
use crate::registry::complete::{Completer, CompleterFn};
use crate::registry::template::UriTemplate;
use crate::registry::view;
use crate::registry::{ADDED_AT_RUN_TIME, IconRegistration, ItemKind, RegistryError, Scopes, Tags};
use crate::state::{StateKey, StateMap};
use crate::types::Icon;

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
    /// What a server's selection chooses it by.
    tags: Tags,
    /// The OAuth scopes a caller needs to see and read it.
    scopes: Scopes,
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
            tags: Tags::default(),
            scopes: Scopes::default(),
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
            tags: Tags::default(),
            scopes: Scopes::default(),
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
    /// and the [`CompletionContext`](crate::completion::CompletionContext) (the variables
    /// already resolved); it returns anything
    /// [`IntoCompletion`](crate::completion::IntoCompletion). The completer fn of a `#[prompt]`
    /// or `#[resource]` (`async fn(&str, &CompletionContext)`) serves here as it is, and so does
    /// a closure of the same values owned ([`CompleterFn`]). A completer for a name that is no
    /// variable of the template is never asked.
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
    pub fn complete<Shape>(
        mut self,
        variable: impl Into<String>,
        complete: impl CompleterFn<Shape>,
    ) -> Self {
        Arc::make_mut(&mut self.completers).insert(variable.into(), complete.into_completer());
        self
    }

    /// Tags it, as `#[resource(tags(…))]` does: a server's
    /// [`only_tags`](crate::Server::only_tags) and [`without_tags`](crate::Server::without_tags)
    /// choose by them whether it serves the resource. A second call replaces the first's tags.
    #[must_use]
    pub fn tags<I, S>(mut self, tags: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.tags = Tags::new(tags);
        self
    }

    /// Its tags (none for a skill's file).
    pub(crate) fn tag_list(&self) -> &Tags {
        &self.tags
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

    /// The OAuth scopes a caller's token must grant, all of them, to see the resource (or a URI its template matches) listed and to
    /// read (or complete) it (what `scopes(…)` on the attribute says); a caller lacking one gets `403` with
    /// an `insufficient_scope` challenge naming them. With no caller identity (stdio, HTTP
    /// without auth) it is served to everyone. Replaces the scopes given before.
    /// Each is checked as the attribute checks its: when the item is added
    /// ([`Resources::add`](crate::resource::Resources::add)), a scope no token can carry (empty, with a space, not printable
    /// ASCII, `"` or `\`) or one given twice is refused with a
    /// [`RegistryError::InvalidScope`](crate::error::RegistryError::InvalidScope) naming it.
    ///
    /// ```
    /// use mcp_toolbelt::resource::Resource;
    ///
    /// let notes = Resource::new("notes://all", "notes", |_| async { "…" })?.scopes(["notes:read"]);
    /// # let _ = notes;
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

    /// The OAuth scopes a caller needs to see and read it.
    pub(crate) fn needed_scopes(&self) -> &Scopes {
        &self.scopes
    }

    pub(super) fn from_registration(
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
            tags: Tags::from_static(registration.tags),
            scopes: Scopes::registered(registration.scopes),
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
    pub(super) fn skill_root(&self) -> Option<&str> {
        match &self.reader {
            #[cfg(feature = "skills")]
            Reader::Fixed { root, .. } => Some(root),
            _ => None,
        }
    }

    /// Whether `self` would serve a URI under the root of the skill `skill` is a file of, or
    /// the reverse, without being a file of that skill: what no run-time change may do to a
    /// skill, whose files are its manifest's.
    pub(super) fn intrudes_on<'a>(&self, skill: &'a Self) -> Option<&'a str> {
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

    /// A start-up error for each app state its fn takes that `states` lacks, naming it by URI.
    pub(super) fn missing_state(&self, states: &StateMap) -> Vec<RegistryError> {
        let (uri, place) = (self.uri(), Some(self.place()));
        RegistryError::missing_state(ItemKind::Resource, uri, place, &self.required_state, states)
    }

    /// The contents at `uri`, when this resource serves it (fixed ones borrowed, not copied);
    /// its fn is given `context`.
    pub(super) async fn read(
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
                handler(ReadRequest::new(uri, names.zip(values)))
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
