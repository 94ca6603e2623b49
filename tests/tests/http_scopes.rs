//! Scopes declared on the attribute (`scopes(…)`), as a client meets them over Streamable HTTP:
//! a call, read, get or completion of an item whose scopes the token lacks is `403` with the
//! 2025-11-25 `insufficient_scope` challenge, in both eras; the same client with a token of
//! more scopes is then served (step-up); listings show a caller only what its scopes allow;
//! without auth (no caller identity) everything is served; a caller lacking a scope hears of
//! it before any `Mcp-Param-*` header of the tool's is checked, and cannot subscribe to a
//! resource it may not list. The protected-resource metadata lists every scope an item needs,
//! those added at run time too, whose scopes are checked as the attribute's are.
//!
//! The tokens are issued by the user's own `verify` (`bearer_auth`), each to the same client and
//! user, with the scopes its name says. Requests are answered in process (`into_router`).

// Items are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use axum::http::StatusCode;
use mcp_toolbelt::http::{AuthInfo, HttpConfig, ProtectedResourceMetadata};
use mcp_toolbelt::prompt::Prompt;
use mcp_toolbelt::resource::Resource;
use mcp_toolbelt::tool::Tool;
use mcp_toolbelt::{CallToolResult, prompt, resource, tool};
use mcp_toolbelt_tests::http::{
    Reply, in_session, initialize_body, legacy_call, modern_headers, modern_request, post,
    result_text, router, send,
};
use serde_json::{Value, json};

/// Lists the notes
#[tool(scopes("notes:read"))]
async fn list_notes() -> String {
    "no notes".into()
}

/// Adds a note
#[tool(scopes("notes:write"))]
async fn add_note() -> String {
    "added".into()
}

/// Deletes every note
#[tool(scopes("notes:write", "notes:admin"))]
async fn purge() -> String {
    "purged".into()
}

/// Exports the notes of a region: needs `notes:export`, and routes on its region
#[tool(scopes("notes:export"))]
async fn export_notes(
    /// Whose notes
    #[header("Region")]
    region: String,
) -> String {
    format!("exported {region}")
}

/// Says it is there: needs no scope
#[tool]
async fn ping_me() -> String {
    "here".into()
}

/// Every note
#[resource(uri = "secured://notes", scopes("notes:read"))]
static NOTES: &str = "the notes";

/// One note
#[resource(uri = "secured://notes/{id}", scopes("notes:read"))]
async fn note(id: String) -> String {
    format!("note {id}")
}

/// Summarise the notes
#[prompt(scopes("notes:read"), complete(style = styles))]
async fn summarise(
    /// How to write it
    style: String,
) -> String {
    format!("Summarise the notes, {style}")
}

async fn styles(
    _partial: &str,
    _context: &mcp_toolbelt::completion::CompletionContext,
) -> Vec<String> {
    vec!["briefly".into()]
}

const RESOURCE: &str = "http://localhost:3000/mcp";
const METADATA: &str = "http://localhost:3000/.well-known/oauth-protected-resource/mcp";

/// Auth whose tokens name their scopes: `Bearer none`, `Bearer notes:read`,
/// `Bearer notes:read,notes:write`…, all issued to client `notes-app` for user `alice`.
fn scoped_auth() -> HttpConfig {
    let metadata = ProtectedResourceMetadata::new(RESOURCE, "https://auth.example.com");
    HttpConfig::new().bearer_auth(metadata, |token: String| async move {
        let scopes: Vec<String> = match token.as_str() {
            "none" => Vec::new(),
            scopes => scopes.split(',').map(str::to_owned).collect(),
        };
        Some(AuthInfo::new("notes-app").subject("alice").scopes(scopes))
    })
}

/// Every kind of request that runs user code, each naming an item that needs `notes:read`
/// (`purge` needs `notes:write` and `notes:admin`): (method, params, `Mcp-Name`, the scopes
/// the challenge names).
fn guarded() -> Vec<(&'static str, Value, Option<&'static str>, &'static str)> {
    vec![
        (
            "tools/call",
            json!({"name": "list_notes", "arguments": {}}),
            Some("list_notes"),
            "notes:read",
        ),
        (
            "tools/call",
            json!({"name": "purge", "arguments": {}}),
            Some("purge"),
            "notes:write notes:admin",
        ),
        (
            "resources/read",
            json!({"uri": "secured://notes"}),
            Some("secured://notes"),
            "notes:read",
        ),
        (
            "resources/read",
            json!({"uri": "secured://notes/7"}),
            Some("secured://notes/7"),
            "notes:read",
        ),
        (
            "prompts/get",
            json!({"name": "summarise", "arguments": {"style": "briefly"}}),
            Some("summarise"),
            "notes:read",
        ),
        (
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "summarise"}, "argument": {"name": "style", "value": ""}}),
            None,
            "notes:read",
        ),
        (
            "completion/complete",
            json!({"ref": {"type": "ref/resource", "uri": "secured://notes/{id}"}, "argument": {"name": "id", "value": ""}}),
            None,
            "notes:read",
        ),
    ]
}

/// Asserts `reply` is the `403` scope challenge naming `scope`, with a JSON-RPC error for `id`.
fn assert_insufficient(reply: &Reply, id: u64, scope: &str, what: &str) {
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{what}: {reply:?}");
    assert_eq!(
        reply.header("www-authenticate"),
        Some(
            format!(
                r#"Bearer error="insufficient_scope", scope="{scope}", resource_metadata="{METADATA}""#
            )
            .as_str()
        ),
        "{what}"
    );
    let body = reply.json();
    assert_eq!(body["id"], id, "{what}: {body}");
    assert_eq!(body["error"]["code"], -32600, "{what}: {body}");
    assert_eq!(body["error"]["data"]["scope"], scope, "{what}: {body}");
}

/// A 2026-07-28 request of `method` with `token`.
async fn modern(
    router: &axum::Router,
    id: u64,
    method: &str,
    params: &Value,
    name: Option<&str>,
    token: &str,
) -> Reply {
    let mut headers = modern_headers(method, name);
    let authorization = format!("Bearer {token}");
    headers.push(("authorization", &authorization));
    send(
        router,
        post(
            &modern_request(id, method, params.clone(), &json!({})),
            &headers,
        ),
    )
    .await
}

#[tokio::test]
async fn a_request_lacking_a_scope_is_refused_with_the_scope_challenge_in_the_2026_era() {
    let router = router(scoped_auth());
    for (id, (method, params, name, scope)) in (1..).zip(guarded()) {
        let what = format!("{method} {params}");
        let reply = modern(&router, id, method, &params, name, "none").await;
        assert_insufficient(&reply, id, scope, &what);
        // Enough scopes: served.
        let reply = modern(&router, id, method, &params, name, &scope.replace(' ', ",")).await;
        assert_eq!(reply.status, StatusCode::OK, "{what}: {reply:?}");
        assert!(reply.json().get("result").is_some(), "{what}: {reply:?}");
    }
    // One scope of two is not enough.
    let purge = json!({"name": "purge", "arguments": {}});
    let reply = modern(
        &router,
        9,
        "tools/call",
        &purge,
        Some("purge"),
        "notes:write",
    )
    .await;
    assert_insufficient(
        &reply,
        9,
        "notes:write notes:admin",
        "purge with notes:write only",
    );
    // An item without scopes is served to a token without any.
    let ping = json!({"name": "ping_me", "arguments": {}});
    let reply = modern(&router, 10, "tools/call", &ping, Some("ping_me"), "none").await;
    assert_eq!(result_text(&reply.json()), "here", "{reply:?}");
}

#[tokio::test]
async fn a_caller_lacking_a_scope_is_told_so_before_its_param_headers_are_checked() {
    let router = router(scoped_auth());
    let export = json!({"name": "export_notes", "arguments": {"region": "eu"}});
    let call = |id: u64, token: &'static str, region: Option<&'static str>| {
        let router = router.clone();
        let export = export.clone();
        async move {
            let mut headers = modern_headers("tools/call", Some("export_notes"));
            let authorization = format!("Bearer {token}");
            headers.push(("authorization", &authorization));
            if let Some(region) = region {
                headers.push(("mcp-param-region", region));
            }
            let body = modern_request(id, "tools/call", export, &json!({}));
            send(&router, post(&body, &headers)).await
        }
    };
    // Without the scope, its headers missing or wrong: the scope challenge, not a `400`.
    for (id, region) in [(1, None), (2, Some("us"))] {
        let reply = call(id, "none", region).await;
        assert_insufficient(&reply, id, "notes:export", "export_notes without its scope");
    }
    // With it, the headers are checked, then the call runs.
    let reply = call(3, "notes:export", None).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");
    assert_eq!(reply.json()["error"]["code"], -32020, "{reply:?}");
    let reply = call(4, "notes:export", Some("eu")).await;
    assert_eq!(result_text(&reply.json()), "exported eu", "{reply:?}");
}

/// Opens a legacy session with `token`; returns its id.
async fn legacy_session(router: &axum::Router, token: &str) -> String {
    let authorization = format!("Bearer {token}");
    let reply = send(
        router,
        post(&initialize_body(), &[("authorization", &authorization)]),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    reply.header("mcp-session-id").unwrap().to_owned()
}

/// A legacy request of `method` in `session` with `token`.
async fn legacy(router: &axum::Router, session: &str, body: &Value, token: &str) -> Reply {
    let authorization = format!("Bearer {token}");
    let mut headers = in_session(session).to_vec();
    headers.push(("authorization", &authorization));
    send(router, post(body, &headers)).await
}

#[tokio::test]
async fn a_resource_the_token_lacks_the_scope_for_cannot_be_subscribed_to() {
    let router = router(scoped_auth());
    for (token, refused) in [("none", true), ("notes:read", false)] {
        let session = legacy_session(&router, token).await;
        for (id, uri) in [(2, "secured://notes"), (3, "secured://notes/{id}")] {
            let subscribe = json!({"jsonrpc": "2.0", "id": id, "method": "resources/subscribe",
                                   "params": {"uri": uri}});
            let reply = legacy(&router, &session, &subscribe, token).await.json();
            if refused {
                assert_eq!(
                    reply["error"]["message"],
                    format!("Resource not found: {uri}"),
                    "{token}: {reply}"
                );
            } else {
                assert_eq!(reply["result"], json!({}), "{token}: {reply}");
            }
        }
    }
}

#[tokio::test]
async fn a_request_lacking_a_scope_is_refused_with_the_scope_challenge_in_a_legacy_session() {
    let router = router(scoped_auth());
    let session = legacy_session(&router, "none").await;
    for (id, (method, params, _, scope)) in (1..).zip(guarded()) {
        let what = format!("{method} {params}");
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let reply = legacy(&router, &session, &body, "none").await;
        assert_insufficient(&reply, id, scope, &what);
    }
}

#[tokio::test]
async fn the_same_client_with_a_token_of_more_scopes_is_then_served() {
    let router = router(scoped_auth());
    let session = legacy_session(&router, "notes:read").await;
    let add = legacy_call(2, "add_note", &json!({}), None);
    let reply = legacy(&router, &session, &add, "notes:read").await;
    assert_insufficient(&reply, 2, "notes:write", "add_note with notes:read");
    // Step-up: the client asks its authorization server for the scope the challenge named,
    // and goes on in the same session with the new token.
    let reply = legacy(&router, &session, &add, "notes:read,notes:write").await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(result_text(&reply.json()), "added", "{reply:?}");

    // The same in the 2026 era, where every request stands alone.
    let params = json!({"name": "add_note", "arguments": {}});
    let reply = modern(
        &router,
        3,
        "tools/call",
        &params,
        Some("add_note"),
        "notes:read",
    )
    .await;
    assert_insufficient(&reply, 3, "notes:write", "2026 add_note with notes:read");
    let reply = modern(
        &router,
        4,
        "tools/call",
        &params,
        Some("add_note"),
        "notes:read,notes:write",
    )
    .await;
    assert_eq!(result_text(&reply.json()), "added", "{reply:?}");
}

#[tokio::test]
async fn without_auth_there_is_no_caller_to_check_and_scoped_items_are_served() {
    let router = router(HttpConfig::new());
    let headers = modern_headers("tools/call", Some("purge"));
    let call = modern_request(
        1,
        "tools/call",
        json!({"name": "purge", "arguments": {}}),
        &json!({}),
    );
    let reply = send(&router, post(&call, &headers)).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(result_text(&reply.json()), "purged", "{reply:?}");
}

/// The names (or URIs) a listing shows, and its `cacheScope`.
fn listed(reply: &Reply, list: &str, key: &str) -> (Vec<String>, Value) {
    let body = reply.json();
    let names = body["result"][list]
        .as_array()
        .unwrap_or_else(|| panic!("no {list}: {body}"))
        .iter()
        .map(|item| item[key].as_str().unwrap().to_owned())
        .collect();
    (names, body["result"]["cacheScope"].clone())
}

#[tokio::test]
async fn listings_show_a_caller_only_what_its_scopes_allow_and_say_so() {
    let router = router(scoped_auth());
    let lists = [
        ("tools/list", "tools", "name"),
        ("prompts/list", "prompts", "name"),
        ("resources/list", "resources", "uri"),
        (
            "resources/templates/list",
            "resourceTemplates",
            "uriTemplate",
        ),
    ];
    let mut seen = Vec::new();
    // Twice each, so that a kept page of one caller is never served to another.
    for token in [
        "none",
        "notes:read",
        "notes:read,notes:write,notes:admin",
        "none",
    ] {
        let mut shown = Vec::new();
        for (id, (method, list, key)) in (1..).zip(lists) {
            let reply = modern(&router, id, method, &json!({}), None, token).await;
            let (names, cache_scope) = listed(&reply, list, key);
            assert_eq!(cache_scope, "private", "{method} varies by caller");
            shown.push(names);
        }
        let session = legacy_session(&router, token).await;
        let body = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list"});
        let (legacy_tools, _) = listed(
            &legacy(&router, &session, &body, token).await,
            "tools",
            "name",
        );
        assert_eq!(legacy_tools, shown[0], "the legacy listing shows the same");
        seen.push(shown);
    }
    let has = |names: &Vec<String>, name: &str| names.iter().any(|n| n == name);
    let [none, read, all, none_again] = &seen[..] else {
        unreachable!()
    };
    assert!(
        has(&none[0], "ping_me") && !has(&none[0], "list_notes"),
        "{none:?}"
    );
    assert!(
        none[1].is_empty() && none[2].is_empty() && none[3].is_empty(),
        "{none:?}"
    );
    assert!(has(&read[0], "list_notes") && !has(&read[0], "add_note") && !has(&read[0], "purge"));
    assert_eq!(read[1], ["summarise"]);
    assert_eq!(read[2], ["secured://notes"]);
    assert_eq!(read[3], ["secured://notes/{id}"]);
    assert!(
        ["list_notes", "add_note", "purge", "ping_me"]
            .iter()
            .all(|t| has(&all[0], t))
    );
    assert_eq!(none, none_again);
}

/// A run-time tool of `name` that needs `scope`.
fn scoped_tool(name: &str, scope: &str) -> Tool {
    let schema = json!({"type": "object"});
    Tool::new(name, "A tool of scopes", schema, |_, _| async {
        CallToolResult::text("done")
    })
    .unwrap()
    .scopes([scope])
}

#[tokio::test]
async fn the_metadata_lists_the_scopes_of_items_added_at_run_time_even_while_serving() {
    let metadata = ProtectedResourceMetadata::new(RESOURCE, "https://auth.example.com");
    let config = HttpConfig::new().bearer_auth(metadata, |_token: String| async { None });
    let server = mcp_toolbelt_tests::http::server().http_config(config);
    let (tools, prompts, resources) = (server.tools(), server.prompts(), server.resources());
    tools.add(scoped_tool("early", "reports:read")).unwrap();
    let address = mcp_toolbelt_tests::http::serve_server_http(server).await;
    tools.add(scoped_tool("late", "reports:write")).unwrap();
    let prompt = Prompt::new("brief", "A brief", |_, _| async { "Brief" }).scopes(["briefs:read"]);
    prompts.add(prompt).unwrap();
    let resource = Resource::new("files://all", "files", |_| async { "files" })
        .unwrap()
        .scopes(["files:read"]);
    resources.add(resource).unwrap();
    let request = axum::http::Request::get("/.well-known/oauth-protected-resource/mcp")
        .body(axum::body::Body::empty())
        .unwrap();
    let reply = mcp_toolbelt_tests::http::send_over_socket(address, request).await;
    let supported = reply.json()["scopes_supported"].clone();
    for scope in ["reports:read", "reports:write", "briefs:read", "files:read"] {
        assert!(
            supported.as_array().unwrap().contains(&json!(scope)),
            "{scope}: {supported}"
        );
    }
}

#[tokio::test]
async fn a_scope_no_token_can_carry_is_refused_when_its_item_is_added() {
    let server = mcp_toolbelt_tests::http::server();
    let (tools, prompts, resources) = (server.tools(), server.prompts(), server.resources());
    let refused = tools
        .add(scoped_tool("spaced", "notes read"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        refused,
        "tool `spaced` cannot be served: its scope \"notes read\" (`.scopes([…])`): a scope has \
         no space (a token's scopes are separated by spaces): list each one: \
         `.scopes([\"notes:read\", \"notes:write\"])`"
    );
    let prompt = Prompt::new("twice", "Twice", |_, _| async { "Twice" }).scopes(["a", "a"]);
    let refused = prompts.add(prompt).unwrap_err().to_string();
    assert_eq!(
        refused,
        "prompt `twice` cannot be served: its scope \"a\" (`.scopes([…])`): it is listed twice"
    );
    let resource = Resource::new("files://quoted", "quoted", |_| async { "q" })
        .unwrap()
        .scopes(["\"files\""]);
    let refused = resources.add(resource).unwrap_err().to_string();
    assert!(
        refused
            .starts_with("resource `files://quoted` cannot be served: its scope \"\\\"files\\\"\""),
        "{refused}"
    );
    assert!(
        refused.contains("'\"' cannot be in an OAuth scope"),
        "{refused}"
    );
    // Nothing refused was added.
    assert!(!tools.list().tools.iter().any(|tool| tool.name == "spaced"));
}

#[tokio::test]
async fn the_metadata_lists_every_declared_scope() {
    let metadata =
        ProtectedResourceMetadata::new(RESOURCE, "https://auth.example.com").scopes(["profile"]);
    let config = HttpConfig::new().bearer_auth(metadata, |_token: String| async { None });
    let address = mcp_toolbelt_tests::http::serve_http(config).await;
    let request = axum::http::Request::get("/.well-known/oauth-protected-resource/mcp")
        .body(axum::body::Body::empty())
        .unwrap();
    let reply = mcp_toolbelt_tests::http::send_over_socket(address, request).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(
        reply.json()["scopes_supported"],
        json!([
            "profile",
            "notes:admin",
            "notes:export",
            "notes:read",
            "notes:write"
        ]),
        "the scopes given, then every one an item declares"
    );
}
