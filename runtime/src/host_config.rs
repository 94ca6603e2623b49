//! `--print-config HOST`: the snippet that plugs this binary into an MCP host, in the format
//! the host documents, so that adding the server is a copy and paste.
//!
//! - `claude-desktop`: `claude_desktop_config.json`, `mcpServers` with `command` and `args`
//!   (its config file launches stdio servers; its custom connectors connect from Anthropic's
//!   cloud, which cannot reach a local URL, so an `--http` server is reached through the
//!   `mcp-remote` bridge, `npx -y mcp-remote URL`, as a stdio entry).
//! - `claude-code`: `claude mcp add NAME -- COMMAND ARGS…`, or `claude mcp add --transport http
//!   NAME URL`.
//! - `vscode`: `.vscode/mcp.json`, `servers` with `type` (`stdio`: `command`, `args`; `http`:
//!   `url`).
//! - `cursor`: `.cursor/mcp.json` (or `~/.cursor/mcp.json`), `mcpServers` with `command` and
//!   `args`, or `url`.
//! - `inspector`: `npx @modelcontextprotocol/inspector -- COMMAND ARGS…` (`--` separates the
//!   Inspector's flags from the server's), or `--transport http --server-url URL`.
//!
//! With bearer auth on (`HttpConfig::bearer_auth`) each `--http` snippet sends the header:
//! `--header 'Authorization: Bearer YOUR_TOKEN'` (Claude Code, the Inspector), `headers`
//! (Cursor; VS Code's asks for the token, an `input` of its config), `mcp-remote --header`
//! (Claude Desktop), and stderr says what to put there.

use serde_json::{Value, json};

/// The hosts `--print-config` knows, as it takes their names.
pub(crate) const HOSTS: [&str; 5] = [
    "claude-desktop",
    "claude-code",
    "vscode",
    "cursor",
    "inspector",
];

/// How the host reaches the server: it starts the binary (stdio), or connects to a running one.
#[derive(Debug, PartialEq)]
pub(crate) enum Reach<'a> {
    /// The absolute path of the binary and the flags to start it with.
    Stdio {
        /// The binary.
        command: &'a str,
        /// Its flags.
        args: &'a [&'a str],
    },
    /// A running server.
    Http {
        /// The URL of its `/mcp` endpoint.
        url: String,
        /// Whether it wants `Authorization: Bearer <token>` (`HttpConfig::bearer_auth`): the
        /// snippet then sends one, where the host takes a header.
        bearer: bool,
    },
}

/// What stands for the token in a snippet, for the user to replace.
pub(crate) const TOKEN: &str = "YOUR_TOKEN";

/// The URL a client of `--http ADDRESS` uses: the first name given with `--allow-host` (the
/// name clients use, with its own port when it has one, as behind a proxy), else the address's
/// own host (`localhost` for an address that binds every interface), its port, and the `/mcp`
/// path.
pub(crate) fn url(address: &str, hosts: &[String]) -> Result<String, String> {
    let (host, port) = match address
        .strip_prefix("localhost:")
        .unwrap_or(address)
        .parse::<u16>()
    {
        Ok(port) if address.starts_with("localhost:") => ("localhost".to_owned(), port),
        Ok(port) => ("127.0.0.1".to_owned(), port),
        Err(_) => {
            let socket: std::net::SocketAddr = address
                .parse()
                .map_err(|error| format!("--http {address}: {error}"))?;
            let host = if socket.ip().is_unspecified() {
                "localhost".to_owned()
            } else if socket.is_ipv6() {
                format!("[{}]", socket.ip())
            } else {
                socket.ip().to_string()
            };
            (host, socket.port())
        }
    };
    Ok(match hosts.first() {
        Some(entry) if has_port(entry) => format!("http://{entry}/mcp"),
        Some(entry) => format!("http://{entry}:{port}/mcp"),
        None => format!("http://{host}:{port}/mcp"),
    })
}

/// Whether an `--allow-host` entry names its port (`name:8443`, `[::1]:8443`).
fn has_port(entry: &str) -> bool {
    entry.rsplit_once(':').is_some_and(|(host, port)| {
        port.parse::<u16>().is_ok() && (!host.contains(':') || host.ends_with(']'))
    })
}

/// Whether `url` names this machine, which `mcp-remote` reaches over plain HTTP without
/// `--allow-http`.
fn is_loopback(url: &str) -> bool {
    ["http://localhost:", "http://127.0.0.1:", "http://[::1]:"]
        .iter()
        .any(|prefix| url.starts_with(prefix))
}

/// The snippet for `host` (one of [`HOSTS`]) naming the server `name`; `Err` names the hosts
/// there are. Ends with a newline.
pub(crate) fn snippet(host: &str, name: &str, reach: &Reach<'_>) -> Result<String, String> {
    let json = |value: Value| {
        serde_json::to_string_pretty(&value).map_or_else(|_| String::new(), |text| text + "\n")
    };
    let text = match (host, reach) {
        ("claude-desktop" | "cursor", Reach::Stdio { command, args }) => json(json!({
            "mcpServers": {name: {"command": command, "args": args}}
        })),
        // Claude Desktop's connectors connect from Anthropic's cloud, which cannot reach a
        // local URL: its config file starts the `mcp-remote` bridge, a stdio server.
        ("claude-desktop", Reach::Http { url, bearer }) => {
            let mut args = vec!["-y", "mcp-remote", url.as_str()];
            if !is_loopback(url) {
                args.push("--allow-http");
            }
            let entry = if *bearer {
                // As mcp-remote's README has it: the header's value from the environment, as a
                // space in an argument is not passed whole on every platform.
                args.extend(["--header", "Authorization:${AUTH_HEADER}"]);
                json!({"command": "npx", "args": args, "env": {"AUTH_HEADER": format!("Bearer {TOKEN}")}})
            } else {
                json!({"command": "npx", "args": args})
            };
            json(json!({"mcpServers": {name: entry}}))
        }
        ("claude-code", Reach::Stdio { command, args }) => {
            format!(
                "claude mcp add {} -- {}\n",
                quote(name),
                line(command, args)
            )
        }
        ("claude-code", Reach::Http { url, bearer }) => {
            format!(
                "claude mcp add --transport http {} {}{}\n",
                quote(name),
                quote(url),
                header_flag(*bearer)
            )
        }
        ("vscode", Reach::Stdio { command, args }) => json(json!({
            "servers": {name: {"type": "stdio", "command": command, "args": args}}
        })),
        ("vscode", Reach::Http { url, bearer: false }) => json(json!({
            "servers": {name: {"type": "http", "url": url}}
        })),
        // VS Code asks for the token once and keeps it (an input of the config file).
        ("vscode", Reach::Http { url, bearer: true }) => json(json!({
            "inputs": [{
                "type": "promptString",
                "id": "token",
                "description": format!("The bearer token for {name}"),
                "password": true
            }],
            "servers": {name: {
                "type": "http",
                "url": url,
                "headers": {"Authorization": "Bearer ${input:token}"}
            }}
        })),
        ("cursor", Reach::Http { url, bearer: false }) => {
            json(json!({"mcpServers": {name: {"url": url}}}))
        }
        ("cursor", Reach::Http { url, bearer: true }) => json(json!({"mcpServers": {name: {
            "url": url,
            "headers": {"Authorization": format!("Bearer {TOKEN}")}
        }}})),
        ("inspector", Reach::Stdio { command, args }) => {
            format!(
                "npx @modelcontextprotocol/inspector -- {}\n",
                line(command, args)
            )
        }
        ("inspector", Reach::Http { url, bearer }) => format!(
            "npx @modelcontextprotocol/inspector --transport http --server-url {}{}\n",
            quote(url),
            header_flag(*bearer)
        ),
        (other, _) => {
            return Err(format!(
                "--print-config {other}: write one of {}",
                HOSTS.join(", ")
            ));
        }
    };
    Ok(text)
}

/// Where the snippet goes, said on stderr so that stdout is only the snippet.
pub(crate) fn placement(host: &str, reach: &Reach<'_>) -> &'static str {
    match (host, reach) {
        ("claude-desktop", Reach::Stdio { .. }) => {
            "add this to claude_desktop_config.json (Settings → Developer → Edit Config), then restart Claude Desktop"
        }
        ("claude-desktop", Reach::Http { .. }) => {
            "Claude Desktop's custom connectors connect from Anthropic's cloud, which cannot reach this URL: this entry runs the mcp-remote bridge (npx -y mcp-remote URL, Node.js needed) as a stdio server; add it to claude_desktop_config.json (Settings → Developer → Edit Config), then restart Claude Desktop"
        }
        ("claude-code", _) => "run this in your project",
        ("vscode", _) => "add this to .vscode/mcp.json (or your user mcp.json)",
        ("cursor", _) => "add this to .cursor/mcp.json (or ~/.cursor/mcp.json)",
        _ => "run this to open the Inspector on this server",
    }
}

/// ` --header 'Authorization: Bearer YOUR_TOKEN'` when the server wants a token, the flag of
/// `claude mcp add` and of the Inspector alike.
fn header_flag(bearer: bool) -> String {
    if bearer {
        format!(
            " --header {}",
            quote(&format!("Authorization: Bearer {TOKEN}"))
        )
    } else {
        String::new()
    }
}

/// What the host must send, said on stderr: where the snippet carries a placeholder, to
/// replace it.
pub(crate) fn token_note(host: &str) -> String {
    let how = if host == "vscode" {
        "VS Code asks for it when it starts the server"
    } else {
        "replace YOUR_TOKEN in the snippet with one"
    };
    format!(
        "this server wants `Authorization: Bearer <token>` on every request, a token its verifier accepts: {how}"
    )
}

/// A command line: `command` and `args`, each quoted for a POSIX shell where needed.
pub(crate) fn line(command: &str, args: &[&str]) -> String {
    std::iter::once(command)
        .chain(args.iter().copied())
        .map(quote)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `word` as a POSIX shell reads it back: as it is when it holds only safe characters, else in
/// single quotes.
fn quote(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./:=@%+,".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_the_host_clients_use() {
        let none: &[String] = &[];
        assert_eq!(url("8080", none).unwrap(), "http://127.0.0.1:8080/mcp");
        assert_eq!(
            url("localhost:9000", none).unwrap(),
            "http://localhost:9000/mcp"
        );
        assert_eq!(
            url("0.0.0.0:8080", none).unwrap(),
            "http://localhost:8080/mcp"
        );
        assert_eq!(url("[::1]:8080", none).unwrap(), "http://[::1]:8080/mcp");
        assert_eq!(
            url("0.0.0.0:8080", &["mcp.internal".to_owned()]).unwrap(),
            "http://mcp.internal:8080/mcp"
        );
        assert!(url("nowhere", none).is_err());
        assert_eq!(
            url("0.0.0.0:8080", &["mcp.example.com:443".to_owned()]).unwrap(),
            "http://mcp.example.com:443/mcp",
            "the entry's own port"
        );
        assert_eq!(
            url("8080", &["[::1]:9000".to_owned()]).unwrap(),
            "http://[::1]:9000/mcp"
        );
    }

    #[test]
    fn words_are_quoted_for_a_shell_only_when_needed() {
        assert_eq!(quote("/usr/bin/tool"), "/usr/bin/tool");
        assert_eq!(quote("/My Tools/it's"), r"'/My Tools/it'\''s'");
        assert_eq!(quote(""), "''");
    }
}
