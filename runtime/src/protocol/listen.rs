//! `subscriptions/listen` (2026-07-28): a request that stays open and carries notifications of
//! what the client subscribed to, until the client cancels it or the server shuts down.

use serde_json::{Map, Value, json};

use super::scope::RequestScope;
use super::{Changes, meta};
use crate::jsonrpc::{ErrorObject, Id, Method, Notification, Outgoing};

/// Whether a `subscriptions/listen` request asks for `toolsListChanged` (of those requested,
/// the only notification that exists here); `Err` when it names none.
pub(crate) fn tools_requested(params: &Map<String, Value>) -> Result<bool, ErrorObject> {
    let Some(Value::Object(requested)) = params.get("notifications") else {
        return Err(ErrorObject::invalid_params(
            "subscriptions/listen requires `notifications`, an object naming what to send",
        ));
    };
    Ok(requested.get("toolsListChanged") == Some(&Value::Bool(true)))
}

/// Acknowledges the notifications it will send (`tools`: `toolsListChanged`), sends
/// `notifications/tools/list_changed` on each change of the tool set, each
/// tagged with the stream's subscription id (the request's id), and answers only when
/// `closing` is cancelled (the server shuts down). The client ends it by cancelling the request
/// (on HTTP, by closing the stream): then nothing more is sent. It holds nothing of the request
/// but its id.
pub(crate) async fn listen(
    id: &Id,
    tools: bool,
    mut changes: Changes,
    closing: &tokio_util::sync::CancellationToken,
    scope: RequestScope,
) -> Result<Value, ErrorObject> {
    let tagged = json!({meta::SUBSCRIPTION_ID: id.to_value()});
    let honored = if tools {
        json!({"toolsListChanged": true})
    } else {
        json!({})
    };
    let notify = |method: Method, mut params: Value| {
        // Nothing more is sent for a cancelled request.
        if scope.cancellation.is_cancelled() {
            return;
        }
        params["_meta"] = tagged.clone();
        let notification = Notification::new(method, params);
        let _ = scope
            .notifications
            .send(Outgoing::Notification(notification));
    };
    notify(
        Method::SubscriptionAcknowledged,
        json!({"notifications": honored}),
    );
    loop {
        tokio::select! {
            change = changes.next_tools(), if tools => match change {
                Some(()) => notify(Method::ToolsListChanged, json!({})),
                // No change can come any more: close the stream as at shutdown.
                None => break,
            },
            () = closing.cancelled() => break,
            () = scope.cancellation.cancelled() => break,
        }
    }
    Ok(json!({"_meta": tagged}))
}
