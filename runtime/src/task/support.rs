//! Whether a tool may run as a task.

/// Whether a tool may run as a task: `#[tool(task)]` is [`Optional`](Self::Optional),
/// `#[tool(task = "required")]` is [`Required`](Self::Required); a tool built at run time says it
/// with [`Tool::task_support`](crate::tool::Tool::task_support).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TaskSupport {
    /// The tool always answers within its request (the default).
    #[default]
    Forbidden,
    /// The tool runs as a task when the client negotiated the extension (at once, or once the
    /// call outlives the server's `task_budget`); otherwise it answers within its request.
    Optional,
    /// The tool always runs as a task: a client that did not negotiate the extension is refused
    /// with `-32021` (missing required client capability).
    Required,
}

impl TaskSupport {
    /// The value of `execution.taskSupport` in `tools/list`.
    pub(crate) const fn wire_name(self) -> &'static str {
        match self {
            Self::Forbidden => "forbidden",
            Self::Optional => "optional",
            Self::Required => "required",
        }
    }
}
