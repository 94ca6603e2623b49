//! The tools the `http_*` tests call, and the record of how `slow` calls ended. Each `http_*`
//! test file includes this module (`mod http_tools;`), so every one of those binaries serves the
//! same four tools: `count`, `chatty`, `whoami` and `slow`.
//!
//! They are not in the `mcp_toolbelt_tests` library: a `#[tool]` is served by every binary it is
//! linked into, and the other test binaries assert their exact tool lists.

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

use mcp_toolbelt::{Context, LogLevel, tool};
use mcp_toolbelt_tests::http::TIMEOUT;

/// Counts to three, reporting progress at each step
#[tool]
async fn count(context: &Context) -> String {
    for step in 1..=3 {
        context.progress(f64::from(step), Some(3.0), Some(&format!("step {step}")));
    }
    "counted to 3".into()
}

/// Logs one message at info level, then answers
#[tool]
async fn chatty(context: &Context) -> String {
    context.log(LogLevel::Info, "about to answer");
    "said it".into()
}

/// Says whom the caller's bearer token was issued to
#[tool]
async fn whoami(context: &Context) -> String {
    context.auth().map_or_else(
        || "anonymous".into(),
        |auth| format!("{} {:?}", auth.client_id, auth.scopes),
    )
}

/// Reports progress once, then waits `seconds` unless cancelled; how it ended is recorded under `tag`
#[tool]
async fn slow(
    /// Names this call in the record of how calls ended
    tag: String,
    /// How long to wait
    seconds: f64,
    context: &Context,
) -> String {
    let mut ending = Ending::start(tag, context.clone());
    context.progress(0.0, None, Some("started"));
    tokio::select! {
        () = tokio::time::sleep(Duration::from_secs_f64(seconds)) => {}
        () = context.cancelled() => {}
    }
    ending.completed = true;
    "finished".into()
}

/// How each `slow` call ended, by tag: `started` while it runs; then `finished` when it ran to its
/// end, `cancelled` when its context was cancelled (whether it saw that at an `.await` or its
/// future was dropped), `dropped` when its future was dropped without a cancellation.
static ENDINGS: Mutex<BTreeMap<String, &'static str>> = Mutex::new(BTreeMap::new());

fn record(tag: &str, what: &'static str) {
    ENDINGS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .insert(tag.to_owned(), what);
}

struct Ending {
    tag: String,
    context: Context,
    completed: bool,
}

impl Ending {
    fn start(tag: String, context: Context) -> Self {
        record(&tag, "started");
        Self {
            tag,
            context,
            completed: false,
        }
    }
}

impl Drop for Ending {
    fn drop(&mut self) {
        let what = if self.context.is_cancelled() {
            "cancelled"
        } else if self.completed {
            "finished"
        } else {
            "dropped"
        };
        record(&self.tag, what);
    }
}

/// Waits (bounded) until the `slow` call tagged `tag` is in state `wanted`, or with `None`, until
/// it has ended, and returns the state.
// Not every file that serves these tools waits for a `slow` call to end.
#[allow(dead_code)]
pub(crate) async fn ending(tag: &str, wanted: Option<&str>) -> &'static str {
    let wait = async {
        loop {
            let now = ENDINGS
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .get(tag)
                .copied();
            match (now, wanted) {
                (Some(now), Some(wanted)) if now == wanted => return now,
                (Some(now), None) if now != "started" => return now,
                _ => tokio::time::sleep(Duration::from_millis(10)).await,
            }
        }
    };
    tokio::time::timeout(TIMEOUT, wait)
        .await
        .unwrap_or_else(|_| panic!("the slow call {tag} did not get to {wanted:?}"))
}
