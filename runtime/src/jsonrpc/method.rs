//! [`Method`]: every JSON-RPC method we serve, send or take, parsed once with its message.

use serde::{Serialize, Serializer};

/// A JSON-RPC method, read once when its message is parsed and matched everywhere after (never
/// its text): a new method is a variant the compiler makes every `match` consider. A method we
/// do not know keeps its text, for the `-32601` answer that names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Method {
    /// `initialize` (legacy): the connection's version and capabilities.
    Initialize,
    /// `ping`.
    Ping,
    /// `logging/setLevel` (legacy).
    SetLogLevel,
    /// `server/discover` (2026-07-28).
    Discover,
    /// `subscriptions/listen` (2026-07-28): a stream of change notifications.
    Listen,
    /// `tools/list`.
    ListTools,
    /// `tools/call`.
    CallTool,
    /// `resources/list`.
    ListResources,
    /// `resources/templates/list`.
    ListResourceTemplates,
    /// `resources/read`.
    ReadResource,
    /// `resources/subscribe` (legacy).
    Subscribe,
    /// `resources/unsubscribe` (legacy).
    Unsubscribe,
    /// `prompts/list`.
    ListPrompts,
    /// `prompts/get`.
    GetPrompt,
    /// `completion/complete`.
    Complete,
    /// `skills/list` (the Skills extension).
    ListSkills,
    /// `skills/get` (the Skills extension).
    GetSkill,
    /// `resources/directory/read` (the Skills extension's `directoryRead`).
    ReadResourceDirectory,
    /// `elicitation/create`, a question to the client.
    Elicit,
    /// `sampling/createMessage`, a question to the client.
    Sample,
    /// `roots/list`, a question to the client.
    ListRoots,
    /// `notifications/initialized`.
    Initialized,
    /// `notifications/cancelled`, either way.
    Cancelled,
    /// `notifications/progress`.
    Progress,
    /// `notifications/message`: a log message.
    Log,
    /// `notifications/tools/list_changed`.
    ToolsListChanged,
    /// `notifications/prompts/list_changed`.
    PromptsListChanged,
    /// `notifications/resources/list_changed`.
    ResourcesListChanged,
    /// `notifications/resources/updated`.
    ResourceUpdated,
    /// `notifications/subscriptions/acknowledged`: the first message of a listen stream.
    SubscriptionAcknowledged,
    /// `tasks/get` (the tasks extension): a task's status, its result once over.
    TasksGet,
    /// `tasks/update` (the tasks extension): answers to a task's questions.
    TasksUpdate,
    /// `tasks/cancel` (the tasks extension).
    TasksCancel,
    /// `notifications/tasks` (the tasks extension): a task's status changed.
    TaskStatus,
    /// Any other method, as the client wrote it.
    Other(String),
}

/// Every known method with its text: the one table both directions read.
const KNOWN: [(Method, &str); 34] = [
    (Method::Initialize, "initialize"),
    (Method::Ping, "ping"),
    (Method::SetLogLevel, "logging/setLevel"),
    (Method::Discover, "server/discover"),
    (Method::Listen, "subscriptions/listen"),
    (Method::ListTools, "tools/list"),
    (Method::CallTool, "tools/call"),
    (Method::ListResources, "resources/list"),
    (Method::ListResourceTemplates, "resources/templates/list"),
    (Method::ReadResource, "resources/read"),
    (Method::Subscribe, "resources/subscribe"),
    (Method::Unsubscribe, "resources/unsubscribe"),
    (Method::ListPrompts, "prompts/list"),
    (Method::GetPrompt, "prompts/get"),
    (Method::Complete, "completion/complete"),
    (Method::ListSkills, "skills/list"),
    (Method::GetSkill, "skills/get"),
    (Method::ReadResourceDirectory, "resources/directory/read"),
    (Method::Elicit, "elicitation/create"),
    (Method::Sample, "sampling/createMessage"),
    (Method::ListRoots, "roots/list"),
    (Method::Initialized, "notifications/initialized"),
    (Method::Cancelled, "notifications/cancelled"),
    (Method::Progress, "notifications/progress"),
    (Method::Log, "notifications/message"),
    (Method::ToolsListChanged, "notifications/tools/list_changed"),
    (
        Method::PromptsListChanged,
        "notifications/prompts/list_changed",
    ),
    (
        Method::ResourcesListChanged,
        "notifications/resources/list_changed",
    ),
    (Method::ResourceUpdated, "notifications/resources/updated"),
    (
        Method::SubscriptionAcknowledged,
        "notifications/subscriptions/acknowledged",
    ),
    (Method::TasksGet, "tasks/get"),
    (Method::TasksUpdate, "tasks/update"),
    (Method::TasksCancel, "tasks/cancel"),
    (Method::TaskStatus, "notifications/tasks"),
];

impl Method {
    /// The method named `text`.
    pub(crate) fn parse(text: String) -> Self {
        KNOWN
            .iter()
            .find(|(_, name)| *name == text)
            .map_or(Self::Other(text), |(method, _)| method.clone())
    }

    /// The method's name on the wire.
    pub(crate) fn as_str(&self) -> &str {
        match self {
            Self::Other(text) => text,
            known => KNOWN
                .iter()
                .find(|(method, _)| method == known)
                .map_or("", |(_, name)| name),
        }
    }

    /// Whether the method is one of the Skills extension's.
    #[cfg(feature = "skills")]
    pub(crate) fn is_skills(&self) -> bool {
        matches!(
            self,
            Self::ListSkills | Self::GetSkill | Self::ReadResourceDirectory
        )
    }

    /// The heap the method holds (only an unknown one's text).
    pub(crate) fn held_bytes(&self) -> usize {
        match self {
            Self::Other(text) => text.capacity(),
            _ => 0,
        }
    }

    /// Whether answering the method runs code of the user's (a tool, a resource's read, a
    /// prompt, a completer): such a request never runs on the task that watches its client (the
    /// stdio reader, an HTTP connection), which a tool computing before its first `.await`
    /// would stop from seeing a cancellation or the client leaving.
    pub(crate) fn runs_user_code(&self) -> bool {
        matches!(
            self,
            Self::CallTool | Self::ReadResource | Self::GetPrompt | Self::Complete
        )
    }

    /// Whether the method is a `resources/…` one the dispatcher hands to its resources.
    pub(crate) fn is_resources(&self) -> bool {
        matches!(
            self,
            Self::ListResources | Self::ListResourceTemplates | Self::ReadResource
        )
    }
}

impl From<&str> for Method {
    fn from(text: &str) -> Self {
        Self::parse(text.to_owned())
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Method {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_method_reads_back_as_its_text_and_an_unknown_one_keeps_it() {
        for (method, name) in KNOWN {
            assert_eq!(Method::from(name), method);
            assert_eq!(method.as_str(), name);
        }
        let unknown = Method::from("prompts/delete");
        assert_eq!(unknown, Method::Other("prompts/delete".into()));
        assert_eq!(unknown.to_string(), "prompts/delete");
        assert_eq!(
            Method::from("Tools/Call"),
            Method::Other("Tools/Call".into())
        );
    }
}
