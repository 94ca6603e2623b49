//! The live tools of one server, by name: a name is taken once.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use super::{RegistryError, Tool};
use crate::state::StateMap;
use crate::sync::{read, write};
use crate::types::ToolDefinition;

/// The live set of tools of one server: the collected ones plus those added at run time.
#[derive(Debug, Default)]
pub(crate) struct ToolSet {
    tools: RwLock<BTreeMap<String, Tool>>,
    /// Counts the changes, each made under the write lock: what was built from the set (a
    /// `tools/list` page) is current while the generation it was built at is.
    generation: AtomicU64,
}

impl ToolSet {
    /// A set of `tools`, keyed by name (a later tool of a name replaces an earlier one; the
    /// collected ones are unique, checked by [`super::collected`]).
    pub(crate) fn new(tools: impl IntoIterator<Item = Tool>) -> Self {
        let tools = tools
            .into_iter()
            .map(|tool| (tool.name().to_owned(), tool))
            .collect();
        Self {
            tools: RwLock::new(tools),
            generation: AtomicU64::new(0),
        }
    }

    /// The tool named `name`, cloned out of the lock (a few `Arc`s) so a call never holds it.
    pub(crate) fn get(&self, name: &str) -> Option<Tool> {
        self.read().get(name).cloned()
    }

    /// Whether a tool is named `name`.
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.read().contains_key(name)
    }

    /// Definitions in name order.
    pub(crate) fn definitions(&self) -> Vec<Arc<ToolDefinition>> {
        self.read().values().map(Tool::shared_definition).collect()
    }

    /// The set's generation, and its definitions in name order, as of one moment.
    pub(crate) fn generation_and_definitions(&self) -> (u64, Vec<Arc<ToolDefinition>>) {
        let tools = self.read();
        let generation = self.generation.load(Ordering::Acquire);
        (
            generation,
            tools.values().map(Tool::shared_definition).collect(),
        )
    }

    /// Every app state a tool takes that `states` lacks, in name order.
    pub(crate) fn missing_state(&self, states: &StateMap) -> Vec<RegistryError> {
        self.read()
            .values()
            .flat_map(|tool| tool.missing_state(states))
            .collect()
    }

    /// Adds a tool; refused when the name is taken.
    pub(crate) fn insert(&self, tool: Tool) -> Result<(), RegistryError> {
        let mut tools = write(&self.tools);
        if let Some(existing) = tools.get(tool.name()) {
            return Err(RegistryError::DuplicateName {
                name: tool.name().to_owned(),
                first: existing.place().to_owned(),
                second: tool.place().to_owned(),
            });
        }
        tools.insert(tool.name().to_owned(), tool);
        self.generation.fetch_add(1, Ordering::Release);
        Ok(())
    }

    /// Removes the tool named `name`, returning it.
    pub(crate) fn remove(&self, name: &str) -> Option<Tool> {
        let mut tools = write(&self.tools);
        let removed = tools.remove(name);
        if removed.is_some() {
            self.generation.fetch_add(1, Ordering::Release);
        }
        removed
    }

    /// The read lock, through the crate's one rule for poisoned locks.
    fn read(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<String, Tool>> {
        read(&self.tools)
    }
}
