//! The bus: one Redis pub/sub channel every replica subscribes to, for what one replica must
//! tell the others at once (a client's answer reached the wrong replica, a list changed, a task
//! moved on). Fire and forget: a message is for the replicas subscribed now; what must survive a
//! replica is written to keys, not only told here.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use futures_util::StreamExt as _;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::{broadcast, mpsc};
use tokio_util::sync::CancellationToken;

use super::Redis;
use crate::protocol::Change;
use crate::sync::lock;
use crate::task::TaskStatus;

/// How many messages a subscriber may be behind before it misses some, and how many may wait
/// to be published before more are dropped.
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
    /// What a legacy session settled changed (`logging/setLevel`): the replicas that hold it
    /// apply `record` (its JSON text, as kept in Redis).
    SessionChanged { session: String, record: String },
    /// A legacy session subscribed to `uri` (or unsubscribed): its `generation`th change of
    /// subscriptions. A replica that holds the session at the one before applies it; one that
    /// missed a change reads them whole at the session's next request.
    SessionSubscription {
        session: String,
        uri: String,
        subscribed: bool,
        generation: u64,
    },
    /// A list changed, or a resource's contents.
    Change { change: SharedChange },
    /// A task's status changed (for `subscriptions/listen` streams following it).
    TaskChanged { task: String, status: TaskStatus },
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
    /// What waits to be published, in order, by one task ([`send_out`]): bounded, so a burst
    /// or a slow Redis drops messages (logged) instead of holding them without bound.
    outbox: mpsc::Sender<BusMessage>,
    /// Its other end, until the bus starts.
    unsent: Mutex<Option<mpsc::Receiver<BusMessage>>>,
    /// The connection it publishes and subscribes with, once started.
    redis: OnceLock<Redis>,
}

impl Default for Bus {
    fn default() -> Self {
        let (outbox, unsent) = mpsc::channel(CAPACITY);
        Self {
            heard: broadcast::channel(CAPACITY).0,
            outbox,
            unsent: Mutex::new(Some(unsent)),
            redis: OnceLock::new(),
        }
    }
}

impl Bus {
    /// Tells the other replicas `message`; returns at once. Messages are published in the
    /// order given; one that finds [`CAPACITY`] others still waiting (a burst, a slow Redis) is
    /// dropped, and a failure to publish marks Redis down: both are logged.
    pub(crate) fn publish(&self, message: BusMessage) {
        let Some(redis) = self.redis.get() else {
            tracing::debug!("a bus message before the bus started; dropped");
            return;
        };
        if let Err(mpsc::error::TrySendError::Full(_)) = self.outbox.try_send(message) {
            if redis.is_up() {
                tracing::warn!("too many messages to the other replicas waiting: one was dropped");
            } else {
                // The outage was logged once; each message it drops is not.
                tracing::debug!("Redis is down: a message to the other replicas was dropped");
            }
        }
    }

    /// What the other replicas say from now on (never this replica's own messages).
    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Arc<BusMessage>> {
        self.heard.subscribe()
    }

    /// Hands each message the other replicas send from now on to `hear`, until `closing` or
    /// until `hear` returns `false` (what it served is gone). Messages missed by falling behind
    /// are logged as what `lost` names.
    pub(crate) fn listen(
        &self,
        closing: CancellationToken,
        lost: &'static str,
        mut hear: impl FnMut(&BusMessage) -> bool + Send + 'static,
    ) {
        let mut heard = self.subscribe();
        tokio::spawn(async move {
            loop {
                let message = tokio::select! {
                    message = heard.recv() => message,
                    () = closing.cancelled() => return,
                };
                match message {
                    Ok(message) => {
                        if !hear(&message) {
                            return;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(missed)) => {
                        tracing::warn!(missed, "messages from the other replicas missed: {lost}");
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                }
            }
        });
    }

    /// Subscribes to the channel until `closing`, subscribing again whenever the connection is
    /// lost.
    pub(super) fn start(&self, redis: Redis, closing: CancellationToken) {
        if self.redis.set(redis.clone()).is_err() {
            return; // started already (one Redis handle serving twice)
        }
        if let Some(unsent) = lock(&self.unsent).take() {
            tokio::spawn(send_out(redis.clone(), unsent, closing.clone()));
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

/// How many waiting messages one round trip publishes.
const BATCH: usize = 64;

/// Publishes what waits in `unsent`, in order, until `closing`: what waits is sent in one
/// pipeline (one round trip, however many).
async fn send_out(
    redis: Redis,
    mut unsent: mpsc::Receiver<BusMessage>,
    closing: CancellationToken,
) {
    let channel = redis.bus_channel();
    let mut batch = Vec::with_capacity(BATCH);
    loop {
        let taken = tokio::select! {
            taken = unsent.recv_many(&mut batch, BATCH) => taken,
            () = closing.cancelled() => return,
        };
        if taken == 0 {
            return;
        }
        let mut pipeline = redis::pipe();
        for message in batch.drain(..) {
            let envelope = Envelope {
                from: redis.replica().to_owned(),
                message,
            };
            if let Ok(text) = serde_json::to_string(&envelope) {
                pipeline.cmd("PUBLISH").arg(&channel).arg(text).ignore();
            }
        }
        let published: redis::RedisResult<()> = pipeline.query_async(&mut redis.connection()).await;
        if let Err(error) = &published {
            tracing::warn!(%error, lost = taken, "messages to the other replicas were lost");
        }
        redis.outcome(&published);
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
