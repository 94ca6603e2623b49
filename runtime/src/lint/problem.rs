//! [`Problem`]: what a rule found, shared by the rules over schemas and over icons.

/// One place a check failed: where (a JSON pointer into the tool's definition) and what.
pub(super) struct Problem {
    pub(super) pointer: String,
    pub(super) message: String,
    /// The fix for this shape, where the rule's own ([`fix`](super::rules::fix)) does not apply to it.
    pub(super) fix: Option<&'static str>,
}

impl Problem {
    /// A problem the rule's own fix applies to.
    pub(super) fn new(pointer: String, message: String) -> Self {
        Self {
            pointer,
            message,
            fix: None,
        }
    }
}
