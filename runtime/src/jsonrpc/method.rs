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

impl Method {
    /// The method named `text`.
    pub(crate) fn parse(text: String) -> Self {
        match text.as_str() {
            "initialize" => Self::Initialize,
            "ping" => Self::Ping,
            "logging/setLevel" => Self::SetLogLevel,
            "server/discover" => Self::Discover,
            "subscriptions/listen" => Self::Listen,
            "tools/list" => Self::ListTools,
            "tools/call" => Self::CallTool,
            "resources/list" => Self::ListResources,
            "resources/templates/list" => Self::ListResourceTemplates,
            "resources/read" => Self::ReadResource,
            "resources/subscribe" => Self::Subscribe,
            "resources/unsubscribe" => Self::Unsubscribe,
            "prompts/list" => Self::ListPrompts,
            "prompts/get" => Self::GetPrompt,
            "completion/complete" => Self::Complete,
            "skills/list" => Self::ListSkills,
            "skills/get" => Self::GetSkill,
            "resources/directory/read" => Self::ReadResourceDirectory,
            "elicitation/create" => Self::Elicit,
            "sampling/createMessage" => Self::Sample,
            "roots/list" => Self::ListRoots,
            "notifications/initialized" => Self::Initialized,
            "notifications/cancelled" => Self::Cancelled,
            "notifications/progress" => Self::Progress,
            "notifications/message" => Self::Log,
            "notifications/tools/list_changed" => Self::ToolsListChanged,
            "notifications/prompts/list_changed" => Self::PromptsListChanged,
            "notifications/resources/list_changed" => Self::ResourcesListChanged,
            "notifications/resources/updated" => Self::ResourceUpdated,
            "notifications/subscriptions/acknowledged" => Self::SubscriptionAcknowledged,
            "tasks/get" => Self::TasksGet,
            "tasks/update" => Self::TasksUpdate,
            "tasks/cancel" => Self::TasksCancel,
            "notifications/tasks" => Self::TaskStatus,
            _ => Self::Other(text),
        }
    }

    /// The method's name on the wire.
    pub(crate) fn as_str(&self) -> &str {
        match self {
            Self::Initialize => "initialize",
            Self::Ping => "ping",
            Self::SetLogLevel => "logging/setLevel",
            Self::Discover => "server/discover",
            Self::Listen => "subscriptions/listen",
            Self::ListTools => "tools/list",
            Self::CallTool => "tools/call",
            Self::ListResources => "resources/list",
            Self::ListResourceTemplates => "resources/templates/list",
            Self::ReadResource => "resources/read",
            Self::Subscribe => "resources/subscribe",
            Self::Unsubscribe => "resources/unsubscribe",
            Self::ListPrompts => "prompts/list",
            Self::GetPrompt => "prompts/get",
            Self::Complete => "completion/complete",
            Self::ListSkills => "skills/list",
            Self::GetSkill => "skills/get",
            Self::ReadResourceDirectory => "resources/directory/read",
            Self::Elicit => "elicitation/create",
            Self::Sample => "sampling/createMessage",
            Self::ListRoots => "roots/list",
            Self::Initialized => "notifications/initialized",
            Self::Cancelled => "notifications/cancelled",
            Self::Progress => "notifications/progress",
            Self::Log => "notifications/message",
            Self::ToolsListChanged => "notifications/tools/list_changed",
            Self::PromptsListChanged => "notifications/prompts/list_changed",
            Self::ResourcesListChanged => "notifications/resources/list_changed",
            Self::ResourceUpdated => "notifications/resources/updated",
            Self::SubscriptionAcknowledged => "notifications/subscriptions/acknowledged",
            Self::TasksGet => "tasks/get",
            Self::TasksUpdate => "tasks/update",
            Self::TasksCancel => "tasks/cancel",
            Self::TaskStatus => "notifications/tasks",
            Self::Other(text) => text,
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

    /// Whether answering the method always runs code of the user's (a tool, a resource's read,
    /// a prompt, a completer): such a request never runs on the task that watches its client
    /// (the stdio reader, an HTTP connection), which a tool computing before its first `.await`
    /// would stop from seeing a cancellation or the client leaving. A server's middleware and
    /// visibility rule make more methods run it: `Dispatcher::runs_user_code` says which.
    pub(crate) fn runs_user_code(&self) -> bool {
        matches!(
            self,
            Self::CallTool | Self::ReadResource | Self::GetPrompt | Self::Complete
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

    /// Every known method as the specification spells it.
    const SPELLED: [(&str, Method); 34] = [
        ("initialize", Method::Initialize),
        ("ping", Method::Ping),
        ("logging/setLevel", Method::SetLogLevel),
        ("server/discover", Method::Discover),
        ("subscriptions/listen", Method::Listen),
        ("tools/list", Method::ListTools),
        ("tools/call", Method::CallTool),
        ("resources/list", Method::ListResources),
        ("resources/templates/list", Method::ListResourceTemplates),
        ("resources/read", Method::ReadResource),
        ("resources/subscribe", Method::Subscribe),
        ("resources/unsubscribe", Method::Unsubscribe),
        ("prompts/list", Method::ListPrompts),
        ("prompts/get", Method::GetPrompt),
        ("completion/complete", Method::Complete),
        ("skills/list", Method::ListSkills),
        ("skills/get", Method::GetSkill),
        ("resources/directory/read", Method::ReadResourceDirectory),
        ("elicitation/create", Method::Elicit),
        ("sampling/createMessage", Method::Sample),
        ("roots/list", Method::ListRoots),
        ("notifications/initialized", Method::Initialized),
        ("notifications/cancelled", Method::Cancelled),
        ("notifications/progress", Method::Progress),
        ("notifications/message", Method::Log),
        ("notifications/tools/list_changed", Method::ToolsListChanged),
        (
            "notifications/prompts/list_changed",
            Method::PromptsListChanged,
        ),
        (
            "notifications/resources/list_changed",
            Method::ResourcesListChanged,
        ),
        ("notifications/resources/updated", Method::ResourceUpdated),
        (
            "notifications/subscriptions/acknowledged",
            Method::SubscriptionAcknowledged,
        ),
        ("tasks/get", Method::TasksGet),
        ("tasks/update", Method::TasksUpdate),
        ("tasks/cancel", Method::TasksCancel),
        ("notifications/tasks", Method::TaskStatus),
    ];

    /// The variant after `method`, in declaration order: an exhaustive `match`, so a new variant
    /// does not compile until it is placed here, and the walk below reaches it.
    fn after(method: &Method) -> Option<Method> {
        match method {
            Method::Initialize => Some(Method::Ping),
            Method::Ping => Some(Method::SetLogLevel),
            Method::SetLogLevel => Some(Method::Discover),
            Method::Discover => Some(Method::Listen),
            Method::Listen => Some(Method::ListTools),
            Method::ListTools => Some(Method::CallTool),
            Method::CallTool => Some(Method::ListResources),
            Method::ListResources => Some(Method::ListResourceTemplates),
            Method::ListResourceTemplates => Some(Method::ReadResource),
            Method::ReadResource => Some(Method::Subscribe),
            Method::Subscribe => Some(Method::Unsubscribe),
            Method::Unsubscribe => Some(Method::ListPrompts),
            Method::ListPrompts => Some(Method::GetPrompt),
            Method::GetPrompt => Some(Method::Complete),
            Method::Complete => Some(Method::ListSkills),
            Method::ListSkills => Some(Method::GetSkill),
            Method::GetSkill => Some(Method::ReadResourceDirectory),
            Method::ReadResourceDirectory => Some(Method::Elicit),
            Method::Elicit => Some(Method::Sample),
            Method::Sample => Some(Method::ListRoots),
            Method::ListRoots => Some(Method::Initialized),
            Method::Initialized => Some(Method::Cancelled),
            Method::Cancelled => Some(Method::Progress),
            Method::Progress => Some(Method::Log),
            Method::Log => Some(Method::ToolsListChanged),
            Method::ToolsListChanged => Some(Method::PromptsListChanged),
            Method::PromptsListChanged => Some(Method::ResourcesListChanged),
            Method::ResourcesListChanged => Some(Method::ResourceUpdated),
            Method::ResourceUpdated => Some(Method::SubscriptionAcknowledged),
            Method::SubscriptionAcknowledged => Some(Method::TasksGet),
            Method::TasksGet => Some(Method::TasksUpdate),
            Method::TasksUpdate => Some(Method::TasksCancel),
            Method::TasksCancel => Some(Method::TaskStatus),
            Method::TaskStatus | Method::Other(_) => None,
        }
    }

    #[test]
    fn every_method_reads_back_from_its_text() {
        let mut names = std::collections::BTreeSet::new();
        let mut method = Some(Method::Initialize);
        while let Some(known) = method {
            let name = known.as_str().to_owned();
            assert!(!name.is_empty(), "{known:?} has no name");
            assert!(names.insert(name.clone()), "{name} names two methods");
            assert_eq!(Method::parse(name), known);
            method = after(&known);
        }
        assert_eq!(names.len(), SPELLED.len());
    }

    #[test]
    fn every_known_method_is_spelled_as_the_specification_does_and_an_unknown_one_keeps_it() {
        for (name, method) in SPELLED {
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
