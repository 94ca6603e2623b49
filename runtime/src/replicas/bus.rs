//! The bus: one Redis pub/sub channel every replica subscribes to, for what one replica must
//! tell the others at once (a client's answer reached the wrong replica, a list changed, a task
//! moved on). Fire and forget: a message is for the replicas subscribed now; what must survive a
//! replica is written to keys, not only told here.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use futures_util::StreamExt as _;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

use super::Redis;
use crate::protocol::Change;

/// How many messages a subscriber may be behind before it misses some.
const CAPACITY: usize = 1024;

/// How long the subscription waits before it tries again after losing Redis.
const RESUBSCRIBE_AFTER: Duration = Duration::from_millis(500);

/// What one replica tells the others.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum BusMessage {
    /// A legacy client's response to a request `replica` sent it (`reply`: the JSON-RPC
    /// response object as the client wrote it), for the call waiting there.
    Answer {
        replica: String,
        session: String,
        reply: Value,
    },
    /// A legacy client's `notifications/cancelled` of its request `request` (its id), for the
    /// replica running it.
    Cancel { session: String, request: Value },
    /// A legacy session was ended (DELETE): its calls and GET stream end everywhere.
    SessionEnded { session: String },
    /// What a legacy session settled changed (`logging/setLevel`, `resources/subscribe`): the
    /// replicas that hold it apply `record` (its JSON text, as kept in Redis).
    SessionChanged { session: String, record: String },
    /// A list changed, or a resource's contents.
    Change { change: SharedChange },
    /// A task's status changed (for `subscriptions/listen` streams following it).
    TaskChanged { task: String, status: Value },
    /// A client's answers to the questions of task `task`, running on `replica`.
    TaskAnswers {
        replica: String,
        task: String,
        answers: Value,
    },
    /// A client cancelled task `task`, running on `replica`.
    TaskCancel { replica: String, task: String },
}

/// A [`Change`](crate::protocol::Change) as the bus carries it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub(crate) enum SharedChange {
    Tools,
    Prompts,
    Resources,
    ResourceUpdated { uri: String },
}

impl From<&Change> for SharedChange {
    fn from(change: &Change) -> Self {
        match change {
            Change::Tools => Self::Tools,
            Change::Prompts => Self::Prompts,
            Change::Resources => Self::Resources,
            Change::ResourceUpdated(uri) => Self::ResourceUpdated {
                uri: uri.to_string(),
            },
        }
    }
}

impl From<&SharedChange> for Change {
    fn from(change: &SharedChange) -> Self {
        match change {
            SharedChange::Tools => Self::Tools,
            SharedChange::Prompts => Self::Prompts,
            SharedChange::Resources => Self::Resources,
            SharedChange::ResourceUpdated { uri } => Self::ResourceUpdated(uri.as_str().into()),
        }
    }
}

/// A message on the wire: who sent it, and what.
#[derive(Serialize, Deserialize)]
struct Envelope {
    from: String,
    #[serde(flatten)]
    message: BusMessage,
}

/// The replicas' bus.
pub(crate) struct Bus {
    heard: broadcast::Sender<Arc<BusMessage>>,
    /// The connection it publishes and subscribes with, once started.
    redis: OnceLock<Redis>,
}

impl Default for Bus {
    fn default() -> Self {
        Self {
            heard: broadcast::channel(CAPACITY).0,
            redis: OnceLock::new(),
        }
    }
}

impl Bus {
    /// Tells the other replicas `message`; returns at once (a failure is logged and marks Redis
    /// down).
    pub(crate) fn publish(&self, message: BusMessage) {
        let Some(redis) = self.redis.get().cloned() else {
            tracing::debug!("a bus message before the bus started; dropped");
            return;
        };
        let envelope = Envelope {
            from: redis.replica().to_owned(),
            message,
        };
        let Ok(text) = serde_json::to_string(&envelope) else {
            return;
        };
        tokio::spawn(async move {
            let published: redis::RedisResult<()> = redis::cmd("PUBLISH")
                .arg(redis.bus_channel())
                .arg(text)
                .query_async(&mut redis.connection())
                .await;
            if let Err(error) = &published {
                tracing::warn!(%error, "a message to the other replicas was lost");
            }
            redis.outcome(&published);
        });
    }

    /// What the other replicas say from now on (never this replica's own messages).
    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Arc<BusMessage>> {
        self.heard.subscribe()
    }

    /// Subscribes to the channel until `closing`, subscribing again whenever the connection is
    /// lost.
    pub(super) fn start(&self, redis: Redis, closing: CancellationToken) {
        if self.redis.set(redis.clone()).is_err() {
            return; // started already (one Redis handle serving twice)
        }
        let heard = self.heard.clone();
        tokio::spawn(async move {
            while !closing.is_cancelled() {
                tokio::select! {
                    () = listen(&redis, &heard) => {}
                    () = closing.cancelled() => return,
                }
                tokio::select! {
                    () = tokio::time::sleep(RESUBSCRIBE_AFTER) => {}
                    () = closing.cancelled() => return,
                }
            }
        });
    }
}

/// One subscription: forwards the other replicas' messages to `heard` until the connection is
/// lost.
async fn listen(redis: &Redis, heard: &broadcast::Sender<Arc<BusMessage>>) {
    let subscribed = async {
        let mut pubsub = redis.client().get_async_pubsub().await?;
        pubsub.subscribe(redis.bus_channel()).await?;
        Ok::<_, redis::RedisError>(pubsub)
    };
    let pubsub = match tokio::time::timeout(super::RESPONSE_TIMEOUT, subscribed).await {
        Ok(Ok(pubsub)) => pubsub,
        Ok(Err(error)) => {
            redis.failed(&error);
            return;
        }
        Err(_) => return,
    };
    let mut messages = pubsub.into_on_message();
    while let Some(message) = messages.next().await {
        let Ok(text) = message.get_payload::<String>() else {
            continue;
        };
        match serde_json::from_str::<Envelope>(&text) {
            Ok(envelope) if envelope.from != redis.replica() => {
                let _ = heard.send(Arc::new(envelope.message));
            }
            Ok(_) => {} // our own
            Err(error) => tracing::debug!(%error, "a bus message this version cannot read"),
        }
    }
    tracing::warn!("lost the subscription to the other replicas' messages; subscribing again");
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_message_reads_back_as_written() {
        let envelope = Envelope {
            from: "r1".into(),
            message: BusMessage::Change {
                change: SharedChange::ResourceUpdated {
                    uri: "a://b".into(),
                },
            },
        };
        let text = serde_json::to_value(&envelope).unwrap();
        assert_eq!(
            text,
            json!({"from": "r1", "kind": "change", "change": {"what": "resource_updated", "uri": "a://b"}})
        );
        let back: Envelope = serde_json::from_value(text).unwrap();
        assert_eq!(back.message, envelope.message);
    }
}
