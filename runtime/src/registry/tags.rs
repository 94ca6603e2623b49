//! Tags and the selection they serve: an item's [`Tags`] (`tags(…)` on `#[tool]`, `#[resource]`,
//! `#[prompt]`, or `.tags([…])` on the run-time builders), and a server's [`Selection`]
//! (`Server::only_tags`, `Server::without_tags`), which the live sets apply to every item they
//! are given, collected or added at run time (the selection itself, and what each caller
//! sees of what is served, are `crate::visibility`'s).

use std::sync::Arc;

pub(crate) use crate::visibility::Selection;

/// The tags of one item, in the order given; shared by its clones.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tags(Arc<[String]>);

impl Tags {
    /// The tags of a registration (`tags(…)`).
    pub(crate) fn from_static(tags: &[&str]) -> Self {
        Self(tags.iter().map(|&tag| tag.to_owned()).collect())
    }

    /// The tags a builder was given.
    pub(crate) fn new<I, S>(tags: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self(tags.into_iter().map(Into::into).collect())
    }

    /// The tags, in the order given.
    pub(crate) fn names(&self) -> &[String] {
        &self.0
    }
}
