//! How prompts and completers run, as a client sees it: over stdio apart from the read loop (a
//! `ping` is answered while a prompt computes), within the call time limit (a prompt, a
//! completer or a resource's read that hangs is stopped with `-32603`), a plain `#[prompt] fn` on blocking threads;
//! and what a prompt returns shaped for the client's version, as a tool's result is.

// Prompts are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use std::time::Duration;

use mcp_toolbelt::completion::CompletionContext;
use mcp_toolbelt::prompt::{PromptError, PromptMessage};
use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Content, Server, prompt, resource};
use mcp_toolbelt_tests::in_process::InProcess;
use serde_json::{Value, json};

/// Computes for a while before its first `.await`
#[prompt]
async fn computes_first() -> String {
    std::thread::sleep(Duration::from_millis(1500));
    "computed".to_owned()
}

/// Never answers
#[prompt]
async fn hangs(
    /// Its completer never answers either
    #[complete(never_completes)]
    topic: String,
) -> String {
    std::future::pending::<()>().await;
    format!("never {topic}")
}

/// A completer that never answers.
async fn never_completes(_partial: &str, _context: &CompletionContext) -> Vec<String> {
    std::future::pending().await
}

/// Blocks its thread, as a plain fn reading a database does
#[prompt]
fn blocks() -> String {
    std::thread::sleep(Duration::from_millis(1500));
    "blocked".to_owned()
}

/// Plays a recording and links a note
#[prompt]
async fn newer_content() -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(Content::audio("UklGRg==", "audio/wav")),
        PromptMessage::user(
            Content::resource_link("notes://1", "groceries").description("The grocery list"),
        ),
    ]
}

/// Reads one note
#[prompt]
async fn read_note(
    /// The note's id
    #[complete(unreadable_ids)]
    id: u64,
) -> Result<String, PromptError> {
    match id {
        0 => Err(PromptError::invalid_argument("id", "no note has id 0")),
        1 => Err(PromptError::failed("the notes database is locked")),
        id => Ok(format!("note {id}")),
    }
}

/// Fails as a boxed error
#[prompt]
async fn boxed_refusal() -> Result<String, Box<dyn std::error::Error + Send + Sync>> {
    Err(PromptError::invalid_argument("id", "refused through a box").into())
}

/// A completer whose database cannot be read.
async fn unreadable_ids(
    _partial: &str,
    _context: &CompletionContext,
) -> Result<Vec<String>, String> {
    Err("the notes database is locked".to_owned())
}

/// Reviews a resource
#[prompt(complete(resource_uri = uris))]
async fn review(
    /// The resource, by its URI
    #[serde(rename = "resourceUri")]
    resource_uri: String,
) -> String {
    format!("Review {resource_uri}")
}

/// The URIs a review completes with.
async fn uris(partial: &str, _context: &CompletionContext) -> Vec<String> {
    vec![format!("{partial}docs://a")]
}

/// One thing of a kind
#[resource(uri = "kinds://{type}", complete(r#type = kinds))]
async fn kind(r#type: String) -> String {
    let kind = r#type;
    format!("a {kind}")
}

/// The kinds there are.
async fn kinds(partial: &str, _context: &CompletionContext) -> Vec<String> {
    vec![format!("{partial}-kind")]
}

fn server() -> Server {
    Server::new("running", "1.0.0").call_timeout(Duration::from_millis(300))
}

async fn initialized(server: Server) -> InProcess {
    let mut client = InProcess::start(server);
    let response = client
        .request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        )
        .await;
    assert!(response["result"].is_object(), "{response}");
    client
}

/// Sends `prompts/get` of `name` as request 1 and a `ping` as request 2; gives the ids in the
/// order their answers came.
async fn answer_order(client: &mut InProcess, name: &str) -> Vec<Value> {
    client
        .send(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "prompts/get", "params": {"name": name}}),
        )
        .await;
    // The prompt has started before the ping is read.
    tokio::time::sleep(Duration::from_millis(200)).await;
    client
        .send(&json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}))
        .await;
    let first = client.next_message().await;
    let second = client.next_message().await;
    vec![first["id"].clone(), second["id"].clone()]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ping_is_answered_while_a_prompt_computes_over_stdio() {
    let mut client = initialized(Server::new("running", "1.0.0")).await;
    assert_eq!(answer_order(&mut client, "computes_first").await, [2, 1]);
}

#[tokio::test]
async fn a_prompt_or_completer_that_hangs_is_stopped_at_the_time_limit_over_stdio() {
    let mut client = initialized(server()).await;
    let response = client
        .request(
            1,
            "prompts/get",
            json!({"name": "hangs", "arguments": {"topic": "x"}}),
        )
        .await;
    assert_eq!(response["error"]["code"], -32603, "{response}");
    let message = response["error"]["message"].as_str().expect("a message");
    assert!(
        message.contains("hangs") && message.contains("time limit"),
        "{message}"
    );
    let response = client
        .request(
            2,
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "hangs"}, "argument": {"name": "topic", "value": ""}}),
        )
        .await;
    assert_eq!(response["error"]["code"], -32603, "{response}");
    let message = response["error"]["message"].as_str().expect("a message");
    assert!(
        message.contains("topic") && message.contains("time limit"),
        "{message}"
    );
    client.assert_alive(3).await;
}

/// Never gives its contents
#[resource(uri = "hangs://forever")]
async fn never_read() -> String {
    std::future::pending().await
}

#[tokio::test]
async fn a_resource_read_that_hangs_is_stopped_at_the_time_limit_over_stdio() {
    let mut client = initialized(server()).await;
    // `request` waits 10 s at most: a read the server never stops fails the test.
    let response = client
        .request(1, "resources/read", json!({"uri": "hangs://forever"}))
        .await;
    assert_eq!(response["error"]["code"], -32603, "{response}");
    let message = response["error"]["message"].as_str().expect("a message");
    assert!(
        message.contains("hangs://forever") && message.contains("time limit"),
        "{message}"
    );
    assert_eq!(response["error"]["data"]["uri"], "hangs://forever");
    client.assert_alive(2).await;
}

/// One worker thread: a plain fn run on it would hold the whole runtime, the read loop
/// included; on a blocking thread it holds nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn a_plain_prompt_fn_runs_on_a_blocking_thread() {
    let mut client = initialized(Server::new("running", "1.0.0")).await;
    assert_eq!(answer_order(&mut client, "blocks").await, [2, 1]);
}

/// Audio came with 2025-03-26 and resource links with 2025-06-18: an older client gets them as
/// text, as it does in a tool's result.
#[tokio::test]
async fn a_prompts_content_is_shaped_for_older_clients() {
    let get = json!({"name": "newer_content"});
    for (version, audio, link) in [
        ("2024-11-05", "text", "text"),
        ("2025-03-26", "audio", "text"),
        ("2025-06-18", "audio", "resource_link"),
        ("2025-11-25", "audio", "resource_link"),
    ] {
        let client = TestClient::with_protocol_version(server(), version);
        let response = client.request("prompts/get", get.clone()).await;
        let messages = &response["result"]["messages"];
        assert_eq!(
            messages[0]["content"]["type"], audio,
            "{version}: {response}"
        );
        assert_eq!(
            messages[1]["content"]["type"], link,
            "{version}: {response}"
        );
        if link == "text" {
            assert_eq!(
                messages[1]["content"]["text"],
                "Resource groceries (notes://1): The grocery list"
            );
        }
        if audio == "text" {
            assert_eq!(
                messages[0]["content"]["text"],
                "[audio/wav audio omitted: protocol 2024-11-05 cannot carry audio]"
            );
        }
    }
}

/// A prompt refuses a value with `-32602` through `PromptError::invalid_argument` (also inside a
/// boxed error), fails with `-32603` otherwise; a completer's `Err` is `-32603` with its
/// message, not an empty completion.
#[tokio::test]
async fn a_prompt_refuses_a_value_and_a_completer_fails_with_their_codes() {
    let client = TestClient::new(server());
    for (name, arguments, code, text) in [
        (
            "read_note",
            json!({"id": "0"}),
            -32602,
            "Invalid argument `id`: no note has id 0",
        ),
        (
            "read_note",
            json!({"id": "1"}),
            -32603,
            "the notes database is locked",
        ),
        (
            "boxed_refusal",
            json!({}),
            -32602,
            "Invalid argument `id`: refused through a box",
        ),
    ] {
        let response = client
            .request("prompts/get", json!({"name": name, "arguments": arguments}))
            .await;
        assert_eq!(response["error"]["code"], code, "{response}");
        assert_eq!(response["error"]["message"], text, "{response}");
    }
    let response = client
        .request(
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "read_note"}, "argument": {"name": "id", "value": "1"}}),
        )
        .await;
    assert_eq!(response["error"]["code"], -32603, "{response}");
    assert_eq!(response["error"]["message"], "the notes database is locked");
}

/// `completions` came with 2025-03-26: a 2024-11-05 client, not offered the capability, is told
/// the method does not exist; a 2025-03-26 one is answered.
#[tokio::test]
async fn completion_is_not_answered_for_a_client_older_than_the_capability() {
    let request = json!({"ref": {"type": "ref/prompt", "name": "hangs"}, "argument": {"name": "topic", "value": ""}});
    let old = TestClient::with_protocol_version(server(), "2024-11-05");
    let response = old.request("completion/complete", request.clone()).await;
    assert_eq!(response["error"]["code"], -32601, "{response}");
    let newer = TestClient::with_protocol_version(server(), "2025-03-26");
    let response = newer.request("completion/complete", request).await;
    // Answered: here, stopped at the time limit.
    assert_eq!(response["error"]["code"], -32603, "{response}");
}

/// `complete(param = path)` names the parameter (here renamed on the wire) and completes the
/// argument; `complete(r#type = path)` names the template variable `type`.
#[tokio::test]
async fn a_completer_is_named_by_its_parameter_even_renamed_or_raw() {
    let client = TestClient::new(server());
    let response = client
        .request(
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "review"}, "argument": {"name": "resourceUri", "value": "x"}}),
        )
        .await;
    assert_eq!(
        response["result"]["completion"]["values"],
        json!(["xdocs://a"]),
        "{response}"
    );
    let response = client
        .request(
            "completion/complete",
            json!({"ref": {"type": "ref/resource", "uri": "kinds://{type}"}, "argument": {"name": "type", "value": "big"}}),
        )
        .await;
    assert_eq!(
        response["result"]["completion"]["values"],
        json!(["big-kind"]),
        "{response}"
    );
}

/// A prompt and a template built at run time complete their argument and variable with the
/// closures given to `complete`, told the resolved arguments and able to fail.
#[tokio::test]
async fn prompts_and_templates_built_at_run_time_complete() {
    use mcp_toolbelt::prompt::{Prompt, PromptArgument};
    use mcp_toolbelt::resource::Resource;

    let server = server();
    let greet = Prompt::new(
        "greet_at_run_time",
        "Greet someone",
        |arguments, _| async move { format!("Hello {}", arguments["name"]) },
    )
    .argument(PromptArgument::new("name").required(true))
    .argument(PromptArgument::new("team"))
    // A closure whose body calls the context's methods names its parameters' types: a completer
    // has two shapes, which Rust cannot choose between before the body is checked.
    .complete(
        "name",
        |partial: String, context: CompletionContext| async move {
            let team = context.argument("team").unwrap_or("all").to_owned();
            vec![format!("{partial}-{team}")]
        },
    )
    .complete("team", |_partial, _context| async move {
        Err::<Vec<String>, _>("the teams cannot be read")
    });
    server.prompts().add(greet).expect("a new prompt");
    let note = Resource::new("runtime-notes://{id}", "note", |request| async move {
        format!("note {}", request.variable("id").unwrap_or_default())
    })
    .expect("a template")
    .complete("id", |partial, _context| async move {
        ["1", "2", "12"]
            .into_iter()
            .filter(|id| id.starts_with(&partial))
            .collect::<Vec<_>>()
    });
    server.resources().add(note).expect("a new template");

    let client = TestClient::new(server);
    let complete = |reference: Value, name: &str, value: &str, context: Value| json!({"ref": reference, "argument": {"name": name, "value": value}, "context": {"arguments": context}});
    let prompt = json!({"type": "ref/prompt", "name": "greet_at_run_time"});
    let response = client
        .request(
            "completion/complete",
            complete(prompt.clone(), "name", "ad", json!({"team": "core"})),
        )
        .await;
    assert_eq!(
        response["result"]["completion"]["values"],
        json!(["ad-core"]),
        "{response}"
    );
    let response = client
        .request(
            "completion/complete",
            complete(prompt, "team", "", json!({})),
        )
        .await;
    assert_eq!(response["error"]["code"], -32603, "{response}");
    let template = json!({"type": "ref/resource", "uri": "runtime-notes://{id}"});
    let response = client
        .request(
            "completion/complete",
            complete(template, "id", "1", json!({})),
        )
        .await;
    assert_eq!(
        response["result"]["completion"]["values"],
        json!(["1", "12"]),
        "{response}"
    );
}
