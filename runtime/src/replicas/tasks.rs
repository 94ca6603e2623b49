//! Tasks shared by the replicas of one server: [`RedisTaskStore`] keeps each task's record in
//! Redis, and the bus carries what must reach the replica running a task (its answers, its
//! cancellation) and what listeners on every replica hear (its changes).

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use futures_util::future::BoxFuture;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use super::{BusMessage, Redis};
use crate::task::{TaskPeers, TaskRecord, TaskStatus, TaskStore, TaskStoreError, Tasks};

/// How long a running task's lease lasts: the replica running it renews it every half of it
/// (2 s), so a task whose replica died is reported `failed` by any replica within this time
/// after its death (plus the difference between the replicas' clocks).
pub(crate) const LEASE: Duration = Duration::from_secs(4);

/// How long a record with no expiry (written by an older version) is kept.
const UNBOUNDED_RECORD_TTL: Duration = Duration::from_hours(24);

/// The conditional write of [`TaskStore::put`], atomic in Redis: a task over (completed, failed,
/// cancelled) is never overwritten; one whose cancellation was asked is written with
/// `cancel_requested` kept (`ARGV[2]`, the record with it set, rather than `ARGV[1]`).
/// `KEYS[1]`: the record's key; `ARGV[3]`: its TTL in milliseconds. 1 when written, 0 when not.
const PUT: &str = r"
local kept = redis.call('GET', KEYS[1])
local record = ARGV[1]
if kept then
  local ok, decoded = pcall(cjson.decode, kept)
  if ok and type(decoded) == 'table' then
    local status = decoded['status']
    if status == 'completed' or status == 'failed' or status == 'cancelled' then
      return 0
    end
    if decoded['cancel_requested'] == true then
      record = ARGV[2]
    end
  end
end
redis.call('SET', KEYS[1], record, 'PX', ARGV[3])
return 1
";

/// A [`TaskStore`] in Redis, shared by the replicas of one server: a task created on one is
/// polled, answered and cancelled on any other. Used by itself when a server serves HTTP with
/// Redis ([`HttpConfig::redis`](crate::http::HttpConfig::redis)) and no
/// [`Server::task_store`](crate::Server::task_store) was set.
///
/// Each task is one JSON record at `{prefix}task:{id}`, which Redis drops at the task's expiry
/// (its `ttlMs` from creation). A running task holds a lease of 4 seconds, renewed every 2 by
/// the replica running it: a task whose replica died is reported `failed` ("the process running
/// the task stopped …") within 4 seconds of its death. See [`crate::redis`].
///
/// Set it yourself to keep the tasks under a prefix of their own, or in another Redis than the
/// sessions:
///
/// ```no_run
/// use mcp_toolbelt::Server;
/// use mcp_toolbelt::http::HttpConfig;
/// use mcp_toolbelt::redis::{Redis, RedisTaskStore};
///
/// # async fn serve() -> Result<(), mcp_toolbelt::Error> {
/// let redis = Redis::connect("redis://redis.internal:6379").await?;
/// let tasks = Redis::connect("redis://tasks.internal:6379").await?.prefix("reports:");
/// Server::new("reports", "1.0.0")
///     .task_store(RedisTaskStore::new(&tasks))
///     .http_config(HttpConfig::new().redis_store(redis))
///     .serve_http("0.0.0.0:8080".parse().unwrap())
///     .await
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct RedisTaskStore {
    redis: Redis,
    put: Arc<redis::Script>,
}

impl RedisTaskStore {
    /// A store in `redis` (its key prefix included).
    #[must_use]
    pub fn new(redis: &Redis) -> Self {
        Self {
            redis: redis.clone(),
            put: Arc::new(redis::Script::new(PUT)),
        }
    }

    fn key(&self, id: &str) -> String {
        self.redis.key("task", id)
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
            let text: Option<String> = redis::cmd("GET")
                .arg(self.key(id))
                .query_async(&mut self.redis.connection())
                .await
                .map_err(|error| self.failed("read", &error))?;
            self.redis.succeeded();
            let Some(text) = text else {
                return Ok(None);
            };
            let record: TaskRecord = serde_json::from_str(&text).map_err(|error| {
                tracing::warn!(task = %id, %error, "a task record in Redis this version cannot read");
                TaskStoreError::new(format!("the record of task {id} cannot be read"))
            })?;
            let expired = record
                .expires_at
                .is_some_and(|expiry| expiry <= SystemTime::now());
            Ok((!expired).then_some(record))
        })
    }

    fn put(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>> {
        Box::pin(async move {
            let (text, ms) = stored(&record)?;
            let cancelled = if record.cancel_requested {
                text.clone()
            } else {
                stored(&TaskRecord {
                    cancel_requested: true,
                    ..record.clone()
                })?
                .0
            };
            let written: redis::RedisResult<i64> = self
                .put
                .key(self.key(&record.id))
                .arg(text)
                .arg(cancelled)
                .arg(ms)
                .invoke_async(&mut self.redis.connection())
                .await;
            match written {
                Ok(_) => {
                    self.redis.succeeded();
                    Ok(())
                }
                Err(error) => Err(self.failed("write", &error)),
            }
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
            status: Value::from(status.as_str()),
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
        BusMessage::TaskChanged { task, status } => {
            if let Ok(status) = serde_json::from_value::<TaskStatus>(status.clone()) {
                tasks.changed_elsewhere(task, status);
            }
        }
        _ => {}
    }
}
