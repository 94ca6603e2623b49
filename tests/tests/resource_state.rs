//! Resources over app state, and tools that change them, at the wire: a `#[resource]` fn takes
//! `State<T>` and `Context` as a tool does (the URI template's variables are its other
//! parameters), a server not given its state refuses to start naming the resource, and a tool
//! reaches the server's own `Resources` through its `Context` (or a `State<Resources>`), with
//! nothing registered, so a subscribed client hears `notifications/resources/updated`. A test
//! binary of its own: every server in a binary serves every resource in it.

// Resources and tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use std::sync::Mutex;

use mcp_toolbelt::error::RegistryError;
use mcp_toolbelt::resource::Resources;
use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Context, Server, State, resource, tool};
use mcp_toolbelt_tests::in_process::InProcess;
use serde_json::{Value, json};

/// The issues, as an app keeps them: the title of each, by id.
struct Db(Mutex<Vec<String>>);

impl Db {
    fn new() -> Self {
        Self(Mutex::new(vec![
            "Crash on start".into(),
            "Slow search".into(),
        ]))
    }
}

/// The line of `issue`'s attribute, where its registration is.
const ISSUE_LINE: u32 = line!() + 2;
/// One issue, by id
#[resource(uri = "tracker://issues/{id}", mime_type = "text/plain")]
async fn issue(id: usize, db: State<Db>, context: &Context) -> Option<String> {
    let title = db.0.lock().unwrap().get(id).cloned()?;
    Some(format!(
        "#{id} {title} (read for request {})",
        context.request_id()
    ))
}

/// Every issue's title, one a line
#[resource(uri = "tracker://issues")]
fn issues(db: &State<Db>) -> String {
    db.0.lock().unwrap().join("\n")
}

/// Rename an issue
#[tool]
async fn rename_issue(
    db: State<Db>,
    /// The issue's id
    id: usize,
    /// Its new title
    title: String,
    context: &Context,
) -> String {
    if let Some(old) = db.0.lock().unwrap().get_mut(id) {
        old.clone_from(&title);
    }
    context
        .resources()
        .notify_updated(format!("tracker://issues/{id}"));
    format!("#{id} is now {title}")
}

/// Close an issue: its title says so
#[tool]
async fn close_issue(
    db: State<Db>,
    resources: State<Resources>,
    /// The issue's id
    id: usize,
) -> String {
    if let Some(title) = db.0.lock().unwrap().get_mut(id) {
        title.push_str(" (closed)");
    }
    resources.notify_updated(format!("tracker://issues/{id}"));
    format!("#{id} closed")
}

fn server() -> Server {
    Server::new("tracker", "1.0.0").state(Db::new())
}

/// A template's fn reads its variable, the app state and the request's context; a plain URI's
/// fn borrows the state.
#[tokio::test]
async fn a_resource_fn_reads_app_state_and_its_context() {
    let client = TestClient::new(server());
    let read = client
        .request("resources/read", json!({"uri": "tracker://issues/1"}))
        .await;
    let id = &read["id"];
    assert_eq!(
        read["result"]["contents"],
        json!([{"uri": "tracker://issues/1", "mimeType": "text/plain",
                "text": format!("#1 Slow search (read for request {id})")}]),
        "{read}"
    );
    let all = client
        .request("resources/read", json!({"uri": "tracker://issues"}))
        .await;
    assert_eq!(
        all["result"]["contents"][0]["text"],
        "Crash on start\nSlow search"
    );
    // The template's variable is still read into its type; the state is no variable.
    let missing = client
        .request("resources/read", json!({"uri": "tracker://issues/9"}))
        .await;
    assert_eq!(missing["error"]["code"], -32602, "{missing}");
    let templates = client
        .request("resources/templates/list", Value::Null)
        .await;
    assert_eq!(
        templates["result"]["resourceTemplates"],
        json!([{"uriTemplate": "tracker://issues/{id}", "name": "issue",
                "description": "One issue, by id", "mimeType": "text/plain"}])
    );
}

/// A server not given the state a resource fn takes refuses to start, naming the resource and
/// where it is, as it names a tool.
#[test]
fn missing_state_is_a_start_up_error_naming_the_resource() {
    let Err(mcp_toolbelt::Error::Registry(RegistryError::Several(problems))) =
        Server::new("tracker", "1.0.0").check()
    else {
        panic!("several problems expected");
    };
    let texts: Vec<String> = problems.iter().map(ToString::to_string).collect();
    let file = file!();
    let expected = format!(
        "resource `tracker://issues/{{id}}` at {file}:{ISSUE_LINE} takes `State<resource_state::Db>`, \
         but the server was given no `resource_state::Db`: add `.state(value)` to the `Server` builder"
    );
    assert!(texts.contains(&expected), "{texts:#?}");
    assert!(
        texts
            .iter()
            .any(|text| text.starts_with("resource `tracker://issues` at ")),
        "{texts:#?}"
    );
}

async fn initialize(client: &mut InProcess) {
    let answer = client
        .request(
            1,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "t", "version": "1"}}),
        )
        .await;
    assert_eq!(
        answer["result"]["capabilities"]["resources"]["subscribe"],
        true
    );
    client
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
}

/// The next two messages, the call's response and the update, in either order (they take two
/// ways out: the call's answer, the server's changes).
async fn answer_and_update(client: &mut InProcess) -> (Value, Value) {
    let (first, second) = (client.next_message().await, client.next_message().await);
    if first.get("id").is_some() {
        (first, second)
    } else {
        (second, first)
    }
}

/// A tool changes an issue and says so through its `Context` (or a `State<Resources>`), the
/// server given nothing but its database: the client subscribed to the issue hears it.
#[tokio::test]
async fn a_tool_tells_subscribers_through_its_context() {
    let mut client = InProcess::start(server());
    initialize(&mut client).await;
    let subscribed = client
        .request(
            2,
            "resources/subscribe",
            json!({"uri": "tracker://issues/0"}),
        )
        .await;
    assert_eq!(subscribed["result"], json!({}), "{subscribed}");

    client
        .send(&json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                      "params": {"name": "rename_issue", "arguments": {"id": 0, "title": "Crash"}}}))
        .await;
    let (answer, update) = answer_and_update(&mut client).await;
    assert_eq!(
        answer["result"]["content"][0]["text"], "#0 is now Crash",
        "{answer}"
    );
    assert_eq!(
        update,
        json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
               "params": {"uri": "tracker://issues/0"}})
    );

    client
        .send(&json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                      "params": {"name": "close_issue", "arguments": {"id": 0}}}))
        .await;
    let (answer, update) = answer_and_update(&mut client).await;
    assert_eq!(
        answer["result"]["content"][0]["text"], "#0 closed",
        "{answer}"
    );
    assert_eq!(update["params"]["uri"], "tracker://issues/0", "{update}");

    let read = client
        .request(5, "resources/read", json!({"uri": "tracker://issues/0"}))
        .await;
    assert_eq!(
        read["result"]["contents"][0]["text"],
        "#0 Crash (closed) (read for request 5)"
    );
}
