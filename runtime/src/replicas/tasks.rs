//! Tasks shared by the replicas of one server: [`RedisTaskStore`] keeps each task's record in
//! Redis, and the bus carries what must reach the replica running a task (its answers, its
//! cancellation) and what listeners on every replica hear (its changes).

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use futures_util::future::BoxFuture;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use super::{BusMessage, Redis};
use crate::task::{
    FinishedCaps, TaskPeers, TaskRecord, TaskStatus, TaskStore, TaskStoreError, Tasks, too_large,
};

/// How long a running task's lease lasts: the replica running it renews it every half of it
/// (2 s), so a task whose replica died is reported `failed` by any replica within this time
/// after its death (plus the difference between the replicas' clocks).
pub(crate) const LEASE: Duration = Duration::from_secs(4);

/// How long a record with no expiry (written by an older version) is kept.
const UNBOUNDED_RECORD_TTL: Duration = Duration::from_hours(24);

/// The conditional write of [`TaskStore::put`], atomic in Redis: a task over (completed, failed,
/// cancelled: `TaskStatus::is_terminal`, `ARGV[3]`) is never overwritten. A finished one written
/// is counted against the budgets (its entry, beside its record, is what says it is over: the
/// record is never decoded here), and the oldest finished tasks past them are dropped (their
/// owner's first, then anyone's).
///
/// `KEYS`: the record's key; the finished tasks by expiry (a sorted set of ids); their entries
/// (a hash: id → `"{bytes} {owner}"`); what they hold (a hash: `count`, `bytes`, and
/// `count:{owner}`, `bytes:{owner}`); the record's owner's finished tasks by expiry.
/// `ARGV`: the record; its TTL in milliseconds; `1` when it is finished; the task id; its
/// expiry and now, in milliseconds since the epoch; its owner (`-` for none, `=` and the owner);
/// the key prefix; the caps (count, count per owner, bytes, bytes per owner).
/// 1 when written, 0 when not.
const PUT: &str = r"
-- A finished task kept has its entry among the finished, beside its record: never overwritten,
-- and the record itself never read here (a lease renewal does not parse it again).
if redis.call('HEXISTS', KEYS[3], ARGV[4]) == 1 and redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if ARGV[3] ~= '1' then
  return 1
end
local id, expiry, now, owner, prefix = ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8]
local caps = {tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11]), tonumber(ARGV[12])}
local order, entries, usage = KEYS[2], KEYS[3], KEYS[4]
local function owned(owner)
  return prefix .. 'tasks-finished-of:' .. owner
end
-- Forgets what `id` counted (its record dropped by Redis, or to be dropped).
local function forget(id)
  local entry = redis.call('HGET', entries, id)
  if not entry then
    return
  end
  local bytes, owner = string.match(entry, '^(%d+) (.*)$')
  redis.call('HDEL', entries, id)
  redis.call('ZREM', order, id)
  redis.call('ZREM', owned(owner), id)
  redis.call('HINCRBY', usage, 'count', -1)
  redis.call('HINCRBY', usage, 'bytes', -tonumber(bytes))
  if redis.call('HINCRBY', usage, 'count:' .. owner, -1) <= 0 then
    redis.call('HDEL', usage, 'count:' .. owner, 'bytes:' .. owner)
  else
    redis.call('HINCRBY', usage, 'bytes:' .. owner, -tonumber(bytes))
  end
end
local function over(suffix, count, bytes)
  local held = redis.call('HMGET', usage, 'count' .. suffix, 'bytes' .. suffix)
  return tonumber(held[1] or '0') > count or tonumber(held[2] or '0') > bytes
end
local function drop_oldest(of)
  local oldest = redis.call('ZRANGE', of, 0, 0)[1]
  if not oldest then
    return false
  end
  forget(oldest)
  redis.call('DEL', prefix .. 'task:' .. oldest, prefix .. 'task-cancel:' .. oldest)
  return true
end
-- The expired (Redis dropped their records), a hundred at a time at most.
for _, gone in ipairs(redis.call('ZRANGEBYSCORE', order, '-inf', now, 'LIMIT', 0, 100)) do
  forget(gone)
end
forget(id)
local bytes = string.len(ARGV[1])
redis.call('HSET', entries, id, bytes .. ' ' .. owner)
redis.call('ZADD', order, expiry, id)
redis.call('ZADD', KEYS[5], expiry, id)
redis.call('HINCRBY', usage, 'count', 1)
redis.call('HINCRBY', usage, 'bytes', bytes)
redis.call('HINCRBY', usage, 'count:' .. owner, 1)
redis.call('HINCRBY', usage, 'bytes:' .. owner, bytes)
while over(':' .. owner, caps[2], caps[4]) and drop_oldest(KEYS[5]) do
end
while over('', caps[1], caps[3]) and drop_oldest(order) do
end
-- Kept as long as the longest-lived record they count, and no longer (a task finished late
-- may expire before one finished earlier: never shortened).
for i = 2, 5 do
  if redis.call('PTTL', KEYS[i]) < tonumber(ARGV[2]) then
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
  end
end
return 1
";

/// [`TaskStore::request_cancel`]: the mark at `KEYS[2]`, beside the record at `KEYS[1]` and
/// dropped with it. 1 when the record is kept, 0 when not.
const CANCEL: &str = r"
local left = redis.call('PTTL', KEYS[1])
if left == -2 then
  return 0
elseif left == -1 then
  redis.call('SET', KEYS[2], '1')
else
  redis.call('SET', KEYS[2], '1', 'PX', left)
end
return 1
";

/// A [`TaskStore`] in Redis, shared by the replicas of one server: a task created on one is
/// polled, answered and cancelled on any other. Used by itself when a server serves HTTP with
/// Redis ([`HttpConfig::redis`](crate::http::HttpConfig::redis)) and no
/// [`Server::task_store`](crate::Server::task_store) was set (then with the `Server`'s caps on
/// finished tasks).
///
/// Each task is one JSON record at `{prefix}task:{id}`, which Redis drops at the task's expiry
/// (its `ttlMs` from creation); a cancellation asked through another replica is a mark beside
/// it, `{prefix}task-cancel:{id}`. A running task holds a lease of 4 seconds, renewed every 2 by
/// the replica running it: a task whose replica died is reported `failed` ("the process running
/// the task stopped …") within 4 seconds of its death. Finished tasks are kept within a count
/// and a byte budget, in all and per owner, as [`MemoryTaskStore`](crate::task::MemoryTaskStore)
/// keeps them (the same [`FinishedCaps`], given by [`within`](Self::within)): past one the oldest finished are dropped first,
/// and one too large to keep at all is kept as `failed`, saying so; what they hold is counted
/// under `{prefix}tasks-finished*`. See [`crate::redis`].
///
/// Set it yourself to keep the tasks under a prefix of their own, or in another Redis than the
/// sessions:
///
/// ```no_run
/// use mcp_toolbelt::Server;
/// use mcp_toolbelt::http::HttpConfig;
/// use mcp_toolbelt::redis::{Redis, RedisTaskStore};
/// use mcp_toolbelt::task::FinishedCaps;
///
/// # async fn serve() -> Result<(), mcp_toolbelt::Error> {
/// let redis = Redis::connect("redis://redis.internal:6379").await?;
/// let tasks = Redis::connect("redis://tasks.internal:6379").await?.prefix("reports:");
/// Server::new("reports", "1.0.0")
///     .task_store(RedisTaskStore::new(&tasks).within(FinishedCaps::default().max_bytes(512 << 20)))
///     .http_config(HttpConfig::new().redis_store(redis))
///     .serve_http("0.0.0.0:8080".parse().unwrap())
///     .await
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct RedisTaskStore {
    redis: Redis,
    put: Arc<redis::Script>,
    cancel: Arc<redis::Script>,
    caps: FinishedCaps,
}

impl RedisTaskStore {
    /// A store in `redis` (its key prefix included).
    #[must_use]
    pub fn new(redis: &Redis) -> Self {
        Self {
            redis: redis.clone(),
            put: Arc::new(redis::Script::new(PUT)),
            cancel: Arc::new(redis::Script::new(CANCEL)),
            caps: FinishedCaps::default(),
        }
    }

    /// This store keeping finished tasks within `caps` (by default, [`FinishedCaps`]'
    /// defaults; each task counted as its record's JSON text).
    #[must_use]
    pub fn within(mut self, caps: FinishedCaps) -> Self {
        self.caps = caps;
        self
    }

    fn key(&self, id: &str) -> String {
        self.redis.key("task", id)
    }

    fn cancel_key(&self, id: &str) -> String {
        self.redis.key("task-cancel", id)
    }

    /// A store error for the client, which names no secret (no URL, no key), and the whole error
    /// in the log; Redis marked down.
    fn failed(&self, doing: &str, error: &redis::RedisError) -> TaskStoreError {
        self.redis.failed(error);
        tracing::warn!(%error, "Redis could not {doing} a task");
        let why = if error.is_timeout() {
            "no answer in time"
        } else {
            error.category()
        };
        TaskStoreError::new(format!("Redis could not {doing} the task ({why})"))
    }

    /// Reads `ids`' records and cancellation marks in one `MGET`.
    async fn read(&self, ids: &[String]) -> Result<Vec<Option<TaskRecord>>, TaskStoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut get = redis::cmd("MGET");
        for id in ids {
            get.arg(self.key(id)).arg(self.cancel_key(id));
        }
        let texts: Vec<Option<String>> = get
            .query_async(&mut self.redis.connection())
            .await
            .map_err(|error| self.failed("read", &error))?;
        self.redis.succeeded();
        let now = SystemTime::now();
        ids.iter()
            .zip(texts.chunks(2))
            .map(|(id, pair)| {
                let Some(text) = pair.first().cloned().flatten() else {
                    return Ok(None);
                };
                let mut record: TaskRecord = serde_json::from_str(&text).map_err(|error| {
                    tracing::warn!(task = %id, %error, "a task record in Redis this version cannot read");
                    TaskStoreError::new(format!("the record of task {id} cannot be read"))
                })?;
                record.cancel_requested |= pair.get(1).is_some_and(Option::is_some);
                let expired = record.expires_at.is_some_and(|expiry| expiry <= now);
                Ok((!expired).then_some(record))
            })
            .collect()
    }
}

/// `record` as stored, and how long Redis keeps it (milliseconds, at least 1).
fn stored(record: &TaskRecord) -> Result<(String, u64), TaskStoreError> {
    let text = serde_json::to_string(record)
        .map_err(|error| TaskStoreError::new(format!("a task record as JSON: {error}")))?;
    let left = match record.expires_at {
        Some(expiry) => expiry.duration_since(SystemTime::now()).unwrap_or_default(),
        None => UNBOUNDED_RECORD_TTL,
    };
    let ms = u64::try_from(left.as_millis()).unwrap_or(u64::MAX).max(1);
    Ok((text, ms))
}

/// Milliseconds since the epoch.
fn epoch_ms(time: SystemTime) -> u64 {
    let since = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}

impl TaskStore for RedisTaskStore {
    fn create(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>> {
        Box::pin(async move {
            let (text, ms) = stored(&record)?;
            let set: redis::RedisResult<Option<String>> = redis::cmd("SET")
                .arg(self.key(&record.id))
                .arg(text)
                .arg("NX")
                .arg("PX")
                .arg(ms)
                .query_async(&mut self.redis.connection())
                .await;
            match set {
                Ok(Some(_)) => {
                    self.redis.succeeded();
                    Ok(())
                }
                Ok(None) => {
                    self.redis.succeeded();
                    Err(TaskStoreError::new(format!(
                        "a task {} exists already",
                        record.id
                    )))
                }
                Err(error) => Err(self.failed("create", &error)),
            }
        })
    }

    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>> {
        Box::pin(async move {
            let mut read = self.read(&[id.to_owned()]).await?;
            Ok(read.pop().flatten())
        })
    }

    fn get_many<'a>(
        &'a self,
        ids: &'a [String],
    ) -> BoxFuture<'a, Result<Vec<Option<TaskRecord>>, TaskStoreError>> {
        Box::pin(self.read(ids))
    }

    fn put(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>> {
        Box::pin(async move {
            let finished = record.status.is_terminal();
            let (mut text, mut ms) = stored(&record)?;
            let largest = self.caps.largest();
            if finished && text.len() > largest {
                (text, ms) = stored(&too_large(record.clone(), text.len(), largest))?;
            }
            let owner = match &record.owner {
                Some(owner) => format!("={owner}"),
                None => "-".to_owned(),
            };
            let mut put = self.put.key(self.key(&record.id));
            put.key(self.redis.key("tasks-finished", "order"))
                .key(self.redis.key("tasks-finished", "entries"))
                .key(self.redis.key("tasks-finished", "usage"))
                .key(self.redis.key("tasks-finished-of", &owner))
                .arg(text)
                .arg(ms)
                .arg(u8::from(finished))
                .arg(&record.id)
                .arg(epoch_ms(record.expires_at.unwrap_or(record.created_at)))
                .arg(epoch_ms(SystemTime::now()))
                .arg(&owner)
                .arg(self.redis.key_prefix())
                .arg(self.caps.count)
                .arg(self.caps.count_per_owner)
                .arg(self.caps.bytes)
                .arg(self.caps.bytes_per_owner);
            let written: redis::RedisResult<i64> =
                put.invoke_async(&mut self.redis.connection()).await;
            match written {
                Ok(_) => {
                    self.redis.succeeded();
                    Ok(())
                }
                Err(error) => Err(self.failed("write", &error)),
            }
        })
    }

    fn request_cancel<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool, TaskStoreError>> {
        Box::pin(async move {
            let marked: i64 = self
                .cancel
                .key(self.key(id))
                .key(self.cancel_key(id))
                .invoke_async(&mut self.redis.connection())
                .await
                .map_err(|error| self.failed("cancel", &error))?;
            self.redis.succeeded();
            Ok(marked == 1)
        })
    }

    fn lease(&self) -> Option<Duration> {
        Some(LEASE)
    }
}

/// The other replicas, reached through the bus.
struct BusPeers {
    redis: Redis,
}

impl TaskPeers for BusPeers {
    fn replica(&self) -> &str {
        self.redis.replica()
    }

    fn answer(&self, replica: &str, task: &str, answers: &Map<String, Value>) {
        self.redis.bus().publish(BusMessage::TaskAnswers {
            replica: replica.to_owned(),
            task: task.to_owned(),
            answers: Value::Object(answers.clone()),
        });
    }

    fn cancel(&self, replica: &str, task: &str) {
        self.redis.bus().publish(BusMessage::TaskCancel {
            replica: replica.to_owned(),
            task: task.to_owned(),
        });
    }

    fn changed(&self, task: &str, status: TaskStatus) {
        self.redis.bus().publish(BusMessage::TaskChanged {
            task: task.to_owned(),
            status,
        });
    }
}

/// Makes `tasks` one replica's among those sharing `redis`: its tasks name this replica, the
/// answers and cancellations other replicas receive for them arrive here over the bus, and its
/// changes are told there (and theirs here), until `closing`.
pub(crate) fn join(redis: &Redis, tasks: &Arc<Tasks>, closing: &CancellationToken) {
    if tokio::runtime::Handle::try_current().is_err() {
        // `Redis::start` logs it: the bus is not heard either.
        return;
    }
    tasks.join_peers(Arc::new(BusPeers {
        redis: redis.clone(),
    }));
    let me = redis.replica().to_owned();
    let tasks = Arc::downgrade(tasks);
    let lost = "tasks' answers, cancellations or changes";
    redis.bus().listen(closing.clone(), lost, move |message| {
        let Some(tasks) = tasks.upgrade() else {
            return false;
        };
        hear(&tasks, &me, message);
        true
    });
}

/// Applies what another replica said about tasks to `tasks` (this replica is `me`).
fn hear(tasks: &Tasks, me: &str, message: &BusMessage) {
    match message {
        BusMessage::TaskAnswers {
            replica,
            task,
            answers: Value::Object(answers),
        } if *replica == me => tasks.answered_elsewhere(task, answers),
        BusMessage::TaskCancel { replica, task } if *replica == me => {
            tasks.cancelled_elsewhere(task);
        }
        BusMessage::TaskChanged { task, status } => tasks.changed_elsewhere(task, *status),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether a task is over is `TaskStatus::is_terminal`'s to say (`ARGV[3]`): the script
    /// names no status, so there is no other list to drift; and it never decodes the record
    /// kept, so a lease renewal of a task does not parse its record again in Redis.
    #[test]
    fn the_put_script_names_no_status_and_decodes_no_record() {
        for status in TaskStatus::ALL {
            let name = serde_json::to_string(&status).unwrap().replace('"', "");
            assert!(!PUT.contains(&format!("'{name}'")), "{name}");
        }
        assert!(!PUT.contains("cjson"), "the record kept is decoded");
    }
}
