//! The small parsers of outside text, picked by the first byte: `Host`, an `Origin`'s host, an
//! `Mcp-Name`/`Mcp-Param-*` value (`=?base64?…?=`), a `tools/list` cursor, an `Mcp-Session-Id`.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mcp_toolbelt::__fuzz;
use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt_fuzz::{runtime, server};
use serde_json::json;
use tower::ServiceExt as _;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    match pick % 5 {
        0 => {
            if let Some((name, _)) = __fuzz::host(text) {
                assert!(!name.is_empty());
                assert_eq!(
                    name,
                    name.to_ascii_lowercase(),
                    "a host name is lower-cased"
                );
                assert_eq!(__fuzz::host(&name).map(|host| host.0), Some(name.clone()));
            }
        }
        1 => {
            if let Some((name, _)) = __fuzz::origin_host(text) {
                assert_eq!(__fuzz::host(&name).map(|host| host.0), Some(name.clone()));
            }
        }
        2 => match __fuzz::header_value(text) {
            Ok(value) if !text.starts_with("=?base64?") => assert_eq!(value, text),
            Ok(_) => {}
            Err(raw) => assert_eq!(raw, text),
        },
        3 => {
            static CLIENT: OnceLock<TestClient> = OnceLock::new();
            let client = CLIENT.get_or_init(|| TestClient::new(server()));
            let response =
                runtime().block_on(client.request("tools/list", json!({"cursor": text})));
            if let Some(error) = response.get("error") {
                assert_eq!(error["code"], -32602, "{response}");
                assert_eq!(error["message"], "Invalid cursor", "{response}");
            } else {
                assert!(response["result"]["tools"].is_array(), "{response}");
            }
        }
        _ => {
            static ROUTER: OnceLock<axum::Router> = OnceLock::new();
            let Ok(value) = axum::http::HeaderValue::from_bytes(rest) else {
                return;
            };
            let router = ROUTER.get_or_init(|| {
                let _entered = runtime().enter();
                server().into_router().expect("the tools can be served")
            });
            let request = axum::http::Request::post("/")
                .header("host", "localhost")
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .header("mcp-protocol-version", "2025-11-25")
                .header("mcp-session-id", value)
                .body(axum::body::Body::from(
                    r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
                ))
                .expect("a request");
            let response = runtime()
                .block_on(router.clone().oneshot(request))
                .expect("infallible");
            // No session was ever opened: every id is unknown (404) or unreadable (400).
            assert!(
                matches!(response.status().as_u16(), 400 | 404),
                "status {}",
                response.status()
            );
        }
    }
});
