//! `--print-config HOST`: what plugs a server binary into an MCP host, in the host's documented
//! format, for this very binary (its absolute path, the flags it was given, or the URL it serves
//! with `--http`). Run on the weather example, as a user would.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use mcp_toolbelt_tests::example_binary;
use serde_json::{Value, json};

fn weather() -> PathBuf {
    std::fs::canonicalize(example_binary("weather")).unwrap()
}

fn print_config(arguments: &[&str]) -> Output {
    Command::new(weather())
        .args(arguments)
        .output()
        .expect("the example runs")
}

/// stdout of a run that must succeed.
fn snippet(arguments: &[&str]) -> String {
    let output = print_config(arguments);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn json_snippet(arguments: &[&str]) -> Value {
    serde_json::from_str(&snippet(arguments)).unwrap()
}

#[test]
fn stdio_snippets_start_this_binary() {
    let path = weather();
    let path = path.to_str().unwrap();
    let desktop = json_snippet(&["--print-config", "claude-desktop"]);
    assert_eq!(
        desktop,
        json!({"mcpServers": {"weather": {"command": path, "args": []}}})
    );
    assert_eq!(
        json_snippet(&["--print-config", "cursor"]),
        json!({"mcpServers": {"weather": {"command": path, "args": []}}})
    );
    assert_eq!(
        json_snippet(&["--print-config", "vscode"]),
        json!({"servers": {"weather": {"type": "stdio", "command": path, "args": []}}})
    );
    assert_eq!(
        snippet(&["--print-config", "claude-code"]),
        format!("claude mcp add weather -- {path}\n")
    );
    assert_eq!(
        snippet(&["--print-config", "inspector"]),
        format!("npx @modelcontextprotocol/inspector -- {path}\n")
    );
    let told =
        String::from_utf8(print_config(&["--print-config", "claude-desktop"]).stderr).unwrap();
    assert!(told.contains("claude_desktop_config.json"), "{told}");

    // What the snippet says to start is a server that answers.
    let entry = &desktop["mcpServers"]["weather"];
    let mut server = Command::new(entry["command"].as_str().unwrap())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = server.stdin.take().unwrap();
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
    )
    .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    drop(stdin);
    server.wait().unwrap();
    let answer: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(answer["result"]["serverInfo"]["name"], "weather", "{line}");
}

#[test]
fn http_snippets_name_the_url() {
    let serving = ["--http", "0.0.0.0:8080", "--allow-host", "mcp.internal"];
    let with = |host: &'static str| {
        let mut arguments = vec!["--print-config", host];
        arguments.extend(serving);
        arguments
    };
    let url = "http://mcp.internal:8080/mcp";
    assert_eq!(
        json_snippet(&with("vscode")),
        json!({"servers": {"weather": {"type": "http", "url": url}}})
    );
    assert_eq!(
        json_snippet(&with("cursor")),
        json!({"mcpServers": {"weather": {"url": url}}})
    );
    assert_eq!(
        snippet(&with("claude-code")),
        format!("claude mcp add --transport http weather {url}\n")
    );
    assert_eq!(
        snippet(&with("inspector")),
        format!("npx @modelcontextprotocol/inspector --transport http --server-url {url}\n")
    );
    // Claude Desktop's connectors connect from Anthropic's cloud, which cannot reach a local
    // URL: its config file starts the mcp-remote bridge (plain HTTP past loopback needs
    // `--allow-http`).
    let desktop = print_config(&with("claude-desktop"));
    let entry: Value = serde_json::from_slice(&desktop.stdout).unwrap();
    assert_eq!(
        entry,
        json!({"mcpServers": {"weather": {"command": "npx",
            "args": ["-y", "mcp-remote", url, "--allow-http"]}}})
    );
    let told = String::from_utf8(desktop.stderr).unwrap();
    assert!(told.contains("mcp-remote"), "{told}");
    assert!(told.contains("claude_desktop_config.json"), "{told}");
    assert_eq!(
        json_snippet(&["--http", "8080", "--print-config", "claude-desktop"]),
        json!({"mcpServers": {"weather": {"command": "npx",
            "args": ["-y", "mcp-remote", "http://127.0.0.1:8080/mcp"]}}})
    );
    assert!(
        told.ends_with(&format!(
            "and keep the server running: {} --http 0.0.0.0:8080 --allow-host mcp.internal\n",
            weather().display()
        )),
        "{told}"
    );
    // An allowed host with its own port (behind a proxy) keeps it.
    assert_eq!(
        json_snippet(&[
            "--print-config",
            "vscode",
            "--http",
            "0.0.0.0:8080",
            "--allow-host",
            "mcp.example.com:443"
        ]),
        json!({"servers": {"weather": {"type": "http", "url": "http://mcp.example.com:443/mcp"}}})
    );
    // The flag may come anywhere; a bare port is served on 127.0.0.1.
    assert_eq!(
        json_snippet(&["--http", "8080", "--print-config", "vscode"]),
        json!({"servers": {"weather": {"type": "http", "url": "http://127.0.0.1:8080/mcp"}}})
    );
}

#[test]
fn an_unknown_host_is_refused_with_the_known_ones() {
    let output = print_config(&["--print-config", "emacs"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let told = String::from_utf8(output.stderr).unwrap();
    assert!(
        told.starts_with(
            "Error: --print-config emacs: write one of claude-desktop, claude-code, vscode, cursor, inspector"
        ),
        "{told}"
    );
    let lint = print_config(&["--print-config", "vscode", "--lint"]);
    assert_eq!(lint.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&lint.stderr)
            .contains("--print-config goes with the flags that serve"),
        "{}",
        String::from_utf8_lossy(&lint.stderr)
    );
}

#[test]
fn the_command_to_keep_running_is_quoted_for_a_shell() {
    let folder = std::env::temp_dir().join(format!("print config {}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let binary = folder.join("weather server");
    std::fs::copy(weather(), &binary).unwrap();
    let output = Command::new(&binary)
        .args(["--print-config", "claude-code", "--http", "8080"])
        .output()
        .expect("the copy runs");
    std::fs::remove_dir_all(&folder).unwrap();
    let told = String::from_utf8(output.stderr).unwrap();
    assert!(
        told.ends_with(&format!(
            "and keep the server running: '{}' --http 8080\n",
            binary.display()
        )),
        "{told}"
    );
}

/// Issue 40, item 12: a server with bearer auth gets snippets that send the header, a
/// placeholder for the token where the host cannot ask for it, and stderr says what to put
/// there.
#[test]
fn http_snippets_send_the_bearer_token_a_server_wants() {
    let guarded = |host: &str| {
        Command::new(env!("CARGO_BIN_EXE_bearer"))
            .args(["--print-config", host, "--http", "8080"])
            .output()
            .expect("the binary runs")
    };
    let out = |output: &Output| {
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout.clone()).unwrap()
    };
    let url = "http://127.0.0.1:8080/mcp";
    let code = guarded("claude-code");
    assert_eq!(
        out(&code),
        format!(
            "claude mcp add --transport http guarded {url} --header 'Authorization: Bearer YOUR_TOKEN'\n"
        )
    );
    let told = String::from_utf8(code.stderr).unwrap();
    assert!(
        told.contains(
            "this server wants `Authorization: Bearer <token>` on every request, a token its verifier accepts: replace YOUR_TOKEN in the snippet with one"
        ),
        "{told}"
    );
    assert_eq!(
        out(&guarded("inspector")),
        format!(
            "npx @modelcontextprotocol/inspector --transport http --server-url {url} --header 'Authorization: Bearer YOUR_TOKEN'\n"
        )
    );
    // VS Code asks for the token itself: an input of its config file.
    let vscode = guarded("vscode");
    assert_eq!(
        serde_json::from_str::<Value>(&out(&vscode)).unwrap(),
        json!({
            "inputs": [{"type": "promptString", "id": "token",
                "description": "The bearer token for guarded", "password": true}],
            "servers": {"guarded": {"type": "http", "url": url,
                "headers": {"Authorization": "Bearer ${input:token}"}}}
        })
    );
    assert!(
        String::from_utf8(vscode.stderr)
            .unwrap()
            .contains("VS Code asks for it when it starts the server")
    );
    assert_eq!(
        serde_json::from_str::<Value>(&out(&guarded("cursor"))).unwrap(),
        json!({"mcpServers": {"guarded": {"url": url,
            "headers": {"Authorization": "Bearer YOUR_TOKEN"}}}})
    );
    // mcp-remote's own way: the header's value from the environment.
    assert_eq!(
        serde_json::from_str::<Value>(&out(&guarded("claude-desktop"))).unwrap(),
        json!({"mcpServers": {"guarded": {"command": "npx",
            "args": ["-y", "mcp-remote", url, "--header", "Authorization:${AUTH_HEADER}"],
            "env": {"AUTH_HEADER": "Bearer YOUR_TOKEN"}}}})
    );
}
