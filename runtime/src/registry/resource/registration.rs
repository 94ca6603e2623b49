//! What `#[resource]` submits ([`ResourceRegistration`]) and every one in the binary built once
//! ([`collected`]).

use futures_util::future::BoxFuture;

use super::{Listed, Resource, ResourceBody, ResourceError};
use crate::context::Context;
use crate::registry::complete::VariableCompleter;
use crate::registry::view::AppView;
use crate::registry::{IconRegistration, RegistryError};
use crate::state::StateKey;
use std::sync::OnceLock;

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
    /// The MIME type; an app view's is always [`VIEW_MIME_TYPE`](crate::registry::view::VIEW_MIME_TYPE).
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
    /// `tags(…)`: what a server's selection chooses it by.
    pub tags: &'static [&'static str],
    /// `scopes(…)`: the OAuth scopes a caller needs, all of them.
    pub scopes: &'static [&'static str],
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

pub(super) fn place(registration: &ResourceRegistration) -> String {
    format!("{}:{}", registration.file, registration.line)
}

/// The set of `registrations`, or every problem with them (a URI registered twice, a template
/// that does not parse).
pub(super) fn build_all(
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
