//! The live handles of a [`Server`](super::Server): [`Tools`], [`Prompts`], [`Resources`], each
//! adding to, removing from or listing one live set and raising its `Change` on the server's
//! channel; reached from a call by [`Context::tools`], `prompts`, `resources`.

use std::sync::Arc;

use crate::context::Context;
use crate::protocol::{Change, ChangeSender, ProtocolVersion};
use crate::registry::{Prompt, PromptSet, RegistryError, Resource, ResourceSet, Tool, ToolSet};
use crate::types::{ListPromptsResult, ListToolsResult, ResourceDefinition};

/// The tools of a [`Server`](crate::Server), shared with it: add or remove one while it serves, or list them.
/// Got from [`Server::tools`](crate::Server::tools), or in a call from its [`Context::tools`]; clones are handles to
/// the same set.
///
/// A change is told to connected clients with `notifications/tools/list_changed` (legacy
/// clients that initialized, 2026-07-28 clients on a `subscriptions/listen` stream).
#[derive(Clone)]
pub struct Tools {
    pub(super) tools: Arc<ToolSet>,
    pub(super) changes: ChangeSender,
}

impl Tools {
    /// Adds a tool; `Err` if one of its name is served already. A tool the server's tag
    /// selection leaves out ([`Server::only_tags`](crate::Server::only_tags),
    /// [`Server::without_tags`](crate::Server::without_tags)) is not served: `Ok`, and nothing
    /// changes, as for a `#[tool]` it leaves out.
    pub fn add(&self, tool: Tool) -> Result<(), RegistryError> {
        if self.tools.insert(tool)? {
            self.changes.raise(Change::Tools);
        }
        Ok(())
    }

    /// Removes a tool; `false` if there was none of that name.
    #[must_use = "`false` means there was no tool of that name"]
    pub fn remove(&self, name: &str) -> bool {
        let removed = self.tools.remove(name).is_some();
        if removed {
            self.changes.raise(Change::Tools);
        }
        removed
    }

    /// Every tool's definition, as `tools/list` shows them to a client of the newest legacy
    /// version, on one page.
    #[must_use]
    pub fn list(&self) -> ListToolsResult {
        let tools = self
            .tools
            .definitions()
            .iter()
            .map(|tool| tool.to_definition())
            .collect();
        ListToolsResult {
            tools,
            next_cursor: None,
        }
    }
}

impl std::fmt::Debug for Tools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<String> = self
            .tools
            .definitions()
            .iter()
            .map(|tool| tool.name().to_owned())
            .collect();
        f.debug_struct("Tools")
            .field("names", &names)
            .finish_non_exhaustive()
    }
}

/// The prompts of a [`Server`](crate::Server), shared with it: add or remove one while it serves, or list
/// them. Got from [`Server::prompts`](crate::Server::prompts), or in a call from its [`Context::prompts`]; clones are
/// handles to the same set.
///
/// A change is told to connected clients with `notifications/prompts/list_changed` (as the
/// transports announce the server's changes).
#[derive(Clone)]
pub struct Prompts {
    pub(super) prompts: Arc<PromptSet>,
    pub(super) changes: ChangeSender,
}

impl Prompts {
    /// Adds a prompt; `Err` if one of its name is served already. A prompt the server's tag
    /// selection leaves out is not served: `Ok`, and nothing changes.
    pub fn add(&self, prompt: Prompt) -> Result<(), RegistryError> {
        if self.prompts.insert(prompt)? {
            self.changes.raise(Change::Prompts);
        }
        Ok(())
    }

    /// Removes a prompt; `false` if there was none of that name.
    #[must_use = "`false` means there was no prompt of that name"]
    pub fn remove(&self, name: &str) -> bool {
        let removed = self.prompts.remove(name).is_some();
        if removed {
            self.changes.raise(Change::Prompts);
        }
        removed
    }

    /// Every prompt's definition, as `prompts/list` shows them to a client of the newest legacy
    /// version, on one page.
    #[must_use]
    pub fn list(&self) -> ListPromptsResult {
        ListPromptsResult::new(
            self.prompts
                .definitions()
                .iter()
                .map(|prompt| (**prompt).clone())
                .collect(),
        )
    }
}

impl std::fmt::Debug for Prompts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<String> = self
            .prompts
            .definitions()
            .iter()
            .map(|prompt| prompt.name.clone())
            .collect();
        f.debug_struct("Prompts")
            .field("names", &names)
            .finish_non_exhaustive()
    }
}

/// The resources of a [`Server`](crate::Server), shared with it: add or remove a resource or template while it
/// serves, list them, or say that a resource's contents changed. Got from [`Server::resources`](crate::Server::resources),
/// or in a call from its [`Context::resources`] (or a `State<Resources>` parameter: the server
/// holds it as app state itself); clones are handles to the same set.
///
/// An addition or removal is told to connected clients with
/// `notifications/resources/list_changed`; [`notify_updated`](Self::notify_updated) tells the
/// clients subscribed to that URI (or to a template it matches) with
/// `notifications/resources/updated`: legacy clients that initialized (stdio, their session's GET
/// stream), 2026-07-28 clients on a `subscriptions/listen` stream that asked for it.
///
/// A skill's files (`skill://…`) are served as long as the server: they cannot be removed, and
/// nothing can be added under a skill's root.
#[derive(Clone)]
pub struct Resources {
    pub(super) resources: Arc<ResourceSet>,
    pub(super) changes: ChangeSender,
}

impl Resources {
    /// Adds a resource or template; `Err` if one of its URI (or template) is served already,
    /// or if it would serve a URI under a skill's root (`skill://pdf/…`: a skill's files are
    /// the ones its manifest lists, fixed at start-up). A resource the server's tag selection
    /// leaves out is not served: `Ok`, and nothing changes.
    pub fn add(&self, resource: Resource) -> Result<(), RegistryError> {
        if self.resources.insert(resource)? {
            self.changes.raise(Change::Resources);
        }
        Ok(())
    }

    /// Removes the resource, or the template, registered under exactly `uri`; `false` if there
    /// was none, or if it is a file of a skill (`Server::skill`, `Server::skills_dir`), which
    /// is served as long as the server (its skill's manifest lists it).
    #[must_use = "`false` means there was no resource of that URI, or it is a skill's file"]
    pub fn remove(&self, uri: &str) -> bool {
        let removed = match self.resources.remove(uri) {
            Ok(removed) => removed.is_some(),
            Err(refused) => {
                tracing::warn!("{refused}");
                false
            }
        };
        if removed {
            self.changes.raise(Change::Resources);
        }
        removed
    }

    /// Every resource, then every template, each in URI order, as a client of the latest
    /// protocol sees them listed (`resources/list`, `resources/templates/list`).
    #[must_use]
    pub fn list(&self) -> Vec<ResourceDefinition> {
        let listed = self.resources.listed();
        listed
            .resources()
            .iter()
            .chain(listed.templates())
            .map(|resource| {
                crate::protocol::resources::entry(resource, ProtocolVersion::LATEST_LEGACY)
            })
            .collect()
    }

    /// Says that the contents at `uri` changed: the clients subscribed to it, or to a template
    /// it matches, are sent `notifications/resources/updated` with `uri` (and read it again if
    /// they want). Cheap, and never waits: call it from a tool, a request handler or a task of
    /// your own, as often as the contents change.
    pub fn notify_updated(&self, uri: impl Into<String>) {
        let uri: String = uri.into();
        self.changes.raise(Change::ResourceUpdated(uri.into()));
    }
}

impl std::fmt::Debug for Resources {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let uris: Vec<String> = self
            .list()
            .iter()
            .filter_map(|resource| resource.uri.clone().or(resource.uri_template.clone()))
            .collect();
        f.debug_struct("Resources")
            .field("uris", &uris)
            .finish_non_exhaustive()
    }
}

/// The server's live handles, reached from a call's [`Context`]: written here rather than in
/// `context.rs` so that the dependency points one way, from the server to the context.
impl Context {
    /// The server's resources: to say that a resource's contents changed
    /// ([`Resources::notify_updated`]: the subscribed clients hear
    /// `notifications/resources/updated`), or to add and remove resources while serving. The
    /// same handle as [`Server::resources`](crate::Server::resources), with nothing to register; a `#[tool]` may take it
    /// as a `State<Resources>` parameter instead.
    ///
    /// ```
    /// use mcp_toolbelt::{Context, tool};
    ///
    /// /// Rename a document
    /// #[tool]
    /// async fn context_docs_rename(/// The document's id
    ///                              id: u32, /// Its new title
    ///                              title: String, context: &Context) -> String {
    ///     // … stores the new title, then tells whoever subscribed to the document:
    ///     context.resources().notify_updated(format!("docs://{id}"));
    ///     format!("renamed to {title}")
    /// }
    /// ```
    #[must_use]
    pub fn resources(&self) -> Resources {
        self.handle(|| Resources {
            resources: Arc::default(),
            changes: ChangeSender::new(1),
        })
    }

    /// The server's tools, to add or remove one while serving (the clients hear
    /// `notifications/tools/list_changed`): the same handle as [`Server::tools`](crate::Server::tools).
    #[must_use]
    pub fn tools(&self) -> Tools {
        self.handle(|| Tools {
            tools: Arc::default(),
            changes: ChangeSender::new(1),
        })
    }

    /// The server's prompts, to add or remove one while serving (the clients hear
    /// `notifications/prompts/list_changed`): the same set as [`Server::prompts`](crate::Server::prompts). A server that
    /// serves no prompt when a client initializes declares no `prompts` capability: take
    /// [`Server::prompts`](crate::Server::prompts) before serving when a tool may add the first.
    #[must_use]
    pub fn prompts(&self) -> Prompts {
        self.handle(|| Prompts {
            prompts: Arc::default(),
            changes: ChangeSender::new(1),
        })
    }

    /// The handle the server put in its app state; `detached` (a set of its own, which no
    /// client sees) only for a context no server built.
    fn handle<H: Clone + Send + Sync + 'static>(&self, detached: impl FnOnce() -> H) -> H {
        self.state::<H>()
            .map_or_else(detached, |handle| H::clone(&handle))
    }
}
