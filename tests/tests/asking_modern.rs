//! Tools that ask the client, at 2026-07-28 (over stdio, each request standing alone): the
//! question ends the round with `input_required`, the retry re-runs the handler with the
//! answers, and `requestState` is sealed: tampered state and state of another call are refused.

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Context, Server, ToolError, ask::Elicitation, tool};
use mcp_toolbelt_tests::example_binary;
use mcp_toolbelt_tests::stdio::StdioServer;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

fn meta(capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities
    })
}

/// Calls `tool` with `extra` params (`inputResponses`, `requestState`); the response.
fn call(server: &mut StdioServer, id: i64, tool: &str, arguments: Value, extra: Value) -> Value {
    let mut params = json!({
        "name": tool,
        "arguments": arguments,
        "_meta": meta(json!({"elicitation": {}, "sampling": {}, "roots": {}}))
    });
    let Value::Object(extra) = extra else {
        panic!("extra params are an object");
    };
    params.as_object_mut().unwrap().extend(extra);
    server.request(id, "tools/call", params)
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

fn state(response: &Value) -> String {
    response["result"]["requestState"]
        .as_str()
        .unwrap_or_else(|| panic!("no requestState in {response}"))
        .to_owned()
}

#[test]
fn a_question_ends_the_round_and_the_retry_answers_it_with_state_carried_between_rounds() {
    let mut server = StdioServer::spawn(&example_binary("conformance"), &[], &[]);
    let tool = "test_input_required_result_multi_round";
    let first = call(&mut server, 1, tool, json!({}), json!({}));
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required");
    assert_eq!(
        result["inputRequests"],
        json!({"step1": {"method": "elicitation/create", "params": {
            "mode": "form",
            "message": "Step 1: What is your name?",
            "requestedSchema": {
                "type": "object",
                "properties": {"name": {"type": "string"}},
                "required": ["name"]
            }
        }}})
    );
    let second = call(
        &mut server,
        2,
        tool,
        json!({}),
        json!({"inputResponses": {"step1": accept(json!({"name": "Ada"}))}, "requestState": state(&first)}),
    );
    assert_eq!(second["result"]["resultType"], "input_required");
    let asked: Vec<&String> = second["result"]["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(asked, ["step2"], "step1 is answered: only step2 is asked");
    // The third round has step2 from the client and step1 only from the sealed state.
    let third = call(
        &mut server,
        3,
        tool,
        json!({}),
        json!({"inputResponses": {"step2": accept(json!({"color": "blue"}))}, "requestState": state(&second)}),
    );
    assert_eq!(third["result"]["resultType"], "complete");
    assert_eq!(third["result"]["content"][0]["text"], "Ada likes blue");
}

/// An answer counts only for a question asked: `inputResponses` on a first call, which asked
/// nothing, cannot confirm a destructive tool (the todo example's `clear-tasks`), and the
/// question is asked.
#[test]
fn an_answer_to_a_question_never_asked_confirms_nothing() {
    let mut server = StdioServer::spawn(&example_binary("todo"), &[], &[]);
    for (id, title) in [(1, "a"), (2, "b")] {
        let added = call(
            &mut server,
            id,
            "add-task",
            json!({"title": title, "priority": "low"}),
            json!({}),
        );
        assert_eq!(added["result"]["resultType"], "complete", "{added}");
    }
    let confirmed = json!({"confirm": accept(json!({"confirm": true}))});
    let first = call(
        &mut server,
        3,
        "clear-tasks",
        json!({}),
        json!({"inputResponses": confirmed}),
    );
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    assert_eq!(
        first["result"]["inputRequests"]["confirm"]["params"]["message"],
        "Delete all 2 tasks? This cannot be undone."
    );
    let listed = call(&mut server, 4, "list-tasks", json!({}), json!({}));
    assert_eq!(listed["result"]["content"][0]["text"], "a (Low)\nb (Low)");
    // Answered in the round that asked, it is taken.
    let done = call(
        &mut server,
        5,
        "clear-tasks",
        json!({}),
        json!({"inputResponses": confirmed, "requestState": state(&first)}),
    );
    assert_eq!(
        done["result"]["content"][0]["text"], "Deleted 2 tasks",
        "{done}"
    );
}

/// An answer sealed in an earlier round stands: a later `inputResponses` for the same key is
/// ignored. An answer to a question the last round did not ask (yet) is ignored too.
#[test]
fn a_sealed_answer_stands_and_only_the_questions_asked_take_answers() {
    let mut server = StdioServer::spawn(&example_binary("conformance"), &[], &[]);
    let tool = "test_input_required_result_multi_round";
    let first = call(&mut server, 1, tool, json!({}), json!({}));
    // step2 is answered before it was asked: ignored, so it is asked.
    let second = call(
        &mut server,
        2,
        tool,
        json!({}),
        json!({
            "inputResponses": {
                "step1": accept(json!({"name": "Ada"})),
                "step2": accept(json!({"color": "red"}))
            },
            "requestState": state(&first)
        }),
    );
    assert_eq!(second["result"]["resultType"], "input_required", "{second}");
    let asked: Vec<&String> = second["result"]["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(asked, ["step2"]);
    // step1, sealed in round two, is not replaced by the third request's answer.
    let third = call(
        &mut server,
        3,
        tool,
        json!({}),
        json!({
            "inputResponses": {
                "step1": accept(json!({"name": "Mallory"})),
                "step2": accept(json!({"color": "blue"}))
            },
            "requestState": state(&second)
        }),
    );
    assert_eq!(
        third["result"]["content"][0]["text"], "Ada likes blue",
        "{third}"
    );
}

#[test]
fn questions_asked_together_go_out_together_by_key() {
    let mut server = StdioServer::spawn(&example_binary("conformance"), &[], &[]);
    let tool = "test_input_required_result_multiple_inputs";
    let first = call(&mut server, 1, tool, json!({}), json!({}));
    let keys: Vec<&String> = first["result"]["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(keys, ["user_name", "greeting", "client_roots"]);
    let answers = json!({
        "user_name": accept(json!({"name": "Ada"})),
        "greeting": {"role": "assistant", "content": {"type": "text", "text": "Hello"}, "model": "m"},
        "client_roots": {"roots": [{"uri": "file:///work"}]},
        "unasked": {"ignored": true}
    });
    let done = call(
        &mut server,
        2,
        tool,
        json!({}),
        json!({"inputResponses": answers, "requestState": state(&first)}),
    );
    assert_eq!(done["result"]["content"][0]["text"], "Hello Ada (1 roots)");
}

#[test]
fn tampered_and_foreign_state_is_refused() {
    let mut server = StdioServer::spawn(&example_binary("conformance"), &[], &[]);
    let first = call(
        &mut server,
        1,
        "test_elicitation",
        json!({"message": "a"}),
        json!({}),
    );
    let sealed = state(&first);
    let refused = |response: &Value| {
        assert_eq!(
            response["error"],
            json!({"code": -32602, "message": "Invalid or expired requestState"}),
            "{response}"
        );
    };
    let mut tampered = sealed.clone().into_bytes();
    tampered[10] = if tampered[10] == b'x' { b'y' } else { b'x' };
    let tampered = String::from_utf8(tampered).unwrap();
    let extra = |state: &str| json!({"requestState": state, "inputResponses": {}});
    refused(&call(
        &mut server,
        2,
        "test_elicitation",
        json!({"message": "a"}),
        extra(&tampered),
    ));
    // The state of a call with other arguments, or of another tool.
    refused(&call(
        &mut server,
        3,
        "test_elicitation",
        json!({"message": "b"}),
        extra(&sealed),
    ));
    refused(&call(
        &mut server,
        4,
        "test_input_required_result_elicitation",
        json!({}),
        extra(&sealed),
    ));
    // Untouched, for the same call, it opens.
    let again = call(
        &mut server,
        5,
        "test_elicitation",
        json!({"message": "a"}),
        extra(&sealed),
    );
    assert_eq!(again["result"]["resultType"], "input_required");
}

#[test]
fn a_question_the_client_cannot_answer_is_not_asked() {
    let mut server = StdioServer::spawn(&example_binary("conformance"), &[], &[]);
    let params = json!({
        "name": "test_input_required_result_capabilities",
        "arguments": {},
        "_meta": meta(json!({"sampling": {}}))
    });
    let first = server.request(1, "tools/call", params);
    let requests: &Map<String, Value> = first["result"]["inputRequests"].as_object().unwrap();
    assert_eq!(requests.keys().collect::<Vec<_>>(), ["sampled"]);
}

#[derive(Deserialize, JsonSchema)]
struct Confirmation {
    /// Go ahead
    confirm: bool,
}

/// Deletes `path` once the user confirms
#[tool]
async fn delete(context: Context, path: String) -> Result<String, ToolError> {
    let answer = context
        .question("confirm")
        .elicit::<Confirmation>(&format!("Delete {path}?"))
        .await
        .map_err(|error| ToolError::new(error.to_string()))?;
    Ok(match answer {
        Elicitation::Accept(Confirmation { confirm: true }) => format!("deleted {path}"),
        _ => "kept".into(),
    })
}

/// A tool that asks is tested in process as a 2026-07-28 client sees it: the question, then
/// the retry with the answer.
#[tokio::test]
async fn the_test_client_drives_a_round_in_process() {
    let client = TestClient::new(Server::new("asking", "1.0.0"));
    let call = |extra: Value| {
        let mut params = json!({
            "name": "delete",
            "arguments": {"path": "/tmp/x"},
            "_meta": meta(json!({"elicitation": {}}))
        });
        params
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        params
    };
    let first = client.request("tools/call", call(json!({}))).await;
    assert_eq!(
        first["result"]["inputRequests"]["confirm"]["params"]["message"],
        "Delete /tmp/x?"
    );
    let retry = call(json!({
        "inputResponses": {"confirm": accept(json!({"confirm": true}))},
        "requestState": state(&first)
    }));
    let done = client.request("tools/call", retry).await;
    assert_eq!(done["result"]["content"][0]["text"], "deleted /tmp/x");
}

/// Sends the user to a sign-in page (URL-mode elicitation)
#[tool]
async fn sign_in(context: Context) -> Result<String, ToolError> {
    let answer = context
        .question("login")
        .elicit_url(
            "Sign in to the archive",
            "https://archive.example/login?session=42",
            "login-42",
        )
        .await
        .map_err(|error| ToolError::new(error.to_string()))?;
    Ok(match answer {
        Elicitation::Accept(()) => "signed in".into(),
        Elicitation::Decline => "declined".into(),
        Elicitation::Cancel => "cancelled".into(),
        _ => "an answer no revision had".into(),
    })
}

/// Lists the client's roots, or says there are none when it cannot share them
#[tool]
async fn where_am_i(context: Context) -> String {
    match context.roots().await {
        Ok(roots) => format!("{} roots", roots.len()),
        Err(_) => "no roots".into(),
    }
}

/// Goes on without the client's roots, then fails for a reason of its own
#[tool]
async fn index_roots(context: Context) -> Result<String, ToolError> {
    let roots = context.roots().await.map_or(0, |roots| roots.len());
    Err(ToolError::new(format!(
        "the index is locked ({roots} roots)"
    )))
}

/// A `tools/call` of `tool` at 2026-07-28 by a client that declared `capabilities`.
fn modern_call(tool: &str, arguments: Value, capabilities: Value, extra: Value) -> Value {
    let mut params = json!({"name": tool, "arguments": arguments, "_meta": meta(capabilities)});
    params
        .as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    params
}

/// A URL elicitation on the wire: asked in `input_required` with its mode, URL and id, and
/// answered by the retry.
#[tokio::test]
async fn a_url_elicitation_round() {
    let client = TestClient::new(Server::new("asking", "1.0.0"));
    let urls = json!({"elicitation": {"url": {}}});
    let first = client
        .request(
            "tools/call",
            modern_call("sign_in", json!({}), urls.clone(), json!({})),
        )
        .await;
    assert_eq!(
        first["result"]["inputRequests"],
        json!({"login": {"method": "elicitation/create", "params": {
            "mode": "url",
            "message": "Sign in to the archive",
            "url": "https://archive.example/login?session=42",
            "elicitationId": "login-42"
        }}})
    );
    for (action, text) in [("accept", "signed in"), ("decline", "declined")] {
        let retry = json!({
            "inputResponses": {"login": {"action": action}},
            "requestState": state(&first)
        });
        let done = client
            .request(
                "tools/call",
                modern_call("sign_in", json!({}), urls.clone(), retry),
            )
            .await;
        assert_eq!(done["result"]["content"][0]["text"], text, "{done}");
    }
}

/// The spec: a request that needs a client capability the client did not declare gets
/// `-32021` with `requiredCapabilities`. A tool that fails because its question could not be
/// asked gets it; one that goes on without the answer keeps its result.
#[tokio::test]
async fn a_call_that_needed_an_undeclared_capability_is_minus_32021() {
    let client = TestClient::new(Server::new("asking", "1.0.0"));
    let cases = [
        (
            "delete",
            json!({"path": "/tmp/x"}),
            json!({}),
            "elicitation",
            json!({"elicitation": {}}),
        ),
        (
            "sign_in",
            json!({}),
            json!({"elicitation": {}}),
            "elicitation",
            json!({"elicitation": {"url": {}}}),
        ),
    ];
    for (tool, arguments, declared, name, required) in cases {
        let response = client
            .request(
                "tools/call",
                modern_call(tool, arguments, declared, json!({})),
            )
            .await;
        assert_eq!(
            response["error"],
            json!({
                "code": -32021,
                "message": format!("Missing required client capability: {name}"),
                "data": {"requiredCapabilities": required}
            }),
            "{tool}: {response}"
        );
    }
    let kept = client
        .request(
            "tools/call",
            modern_call("where_am_i", json!({}), json!({}), json!({})),
        )
        .await;
    assert_eq!(kept["result"]["content"][0]["text"], "no roots", "{kept}");
    assert_eq!(kept["result"]["resultType"], "complete", "{kept}");
    // A failure of the tool's own, after a question found a capability missing, is its own.
    let own = client
        .request(
            "tools/call",
            modern_call("index_roots", json!({}), json!({}), json!({})),
        )
        .await;
    assert_eq!(own["result"]["isError"], true, "{own}");
    assert_eq!(
        own["result"]["content"][0]["text"], "the index is locked (0 roots)",
        "{own}"
    );
}

/// Says hello: a tool that takes no `Context`, so cannot ask the client anything
#[tool]
async fn hello(name: String) -> String {
    format!("hello {name}")
}

/// A call of a tool that cannot ask starts no round of its own, but one that brings a round's
/// state still has it checked: a forged `requestState` is refused, as for a tool that asks.
#[tokio::test]
async fn state_sent_to_a_tool_that_cannot_ask_is_still_checked() {
    let client = TestClient::new(Server::new("asking", "1.0.0"));
    let plain = modern_call("hello", json!({"name": "Ada"}), json!({}), json!({}));
    let done = client.request("tools/call", plain).await;
    assert_eq!(done["result"]["content"][0]["text"], "hello Ada", "{done}");
    let forged = modern_call(
        "hello",
        json!({"name": "Ada"}),
        json!({}),
        json!({"requestState": "forged"}),
    );
    let refused = client.request("tools/call", forged).await;
    assert_eq!(
        refused["error"],
        json!({"code": -32602, "message": "Invalid or expired requestState"}),
        "{refused}"
    );
}

/// A call hook is given the request's `Context`, so it may ask even when the tool cannot: at
/// 2026-07-28 its question ends the round, and the retry answers it.
#[tokio::test]
async fn a_hook_asks_before_a_tool_that_cannot_ask() {
    let server = Server::new("asking", "1.0.0").hook(|call, next| async move {
        if call.name() == "hello" {
            let answer = call
                .context()
                .question("confirm")
                .elicit::<Confirmation>("Say hello?")
                .await;
            if !matches!(
                answer,
                Ok(Elicitation::Accept(Confirmation { confirm: true }))
            ) {
                return Ok(mcp_toolbelt::CallToolResult::error("not confirmed"));
            }
        }
        next.run(call).await
    });
    let client = TestClient::new(server);
    let capabilities = json!({"elicitation": {}});
    let first = modern_call(
        "hello",
        json!({"name": "Ada"}),
        capabilities.clone(),
        json!({}),
    );
    let first = client.request("tools/call", first).await;
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    assert_eq!(
        first["result"]["inputRequests"]["confirm"]["params"]["message"],
        "Say hello?"
    );
    let retry = modern_call(
        "hello",
        json!({"name": "Ada"}),
        capabilities,
        json!({
            "inputResponses": {"confirm": accept(json!({"confirm": true}))},
            "requestState": state(&first)
        }),
    );
    let done = client.request("tools/call", retry).await;
    assert_eq!(done["result"]["content"][0]["text"], "hello Ada", "{done}");
}
