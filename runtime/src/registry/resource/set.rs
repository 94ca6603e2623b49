//! [`ResourceSet`]: the live resources, a [`LiveSet`] of [`Listed`] snapshots.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

use super::{Listed, Resource};
use crate::registry::set::LiveSet;
use crate::registry::{ADDED_AT_RUN_TIME, ItemKind, RegistryError, Selection};
use crate::state::StateMap;
use crate::sync::{read, write};

/// Whether `selection` serves `resource` (a skill's file always).
fn serves(selection: &Selection, resource: &Resource) -> bool {
    resource.skill_root().is_some() || selection.serves(resource.tag_list().names())
}

/// The live resources of one server: the collected ones plus those added at run time. Readers
/// take a snapshot ([`ResourceSet::listed`]) and never hold the lock; a change copies the lists
/// only while a snapshot of them is held, and counts a generation.
#[derive(Default)]
pub(crate) struct ResourceSet {
    listed: LiveSet<Listed>,
    /// Set once a resource was added: the server then serves resources (the capability, the
    /// methods) even after the last is removed.
    open: AtomicBool,
    /// What the server serves: a resource it leaves out is never listed. A skill's files are
    /// not tagged items: every selection serves them.
    selection: RwLock<Selection>,
}

impl ResourceSet {
    pub(crate) fn new(listed: Listed) -> Self {
        Self {
            listed: LiveSet::new(listed),
            open: AtomicBool::new(false),
            selection: RwLock::default(),
        }
    }

    /// Narrows the selection as `narrow` says, and drops the resources it no longer serves.
    pub(crate) fn select(&self, narrow: impl FnOnce(&mut Selection)) {
        let mut selection = write(&self.selection);
        narrow(&mut selection);
        let kept = |resource: &Resource| serves(&selection, resource);
        let mut change = self.listed.change();
        let listed = change.get();
        if listed.resources.iter().chain(&listed.templates).all(kept) {
            return;
        }
        let listed = change.edit();
        listed.resources.retain(kept);
        listed.templates.retain(kept);
    }

    /// The resources as of now.
    pub(crate) fn listed(&self) -> Arc<Listed> {
        self.listed.snapshot()
    }

    /// A start-up error for each app state a resource's fn takes that `states` lacks.
    pub(crate) fn missing_state(&self, states: &StateMap) -> Vec<RegistryError> {
        self.listed.with(|listed| {
            listed
                .resources
                .iter()
                .chain(&listed.templates)
                .flat_map(|resource| resource.missing_state(states))
                .collect()
        })
    }

    /// Whether resources are served: there are some, or were.
    pub(crate) fn is_served(&self) -> bool {
        self.open.load(Ordering::Acquire) || !self.listed.with(Listed::is_empty)
    }

    /// Adds a resource; refused when its URI (or template) is taken, when it would serve a URI
    /// under a skill's root (or a skill's file would land under it), or when it needs a scope no
    /// token can carry.
    pub(crate) fn insert(&self, resource: Resource) -> Result<bool, RegistryError> {
        let selection = read(&self.selection);
        let mut change = self.listed.change();
        let listed = change.get();
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
            let existing = &listed.list_of_ref(template)[index];
            return Err(RegistryError::DuplicateResource {
                uri: resource.uri().to_owned(),
                first: existing.place().to_owned(),
                second: resource.place().to_owned(),
            });
        }
        let (uri, place) = (resource.uri(), resource.place());
        if let Some(refused) = resource
            .needed_scopes()
            .refused(ItemKind::Resource, uri, place)
        {
            return Err(refused);
        }
        if !serves(&selection, &resource) {
            return Ok(false);
        }
        let list = change.edit().list_of(resource.is_template());
        let index = list.partition_point(|existing| existing.uri() < resource.uri());
        list.insert(index, resource);
        self.open.store(true, Ordering::Release);
        Ok(true)
    }

    /// Removes the resource or template registered under exactly `uri`, returning it; a
    /// skill's file is never removed (`Err`).
    pub(crate) fn remove(&self, uri: &str) -> Result<Option<Resource>, RegistryError> {
        let mut change = self.listed.change();
        let Some((template, index)) = change.get().position(uri) else {
            return Ok(None);
        };
        if let Some(root) = change.get().list_of_ref(template)[index].skill_root() {
            return Err(RegistryError::InvalidResource {
                uri: uri.to_owned(),
                location: ADDED_AT_RUN_TIME.to_owned(),
                problem: format!(
                    "it is a file of the skill at {root}, listed in its manifest: a skill's \
                     files are served as long as the server"
                ),
            });
        }
        Ok(Some(change.edit().list_of(template).remove(index)))
    }
}
