//! Legacy sessions in Redis: what `initialize` settled (the version, the client's
//! capabilities, the lists it hears, its log level, its owner) is a JSON record at
//! `session:{id}`, with the session's idle TTL, so that any replica serves any request of the
//! session. Its resource subscriptions are a hash beside it, `subscriptions:{id}` (each URI or
//! template a field; the field `""` counts the changes), changed one URI at a time and told to
//! the other replicas as that one URI: a subscription costs the same whatever came before it.
//! Every session is also in `sessions` (and, with bearer auth, `sessions-of:{principal}`),
//! sorted sets scored by expiry, which bound how many Redis holds in all and per principal.
//!
//! The transport (`transport::http::sessions`) keeps a cache of the sessions it serves (their
//! calls, their questions, their GET stream) and reads the record once per request: `GETEX … PX`
//! refreshes the TTL and tells whether the session still exists; the subscriptions' count of
//! changes, read in the same round trip, tells whether its copy of them is current.

use std::collections::HashSet;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::{BusMessage, Redis};
use crate::client_capabilities::ClientCapabilities;
use crate::context::LogLevel;
use crate::principal::Principal;
use crate::protocol::{Connection, Lists, ProtocolVersion};
use crate::registry::Listed;
use crate::visibility::Toggles;

/// The largest session record Redis keeps (its JSON text), so that no client makes a record of
/// any size: past it, `initialize` is refused.
pub(crate) const MAX_RECORD_BYTES: usize = 16 * 1024;

/// What a legacy session settled, as kept in Redis (its subscriptions apart, in their hash).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct SessionRecord {
    /// The negotiated version; `None` before `initialize` answered.
    version: Option<String>,
    /// What the server reads of the client's capabilities, never the client's tree.
    capabilities: ClientCapabilities,
    log_level: LogLevel,
    hears: HeardLists,
    /// `Principal::key` of who opened it (bearer auth), nobody else may use it.
    owner: Option<String>,
    /// The tags the session enabled or disabled for itself (`Context::enable_tags`), at most
    /// `visibility::MAX_SESSION_TAG_BYTES` of them.
    #[serde(default, skip_serializing_if = "Toggles::is_empty")]
    tags: Toggles,
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
            owner: owner.map(Principal::key),
            tags: connection
                .chosen_tags()
                .map(|tags| Toggles::clone(&tags))
                .unwrap_or_default(),
        }
    }

    /// Whether `principal` may use the session: the one who opened it.
    pub(crate) fn belongs_to(&self, principal: Option<&Principal>) -> bool {
        self.owner == principal.map(Principal::key)
    }

    /// Makes `connection` what the record says (a session loaded by this replica, or changed by
    /// another).
    pub(crate) fn apply(&self, connection: &Connection) {
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
        connection.tags().restore(self.tags.clone());
    }
}

/// Makes `connection`'s subscriptions the URIs and templates `held` (a session's hash, read
/// whole: loaded by this replica, or changed while it missed the word); those `resources` no
/// longer serve are left out.
pub(crate) fn apply_subscriptions(connection: &Connection, held: &[String], resources: &Listed) {
    let wanted: HashSet<&str> = held.iter().map(String::as_str).collect();
    let subscriptions = connection.subscriptions();
    for had in subscriptions
        .uris()
        .into_iter()
        .chain(subscriptions.templates())
    {
        if !wanted.contains(had.as_str()) {
            subscriptions.unsubscribe(&had);
        }
    }
    for uri in wanted {
        let _ = subscriptions.subscribe(uri, resources);
    }
}

/// What one request read of its session.
pub(crate) struct Loaded {
    /// The record's text; `None` when there is none (never opened, ended, expired).
    pub(crate) record: Option<String>,
    /// The count of changes to its subscriptions.
    pub(crate) generation: u64,
    /// Its subscriptions, when asked for.
    pub(crate) subscriptions: Option<Vec<String>>,
}

/// What [`SharedSessions::load`] reads: the record, the count of changes to the
/// subscriptions, and (when asked for) the subscriptions.
type Read = (Option<String>, Option<u64>, Option<Vec<String>>);

/// Why a new session was not written.
pub(crate) enum NotOpened {
    /// Redis holds as many sessions as the server may.
    Full,
    /// Redis could not be used.
    Redis(redis::RedisError),
}

/// The field of a subscriptions hash that counts its changes (no URI is empty).
const GENERATION: &str = "";

/// Opens a session: its record written, its place taken in `sessions` (and its owner's set),
/// expired places given back first. A principal at its cap gives up its session that expires
/// first (its id returned, for the replicas to end it; else `''`); a server at its cap opens
/// none (`full`: no id is four letters).
/// KEYS: record, `sessions`, [`sessions-of:{owner}`]; ARGV: record text, TTL ms, the cap, the
/// cap per principal, the id, the key prefix.
const OPEN: &str = r"
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local ttl = tonumber(ARGV[2])
local evicted = ''
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if KEYS[3] then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[4]) then
    local oldest = redis.call('ZRANGE', KEYS[3], 0, 0)[1]
    redis.call('DEL', ARGV[6] .. 'session:' .. oldest, ARGV[6] .. 'subscriptions:' .. oldest)
    redis.call('ZREM', KEYS[2], oldest)
    redis.call('ZREM', KEYS[3], oldest)
    evicted = oldest
  end
end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then
  return 'full'
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
redis.call('ZADD', KEYS[2], now + ttl, ARGV[5])
if KEYS[3] then
  redis.call('ZADD', KEYS[3], now + ttl, ARGV[5])
  if redis.call('PTTL', KEYS[3]) < ttl then
    redis.call('PEXPIRE', KEYS[3], ttl)
  end
end
return evicted
";

/// Changes one subscription of a session that still exists (`-1` when it does not):
/// subscribes (`ARGV[2]` is `1`) or unsubscribes URI `ARGV[1]`, keeps the hash as long as the
/// record (`ARGV[3]` ms); the count of changes after it, or `0` when nothing changed.
/// KEYS: record, hash.
const SUBSCRIBE: &str = r"
if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
local changed
if ARGV[2] == '1' then
  changed = redis.call('HSET', KEYS[2], ARGV[1], '1')
else
  changed = redis.call('HDEL', KEYS[2], ARGV[1])
end
local generation = 0
if changed == 1 then
  generation = redis.call('HINCRBY', KEYS[2], '', 1)
end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return generation
";

/// The sessions of one server in Redis.
#[derive(Clone)]
pub(crate) struct SharedSessions {
    redis: Redis,
    open: std::sync::Arc<redis::Script>,
    subscribe: std::sync::Arc<redis::Script>,
}

impl SharedSessions {
    pub(crate) fn new(redis: Redis) -> Self {
        Self {
            redis,
            open: std::sync::Arc::new(redis::Script::new(OPEN)),
            subscribe: std::sync::Arc::new(redis::Script::new(SUBSCRIBE)),
        }
    }

    pub(crate) fn redis(&self) -> &Redis {
        &self.redis
    }

    fn owned_by(&self, owner: Option<&Principal>) -> Option<String> {
        owner.map(|owner| self.redis.key("sessions-of", &owner.key()))
    }

    /// Session `id` of `principal` (one round trip): its record, its TTL set to `ttl` when given
    /// (`GETEX … PX`, else `GET`; its subscriptions and its places in the sorted sets too), the
    /// count of changes to its subscriptions, and, when `whole`, its subscriptions.
    pub(crate) async fn load(
        &self,
        id: &str,
        principal: Option<&Principal>,
        ttl: Option<Duration>,
        whole: bool,
    ) -> redis::RedisResult<Loaded> {
        let key = self.redis.key("session", id);
        let subscriptions = self.redis.key("subscriptions", id);
        let mut pipe = redis::pipe();
        if let Some(ttl) = ttl {
            pipe.cmd("GETEX").arg(&key).arg("PX").arg(millis(ttl));
            pipe.cmd("PEXPIRE")
                .arg(&subscriptions)
                .arg(millis(ttl))
                .ignore();
            self.place(&mut pipe, id, principal, ttl);
        } else {
            pipe.cmd("GET").arg(&key);
        }
        pipe.cmd("HGET").arg(&subscriptions).arg(GENERATION);
        if whole {
            pipe.cmd("HKEYS").arg(&subscriptions);
        }
        let loaded: redis::RedisResult<Read> = if whole {
            pipe.query_async(&mut self.redis.connection()).await
        } else {
            pipe.query_async(&mut self.redis.connection())
                .await
                .map(|(record, generation)| (record, generation, None))
        };
        self.redis.outcome(&loaded);
        let (record, generation, subscriptions) = loaded?;
        Ok(Loaded {
            record,
            generation: generation.unwrap_or(0),
            subscriptions: subscriptions.map(|mut held| {
                held.retain(|field| field != GENERATION);
                held
            }),
        })
    }

    /// Session `id`'s subscriptions, read whole, and the count of their changes.
    pub(crate) async fn subscriptions(&self, id: &str) -> redis::RedisResult<(u64, Vec<String>)> {
        let key = self.redis.key("subscriptions", id);
        let mut pipe = redis::pipe();
        pipe.cmd("HGET").arg(&key).arg(GENERATION);
        pipe.cmd("HKEYS").arg(&key);
        let read: redis::RedisResult<(Option<u64>, Vec<String>)> =
            pipe.query_async(&mut self.redis.connection()).await;
        self.redis.outcome(&read);
        let (generation, mut held) = read?;
        held.retain(|field| field != GENERATION);
        Ok((generation.unwrap_or(0), held))
    }

    /// Moves session `id`'s expiry in the sorted sets to `ttl` (the idle timeout) from now
    /// (`XX`: never adds one that is gone).
    fn place(
        &self,
        pipe: &mut redis::Pipeline,
        id: &str,
        owner: Option<&Principal>,
        ttl: Duration,
    ) {
        let expiry = now_ms().saturating_add(millis(ttl));
        pipe.cmd("ZADD")
            .arg(self.redis.key("sessions", "all"))
            .arg("XX")
            .arg(expiry)
            .arg(id)
            .ignore();
        if let Some(owned) = self.owned_by(owner) {
            pipe.cmd("ZADD")
                .arg(&owned)
                .arg("XX")
                .arg(expiry)
                .arg(id)
                .ignore();
            // `ttl` is the idle timeout, the longest any of its sessions lives from now: the
            // set goes once they all have.
            pipe.cmd("PEXPIRE").arg(owned).arg(millis(ttl)).ignore();
        }
    }

    /// Writes new session `id`'s record, to live `ttl` from now, within `max` sessions in all
    /// and `per_principal` for its `owner`. `Ok(Some(id))`: the owner's session that made room
    /// (ended everywhere already).
    pub(crate) async fn open(
        &self,
        id: &str,
        record: &str,
        owner: Option<&Principal>,
        ttl: Duration,
        (max, per_principal): (usize, usize),
    ) -> Result<Option<String>, NotOpened> {
        let mut invocation = self.open.prepare_invoke();
        invocation
            .key(self.redis.key("session", id))
            .key(self.redis.key("sessions", "all"));
        if let Some(owned) = self.owned_by(owner) {
            invocation.key(owned);
        }
        invocation
            .arg(record)
            .arg(millis(ttl))
            .arg(max)
            .arg(per_principal)
            .arg(id)
            .arg(self.redis.key_prefix());
        let opened: redis::RedisResult<String> =
            invocation.invoke_async(&mut self.redis.connection()).await;
        self.redis.outcome(&opened);
        let evicted = opened.map_err(NotOpened::Redis)?;
        match evicted.as_str() {
            "" => Ok(None),
            "full" => Err(NotOpened::Full),
            _ => {
                self.redis.bus().publish(BusMessage::SessionEnded {
                    session: evicted.clone(),
                });
                Ok(Some(evicted))
            }
        }
    }

    /// Writes session `id`'s record, to live `ttl` from now, if it still exists (never one
    /// ended or expired meanwhile, which would bring it back). `false` when it no longer
    /// exists.
    pub(crate) async fn save(
        &self,
        id: &str,
        record: &str,
        owner: Option<&Principal>,
        ttl: Duration,
    ) -> redis::RedisResult<bool> {
        let mut pipe = redis::pipe();
        pipe.cmd("SET")
            .arg(self.redis.key("session", id))
            .arg(record)
            .arg("PX")
            .arg(millis(ttl))
            .arg("XX");
        pipe.cmd("PEXPIRE")
            .arg(self.redis.key("subscriptions", id))
            .arg(millis(ttl))
            .ignore();
        self.place(&mut pipe, id, owner, ttl);
        let saved: redis::RedisResult<(Option<String>,)> =
            pipe.query_async(&mut self.redis.connection()).await;
        self.redis.outcome(&saved);
        saved.map(|(reply,)| reply.is_some())
    }

    /// Subscribes session `id` to `uri` (or unsubscribes it), its hash kept `ttl` from now, and
    /// tells the other replicas: that one URI, never the whole. `Ok(None)` when the session no
    /// longer exists; else the count of changes after it, when it changed anything.
    pub(crate) async fn subscribe(
        &self,
        id: &str,
        uri: &str,
        subscribed: bool,
        ttl: Duration,
    ) -> redis::RedisResult<Option<Option<u64>>> {
        let changed: redis::RedisResult<i64> = self
            .subscribe
            .key(self.redis.key("session", id))
            .key(self.redis.key("subscriptions", id))
            .arg(uri)
            .arg(if subscribed { "1" } else { "0" })
            .arg(millis(ttl))
            .invoke_async(&mut self.redis.connection())
            .await;
        self.redis.outcome(&changed);
        let Ok(generation) = u64::try_from(changed?) else {
            return Ok(None);
        };
        if generation == 0 {
            return Ok(Some(None));
        }
        self.redis.bus().publish(BusMessage::SessionSubscription {
            session: id.to_owned(),
            uri: uri.to_owned(),
            subscribed,
            generation,
        });
        Ok(Some(Some(generation)))
    }

    /// Keeps the sessions `ids` (with their owners) alive for `ttl` from now (in one round
    /// trip): those with a stream open or a call running here, which may send no request for
    /// longer than their TTL. For each, whether it still exists.
    pub(crate) async fn keep(
        &self,
        ids: &[(String, Option<Principal>)],
        ttl: Duration,
    ) -> redis::RedisResult<Vec<bool>> {
        let mut pipeline = redis::pipe();
        for (id, owner) in ids {
            pipeline
                .cmd("PEXPIRE")
                .arg(self.redis.key("session", id))
                .arg(millis(ttl));
            pipeline
                .cmd("PEXPIRE")
                .arg(self.redis.key("subscriptions", id))
                .arg(millis(ttl))
                .ignore();
            self.place(&mut pipeline, id, owner.as_ref(), ttl);
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

    /// Ends session `id` of `owner` everywhere: its record, its subscriptions and its places go,
    /// the other replicas are told.
    pub(crate) async fn end(&self, id: &str, owner: Option<&Principal>) -> redis::RedisResult<()> {
        let mut pipe = redis::pipe();
        pipe.cmd("DEL")
            .arg(self.redis.key("session", id))
            .arg(self.redis.key("subscriptions", id))
            .ignore();
        pipe.cmd("ZREM")
            .arg(self.redis.key("sessions", "all"))
            .arg(id)
            .ignore();
        if let Some(owned) = self.owned_by(owner) {
            pipe.cmd("ZREM").arg(owned).arg(id).ignore();
        }
        let deleted: redis::RedisResult<()> = pipe.query_async(&mut self.redis.connection()).await;
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

/// Now, in milliseconds since the Unix epoch (the sorted sets' scores).
fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| {
            u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
        })
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
        back.apply(&loaded);
        assert_eq!(loaded.version(), ProtocolVersion::V2025_11_25);
        assert_eq!(loaded.log_level(), LogLevel::Warning);
        assert_eq!(loaded.lists(), opened.lists());
        assert_eq!(
            serde_json::to_value(&*loaded.client_capabilities()).unwrap(),
            json!({"roots": {}, "experimental": {}})
        );
    }
}
