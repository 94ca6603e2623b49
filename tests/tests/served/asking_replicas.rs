//! Replicas behind a load balancer share the `requestState` key through `run()`: two processes
//! of the todo example given the same key (`--request-state-key-file`, or
//! `MCP_REQUEST_STATE_KEY`) take each other's 2026-07-28 rounds; during a rotation (the new key,
//! then the old one) a round sealed with the old key still completes and new state is sealed
//! with the new one; bad key material (not base64, not UTF-8, a file that never ends) stops the
//! server at start-up, saying what is wrong.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt as _;
use std::path::PathBuf;
use std::process::Command;

use mcp_toolbelt_tests::http::{modern_call, modern_headers, post, send_over_socket};
use mcp_toolbelt_tests::{CatalogHttp, example_binary};
use serde_json::{Value, json};

/// `[1; 32]` and `[2; 32]` in base64, as `openssl rand -base64 32` writes a key.
const OLD: &str = "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=";
const NEW: &str = "AgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgI=";

/// A key file holding `text`, named for this test process (removed once the server read it).
fn key_file(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("mcp-toolbelt-key-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// `todo --http` with `arguments` and `environment`.
fn todo(arguments: &[&str], environment: &[(&str, &str)]) -> CatalogHttp {
    CatalogHttp::start_example(
        "todo",
        |address| address.to_string(),
        arguments,
        environment,
    )
}

/// `todo --http --request-state-key-file PATH`, the file holding `keys`.
fn todo_with_keys(name: &str, keys: &str) -> CatalogHttp {
    let path = key_file(name, keys);
    let server = todo(&["--request-state-key-file", path.to_str().unwrap()], &[]);
    let _ = std::fs::remove_file(path);
    server
}

/// A 2026-07-28 `add-task` without a priority (so the tool asks), plus `extra` params; the
/// response.
async fn add_task(server: &CatalogHttp, id: u64, extra: &Value) -> Value {
    let capabilities = json!({"io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}});
    let mut body = modern_call(id, "add-task", &json!({"title": "Water"}), &capabilities);
    for (key, value) in extra.as_object().unwrap() {
        body["params"][key] = value.clone();
    }
    let mut request = post(&body, &modern_headers("tools/call", Some("add-task")));
    *request.uri_mut() = "/mcp".parse().unwrap();
    send_over_socket(server.address, request).await.json()
}

/// The first round on `server`: the question, and the sealed state to answer it with.
async fn first_round(server: &CatalogHttp) -> String {
    let asked = add_task(server, 1, &json!({})).await;
    assert_eq!(asked["result"]["resultType"], "input_required", "{asked}");
    asked["result"]["requestState"]
        .as_str()
        .expect("requestState")
        .to_owned()
}

/// The second round on `server`, answering with `state`.
async fn second_round(server: &CatalogHttp, state: &str) -> Value {
    let answer = json!({"action": "accept", "content": {"priority": "high"}});
    let extra = json!({"inputResponses": {"priority": answer}, "requestState": state});
    add_task(server, 2, &extra).await
}

fn assert_added(response: &Value) {
    assert_eq!(
        response["result"]["content"][0]["text"], "Added \"Water\" (High)",
        "{response}"
    );
}

fn assert_refused(response: &Value) {
    assert_eq!(
        response["error"],
        json!({"code": -32602, "message": "Invalid or expired requestState"}),
        "{response}"
    );
}

#[tokio::test]
async fn replicas_given_the_same_key_take_each_others_rounds() {
    let first = todo_with_keys("shared-a", &format!("{NEW}\n"));
    let second = todo(&["--stateless"], &[("MCP_REQUEST_STATE_KEY", NEW)]);
    let state = first_round(&first).await;
    assert_added(&second_round(&second, &state).await);
    let state = first_round(&second).await;
    assert_added(&second_round(&first, &state).await);
    // A replica with a key of its own (drawn at start: an empty variable is unset) cannot
    // open them.
    let stranger = todo(&[], &[("MCP_REQUEST_STATE_KEY", "")]);
    assert_refused(&second_round(&stranger, &state).await);
}

#[tokio::test]
async fn a_rotated_key_opens_rounds_sealed_with_the_previous_one_and_seals_with_the_new() {
    let old = todo_with_keys("old", OLD);
    let rotated = todo_with_keys("rotated", &format!("{NEW}\n{OLD}\n"));
    let new = todo(&[], &[("MCP_REQUEST_STATE_KEY", NEW)]);
    // A round in flight when the key changed.
    let state = first_round(&old).await;
    assert_added(&second_round(&rotated, &state).await);
    assert_refused(&second_round(&new, &state).await);
    // New state is sealed with the new key.
    let state = first_round(&rotated).await;
    assert_added(&second_round(&new, &state).await);
    assert_refused(&second_round(&old, &state).await);
}

#[test]
fn bad_key_material_stops_the_server_at_start_up_saying_why() {
    let short_file = key_file("short", "c2VjcmV0\n");
    let short = short_file.to_str().unwrap();
    let cases = [
        (
            vec!["--request-state-key-file", short],
            vec![],
            format!(
                "Error: --request-state-key-file {short}: the current key is 6 bytes; a key is 32 random bytes in base64 (`openssl rand -base64 32`)"
            ),
        ),
        (
            vec!["--request-state-key-file", "/nonexistent/state-key"],
            vec![],
            "Error: --request-state-key-file /nonexistent/state-key: cannot be read (".into(),
        ),
        (
            vec![],
            vec![("MCP_REQUEST_STATE_KEY", OsStr::new("not a key"))],
            "Error: MCP_REQUEST_STATE_KEY: not base64; a key is 32 random bytes in base64 (`openssl rand -base64 32`)".into(),
        ),
        (
            vec![],
            vec![("MCP_REQUEST_STATE_KEY", OsStr::from_bytes(b"\xff"))],
            "Error: MCP_REQUEST_STATE_KEY is not UTF-8; a key is 32 random bytes in base64".into(),
        ),
        (
            // Read no further than a key file can be long.
            vec!["--request-state-key-file", "/dev/zero"],
            vec![],
            "Error: --request-state-key-file /dev/zero: cannot be read (longer than 4096 bytes)".into(),
        ),
    ];
    for (arguments, environment, error) in cases {
        let output = Command::new(example_binary("todo"))
            .args(["--http", "127.0.0.1:0"])
            .args(&arguments)
            .env_remove("MCP_REQUEST_STATE_KEY")
            .env_remove("MCP_STATELESS")
            .envs(environment)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{arguments:?}: {stderr}");
        assert!(stderr.starts_with(&error), "{arguments:?}: {stderr}");
    }
    let _ = std::fs::remove_file(short_file);
}
