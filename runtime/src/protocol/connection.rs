//! [`Connection`]: what a legacy client builds with `initialize`, one per stdio process or HTTP
//! session.

use std::sync::{Arc, LazyLock, Mutex, OnceLock};

use super::ProtocolVersion;
use super::subscriptions::{Listener, Lists, Subscriptions};
use crate::client_capabilities::ClientCapabilities;
use crate::context::LogLevel;
use crate::limits::MemoryBudget;
use crate::sync::lock;
use crate::visibility::{SessionTags, Toggles};

/// The capabilities of a client before `initialize`, shared by every connection: a 2026-07-28
/// HTTP request makes a connection of its own, which then allocates nothing for them.
static NONE_DECLARED: LazyLock<Arc<ClientCapabilities>> = LazyLock::new(Arc::default);

/// The state of one legacy connection.
#[derive(Debug)]
pub(crate) struct Connection {
    /// The version `initialize` negotiated; `None` before it.
    version: Mutex<Option<ProtocolVersion>>,
    /// What is assumed before `initialize` (or without it, on HTTP).
    default_version: ProtocolVersion,
    /// The level `logging/setLevel` chose.
    log_level: Mutex<LogLevel>,
    /// The session id on HTTP.
    pub(crate) session_id: Option<String>,
    /// What the server reads of what the client declared in `initialize` (never the client's
    /// tree), shared with each call rather than copied.
    client_capabilities: Mutex<Arc<ClientCapabilities>>,
    /// The lists whose changes `initialize` told the client it would hear of.
    lists: Mutex<Lists>,
    /// What `resources/subscribe` subscribed to.
    subscriptions: Subscriptions,
    /// The tags the session enabled or disabled for itself (`Context::enable_tags`), made
    /// when first wanted: a 2026-07-28 request's connection never makes it.
    tags: OnceLock<Arc<SessionTags>>,
}

impl Connection {
    /// A connection that has not been initialized; requests before `initialize` are answered as
    /// `default_version`.
    /// Its subscriptions are charged to `subscription_memory`, the server's.
    pub(crate) fn new(
        default_version: ProtocolVersion,
        session_id: Option<String>,
        subscription_memory: &MemoryBudget,
    ) -> Self {
        Self {
            version: Mutex::new(None),
            default_version,
            log_level: Mutex::new(LogLevel::Debug),
            session_id,
            client_capabilities: Mutex::new(Arc::clone(&NONE_DECLARED)),
            lists: Mutex::default(),
            subscriptions: Subscriptions::new(subscription_memory),
            tags: OnceLock::new(),
        }
    }

    /// The negotiated version, or the default.
    pub(crate) fn version(&self) -> ProtocolVersion {
        lock(&self.version).unwrap_or(self.default_version)
    }

    /// Whether a legacy client opened this connection with `initialize`: only such a client
    /// takes unsolicited notifications (`list_changed`).
    pub(crate) fn is_initialized(&self) -> bool {
        lock(&self.version).is_some()
    }

    /// Records what `initialize` settled.
    pub(crate) fn initialize(
        &self,
        version: ProtocolVersion,
        client_capabilities: ClientCapabilities,
    ) {
        *lock(&self.version) = Some(version);
        *lock(&self.client_capabilities) = Arc::new(client_capabilities);
    }

    /// Records the lists whose changes the server's capabilities, as `initialize` sent them,
    /// declare it tells.
    pub(crate) fn hear(&self, lists: Lists) {
        *lock(&self.lists) = lists;
    }

    /// The lists `hear` recorded.
    #[cfg_attr(
        not(feature = "redis"),
        allow(dead_code, reason = "a shared session's record holds them")
    )]
    pub(crate) fn lists(&self) -> Lists {
        *lock(&self.lists)
    }

    /// The negotiated version; `None` before `initialize`.
    #[cfg_attr(
        not(feature = "redis"),
        allow(dead_code, reason = "a shared session's record holds it")
    )]
    pub(crate) fn negotiated(&self) -> Option<ProtocolVersion> {
        *lock(&self.version)
    }

    /// What `resources/subscribe` and `resources/unsubscribe` change.
    pub(crate) fn subscriptions(&self) -> &Subscriptions {
        &self.subscriptions
    }

    /// The tags the session enabled or disabled for itself, shared with its calls' contexts.
    pub(crate) fn tags(&self) -> &Arc<SessionTags> {
        self.tags.get_or_init(Arc::default)
    }

    /// What the session chose of tags, when it chose anything (nothing made to say so).
    pub(crate) fn chosen_tags(&self) -> Option<Arc<Toggles>> {
        self.tags
            .get()
            .map(|tags| tags.current())
            .filter(|toggles| !toggles.is_empty())
    }

    /// What this connection's client hears of the server's changes (nothing before
    /// `initialize`).
    pub(crate) fn listener(&self) -> Listener<'_> {
        Listener {
            lists: *lock(&self.lists),
            subscriptions: &self.subscriptions,
        }
    }

    /// The least severe level of log message the client wants.
    pub(crate) fn log_level(&self) -> LogLevel {
        *lock(&self.log_level)
    }

    /// `logging/setLevel`.
    pub(crate) fn set_log_level(&self, level: LogLevel) {
        *lock(&self.log_level) = level;
    }

    /// What the client declared in `initialize` (nothing before it).
    pub(crate) fn client_capabilities(&self) -> Arc<ClientCapabilities> {
        Arc::clone(&lock(&self.client_capabilities))
    }
}
