//! The live sets of one server: [`LiveSet`], the one shape every kind of item changes in (a
//! snapshot readers share, copied on write, and a generation every change counts, so what was
//! built from the set (a listing page) knows when it is out of date); [`NamedSet`], the items of
//! one kind by name (its tools, its prompts; the resources are `resource/set.rs`'s, by URI).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock, RwLockWriteGuard};

use super::{ItemKind, RegistryError, Scopes, Selection, Tags};
use crate::context::AuthInfo;
use crate::state::StateMap;
use crate::sync::{read, write};
use crate::visibility::View;

/// The live contents `C` of one set: readers take a snapshot ([`LiveSet::snapshot`]) or look
/// under the read lock and never hold it; a change (under the write lock) copies the contents
/// only while a snapshot of them is still held, and counts a generation.
#[derive(Debug, Default)]
pub(crate) struct LiveSet<C> {
    current: RwLock<Arc<C>>,
    /// Counts the changes, each made under the write lock: what was built from the set (a
    /// `tools/list` page) is current while the generation it was built at is.
    generation: AtomicU64,
}

impl<C: Clone> LiveSet<C> {
    /// A set holding `contents`, at generation 0.
    pub(crate) fn new(contents: C) -> Self {
        Self {
            current: RwLock::new(Arc::new(contents)),
            generation: AtomicU64::new(0),
        }
    }

    /// The contents as of now, kept as long as the caller needs them.
    pub(crate) fn snapshot(&self) -> Arc<C> {
        Arc::clone(&read(&self.current))
    }

    /// What `look` finds in the contents, under the read lock (nothing cloned).
    pub(crate) fn with<R>(&self, look: impl FnOnce(&C) -> R) -> R {
        look(&read(&self.current))
    }

    /// The generation and what `look` finds in the contents, as of one moment.
    pub(crate) fn with_generation<R>(&self, look: impl FnOnce(&C) -> R) -> (u64, R) {
        let current = read(&self.current);
        (self.generation.load(Ordering::Acquire), look(&current))
    }

    /// The contents under the write lock, to check and then change.
    pub(crate) fn change(&self) -> Change<'_, C> {
        Change {
            current: write(&self.current),
            generation: &self.generation,
        }
    }
}

/// A [`LiveSet`]'s contents under its write lock: read them, then [`Change::edit`] them.
pub(crate) struct Change<'a, C> {
    current: RwLockWriteGuard<'a, Arc<C>>,
    generation: &'a AtomicU64,
}

impl<C: Clone> Change<'_, C> {
    /// The contents as they are.
    pub(crate) fn get(&self) -> &C {
        &self.current
    }

    /// The contents to change (copied if a snapshot of them is held), counting a generation.
    pub(crate) fn edit(&mut self) -> &mut C {
        self.generation.fetch_add(1, Ordering::Release);
        Arc::make_mut(&mut self.current)
    }
}

/// What a [`NamedSet`] holds: an item with a name, a definition clients list, and a place in
/// the source for messages.
pub(crate) trait Named: Clone {
    /// How clients see it (`ToolDefinition`, `PromptDefinition`).
    type Definition;
    /// What it is, for messages.
    const KIND: ItemKind;
    fn name(&self) -> &str;
    fn shared_definition(&self) -> Arc<Self::Definition>;
    /// Where it comes from: `file:line`, or "added at run time".
    fn place(&self) -> &str;
    /// The error for two items of one name.
    fn duplicate(name: &str, first: &str, second: &str) -> RegistryError;
    /// Every app state it takes that `states` lacks.
    fn missing_state(&self, states: &StateMap) -> Vec<RegistryError>;
    /// Its tags, which the set's [`Selection`] chooses by.
    fn tags(&self) -> &Tags;
    /// The OAuth scopes a caller needs to see and use it.
    fn scopes(&self) -> &Scopes;
}

/// What one caller may see of a [`NamedSet`].
pub(crate) struct Visible<D> {
    pub(crate) generation: u64,
    pub(crate) definitions: Vec<Arc<D>>,
    /// `None`: nothing needs a scope, every caller sees the same. Else whether there is a
    /// caller to check, and the scopes the set's items need that it holds: two callers alike in
    /// these see the same listing.
    pub(crate) granted: Option<(bool, Vec<String>)>,
}

/// The live set of one kind of item: the collected ones plus those added at run time.
#[derive(Debug)]
pub(crate) struct NamedSet<T> {
    items: LiveSet<BTreeMap<String, T>>,
    /// What the server serves: an item it leaves out is never in `items`.
    selection: RwLock<Selection>,
}

impl<T> Default for NamedSet<T> {
    fn default() -> Self {
        Self {
            items: LiveSet::default(),
            selection: RwLock::default(),
        }
    }
}

impl<T: Named> NamedSet<T> {
    /// A set of `items`, keyed by name (a later item of a name replaces an earlier one; the
    /// collected ones are unique, checked when they are collected).
    pub(crate) fn new(items: impl IntoIterator<Item = T>) -> Self {
        let items = items
            .into_iter()
            .map(|item| (item.name().to_owned(), item))
            .collect();
        Self {
            items: LiveSet::new(items),
            selection: RwLock::default(),
        }
    }

    /// Narrows the selection as `narrow` says, and drops the items it no longer serves.
    pub(crate) fn select(&self, narrow: impl FnOnce(&mut Selection)) {
        let mut selection = write(&self.selection);
        narrow(&mut selection);
        let mut items = self.items.change();
        if items
            .get()
            .values()
            .any(|item| !selection.serves(item.tags().names()))
        {
            items
                .edit()
                .retain(|_, item| selection.serves(item.tags().names()));
        }
    }

    /// The item named `name`, cloned out of the lock (a few `Arc`s) so a call never holds it.
    pub(crate) fn get(&self, name: &str) -> Option<T> {
        self.items.with(|items| items.get(name).cloned())
    }

    /// The item named `name` when `view` shows it: what a request looks up (a hidden item is
    /// unknown to it, as one never registered).
    pub(crate) fn get_for(&self, name: &str, view: &View) -> Option<T> {
        self.get(name)
            .filter(|item| !view.hides() || view.shows(item.tags().names()))
    }

    /// Whether an item is named `name`.
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.items.with(|items| items.contains_key(name))
    }

    /// Whether the set is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.items.with(BTreeMap::is_empty)
    }

    /// Whether some item is as `wanted` says, looked at under the lock (nothing cloned).
    pub(crate) fn any(&self, wanted: impl Fn(&T) -> bool) -> bool {
        self.items.with(|items| items.values().any(wanted))
    }

    /// Whether some item's tags are as `tagged` says.
    pub(crate) fn any_tagged(&self, tagged: impl Fn(&[String]) -> bool) -> bool {
        self.items
            .with(|items| items.values().any(|item| tagged(item.tags().names())))
    }

    /// Definitions in name order.
    pub(crate) fn definitions(&self) -> Vec<Arc<T::Definition>> {
        self.items
            .with(|items| items.values().map(T::shared_definition).collect())
    }

    /// What `auth` may see through `view`, as of one moment: the set's generation, the
    /// definitions its scopes and the view allow in name order, and the scopes of the set it holds ([`Visible::granted`], what the
    /// listing varies by), `None` when nothing in the set needs a scope.
    pub(crate) fn visible_to(
        &self,
        auth: Option<&AuthInfo>,
        view: &View,
    ) -> Visible<T::Definition> {
        let hides = view.hides();
        let (generation, (definitions, granted)) = self.items.with_generation(|items| {
            let scoped = items
                .values()
                .any(|item| !item.scopes().needed().is_empty());
            let definitions = items
                .values()
                .filter(|item| item.scopes().allow(auth))
                .filter(|item| !hides || view.shows(item.tags().names()))
                .map(T::shared_definition)
                .collect();
            let granted = scoped.then(|| {
                let mut granted: Vec<String> = items
                    .values()
                    .flat_map(|item| item.scopes().needed())
                    .filter(|scope| auth.is_none_or(|auth| auth.scopes.contains(scope)))
                    .cloned()
                    .collect();
                granted.sort();
                granted.dedup();
                (auth.is_some(), granted)
            });
            (definitions, granted)
        });
        Visible {
            generation,
            definitions,
            granted,
        }
    }

    /// Every item that needs a scope, by name, with the scopes it needs (for the lint).
    pub(crate) fn scoped(&self) -> Vec<(String, Vec<String>)> {
        self.items.with(|items| {
            items
                .values()
                .filter(|item| !item.scopes().needed().is_empty())
                .map(|item| (item.name().to_owned(), item.scopes().needed().to_vec()))
                .collect()
        })
    }

    /// Every app state an item takes that `states` lacks, in name order.
    pub(crate) fn missing_state(&self, states: &StateMap) -> Vec<RegistryError> {
        self.items.with(|items| {
            items
                .values()
                .flat_map(|item| item.missing_state(states))
                .collect()
        })
    }

    /// Adds an item; refused when the name is taken or it needs a scope no token can carry;
    /// `Ok(false)`, and left out, when the selection does not serve it.
    pub(crate) fn insert(&self, item: T) -> Result<bool, RegistryError> {
        let selection = read(&self.selection);
        let mut items = self.items.change();
        if let Some(existing) = items.get().get(item.name()) {
            return Err(T::duplicate(item.name(), existing.place(), item.place()));
        }
        if let Some(refused) = item.scopes().refused(T::KIND, item.name(), item.place()) {
            return Err(refused);
        }
        if !selection.serves(item.tags().names()) {
            return Ok(false);
        }
        items.edit().insert(item.name().to_owned(), item);
        Ok(true)
    }

    /// Removes the item named `name`, returning it.
    pub(crate) fn remove(&self, name: &str) -> Option<T> {
        let mut items = self.items.change();
        if !items.get().contains_key(name) {
            return None;
        }
        items.edit().remove(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_counts_a_generation_and_leaves_a_held_snapshot_as_it_was() {
        let set = LiveSet::new(vec![1]);
        let before = set.snapshot();
        set.change().edit().push(2);
        let unchanged = set.change();
        assert_eq!(unchanged.get(), &[1, 2]);
        drop(unchanged);
        assert_eq!(*before, [1]);
        assert_eq!(set.with_generation(Vec::len), (1, 2));
    }
}
