//! Arguments are checked against the schema the tool advertises, and every failing field is
//! named in one `isError` result a model can act on; structured output is checked against the
//! output schema.

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{
    CallToolResult, Json, Server, error::RegistryError, result::IntoToolResult, tool, tool::Tool,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Role {
    Admin,
    Member,
}

#[derive(Deserialize, JsonSchema)]
struct Address {
    city: String,
    zip: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
struct SignupArgs {
    #[schemars(length(min = 2, max = 10))]
    name: String,
    #[schemars(range(min = 18, max = 130))]
    age: u8,
    role: Role,
    #[schemars(regex(pattern = r"^[a-z]+$"))]
    handle: String,
    address: Address,
    scores: Vec<u8>,
    nickname: Option<String>,
}

/// Sign someone up
#[tool]
async fn signup(args: SignupArgs) -> String {
    let SignupArgs {
        name,
        age,
        role,
        handle,
        address,
        scores,
        nickname,
    } = args;
    format!(
        "{name} {age} {role:?} @{handle} in {} {:?} scores {scores:?} nickname {nickname:?}",
        address.city, address.zip
    )
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct StrictArgs {
    id: u32,
}

/// Only known fields
#[tool]
async fn strict(args: StrictArgs) -> String {
    args.id.to_string()
}

#[derive(Deserialize, JsonSchema)]
struct OptionalArgs {
    note: Option<String>,
    #[serde(default)]
    count: u32,
}

/// Everything optional
#[tool]
async fn optional(args: OptionalArgs) -> String {
    format!("note {:?} count {}", args.note, args.count)
}

#[derive(Serialize, JsonSchema)]
struct Reading {
    #[schemars(range(max = 100))]
    percent: u32,
}

/// Reports a percentage, even one its own output schema forbids
#[tool]
async fn reading(
    /// The percentage to report
    percent: u32,
) -> Json<Reading> {
    Json(Reading { percent })
}

/// A result type of its own that advertises an output schema but never fills it in.
struct Forgetful;

impl IntoToolResult for Forgetful {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::text("forgot the structured content")
    }

    fn output_schema() -> Option<Value> {
        Some(
            json!({"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}),
        )
    }
}

/// Forgets its structured content
#[tool]
async fn forgetful() -> Forgetful {
    Forgetful
}

#[derive(Deserialize, JsonSchema)]
struct Target {
    /// `IpAddr` has no standard format: only serde checks it.
    addr: std::net::IpAddr,
    port: u16,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code, reason = "`request_id` and `at` are there to be validated")]
struct ConnectArgs {
    target: Target,
    #[schemars(extend("format" = "uuid"))]
    request_id: Option<String>,
    #[schemars(extend("format" = "date-time"))]
    at: Option<String>,
}

/// Connect somewhere
#[tool]
async fn connect(args: ConnectArgs) -> String {
    format!("{}:{}", args.target.addr, args.target.port)
}

#[allow(
    dead_code,
    reason = "read through Debug: the test compares what serde made"
)]
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "op", rename_all = "lowercase")]
enum Patch {
    Set { path: String, value: Value },
    Remove { path: String, value: Option<String> },
}

#[allow(
    dead_code,
    reason = "read through Debug: the test compares what serde made"
)]
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Amount {
    Exact(u64),
    Approx(f64),
}

#[allow(
    dead_code,
    reason = "`name` is only parsed: the test checks that its null is taken"
)]
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Filter {
    All { filters: Vec<Filter> },
    Any { filters: Vec<Filter> },
    Name { name: Option<String> },
}

impl Filter {
    fn depth(&self) -> usize {
        match self {
            Self::All { filters } | Self::Any { filters } => {
                1 + filters.iter().map(Self::depth).max().unwrap_or(0)
            }
            Self::Name { .. } => 0,
        }
    }
}

#[derive(Deserialize, JsonSchema)]
struct EdgeArgs {
    id: u64,
    patch: Patch,
    amount: Amount,
    filter: Filter,
}

/// Says what serde made of arguments that preparing them must not change
#[tool]
async fn edges(args: EdgeArgs) -> String {
    format!(
        "{} {:?} {:?} depth {}",
        args.id,
        args.patch,
        args.amount,
        args.filter.depth()
    )
}

#[derive(Serialize, JsonSchema)]
struct Link {
    #[schemars(url)]
    href: String,
}

/// Returns a link that serde writes but a strict reading of the `uri` format would refuse
#[tool]
async fn link() -> Json<Link> {
    Json(Link {
        href: "https://example.com/a|b".into(),
    })
}

#[derive(Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Mark {
    Dot { label: Option<String> },
    Line { length: u32, label: Option<String> },
}

/// Returns marks, one of them missing
#[tool]
async fn marks() -> Json<Vec<Option<Mark>>> {
    Json(vec![
        Some(Mark::Dot { label: None }),
        None,
        Some(Mark::Line {
            length: 2,
            label: Some("x".into()),
        }),
    ])
}

#[derive(Serialize, JsonSchema)]
struct Tally {
    comment: Option<String>,
    count: u32,
}

/// Returns a tally and its total
#[tool]
async fn pair() -> Json<(Tally, u32)> {
    Json((
        Tally {
            comment: None,
            count: 1,
        },
        2,
    ))
}

#[derive(Debug, Deserialize, JsonSchema)]
enum Unit {
    Mm,
}

#[allow(
    dead_code,
    reason = "read through Debug: the test compares what serde made"
)]
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "op")]
enum Op {
    A { unit: Unit, data: Option<String> },
    B { unit: Unit, data: Value },
}

#[allow(
    dead_code,
    reason = "read through Debug: the test compares what serde made"
)]
#[derive(Debug, Deserialize, JsonSchema)]
struct Tree {
    label: Option<String>,
    children: Vec<Tree>,
}

#[allow(
    dead_code,
    reason = "read through Debug: the test compares what serde made"
)]
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "kind")]
enum Node {
    Tree(Tree),
    Leaf { value: u8 },
}

#[derive(Deserialize, JsonSchema)]
struct BranchArgs {
    op: Op,
    node: Node,
}

/// Says what serde made of enum arguments
#[tool]
async fn branches(args: BranchArgs) -> String {
    format!("{:?} {:?}", args.op, args.node)
}

#[allow(
    dead_code,
    reason = "read through Debug: the test compares what serde made"
)]
#[derive(Debug, Deserialize, JsonSchema)]
enum Change {
    Rename { to: String, note: Option<String> },
    Delete,
}

#[allow(
    dead_code,
    reason = "read through Debug: the test compares what serde made"
)]
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Ref {
    Id(u32),
    Name(String),
}

#[derive(Deserialize, JsonSchema)]
struct EditArgs {
    id: u32,
    #[serde(flatten)]
    change: Change,
    target: Ref,
}

/// Says what serde made of a flattened enum and an untagged one
#[tool]
async fn edit(args: EditArgs) -> String {
    format!("{} {:?} {:?}", args.id, args.change, args.target)
}

#[derive(Deserialize, JsonSchema)]
struct Status {
    status: String,
}

#[allow(dead_code, reason = "only read to check what is refused")]
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Shape {
    Circle { radius: f64 },
    Square { side: f64 },
}

#[derive(Deserialize, JsonSchema)]
struct PageArgs {
    page: u32,
    filter: Option<Status>,
    shape: Option<Shape>,
    tree: Option<Tree>,
    tags: Option<std::collections::BTreeMap<String, Status>>,
    extra: Option<std::collections::BTreeMap<String, Value>>,
}

/// Pages through nested arguments
#[tool]
async fn page(args: PageArgs) -> String {
    format!(
        "page {} filter {:?} shape {} tree {:?} tags {:?} extra {:?}",
        args.page,
        args.filter.map(|f| f.status),
        args.shape.is_some(),
        args.tree,
        args.tags.map(|tags| tags.len()),
        args.extra
    )
}

/// Patches a ticket
#[tool]
async fn patch_ticket(
    /// The ticket
    id: u32,
    /// The new assignee: `null` clears it, left out keeps it
    assignee: Option<Option<String>>,
    /// A note; `null` is as if left out
    note: Option<String>,
    /// The due date, renamed: `null` still clears it
    #[serde(rename = "dueDate")]
    due: Option<Option<String>>,
) -> String {
    format!("{id} {assignee:?} {note:?} {due:?}")
}

/// `serde_with::rust::double_option`, as users write it.
#[allow(
    clippy::option_option,
    reason = "absent, null and a value are three cases"
)]
fn double_option<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(deserializer).map(Some)
}

#[allow(
    clippy::option_option,
    reason = "absent, null and a value are three cases"
)]
#[derive(Deserialize, JsonSchema)]
struct TicketPatch {
    id: u32,
    #[serde(default, deserialize_with = "double_option")]
    #[schemars(extend("x-mcp-nullable" = true))]
    assignee: Option<Option<String>>,
}

/// Patches a ticket from an argument struct
#[tool]
async fn patch_ticket_struct(args: TicketPatch) -> String {
    format!("{} {:?}", args.id, args.assignee)
}

/// The serde double-option pattern as users write it, without telling the schema (issue 40,
/// item 8): a `null` reaches the field's own deserializer.
#[allow(
    clippy::option_option,
    reason = "absent, null and a value are three cases"
)]
#[derive(Deserialize, JsonSchema)]
struct AssigneePatch {
    id: u32,
    #[serde(default, deserialize_with = "double_option")]
    assignee: Option<Option<String>>,
    #[serde(default)]
    count: u32,
    note: Option<String>,
}

/// Patches an assignee: `null` clears it
#[tool]
async fn patch_assignee(args: AssigneePatch) -> String {
    format!(
        "{} {:?} {} {:?}",
        args.id, args.assignee, args.count, args.note
    )
}

fn client() -> TestClient {
    TestClient::new(Server::new("validation", "0.0.0"))
}

fn valid_signup() -> Value {
    json!({
        "name": "Ada",
        "age": 36,
        "role": "admin",
        "handle": "ada",
        "address": {"city": "London"},
        "scores": [1, 2, 3]
    })
}

/// `valid_signup` with `field` set to `value`, or left out when `value` is `None`.
fn signup_with(field: &str, value: Option<Value>) -> Value {
    let mut arguments = valid_signup();
    match value {
        Some(value) => arguments[field] = value,
        None => {
            arguments.as_object_mut().unwrap().remove(field);
        }
    }
    arguments
}

fn input_error(tool: &str, failures: &str) -> Value {
    json!({
        "content": [{"type": "text", "text": format!("Input validation error: Invalid arguments for tool {tool}: {failures}")}],
        "isError": true
    })
}

async fn call(client: &TestClient, tool: &str, arguments: Value) -> Value {
    serde_json::to_value(client.call_tool(tool, arguments).await).unwrap()
}

#[tokio::test]
async fn valid_arguments_reach_the_tool() {
    let result = client().call_tool("signup", valid_signup()).await;
    assert_eq!(
        serde_json::to_value(&result).unwrap(),
        json!({"content": [{"type": "text", "text": "Ada 36 Admin @ada in London None scores [1, 2, 3] nickname None"}]})
    );
}

#[tokio::test]
async fn each_failing_keyword_has_its_message() {
    let client = client();
    let cases = [
        ("name", None, "name: required property is missing"),
        (
            "age",
            Some(json!("old")),
            r#"age: expected integer, got string "old""#,
        ),
        (
            "age",
            Some(json!(36.5)),
            "age: expected integer, got number 36.5",
        ),
        (
            "role",
            Some(json!("boss")),
            r#"role: expected one of ["admin","member"], got string "boss""#,
        ),
        ("age", Some(json!(5)), "age: must be at least 18, got 5"),
        ("age", Some(json!(200)), "age: must be at most 130, got 200"),
        (
            "name",
            Some(json!("A")),
            "name: must be at least 2 characters long",
        ),
        (
            "name",
            Some(json!("Adalovelace")),
            "name: must be at most 10 characters long",
        ),
        (
            "handle",
            Some(json!("Ada!")),
            "handle: must match the pattern ^[a-z]+$",
        ),
        (
            "address",
            Some(json!({"city": 3})),
            "address.city: expected string, got integer 3",
        ),
        (
            "address",
            Some(json!({})),
            "address.city: required property is missing",
        ),
        (
            "scores",
            Some(json!([1, "two", 3])),
            r#"scores.1: expected integer, got string "two""#,
        ),
        (
            "scores",
            Some(json!([1, 2, 300])),
            "scores.2: must be at most 255, got 300",
        ),
        (
            "nickname",
            Some(json!(7)),
            "nickname: expected string, got integer 7",
        ),
    ];
    for (field, value, failure) in cases {
        let arguments = signup_with(field, value);
        assert_eq!(
            call(&client, "signup", arguments.clone()).await,
            input_error("signup", failure),
            "{arguments}"
        );
    }
}

#[tokio::test]
async fn unknown_fields_are_refused_with_deny_unknown_fields() {
    let client = client();
    assert_eq!(
        call(
            &client,
            "strict",
            json!({"id": 1, "extra": true, "more": 2})
        )
        .await,
        input_error(
            "strict",
            "(root): unknown properties 'extra', 'more' are not allowed"
        )
    );
    assert_eq!(
        call(&client, "strict", json!({"id": 1})).await,
        json!({"content": [{"type": "text", "text": "1"}]})
    );
}

#[tokio::test]
async fn every_failing_field_is_listed() {
    let arguments = json!({
        "name": "A",
        "age": "old",
        "role": "boss",
        "handle": "Ada!",
        "address": {"city": 3},
        "scores": [1, "two"]
    });
    let failures = [
        "name: must be at least 2 characters long",
        r#"age: expected integer, got string "old""#,
        r#"role: expected one of ["admin","member"], got string "boss""#,
        "handle: must match the pattern ^[a-z]+$",
        "address.city: expected string, got integer 3",
        r#"scores.1: expected integer, got string "two""#,
    ];
    assert_eq!(
        call(&client(), "signup", arguments).await,
        input_error("signup", &failures.join(", "))
    );
    let every_required = [
        "name: required property is missing",
        "age: required property is missing",
        "role: required property is missing",
        "handle: required property is missing",
        "address: required property is missing",
        "scores: required property is missing",
    ];
    assert_eq!(
        call(&client(), "signup", json!({})).await,
        input_error("signup", &every_required.join(", "))
    );
}

#[tokio::test]
async fn missing_arguments_are_an_empty_object() {
    let client = client();
    let response = client
        .request("tools/call", json!({"name": "optional"}))
        .await;
    assert_eq!(
        response["result"],
        json!({"content": [{"type": "text", "text": "note None count 0"}]})
    );
    let response = client
        .request("tools/call", json!({"name": "optional", "arguments": null}))
        .await;
    assert_eq!(
        response["result"],
        json!({"content": [{"type": "text", "text": "note None count 0"}]})
    );
    let response = client
        .request("tools/call", json!({"name": "strict"}))
        .await;
    assert_eq!(
        response["result"],
        input_error("strict", "id: required property is missing")
    );
}

#[tokio::test]
async fn null_for_an_optional_field_is_like_leaving_it_out() {
    let client = client();
    assert_eq!(
        call(&client, "optional", json!({"note": null, "count": null})).await,
        json!({"content": [{"type": "text", "text": "note None count 0"}]})
    );
    assert_eq!(
        call(&client, "optional", json!({"note": "hi", "count": 2})).await,
        json!({"content": [{"type": "text", "text": "note Some(\"hi\") count 2"}]})
    );
    // At any depth.
    let mut arguments = signup_with("address", Some(json!({"city": "Paris", "zip": null})));
    arguments["nickname"] = Value::Null;
    assert_eq!(
        call(&client, "signup", arguments).await,
        json!({"content": [{"type": "text", "text": "Ada 36 Admin @ada in Paris None scores [1, 2, 3] nickname None"}]})
    );
    // A required field is not optional: `null` is a wrong type there.
    assert_eq!(
        call(&client, "signup", signup_with("name", Some(Value::Null))).await,
        input_error("signup", "name: expected string, got null")
    );
}

/// JSON Schema takes `36.0` for an integer, and so does the tool: a model that writes `36.0`
/// gets its call through.
#[tokio::test]
async fn whole_number_floats_are_integers() {
    let client = client();
    let mut arguments = signup_with("age", Some(json!(36.0)));
    arguments["scores"] = json!([1.0, 2, 3e0]);
    assert_eq!(
        call(&client, "signup", arguments).await,
        json!({"content": [{"type": "text", "text": "Ada 36 Admin @ada in London None scores [1, 2, 3] nickname None"}]})
    );
    assert_eq!(
        call(
            &client,
            "connect",
            json!({"target": {"addr": "::1", "port": 8080.0}})
        )
        .await,
        json!({"content": [{"type": "text", "text": "::1:8080"}]})
    );
}

/// A value only serde rejects is reported like a schema failure, with its path; standard
/// formats are checked by validation.
#[tokio::test]
async fn every_failure_names_its_field() {
    let client = client();
    assert_eq!(
        call(
            &client,
            "connect",
            json!({"target": {"addr": "not-an-ip", "port": 80}})
        )
        .await,
        input_error("connect", "target.addr: invalid IP address syntax")
    );
    assert_eq!(
        call(
            &client,
            "connect",
            json!({
                "target": {"addr": "127.0.0.1", "port": 80},
                "request_id": "nope",
                "at": "yesterday"
            })
        )
        .await,
        input_error(
            "connect",
            r#"request_id: must be a valid uuid, got "nope", at: must be a valid date-time, got "yesterday""#
        )
    );
    assert_eq!(
        call(
            &client,
            "connect",
            json!({
                "target": {"addr": "127.0.0.1", "port": 80},
                "request_id": "67e55044-10b1-426f-9247-bb680e5fe0c8",
                "at": "2025-06-18T12:00:00Z"
            })
        )
        .await,
        json!({"content": [{"type": "text", "text": "127.0.0.1:80"}]})
    );
}

#[tokio::test]
async fn malformed_calls_are_protocol_errors() {
    let client = client();
    let error = client.try_call_tool("nope", json!({})).await.unwrap_err();
    assert_eq!(
        serde_json::to_value(error).unwrap(),
        json!({"code": -32602, "message": "Unknown tool: nope"})
    );
    let response = client
        .request("tools/call", json!({"name": "strict", "arguments": [1]}))
        .await;
    assert_eq!(
        response["error"],
        json!({"code": -32602, "message": "`arguments` must be an object"})
    );
    let response = client.request("tools/call", json!({"arguments": {}})).await;
    assert_eq!(
        response["error"],
        json!({"code": -32602, "message": "tools/call requires a string `name`"})
    );
}

#[tokio::test]
async fn structured_content_is_checked_against_the_output_schema() {
    let client = client();
    assert_eq!(
        call(&client, "reading", json!({"percent": 40})).await,
        json!({"content": [{"type": "text", "text": r#"{"percent":40}"#}], "structuredContent": {"percent": 40}})
    );
    assert_eq!(
        call(&client, "reading", json!({"percent": 150})).await,
        json!({
            "content": [{
                "type": "text",
                "text": "Output validation error: Invalid structured content for tool reading: percent: must be at most 100, got 150"
            }],
            "isError": true
        })
    );
    assert_eq!(
        call(&client, "forgetful", json!({})).await,
        json!({
            "content": [{
                "type": "text",
                "text": "Output validation error: Tool forgetful has an output schema but no structured content was provided"
            }],
            "isError": true
        })
    );
}

// ---- tools added at run time ---------------------------------------------------------------

fn run_time_tool(name: &str, input_schema: Value) -> Result<Tool, RegistryError> {
    Tool::new(
        name,
        "Added at run time",
        input_schema,
        |arguments, _| async move { CallToolResult::text(arguments.to_string()) },
    )
}

#[tokio::test]
async fn a_run_time_tool_needs_a_valid_name() {
    let problem = "its name must be 1 to 64 characters from `A-Z a-z 0-9 _ . -`";
    for name in ["has space", &"x".repeat(65), "", "naïve", "slash/ed"] {
        let RegistryError::InvalidTool {
            name: refused,
            location,
            problem: because,
            ..
        } = run_time_tool(name, json!({"type": "object"})).unwrap_err()
        else {
            panic!("an invalid tool expected for {name:?}");
        };
        assert_eq!(
            (refused.as_str(), location, because.as_str()),
            (name, None, problem),
            "{name:?}"
        );
    }
    let longest = format!("A-z_0.9{}", "x".repeat(57));
    assert_eq!(longest.len(), 64);
    let tool = run_time_tool(&longest, json!({"type": "object"})).unwrap();
    let server = Server::new("validation", "0.0.0");
    server.tools().add(tool).unwrap();
    assert_eq!(
        call(&TestClient::new(server), &longest, json!({})).await,
        json!({"content": [{"type": "text", "text": "{}"}]})
    );
}

#[tokio::test]
async fn a_run_time_tool_advertises_properties_and_required_like_any_other() {
    let server = Server::new("validation", "0.0.0");
    let bare = run_time_tool("bare", json!({"type": "object"})).unwrap();
    assert_eq!(
        bare.definition().input_schema,
        json!({"type": "object", "properties": {}})
    );
    let optional_n = run_time_tool(
        "optional_n",
        json!({"type": "object", "properties": {"n": {"type": "integer"}}}),
    )
    .unwrap();
    assert_eq!(
        optional_n.definition().input_schema,
        json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": []})
    );
    server.tools().add(bare).unwrap();
    server.tools().add(optional_n).unwrap();
    let client = TestClient::new(server);
    let tools = client.list_tools().await.tools;
    let schema = |name: &str| {
        tools
            .iter()
            .find(|tool| tool.name == name)
            .map(|tool| tool.input_schema.clone())
            .unwrap()
    };
    assert_eq!(
        schema("bare"),
        json!({"type": "object", "properties": {}}),
        "as listed"
    );
    assert_eq!(schema("optional_n")["required"], json!([]), "as listed");
    assert_eq!(
        call(&client, "bare", json!({})).await,
        json!({"content": [{"type": "text", "text": "{}"}]})
    );
    assert_eq!(
        call(&client, "optional_n", json!({"n": "x"})).await,
        input_error("optional_n", r#"n: expected integer, got string "x""#)
    );
}

/// Preparing arguments (nulls of optional fields left out, whole floats made integers) leaves
/// exact integers exact, follows only the enum variant the tag names (a sibling variant's
/// optional field may be another's required one; an untagged `f64` stays a float), and stays
/// linear in a deeply nested recursive enum.
#[tokio::test]
async fn preparing_arguments_changes_nothing_serde_would_read_differently() {
    let client = client();
    let mut filter = json!({"kind": "name", "name": null});
    for level in 0..40 {
        let kind = if level % 2 == 0 { "all" } else { "any" };
        filter = json!({"kind": kind, "filters": [filter, {"kind": "name", "name": "x"}]});
    }
    let arguments = json!({
        "id": 9_007_199_254_740_993_u64,
        "patch": {"op": "set", "path": "a", "value": null},
        "amount": 10.0,
        "filter": filter,
    });
    assert_eq!(
        call(&client, "edges", arguments).await,
        json!({"content": [{"type": "text", "text": "9007199254740993 Set { path: \"a\", value: Null } Approx(10.0) depth 40"}]})
    );
}

/// Output formats are annotations: what serde writes is not refused by a stricter reading.
#[tokio::test]
async fn output_formats_are_not_enforced() {
    let client = client();
    let result = call(&client, "link", json!({})).await;
    assert_eq!(result.get("isError"), None, "{result}");
    assert_eq!(
        result["structuredContent"],
        json!({"href": "https://example.com/a|b"})
    );
}

/// `None`s are left out wherever serde writes them: in an `Option` of a tagged enum inside a
/// list (an `anyOf` with `null`), and in a tuple's items (`prefixItems`).
#[tokio::test]
async fn none_is_left_out_of_lists_of_options_and_tuples() {
    let client = client();
    let result = call(&client, "marks", json!({})).await;
    assert_eq!(result.get("isError"), None, "{result}");
    assert_eq!(
        result["structuredContent"],
        json!({"result": [{"kind": "dot"}, null, {"kind": "line", "length": 2, "label": "x"}]})
    );
    let result = call(&client, "pair", json!({})).await;
    assert_eq!(result.get("isError"), None, "{result}");
    assert_eq!(
        result["structuredContent"],
        json!({"result": [{"count": 1}, 2]})
    );
}

/// The variant is the one the whole tag names (not one that merely shares a fixed field), and a
/// tagged newtype variant of a recursive type is found by its tag too.
#[tokio::test]
async fn arguments_are_prepared_for_the_variant_serde_reads() {
    let client = client();
    let arguments = json!({
        "op": {"op": "B", "unit": "Mm", "data": null},
        "node": {"kind": "Tree", "label": null, "children": []},
    });
    assert_eq!(
        call(&client, "branches", arguments).await,
        json!({"content": [{"type": "text", "text": "B { unit: Mm, data: Null } Tree(Tree { label: None, children: [] })"}]})
    );
}

/// A flattened externally tagged enum is found by its variant's key among the struct's own
/// fields; a whole float goes to the integer variant of an untagged enum that takes no other
/// number.
#[tokio::test]
async fn flattened_and_untagged_enums_are_prepared_too() {
    let client = client();
    let arguments = json!({"id": 1, "Rename": {"to": "x", "note": null}, "target": 5.0});
    assert_eq!(
        call(&client, "edit", arguments).await,
        json!({"content": [{"type": "text", "text": "1 Rename { to: \"x\", note: None } Id(5)"}]})
    );
}

// ---- issue 14: nulls in collections, number ranges, unknown arguments ----------------------

/// Counts the `None`s it gets
#[tool]
async fn holes(
    /// Numbers, some missing
    list: Vec<Option<i32>>,
    /// Names, some missing
    names: std::collections::HashMap<String, Option<String>>,
    /// A number and perhaps another
    pair: (i32, Option<i32>),
) -> String {
    let names = names.values().filter(|name| name.is_none()).count();
    format!("{list:?} {names} {pair:?}")
}

/// `Option<T>` inside a list, a map or a tuple takes `null`: only an optional property is
/// advertised as `T` (issue 14, item 3).
#[tokio::test]
async fn none_inside_collections_is_accepted() {
    let client = client();
    let schema = client
        .list_tools()
        .await
        .tools
        .into_iter()
        .find(|tool| tool.name == "holes")
        .unwrap()
        .input_schema;
    assert_eq!(
        schema["properties"]["list"]["items"]["type"],
        json!(["integer", "null"])
    );
    let arguments =
        json!({"list": [1, null, 3], "names": {"a": "x", "b": null}, "pair": [1, null]});
    let result = call(&client, "holes", arguments).await;
    assert_eq!(
        result,
        json!({"content": [{"type": "text", "text": "[Some(1), None, Some(3)] 1 (1, None)"}]})
    );
}

/// Takes wide and narrow numbers
#[tool]
async fn widths(
    /// Very wide
    wide: Option<i128>,
    /// Narrow float
    narrow: Option<f32>,
) -> String {
    format!("{wide:?} {narrow:?}")
}

/// An `i128` is advertised with the range JSON numbers give it exactly; an `f32` with its range:
/// a number beyond it is refused by validation, not read as infinity (issue 14, item 5).
#[tokio::test]
async fn numbers_beyond_their_type_are_refused_by_the_advertised_bounds() {
    let client = client();
    let schema = client
        .list_tools()
        .await
        .tools
        .into_iter()
        .find(|tool| tool.name == "widths")
        .unwrap()
        .input_schema;
    assert_eq!(
        schema["properties"]["wide"],
        json!({"type": "integer", "minimum": i64::MIN, "maximum": u64::MAX, "description": "Very wide"})
    );
    assert_eq!(
        schema["properties"]["narrow"],
        json!({"type": "number", "minimum": -f32::MAX, "maximum": f32::MAX, "description": "Narrow float"})
    );
    let result = call(&client, "widths", json!({"narrow": 1e39})).await;
    assert_eq!(
        result,
        input_error(
            "widths",
            "narrow: must be at most 3.4028234663852886e+38, got 1e+39"
        )
    );
    let result = call(
        &client,
        "widths",
        json!({"wide": -9_223_372_036_854_775_808_i64, "narrow": 1.5}),
    )
    .await;
    assert_eq!(
        result,
        json!({"content": [{"type": "text", "text": "Some(-9223372036854775808) Some(1.5)"}]})
    );
    let too_wide: Value = serde_json::from_str(r#"{"wide": -9223372036854775809}"#).unwrap();
    let result = client.call_tool("widths", too_wide).await;
    assert!(result.is_error, "{result:?}");
    assert!(
        result.text_content().contains("wide: ")
            && result.text_content().contains("integer out of range"),
        "{}",
        result.text_content()
    );
}

/// Echoes one number
#[tool]
async fn one_param(
    /// The number
    n: i32,
) -> String {
    n.to_string()
}

/// Says hello
#[tool]
async fn no_param() -> &'static str {
    "hello"
}

/// One rule for unknown arguments, whatever the tool's style: refused, as the advertised
/// `additionalProperties: false` says (issue 14, item 10).
#[tokio::test]
async fn unknown_arguments_are_refused_in_every_style() {
    let client = client();
    let unknown = "(root): unknown properties 'extra' are not allowed";
    for (tool, arguments) in [
        ("no_param", json!({"extra": 1})),
        ("one_param", json!({"n": 1, "extra": 1})),
        ("signup", signup_with("extra", Some(json!(1)))),
    ] {
        let result = client.call_tool(tool, arguments).await;
        assert!(result.is_error, "{tool}: {result:?}");
        assert!(
            result.text_content().contains(unknown),
            "{tool}: {}",
            result.text_content()
        );
    }
}

/// A value that fits no branch of a tagged enum is told what is wrong inside the branch its tag
/// names, or that its tag names none: not only "not valid under any of the schemas".
#[tokio::test]
async fn an_enum_failure_names_the_field_in_the_branch_the_tag_chose() {
    let client = client();
    let too_big = json!({
        "op": {"op": "A", "unit": "Mm"},
        "node": {"kind": "Leaf", "value": 300},
    });
    let result = client.call_tool("branches", too_big).await;
    assert_eq!(
        result.text_content(),
        "Input validation error: Invalid arguments for tool branches: node.value: must be at most 255, got 300"
    );
    let unknown = json!({
        "op": {"op": "A", "unit": "Mm"},
        "node": {"kind": "Bush"},
    });
    let result = client.call_tool("branches", unknown).await;
    assert_eq!(
        result.text_content(),
        r#"Input validation error: Invalid arguments for tool branches: node.kind: must be one of "Tree", "Leaf", got string "Bush""#
    );
}

/// Issue 22 item 3: the docs' promise (unknown arguments refused) holds at every depth, not only at the root: a nested
/// struct, an enum's variant, a child of a recursive type (under `$defs`) and a map's values
/// refuse an unknown key, naming where it is; a map itself takes any key.
#[tokio::test]
async fn unknown_keys_are_refused_at_every_depth() {
    let client = client();
    let cases = [
        (
            json!({"page": 1, "filter": {"status": "open", "bogus": 1}}),
            "filter: unknown properties 'bogus' are not allowed",
        ),
        (
            json!({"page": 1, "shape": {"circle": {"radius": 2, "x": 1}}}),
            "shape.circle: unknown properties 'x' are not allowed",
        ),
        (
            json!({"page": 1, "tree": {"children": [{"children": [], "bogus": 1}]}}),
            "tree.children.0: unknown properties 'bogus' are not allowed",
        ),
        (
            json!({"page": 1, "tags": {"a": {"status": "open", "bogus": 1}}}),
            "tags.a: unknown properties 'bogus' are not allowed",
        ),
    ];
    for (arguments, failure) in cases {
        assert_eq!(
            call(&client, "page", arguments.clone()).await,
            input_error("page", failure),
            "{arguments}"
        );
    }
    assert_eq!(
        call(
            &client,
            "page",
            json!({"page": 1, "filter": {"status": "open"}, "tree": {"children": [{"children": []}]}, "tags": {"any": {"status": "x"}}, "extra": {"anything": 1}})
        )
        .await,
        json!({"content": [{"type": "text", "text": "page 1 filter Some(\"open\") shape false tree Some(Tree { label: None, children: [Tree { label: None, children: [] }] }) tags Some(1) extra Some({\"anything\": Number(1)})"}]})
    );
    // The advertised schema says so too, where a host or a model reads it.
    let tools = client.list_tools().await;
    let schema = &tools
        .tools
        .iter()
        .find(|tool| tool.name == "page")
        .unwrap()
        .input_schema;
    assert_eq!(
        schema["properties"]["filter"]["additionalProperties"],
        json!(false)
    );
    assert_eq!(
        schema["$defs"]["Tree"]["additionalProperties"],
        json!(false)
    );
    assert_eq!(
        schema["properties"]["extra"]["additionalProperties"],
        json!(true)
    );
}

/// Issue 22 item 4: `Option<Option<T>>` is "absent = keep, null = clear": its `null` reaches
/// the tool as `Some(None)` (a plain `Option<T>`'s `null` is still as if left out), and it is
/// advertised nullable so that a model can send it. Inline, `#[tool]` does it; in an argument
/// struct, the field says so (`deserialize_with` a double option, `x-mcp-nullable`).
#[tokio::test]
async fn a_double_option_takes_null_as_clear() {
    let client = client();
    let cases = [
        (json!({"id": 1}), "1 None None None"),
        (
            json!({"id": 1, "assignee": null, "note": null, "dueDate": null}),
            "1 Some(None) None Some(None)",
        ),
        (
            json!({"id": 1, "assignee": "ada", "dueDate": "friday"}),
            "1 Some(Some(\"ada\")) None Some(Some(\"friday\"))",
        ),
    ];
    for (arguments, text) in cases {
        assert_eq!(
            call(&client, "patch_ticket", arguments.clone()).await,
            json!({"content": [{"type": "text", "text": text}]}),
            "{arguments}"
        );
    }
    let cases = [
        (json!({"id": 2}), "2 None"),
        (json!({"id": 2, "assignee": null}), "2 Some(None)"),
        (json!({"id": 2, "assignee": "bo"}), "2 Some(Some(\"bo\"))"),
    ];
    for (arguments, text) in cases {
        assert_eq!(
            call(&client, "patch_ticket_struct", arguments.clone()).await,
            json!({"content": [{"type": "text", "text": text}]}),
            "{arguments}"
        );
    }
    let tools = client.list_tools().await.tools;
    let schema = |name: &str| {
        tools
            .iter()
            .find(|tool| tool.name == name)
            .unwrap()
            .input_schema
            .clone()
    };
    let inline = schema("patch_ticket");
    assert_eq!(
        inline["properties"]["assignee"],
        json!({"type": ["string", "null"], "description": "The new assignee: `null` clears it, left out keeps it"})
    );
    assert_eq!(inline["properties"]["note"]["type"], json!("string"));
    assert_eq!(
        inline["properties"]["dueDate"]["type"],
        json!(["string", "null"])
    );
    assert_eq!(inline["required"], json!(["id"]));
    let structured = schema("patch_ticket_struct");
    assert_eq!(
        structured["properties"]["assignee"],
        json!({"type": ["string", "null"]})
    );
    assert_eq!(structured["required"], json!(["id"]));
}

/// Issue 40 item 8: `{"assignee": null}` reaches a double-option `deserialize_with` as `null`
/// (`Some(None)`, "clear"), not as left out (`None`, "keep"), though the schema says nothing of
/// it; a `null` the field's type refuses (a `#[serde(default)] u32`) is read as left out, as
/// before, and a plain `Option` reads it as `None`.
#[tokio::test]
async fn a_null_the_type_reads_reaches_it() {
    let client = client();
    let cases = [
        (json!({"id": 1}), "1 None 0 None"),
        (json!({"id": 1, "assignee": null}), "1 Some(None) 0 None"),
        (
            json!({"id": 1, "assignee": "ada"}),
            "1 Some(Some(\"ada\")) 0 None",
        ),
        (
            json!({"id": 1, "assignee": null, "count": null, "note": null}),
            "1 Some(None) 0 None",
        ),
        (
            json!({"id": 1, "count": 2, "note": "n"}),
            "1 None 2 Some(\"n\")",
        ),
    ];
    for (arguments, text) in cases {
        assert_eq!(
            call(&client, "patch_assignee", arguments.clone()).await,
            json!({"content": [{"type": "text", "text": text}]}),
            "{arguments}"
        );
    }
}
