//! [`Server`]: the builder users start from, and the state every transport shares.

use std::io::{self, IsTerminal as _, Write as _};
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;

use serde_json::{Value, json};
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

use crate::protocol::{Dispatcher, LATEST_LEGACY_VERSION, ListToolsResult};
use crate::registry::{self, RegistryError, Tool, ToolSet};
use crate::transport::http::HttpConfig;

/// An MCP server for every `#[tool]` in the binary.
///
/// ```no_run
/// # async fn run() -> std::io::Result<()> {
/// mcp_toolbelt::Server::new("weather", "1.0.0")
///     .instructions("Ask for the weather of one city at a time.")
///     .run()
///     .await
/// # }
/// ```
#[derive(Clone)]
pub struct Server {
    name: String,
    version: String,
    title: Option<String>,
    instructions: Option<String>,
    page_size: usize,
    ttl_ms: u64,
    pub(crate) max_line_bytes: usize,
    pub(crate) http: HttpConfig,
    tools: Arc<ToolSet>,
    startup_error: Option<RegistryError>,
    changes: broadcast::Sender<()>,
}

/// What the transports share: fixed once serving starts, except the tool set.
pub(crate) struct ServerInner {
    pub(crate) info: Value,
    pub(crate) instructions: Option<String>,
    pub(crate) page_size: usize,
    pub(crate) ttl_ms: u64,
    pub(crate) tools: Arc<ToolSet>,
    /// Sends when a tool is added or removed.
    pub(crate) changes: broadcast::Sender<()>,
    /// Cancelled when the transport shuts down: `subscriptions/listen` streams then close with
    /// their result.
    pub(crate) closing: CancellationToken,
}

impl Server {
    /// A server named `name` at `version` (usually `env!("CARGO_PKG_VERSION")`), serving every
    /// `#[tool]` linked into the binary.
    #[must_use]
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        let (tools, startup_error) = match registry::collected() {
            Ok(tools) => (ToolSet::new(tools.iter().cloned()), None),
            Err(error) => (ToolSet::default(), Some(error)),
        };
        Self {
            name: name.into(),
            version: version.into(),
            title: None,
            instructions: None,
            page_size: 100,
            ttl_ms: 60_000,
            max_line_bytes: 4 * 1024 * 1024,
            http: HttpConfig::default(),
            tools: Arc::new(tools),
            startup_error,
            changes: broadcast::channel(16).0,
        }
    }

    /// A display name for hosts.
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Instructions for the model on how to use these tools.
    #[must_use]
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// How many tools one `tools/list` page holds (default 100).
    #[must_use]
    pub fn page_size(mut self, page_size: usize) -> Self {
        self.page_size = page_size.max(1);
        self
    }

    /// How long (ms) a 2026-07-28 client may cache `tools/list` and `server/discover` (default 60 000).
    #[must_use]
    pub fn cache_ttl_ms(mut self, ttl_ms: u64) -> Self {
        self.ttl_ms = ttl_ms;
        self
    }

    /// The longest stdio line accepted, in bytes (default 4 MiB); a longer one is answered with an
    /// error and discarded.
    #[must_use]
    pub fn max_line_bytes(mut self, max_line_bytes: usize) -> Self {
        self.max_line_bytes = max_line_bytes.max(1);
        self
    }

    /// How the HTTP transport guards its endpoint (allowed hosts and origins, limits, sessions,
    /// bearer auth); see [`HttpConfig`].
    #[must_use]
    pub fn http_config(mut self, config: HttpConfig) -> Self {
        self.http = config;
        self
    }

    /// Whether the tools can be served; `Err` names the problem (two tools with one name, or an
    /// argument type that is not an object). Every `serve_*` checks this first.
    pub fn check(&self) -> Result<(), RegistryError> {
        self.startup_error.clone().map_or(Ok(()), Err)
    }

    /// Adds a tool at run time (clone the server before serving to keep a handle) and tells
    /// connected clients with `notifications/tools/list_changed` (legacy clients that initialized,
    /// 2026-07-28 clients on a `subscriptions/listen` stream).
    pub fn add_tool(&self, tool: Tool) -> Result<(), RegistryError> {
        self.tools.insert(tool)?;
        let _ = self.changes.send(());
        Ok(())
    }

    /// Removes a tool at run time; `false` if there was none of that name.
    #[must_use = "`false` means there was no tool of that name"]
    pub fn remove_tool(&self, name: &str) -> bool {
        let removed = self.tools.remove(name).is_some();
        if removed {
            let _ = self.changes.send(());
        }
        removed
    }

    /// Every tool's definition, as `tools/list` shows them to a client of the newest legacy
    /// version, on one page.
    #[must_use]
    pub fn list_tools(&self) -> ListToolsResult {
        let tools = self
            .tools
            .definitions()
            .iter()
            .map(|tool| (**tool).clone())
            .collect();
        ListToolsResult {
            tools,
            next_cursor: None,
        }
    }

    /// Reads the process arguments: none → stdio; `--http ADDR` → Streamable HTTP;
    /// `--list-tools` → print the `tools/list` result as JSON and exit; `--help`.
    pub async fn run(self) -> io::Result<()> {
        let arguments: Vec<String> = std::env::args().skip(1).collect();
        let arguments: Vec<&str> = arguments.iter().map(String::as_str).collect();
        match arguments.as_slice() {
            [] => {
                if io::stdin().is_terminal() {
                    self.greet();
                }
                self.serve_stdio().await
            }
            ["--list-tools"] => {
                self.check().map_err(io::Error::other)?;
                let listing = serde_json::to_string_pretty(&self.list_tools())?;
                writeln!(io::stdout().lock(), "{listing}")
            }
            ["--help" | "-h"] => {
                write!(io::stdout().lock(), "{}", self.usage())
            }
            ["--http", address] => self.serve_http(http_address(address)?).await,
            _ => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("unexpected arguments {arguments:?}\n\n{}", self.usage()),
            )),
        }
    }

    fn usage(&self) -> String {
        let program = std::env::args().next().unwrap_or_else(|| self.name.clone());
        format!(
            "{name} {version}: an MCP server with {count} tools\n\n\
             Usage:\n  {program}                 serve over stdio (what MCP hosts launch)\n  \
             {program} --http ADDR     serve Streamable HTTP at ADDR (path /mcp): a port (8080, on\n                            127.0.0.1), localhost:PORT, or IP:PORT (0.0.0.0:8080 for all)\n  \
             {program} --list-tools    print the tools/list result as JSON\n  \
             {program} --help          show this\n",
            name = self.name,
            version = self.version,
            count = self.tools.definitions().len(),
        )
    }

    fn greet(&self) {
        let program = std::env::args().next().unwrap_or_else(|| self.name.clone());
        eprintln!(
            "{} {}: an MCP server with {} tools, speaking MCP over stdin/stdout.\n\
             It is meant to be launched by an MCP host. To connect one:\n  \
             Claude Code: claude mcp add {} -- {program}\n  \
             Inspector:   npx @modelcontextprotocol/inspector {program}\n\
             Run `{program} --help` for more; press Ctrl-D to quit.",
            self.name,
            self.version,
            self.tools.definitions().len(),
            self.name,
        );
    }

    /// The shared state the transports drive; `Err` if the tools cannot be served. Cancelling
    /// `closing` closes its `subscriptions/listen` streams.
    pub(crate) fn into_dispatcher(
        self,
        closing: CancellationToken,
    ) -> Result<Dispatcher, RegistryError> {
        self.check()?;
        let mut info = json!({"name": self.name, "version": self.version});
        if let Some(title) = self.title {
            info["title"] = json!(title);
        }
        Ok(Dispatcher::new(Arc::new(ServerInner {
            info,
            instructions: self.instructions,
            page_size: self.page_size,
            ttl_ms: self.ttl_ms,
            tools: self.tools,
            changes: self.changes,
            closing,
        })))
    }

    pub(crate) fn changes_subscription(&self) -> broadcast::Receiver<()> {
        self.changes.subscribe()
    }

    /// The protocol version assumed for a legacy client that has not said which it speaks.
    pub(crate) const DEFAULT_VERSION: &'static str = LATEST_LEGACY_VERSION;
}

/// The address `--http` names: `PORT` and `localhost:PORT` mean 127.0.0.1 (local only, the safe
/// default), otherwise `IP:PORT`.
fn http_address(address: &str) -> io::Result<SocketAddr> {
    let invalid = |problem: String| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("--http {address}: {problem} (write a port, localhost:PORT or IP:PORT)"),
        )
    };
    let port = address
        .strip_prefix("localhost:")
        .unwrap_or(address)
        .parse::<u16>();
    match port {
        Ok(port) => Ok(SocketAddr::from((Ipv4Addr::LOCALHOST, port))),
        Err(_) => address.parse().map_err(|e| invalid(format!("{e}"))),
    }
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("name", &self.name)
            .field("version", &self.version)
            .field("tools", &self.tools.definitions().len())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_addresses() {
        let local = |port| SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        assert_eq!(http_address("8080").unwrap(), local(8080));
        assert_eq!(http_address("localhost:3001").unwrap(), local(3001));
        assert_eq!(
            http_address("0.0.0.0:80").unwrap(),
            "0.0.0.0:80".parse::<SocketAddr>().unwrap()
        );
        assert_eq!(
            http_address("[::1]:9").unwrap(),
            "[::1]:9".parse::<SocketAddr>().unwrap()
        );
        let error = http_address("example.com:80").unwrap_err().to_string();
        assert!(
            error.contains("write a port, localhost:PORT or IP:PORT"),
            "{error}"
        );
        assert!(http_address("70000").is_err());
    }
}
