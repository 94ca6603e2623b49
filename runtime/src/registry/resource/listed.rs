//! [`Listed`]: the resources of one server at one moment, what a request reads, lists and pages.

use std::borrow::Cow;

use super::{ReadError, Resource, ResourceBody, ResourceError};
use crate::context::{AuthInfo, Context};

/// The resources of one server at one moment: plain ones and templates, each sorted by URI.
#[derive(Clone, Default)]
pub(crate) struct Listed {
    pub(super) resources: Vec<Resource>,
    pub(super) templates: Vec<Resource>,
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

    /// What `auth`'s scopes allow it to see, when that is not everything (`None`), and whether
    /// the listing varies by caller at all (some resource needs a scope).
    pub(crate) fn visible_to(&self, auth: Option<&AuthInfo>) -> (Option<Self>, bool) {
        let scoped = |resource: &Resource| !resource.needed_scopes().needed().is_empty();
        let varies = self.resources.iter().chain(&self.templates).any(scoped);
        let allowed = |resource: &&Resource| resource.needed_scopes().allow(auth);
        let hides = self
            .resources
            .iter()
            .chain(&self.templates)
            .any(|r| !allowed(&r));
        let visible = hides.then(|| Self {
            resources: self.resources.iter().filter(allowed).cloned().collect(),
            templates: self.templates.iter().filter(allowed).cloned().collect(),
        });
        (visible, varies)
    }

    /// The plain resource at exactly `uri`.
    pub(crate) fn get(&self, uri: &str) -> Option<&Resource> {
        self.resources
            .binary_search_by(|resource| resource.uri().cmp(uri))
            .ok()
            .map(|index| &self.resources[index])
    }

    /// The list (plain or templates) a resource of `uri` goes in.
    pub(super) fn list_of(&mut self, template: bool) -> &mut Vec<Resource> {
        if template {
            &mut self.templates
        } else {
            &mut self.resources
        }
    }

    pub(super) fn list_of_ref(&self, template: bool) -> &[Resource] {
        if template {
            &self.templates
        } else {
            &self.resources
        }
    }

    /// The resource or template registered under exactly `uri` (a template as written).
    pub(super) fn position(&self, uri: &str) -> Option<(bool, usize)> {
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
    /// cached. A later template the caller lacks the scopes of is passed over (the dispatcher
    /// refused the request already if the first one that matches is such).
    pub(crate) async fn read(
        &self,
        uri: &str,
        context: &Context,
    ) -> Result<(&Resource, Cow<'_, ResourceBody>), ReadError> {
        let candidates = self
            .get(uri)
            .into_iter()
            .chain(&self.templates)
            .filter(|resource| resource.needed_scopes().allow(context.auth()));
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
