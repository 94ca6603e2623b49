//! The live items of one server by name (its tools, its prompts): a name is taken once, and
//! every change counts a generation, so what was built from the set (a listing page) knows
//! when it is out of date.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use super::RegistryError;
use crate::state::StateMap;
use crate::sync::{read, write};

/// What a [`NamedSet`] holds: an item with a name, a definition clients list, and a place in
/// the source for messages.
pub(crate) trait Named: Clone {
    /// How clients see it (`ToolDefinition`, `PromptDefinition`).
    type Definition;
    fn name(&self) -> &str;
    fn shared_definition(&self) -> Arc<Self::Definition>;
    /// Where it comes from: `file:line`, or "added at run time".
    fn place(&self) -> &str;
    /// The error for two items of one name.
    fn duplicate(name: &str, first: &str, second: &str) -> RegistryError;
    /// Every app state it takes that `states` lacks.
    fn missing_state(&self, states: &StateMap) -> Vec<RegistryError>;
}

/// The live set of one kind of item: the collected ones plus those added at run time.
#[derive(Debug)]
pub(crate) struct NamedSet<T> {
    items: RwLock<BTreeMap<String, T>>,
    /// Counts the changes, each made under the write lock: what was built from the set (a
    /// `tools/list` page) is current while the generation it was built at is.
    generation: AtomicU64,
}

impl<T> Default for NamedSet<T> {
    fn default() -> Self {
        Self {
            items: RwLock::default(),
            generation: AtomicU64::new(0),
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
            items: RwLock::new(items),
            generation: AtomicU64::new(0),
        }
    }

    /// The item named `name`, cloned out of the lock (a few `Arc`s) so a call never holds it.
    pub(crate) fn get(&self, name: &str) -> Option<T> {
        self.read().get(name).cloned()
    }

    /// Whether an item is named `name`.
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.read().contains_key(name)
    }

    /// Whether the set is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.read().is_empty()
    }

    /// Whether some item is as `wanted` says, looked at under the lock (nothing cloned).
    pub(crate) fn any(&self, wanted: impl Fn(&T) -> bool) -> bool {
        self.read().values().any(wanted)
    }

    /// Definitions in name order.
    pub(crate) fn definitions(&self) -> Vec<Arc<T::Definition>> {
        self.read().values().map(T::shared_definition).collect()
    }

    /// The set's generation, and its definitions in name order, as of one moment.
    pub(crate) fn generation_and_definitions(&self) -> (u64, Vec<Arc<T::Definition>>) {
        let items = self.read();
        let generation = self.generation.load(Ordering::Acquire);
        (
            generation,
            items.values().map(T::shared_definition).collect(),
        )
    }

    /// Every app state an item takes that `states` lacks, in name order.
    pub(crate) fn missing_state(&self, states: &StateMap) -> Vec<RegistryError> {
        self.read()
            .values()
            .flat_map(|item| item.missing_state(states))
            .collect()
    }

    /// Adds an item; refused when the name is taken.
    pub(crate) fn insert(&self, item: T) -> Result<(), RegistryError> {
        let mut items = write(&self.items);
        if let Some(existing) = items.get(item.name()) {
            return Err(T::duplicate(item.name(), existing.place(), item.place()));
        }
        items.insert(item.name().to_owned(), item);
        self.generation.fetch_add(1, Ordering::Release);
        Ok(())
    }

    /// Removes the item named `name`, returning it.
    pub(crate) fn remove(&self, name: &str) -> Option<T> {
        let mut items = write(&self.items);
        let removed = items.remove(name);
        if removed.is_some() {
            self.generation.fetch_add(1, Ordering::Release);
        }
        removed
    }

    /// The read lock, through the crate's one rule for poisoned locks.
    fn read(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<String, T>> {
        read(&self.items)
    }
}
