//! Tags that choose what a server serves (`tags(…)`, `Server::only_tags`,
//! `Server::without_tags`), as a client meets them: two servers in this one process, each with
//! its own selection, list and serve different sets in both eras; what a server does not serve
//! is absent from its listings and answers `tools/call`, `resources/read`, `prompts/get` and
//! `completion/complete` exactly as a name nothing registered does; items added at run time
//! obey the selection; `--lint`'s and the snapshot kit's listing is the selection's. The real
//! binary's `--only-tags`, `--without-tags` and their variables are `tagged_binary` below.

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::prompt::Prompt;
use mcp_toolbelt::resource::Resource;
use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::tool::Tool;
use mcp_toolbelt::{CallToolResult, Server, prompt, resource, tool};
use mcp_toolbelt_tests::stdio::StdioServer;
use serde_json::{Value, json};

/// Purge the cache
#[tool(tags("admin"))]
async fn purge() -> &'static str {
    "purged"
}

/// Preview the next release
#[tool(tags("beta"))]
async fn preview() -> &'static str {
    "previewed"
}

/// Migrate, for admins trying the beta
#[tool(tags("admin", "beta"))]
async fn migrate() -> &'static str {
    "migrated"
}

/// Say hello
#[tool]
async fn hello() -> &'static str {
    "hello"
}

/// The audit log
#[resource(uri = "tags://audit", mime_type = "text/plain", tags("admin"))]
async fn audit() -> &'static str {
    "audit"
}

/// A beta note
#[resource(uri = "tags://beta/{id}", mime_type = "text/plain", tags("beta"))]
async fn beta_note(id: String) -> String {
    id
}

/// Greets an admin
#[prompt(tags("admin"))]
async fn admin_greeting(
    /// Who
    name: String,
) -> String {
    format!("Hello admin {name}")
}

/// Greets a beta tester
#[prompt(tags("beta"))]
async fn beta_greeting(
    /// Who
    name: String,
) -> String {
    format!("Hello tester {name}")
}

/// The names this file tags or leaves untagged (the test binary serves no other tool).
const OURS: [&str; 4] = ["hello", "migrate", "preview", "purge"];

fn beta_only() -> Server {
    Server::new("beta", "1.0.0").only_tags(["beta"])
}

fn no_admin() -> Server {
    Server::new("public", "1.0.0").without_tags(["admin"])
}

fn modern(params: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    params
}

/// The names in a listing's `key` array, sorted.
fn names(listing: &Value, key: &str, field: &str) -> Vec<String> {
    let mut names: Vec<String> = listing["result"][key]
        .as_array()
        .unwrap_or_else(|| panic!("no {key}: {listing}"))
        .iter()
        .map(|item| item[field].as_str().expect("a name").to_owned())
        .collect();
    names.sort();
    names
}

fn tool_names(listing: &Value) -> Vec<String> {
    names(listing, "tools", "name")
        .into_iter()
        .filter(|name| OURS.contains(&name.as_str()))
        .collect()
}

/// `left_out`'s error is the one a name nothing registered gets, `unknown` standing for it.
fn refused_as_unknown(left_out: &Value, left_out_name: &str, missing: &Value, missing_name: &str) {
    let error = &left_out["error"];
    assert!(error.is_object(), "served: {left_out}");
    assert_eq!(
        error["code"], missing["error"]["code"],
        "{left_out} / {missing}"
    );
    assert_eq!(
        error["message"]
            .as_str()
            .expect("a message")
            .replace(left_out_name, "NAME"),
        missing["error"]["message"]
            .as_str()
            .expect("a message")
            .replace(missing_name, "NAME"),
    );
}

#[tokio::test]
async fn two_servers_in_one_process_list_their_own_sets_in_both_eras() {
    let beta = TestClient::new(beta_only());
    let public = TestClient::new(no_admin());
    for params in [json!({}), modern(json!({}))] {
        let listed = beta.request("tools/list", params.clone()).await;
        assert_eq!(tool_names(&listed), ["migrate", "preview"], "{listed}");
        let listed = public.request("tools/list", params.clone()).await;
        assert_eq!(tool_names(&listed), ["hello", "preview"], "{listed}");

        let listed = beta.request("prompts/list", params.clone()).await;
        assert_eq!(names(&listed, "prompts", "name"), ["beta_greeting"]);
        let listed = public.request("prompts/list", params.clone()).await;
        assert_eq!(names(&listed, "prompts", "name"), ["beta_greeting"]);

        let listed = beta.request("resources/list", params.clone()).await;
        assert_eq!(names(&listed, "resources", "uri"), Vec::<String>::new());
        let listed = beta
            .request("resources/templates/list", params.clone())
            .await;
        assert_eq!(
            names(&listed, "resourceTemplates", "uriTemplate"),
            ["tags://beta/{id}"]
        );
        let listed = public.request("resources/list", params.clone()).await;
        assert!(
            !names(&listed, "resources", "uri").contains(&"tags://audit".to_owned()),
            "{listed}"
        );
    }
    // Without a selection, everything.
    let all = TestClient::new(Server::new("all", "1.0.0"));
    assert_eq!(
        tool_names(&all.request("tools/list", json!({})).await),
        ["hello", "migrate", "preview", "purge"]
    );
}

#[tokio::test]
async fn what_a_server_does_not_serve_is_unknown_to_calls_reads_gets_and_completions() {
    let beta = TestClient::new(beta_only());
    let public = TestClient::new(no_admin());
    for era in [json!({}), modern(json!({}))] {
        let with = |params: Value| {
            let mut params = params;
            if let Some(meta) = era.get("_meta") {
                params["_meta"] = meta.clone();
            }
            params
        };
        let served = public
            .request(
                "tools/call",
                with(json!({"name": "preview", "arguments": {}})),
            )
            .await;
        assert_eq!(
            served["result"]["content"][0]["text"], "previewed",
            "{served}"
        );
        let missing = public
            .request(
                "tools/call",
                with(json!({"name": "nothing", "arguments": {}})),
            )
            .await;
        for (client, name) in [(&public, "purge"), (&public, "migrate"), (&beta, "hello")] {
            let left_out = client
                .request("tools/call", with(json!({"name": name, "arguments": {}})))
                .await;
            refused_as_unknown(&left_out, name, &missing, "nothing");
        }

        let missing = public
            .request("resources/read", with(json!({"uri": "tags://nothing"})))
            .await;
        let left_out = public
            .request("resources/read", with(json!({"uri": "tags://audit"})))
            .await;
        refused_as_unknown(&left_out, "tags://audit", &missing, "tags://nothing");
        let read = beta
            .request("resources/read", with(json!({"uri": "tags://beta/7"})))
            .await;
        assert_eq!(read["result"]["contents"][0]["text"], "7", "{read}");

        let missing = public
            .request(
                "prompts/get",
                with(json!({"name": "nothing", "arguments": {"name": "Ada"}})),
            )
            .await;
        let left_out = public
            .request(
                "prompts/get",
                with(json!({"name": "admin_greeting", "arguments": {"name": "Ada"}})),
            )
            .await;
        refused_as_unknown(&left_out, "admin_greeting", &missing, "nothing");

        let complete = |name: &str| {
            with(json!({
                "ref": {"type": "ref/prompt", "name": name},
                "argument": {"name": "name", "value": "A"},
            }))
        };
        let missing = public
            .request("completion/complete", complete("nothing"))
            .await;
        let left_out = public
            .request("completion/complete", complete("admin_greeting"))
            .await;
        refused_as_unknown(&left_out, "admin_greeting", &missing, "nothing");
    }
}

#[tokio::test]
async fn items_added_at_run_time_obey_the_selection() {
    let server = no_admin();
    let tools = server.tools();
    let resources = server.resources();
    let prompts = server.prompts();
    let tool = |name: &str| {
        Tool::new(name, "added", json!({"type": "object"}), |_, _| async {
            CallToolResult::text("added")
        })
        .expect("a tool")
    };
    tools
        .add(tool("added_admin").tags(["admin"]))
        .expect("added");
    tools
        .add(tool("added_public").tags(["public"]))
        .expect("added");
    tools.add(tool("added_plain")).expect("added");
    let text = |_| async { "added" };
    resources
        .add(
            Resource::new("added://admin", "admin", text)
                .expect("a resource")
                .tags(["admin"]),
        )
        .expect("added");
    prompts
        .add(Prompt::new("added_admin", "added", |_, _| async { "added" }).tags(["admin"]))
        .expect("added");
    let client = TestClient::new(server);
    let listed = client.request("tools/list", json!({})).await;
    let listed = names(&listed, "tools", "name");
    assert!(listed.contains(&"added_public".to_owned()), "{listed:?}");
    assert!(listed.contains(&"added_plain".to_owned()), "{listed:?}");
    assert!(!listed.contains(&"added_admin".to_owned()), "{listed:?}");
    let listed = client.request("resources/list", json!({})).await;
    assert!(!names(&listed, "resources", "uri").contains(&"added://admin".to_owned()));
    let listed = client.request("prompts/list", json!({})).await;
    assert_eq!(names(&listed, "prompts", "name"), ["beta_greeting"]);
    let left_out = client
        .request(
            "tools/call",
            json!({"name": "added_admin", "arguments": {}}),
        )
        .await;
    assert_eq!(left_out["error"]["message"], "Unknown tool: added_admin");
    // Nothing changed for the client: no list_changed for what was left out.
    assert!(
        client.notifications().is_empty(),
        "{:?}",
        client.notifications()
    );
}

#[test]
fn the_lint_and_the_snapshot_kit_see_the_selection() {
    let listed: Vec<String> = beta_only()
        .tools()
        .list()
        .tools
        .into_iter()
        .map(|tool| tool.name)
        .collect();
    assert_eq!(listed, ["migrate", "preview"]);
    mcp_toolbelt::testing::assert_portable(&beta_only());
    let snapshot = std::env::temp_dir().join(format!("tags-snapshot-{}.json", std::process::id()));
    std::fs::write(
        &snapshot,
        serde_json::to_string_pretty(&beta_only().tools().list()).expect("json") + "\n",
    )
    .expect("write");
    mcp_toolbelt::testing::assert_tools_snapshot(&beta_only(), &snapshot);
    let unchanged = std::panic::catch_unwind(|| {
        mcp_toolbelt::testing::assert_tools_snapshot(&Server::new("all", "1.0.0"), &snapshot);
    });
    std::fs::remove_file(&snapshot).ok();
    assert!(
        unchanged.is_err(),
        "the unselected server matched the selected one's snapshot"
    );
}

/// The `tagged` binary (`tests/src/bin/tagged.rs`), run with `args` and `env`: its stdout.
fn tagged_output(args: &[&str], env: &[(&str, &str)]) -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tagged"))
        .args(args)
        .env_remove("MCP_ONLY_TAGS")
        .env_remove("MCP_WITHOUT_TAGS")
        .envs(env.iter().copied())
        .output()
        .expect("the binary runs");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).expect("UTF-8")
}

fn listed_names(list_tools: &str) -> Vec<String> {
    let listing: Value = serde_json::from_str(list_tools).expect("JSON");
    names(&json!({"result": listing}), "tools", "name")
}

#[test]
fn tagged_binary_lists_what_its_flags_and_variables_choose() {
    assert_eq!(
        listed_names(&tagged_output(&["--list-tools"], &[])),
        ["deploy", "ping", "try_feature"]
    );
    assert_eq!(
        listed_names(&tagged_output(
            &["--only-tags", "beta", "--list-tools"],
            &[]
        )),
        ["try_feature"]
    );
    assert_eq!(
        listed_names(&tagged_output(
            &["--list-tools", "--without-tags", "admin"],
            &[]
        )),
        ["ping", "try_feature"]
    );
    assert_eq!(
        listed_names(&tagged_output(
            &["--list-tools"],
            &[("MCP_ONLY_TAGS", "admin,beta")]
        )),
        ["deploy", "try_feature"]
    );
    assert_eq!(
        listed_names(&tagged_output(
            &["--list-tools"],
            &[
                ("MCP_WITHOUT_TAGS", "beta"),
                ("MCP_ONLY_TAGS", "admin,beta")
            ]
        )),
        ["deploy"]
    );
    let lint = tagged_output(&["--only-tags", "beta", "--lint", "--format", "json"], &[]);
    assert!(!lint.contains("deploy"), "{lint}");
    let help = tagged_output(&["--help"], &[]);
    assert!(help.contains("--only-tags TAG,..."), "{help}");
    assert!(help.contains("MCP_WITHOUT_TAGS"), "{help}");
}

#[test]
fn tagged_binary_serves_over_stdio_what_only_tags_chooses() {
    let mut server = StdioServer::spawn(
        std::path::Path::new(env!("CARGO_BIN_EXE_tagged")),
        &["--only-tags", "beta"],
        &[],
    );
    server.initialize("2025-11-25");
    let listed = server.request(2, "tools/list", json!({}));
    assert_eq!(names(&listed, "tools", "name"), ["try_feature"], "{listed}");
    let refused = server.request(3, "tools/call", json!({"name": "deploy", "arguments": {}}));
    assert_eq!(
        refused["error"]["message"], "Unknown tool: deploy",
        "{refused}"
    );
    let called = server.request(
        4,
        "tools/call",
        json!({"name": "try_feature", "arguments": {}}),
    );
    assert_eq!(called["result"]["content"][0]["text"], "tried", "{called}");
}

/// The binary over Streamable HTTP, as the issue asks: served `--without-tags admin`, then
/// `--only-tags beta`, each lists its set and refuses the rest as unknown, in both eras.
#[tokio::test]
async fn tagged_binary_serves_over_http_what_its_flags_choose() {
    use mcp_toolbelt_tests::CatalogHttp;
    use mcp_toolbelt_tests::http::{
        in_session, initialize_body, legacy_call, modern_call, modern_headers, modern_request,
        post, send_over_socket,
    };

    // The served endpoint is `/mcp`.
    let at_mcp = |mut request: axum::http::Request<axum::body::Body>| {
        *request.uri_mut() = "/mcp".parse().unwrap();
        request
    };
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_tagged"));
    let cases: [(&[&str], &[&str], &str); 2] = [
        (
            &["--without-tags", "admin"],
            &["ping", "try_feature"],
            "deploy",
        ),
        (&["--only-tags", "beta"], &["try_feature"], "ping"),
    ];
    for (flags, served, left_out) in cases {
        let server = CatalogHttp::start_binary(binary, |address| address.to_string(), flags, &[]);
        let address = server.address;
        let opened = send_over_socket(address, at_mcp(post(&initialize_body(), &[]))).await;
        let session = opened
            .header("mcp-session-id")
            .unwrap_or_else(|| panic!("{flags:?}: no session: {opened:?}"))
            .to_owned();
        let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}});
        let legacy = send_over_socket(address, at_mcp(post(&list, &in_session(&session))))
            .await
            .json();
        assert_eq!(
            names(&legacy, "tools", "name"),
            served,
            "{flags:?}: {legacy}"
        );
        let refused = send_over_socket(
            address,
            at_mcp(post(
                &legacy_call(3, left_out, &json!({}), None),
                &in_session(&session),
            )),
        )
        .await;
        let refused = if refused.content_type().starts_with("text/event-stream") {
            refused.events().pop().expect("a response")
        } else {
            refused.json()
        };
        assert_eq!(
            refused["error"]["message"],
            format!("Unknown tool: {left_out}"),
            "{flags:?}: {refused}"
        );
        let modern = send_over_socket(
            address,
            at_mcp(post(
                &modern_request(4, "tools/list", json!({}), &json!({})),
                &modern_headers("tools/list", None),
            )),
        )
        .await
        .json();
        assert_eq!(
            names(&modern, "tools", "name"),
            served,
            "{flags:?}: {modern}"
        );
        let refused = send_over_socket(
            address,
            at_mcp(post(
                &modern_call(5, left_out, &json!({}), &json!({})),
                &modern_headers("tools/call", Some(left_out)),
            )),
        )
        .await
        .json();
        assert_eq!(
            refused["error"]["message"],
            format!("Unknown tool: {left_out}"),
            "{flags:?}: {refused}"
        );
        drop(server);
    }
}
