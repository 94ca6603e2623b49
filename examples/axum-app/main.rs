//! An existing axum app, an inventory service with its own routes (`/health`, `/api/items`),
//! that mounts the MCP endpoint at `/mcp` beside them. The tools and the REST routes share one
//! inventory (app state); MCP requests need a bearer token, and each tool names the scope it
//! needs (`scopes(…)`): `inventory:read` for the read-only one, `inventory:write` for the
//! others. A token without it does not see the tool listed, and a call of it is `403` with the
//! `insufficient_scope` challenge naming the scope.
//!
//! ```text
//! APP_TOKENS="reader-token=inventory:read writer-token=inventory:read,inventory:write" \
//!     cargo run --example axum-app -- 127.0.0.1:3000
//! curl http://127.0.0.1:3000/health
//! curl http://127.0.0.1:3000/api/items
//! ```
//!
//! `APP_TOKENS` is a stand-in for a real token check: each entry is `TOKEN=SCOPE,SCOPE`. A
//! production verifier would validate a JWT or ask the authorization server named in
//! `APP_AUTHORIZATION_SERVER` (token introspection) instead.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use axum::Router;
use axum::routing::get;
use mcp_toolbelt::icon::Icon;
use mcp_toolbelt::{
    Json, Server, State, ToolError, http::AuthInfo, http::HttpConfig,
    http::ProtectedResourceMetadata, tool,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The scope the read-only tool needs (its `scopes(…)`), for the metadata document the app
/// serves itself.
const READ: &str = "inventory:read";
/// The scope every other tool needs.
const WRITE: &str = "inventory:write";

/// One line of the inventory.
#[derive(Clone, Serialize, Deserialize, JsonSchema)]
struct Item {
    /// What it is
    name: String,
    /// How many are in stock
    quantity: u32,
}

/// The app's data, shared by its REST routes (axum state) and its tools (MCP app state).
#[derive(Clone, Default)]
struct Inventory(Arc<Mutex<Vec<Item>>>);

impl Inventory {
    fn items(&self) -> MutexGuard<'_, Vec<Item>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds `quantity` to the item called `name`, creating it; gives the item as it now is.
    fn add(&self, name: String, quantity: u32) -> Item {
        let mut items = self.items();
        if let Some(item) = items.iter_mut().find(|item| item.name == name) {
            item.quantity = item.quantity.saturating_add(quantity);
            return item.clone();
        }
        let item = Item { name, quantity };
        items.push(item.clone());
        item
    }
}

/// The whole inventory.
#[derive(Serialize, JsonSchema)]
struct Stock {
    items: Vec<Item>,
}

/// List what is in stock
#[tool(annotations(read_only), scopes("inventory:read"))]
async fn list_items(inventory: State<Inventory>) -> Json<Stock> {
    Json(Stock {
        items: inventory.items().clone(),
    })
}

/// Put items in stock (adds to the quantity of an item already there)
#[tool(scopes("inventory:write"))]
async fn add_item(
    inventory: State<Inventory>,
    /// What to add
    #[schemars(length(min = 1))]
    name: String,
    /// How many
    #[schemars(range(min = 1))]
    quantity: u32,
) -> Json<Item> {
    Json(inventory.add(name, quantity))
}

/// Take an item out of the inventory altogether
#[tool(annotations(destructive, idempotent), scopes("inventory:write"))]
async fn remove_item(
    inventory: State<Inventory>,
    /// The item's name, as `list_items` gives it
    name: String,
) -> Result<String, ToolError> {
    let mut items = inventory.items();
    let before = items.len();
    items.retain(|item| item.name != name);
    if items.len() == before {
        return Err(ToolError::new(format!("No item named {name:?} in stock")));
    }
    Ok(format!("Removed {name}"))
}

/// The tokens of `APP_TOKENS` (`TOKEN=SCOPE,SCOPE …`) and what each grants.
fn tokens(spec: &str) -> Result<HashMap<String, AuthInfo>, String> {
    spec.split_whitespace()
        .enumerate()
        .map(|(index, entry)| {
            let (token, scopes) = entry
                .split_once('=')
                .filter(|(token, _)| !token.is_empty())
                .ok_or_else(|| format!("APP_TOKENS: {entry:?} is not TOKEN=SCOPE,SCOPE"))?;
            let auth = AuthInfo::new(format!("app-token-{}", index + 1))
                .scopes(scopes.split(',').filter(|s| !s.is_empty()));
            Ok((token.to_owned(), auth))
        })
        .collect()
}

/// The MCP server: the tools, their state, bearer auth (each tool's `scopes(…)` checked against
/// the token's).
fn mcp(
    inventory: Inventory,
    metadata: ProtectedResourceMetadata,
    tokens: HashMap<String, AuthInfo>,
) -> Server {
    let tokens = Arc::new(tokens);
    let auth = HttpConfig::new().bearer_auth(metadata, move |token| {
        let granted = tokens.get(&token).cloned();
        async move { granted }
    });
    Server::new("inventory", env!("CARGO_PKG_VERSION"))
        .description("The shop's inventory, behind bearer auth")
        .website_url("https://example.com/inventory")
        .icon(
            Icon::new("https://example.com/icons/inventory.png")
                .mime_type("image/png")
                .sizes(["48x48", "96x96"]),
        )
        .instructions(
            "The shop's inventory: list_items shows the stock, add_item and remove_item change it.",
        )
        .state(inventory)
        .http_config(auth)
}

/// The app: its own routes, the MCP endpoint `mcp` at `/mcp` (it answers at `/` of where it is
/// nested), and the RFC 9728 document that tells an MCP client where to get a token (a `401`
/// from `/mcp` points at it).
fn app(inventory: Inventory, metadata: &ProtectedResourceMetadata, mcp: Router) -> Router {
    let document = metadata.clone();
    let api = Router::new()
        .route("/health", get(|| async { "ok" }))
        .route("/api/items", get(api_items).post(api_add))
        .with_state(inventory);
    api.route(
        &metadata.well_known_path(),
        get(move || async move { axum::Json(document) }),
    )
    .nest("/mcp", mcp)
}

/// `GET /api/items`: the app's own view of the stock the tools change.
async fn api_items(
    axum::extract::State(inventory): axum::extract::State<Inventory>,
) -> axum::Json<Vec<Item>> {
    axum::Json(inventory.items().clone())
}

/// `POST /api/items`: put an item in stock, as `add_item` does.
async fn api_add(
    axum::extract::State(inventory): axum::extract::State<Inventory>,
    axum::Json(item): axum::Json<Item>,
) -> axum::Json<Item> {
    axum::Json(inventory.add(item.name, item.quantity))
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    match serve().await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("Error: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// The app, served until SIGINT or SIGTERM.
async fn serve() -> Result<(), Box<dyn std::error::Error>> {
    let address: SocketAddr = match std::env::args().nth(1) {
        None => ([127, 0, 0, 1], 3000).into(),
        Some(address) => address
            .parse()
            .map_err(|_| format!("usage: axum-app [ADDRESS:PORT]; {address:?} is not one"))?,
    };
    let tokens = tokens(&std::env::var("APP_TOKENS").unwrap_or_default())?;
    if tokens.is_empty() {
        return Err(
            "set APP_TOKENS=\"TOKEN=SCOPE,SCOPE …\" (scopes: inventory:read, inventory:write)"
                .into(),
        );
    }
    let listener = tokio::net::TcpListener::bind(address).await?;
    let address = listener.local_addr()?;
    let authorization_server = std::env::var("APP_AUTHORIZATION_SERVER")
        .unwrap_or_else(|_| "https://auth.example.com".into());
    let metadata =
        ProtectedResourceMetadata::new(format!("http://{address}/mcp"), authorization_server)
            .scopes([READ, WRITE]);
    let inventory = Inventory::default();
    let server = mcp(inventory.clone(), metadata.clone(), tokens);
    // The address as bound (port 0 picks a free one): tests read it from this line.
    eprintln!("axum-app: listening on http://{address} (/health, /api/items, MCP at /mcp)");
    // Not `axum::serve`: this one adds what a public listener needs (a header timeout, the
    // connection cap, a minimum body rate) and shuts down gracefully on SIGINT/SIGTERM.
    server
        .serve_http_app(listener, |mcp| app(inventory, &metadata, mcp))
        .await?;
    Ok(())
}
