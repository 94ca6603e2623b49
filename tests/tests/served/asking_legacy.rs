//! Tools that ask the client, on a legacy connection: the conformance fixtures' elicitation and
//! sampling as real server-to-client requests over stdio and over a legacy HTTP session's
//! request stream, the client's answers routed back by id, a client's error answer, a client
//! without the capability, and a call cancelled while it waits.

use std::time::Duration;

use mcp_toolbelt_tests::example_binary;
use mcp_toolbelt_tests::stdio::StdioServer;
use serde_json::{Value, json};

fn conformance(capabilities: Value) -> StdioServer {
    conformance_at("2025-11-25", capabilities)
}

fn conformance_at(version: &str, capabilities: Value) -> StdioServer {
    let mut server = StdioServer::spawn(&example_binary("conformance"), &[], &[]);
    let params = json!({
        "protocolVersion": version,
        "capabilities": capabilities,
        "clientInfo": {"name": "asking-tests", "version": "0.0.0"}
    });
    let response = server.request("initialize", "initialize", params);
    assert!(response.get("result").is_some(), "{response}");
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    server
}

fn call(server: &mut StdioServer, id: i64, tool: &str, arguments: Value) {
    server.send_request(
        id,
        "tools/call",
        json!({"name": tool, "arguments": arguments}),
    );
}

fn text(response: &Value) -> &str {
    response["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {response}"))
}

#[test]
fn an_elicitation_is_a_request_to_the_client_and_its_answer_reaches_the_tool() {
    let mut server = conformance(json!({"elicitation": {}}));
    call(
        &mut server,
        7,
        "test_elicitation",
        json!({"message": "Who are you?"}),
    );
    let question = server.next_message();
    assert_eq!(question["method"], "elicitation/create");
    assert_eq!(
        question["params"],
        json!({
            "mode": "form",
            "message": "Who are you?",
            "requestedSchema": {
                "type": "object",
                "properties": {
                    "username": {"type": "string", "description": "User's response"},
                    "email": {"type": "string", "description": "User's email address"}
                },
                "required": ["username", "email"]
            }
        })
    );
    let id = question["id"].clone();
    assert!(id.is_number(), "an id of its own: {question}");
    // An answer to an id never sent is ignored; the right one reaches the tool.
    server.send(&json!({"jsonrpc": "2.0", "id": 999, "result": {"action": "decline"}}));
    let answer =
        json!({"action": "accept", "content": {"username": "ada", "email": "ada@example.com"}});
    server.send(&json!({"jsonrpc": "2.0", "id": id, "result": answer}));
    let (response, _) = server.response_to(&json!(7));
    assert_eq!(
        text(&response),
        r#"User response: action=accept, content={"username":"ada","email":"ada@example.com"}"#
    );
    assert_ne!(response["result"]["isError"], true);
}

#[test]
fn a_2025_06_18_client_gets_a_form_without_a_mode() {
    let mut server = conformance_at("2025-06-18", json!({"elicitation": {}}));
    call(&mut server, 7, "test_elicitation", json!({"message": "?"}));
    let question = server.next_message();
    assert_eq!(question["method"], "elicitation/create");
    assert_eq!(question["params"].get("mode"), None, "{question}");
    assert_eq!(question["params"]["requestedSchema"]["type"], "object");
}

#[test]
fn declined_and_cancelled_elicitations_say_so() {
    let mut server = conformance(json!({"elicitation": {"form": {}}}));
    for (id, action) in [(1, "decline"), (2, "cancel")] {
        call(&mut server, id, "test_elicitation", json!({"message": "?"}));
        let question = server.next_message();
        server.send(&json!({"jsonrpc": "2.0", "id": question["id"], "result": {"action": action}}));
        let (response, _) = server.response_to(&json!(id));
        assert_eq!(
            text(&response),
            format!("User response: action={action}, content={{}}")
        );
    }
}

#[test]
fn a_client_error_answer_is_the_tools_error() {
    let mut server = conformance(json!({"elicitation": {}}));
    call(&mut server, 3, "test_elicitation", json!({"message": "?"}));
    let question = server.next_message();
    let refusal = json!({"code": -32600, "message": "no user here"});
    server.send(&json!({"jsonrpc": "2.0", "id": question["id"], "error": refusal}));
    let (response, _) = server.response_to(&json!(3));
    assert_eq!(response["result"]["isError"], true);
    assert_eq!(text(&response), "the client refused: no user here (-32600)");
}

#[test]
fn a_client_without_the_capability_gets_an_error_result_and_no_request() {
    let mut server = conformance(json!({}));
    call(&mut server, 4, "test_elicitation", json!({"message": "?"}));
    let (response, before) = server.response_to(&json!(4));
    assert!(before.is_empty(), "no request was sent: {before:?}");
    assert_eq!(response["result"]["isError"], true);
    assert_eq!(
        text(&response),
        "the client did not declare the `elicitation` capability this needs"
    );
    call(&mut server, 5, "test_sampling", json!({"prompt": "hi"}));
    let (response, _) = server.response_to(&json!(5));
    assert_eq!(
        text(&response),
        "the client did not declare the `sampling` capability this needs"
    );
}

#[test]
fn sampling_asks_the_clients_model() {
    let mut server = conformance(json!({"sampling": {}}));
    call(&mut server, 6, "test_sampling", json!({"prompt": "Say hi"}));
    let question = server.next_message();
    assert_eq!(question["method"], "sampling/createMessage");
    assert_eq!(
        question["params"],
        json!({
            "messages": [{"role": "user", "content": {"type": "text", "text": "Say hi"}}],
            "maxTokens": 100
        })
    );
    let completion = json!({
        "role": "assistant",
        "content": {"type": "text", "text": "hi"},
        "model": "test-model",
        "stopReason": "endTurn"
    });
    server.send(&json!({"jsonrpc": "2.0", "id": question["id"], "result": completion}));
    let (response, _) = server.response_to(&json!(6));
    assert_eq!(text(&response), "LLM response: hi");
}

#[test]
fn a_call_cancelled_while_it_waits_withdraws_its_question_and_a_late_answer_is_ignored() {
    let mut server = conformance(json!({"elicitation": {}}));
    call(&mut server, 8, "test_elicitation", json!({"message": "?"}));
    let question = server.next_message();
    server.send(&json!({
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": 8}
    }));
    // The server withdraws its question.
    let withdrawn = server.next_message();
    assert_eq!(withdrawn["method"], "notifications/cancelled");
    assert_eq!(withdrawn["params"]["requestId"], question["id"]);
    let answer = json!({"action": "accept", "content": {"username": "a", "email": "b"}});
    server.send(&json!({"jsonrpc": "2.0", "id": question["id"], "result": answer}));
    let pong = server.request(9, "ping", json!({}));
    assert_eq!(pong["result"], json!({}));
    assert_eq!(
        server.next_within(Duration::from_millis(300)),
        None,
        "the cancelled call answers nothing"
    );
}
