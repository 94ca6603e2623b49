//! Legacy sessions in Redis: what `initialize` settled (the version, the client's
//! capabilities, the lists it hears, its log level, its resource subscriptions, its owner) is a
//! JSON record at `session:{id}`, with the session's idle TTL, so that any replica serves any
//! request of the session. The transport (`transport::http::sessions`) keeps a cache of the
//! sessions it serves (their calls, their questions, their GET stream) and reads the record once
//! per request: `GETEX … PX` refreshes the TTL and tells whether the session still exists.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{BusMessage, Redis};
use crate::client_capabilities::ClientCapabilities;
use crate::context::LogLevel;
use crate::principal::Principal;
use crate::protocol::{Connection, Lists, ProtocolVersion};
use crate::registry::Listed;

/// What a legacy session settled, as kept in Redis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct SessionRecord {
    /// The negotiated version; `None` before `initialize` answered.
    version: Option<String>,
    /// What the server reads of the client's capabilities, never the client's tree.
    capabilities: ClientCapabilities,
    log_level: LogLevel,
    hears: HeardLists,
    uris: Vec<String>,
    templates: Vec<String>,
    /// `Principal::key` of who opened it (bearer auth), nobody else may use it.
    owner: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct HeardLists {
    tools: bool,
    prompts: bool,
    resources: bool,
}

impl SessionRecord {
    /// What `connection`, opened by `owner`, settled.
    pub(crate) fn of(connection: &Connection, owner: Option<&Principal>) -> Self {
        let lists = connection.lists();
        let subscriptions = connection.subscriptions();
        Self {
            version: connection
                .negotiated()
                .map(|version| version.as_str().to_owned()),
            capabilities: ClientCapabilities::clone(&connection.client_capabilities()),
            log_level: connection.log_level(),
            hears: HeardLists {
                tools: lists.tools,
                prompts: lists.prompts,
                resources: lists.resources,
            },
            uris: subscriptions.uris(),
            templates: subscriptions.templates(),
            owner: owner.map(Principal::key),
        }
    }

    /// Whether `principal` may use the session: the one who opened it.
    pub(crate) fn belongs_to(&self, principal: Option<&Principal>) -> bool {
        self.owner == principal.map(Principal::key)
    }

    /// Makes `connection` what the record says (a session loaded by this replica, or changed by
    /// another); subscriptions to what `resources` no longer serve are left out.
    pub(crate) fn apply(&self, connection: &Connection, resources: &Listed) {
        if let Some(version) = self
            .version
            .as_deref()
            .and_then(ProtocolVersion::parse_legacy)
        {
            connection.initialize(version, self.capabilities.clone());
        }
        connection.hear(Lists {
            tools: self.hears.tools,
            prompts: self.hears.prompts,
            resources: self.hears.resources,
        });
        connection.set_log_level(self.log_level);
        let subscriptions = connection.subscriptions();
        let wanted: Vec<&String> = self.uris.iter().chain(&self.templates).collect();
        for held in subscriptions
            .uris()
            .into_iter()
            .chain(subscriptions.templates())
        {
            if !wanted.contains(&&held) {
                subscriptions.unsubscribe(&held);
            }
        }
        for uri in wanted {
            let _ = subscriptions.subscribe(uri, resources);
        }
    }
}

/// The sessions of one server in Redis.
#[derive(Clone)]
pub(crate) struct SharedSessions {
    redis: Redis,
}

impl SharedSessions {
    pub(crate) fn new(redis: Redis) -> Self {
        Self { redis }
    }

    pub(crate) fn redis(&self) -> &Redis {
        &self.redis
    }

    /// The record of session `id` (its text), its TTL set to `ttl` when given (`GETEX … PX`,
    /// else `GET`); `None` when there is none (never opened, ended, expired).
    pub(crate) async fn load(
        &self,
        id: &str,
        ttl: Option<Duration>,
    ) -> redis::RedisResult<Option<String>> {
        let key = self.redis.key("session", id);
        let command = if let Some(ttl) = ttl {
            let mut command = redis::cmd("GETEX");
            command.arg(&key).arg("PX").arg(millis(ttl));
            command
        } else {
            let mut command = redis::cmd("GET");
            command.arg(&key);
            command
        };
        let loaded: redis::RedisResult<Option<String>> =
            command.query_async(&mut self.redis.connection()).await;
        self.redis.outcome(&loaded);
        loaded
    }

    /// Writes session `id`'s record, to live `ttl` from now: a new session's (`opened`), or
    /// one that still exists (never one ended or expired meanwhile, which would bring it
    /// back). `false` when it no longer exists.
    pub(crate) async fn save(
        &self,
        id: &str,
        record: &str,
        ttl: Duration,
        opened: bool,
    ) -> redis::RedisResult<bool> {
        let mut command = redis::cmd("SET");
        command
            .arg(self.redis.key("session", id))
            .arg(record)
            .arg("PX")
            .arg(millis(ttl));
        if !opened {
            command.arg("XX");
        }
        let saved: redis::RedisResult<Option<String>> =
            command.query_async(&mut self.redis.connection()).await;
        self.redis.outcome(&saved);
        saved.map(|reply| reply.is_some())
    }

    /// Keeps the sessions `ids` alive for `ttl` from now (in one round trip): those with a
    /// stream open or a call running here, which may send no request for longer than their
    /// TTL. For each, whether it still exists.
    pub(crate) async fn keep(
        &self,
        ids: &[String],
        ttl: Duration,
    ) -> redis::RedisResult<Vec<bool>> {
        let mut pipeline = redis::pipe();
        for id in ids {
            pipeline
                .cmd("PEXPIRE")
                .arg(self.redis.key("session", id))
                .arg(millis(ttl));
        }
        let kept: redis::RedisResult<Vec<bool>> =
            pipeline.query_async(&mut self.redis.connection()).await;
        self.redis.outcome(&kept);
        kept
    }

    /// Tells the other replicas that session `id`'s record changed (they apply `record`).
    pub(crate) fn changed(&self, id: &str, record: &str) {
        self.redis.bus().publish(BusMessage::SessionChanged {
            session: id.to_owned(),
            record: record.to_owned(),
        });
    }

    /// Ends session `id` everywhere: its record goes, the other replicas are told.
    pub(crate) async fn end(&self, id: &str) -> redis::RedisResult<()> {
        let deleted: redis::RedisResult<()> = redis::cmd("DEL")
            .arg(self.redis.key("session", id))
            .query_async(&mut self.redis.connection())
            .await;
        self.redis.outcome(&deleted);
        deleted?;
        self.redis.bus().publish(BusMessage::SessionEnded {
            session: id.to_owned(),
        });
        Ok(())
    }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis())
        .unwrap_or(u64::MAX)
        .max(1)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::limits::MemoryBudget;

    #[test]
    fn a_record_restores_what_initialize_and_set_level_settled() {
        let budget = MemoryBudget::new(usize::MAX);
        let opened = Connection::new(ProtocolVersion::HTTP_DEFAULT, None, &budget);
        opened.initialize(
            ProtocolVersion::V2025_11_25,
            ClientCapabilities::from_declared(&json!({"roots": {}, "experimental": {"x": [0]}})),
        );
        opened.hear(Lists {
            tools: true,
            prompts: false,
            resources: true,
        });
        opened.set_log_level(LogLevel::Warning);
        let owner = Principal::new("client", Some("alice".into()));
        let record = SessionRecord::of(&opened, Some(&owner));
        let text = serde_json::to_string(&record).unwrap();
        let back: SessionRecord = serde_json::from_str(&text).unwrap();
        assert_eq!(back, record);
        assert!(back.belongs_to(Some(&owner)));
        assert!(!back.belongs_to(Some(&Principal::new("client", None))));
        assert!(!back.belongs_to(None));
        let loaded = Connection::new(ProtocolVersion::HTTP_DEFAULT, None, &budget);
        back.apply(&loaded, &Listed::default());
        assert_eq!(loaded.version(), ProtocolVersion::V2025_11_25);
        assert_eq!(loaded.log_level(), LogLevel::Warning);
        assert_eq!(loaded.lists(), opened.lists());
        assert_eq!(
            serde_json::to_value(&*loaded.client_capabilities()).unwrap(),
            json!({"roots": {}, "experimental": {}})
        );
    }
}
