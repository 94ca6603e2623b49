//! `subscriptions/listen` (2026-07-28): a request that stays open and carries notifications of
//! what the client subscribed to, until the client cancels it or the server shuts down.

use std::sync::Arc;

use serde_json::{Map, Value, json};
use tokio::sync::broadcast;

use super::changes::Heard;
use super::scope::RequestScope;
use super::subscriptions::{Listener, Lists, Requested};
use super::{Changes, meta};
use crate::jsonrpc::{ErrorObject, Id, Method, Notification, Outgoing};

/// Every task's status changes, as `notifications/tasks` params.
pub(crate) type TaskChanges = broadcast::Receiver<Arc<Map<String, Value>>>;

/// Acknowledges the notifications it will send (`requested`, as far as honoured), then sends
/// each change it heard as `requested` hears it (`notifications/{tools,prompts,resources}/list_changed`,
/// `notifications/resources/updated` for a URI subscribed to), each tagged with the stream's
/// subscription id (the request's id), and answers only when `closing` is cancelled (the server
/// shuts down). The client ends it by cancelling the request (on HTTP, by closing the stream):
/// then nothing more is sent. It holds nothing of the request but its id and the subscriptions
/// it honours (bounded: `subscriptions::MAX_SUBSCRIBED_BYTES`). It sends a change only when the
/// output has room for it (`scope.room`): a client that stops reading holds a bounded queue,
/// and the stream falls behind the server's changes, then is told what it missed: every list it
/// hears and every URI it subscribed to; or, when it subscribed to a template (whose changed
/// URIs cannot be named), it ends with its result, for the client to listen again.
///
/// With the tasks extension, it also sends `notifications/tasks` (each a `DetailedTask`) when a
/// task of `requested.task_ids` changes status.
pub(crate) async fn listen(
    id: &Id,
    requested: Requested,
    (mut changes, mut task_changes): (Changes, TaskChanges),
    closing: &tokio_util::sync::CancellationToken,
    scope: RequestScope,
) -> Result<Value, ErrorObject> {
    let tagged = json!({meta::SUBSCRIPTION_ID: id.to_value()});
    let notify = |method: Method, params: Option<Value>| {
        // Nothing more is sent for a cancelled request.
        if scope.cancellation.is_cancelled() {
            return;
        }
        let mut params = params.unwrap_or_else(|| json!({}));
        params["_meta"] = tagged.clone();
        let notification = Notification::new(method, params);
        let _ = scope
            .notifications
            .send(Outgoing::Notification(notification));
    };
    notify(
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
    let hears_anything = lists != Lists::default() || honoured_uris.is_some();
    drop(honoured_uris);
    let task_ids = task_ids.unwrap_or_default();
    let mut hears_tasks = !task_ids.is_empty();
    let listener = Listener {
        lists,
        subscriptions: &subscriptions,
    };
    'listening: loop {
        let heard = tokio::select! {
            heard = changes.next(), if hears_anything => match heard {
                Some(heard) => heard,
                // No change can come any more: close the stream as at shutdown.
                None => break,
            },
            task = task_changes.recv(), if hears_tasks => {
                match task {
                    Ok(task) if task_ids.iter().any(|id| task.get("taskId") == Some(&json!(id))) => {
                        if let Some(room) = &scope.room {
                            tokio::select! {
                                () = room.take() => {}
                                () = closing.cancelled() => break 'listening,
                                () = scope.cancellation.cancelled() => break 'listening,
                            }
                        }
                        notify(Method::TaskStatus, Some(Value::Object((*task).clone())));
                    }
                    Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => hears_tasks = false,
                }
                continue;
            }
            () = closing.cancelled() => break,
            () = scope.cancellation.cancelled() => break,
        };
        if heard == Heard::Missed && subscriptions.has_templates() {
            // Which URIs of its templates changed is lost: the stream ends with its result, so
            // that the client listens again and reads anew what it follows.
            tracing::debug!("a listen stream with templates fell behind; it ends");
            break;
        }
        for notification in listener.notifications(&heard) {
            // The next change is taken off the channel only once the output has room for
            // this one: a client that does not read makes the stream fall behind the channel
            // (and hear `Missed`), never the queue grow or a change be dropped.
            if let Some(room) = &scope.room {
                tokio::select! {
                    () = room.take() => {}
                    () = closing.cancelled() => break 'listening,
                    () = scope.cancellation.cancelled() => break 'listening,
                }
            }
            notify(notification.method, notification.params);
        }
    }
    Ok(json!({"_meta": tagged}))
}
