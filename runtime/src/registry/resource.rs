//! Resources: what `#[resource]` submits ([`ResourceRegistration`]), the servable [`Resource`]
//! built from it, and the [`ResourceSet`] a server reads from. Reading one is [`Resource::read`].

use std::any::Any;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Display;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, OnceLock};

use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use serde_json::{Map, Value};

use super::RegistryError;
use super::complete::{Completer, VariableCompleter};
use super::template::UriTemplate;
use super::view::{self, AppView};

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
    /// How the template's variables complete (`completion/complete`): each variable's
    /// completer fn, or its type's known values.
    pub completers: &'static [VariableCompleter],
}

inventory::collect!(ResourceRegistration);

/// Where a resource's contents come from. Not public API.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub enum ResourceRead {
    /// A `static`/`const` (`include_str!`, `include_bytes!`): the same contents every time.
    Static(fn() -> ResourceBody),
    /// An fn, given the template's variables in order (none for a plain URI).
    Dynamic(fn(Vec<String>) -> BoxFuture<'static, Result<ResourceBody, ResourceError>>),
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

/// A servable resource (or resource template).
#[derive(Clone)]
pub(crate) struct Resource {
    registration: &'static ResourceRegistration,
    template: Option<UriTemplate>,
    /// The `_meta` of list entries and contents (`{"ui": …}` for a view).
    meta: Option<Map<String, Value>>,
    /// How the template's variables complete, by variable.
    completers: Arc<BTreeMap<&'static str, Completer>>,
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
        let meta = registration.app.as_ref().map(AppView::meta);
        let completers = registration
            .completers
            .iter()
            .filter_map(|completer| Some((completer.variable, (completer.complete)()?)))
            .collect();
        Ok(Self {
            registration,
            template,
            meta,
            completers: Arc::new(completers),
        })
    }

    /// The URI (or template) as registered.
    pub(crate) fn uri(&self) -> &'static str {
        self.registration.uri
    }

    pub(crate) fn is_template(&self) -> bool {
        self.template.is_some()
    }

    /// An MCP Apps view: a `ui://` resource of MIME type [`view::VIEW_MIME_TYPE`].
    pub(crate) fn is_app_view(&self) -> bool {
        self.registration.app.is_some()
    }

    /// Fixed contents (a `static`), which a client may cache as long as the server's TTL.
    pub(crate) fn is_static(&self) -> bool {
        matches!(self.registration.read, ResourceRead::Static(_))
    }

    pub(crate) fn name(&self) -> &'static str {
        self.registration.name
    }

    pub(crate) fn title(&self) -> Option<&'static str> {
        self.registration.title
    }

    pub(crate) fn description(&self) -> Option<&'static str> {
        self.registration.description
    }

    pub(crate) fn mime_type(&self) -> Option<&'static str> {
        if self.is_app_view() {
            return Some(view::VIEW_MIME_TYPE);
        }
        self.registration.mime_type
    }

    pub(crate) fn meta(&self) -> Option<&Map<String, Value>> {
        self.meta.as_ref()
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

    /// The contents at `uri`, when this resource serves it.
    async fn read(&self, uri: &str) -> Option<Result<ResourceBody, ResourceError>> {
        let values = match &self.template {
            Some(template) => template.matches(uri)?,
            None if uri == self.uri() => Vec::new(),
            None => return None,
        };
        Some(match self.registration.read {
            ResourceRead::Static(body) => Ok(body()),
            ResourceRead::Dynamic(read) => AssertUnwindSafe(read(values))
                .catch_unwind()
                .await
                .unwrap_or_else(|_| {
                    tracing::error!(uri, "a resource fn panicked");
                    Err(ResourceError::Failed(format!("reading {uri} failed")))
                }),
        })
    }
}

/// The resources of one server: plain ones and templates, each sorted by URI.
#[derive(Clone, Default)]
pub(crate) struct ResourceSet {
    resources: Vec<Resource>,
    templates: Vec<Resource>,
}

impl ResourceSet {
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

    /// The contents at `uri`: the plain resource of that URI, else the first template (in
    /// template order) that matches it. Also says whether they may be cached.
    pub(crate) async fn read(&self, uri: &str) -> Result<(&Resource, ResourceBody), ReadError> {
        let candidates = self.get(uri).into_iter().chain(&self.templates);
        let mut refused = None;
        for resource in candidates {
            match resource.read(uri).await {
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

/// Every `#[resource]` in the binary, built once per process: the ones that can be served, and
/// every problem with the others (so that views can still be checked against the good ones).
pub(crate) fn collected() -> &'static (Arc<ResourceSet>, Vec<RegistryError>) {
    static COLLECTED: OnceLock<(Arc<ResourceSet>, Vec<RegistryError>)> = OnceLock::new();
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
) -> (Arc<ResourceSet>, Vec<RegistryError>) {
    registrations.sort_by(|a, b| (a.uri, a.file, a.line).cmp(&(b.uri, b.file, b.line)));
    let mut problems = Vec::new();
    let mut set = ResourceSet::default();
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
    (Arc::new(set), problems)
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
            completers: &[],
        }
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

    fn echo(values: Vec<String>) -> BoxFuture<'static, Result<ResourceBody, ResourceError>> {
        Box::pin(async move { Ok(ResourceBody::Text(values.join(",").into())) })
    }

    /// A fn returning `None`.
    fn nothing(_: Vec<String>) -> BoxFuture<'static, Result<ResourceBody, ResourceError>> {
        Box::pin(async { None::<String>.into_resource_body() })
    }

    /// A fn returning `Err(ResourceError::NotFound(…))`.
    fn refuse(_: Vec<String>) -> BoxFuture<'static, Result<ResourceBody, ResourceError>> {
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

    #[tokio::test]
    async fn reads_go_to_the_exact_uri_then_the_templates() {
        let (set, problems) = build_all(vec![&A1, &T]);
        assert!(problems.is_empty(), "{problems:?}");
        let (_, body) = set.read("a://x").await.unwrap();
        assert_eq!(body, text());
        let (resource, body) = set.read("a://7/y").await.unwrap();
        assert_eq!(resource.uri(), "a://{id}/y");
        assert_eq!(body, ResourceBody::Text("7".into()));
        assert!(matches!(
            set.read("a://7/z").await,
            Err(ReadError::NotFound(None))
        ));
    }

    #[tokio::test]
    async fn a_template_that_finds_nothing_leaves_the_uri_to_the_next() {
        let (set, problems) = build_all(vec![&NONE, &ECHO_W]);
        assert!(problems.is_empty(), "{problems:?}");
        let (resource, body) = set.read("a://7/w").await.unwrap();
        assert_eq!(resource.uri(), "a://{name}/w");
        assert_eq!(body, ResourceBody::Text("7".into()));
        // Nothing serves it: the first refusal says why, and a fn's `None` gives no reason.
        let (set, problems) = build_all(vec![&REFUSE_W, &NONE]);
        assert!(problems.is_empty(), "{problems:?}");
        assert!(matches!(
            set.read("a://7/w").await,
            Err(ReadError::NotFound(None))
        ));
        let (set, _) = build_all(vec![&REFUSE_W]);
        assert!(matches!(
            set.read("a://7/w").await,
            Err(ReadError::NotFound(Some(why))) if why == "no such name"
        ));
    }
}
