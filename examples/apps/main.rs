//! Tools with a UI (the MCP Apps extension, `io.modelcontextprotocol/ui`): `show-albums` shows
//! albums in a view; `review-purchase` shows an order with a confirm button, which calls the
//! backend-only `review` through the host. Hosts without the extension get the same results as
//! text.
//!
//! The views (`albums.html`, `purchase.html`) speak the host bridge in dependency-free script:
//! they answer the host's requests (`ping`, `ui/resource-teardown`), report their size, declare
//! their display modes and show error results (the README's MCP Apps section says why).
//!
//! ```text
//! cargo run --example apps                     # serve over stdio
//! cargo run --example apps -- --http 127.0.0.1:8080
//! ```

use mcp_toolbelt::{
    CallToolResult, Content, Context, Json, Server, resource, result::IntoToolResult, tool,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Renders the albums `show-albums` returns
#[resource(
    uri = "ui://albums/view.html",
    name = "albums-view",
    app(prefers_border)
)]
static ALBUMS_VIEW: &str = include_str!("albums.html");

/// Shows an order, with buttons to confirm or cancel it
#[resource(
    uri = "ui://review/purchase.html",
    name = "purchase-review",
    app(prefers_border)
)]
static PURCHASE_VIEW: &str = include_str!("purchase.html");

/// One album.
#[derive(Debug, Clone, Serialize, JsonSchema)]
struct Album {
    title: &'static str,
    artist: &'static str,
    year: u16,
}

const ALBUMS: [Album; 3] = [
    Album {
        title: "Kind of Blue",
        artist: "Miles Davis",
        year: 1959,
    },
    Album {
        title: "Blue Train",
        artist: "John Coltrane",
        year: 1958,
    },
    Album {
        title: "Moanin'",
        artist: "Art Blakey",
        year: 1958,
    },
];

/// The albums found.
#[derive(Serialize, JsonSchema)]
struct Albums {
    albums: Vec<Album>,
}

/// Show albums, optionally of one artist
#[tool(
    name = "show-albums",
    annotations(read_only, open_world = false),
    ui = "ui://albums/view.html",
    visibility(model, app)
)]
async fn show_albums(
    /// Only albums whose artist contains this text (case-insensitive)
    artist: Option<String>,
) -> Json<Albums> {
    let wanted = artist.unwrap_or_default().to_lowercase();
    let albums = ALBUMS
        .iter()
        .filter(|album| album.artist.to_lowercase().contains(&wanted))
        .cloned()
        .collect();
    Json(Albums { albums })
}

/// The order the user reviews.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Order {
    item: String,
    quantity: u32,
    unit_price: f64,
    total: f64,
}

/// The order, under `order`.
#[derive(Serialize, JsonSchema)]
struct Review {
    order: Order,
}

/// The shop's prices.
const PRICES: &[(&str, f64)] = &[("Travel mug", 24.0), ("Espresso cup", 12.0)];

/// Show an order to the user, who confirms or cancels it in the view
#[tool(
    name = "review-purchase",
    annotations(read_only, open_world = false),
    ui = "ui://review/purchase.html"
)]
async fn review_purchase(
    /// What to buy: "Travel mug" or "Espresso cup"
    item: String,
    /// How many
    #[schemars(range(min = 1, max = 99))]
    quantity: u32,
    context: &Context,
) -> Result<CallToolResult, String> {
    let (name, unit_price) = PRICES
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(&item))
        .ok_or_else(|| format!("unknown item {item:?}: we sell Travel mug and Espresso cup"))?;
    let order = Order {
        item: (*name).to_owned(),
        quantity,
        unit_price: *unit_price,
        total: unit_price * f64::from(quantity),
    };
    // Hosts without the view need the order in words, and someone to ask.
    let next = if context.client_supports_apps() {
        "The user confirms or cancels it in the view."
    } else {
        "Ask the user to confirm before buying."
    };
    let text = format!(
        "Order to review: {} × {} at {:.2}, total {:.2}. {next}",
        order.quantity, order.item, order.unit_price, order.total
    );
    let mut result = Json(Review { order }).into_tool_result();
    result.content = vec![Content::text(text)];
    Ok(result)
}

/// The user's decision, as the view sends it.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Decision {
    /// What the user reviewed, e.g. "purchase"
    action: String,
    /// Whether the user confirmed it
    confirmed: bool,
    /// When the user decided (ISO 8601)
    decided_at: String,
    /// What the view showed, passed back as it was
    payload: Option<Value>,
}

/// What `review` did.
#[derive(Serialize, JsonSchema)]
struct Outcome {
    /// "completed" or "cancelled"
    status: &'static str,
    /// What happened, for the user
    message: String,
}

/// `structuredContent` `{status, message}`, and the short text a model reads.
impl IntoToolResult for Outcome {
    fn into_tool_result(self) -> CallToolResult {
        let text = if self.status == "completed" {
            "Completed."
        } else {
            "Cancelled."
        };
        let mut result = Json(self).into_tool_result();
        result.content = vec![Content::text(text)];
        result
    }

    fn output_schema() -> Option<Value> {
        Json::<Self>::output_schema()
    }
}

/// Carry out or drop what the user reviewed in a view (called by the view, not the model)
#[tool(annotations(idempotent, open_world = false), visibility(app))]
async fn review(decision: Decision) -> Outcome {
    let what = match decision
        .payload
        .as_ref()
        .and_then(|order| order.get("item"))
    {
        Some(Value::String(item)) => format!("{} of {item}", decision.action),
        _ => decision.action.clone(),
    };
    if decision.confirmed {
        Outcome {
            status: "completed",
            message: format!("The {what} was completed ({}).", decision.decided_at),
        }
    } else {
        Outcome {
            status: "cancelled",
            message: format!("The {what} was cancelled ({}).", decision.decided_at),
        }
    }
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    Server::new("apps", env!("CARGO_PKG_VERSION"))
        .instructions(
            "show-albums shows albums; review-purchase asks the user to confirm an order.",
        )
        .run()
        .await
}
