//! [`Server::run`]: the ready-made entry point of a server binary. It reads the process
//! arguments, and it alone installs a logger (to stderr): a library never sets the global
//! `tracing` subscriber behind its application's back.

use std::io::{self, IsTerminal as _, Write as _};
#[cfg(feature = "http")]
use std::net::{Ipv4Addr, SocketAddr};

use crate::server::Server;

/// What the arguments ask for.
#[derive(Debug, PartialEq)]
enum Command<'a> {
    Stdio,
    ListTools,
    Help,
    Http(&'a str),
}

impl Command<'_> {
    fn parse<'a>(arguments: &'a [&'a str]) -> Option<Command<'a>> {
        match arguments {
            [] => Some(Command::Stdio),
            ["--list-tools"] => Some(Command::ListTools),
            ["--help" | "-h"] => Some(Command::Help),
            ["--http", address] => Some(Command::Http(address)),
            _ => None,
        }
    }
}

impl Server {
    /// Reads the process arguments: none → stdio; `--http ADDR` → Streamable HTTP;
    /// `--list-tools` → print the `tools/list` result as JSON and exit; `--help`.
    ///
    /// Unless the application installed a `tracing` subscriber of its own, this installs one that
    /// writes to stderr (stdout belongs to the protocol), filtered by `RUST_LOG` (default
    /// `info`). The `serve_*` methods install none.
    ///
    /// An error (tools that cannot be served, bad arguments, an address in use) is printed to
    /// stderr as its `Display` text, every problem listed, and the process exits with status 1:
    /// returned from `main`, an `io::Error` would print as `Debug`.
    pub async fn run(self) -> io::Result<()> {
        if let Err(error) = self.run_command().await {
            let _ = writeln!(io::stderr().lock(), "Error: {error}");
            std::process::exit(1);
        }
        Ok(())
    }

    /// [`Server::run`], its errors returned. The tools are checked before anything else.
    async fn run_command(self) -> io::Result<()> {
        let arguments: Vec<String> = std::env::args().skip(1).collect();
        let arguments: Vec<&str> = arguments.iter().map(String::as_str).collect();
        let Some(command) = Command::parse(&arguments) else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("unexpected arguments {arguments:?}\n\n{}", usage(&self)),
            ));
        };
        if command != Command::Help {
            self.check().map_err(io::Error::other)?;
        }
        match command {
            Command::Stdio => {
                init_stderr_logging();
                if io::stdin().is_terminal() {
                    greet(&self);
                }
                self.serve_stdio().await
            }
            Command::ListTools => {
                let listing = serde_json::to_string_pretty(&self.list_tools())?;
                writeln!(io::stdout().lock(), "{listing}")
            }
            Command::Help => write!(io::stdout().lock(), "{}", usage(&self)),
            Command::Http(address) => serve_http(self, address).await,
        }
    }
}

#[cfg(feature = "http")]
async fn serve_http(server: Server, address: &str) -> io::Result<()> {
    let address = http_address(address)?;
    init_stderr_logging();
    server.serve_http(address).await
}

#[cfg(not(feature = "http"))]
async fn serve_http(_server: Server, _address: &str) -> io::Result<()> {
    let refusal = io::Error::new(
        io::ErrorKind::Unsupported,
        "--http: this server was built without the `http` feature of mcp-toolbelt",
    );
    std::future::ready(Err(refusal)).await
}

/// Sends `tracing` output to stderr, filtered by `RUST_LOG` (default `info`), unless the
/// application installed a subscriber of its own.
fn init_stderr_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(io::stderr)
        .with_ansi(false)
        .try_init();
}

fn program(server: &Server) -> String {
    std::env::args()
        .next()
        .unwrap_or_else(|| server.name().to_owned())
}

fn usage(server: &Server) -> String {
    let program = program(server);
    let http = if cfg!(feature = "http") {
        format!(
            "  {program} --http ADDR     serve Streamable HTTP at ADDR (path /mcp): a port (8080, on\n                            127.0.0.1), localhost:PORT, or IP:PORT (0.0.0.0:8080 for all)\n"
        )
    } else {
        String::new()
    };
    format!(
        "{name} {version}: an MCP server with {count} tools\n\n\
         Usage:\n  {program}                 serve over stdio (what MCP hosts launch)\n\
         {http}  \
         {program} --list-tools    print the tools/list result as JSON\n  \
         {program} --help          show this\n",
        name = server.name(),
        version = server.version(),
        count = server.tool_count(),
    )
}

fn greet(server: &Server) {
    let program = program(server);
    eprintln!(
        "{} {}: an MCP server with {} tools, speaking MCP over stdin/stdout.\n\
         It is meant to be launched by an MCP host. To connect one:\n  \
         Claude Code: claude mcp add {} -- {program}\n  \
         Inspector:   npx @modelcontextprotocol/inspector {program}\n\
         Run `{program} --help` for more; press Ctrl-D to quit.",
        server.name(),
        server.version(),
        server.tool_count(),
        server.name(),
    );
}

/// The address `--http` names: `PORT` and `localhost:PORT` mean 127.0.0.1 (local only, the safe
/// default), otherwise `IP:PORT`.
#[cfg(feature = "http")]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands() {
        assert_eq!(Command::parse(&[]), Some(Command::Stdio));
        assert_eq!(Command::parse(&["--list-tools"]), Some(Command::ListTools));
        assert_eq!(Command::parse(&["-h"]), Some(Command::Help));
        assert_eq!(
            Command::parse(&["--http", "8080"]),
            Some(Command::Http("8080"))
        );
        assert_eq!(Command::parse(&["--http"]), None);
        assert_eq!(Command::parse(&["--stdio", "x"]), None);
    }

    #[cfg(feature = "http")]
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
