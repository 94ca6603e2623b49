//! Who sees what, by tags. Three layers, one after the other:
//!
//! 1. the server's [`Selection`] (`Server::only_tags`, `Server::without_tags`, `--only-tags`,
//!    `--without-tags`): what it serves at all. What it leaves out is never in the live sets,
//!    as if it were not linked; nothing below brings it back;
//! 2. the [`Visibility`] the server's rule gives a caller (`Server::visibility`, a fn of the
//!    caller's `AuthInfo`, in both eras): what that caller sees of what is served;
//! 3. a legacy session's own choice ([`SessionTags`]: `Context::enable_tags`, `disable_tags`,
//!    `reset_tags`), which wins over the rule for the tags it names, in that session only.
//!
//! The dispatcher puts 2 and 3 together once per request as a [`View`]: what a view hides is
//! absent from the request's listings and unknown to its calls, reads and gets.

use std::collections::BTreeSet;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, OnceLock};

use serde::{Deserialize, Serialize};
use tokio::sync::Notify;

use crate::sync::lock;

/// What a server serves, by tags: with `only`, the items with at least one of its tags (an
/// untagged item is not served); never an item with one of `without`'s (`without` wins when an
/// item has tags of both). The empty selection serves every item.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Selection {
    #[serde(skip_serializing_if = "Option::is_none")]
    only: Option<BTreeSet<String>>,
    #[serde(skip_serializing_if = "BTreeSet::is_empty")]
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
    pub(crate) fn serves(&self, tags: &[String]) -> bool {
        let wanted = self
            .only
            .as_ref()
            .is_none_or(|only| tags.iter().any(|tag| only.contains(tag)));
        wanted && !tags.iter().any(|tag| self.without.contains(tag))
    }

    /// Whether it serves everything.
    fn is_everything(&self) -> bool {
        self.only.is_none() && self.without.is_empty()
    }
}

/// What one caller sees, by tags, of what its server serves: the answer of the rule given to
/// [`Server::visibility`](crate::Server::visibility). `only` and `without` read as the
/// server's [`only_tags`](crate::Server::only_tags) and
/// [`without_tags`](crate::Server::without_tags) do (`without` wins), for that caller alone.
///
/// ```
/// use mcp_toolbelt::Visibility;
///
/// let guest = Visibility::all().without(["admin", "beta"]);
/// let tester = Visibility::all().only(["beta", "public"]);
/// # let _ = (guest, tester);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Visibility(Selection);

impl Visibility {
    /// Everything the server serves.
    #[must_use]
    pub fn all() -> Self {
        Self::default()
    }

    /// Only the items with at least one of `tags` (an untagged item is hidden); called again,
    /// the tags add up.
    #[must_use]
    pub fn only<I, S>(mut self, tags: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.0.only(tags);
        self
    }

    /// No item with one of `tags`.
    #[must_use]
    pub fn without<I, S>(mut self, tags: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.0.without(tags);
        self
    }
}

/// The most bytes a session's own choice of tags may hold (each tag's length and 16 bytes
/// for its entry): it is kept for the session's life, and with Redis in its record.
pub(crate) const MAX_SESSION_TAG_BYTES: usize = 4 * 1024;

/// The tags a legacy session enabled or disabled for itself: a tag is in one set at most, the
/// last choice made.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Toggles {
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    enabled: BTreeSet<String>,
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    disabled: BTreeSet<String>,
}

impl Toggles {
    /// Whether the session chose nothing.
    pub(crate) fn is_empty(&self) -> bool {
        self.enabled.is_empty() && self.disabled.is_empty()
    }

    /// What they hold, as [`MAX_SESSION_TAG_BYTES`] counts it.
    fn bytes(&self) -> usize {
        self.enabled
            .iter()
            .chain(&self.disabled)
            .map(|tag| tag.len() + 16)
            .sum()
    }

    /// What the session decided for an item of `tags`: hidden when one is disabled, shown when
    /// one is enabled, else nothing (the rule decides).
    fn decides(&self, tags: &[String]) -> Option<bool> {
        if tags.iter().any(|tag| self.disabled.contains(tag)) {
            Some(false)
        } else if tags.iter().any(|tag| self.enabled.contains(tag)) {
            Some(true)
        } else {
            None
        }
    }

    /// The tags whose choice differs between `self` and `other`.
    fn differences(&self, other: &Self) -> BTreeSet<String> {
        let enabled = self.enabled.symmetric_difference(&other.enabled);
        let disabled = self.disabled.symmetric_difference(&other.disabled);
        enabled.chain(disabled).cloned().collect()
    }
}

/// Why a session's choice of tags was not made ([`Context::enable_tags`](crate::Context::enable_tags),
/// `disable_tags`, `reset_tags`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum VisibilityError {
    /// The request belongs to no session that could remember it: a 2026-07-28 request, a
    /// stateless HTTP one, or one before `initialize`. [`Server::visibility`](crate::Server::visibility)
    /// decides for those, from the caller.
    NoSession,
    /// The session's choices would hold more than `limit` bytes of tags.
    TooLarge {
        /// The most bytes of tags a session keeps.
        limit: usize,
    },
    /// The session store (Redis) could not keep the choice, which is undone: the text says why.
    Store(String),
}

impl fmt::Display for VisibilityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoSession => f.write_str(
                "this request belongs to no session (a 2026-07-28 request, stateless HTTP, or \
                 before initialize): there is no session to enable or disable tags for",
            ),
            Self::TooLarge { limit } => write!(
                f,
                "a session's enabled and disabled tags may hold at most {limit} bytes: reset them \
                 first (reset_tags)"
            ),
            Self::Store(why) => write!(f, "the session store could not keep the change: {why}"),
        }
    }
}

impl std::error::Error for VisibilityError {}

/// How a transport keeps a session's choice where its other replicas read it (with Redis: the
/// session's record written, and told): awaited before the tool's call goes on.
pub(crate) type Keeper =
    Arc<dyn Fn() -> Pin<Box<dyn Future<Output = Result<(), String>> + Send>> + Send + Sync>;

/// One legacy session's own choice of tags, shared by its connection and its calls' contexts:
/// what it is now, the tags changed since its listener last looked (told as `list_changed`
/// to that session alone), and how the transport keeps it.
#[derive(Default)]
pub(crate) struct SessionTags {
    toggles: Mutex<Arc<Toggles>>,
    /// Changed since the listener last looked (`None`: nothing).
    changed: Mutex<Option<ChangedTags>>,
    wake: Notify,
    keeper: OnceLock<Keeper>,
    /// Told at every change, besides the wake (set once): how an HTTP endpoint's one writer of
    /// GET streams learns which session's choice changed without a task waiting per session.
    teller: OnceLock<Teller>,
}

/// What a change of a session's choice is told to, as it happens.
pub(crate) type Teller = Arc<dyn Fn() + Send + Sync>;

impl fmt::Debug for SessionTags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SessionTags")
            .field("toggles", &*lock(&self.toggles))
            .finish_non_exhaustive()
    }
}

/// What changed of a session's choice, for its listener.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ChangedTags {
    /// The choice of these tags.
    These(BTreeSet<String>),
    /// More than a choice may hold, told as any tag.
    Any,
}

impl ChangedTags {
    /// Whether an item of `tags` may be seen otherwise now.
    pub(crate) fn touches(&self, tags: &[String]) -> bool {
        match self {
            Self::These(changed) => tags.iter().any(|tag| changed.contains(tag)),
            Self::Any => true,
        }
    }
}

impl SessionTags {
    /// The choice as of now.
    pub(crate) fn current(&self) -> Arc<Toggles> {
        Arc::clone(&lock(&self.toggles))
    }

    /// The transport keeps every change with `keeper` from now on (set once).
    #[cfg_attr(
        not(feature = "redis"),
        allow(dead_code, reason = "the replicas keep a session's choice in Redis")
    )]
    pub(crate) fn keep_with(&self, keeper: Keeper) {
        let _ = self.keeper.set(keeper);
    }

    /// Tells `teller` of every change from now on (set once), and of a change not yet taken.
    #[cfg_attr(
        not(feature = "http"),
        allow(
            dead_code,
            reason = "the HTTP endpoint's writer of GET streams is told"
        )
    )]
    pub(crate) fn tell(&self, teller: Teller) {
        if self.teller.set(teller).is_ok()
            && lock(&self.changed).is_some()
            && let Some(teller) = self.teller.get()
        {
            teller();
        }
    }

    /// Makes the choice `toggles` (read from the session's record, made on another replica).
    #[cfg_attr(
        not(feature = "redis"),
        allow(dead_code, reason = "the replicas keep a session's choice in Redis")
    )]
    pub(crate) fn restore(&self, toggles: Toggles) {
        let mut current = lock(&self.toggles);
        if **current == toggles {
            return;
        }
        let changed = current.differences(&toggles);
        *current = Arc::new(toggles);
        drop(current);
        self.changed(changed);
    }

    /// Forgets the changes not yet told: the choice was loaded, not changed (a session this
    /// replica reads from its record for the first time), and nobody is to hear of it.
    #[cfg_attr(
        not(feature = "redis"),
        allow(dead_code, reason = "the replicas keep a session's choice in Redis")
    )]
    pub(crate) fn loaded(&self) {
        lock(&self.changed).take();
    }

    /// Changes the choice as `change` says, keeps it (with the transport's keeper), and tells
    /// the session's listener. Undone when it cannot be kept.
    pub(crate) async fn change(
        &self,
        change: impl FnOnce(&mut Toggles),
    ) -> Result<(), VisibilityError> {
        let (before, after) = {
            let mut current = lock(&self.toggles);
            let mut changed = Toggles::clone(&current);
            change(&mut changed);
            if changed == **current {
                return Ok(());
            }
            if changed.bytes() > MAX_SESSION_TAG_BYTES {
                return Err(VisibilityError::TooLarge {
                    limit: MAX_SESSION_TAG_BYTES,
                });
            }
            let before = std::mem::replace(&mut *current, Arc::new(changed));
            (before, Arc::clone(&current))
        };
        if let Some(keeper) = self.keeper.get()
            && let Err(why) = keeper().await
        {
            let mut current = lock(&self.toggles);
            if Arc::ptr_eq(&current, &after) {
                *current = before;
            }
            return Err(VisibilityError::Store(why));
        }
        self.changed(before.differences(&after));
        Ok(())
    }

    /// Records `tags` as changed, wakes the listener and tells the teller.
    fn changed(&self, tags: BTreeSet<String>) {
        let mut pending = lock(&self.changed);
        let merged = match pending.take() {
            None => ChangedTags::These(tags),
            Some(ChangedTags::Any) => ChangedTags::Any,
            Some(ChangedTags::These(mut before)) => {
                before.extend(tags);
                let bytes: usize = before.iter().map(String::len).sum();
                if bytes <= MAX_SESSION_TAG_BYTES {
                    ChangedTags::These(before)
                } else {
                    ChangedTags::Any
                }
            }
        };
        *pending = Some(merged);
        drop(pending);
        self.wake.notify_one();
        if let Some(teller) = self.teller.get() {
            teller();
        }
    }

    /// The tags changed since the last look, if any.
    pub(crate) fn take_change(&self) -> Option<ChangedTags> {
        lock(&self.changed).take()
    }

    /// Completes when the choice changed, with the tags it changed.
    pub(crate) async fn next_change(&self) -> ChangedTags {
        loop {
            if let Some(changed) = self.take_change() {
                return changed;
            }
            self.wake.notified().await;
        }
    }
}

/// Enables `tags` in `toggles` (no longer disabled).
pub(crate) fn enable(toggles: &mut Toggles, tags: Vec<String>) {
    for tag in tags {
        toggles.disabled.remove(&tag);
        toggles.enabled.insert(tag);
    }
}

/// Disables `tags` in `toggles` (no longer enabled).
pub(crate) fn disable(toggles: &mut Toggles, tags: Vec<String>) {
    for tag in tags {
        toggles.enabled.remove(&tag);
        toggles.disabled.insert(tag);
    }
}

/// What one request sees, by tags: its caller's [`Visibility`] (the server's rule) and its
/// session's own choice. The default shows everything the server serves.
#[derive(Clone, Debug, Default)]
pub(crate) struct View {
    rule: Option<Visibility>,
    session: Option<Arc<Toggles>>,
}

impl View {
    /// The view of a caller the rule gave `rule`, in a session that chose `session`.
    pub(crate) fn new(rule: Option<Visibility>, session: Option<Arc<Toggles>>) -> Self {
        Self {
            rule,
            session: session.filter(|toggles| !toggles.is_empty()),
        }
    }

    /// Whether an item of `tags` is seen.
    pub(crate) fn shows(&self, tags: &[String]) -> bool {
        if let Some(decided) = self.session.as_ref().and_then(|s| s.decides(tags)) {
            return decided;
        }
        self.rule
            .as_ref()
            .is_none_or(|Visibility(selection)| selection.serves(tags))
    }

    /// Whether it may hide something: else nothing need be checked.
    pub(crate) fn hides(&self) -> bool {
        self.session.is_some()
            || self
                .rule
                .as_ref()
                .is_some_and(|Visibility(selection)| !selection.is_everything())
    }

    /// Whether what it shows varies by caller (a rule decides): a 2026-07-28 listing is then
    /// `private`.
    pub(crate) fn varies(&self) -> bool {
        self.rule.is_some()
    }

    /// What decides it, as text: two views of one key show the same (`None`: everything).
    pub(crate) fn key(&self) -> Option<String> {
        self.hides().then(|| {
            serde_json::to_string(&(
                self.rule.as_ref().map(|rule| &rule.0),
                self.session.as_deref(),
            ))
            .unwrap_or_default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(names: &[&str]) -> Vec<String> {
        names.iter().map(|&name| name.to_owned()).collect()
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

    #[test]
    fn a_session_choice_wins_over_the_rule_for_the_tags_it_names() {
        let rule = Visibility::all().without(["beta"]);
        let mut toggles = Toggles::default();
        enable(&mut toggles, tags(&["beta"]));
        disable(&mut toggles, tags(&["admin"]));
        let view = View::new(Some(rule.clone()), Some(Arc::new(toggles)));
        assert!(view.shows(&tags(&["beta"])));
        assert!(!view.shows(&tags(&["admin"])));
        assert!(!view.shows(&tags(&["beta", "admin"])), "disabled wins");
        assert!(view.shows(&tags(&[])));
        let ruled = View::new(Some(rule), None);
        assert!(!ruled.shows(&tags(&["beta"])));
        assert_ne!(ruled.key(), view.key());
        assert_eq!(View::default().key(), None);
        assert_eq!(View::new(Some(Visibility::all()), None).key(), None);
    }

    #[tokio::test]
    async fn a_change_is_told_once_with_its_tags_and_bounded_in_bytes() {
        let session = SessionTags::default();
        session
            .change(|toggles| enable(toggles, tags(&["beta"])))
            .await
            .unwrap();
        session
            .change(|toggles| enable(toggles, tags(&["beta"])))
            .await
            .unwrap();
        let told = session.next_change().await;
        assert_eq!(told, ChangedTags::These(["beta".to_owned()].into()));
        let huge = vec!["x".repeat(MAX_SESSION_TAG_BYTES)];
        assert_eq!(
            session.change(|toggles| disable(toggles, huge)).await,
            Err(VisibilityError::TooLarge {
                limit: MAX_SESSION_TAG_BYTES
            })
        );
        assert!(session.current().enabled.contains("beta"));
    }
}
