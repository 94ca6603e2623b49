//! `TestClient` answers the questions of tools that ask on a legacy connection
//! (`TestClient::answering`), so that such tools are tested in process in both eras (the
//! 2026-07-28 rounds are in `asking_modern.rs`): the requests the tool sends, each answer
//! routed back to it, a client's error answer surfaced, a URL elicitation, and what a client
//! that declared nothing gets.

use std::sync::{Arc, Mutex};

use mcp_toolbelt::error::ErrorObject;
use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Context, Server, ToolError, ask::Elicitation, ask::Sampling, tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Deserialize, JsonSchema)]
struct Name {
    /// Your name
    name: String,
}

/// Greets the user by name, in the model's words, from the first root
#[tool(asks(Name))]
async fn greet(context: Context) -> Result<String, ToolError> {
    let fail = |error: mcp_toolbelt::ask::AskError| ToolError::new(error.to_string());
    let Elicitation::Accept(Name { name }) =
        context.elicit::<Name>("Who are you?").await.map_err(fail)?
    else {
        return Ok("no name".into());
    };
    let sampled = context
        .sample(&Sampling::user(format!("Greet {name}"), 20))
        .await
        .map_err(fail)?;
    let roots = context.roots().await.map_err(fail)?;
    Ok(format!(
        "{} ({})",
        sampled.text().unwrap_or_default(),
        roots.first().map_or("nowhere", |root| root.uri.as_str())
    ))
}

/// Sends the user to a sign-in page
#[tool]
async fn sign_in(context: Context) -> Result<String, ToolError> {
    let answer = context
        .elicit_url(
            "Sign in to the archive",
            "https://archive.example/login",
            "login-7",
        )
        .await
        .map_err(|error| ToolError::new(error.to_string()))?;
    Ok(format!("{answer:?}"))
}

fn everything() -> Value {
    json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}})
}

#[tokio::test]
async fn a_legacy_test_client_answers_each_question_in_turn() {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&asked);
    let client = TestClient::new(Server::new("greeter", "1.0.0")).answering(
        everything(),
        move |method, params| {
            seen.lock()
                .unwrap()
                .push((method.to_owned(), params.clone()));
            Ok(match method {
                "elicitation/create" => json!({"action": "accept", "content": {"name": "Ada"}}),
                "sampling/createMessage" => json!({
                    "role": "assistant",
                    "content": {"type": "text", "text": "Hello, Ada!"},
                    "model": "test-model"
                }),
                _ => json!({"roots": [{"uri": "file:///home/ada", "name": "Home"}]}),
            })
        },
    );
    let result = client.call_tool("greet", json!({})).await;
    assert_eq!(result.text_content(), "Hello, Ada! (file:///home/ada)");
    let asked = asked.lock().unwrap().clone();
    assert_eq!(
        asked,
        [
            (
                "elicitation/create".to_owned(),
                json!({
                    "mode": "form",
                    "message": "Who are you?",
                    "requestedSchema": {
                        "type": "object",
                        "properties": {"name": {"type": "string", "description": "Your name"}},
                        "required": ["name"]
                    }
                })
            ),
            (
                "sampling/createMessage".to_owned(),
                json!({
                    "messages": [{"role": "user", "content": {"type": "text", "text": "Greet Ada"}}],
                    "maxTokens": 20
                })
            ),
            ("roots/list".to_owned(), json!({})),
        ]
    );
    // The questions are requests, not notifications.
    assert_eq!(client.notifications(), Vec::<Value>::new());
}

#[tokio::test]
async fn a_client_error_answer_reaches_the_tool() {
    let client = TestClient::new(Server::new("greeter", "1.0.0"))
        .answering(everything(), |_, _| {
            Err(ErrorObject::new(-1, "User rejected the request"))
        });
    let result = client.call_tool("greet", json!({})).await;
    assert!(result.is_error);
    assert_eq!(
        result.text_content(),
        "the client refused: User rejected the request (-1)"
    );
}

#[tokio::test]
async fn a_url_elicitation_on_a_legacy_connection() {
    let client = TestClient::new(Server::new("greeter", "1.0.0")).answering(
        everything(),
        |method, params| {
            assert_eq!(method, "elicitation/create");
            assert_eq!(
                params,
                &json!({
                    "mode": "url",
                    "message": "Sign in to the archive",
                    "url": "https://archive.example/login",
                    "elicitationId": "login-7"
                })
            );
            Ok(json!({"action": "decline"}))
        },
    );
    let result = client.call_tool("sign_in", json!({})).await;
    assert_eq!(result.text_content(), "Decline");
    // A client that declared forms only is not sent a URL.
    let forms_only = TestClient::new(Server::new("greeter", "1.0.0"))
        .answering(json!({"elicitation": {}}), |_, _| {
            panic!("no question may reach a client that cannot answer it")
        });
    let result = forms_only.call_tool("sign_in", json!({})).await;
    assert_eq!(
        result.text_content(),
        "the client did not declare the `elicitation.url` capability this needs"
    );
}

#[tokio::test]
async fn a_test_client_that_answers_nothing_gets_no_question() {
    let client = TestClient::new(Server::new("greeter", "1.0.0"));
    let result = client.call_tool("greet", json!({})).await;
    assert!(result.is_error);
    assert_eq!(
        result.text_content(),
        "this request has no way to ask the client (a stateless HTTP request, a POST that accepts no event stream or carries a batch, or one already answered)"
    );
}
