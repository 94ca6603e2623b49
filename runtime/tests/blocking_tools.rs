//! A plain (non-`async`) tool fn that blocks must not stall the server: `#[tool]` runs it on
//! tokio's blocking threads, so a `ping` sent while three slow calls run is answered first.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Server, tool};
use serde_json::json;

/// How many calls of `slow` have finished.
static FINISHED: AtomicUsize = AtomicUsize::new(0);

/// Sleep for 1.5 s, blocking the thread, then say so
#[tool]
fn slow() -> &'static str {
    std::thread::sleep(Duration::from_millis(1500));
    FINISHED.fetch_add(1, Ordering::SeqCst);
    "slept"
}

/// Panic, without `async`
#[tool]
fn plain_panic() -> String {
    panic!("plain fn gave up")
}

/// Panic, with `async`
#[tool]
async fn async_panic() -> String {
    panic!("plain fn gave up")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blocking_plain_fns_do_not_delay_a_ping() {
    let client = TestClient::new(Server::new("blocking", "0.0.0"));
    let ping = async {
        // Let the three calls start first.
        tokio::time::sleep(Duration::from_millis(100)).await;
        let answer = client.request("ping", json!({})).await;
        (answer, FINISHED.load(Ordering::SeqCst))
    };
    let (a, b, c, (ping, finished_at_ping)) = tokio::join!(
        client.call_tool("slow", json!({})),
        client.call_tool("slow", json!({})),
        client.call_tool("slow", json!({})),
        ping,
    );
    assert_eq!(ping["result"], json!({}), "{ping}");
    assert_eq!(
        finished_at_ping, 0,
        "the ping was answered only after a slow call finished"
    );
    for result in [a, b, c] {
        assert_eq!(result.text_content(), "slept");
    }
    assert_eq!(FINISHED.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn a_plain_fn_panic_is_the_same_error_as_an_async_one() {
    let client = TestClient::new(Server::new("blocking", "0.0.0"));
    let plain = client.call_tool("plain_panic", json!({})).await;
    let asynchronous = client.call_tool("async_panic", json!({})).await;
    assert!(plain.is_error && asynchronous.is_error);
    assert_eq!(
        plain.text_content().replace("plain_panic", "NAME"),
        asynchronous.text_content().replace("async_panic", "NAME")
    );
    assert!(
        plain
            .text_content()
            .contains("the tool panicked: plain fn gave up"),
        "{}",
        plain.text_content()
    );
}
