//! [`Listed`]: the resources of one server at one moment, what a request reads, lists and pages.

use std::borrow::Cow;
use std::sync::Arc;

use super::{ReadError, Resource, ResourceBody, ResourceError};
use crate::context::{AuthInfo, Context};
use crate::visibility::View;

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

    /// What `auth`'s scopes and `view` allow it to see, when that is not everything (`None`),
    /// and whether the listing varies by caller at all (some resource needs a scope, or a rule
    /// decides what each caller sees).
    pub(crate) fn visible_to(&self, auth: Option<&AuthInfo>, view: &View) -> (Option<Self>, bool) {
        let scoped = |resource: &Resource| !resource.needed_scopes().needed().is_empty();
        let varies = view.varies() || self.resources.iter().chain(&self.templates).any(scoped);
        let allowed =
            |resource: &&Resource| resource.needed_scopes().allow(auth) && shown(view, resource);
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

    /// The resources `view` shows (all of them, shared, when it hides none): what a request
    /// reads, completes and subscribes to.
    pub(crate) fn seen_through(self: Arc<Self>, view: &View) -> Arc<Self> {
        let all = |resource: &Resource| shown(view, resource);
        if !view.hides() || self.resources.iter().chain(&self.templates).all(all) {
            return self;
        }
        Arc::new(Self {
            resources: self.resources.iter().filter(|r| all(r)).cloned().collect(),
            templates: self.templates.iter().filter(|r| all(r)).cloned().collect(),
        })
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

/// Whether `view` shows `resource` (a skill's file always: it is no tagged item).
fn shown(view: &View, resource: &Resource) -> bool {
    !view.hides() || resource.skill_root().is_some() || view.shows(resource.tag_list().names())
}
