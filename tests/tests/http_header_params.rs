//! Header-routed arguments (2026-07-28, SEP-2243), as a client sees them: a property marked
//! `x-mcp-header` (`#[header("Region")]` on an inline parameter, `#[schemars(extend(…))]` on a
//! struct field) is advertised with its mark, and a 2026-07-28 HTTP `tools/call` must send it
//! again as `Mcp-Param-{Name}`, equal to the argument (`400` and `-32020` otherwise). Legacy HTTP
//! and stdio calls carry no such headers and need none.
//!
//! Unlike the other `http_*` files, this one serves tools of its own (not `http_tools`). Marks the
//! spec forbids are refused at start-up: `header_marks_refused.rs`.

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use axum::http::StatusCode;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{http::HttpConfig, tool};
use mcp_toolbelt_tests::http::{
    assert_bad_request, in_session, legacy_call, modern_call, modern_headers, open_session, post,
    result_text, router, send, server, tools_list,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// Runs a query in a region
#[tool]
async fn query(
    /// Where to run it
    #[header("Region")]
    region: String,
    /// How many rows at most
    #[header("Limit")]
    limit: Option<i64>,
    /// Whether to only plan it
    #[header("Dry-Run")]
    dry_run: Option<bool>,
    /// The query itself, in the body only
    sql: String,
) -> String {
    format!("{sql} in {region}, limit {limit:?}, dry run {dry_run:?}")
}

#[derive(Deserialize, JsonSchema)]
struct DeployArgs {
    /// The tenant whose service it is, routed on by the gateway
    #[schemars(extend("x-mcp-header" = "Tenant"))]
    tenant: String,
    /// Where it goes
    target: Target,
}

#[derive(Deserialize, JsonSchema)]
struct Target {
    /// The cluster, routed on too
    #[schemars(extend("x-mcp-header" = "Cluster"))]
    cluster: String,
    replicas: u32,
}

/// Deploys a tenant's service
#[tool]
async fn deploy(args: DeployArgs) -> String {
    format!(
        "{} on {} x{}",
        args.tenant, args.target.cluster, args.target.replicas
    )
}

/// The headers of a 2026-07-28 `tools/call` of `name`, plus `params`.
fn call_headers<'a>(name: &'a str, params: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut headers = modern_headers("tools/call", Some(name));
    headers.extend_from_slice(params);
    headers
}

async fn modern_query(
    arguments: &Value,
    params: &[(&str, &str)],
) -> mcp_toolbelt_tests::http::Reply {
    send(
        &router(HttpConfig::new()),
        post(
            &modern_call(9, "query", arguments, &json!({})),
            &call_headers("query", params),
        ),
    )
    .await
}

#[tokio::test]
async fn marked_properties_are_advertised_with_their_header_names() {
    let reply = send(
        &router(HttpConfig::new()),
        post(&tools_list(), &modern_headers("tools/list", None)),
    )
    .await;
    let tools = reply.json()["result"]["tools"].clone();
    let schema = |name: &str| {
        tools
            .as_array()
            .unwrap()
            .iter()
            .find(|tool| tool["name"] == name)
            .map(|tool| tool["inputSchema"].clone())
            .unwrap()
    };
    let query = schema("query");
    assert_eq!(
        query["properties"]["region"],
        json!({"type": "string", "description": "Where to run it", "x-mcp-header": "Region"})
    );
    assert_eq!(query["properties"]["limit"]["x-mcp-header"], "Limit");
    assert_eq!(query["properties"]["dry_run"]["x-mcp-header"], "Dry-Run");
    assert_eq!(query["properties"]["sql"].get("x-mcp-header"), None);
    let deploy = schema("deploy");
    assert_eq!(deploy["properties"]["tenant"]["x-mcp-header"], "Tenant");
    assert_eq!(
        deploy["properties"]["target"]["properties"]["cluster"]["x-mcp-header"],
        "Cluster"
    );
}

#[tokio::test]
async fn a_call_whose_param_headers_match_its_arguments_runs() {
    let arguments = json!({"region": "us-west1", "limit": 10, "dry_run": false, "sql": "select 1"});
    let reply = modern_query(
        &arguments,
        &[
            ("mcp-param-region", "us-west1"),
            ("Mcp-Param-Limit", "10"),
            ("MCP-PARAM-DRY-RUN", "false"),
        ],
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(
        result_text(&reply.json()),
        "select 1 in us-west1, limit Some(10), dry run Some(false)"
    );
}

#[tokio::test]
async fn a_missing_or_different_param_header_is_a_header_mismatch() {
    let arguments = json!({"region": "us-west1", "limit": 10, "sql": "select 1"});
    let cases: [(&[(&str, &str)], &str); 4] = [
        (
            &[("mcp-param-limit", "10")],
            "Header mismatch: the Mcp-Param-Region header is required: the body has argument `region`",
        ),
        (
            &[("mcp-param-region", "eu-west1"), ("mcp-param-limit", "10")],
            "Header mismatch: Mcp-Param-Region header value 'eu-west1' does not match body value 'us-west1'",
        ),
        (
            &[("mcp-param-region", "us-west1"), ("mcp-param-limit", "11")],
            "Header mismatch: Mcp-Param-Limit header value '11' does not match body value '10'",
        ),
        (
            &[
                ("mcp-param-region", "us-west1"),
                ("mcp-param-limit", "10"),
                ("mcp-param-dry-run", "true"),
            ],
            "Header mismatch: Mcp-Param-Dry-Run header value 'true' does not match the body, which has no argument `dry_run`",
        ),
    ];
    for (params, message) in cases {
        let reply = modern_query(&arguments, params).await;
        let error = assert_bad_request(&reply, 9, -32020);
        assert_eq!(error["message"], message, "{params:?}");
    }
}

#[tokio::test]
async fn param_headers_are_decoded_and_integers_compared_as_numbers() {
    let region = "Zürich ";
    let encoded = format!("=?base64?{}?=", STANDARD.encode(region));
    let arguments = json!({"region": region, "limit": 10, "sql": "select 1"});
    let reply = modern_query(
        &arguments,
        &[("mcp-param-region", &encoded), ("mcp-param-limit", "10.0")],
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let reply = modern_query(
        &arguments,
        &[
            ("mcp-param-region", "=?base64?WsO8cmljaA?="),
            ("mcp-param-limit", "10"),
        ],
    )
    .await;
    let error = assert_bad_request(&reply, 9, -32020);
    assert_eq!(
        error["message"],
        "Header mismatch: Mcp-Param-Region header value '=?base64?WsO8cmljaA?=' is not valid base64"
    );
}

/// A nested property is found by its path; an absent or `null` value needs no header.
#[tokio::test]
async fn struct_fields_nested_or_not_are_checked_and_absent_values_need_no_header() {
    let router = router(HttpConfig::new());
    let arguments = json!({"tenant": "acme", "target": {"cluster": "blue", "replicas": 2}});
    let call = |params: Vec<(&'static str, &'static str)>| {
        post(
            &modern_call(3, "deploy", &arguments, &json!({})),
            &call_headers("deploy", &params),
        )
    };
    let reply = send(
        &router,
        call(vec![
            ("mcp-param-tenant", "acme"),
            ("mcp-param-cluster", "blue"),
        ]),
    )
    .await;
    assert_eq!(result_text(&reply.json()), "acme on blue x2");
    let reply = send(&router, call(vec![("mcp-param-tenant", "acme")])).await;
    let error = assert_bad_request(&reply, 3, -32020);
    assert_eq!(
        error["message"],
        "Header mismatch: the Mcp-Param-Cluster header is required: the body has argument `target.cluster`"
    );
    let reply = modern_query(
        &json!({"region": "r", "limit": null, "sql": "s"}),
        &[("mcp-param-region", "r")],
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
}

/// Legacy clients never send `Mcp-Param-*` headers (the spec defines them for 2026-07-28), nor do
/// clients over stdio.
#[tokio::test]
async fn legacy_and_in_process_calls_need_no_param_headers() {
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;
    let arguments = json!({"region": "us-west1", "sql": "select 1"});
    let reply = send(
        &router,
        post(
            &legacy_call(2, "query", &arguments, None),
            &in_session(&session),
        ),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(
        result_text(&reply.json()),
        "select 1 in us-west1, limit None, dry run None"
    );
    let client = TestClient::new(server());
    let result = client.call_tool("query", arguments).await;
    assert_eq!(
        result.text_content(),
        "select 1 in us-west1, limit None, dry run None"
    );
}
