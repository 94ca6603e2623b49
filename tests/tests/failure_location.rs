//! A failing test helper of `mcp_toolbelt::testing` names the test's line, as `assert_eq!`
//! does, not its own (issue 40, item 14): the place a panic reports is the one a user clicks.

use std::cell::RefCell;
use std::panic::AssertUnwindSafe;
use std::sync::Once;

use mcp_toolbelt::testing::{
    TestClient, assert_portable, assert_portable_for, assert_tools_snapshot,
};
use mcp_toolbelt::{Server, tool};
use serde_json::json;

/// Say where a point is
#[tool]
async fn locate(
    /// The point, as a pair (Cursor refuses tuples)
    point: (i32, i32),
) -> String {
    format!("{point:?}")
}

thread_local! {
    /// Where this thread's last panic was reported: its file and line.
    static PANICKED_AT: RefCell<Option<(String, u32)>> = const { RefCell::new(None) };
}

/// Runs `test`, which must panic, and returns the line its panic was reported at, if in this
/// file.
fn panic_line(test: impl FnOnce()) -> Option<u32> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let place = info
                .location()
                .map(|place| (place.file().to_owned(), place.line()));
            PANICKED_AT.set(place);
            previous(info);
        }));
    });
    PANICKED_AT.set(None);
    assert!(std::panic::catch_unwind(AssertUnwindSafe(test)).is_err());
    let (file, line) = PANICKED_AT.take().expect("the hook saw the panic");
    file.ends_with("failure_location.rs").then_some(line)
}

// Each call stands on the line after its `line!()`, where rustfmt leaves it.

#[test]
fn assert_portable_fails_at_the_tests_line() {
    let server = Server::new("points", "1.0.0");
    let line = line!();
    let at = panic_line(|| assert_portable(&server));
    assert_eq!(at, Some(line + 1));
    let line = line!();
    let at = panic_line(|| assert_portable_for(&server, &["cursor"]));
    assert_eq!(at, Some(line + 1));
    // An unknown profile too.
    let line = line!();
    let at = panic_line(|| assert_portable_for(&server, &["emacs"]));
    assert_eq!(at, Some(line + 1));
}

#[test]
fn assert_tools_snapshot_fails_at_the_tests_line() {
    let server = Server::new("points", "1.0.0");
    let path = std::env::temp_dir().join(format!("location-snapshot-{}.json", std::process::id()));
    std::fs::write(&path, "{\"tools\": []}\n").unwrap();
    let line = line!();
    let at = panic_line(|| assert_tools_snapshot(&server, &path));
    std::fs::remove_file(&path).unwrap();
    assert_eq!(at, Some(line + 1));
    // A file that is not there.
    let line = line!();
    let at = panic_line(|| assert_tools_snapshot(&server, &path));
    assert_eq!(at, Some(line + 1));
}

#[test]
fn call_tool_fails_at_the_tests_await() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let client = TestClient::new(Server::new("points", "1.0.0"));
    let line = line!();
    let call = || runtime.block_on(async { client.call_tool("nowhere", json!({})).await });
    // Reported at the `.await`, in `call`.
    assert_eq!(panic_line(|| drop(call())), Some(line + 1));
}
