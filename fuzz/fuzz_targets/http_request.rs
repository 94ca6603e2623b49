//! Any HTTP request (method, headers, body; see `http_request` for the text form) into the
//! Streamable HTTP router: admission (`Host`, `Origin`, repeated headers), the media types,
//! `MCP-Protocol-Version`, `Mcp-Session-Id`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` (plain
//! and `=?base64?…?=`), the body in both eras. No 5xx but a cap's 503, and a JSON answer is
//! a JSON-RPC message.
#![no_main]

use std::sync::OnceLock;

use http_body_util::BodyExt as _;
use libfuzzer_sys::fuzz_target;
use mcp_toolbelt_fuzz::{http_request, runtime, server};
use tower::ServiceExt as _;

fuzz_target!(|data: &[u8]| {
    static ROUTER: OnceLock<axum::Router> = OnceLock::new();
    let Some(request) = http_request(data) else {
        return;
    };
    let router = ROUTER.get_or_init(|| {
        let _entered = runtime().enter();
        server().into_router().expect("the tools can be served")
    });
    runtime().block_on(async {
        let response = router.clone().oneshot(request).await.expect("infallible");
        let status = response.status();
        // 503 is a cap (sessions, requests in flight) refusing cleanly; any other 5xx is a fault.
        assert!(
            !status.is_server_error() || status.as_u16() == 503,
            "status {status}"
        );
        let json = response
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .is_some_and(|value| value.as_bytes().starts_with(b"application/json"));
        // A stream (SSE, a GET or `subscriptions/listen`) may never end: its head is enough.
        if json {
            let body = response
                .into_body()
                .collect()
                .await
                .expect("the body reads");
            let body = body.to_bytes();
            if !body.is_empty() {
                let message: serde_json::Value = serde_json::from_slice(&body)
                    .unwrap_or_else(|error| panic!("not JSON ({error}): {body:?}"));
                if !message.is_array() {
                    mcp_toolbelt_fuzz::check_message(&message);
                }
            }
        }
    });
});
