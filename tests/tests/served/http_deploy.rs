//! `run()`'s `--http` as it is deployed: the real catalog binary serves the names it is told
//! to (`--allow-host`, or `MCP_ALLOWED_HOSTS` in a container), goes stateless on request, and when
//! bound to every address with only the localhost defaults says at start-up which flag to add.

use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::time::Duration;

use mcp_toolbelt_tests::CatalogHttp;

/// The status line of a 2026-07-28 `tools/list` sent to `address` for `Host: host`.
fn status_for_host(address: SocketAddr, host: &str) -> String {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: tools/list\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer.lines().next().unwrap_or("").to_owned()
}

#[test]
fn allow_host_names_the_host_clients_use() {
    let plain = CatalogHttp::start();
    let host = format!("myserver.internal:{}", plain.address.port());
    assert_eq!(
        status_for_host(plain.address, &host),
        "HTTP/1.1 403 Forbidden"
    );
    drop(plain);
    let flagged = CatalogHttp::start_with(
        |address| address.to_string(),
        &["--allow-host", "myserver.internal", "--stateless"],
        &[],
    );
    let host = format!("myserver.internal:{}", flagged.address.port());
    assert_eq!(status_for_host(flagged.address, &host), "HTTP/1.1 200 OK");
    drop(flagged);
    let from_environment = CatalogHttp::start_with(
        |address| address.to_string(),
        &[],
        &[("MCP_ALLOWED_HOSTS", "other.internal,myserver.internal")],
    );
    let host = format!("myserver.internal:{}", from_environment.address.port());
    assert_eq!(
        status_for_host(from_environment.address, &host),
        "HTTP/1.1 200 OK"
    );
}

#[test]
fn bound_to_every_address_with_localhost_only_it_says_which_flag_to_add() {
    let everywhere =
        CatalogHttp::start_with(|address| format!("0.0.0.0:{}", address.port()), &[], &[]);
    let stderr = everywhere.stop();
    assert!(stderr.contains("--allow-host NAME"), "{stderr}");
    let named = CatalogHttp::start_with(
        |address| format!("0.0.0.0:{}", address.port()),
        &["--allow-host", "myserver.internal"],
        &[],
    );
    let stderr = named.stop();
    assert!(!stderr.contains("--allow-host NAME"), "{stderr}");
}

#[test]
fn run_keeps_the_any_host_its_http_config_allows() {
    let any_host = Path::new(env!("CARGO_BIN_EXE_any_host"));
    let plain = CatalogHttp::start_binary(any_host, |address| address.to_string(), &[], &[]);
    assert_eq!(
        status_for_host(plain.address, "example.com"),
        "HTTP/1.1 200 OK"
    );
    drop(plain);
    // Naming a host too does not narrow "any host" down to it.
    let named = CatalogHttp::start_binary(
        any_host,
        |address| address.to_string(),
        &["--allow-host", "myserver.internal"],
        &[],
    );
    assert_eq!(
        status_for_host(named.address, "example.com"),
        "HTTP/1.1 200 OK"
    );
}

/// An argument that is not UTF-8 is a start-up error naming it, not a panic.
#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_named() {
    use std::os::unix::ffi::OsStrExt as _;
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_any_host"))
        .arg(std::ffi::OsStr::from_bytes(b"--http\xff"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("Error: argument \"--http\u{FFFD}\" is not UTF-8\n\n"),
        "{stderr}"
    );
}
