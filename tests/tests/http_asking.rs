//! Tools that ask the client, over Streamable HTTP in the legacy era: the question is a request
//! on the call's own SSE stream, the client answers it with a POST in its session, and only that
//! session's answer reaches the call; a stateless server, which has no way back, and a POST that
//! accepts no event stream, which has no way out, say at once that they cannot ask.

use axum::Router;
use axum::http::{HeaderValue, StatusCode, header};
use mcp_toolbelt::http::{AuthInfo, ProtectedResourceMetadata};
use mcp_toolbelt::{Context, ask::AskError, ask::Elicitation, http::HttpConfig, tool};
use mcp_toolbelt_tests::CatalogHttp;
use mcp_toolbelt_tests::http::{
    Events, LEGACY, in_session, legacy_call, modern_call, modern_headers, post, result_text,
    router, send, send_over_socket,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tower::ServiceExt as _;

#[derive(Deserialize, JsonSchema)]
struct Confirmation {
    /// Go ahead
    confirm: bool,
}

/// Asks the user to confirm
#[tool]
async fn confirm(context: Context) -> Result<String, AskError> {
    let answer = context.elicit::<Confirmation>("Go ahead?").await?;
    Ok(match answer {
        Elicitation::Accept(Confirmation { confirm }) => format!("confirm={confirm}"),
        Elicitation::Decline => "declined".into(),
        Elicitation::Cancel => "cancelled".into(),
        _ => "an answer no revision had".into(),
    })
}

/// Opens a legacy session whose client declares `elicitation`.
async fn open_session(router: &Router) -> String {
    open_session_at(router, LEGACY).await
}

/// [`open_session`] at protocol `version`.
async fn open_session_at(router: &Router, version: &str) -> String {
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": version,
        "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "http-asking", "version": "1.0.0"},
    }});
    let reply = send(router, post(&initialize, &[])).await;
    let session = reply
        .header("mcp-session-id")
        .expect("a session")
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    send(router, post(&initialized, &in_session(&session))).await;
    session
}

fn answer(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

#[tokio::test]
async fn the_question_goes_on_the_calls_stream_and_only_its_session_answers_it() {
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;
    let other = open_session(&router).await;
    let call = legacy_call(2, "confirm", &json!({}), None);
    let response = router
        .clone()
        .oneshot(post(&call, &in_session(&session)))
        .await
        .unwrap();
    let mut events = Events::of(response);
    let question = events.next().await.expect("the question");
    assert_eq!(question["method"], "elicitation/create");
    assert_eq!(question["params"]["message"], "Go ahead?");
    let id = &question["id"];
    // Another session's answer with the same id does not reach this call.
    let foreign = answer(id, json!({"action": "decline"}));
    let reply = send(&router, post(&foreign, &in_session(&other))).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED);
    let yes = answer(
        id,
        json!({"action": "accept", "content": {"confirm": true}}),
    );
    let reply = send(&router, post(&yes, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED);
    let response = events.next().await.expect("the call's response");
    assert_eq!(response["id"], 2);
    assert_eq!(result_text(&response), "confirm=true");
    assert_eq!(
        events.next().await,
        None,
        "the stream ends with the response"
    );
}

#[tokio::test]
async fn a_stateless_server_cannot_ask_and_says_so() {
    let router = router(HttpConfig::new().stateless(true));
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": LEGACY,
        "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "http-asking", "version": "1.0.0"},
    }});
    send(&router, post(&initialize, &[])).await;
    let headers = [("mcp-protocol-version", LEGACY)];
    let reply = send(
        &router,
        post(&legacy_call(2, "confirm", &json!({}), None), &headers),
    )
    .await;
    let response = reply.json();
    assert_eq!(response["result"]["isError"], true, "{response}");
    assert_eq!(
        result_text(&response),
        "this request has no way to ask the client (a stateless HTTP request, a POST that accepts no event stream or carries a batch, or one already answered)"
    );
}

/// A client whose POST accepts only `application/json` cannot be sent a question (it would
/// travel on the call's event stream): the tool is told so at once, and the call is answered
/// as JSON, instead of holding its POST, connection and place for the ask timeout (10 minutes).
#[tokio::test]
async fn a_post_that_accepts_only_json_cannot_be_asked_and_is_answered_at_once() {
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;
    let mut request = post(
        &legacy_call(2, "confirm", &json!({}), None),
        &in_session(&session),
    );
    request
        .headers_mut()
        .insert(header::ACCEPT, HeaderValue::from_static("application/json"));
    // `send` waits at most 10 s: a question left waiting for its answer fails here.
    let reply = send(&router, request).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.content_type(), "application/json");
    let response = reply.json();
    assert_eq!(response["id"], 2);
    assert_eq!(response["result"]["isError"], true, "{response}");
    assert_eq!(
        result_text(&response),
        "this request has no way to ask the client (a stateless HTTP request, a POST that accepts no event stream or carries a batch, or one already answered)"
    );
    // The same session, with a POST that takes a stream, is still asked.
    let call = legacy_call(3, "confirm", &json!({}), None);
    let response = router
        .clone()
        .oneshot(post(&call, &in_session(&session)))
        .await
        .unwrap();
    let question = Events::of(response).next().await.expect("the question");
    assert_eq!(question["method"], "elicitation/create");
}

/// A call in a batch (2025-03-26) answers in the batch's JSON array: no stream carries a
/// question, so the tool is told at once too.
#[tokio::test]
async fn a_call_in_a_batch_cannot_be_asked_and_is_answered_at_once() {
    let router = router(HttpConfig::new());
    let version = "2025-03-26";
    let session = open_session_at(&router, version).await;
    let batch = json!([legacy_call(2, "confirm", &json!({}), None)]);
    let headers = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", version),
    ];
    let reply = send(&router, post(&batch, &headers)).await;
    let responses = reply.json();
    assert_eq!(responses[0]["result"]["isError"], true, "{responses}");
    assert_eq!(
        result_text(&responses[0]),
        "this request has no way to ask the client (a stateless HTTP request, a POST that accepts no event stream or carries a batch, or one already answered)"
    );
}

/// The same over a socket, as the issue found it: the todo example's `add-task` without a
/// priority asks; a client taking JSON only is answered at once, and nothing was added.
#[tokio::test]
async fn the_todo_example_answers_a_json_only_client_at_once() {
    let todo = CatalogHttp::start_example("todo", |address| address.to_string(), &[], &[]);
    let json_only = |body: &Value, headers: &[(&str, &str)]| {
        let mut request = post(body, headers);
        *request.uri_mut() = "/mcp".parse().unwrap();
        request
            .headers_mut()
            .insert(header::ACCEPT, HeaderValue::from_static("application/json"));
        request
    };
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": LEGACY,
        "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "json-only", "version": "1.0.0"},
    }});
    let reply = send_over_socket(todo.address, json_only(&initialize, &[])).await;
    let session = reply
        .header("mcp-session-id")
        .expect("a session")
        .to_owned();
    let headers = in_session(&session);
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    send_over_socket(todo.address, json_only(&initialized, &headers)).await;
    let call = legacy_call(2, "add-task", &json!({"title": "Water"}), None);
    let response = send_over_socket(todo.address, json_only(&call, &headers))
        .await
        .json();
    assert_eq!(response["result"]["isError"], true, "{response}");
    assert!(
        result_text(&response).starts_with(
            "This needs the user's answer, but this request has no way to ask the client"
        ),
        "{response}"
    );
    let list = legacy_call(3, "list-tasks", &json!({}), None);
    let listed = send_over_socket(todo.address, json_only(&list, &headers))
        .await
        .json();
    assert_eq!(result_text(&listed), "No tasks");
}

/// A 2026-07-28 `requestState` is bound to the caller who was asked: a token for the same client
/// with an empty subject, or for another user, cannot answer a question asked of a token with no
/// subject (they are three callers, not one).
#[tokio::test]
async fn sealed_state_opens_only_for_the_caller_it_was_sealed_for() {
    let metadata =
        ProtectedResourceMetadata::new("http://localhost:3000/mcp", "https://auth.example.com");
    let router = router(HttpConfig::new().bearer_auth(metadata, |token| async move {
        match token.as_str() {
            "no-subject" => Some(AuthInfo::new("desktop-app")),
            "empty-subject" => Some(AuthInfo::new("desktop-app").subject("")),
            "alice" => Some(AuthInfo::new("desktop-app").subject("alice")),
            _ => None,
        }
    }));
    let elicits = json!({"io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}});
    let call = |token: &'static str, extra: Value| {
        let mut body = modern_call(2, "confirm", &json!({}), &elicits);
        for (key, value) in extra.as_object().unwrap() {
            body["params"][key] = value.clone();
        }
        let mut headers = modern_headers("tools/call", Some("confirm"));
        headers.push(("authorization", token));
        post(&body, &headers)
    };
    let first = send(&router, call("Bearer no-subject", json!({})))
        .await
        .json();
    let state = first["result"]["requestState"]
        .as_str()
        .unwrap_or_else(|| panic!("no requestState in {first}"))
        .to_owned();
    let key = first["result"]["inputRequests"]
        .as_object()
        .and_then(|requests| requests.keys().next())
        .unwrap_or_else(|| panic!("no question in {first}"))
        .clone();
    let retry = json!({
        "inputResponses": {key: {"action": "accept", "content": {"confirm": true}}},
        "requestState": state,
    });
    for other in ["Bearer empty-subject", "Bearer alice"] {
        let reply = send(&router, call(other, retry.clone())).await;
        let body = reply.json();
        assert_eq!(body["error"]["code"], -32602, "{other}: {body}");
        assert_eq!(
            body["error"]["message"], "Invalid or expired requestState",
            "{other}: {body}"
        );
    }
    let reply = send(&router, call("Bearer no-subject", retry)).await.json();
    assert_eq!(result_text(&reply), "confirm=true", "{reply}");
}
