//! Icons (SEP-973) and the server's description and web site, as a client sees them in both
//! eras: on `tools/list` (attribute and run-time tools), `resources/list`,
//! `resources/templates/list`, `initialize`'s `serverInfo` and the `serverInfo` a 2026-07-28
//! result carries (`server/discover` included); all left out for a 2025-06-18 client.

// Tools and resources are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::icon::{Icon, IconTheme};
use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::tool::Tool;
use mcp_toolbelt::{CallToolResult, Server, resource, tool};
use serde_json::{Value, json};

/// The one icon of the `#[tool]`'s second `icons(…)`, carried in the binary.
const PNG: &[u8] = &[0x89, b'P', b'N', b'G'];

/// Paint a wall
#[tool(
    icons(src = "https://example.com/paint.png", mime_type = "image/png", sizes = ["48x48", "96x96"], theme = "light"),
    icons(data = PNG, mime_type = "image/png", theme = "dark")
)]
async fn paint() -> String {
    "painted".into()
}

/// No icon
#[tool]
async fn plain() -> String {
    String::new()
}

/// The palette
#[resource(uri = "paint://palette", icons(src = "https://example.com/palette.svg", mime_type = "image/svg+xml", sizes = ["any"]))]
static PALETTE: &str = "red, green, blue";

/// One colour
#[resource(
    uri = "paint://colours/{name}",
    icons(src = "https://example.com/colour.png")
)]
async fn colour(name: String) -> String {
    name
}

/// The `#[tool]` icons as served.
fn paint_icons() -> Value {
    json!([
        {"src": "https://example.com/paint.png", "mimeType": "image/png", "sizes": ["48x48", "96x96"], "theme": "light"},
        {"src": "data:image/png;base64,iVBORw==", "mimeType": "image/png", "theme": "dark"},
    ])
}

fn server() -> Server {
    let brush = Tool::new(
        "brush",
        "A brush added at run time",
        json!({"type": "object"}),
        |_, _| async { CallToolResult::text("brushed") },
    )
    .expect("an object schema")
    .icon(Icon::new("https://example.com/brush.png").sizes(["any"]));
    let server = Server::new("painter", "1.0.0")
        .title("Painter")
        .description("Paints walls")
        .website_url("https://example.com/painter")
        .icon(
            Icon::new("https://example.com/painter.png")
                .mime_type("image/png")
                .sizes(["48x48"]),
        )
        .icon(Icon::data("image/svg+xml", b"<svg/>").theme(IconTheme::Dark));
    server.tools().add(brush).expect("a new name");
    server
}

/// `serverInfo` as a client of 2025-11-25 or later sees it.
fn server_info() -> Value {
    json!({
        "name": "painter",
        "version": "1.0.0",
        "title": "Painter",
        "description": "Paints walls",
        "websiteUrl": "https://example.com/painter",
        "icons": [
            {"src": "https://example.com/painter.png", "mimeType": "image/png", "sizes": ["48x48"]},
            {"src": "data:image/svg+xml;base64,PHN2Zy8+", "mimeType": "image/svg+xml", "theme": "dark"},
        ],
    })
}

/// `params` of a 2026-07-28 request.
fn modern(mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    params
}

/// Each item of `list`'s `key` by its `name`, with its icons (`null` for none).
fn icons_by_name(list: &Value, key: &str) -> Vec<(String, Value)> {
    list[key]
        .as_array()
        .unwrap_or_else(|| panic!("no {key} in {list}"))
        .iter()
        .map(|item| {
            (
                item["name"].as_str().unwrap().to_owned(),
                item["icons"].clone(),
            )
        })
        .collect()
}

async fn listings(client: &TestClient, params: &dyn Fn() -> Value) -> [Value; 3] {
    let mut results = Vec::new();
    for method in ["tools/list", "resources/list", "resources/templates/list"] {
        let response = client.request(method, params()).await;
        results.push(response["result"].clone());
    }
    results.try_into().unwrap()
}

fn assert_icons_listed([tools, resources, templates]: &[Value; 3]) {
    assert_eq!(
        icons_by_name(tools, "tools"),
        [
            (
                "brush".to_owned(),
                json!([{"src": "https://example.com/brush.png", "sizes": ["any"]}])
            ),
            ("paint".to_owned(), paint_icons()),
            ("plain".to_owned(), Value::Null),
        ]
    );
    assert_eq!(
        icons_by_name(resources, "resources"),
        [(
            "palette".to_owned(),
            json!([{"src": "https://example.com/palette.svg", "mimeType": "image/svg+xml", "sizes": ["any"]}])
        )]
    );
    assert_eq!(
        icons_by_name(templates, "resourceTemplates"),
        [(
            "colour".to_owned(),
            json!([{"src": "https://example.com/colour.png"}])
        )]
    );
}

#[tokio::test]
async fn a_2025_11_25_client_sees_every_icon_and_the_servers_description() {
    let client = TestClient::new(server());
    let initialized = client
        .request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        )
        .await;
    assert_eq!(initialized["result"]["serverInfo"], server_info());
    assert_icons_listed(&listings(&client, &|| Value::Null).await);
}

#[tokio::test]
async fn a_2026_07_28_client_sees_them_in_every_result_and_in_discover() {
    let client = TestClient::new(server());
    let results = listings(&client, &|| modern(json!({}))).await;
    assert_icons_listed(&results);
    for result in &results {
        assert_eq!(
            result["_meta"]["io.modelcontextprotocol/serverInfo"],
            server_info()
        );
    }
    let discovered = client.request("server/discover", modern(json!({}))).await;
    assert_eq!(
        discovered["result"]["_meta"]["io.modelcontextprotocol/serverInfo"],
        server_info(),
        "{discovered}"
    );
}

#[tokio::test]
async fn a_2025_06_18_client_gets_no_icon_description_or_website() {
    let client = TestClient::with_protocol_version(server(), "2025-06-18");
    let initialized = client
        .request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        )
        .await;
    assert_eq!(
        initialized["result"]["serverInfo"],
        json!({"name": "painter", "version": "1.0.0", "title": "Painter"})
    );
    let [tools, resources, templates] = listings(&client, &|| Value::Null).await;
    let no_icons = |list: &Value, key: &str| {
        icons_by_name(list, key)
            .into_iter()
            .all(|(_, icons)| icons.is_null())
    };
    assert!(no_icons(&tools, "tools"), "{tools}");
    assert!(no_icons(&resources, "resources"), "{resources}");
    assert!(no_icons(&templates, "resourceTemplates"), "{templates}");
}
