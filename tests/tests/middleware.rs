//! Middleware (`Server::middleware`) as a client meets it, over stdio and Streamable HTTP: one
//! chain around `tools/call`, `resources/read`, `prompts/get`, `completion/complete` and the
//! listings; a middleware that refuses, one that transforms the request and its response, one
//! that observes; two in the order added, around a tools-only hook; the built-in scope check
//! innermost (still HTTP's `403` challenge, and seen by every middleware); listings changed per
//! caller never served to another, and `private` when a middleware changed or answered them.

// Items are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use std::sync::{Arc, Mutex};

use axum::http::StatusCode;
use mcp_toolbelt::http::{AuthInfo, HttpConfig, ProtectedResourceMetadata};
use mcp_toolbelt::middleware::{Kind, Next, Request, Response};
use mcp_toolbelt::{CallToolResult, Content, Server, error::ErrorObject, prompt, resource, tool};
use mcp_toolbelt_tests::http::{Reply, modern_headers, modern_request, post, send};
use mcp_toolbelt_tests::in_process::InProcess;
use serde_json::{Value, json};

/// Says the text back
#[tool]
async fn echo(
    /// What to say
    text: String,
) -> String {
    text
}

/// Reads the notes: needs `notes:read`
#[tool(scopes("notes:read"))]
async fn read_notes() -> String {
    "the notes".into()
}

/// A greeting
#[resource(uri = "mw://greeting")]
static GREETING: &str = "hello";

/// One note
#[resource(uri = "mw://notes/{id}", scopes("notes:read"))]
async fn note(id: String) -> String {
    format!("note {id}")
}

/// Greets someone
#[prompt(complete(name = names))]
async fn greet(
    /// Whom to greet
    name: String,
) -> String {
    format!("Hello, {name}")
}

async fn names(
    _partial: &str,
    _context: &mcp_toolbelt::completion::CompletionContext,
) -> Vec<String> {
    vec!["ada".into(), "alan".into()]
}

/// One request of every kind a middleware wraps: (method, params, what it names).
fn every_kind() -> Vec<(&'static str, Value, Option<&'static str>)> {
    vec![
        (
            "tools/call",
            json!({"name": "echo", "arguments": {"text": "hi"}}),
            Some("echo"),
        ),
        (
            "resources/read",
            json!({"uri": "mw://greeting"}),
            Some("mw://greeting"),
        ),
        (
            "prompts/get",
            json!({"name": "greet", "arguments": {"name": "ada"}}),
            Some("greet"),
        ),
        (
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "greet"}, "argument": {"name": "name", "value": "a"}}),
            Some("greet"),
        ),
        ("tools/list", json!({}), None),
        ("resources/list", json!({}), None),
        ("resources/templates/list", json!({}), None),
        ("prompts/list", json!({}), None),
    ]
}

/// `server` over stdio, initialized.
async fn stdio(server: Server) -> InProcess {
    let mut client = InProcess::start(server);
    let initialized = client
        .request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "test", "version": "1"}}),
        )
        .await;
    assert!(initialized.get("result").is_some(), "{initialized}");
    client
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    client
}

/// What a log of the middleware's sightings records.
type Seen = Arc<Mutex<Vec<String>>>;

#[tokio::test]
async fn a_middleware_sees_every_kind_with_what_it_names_and_observes_its_outcome() {
    let seen: Seen = Arc::default();
    let log = Arc::clone(&seen);
    let server = Server::new("mw", "1").middleware(move |request: Request, next: Next| {
        let log = Arc::clone(&log);
        async move {
            let sighting = format!(
                "{} {} session={}",
                request.kind(),
                request.target().unwrap_or("-"),
                request.context().session_id().is_some(),
            );
            let outcome = next.run(request).await;
            let ok = outcome.is_ok();
            log.lock().unwrap().push(format!("{sighting} ok={ok}"));
            outcome
        }
    });
    let mut client = stdio(server).await;
    for (id, (method, params, _)) in (1..).zip(every_kind()) {
        let reply = client.request(id, method, params).await;
        assert!(reply.get("result").is_some(), "{method}: {reply}");
    }
    // Unchanged on the wire: the observer only looked.
    let echoed = client.call(20, "echo", json!({"text": "same"})).await;
    assert_eq!(echoed["result"]["content"][0]["text"], "same", "{echoed}");
    // An unknown tool's error comes back through it too.
    let unknown = client.call(21, "nope", json!({})).await;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    assert_eq!(
        *seen.lock().unwrap(),
        [
            "tools/call echo session=false ok=true",
            "resources/read mw://greeting session=false ok=true",
            "prompts/get greet session=false ok=true",
            "completion/complete greet session=false ok=true",
            "tools/list - session=false ok=true",
            "resources/list - session=false ok=true",
            "resources/templates/list - session=false ok=true",
            "prompts/list - session=false ok=true",
            "tools/call echo session=false ok=true",
            "tools/call nope session=false ok=false",
        ]
    );
}

#[tokio::test]
async fn a_middleware_refuses_every_kind_and_a_call_as_a_tool_error_too() {
    let server = Server::new("mw", "1").middleware(|request: Request, next: Next| async move {
        if request.target() == Some("echo") {
            return Ok(CallToolResult::error("echo is off today").into());
        }
        if request.kind() != Kind::CallTool {
            return Err(ErrorObject::new(
                -32001,
                format!("{} refused", request.kind()),
            ));
        }
        next.run(request).await
    });
    let mut client = stdio(server).await;
    for (id, (method, params, _)) in (1..).zip(every_kind()) {
        let reply = client.request(id, method, params).await;
        if method == "tools/call" {
            assert_eq!(
                reply,
                json!({"jsonrpc": "2.0", "id": id, "result": {
                    "content": [{"type": "text", "text": "echo is off today"}], "isError": true}})
            );
        } else {
            assert_eq!(
                reply,
                json!({"jsonrpc": "2.0", "id": id, "error": {
                    "code": -32001, "message": format!("{method} refused")}}),
            );
        }
    }
    let let_through = client.call(20, "read_notes", json!({})).await;
    assert_eq!(let_through["result"]["content"][0]["text"], "the notes");
}

/// A middleware that changes every kind of request before it runs, and its response after.
fn transforming(server: Server) -> Server {
    server.middleware(|mut request: Request, next: Next| async move {
        let kind = request.kind();
        match kind {
            Kind::CallTool | Kind::GetPrompt => {
                let arguments = request.arguments_mut();
                if let Some(Value::String(text)) = arguments.get_mut("text") {
                    *text = text.to_uppercase();
                }
                if let Some(Value::String(name)) = arguments.get_mut("name") {
                    *name = format!("{name} (checked)");
                }
            }
            Kind::ReadResource => {
                request
                    .params_mut()
                    .insert("uri".into(), json!("mw://greeting"));
            }
            _ => {}
        }
        let mut outcome = next.run(request).await;
        if let Ok(response) = &mut outcome {
            if let Some(result) = response.tool_result_mut() {
                result.content.push(Content::text("(via middleware)"));
            }
            match kind {
                Kind::ListTools => response.retain_listed(|tool| tool["name"] != "read_notes"),
                Kind::ReadResource => {
                    response.json_mut()["contents"][0]["text"] = json!("HELLO");
                }
                Kind::Complete => {
                    response.json_mut()["completion"]["values"] = json!(["ada"]);
                }
                _ => {}
            }
        }
        outcome
    })
}

#[tokio::test]
async fn a_middleware_transforms_the_request_and_its_response_over_stdio() {
    let mut client = stdio(transforming(Server::new("mw", "1"))).await;
    let called = client.call(1, "echo", json!({"text": "hi"})).await;
    assert_eq!(
        called["result"]["content"],
        json!([{"type": "text", "text": "HI"}, {"type": "text", "text": "(via middleware)"}]),
        "{called}"
    );
    let got = client
        .request(
            2,
            "prompts/get",
            json!({"name": "greet", "arguments": {"name": "ada"}}),
        )
        .await;
    assert_eq!(
        got["result"]["messages"][0]["content"]["text"], "Hello, ada (checked)",
        "{got}"
    );
    // Another URI than the client's is read, and its contents changed.
    let read = client
        .request(3, "resources/read", json!({"uri": "mw://notes/1"}))
        .await;
    assert_eq!(
        read["result"]["contents"],
        json!([{"uri": "mw://greeting", "text": "HELLO"}]),
        "{read}"
    );
    let completed = client.request(4, "completion/complete", json!({"ref": {"type": "ref/prompt", "name": "greet"}, "argument": {"name": "name", "value": "a"}})).await;
    assert_eq!(
        completed["result"]["completion"]["values"],
        json!(["ada"]),
        "{completed}"
    );
    for id in [5, 6] {
        let listed = client.request(id, "tools/list", json!({})).await;
        let names: Vec<&str> = listed["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|tool| tool["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["echo"], "hidden, each time: {listed}");
    }
}

#[tokio::test]
async fn two_middlewares_run_in_the_order_added_around_the_tools_only_hooks() {
    let seen: Seen = Arc::default();
    let layer = |name: &'static str| {
        let log = Arc::clone(&seen);
        move |request: Request, next: Next| {
            let log = Arc::clone(&log);
            async move {
                log.lock()
                    .unwrap()
                    .push(format!("{name} {}", request.kind()));
                let outcome = next.run(request).await;
                log.lock().unwrap().push(format!("{name} done"));
                outcome
            }
        }
    };
    let hook_log = Arc::clone(&seen);
    let server = Server::new("mw", "1")
        .middleware(layer("outer"))
        // A hook written for tools only works as it did, inside every middleware.
        .hook(move |mut call, next| {
            let log = Arc::clone(&hook_log);
            async move {
                log.lock().unwrap().push(format!("hook {}", call.name()));
                call.arguments_mut()
                    .insert("text".into(), json!("from the hook"));
                next.run(call).await
            }
        })
        .middleware(layer("inner"));
    let mut client = stdio(server).await;
    let called = client.call(1, "echo", json!({"text": "hi"})).await;
    assert_eq!(called["result"]["content"][0]["text"], "from the hook");
    let listed = client.request(2, "prompts/list", json!({})).await;
    assert!(listed.get("result").is_some(), "{listed}");
    assert_eq!(
        *seen.lock().unwrap(),
        [
            "outer tools/call",
            "inner tools/call",
            "hook echo",
            "inner done",
            "outer done",
            "outer prompts/list",
            "inner prompts/list",
            "inner done",
            "outer done",
        ]
    );
}

// ---- over HTTP, with tokens ------------------------------------------------------------------

const RESOURCE: &str = "http://localhost:3000/mcp";
const METADATA: &str = "http://localhost:3000/.well-known/oauth-protected-resource/mcp";

/// Tokens `alice:SCOPES` and `bob:SCOPES` (scopes comma-separated, maybe none), each for that
/// user.
fn scoped_auth() -> HttpConfig {
    let metadata = ProtectedResourceMetadata::new(RESOURCE, "https://auth.example.com");
    HttpConfig::new().bearer_auth(metadata, |token: String| async move {
        let (user, scopes) = token.split_once(':')?;
        let scopes: Vec<String> = scopes
            .split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        Some(AuthInfo::new("app").subject(user).scopes(scopes))
    })
}

/// A 2026-07-28 request with `token`.
async fn modern(
    router: &axum::Router,
    id: u64,
    (method, params, name): (&str, Value, Option<&str>),
    token: &str,
) -> Reply {
    let mut headers = modern_headers(method, name);
    let authorization = format!("Bearer {token}");
    headers.push(("authorization", &authorization));
    send(
        router,
        post(&modern_request(id, method, params, &json!({})), &headers),
    )
    .await
}

#[tokio::test]
async fn the_scope_check_is_innermost_its_403_still_comes_and_every_middleware_sees_it() {
    let seen: Seen = Arc::default();
    let log = Arc::clone(&seen);
    let router = Server::new("mw", "1")
        .middleware(move |request: Request, next: Next| {
            let log = Arc::clone(&log);
            async move {
                let who = request
                    .context()
                    .auth()
                    .and_then(|auth| auth.subject.clone())
                    .unwrap_or_default();
                let target = request.target().unwrap_or("-").to_owned();
                let outcome = next.run(request).await;
                let refusal = match &outcome {
                    Ok(_) => "served".to_owned(),
                    Err(error) => format!("{}", error.data.as_ref().unwrap()["error"]),
                };
                log.lock()
                    .unwrap()
                    .push(format!("{who} {target} {refusal}"));
                outcome
            }
        })
        .http_config(scoped_auth())
        .into_router()
        .unwrap();
    let call = |_id| {
        (
            "tools/call",
            json!({"name": "read_notes", "arguments": {}}),
            Some("read_notes"),
        )
    };
    let refused = modern(&router, 1, call(1), "alice:").await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{refused:?}");
    assert_eq!(
        refused.header("www-authenticate"),
        Some(
            format!(
                r#"Bearer error="insufficient_scope", scope="notes:read", resource_metadata="{METADATA}""#
            )
            .as_str()
        )
    );
    assert_eq!(refused.json()["error"]["data"]["scope"], "notes:read");
    let read = (
        "resources/read",
        json!({"uri": "mw://notes/7"}),
        Some("mw://notes/7"),
    );
    let refused = modern(&router, 2, read.clone(), "alice:").await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{refused:?}");
    let served = modern(&router, 3, call(3), "alice:notes:read").await;
    assert_eq!(served.status, StatusCode::OK, "{served:?}");
    assert_eq!(
        served.json()["result"]["content"][0]["text"],
        "the notes",
        "{served:?}"
    );
    assert_eq!(
        *seen.lock().unwrap(),
        [
            r#"alice read_notes "insufficient_scope""#,
            r#"alice mw://notes/7 "insufficient_scope""#,
            "alice read_notes served",
        ]
    );
}

/// The tool names a `tools/list` reply shows, and its `cacheScope`.
fn tool_names(reply: &Reply) -> (Vec<String>, Value) {
    let body = reply.json();
    let names = body["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("no tools: {body}"))
        .iter()
        .map(|tool| tool["name"].as_str().unwrap().to_owned())
        .collect();
    (names, body["result"]["cacheScope"].clone())
}

#[tokio::test]
async fn a_listing_a_middleware_changes_per_caller_is_never_served_to_another() {
    let router = Server::new("mw", "1")
        .middleware(|request: Request, next: Next| async move {
            let bob = request
                .context()
                .auth()
                .is_some_and(|auth| auth.subject.as_deref() == Some("bob"));
            let kind = request.kind();
            let mut outcome = next.run(request).await;
            if let (Ok(response), true) = (&mut outcome, bob) {
                match kind {
                    Kind::ListTools => response.retain_listed(|tool| tool["name"] != "echo"),
                    Kind::ListPrompts => response.retain_listed(|prompt| prompt["name"] != "greet"),
                    _ => {}
                }
            }
            outcome
        })
        .http_config(scoped_auth())
        .into_router()
        .unwrap();
    let list = || ("tools/list", json!({}), None);
    // Alice twice around Bob: the page kept for her scopes is never Bob's, nor his hers.
    for (id, token, shown) in [
        (1, "alice:notes:read", vec!["echo", "read_notes"]),
        (2, "bob:notes:read", vec!["read_notes"]),
        (3, "alice:notes:read", vec!["echo", "read_notes"]),
        (4, "bob:notes:read", vec!["read_notes"]),
    ] {
        let reply = modern(&router, id, list(), token).await;
        let (names, cache_scope) = tool_names(&reply);
        assert_eq!(names, shown, "{token}: {reply:?}");
        assert_eq!(cache_scope, "private", "{token}: varies by caller");
        // No prompt needs a scope: the listing varies only by what the middleware decides.
        let prompts = ("prompts/list", json!({}), None);
        let reply = modern(&router, id, prompts, token).await;
        let body = reply.json();
        let names = body["result"]["prompts"].as_array().unwrap().len();
        let bob = token.starts_with("bob");
        assert_eq!(names, usize::from(!bob), "{token}: {body}");
        let cache_scope = &body["result"]["cacheScope"];
        assert_eq!(
            *cache_scope,
            if bob { "private" } else { "public" },
            "{token}: {body}"
        );
    }
}

#[tokio::test]
async fn a_listing_no_middleware_changes_stays_public() {
    let router = Server::new("mw", "1")
        .middleware(|request: Request, next: Next| next.run(request))
        .http_config(HttpConfig::new())
        .into_router()
        .unwrap();
    let headers = modern_headers("prompts/list", None);
    let reply = send(
        &router,
        post(
            &modern_request(1, "prompts/list", json!({}), &json!({})),
            &headers,
        ),
    )
    .await;
    assert_eq!(reply.json()["result"]["cacheScope"], "public", "{reply:?}");
}

#[tokio::test]
async fn a_listing_a_middleware_answers_itself_is_private() {
    let router = Server::new("mw", "1")
        .middleware(|request: Request, next: Next| async move {
            match request.kind() {
                // In place of the server's listing, its caching fields kept as they were…
                Kind::ListPrompts => Ok(Response::json(
                    json!({"prompts": [], "ttlMs": 0, "cacheScope": "public"}),
                )),
                // …or left out.
                Kind::ListTools => Ok(Response::json(json!({"tools": []}))),
                _ => next.run(request).await,
            }
        })
        .http_config(HttpConfig::new())
        .into_router()
        .unwrap();
    for (id, method) in [(1, "prompts/list"), (2, "tools/list")] {
        let body = modern_request(id, method, json!({}), &json!({}));
        let reply = send(&router, post(&body, &modern_headers(method, None))).await;
        let result = &reply.json()["result"];
        assert_eq!(result["cacheScope"], "private", "{method}: {reply:?}");
    }
}

#[tokio::test]
async fn over_http_every_kind_goes_through_the_middleware_in_both_eras() {
    let seen: Seen = Arc::default();
    let log = Arc::clone(&seen);
    let router = Server::new("mw", "1")
        .middleware(move |request: Request, next: Next| {
            log.lock().unwrap().push(format!(
                "{} {}",
                request.kind(),
                request.target().unwrap_or("-")
            ));
            next.run(request)
        })
        .http_config(HttpConfig::new())
        .into_router()
        .unwrap();
    let session = mcp_toolbelt_tests::http::open_session(&router).await;
    let mut expected = Vec::new();
    for (id, (method, params, name)) in (1..).zip(every_kind()) {
        // `Mcp-Name` is the name a call, read or get names; a completion sends none.
        let header = name.filter(|_| method != "completion/complete");
        let reply = modern(&router, id, (method, params.clone(), header), "-").await;
        assert!(reply.json().get("result").is_some(), "{method}: {reply:?}");
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let reply = send(
            &router,
            post(&body, &mcp_toolbelt_tests::http::in_session(&session)),
        )
        .await;
        assert!(reply.json().get("result").is_some(), "{method}: {reply:?}");
        let seen = format!("{method} {}", name.unwrap_or("-"));
        expected.extend([seen.clone(), seen]);
    }
    assert_eq!(*seen.lock().unwrap(), expected);
}

#[tokio::test]
async fn a_middleware_that_panics_ends_its_request_not_the_server() {
    let server = Server::new("mw", "1").middleware(|request: Request, next: Next| async move {
        assert!(request.kind() != Kind::CallTool, "call bug");
        assert!(request.kind() != Kind::ListPrompts, "list bug");
        next.run(request).await
    });
    let mut client = stdio(server).await;
    let called = client.call(1, "echo", json!({"text": "hi"})).await;
    assert_eq!(
        called["result"],
        json!({"content": [{"type": "text", "text": "Error: a middleware panicked: call bug"}],
               "isError": true}),
        "{called}"
    );
    let listed = client.request(2, "prompts/list", json!({})).await;
    assert_eq!(
        listed["error"],
        json!({"code": -32603, "message": "Error: a middleware panicked: list bug"}),
        "{listed}"
    );
    let read = client
        .request(3, "resources/read", json!({"uri": "mw://greeting"}))
        .await;
    assert_eq!(read["result"]["contents"][0]["text"], "hello", "{read}");
}
