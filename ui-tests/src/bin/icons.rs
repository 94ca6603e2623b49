//! `icons(…)` on `#[tool]` and `#[resource]`: URLs, `data:` URIs, bytes from the binary, and a
//! `const` (checked by the lint, not here), served in order.

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Server, resource, tool};
use serde_json::json;

const PAINT_DARK: &str = "https://example.com/paint-dark.png";

/// Paint
#[tool(
    icons(src = "https://example.com/paint.png", mime_type = "image/png", sizes = ["48x48", "96x96"], theme = "light"),
    icons(src = PAINT_DARK, theme = "dark"),
    icons(data = include_bytes!("../../tests/ui/icon.svg"), mime_type = "image/svg+xml", sizes = ["any"])
)]
async fn paint() -> String {
    String::new()
}

/// The readme
#[resource(
    uri = "docs://readme",
    icons(src = "data:image/png;base64,iVBORw0KGgo=", mime_type = "image/png")
)]
static README: &str = "read me";

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let client = TestClient::new(Server::new("icons", "0.0.0"));
    let tools = serde_json::to_value(client.list_tools().await).unwrap();
    let icons = &tools["tools"][0]["icons"];
    assert_eq!(
        icons[0],
        json!({"src": "https://example.com/paint.png", "mimeType": "image/png", "sizes": ["48x48", "96x96"], "theme": "light"})
    );
    assert_eq!(icons[1], json!({"src": PAINT_DARK, "theme": "dark"}));
    let svg = icons[2]["src"].as_str().unwrap();
    assert!(svg.starts_with("data:image/svg+xml;base64,PHN2Zy"), "{svg}");
    assert_eq!(icons[2]["sizes"], json!(["any"]));
    let resources = client.request("resources/list", json!({})).await;
    assert_eq!(
        resources["result"]["resources"][0]["icons"],
        json!([{"src": "data:image/png;base64,iVBORw0KGgo=", "mimeType": "image/png"}])
    );
}
