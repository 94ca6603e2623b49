//! A client that stops reading its request-scoped event stream holds a bounded queue: past
//! `Server::max_queued_messages`, the call's progress notifications are dropped (as stdio drops
//! them), and its response still arrives once the client reads again.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::body::to_bytes;
use mcp_toolbelt::{Context, Server, tool};
use mcp_toolbelt_tests::http::{modern_call, modern_headers, post, sse_messages};
use serde_json::json;
use tower::ServiceExt as _;

/// Set once `floods_a_stream` has sent all its progress.
static FLOODED: AtomicBool = AtomicBool::new(false);

const STEPS: u32 = 10_000;

/// Reports progress 10,000 times, then answers
#[tool]
async fn floods_a_stream(context: &Context) -> String {
    for step in 0..STEPS {
        context.progress(f64::from(step), None, None);
        if step % 500 == 0 {
            tokio::task::yield_now().await;
        }
    }
    FLOODED.store(true, Ordering::SeqCst);
    "flooded".into()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_nobody_reads_holds_a_bounded_queue_and_still_ends_with_the_response() {
    let router = Server::new("backlog", "1.0.0")
        .max_queued_messages(16)
        .into_router()
        .unwrap();
    let call = modern_call(
        7,
        "floods_a_stream",
        &json!({}),
        &json!({"progressToken": 1}),
    );
    let headers = modern_headers("tools/call", Some("floods_a_stream"));
    // The response (its headers) comes with the first progress; its body is not read yet.
    let response = router.oneshot(post(&call, &headers)).await.unwrap();
    assert_eq!(
        response.headers()["content-type"],
        "text/event-stream",
        "{response:?}"
    );
    tokio::time::timeout(Duration::from_secs(30), async {
        while !FLOODED.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the tool finishes while nobody reads its stream");
    // The tool's messages reach the stream's queue through a task that moves them and drops
    // what does not fit; it may still be a few messages behind the tool. Give it time to catch
    // up, so that what it still moves once the client reads is not counted as kept.
    tokio::time::sleep(Duration::from_millis(500)).await;

    let body = tokio::time::timeout(
        Duration::from_secs(30),
        to_bytes(response.into_body(), usize::MAX),
    )
    .await
    .expect("the stream ends")
    .unwrap();
    let events = sse_messages(&String::from_utf8_lossy(&body));
    let (last, progress) = events.split_last().expect("events");
    assert_eq!(last["id"], 7, "{last}");
    assert_eq!(last["result"]["content"][0]["text"], "flooded", "{last}");
    // The first progress (which opened the stream), the queue, one in hand, and room for a
    // mover that was slow to catch up on a loaded machine (a CI run saw 7): far from 10,000.
    assert!(
        progress.len() <= 16 + 2 + 32,
        "{} of {STEPS} notifications were kept for a client that read nothing",
        progress.len()
    );
    assert!(
        progress
            .iter()
            .all(|event| event["method"] == "notifications/progress")
    );
}
