//! Every form the examples and these tests send, checked with the official TypeScript client's
//! own schema (`tests/clients/form_check.mjs`): the client refuses a whole `elicitation/create`
//! (and a 2026-07-28 `inputRequests` entry) over one property it does not take, such as the
//! `"default": null` an `Option` with `#[serde(default)]` gave (issue 22).
//!
//! The forms are collected by asking the servers, in both eras: `examples/conformance` and
//! `examples/todo` over stdio, and this file's own tools (the forms people write) in process.
//! Every tool is called with arguments made from its input schema, and every question answered
//! (forms with values made from the form), round after round, until the call completes.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use mcp_toolbelt::{Context, Server, ask::AskError, tool};
use mcp_toolbelt_tests::{example_binary, node22, repo_root};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, Lines};

/// The form of issue 22: an optional answer, as people write it.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code, reason = "only asked for")]
struct Approval {
    /// Approve the refund
    approve: bool,
    /// Why, if you like
    #[serde(default)]
    reason: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code, reason = "only asked for")]
enum Priority {
    /// Whenever
    Low,
    /// Now
    High,
}

fn two() -> u32 {
    2
}

fn high() -> Priority {
    Priority::High
}

/// Every kind of field, with and without a default.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code, reason = "only asked for")]
struct Preferences {
    /// How many
    #[serde(default = "two")]
    #[schemars(range(min = 1, max = 9))]
    count: u32,
    /// Which priority
    #[serde(default = "high")]
    priority: Priority,
    /// A priority, or none
    #[serde(default)]
    fallback: Option<Priority>,
    /// Tell me by mail
    #[serde(default)]
    notify: bool,
    /// Where to write
    #[serde(default)]
    #[schemars(email)]
    email: Option<String>,
    /// Labels
    #[serde(default)]
    labels: Vec<Priority>,
    /// A ratio, or none
    #[serde(default)]
    ratio: Option<f64>,
}

/// Refund an order, once approved
#[tool(asks(Approval))]
async fn refund(context: Context) -> Result<String, AskError> {
    context.elicit::<Approval>("Approve the refund?").await?;
    Ok("refunded".into())
}

/// Set the preferences
#[tool(asks(Preferences))]
async fn configure(context: Context) -> Result<String, AskError> {
    context.elicit::<Preferences>("Your preferences?").await?;
    Ok("configured".into())
}

/// What a client declares: every kind of question.
fn capabilities() -> Value {
    json!({"elicitation": {"form": {}}, "sampling": {}, "roots": {}})
}

/// One form a server sent: where from, and the `elicitation/create` params.
struct Form {
    source: String,
    params: Value,
}

/// A stdio-framed MCP connection (one JSON message a line), as a client sees it.
struct Connection<R, W> {
    lines: Lines<BufReader<R>>,
    writer: W,
    next_id: u64,
    server: String,
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin> Connection<R, W> {
    async fn new(server: &str, reader: R, writer: W) -> Self {
        let mut connection = Self {
            lines: BufReader::new(reader).lines(),
            writer,
            next_id: 0,
            server: server.to_owned(),
        };
        let initialize = json!({"protocolVersion": "2025-11-25", "capabilities": capabilities(),
            "clientInfo": {"name": "forms", "version": "1"}});
        connection.request("initialize", initialize).await;
        connection
            .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        connection
    }

    async fn send(&mut self, message: Value) {
        let line = format!("{message}\n");
        self.writer.write_all(line.as_bytes()).await.unwrap();
        self.writer.flush().await.unwrap();
    }

    /// Sends a request and returns its response, answering the server's questions meanwhile
    /// (their forms go to `forms`).
    async fn call(
        &mut self,
        method: &str,
        params: Value,
        forms: &mut Vec<Form>,
        tool: &str,
    ) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        loop {
            let line = tokio::time::timeout(Duration::from_secs(30), self.lines.next_line())
                .await
                .unwrap_or_else(|_| panic!("{}: no answer to {method} {tool} in 30 s", self.server))
                .unwrap()
                .unwrap_or_else(|| panic!("{}: closed its output", self.server));
            let message: Value = serde_json::from_str(&line).unwrap();
            match (
                message.get("method").and_then(Value::as_str),
                message.get("id"),
            ) {
                (Some(question), Some(question_id)) => {
                    let params = message.get("params").cloned().unwrap_or(Value::Null);
                    let source = format!("{} {tool} (2025-11-25)", self.server);
                    let result = answer(question, &params, &source, forms);
                    self.send(json!({"jsonrpc": "2.0", "id": question_id, "result": result}))
                        .await;
                }
                (Some(_), None) => {} // a notification
                (None, _) if message["id"] == id => return message,
                (None, _) => panic!("{}: an answer to no request: {message}", self.server),
            }
        }
    }

    async fn request(&mut self, method: &str, params: Value) -> Value {
        self.call(method, params, &mut Vec::new(), "").await
    }

    /// Every tool, called at 2025-11-25 and at 2026-07-28.
    async fn ask_every_tool(&mut self, forms: &mut Vec<Form>) {
        let listing = self.request("tools/list", json!({})).await;
        let tools = listing["result"]["tools"].as_array().unwrap().clone();
        assert!(!tools.is_empty(), "{}: no tools", self.server);
        for tool in tools {
            let name = tool["name"].as_str().unwrap();
            let arguments = sample(&tool["inputSchema"]);
            let params = json!({"name": name, "arguments": arguments});
            self.call("tools/call", params, forms, name).await;
            self.modern_call(name, &arguments, forms).await;
        }
    }

    /// A 2026-07-28 call, its `input_required` rounds answered until it completes.
    async fn modern_call(&mut self, name: &str, arguments: &Value, forms: &mut Vec<Form>) {
        let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities(),
            "io.modelcontextprotocol/clientInfo": {"name": "forms", "version": "1"}});
        let mut params = json!({"name": name, "arguments": arguments, "_meta": meta});
        for _ in 0..10 {
            let response = self.call("tools/call", params.clone(), forms, name).await;
            let result = &response["result"];
            if result["resultType"] != "input_required" {
                return;
            }
            let source = format!("{} {name} (2026-07-28)", self.server);
            let mut responses = serde_json::Map::new();
            for (key, question) in result["inputRequests"].as_object().unwrap() {
                let method = question["method"].as_str().unwrap();
                let answered = answer(method, &question["params"], &source, forms);
                responses.insert(key.clone(), answered);
            }
            params["inputResponses"] = Value::Object(responses);
            params["requestState"] = result.get("requestState").cloned().unwrap_or(Value::Null);
        }
        panic!("{}: {name} asked more than 10 rounds", self.server);
    }
}

/// A client's answer to the server's question `method`; a form is kept in `forms`.
fn answer(method: &str, params: &Value, source: &str, forms: &mut Vec<Form>) -> Value {
    match method {
        "elicitation/create" if params["mode"] == "url" => json!({"action": "accept"}),
        "elicitation/create" => {
            forms.push(Form {
                source: source.to_owned(),
                params: params.clone(),
            });
            json!({"action": "accept", "content": sample(&params["requestedSchema"])})
        }
        "sampling/createMessage" => {
            json!({"role": "assistant", "content": {"type": "text", "text": "ok"}, "model": "test"})
        }
        "roots/list" => json!({"roots": []}),
        other => panic!("{source}: an unexpected question {other}"),
    }
}

/// A value `schema` takes: its default or first option, else the least its type and bounds
/// allow; an object's required properties only.
fn sample(schema: &Value) -> Value {
    if let Some(value) = ["default", "const"]
        .iter()
        .find_map(|key| schema.get(*key).filter(|value| !value.is_null()))
    {
        return value.clone();
    }
    if let Some(first) = schema["enum"]
        .as_array()
        .and_then(|options| options.iter().find(|option| !option.is_null()))
    {
        return first.clone();
    }
    if let Some(branch) = ["oneOf", "anyOf"]
        .iter()
        .find_map(|key| schema[*key].get(0))
    {
        return sample(branch);
    }
    let kind = match &schema["type"] {
        Value::Array(kinds) => kinds
            .iter()
            .find(|kind| *kind != "null")
            .cloned()
            .unwrap_or(Value::Null),
        kind => kind.clone(),
    };
    let number = |key: &str| schema.get(key).and_then(Value::as_f64);
    let count = |key: &str, least: u64| {
        let count = schema.get(key).and_then(Value::as_u64).unwrap_or(least);
        usize::try_from(count).unwrap()
    };
    match kind.as_str().unwrap_or("object") {
        "string" => match schema["format"].as_str() {
            Some("email") => json!("someone@example.com"),
            Some("uri") => json!("https://example.com/"),
            Some("date") => json!("2026-01-01"),
            Some("date-time") => json!("2026-01-01T00:00:00Z"),
            _ => json!("x".repeat(count("minLength", 1).max(1))),
        },
        // The least value the bounds allow, 1 where they allow it.
        "integer" => {
            let integer = |key: &str| schema.get(key).and_then(Value::as_i64);
            let least = integer("minimum").unwrap_or(1);
            json!(integer("maximum").map_or(least, |most| least.min(most)))
        }
        "number" => {
            let least = number("minimum").unwrap_or(1.0);
            json!(number("maximum").map_or(least, |most| least.min(most)))
        }
        "boolean" => json!(true),
        "array" => Value::Array(vec![sample(&schema["items"]); count("minItems", 0)]),
        _ => {
            let required = schema["required"].as_array().cloned().unwrap_or_default();
            let object = required
                .iter()
                .filter_map(Value::as_str)
                .map(|name| (name.to_owned(), sample(&schema["properties"][name])))
                .collect();
            Value::Object(object)
        }
    }
}

/// The forms of an example binary, asked over its stdio.
async fn example_forms(name: &str, forms: &mut Vec<Form>) {
    let mut child = tokio::process::Command::new(example_binary(name))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let (reader, writer) = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
    Connection::new(name, reader, writer)
        .await
        .ask_every_tool(forms)
        .await;
}

/// The forms of this file's tools, asked in process over `serve_io`.
async fn own_forms(forms: &mut Vec<Form>) {
    let (client, server) = tokio::io::duplex(1 << 16);
    let (server_reader, server_writer) = tokio::io::split(server);
    let serving =
        tokio::spawn(Server::new("forms", "1.0.0").serve_io(server_reader, server_writer));
    let (reader, writer) = tokio::io::split(client);
    Connection::new("forms", reader, writer)
        .await
        .ask_every_tool(forms)
        .await;
    serving.abort();
}

/// Every `null` in `value`, as JSON pointers.
fn nulls(value: &Value, pointer: &str, found: &mut Vec<String>) {
    match value {
        Value::Null => found.push(pointer.to_owned()),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .for_each(|(index, item)| nulls(item, &format!("{pointer}/{index}"), found)),
        Value::Object(members) => members
            .iter()
            .for_each(|(key, item)| nulls(item, &format!("{pointer}/{key}"), found)),
        _ => {}
    }
}

#[tokio::test]
async fn every_form_sent_is_one_the_typescript_client_takes() {
    let mut forms = Vec::new();
    own_forms(&mut forms).await;
    example_forms("conformance", &mut forms).await;
    example_forms("todo", &mut forms).await;

    let sources: Vec<&str> = forms.iter().map(|form| form.source.as_str()).collect();
    for expected in [
        "forms refund (2025-11-25)",
        "forms refund (2026-07-28)",
        "forms configure (2026-07-28)",
        "conformance test_elicitation_sep1034_defaults (2025-11-25)",
        "conformance test_elicitation_sep1330_enums (2026-07-28)",
        "todo add-task (2026-07-28)",
        "todo clear-tasks (2025-11-25)",
    ] {
        assert!(
            sources.contains(&expected),
            "no form from {expected}: {sources:#?}"
        );
    }
    // What the issue met: no form carries a `null` (the TypeScript client wants a string).
    for form in &forms {
        let mut found = Vec::new();
        nulls(
            &form.params["requestedSchema"],
            "/requestedSchema",
            &mut found,
        );
        assert!(
            found.is_empty(),
            "{}: null at {found:?}: {}",
            form.source,
            form.params
        );
    }

    let script = repo_root().join("tests/clients/form_check.mjs");
    let installed =
        repo_root().join("tests/clients/node_modules/@modelcontextprotocol/client/package.json");
    let Some(node) = node22().filter(|_| installed.exists()) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "the TypeScript client is not installed: run bash tests/clients/install.sh"
        );
        eprintln!("skipped the TypeScript check: run bash tests/clients/install.sh");
        return;
    };
    let list: Vec<Value> = forms
        .iter()
        .map(|form| json!({"source": form.source, "params": form.params}))
        .collect();
    let file: PathBuf = std::env::temp_dir().join(format!("forms-{}.json", std::process::id()));
    std::fs::write(&file, serde_json::to_vec(&list).unwrap()).unwrap();
    let output = std::process::Command::new(node)
        .arg(&script)
        .arg(&file)
        .output()
        .unwrap();
    std::fs::remove_file(&file).unwrap();
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        report.ends_with(&format!(
            "{} forms, 0 refused by @modelcontextprotocol/client\n",
            forms.len()
        )),
        "{report}"
    );
}
