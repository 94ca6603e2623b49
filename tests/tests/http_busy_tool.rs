//! Over HTTP, a tool that computes without awaiting (a long synchronous loop that polls
//! `Context::is_cancelled`, as the `Context` docs suggest) runs apart from the task of its
//! connection: the client closing the connection cancels it, and the loop sees it. (Run on the
//! connection's task, the loop would keep that task from ever seeing the client leave.)

use std::sync::Mutex;
use std::time::{Duration, Instant};

use mcp_toolbelt::http::HttpConfig;
use mcp_toolbelt::{Context, Server, tool};
use mcp_toolbelt_tests::http::{
    TIMEOUT, connect, modern_call, modern_headers, post, serve_on_socket,
};
use serde_json::json;

/// Where the spinning call is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Call {
    Spinning,
    Ended { cancelled: bool },
}

/// The call, once it has started.
static CALL: Mutex<Option<Call>> = Mutex::new(None);

/// Spins until its call is cancelled (at most thirty seconds)
#[tool]
async fn busy_until_cancelled(context: &Context) -> String {
    *CALL.lock().unwrap() = Some(Call::Spinning);
    let started = Instant::now();
    while !context.is_cancelled() && started.elapsed() < Duration::from_secs(30) {
        std::hint::spin_loop();
    }
    *CALL.lock().unwrap() = Some(Call::Ended {
        cancelled: context.is_cancelled(),
    });
    format!("cancelled: {}", context.is_cancelled())
}

/// Where the call is once `wanted` holds (bounded by `TIMEOUT`).
async fn call(wanted: impl Fn(Call) -> bool) -> Call {
    tokio::time::timeout(TIMEOUT, async {
        loop {
            if let Some(state) = *CALL.lock().unwrap()
                && wanted(state)
            {
                return state;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the call reached the state in time")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_leaving_cancels_a_tool_that_computes_without_awaiting() {
    let router = Server::new("busy", "1.0.0")
        .http_config(HttpConfig::new())
        .into_router()
        .unwrap();
    let address = serve_on_socket(router).await;
    let (mut sender, driver) = connect(address).await;
    let mut request = post(
        &modern_call(1, "busy_until_cancelled", &json!({}), &json!({})),
        &modern_headers("tools/call", Some("busy_until_cancelled")),
    );
    *request.uri_mut() = "/mcp".parse().unwrap();
    let pending = tokio::spawn(sender.send_request(request));
    assert_eq!(call(|_| true).await, Call::Spinning);

    pending.abort();
    driver.abort();
    // Well before the loop's own thirty seconds: the server saw the connection close.
    assert_eq!(
        call(|state| state != Call::Spinning).await,
        Call::Ended { cancelled: true }
    );
}
