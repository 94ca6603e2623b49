//! Tags and the selection they serve: an item's [`Tags`] (`tags(…)` on `#[tool]`, `#[resource]`,
//! `#[prompt]`, or `.tags([…])` on the run-time builders), and a server's [`Selection`]
//! (`Server::only_tags`, `Server::without_tags`), which the live sets apply to every item they
//! are given, collected or added at run time.

use std::collections::BTreeSet;
use std::sync::Arc;

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

/// What a server serves, by tags: with `only`, the items with at least one of its tags (an
/// untagged item is not served); never an item with one of `without`'s (`without` wins when an
/// item has tags of both). The empty selection serves every item.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Selection {
    only: Option<BTreeSet<String>>,
    without: BTreeSet<String>,
}

impl Selection {
    /// Adds `tags` to those an item needs one of (none: nothing changes).
    pub(crate) fn only<I, S>(&mut self, tags: I)
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut tags = tags.into_iter().map(Into::into).peekable();
        if tags.peek().is_some() {
            self.only.get_or_insert_with(BTreeSet::new).extend(tags);
        }
    }

    /// Adds `tags` to those an item must have none of.
    pub(crate) fn without<I, S>(&mut self, tags: I)
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.without.extend(tags.into_iter().map(Into::into));
    }

    /// Whether an item of `tags` is served.
    pub(crate) fn serves(&self, tags: &Tags) -> bool {
        let tags = tags.names();
        let wanted = self
            .only
            .as_ref()
            .is_none_or(|only| tags.iter().any(|tag| only.contains(tag)));
        wanted && !tags.iter().any(|tag| self.without.contains(tag))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(names: &[&str]) -> Tags {
        Tags::from_static(names)
    }

    #[test]
    fn the_empty_selection_serves_everything() {
        let selection = Selection::default();
        assert!(selection.serves(&tags(&[])));
        assert!(selection.serves(&tags(&["admin"])));
    }

    #[test]
    fn only_serves_items_with_one_of_its_tags_and_never_an_untagged_one() {
        let mut selection = Selection::default();
        selection.only(["beta", "public"]);
        assert!(selection.serves(&tags(&["beta"])));
        assert!(selection.serves(&tags(&["admin", "public"])));
        assert!(!selection.serves(&tags(&["admin"])));
        assert!(!selection.serves(&tags(&[])));
    }

    #[test]
    fn only_with_no_tags_changes_nothing() {
        let mut selection = Selection::default();
        selection.only(Vec::<String>::new());
        assert_eq!(selection, Selection::default());
    }

    #[test]
    fn without_keeps_out_any_item_with_one_of_its_tags_and_wins_over_only() {
        let mut selection = Selection::default();
        selection.without(["admin"]);
        assert!(selection.serves(&tags(&[])));
        assert!(selection.serves(&tags(&["beta"])));
        assert!(!selection.serves(&tags(&["beta", "admin"])));
        selection.only(["beta"]);
        assert!(!selection.serves(&tags(&["beta", "admin"])));
        assert!(selection.serves(&tags(&["beta"])));
    }
}
