//! `subscriptions/listen` (2026-07-28): a request that stays open and carries notifications of
//! what the client subscribed to, until the client cancels it or the server shuts down.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Value, json};
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

use super::changes::Heard;
use super::scope::RequestScope;
use super::subscriptions::{Listener, Lists, Requested, Subscriptions};
use super::{Changes, meta};
use crate::jsonrpc::{ErrorObject, Id, Method, Notification, Outgoing};
use crate::task::{DetailedTask, TaskChange, TaskStatus, Tasks, to_json};

/// The tasks a stream follows: every task's changes, and how to read the caller's own.
pub(crate) struct FollowedTasks {
    changes: broadcast::Receiver<TaskChange>,
    tasks: Arc<Tasks>,
    owner: Option<String>,
    /// With a store shared by processes, when to read the followed tasks again
    /// ([`Tasks::read_again_every`]): a task whose process died has no change to tell.
    read_again: Option<tokio::time::Interval>,
}

/// How many followed tasks are read from the store in one call (up to
/// `tasks::MAX_LISTENED_TASKS` follow one stream).
const READ_TOGETHER: usize = 64;

/// What a stream following tasks hears next.
enum TaskNews {
    Changed(Result<TaskChange, broadcast::error::RecvError>),
    /// Time to read again the tasks not over.
    ReadAgain,
}

impl FollowedTasks {
    /// Follows `tasks`' changes heard on `changes` (subscribed before the tasks were first
    /// read), reading them as `owner`.
    pub(crate) fn new(
        changes: broadcast::Receiver<TaskChange>,
        tasks: Arc<Tasks>,
        owner: Option<String>,
    ) -> Self {
        let read_again = tasks.read_again_every().map(|period| {
            let mut interval =
                tokio::time::interval_at(tokio::time::Instant::now() + period, period);
            interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            interval
        });
        Self {
            changes,
            tasks,
            owner,
            read_again,
        }
    }

    /// The tasks `ids` as `tasks/get` answers them now, read together (`None`: gone, or the
    /// store failed).
    async fn read(&self, ids: &[String]) -> Vec<Option<DetailedTask>> {
        match self.tasks.get_many(ids, self.owner.as_deref()).await {
            Ok(read) => read,
            Err(_) => ids.iter().map(|_| None).collect(),
        }
    }

    async fn next(&mut self) -> TaskNews {
        let Self {
            changes,
            read_again,
            ..
        } = self;
        let due = async {
            match read_again {
                Some(read_again) => {
                    read_again.tick().await;
                }
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            change = changes.recv() => TaskNews::Changed(change),
            () = due => TaskNews::ReadAgain,
        }
    }
}

/// Adds to `to_read` the followed tasks (`task_ids`) that `news` says to read again, given
/// each one's last state `sent`; `false` once no change can come any more.
fn followed_tasks_to_read(
    news: TaskNews,
    task_ids: &[String],
    sent: &HashMap<String, Sent>,
    to_read: &mut Vec<String>,
) -> bool {
    match news {
        TaskNews::Changed(Ok(change)) if task_ids.iter().any(|id| **id == *change.id) => {
            // A task over and already sent so has nothing more to say.
            let said = sent
                .get(&*change.id)
                .is_some_and(|(status, _)| change.status.is_terminal() && *status == change.status);
            if !said {
                to_read.push(change.id.to_string());
            }
        }
        TaskNews::Changed(Ok(_)) => {}
        // Changes were missed: every followed task is read anew.
        TaskNews::Changed(Err(broadcast::error::RecvError::Lagged(_))) => {
            *to_read = task_ids.to_vec();
        }
        TaskNews::Changed(Err(broadcast::error::RecvError::Closed)) => return false,
        // Those not over (a state already sent is not sent again).
        TaskNews::ReadAgain => {
            *to_read = task_ids
                .iter()
                .filter(|id| {
                    !sent
                        .get(*id)
                        .is_some_and(|(status, _)| status.is_terminal())
                })
                .cloned()
                .collect();
        }
    }
    true
}

/// A task's state last sent on a stream: its status and `lastUpdatedAt`.
type Sent = (TaskStatus, String);

/// Waits until the output has room for one more notification; `false` when the stream ends
/// meanwhile.
async fn room_for(scope: &RequestScope, closing: &CancellationToken) -> bool {
    let Some(room) = &scope.room else {
        return true;
    };
    tokio::select! {
        () = room.take() => true,
        () = closing.cancelled() => false,
        () = scope.cancellation.cancelled() => false,
    }
}

/// One `subscriptions/listen` stream (2026-07-28), built once its request is admitted and its
/// tasks read: it acknowledges the notifications it will send (`requested`, as far as
/// honoured), then ([`ListenStream::run`]) sends each change it heard as `requested` hears it
/// (`notifications/{tools,prompts,resources}/list_changed`, `notifications/resources/updated`
/// for a URI subscribed to), each tagged with the stream's subscription id (the request's id),
/// and answers only when `closing` is cancelled (the server shuts down). The client ends it by
/// cancelling the request (on HTTP, by closing the stream): then nothing more is sent. It holds
/// nothing of the request but its id and the subscriptions it honours (bounded:
/// `subscriptions::MAX_SUBSCRIBED_BYTES`). It sends a change only when the output has room for
/// it (`scope.room`): a client that stops reading holds a bounded queue, and the stream falls
/// behind the server's changes, then is told what it missed: every list it hears and every URI
/// it subscribed to; or, when it subscribed to a template (whose changed URIs cannot be named),
/// it ends with its result, for the client to listen again.
///
/// With the tasks extension, it also sends `notifications/tasks` (each a `DetailedTask`, read
/// from the store as `tasks/get` answers it) for each task of `requested.task_ids`: its state
/// right after the acknowledgement, then at each change (a state already sent is not sent
/// again); a stream that fell behind the changes reads all its tasks anew. With a store shared
/// by processes it also reads its tasks not over again every half lease: a task whose process
/// died is heard `failed` though nothing tells its change.
///
/// Built before its future is made, and run in place: the future of a stream, which lasts,
/// holds its state once, not a second time as the arguments it was made of.
pub(crate) struct ListenStream {
    /// Its subscription id (the request's id), which tags each notification. Kept as the
    /// id alone: the `_meta` object around it is built per notification, as it is sent.
    subscription_id: Value,
    lists: Lists,
    subscriptions: Subscriptions,
    /// Whether it hears any of the server's changes (else only its tasks').
    hears_anything: bool,
    tasks: TaskStream,
    changes: Changes,
    scope: RequestScope,
}

impl ListenStream {
    /// The stream of request `id`, following `requested` (the server's `changes`, and the
    /// `followed` tasks): its acknowledgement is sent now.
    pub(crate) fn new(
        id: &Id,
        requested: Requested,
        (changes, followed): (Changes, Option<FollowedTasks>),
        scope: RequestScope,
    ) -> Self {
        let subscription_id = id.to_value();
        Tagged {
            subscription_id: &subscription_id,
            scope: &scope,
        }
        .notify(
            Method::SubscriptionAcknowledged,
            Some(json!({"notifications": requested.acknowledged()})),
        );
        // What it holds from here on: the lists it hears and its subscriptions.
        let Requested {
            lists,
            subscriptions,
            honoured_uris,
            task_ids,
        } = requested;
        Self {
            subscription_id,
            lists,
            subscriptions,
            hears_anything: lists != Lists::default() || honoured_uris.is_some(),
            tasks: TaskStream::new(followed, task_ids.unwrap_or_default()),
            changes,
            scope,
        }
    }

    /// Sends what it hears until the client or the server ends it; its result. Borrowed, so
    /// that the future holding the stream holds it once (an async fn holds an argument taken by
    /// value twice).
    pub(crate) async fn run(&mut self, closing: &CancellationToken) -> Result<Value, ErrorObject> {
        let Self {
            subscription_id,
            lists,
            subscriptions,
            hears_anything,
            tasks,
            changes,
            scope,
        } = self;
        let out = Tagged {
            subscription_id,
            scope,
        };
        let listener = Listener {
            lists: *lists,
            subscriptions,
        };
        loop {
            if !tasks.send_news(&out, closing).await {
                break;
            }
            let heard = tokio::select! {
                heard = changes.next(), if *hears_anything => match heard {
                    Some(heard) => heard,
                    // No change can come any more: close the stream as at shutdown.
                    None => break,
                },
                news = tasks.next(), if tasks.hears => {
                    tasks.heard(news);
                    continue;
                }
                () = closing.cancelled() => break,
                () = scope.cancellation.cancelled() => break,
            };
            if heard == Heard::Missed && subscriptions.has_templates() {
                // Which URIs of its templates changed is lost: the stream ends with its result,
                // so that the client listens again and reads anew what it follows.
                tracing::debug!("a listen stream with templates fell behind; it ends");
                break;
            }
            // Boxed: a change is rare beside the time a stream waits for one, and the future
            // that waits for room would otherwise widen every stream's for its whole life.
            if !Box::pin(send_heard(&listener, &heard, &out, closing)).await {
                break;
            }
        }
        Ok(json!({"_meta": out.meta()}))
    }
}

/// Where a stream's notifications go, each tagged with its subscription id.
struct Tagged<'a> {
    subscription_id: &'a Value,
    scope: &'a RequestScope,
}

impl Tagged<'_> {
    /// The `_meta` of each notification, and of the stream's result.
    fn meta(&self) -> Value {
        json!({meta::SUBSCRIPTION_ID: self.subscription_id})
    }

    /// Sends `method` with `params` tagged; nothing once the request is cancelled.
    fn notify(&self, method: Method, params: Option<Value>) {
        if self.scope.cancellation.is_cancelled() {
            return;
        }
        let mut params = params.unwrap_or_else(|| json!({}));
        params["_meta"] = self.meta();
        let notification = Notification::new(method, params);
        let _ = self
            .scope
            .notifications
            .unbounded_send(Outgoing::Notification(Box::new(notification)));
    }
}

/// Sends what `heard` becomes for `listener`, each notification once the output has room for
/// it; `false` when the stream ends meanwhile.
async fn send_heard(
    listener: &Listener<'_>,
    heard: &Heard,
    out: &Tagged<'_>,
    closing: &CancellationToken,
) -> bool {
    for notification in listener.notifications(heard) {
        // The next change is taken off the channel only once the output has room for this
        // one: a client that does not read makes the stream fall behind the channel (and hear
        // `Missed`), never the queue grow or a change be dropped.
        if !room_for(out.scope, closing).await {
            return false;
        }
        out.notify(notification.method, notification.params);
    }
    true
}

/// The tasks one stream follows: what it last sent of each, and which to read next.
struct TaskStream {
    followed: Option<FollowedTasks>,
    task_ids: Vec<String>,
    /// Each task's last state sent.
    sent: HashMap<String, Sent>,
    to_read: Vec<String>,
    /// Whether a change of its tasks may still come.
    hears: bool,
}

impl TaskStream {
    /// Follows `task_ids` (when `followed`): each read first right away.
    fn new(followed: Option<FollowedTasks>, task_ids: Vec<String>) -> Self {
        let hears = followed.is_some() && !task_ids.is_empty();
        Self {
            to_read: if hears { task_ids.clone() } else { Vec::new() },
            followed,
            task_ids,
            sent: HashMap::new(),
            hears,
        }
    }

    /// What its tasks' changes say next (never, when it follows none).
    async fn next(&mut self) -> TaskNews {
        match &mut self.followed {
            Some(followed) => followed.next().await,
            None => std::future::pending().await,
        }
    }

    /// Takes in `news`: the tasks to read next.
    fn heard(&mut self, news: TaskNews) {
        self.hears = followed_tasks_to_read(news, &self.task_ids, &self.sent, &mut self.to_read);
    }

    /// Reads the tasks to read and sends each whose state is new, as `notifications/tasks`;
    /// `false` when the stream ends meanwhile.
    async fn send_news(&mut self, out: &Tagged<'_>, closing: &CancellationToken) -> bool {
        if self.to_read.is_empty() {
            return true;
        }
        // Boxed: reading the store takes a future of kilobytes, which a stream would otherwise
        // hold for its whole life though most follow no task.
        Box::pin(self.read_news(out, closing)).await
    }

    async fn read_news(&mut self, out: &Tagged<'_>, closing: &CancellationToken) -> bool {
        let Some(followed) = &self.followed else {
            return true;
        };
        let reading = std::mem::take(&mut self.to_read);
        // Read together, a few at a time: what waits for room holds their results.
        for ids in reading.chunks(READ_TOGETHER) {
            for (task_id, task) in ids.iter().zip(followed.read(ids).await) {
                let Some(task) = task else {
                    continue;
                };
                if self.sent.get(task_id).is_some_and(|(status, updated)| {
                    *status == task.task.status && *updated == task.task.last_updated_at
                }) {
                    continue;
                }
                if !room_for(out.scope, closing).await {
                    return false;
                }
                let state = (task.task.status, task.task.last_updated_at.clone());
                self.sent.insert(task_id.clone(), state);
                out.notify(Method::TaskStatus, Some(to_json(&task)));
            }
        }
        true
    }
}
