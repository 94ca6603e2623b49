//! Resources and MCP Apps as a client sees them, in process (`TestClient`, the real dispatch
//! path): `resources/list` pages, templates, reads of text, bytes and templated URIs, the unknown
//! URI (and the fn that finds nothing there), the 2026 caching fields, and tools that name their views.

// Resources and tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Context, Server, resource, tool};
use serde_json::{Value, json};

/// The greeting
#[resource(uri = "test://greeting", mime_type = "text/plain")]
static GREETING: &str = "hello";

#[resource(
    uri = "test://bytes",
    name = "three-bytes",
    mime_type = "application/octet-stream"
)]
const BYTES: &[u8] = &[1, 2, 3];

/// One chapter of the manual
#[resource(
    uri = "docs://manual/{chapter}/{section}",
    title = "Manual",
    mime_type = "text/markdown"
)]
async fn manual(section: String, chapter: u32) -> Option<String> {
    // The manual has twelve chapters: `None` is "not found" for the others.
    (chapter <= 12).then(|| format!("# {chapter}.{section}"))
}

/// Fails to read
#[resource(uri = "test://broken")]
fn broken() -> Result<String, String> {
    Err("the disk is gone".into())
}

/// The view of `with-view`
#[resource(
    uri = "ui://test/view.html",
    app(
        csp(connect_domains = ["https://api.example.com"], resource_domains("https://cdn.example.com")),
        permissions(clipboard_write),
        domain = "view.example.com",
        prefers_border = false
    )
)]
static VIEW: &str = "<!doctype html><p>view</p>";

/// Has a view; says whether the client renders it
#[tool(name = "with-view", ui = "ui://test/view.html", visibility(model, app))]
async fn with_view(context: &Context) -> String {
    format!("apps: {}", context.client_supports_apps())
}

fn client() -> TestClient {
    TestClient::new(Server::new("resources", "1.0.0").page_size(2))
}

fn modern(params: Value, capabilities: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    });
    params
}

#[tokio::test]
async fn resources_are_listed_in_pages_of_the_page_size() {
    let client = client();
    let first = client.request("resources/list", Value::Null).await;
    assert_eq!(
        first["result"]["resources"],
        json!([
            {"uri": "test://broken", "name": "broken", "description": "Fails to read"},
            {"uri": "test://bytes", "name": "three-bytes", "mimeType": "application/octet-stream"},
        ])
    );
    let cursor = first["result"]["nextCursor"].clone();
    let second = client
        .request("resources/list", json!({"cursor": cursor}))
        .await;
    let uris: Vec<&str> = second["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|resource| resource["uri"].as_str().unwrap())
        .collect();
    assert_eq!(uris, ["test://greeting", "ui://test/view.html"]);
    assert!(second["result"].get("nextCursor").is_none(), "{second}");
    let templates = client
        .request("resources/templates/list", Value::Null)
        .await;
    assert_eq!(
        templates["result"],
        json!({"resourceTemplates": [{
            "uriTemplate": "docs://manual/{chapter}/{section}",
            "name": "manual",
            "title": "Manual",
            "description": "One chapter of the manual",
            "mimeType": "text/markdown",
        }]})
    );
}

#[tokio::test]
async fn reads_give_text_bytes_and_templated_contents() {
    let client = client();
    let read = |uri: &'static str| {
        let client = &client;
        async move { client.request("resources/read", json!({"uri": uri})).await }
    };
    assert_eq!(
        read("test://greeting").await["result"],
        json!({"contents": [{"uri": "test://greeting", "mimeType": "text/plain", "text": "hello"}]})
    );
    assert_eq!(
        read("test://bytes").await["result"]["contents"][0]["blob"],
        "AQID"
    );
    assert_eq!(
        read("docs://manual/3/intro").await["result"]["contents"],
        json!([{"uri": "docs://manual/3/intro", "mimeType": "text/markdown", "text": "# 3.intro"}])
    );
    // A value the parameter's type refuses names no resource: not found, saying why.
    assert_eq!(
        read("docs://manual/three/intro").await["error"],
        json!({"code": -32602,
               "message": "Resource not found: docs://manual/three/intro (invalid `chapter` \"three\": invalid digit found in string)",
               "data": {"uri": "docs://manual/three/intro"}})
    );
    // The fn's `None`: not found, as for a URI no resource serves.
    assert_eq!(
        read("docs://manual/13/intro").await["error"],
        json!({"code": -32602,
               "message": "Resource not found: docs://manual/13/intro",
               "data": {"uri": "docs://manual/13/intro"}})
    );
    assert_eq!(
        read("test://broken").await["error"],
        json!({"code": -32603, "message": "the disk is gone", "data": {"uri": "test://broken"}})
    );
    // SEP-2164: an unknown URI is invalid params, the URI in `data`.
    assert_eq!(
        read("test://nothing-here").await["error"],
        json!({"code": -32602, "message": "Resource not found: test://nothing-here", "data": {"uri": "test://nothing-here"}})
    );
}

#[tokio::test]
async fn modern_results_carry_caching_fields() {
    let client = client();
    let list = client
        .request("resources/list", modern(json!({}), json!({})))
        .await;
    assert_eq!(list["result"]["ttlMs"], 60_000);
    assert_eq!(list["result"]["cacheScope"], "public");
    let templates = client
        .request("resources/templates/list", modern(json!({}), json!({})))
        .await;
    assert_eq!(templates["result"]["ttlMs"], 60_000);
    let fixed = client
        .request(
            "resources/read",
            modern(json!({"uri": "test://greeting"}), json!({})),
        )
        .await;
    assert_eq!(
        (&fixed["result"]["ttlMs"], &fixed["result"]["cacheScope"]),
        (&json!(60_000), &json!("public"))
    );
    // An fn's contents are read afresh.
    let dynamic = client
        .request(
            "resources/read",
            modern(json!({"uri": "docs://manual/1/a"}), json!({})),
        )
        .await;
    assert_eq!(dynamic["result"]["ttlMs"], 0);
}

#[tokio::test]
async fn a_view_and_its_tool_carry_the_apps_metadata() {
    let client = client();
    let ui = json!({
        "csp": {
            "connectDomains": ["https://api.example.com"],
            "resourceDomains": ["https://cdn.example.com"],
        },
        "permissions": {"clipboardWrite": {}},
        "domain": "view.example.com",
        "prefersBorder": false,
    });
    let read = client
        .request("resources/read", json!({"uri": "ui://test/view.html"}))
        .await;
    assert_eq!(
        read["result"]["contents"],
        json!([{
            "uri": "ui://test/view.html",
            "mimeType": "text/html;profile=mcp-app",
            "text": "<!doctype html><p>view</p>",
            "_meta": {"ui": ui},
        }])
    );
    let tools = client.request("tools/list", Value::Null).await;
    assert_eq!(
        tools["result"]["tools"][0]["_meta"],
        json!({
            "ui": {"resourceUri": "ui://test/view.html", "visibility": ["model", "app"]},
            "ui/resourceUri": "ui://test/view.html",
        })
    );
}

#[tokio::test]
async fn the_capabilities_and_the_context_follow_the_extension() {
    let client = client();
    let extension = json!({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}});
    let initialize = client
        .request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": extension, "clientInfo": {"name": "t", "version": "1"}}),
        )
        .await;
    let capabilities = &initialize["result"]["capabilities"];
    assert_eq!(
        capabilities["resources"],
        json!({"subscribe": true, "listChanged": true}),
        "{capabilities}"
    );
    assert_eq!(
        capabilities["extensions"],
        json!({"io.modelcontextprotocol/ui": {}})
    );
    assert_eq!(
        client
            .call_tool("with-view", json!({}))
            .await
            .text_content(),
        "apps: true"
    );

    let call = |capabilities: Value| {
        let client = &client;
        async move {
            let params = modern(json!({"name": "with-view", "arguments": {}}), capabilities);
            client.request("tools/call", params).await["result"]["content"][0]["text"].clone()
        }
    };
    assert_eq!(call(extension.clone()).await, "apps: true");
    assert_eq!(call(json!({})).await, "apps: false");
    let discover = client
        .request("server/discover", modern(json!({}), json!({})))
        .await;
    assert_eq!(
        discover["result"]["capabilities"]["extensions"],
        json!({"io.modelcontextprotocol/ui": {}})
    );
}

/// A server without prompts, and whose template variables have no completer and no known
/// values, declares neither `prompts` nor `completions`, and answers their methods
/// "Method not found".
#[tokio::test]
async fn no_prompts_and_nothing_to_complete_declare_neither() {
    let client = client();
    let initialized = client
        .request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        )
        .await;
    let capabilities = &initialized["result"]["capabilities"];
    assert!(capabilities.get("prompts").is_none(), "{capabilities}");
    assert!(capabilities.get("completions").is_none(), "{capabilities}");
    for method in ["prompts/list", "prompts/get", "completion/complete"] {
        let answer = client.request(method, json!({})).await;
        assert_eq!(answer["error"]["code"], -32601, "{method}: {answer}");
    }
}
