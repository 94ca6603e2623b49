//! App state (`Server::state`, `State<T>`, `Context::state`) and call hooks (`Server::hook`), as
//! a tool author relies on them: through the real dispatch path, at the JSON a client gets.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_toolbelt::error::ErrorObject;
use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{
    CallToolResult, Context, Server, State, error::RegistryError, tool, tool::Tool,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// A stand-in for a connection pool: shared, counts its uses.
#[derive(Default)]
struct Db {
    queries: AtomicUsize,
}

/// Configuration, a second state type.
struct Greeting(&'static str);

#[derive(Deserialize, JsonSchema)]
struct LookupArgs {
    /// What to look up
    key: String,
}

/// Look a key up (argument struct, state first)
#[tool]
async fn state_lookup(db: State<Db>, args: LookupArgs) -> String {
    let count = db.queries.fetch_add(1, Ordering::SeqCst) + 1;
    format!("{}: query {count}", args.key)
}

/// Greet someone (inline, state between parameters, by reference)
#[tool]
async fn state_greet(
    /// Who
    name: String,
    greeting: &State<Greeting>,
    context: &Context,
    db: State<Db>,
) -> String {
    db.queries.fetch_add(1, Ordering::SeqCst);
    let same = context
        .state::<Greeting>()
        .is_some_and(|seen| seen.0 == greeting.0);
    format!("{}, {name}! (context sees it: {same})", greeting.0)
}

/// Count the queries so far (plain fn, state only)
#[tool(annotations(read_only))]
fn state_count(db: State<Db>) -> String {
    db.queries.load(Ordering::SeqCst).to_string()
}

/// Drop everything (destructive, for the hook tests)
#[tool(annotations(destructive))]
async fn state_drop_all(db: State<Db>) -> &'static str {
    db.queries.store(0, Ordering::SeqCst);
    "dropped"
}

fn server() -> Server {
    Server::new("state", "1.0.0")
        .state(Db::default())
        .state(Greeting("Hello"))
}

#[tokio::test]
async fn state_reaches_tools_in_every_position_and_style() {
    let client = TestClient::new(server());
    let first = client.call_tool("state_lookup", json!({"key": "a"})).await;
    assert_eq!(first.text_content(), "a: query 1");
    let greeted = client
        .call_tool("state_greet", json!({"name": "Ada"}))
        .await;
    assert_eq!(
        greeted.text_content(),
        "Hello, Ada! (context sees it: true)"
    );
    let count = client.call_tool("state_count", json!({})).await;
    assert_eq!(count.text_content(), "2", "one Db shared by every call");
}

#[tokio::test]
async fn state_is_never_part_of_the_input_schema() {
    let client = TestClient::new(server());
    let tools = client.list_tools().await;
    let schema = |name: &str| -> Value {
        let tool = tools.tools.iter().find(|tool| tool.name == name).unwrap();
        serde_json::to_value(&tool.input_schema).unwrap()
    };
    assert_eq!(
        schema("state_greet"),
        json!({"type": "object", "properties": {"name": {"type": "string", "description": "Who"}},
               "required": ["name"], "additionalProperties": false})
    );
    assert_eq!(schema("state_count")["properties"], json!({}));
    assert_eq!(
        schema("state_lookup")["required"],
        json!(["key"]),
        "{}",
        schema("state_lookup")
    );
}

#[test]
fn a_missing_state_is_a_start_up_error_naming_the_tool_and_the_type() {
    let server = Server::new("state", "1.0.0").state(Db::default());
    let error = server.check().expect_err("Greeting is missing");
    let mcp_toolbelt::Error::Registry(RegistryError::MissingState {
        name, type_name, ..
    }) = &error
    else {
        panic!("{error:?}");
    };
    assert_eq!(name, "state_greet");
    assert_eq!(type_name, "state_and_hooks::Greeting");
    let text = error.to_string();
    assert!(
        text.starts_with("tool `state_greet` at tests/tests/state_and_hooks.rs:"),
        "{text}"
    );
    assert!(
        text.ends_with(
            "takes `State<state_and_hooks::Greeting>`, but the server was given no \
             `state_and_hooks::Greeting`: add `.state(value)` to the `Server` builder"
        ),
        "{text}"
    );
    // Nothing given at all: every tool and type is named.
    let Err(mcp_toolbelt::Error::Registry(RegistryError::Several(all))) =
        Server::new("state", "1.0.0").check()
    else {
        panic!("several problems expected");
    };
    assert_eq!(all.len(), 5, "{all:#?}");
}

#[test]
#[should_panic(expected = "the server cannot start: tool `state_greet`")]
fn test_client_fails_loudly_on_missing_state() {
    let _ = TestClient::new(Server::new("state", "1.0.0").state(Db::default()));
}

#[tokio::test]
async fn serving_refuses_to_start_without_the_state() {
    let (input, _keep) = tokio::io::duplex(64);
    let error = Server::new("state", "1.0.0")
        .serve_io(input, tokio::io::sink())
        .await
        .expect_err("missing state");
    assert!(
        error.to_string().contains("`State<state_and_hooks::Db>`"),
        "{error}"
    );
    assert!(
        matches!(
            error,
            mcp_toolbelt::Error::Registry(RegistryError::Several(_))
        ),
        "{error:?}"
    );
}

/// Every way to serve refuses tools that cannot be served with the same matchable error, not
/// an `io::Error` that flattened it (issue 27).
#[tokio::test]
async fn every_serve_method_refuses_with_a_registry_error() {
    let server = || Server::new("state", "1.0.0");
    let is_registry = |error: &mcp_toolbelt::Error| matches!(error, mcp_toolbelt::Error::Registry(RegistryError::Several(problems)) if problems.len() == 5);
    let error = server().check().unwrap_err();
    assert!(is_registry(&error), "{error:?}");
    let error = server().into_router().unwrap_err();
    assert!(is_registry(&error), "{error:?}");
    let error = server()
        .serve_http("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap_err();
    assert!(is_registry(&error), "{error:?}");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let error = server()
        .serve_http_app(listener, |mcp| mcp)
        .await
        .unwrap_err();
    assert!(is_registry(&error), "{error:?}");
    // The problems are listed, each its own line, as `run()` prints them.
    assert!(
        error
            .to_string()
            .starts_with("5 problems with the tools and resources:\n- "),
        "{error}"
    );
    // `Display` already says it all: no source repeats it in a report of the chain.
    assert!(std::error::Error::source(&error).is_none());
}

/// A port in use is an `Error::Io` that says so, and which address.
#[tokio::test]
async fn an_address_in_use_is_an_io_error() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = taken.local_addr().unwrap();
    let error = Server::new("state", "1.0.0")
        .state(Db::default())
        .state(Greeting("hello"))
        .serve_http(address)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, mcp_toolbelt::Error::Io(io) if io.kind() == std::io::ErrorKind::AddrInUse),
        "{error:?}"
    );
    // The text names the address, as `run()` prints it.
    assert!(error.to_string().contains(&address.to_string()), "{error}");
}

#[tokio::test]
async fn tools_added_at_run_time_reach_state_through_the_context() {
    let server = server();
    let tool = Tool::new(
        "state_dynamic",
        "Greets from a tool added at run time",
        json!({"type": "object", "properties": {}}),
        |_, context: Context| async move {
            let greeting = context.state::<Greeting>().expect("given");
            CallToolResult::text(format!("{} from run time", greeting.0))
        },
    )
    .unwrap();
    server.tools().add(tool).unwrap();
    let client = TestClient::new(server);
    let result = client.call_tool("state_dynamic", json!({})).await;
    assert_eq!(result.text_content(), "Hello from run time");
}

#[tokio::test]
async fn a_hook_refuses_with_a_tool_error_or_a_json_rpc_error() {
    let server = server()
        .hook(|call, next| async move {
            let destructive =
                call.annotations().and_then(|hints| hints.destructive_hint) == Some(true);
            if destructive {
                return Ok(CallToolResult::error(format!(
                    "{} needs the admin scope",
                    call.name()
                )));
            }
            next.run(call).await
        })
        .hook(|call, next| async move {
            if call.name() == "state_count" {
                return Err(ErrorObject::new(-32001, "counting is off today"));
            }
            next.run(call).await
        });
    let client = TestClient::new(server);
    let refused = client.call_tool("state_drop_all", json!({})).await;
    assert_eq!(
        serde_json::to_value(&refused).unwrap(),
        json!({"content": [{"type": "text", "text": "state_drop_all needs the admin scope"}],
               "isError": true})
    );
    let error = client
        .try_call_tool("state_count", json!({}))
        .await
        .expect_err("refused as a JSON-RPC error");
    assert_eq!(
        serde_json::to_value(&error).unwrap(),
        json!({"code": -32001, "message": "counting is off today"})
    );
    let allowed = client.call_tool("state_lookup", json!({"key": "k"})).await;
    assert_eq!(allowed.text_content(), "k: query 1");
}

#[tokio::test]
async fn hooks_run_in_order_before_validation_and_see_the_result() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (outer, inner) = (Arc::clone(&seen), Arc::clone(&seen));
    let server = server()
        .hook(move |call, next| {
            let seen = Arc::clone(&outer);
            async move {
                seen.lock()
                    .unwrap()
                    .push(format!("outer in {}", call.name()));
                let outcome = next.run(call).await;
                let is_error = outcome.as_ref().map(|result| result.is_error);
                seen.lock()
                    .unwrap()
                    .push(format!("outer out, error: {is_error:?}"));
                outcome
            }
        })
        .hook(move |mut call, next| {
            let seen = Arc::clone(&inner);
            async move {
                let arguments = Value::Object(call.arguments().cloned().unwrap_or_default());
                seen.lock().unwrap().push(format!("inner sees {arguments}"));
                // A hook may fill in an argument; it is validated like the client's own.
                call.arguments_mut()
                    .entry("key")
                    .or_insert_with(|| json!("filled"));
                next.run(call).await
            }
        });
    let client = TestClient::new(server);
    let filled = client.call_tool("state_lookup", json!({})).await;
    assert_eq!(filled.text_content(), "filled: query 1");
    let invalid = client.call_tool("state_lookup", json!({"key": 7})).await;
    assert!(invalid.is_error);
    assert_eq!(
        invalid.text_content(),
        "Input validation error: Invalid arguments for tool state_lookup: key: expected string, got integer 7"
    );
    assert_eq!(
        *seen.lock().unwrap(),
        [
            "outer in state_lookup",
            "inner sees {}",
            "outer out, error: Ok(false)",
            "outer in state_lookup",
            r#"inner sees {"key":7}"#,
            "outer out, error: Ok(true)",
        ]
    );
}

#[tokio::test]
async fn a_hook_that_panics_ends_its_call_not_the_server() {
    let server = server().hook(|call, next| async move {
        assert!(call.name() != "state_count", "hook bug");
        next.run(call).await
    });
    let client = TestClient::new(server);
    let result = client.call_tool("state_count", json!({})).await;
    assert!(result.is_error);
    assert_eq!(
        result.text_content(),
        "Error executing tool state_count: a call hook panicked: hook bug"
    );
    let still = client.call_tool("state_lookup", json!({"key": "x"})).await;
    assert_eq!(still.text_content(), "x: query 1");
}
