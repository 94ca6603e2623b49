//! The load driver works: a few hundred calls against the catalog example over stdio (both
//! eras) and HTTP, and against the floors, every answer checked, and the table built from their
//! lines; the floors answer each era as it wants. No timing is asserted: numbers are for
//! `benches/run.sh`.

use std::process::Command;

use mcp_toolbelt_benches::floor::{answer, typed};
use mcp_toolbelt_benches::messages::{PAYLOAD, modern_meta};
use mcp_toolbelt_tests::example_binary;
use serde_json::{Value, json};

/// Runs `mcp-bench run` with `options` against `server`; its JSON line.
fn bench(options: &[&str], server: &[&str]) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-bench"))
        .arg("run")
        .args(options)
        .args([
            "--calls",
            "300",
            "--concurrency",
            "8",
            "--warmup",
            "20",
            "--",
        ])
        .args(server)
        .output()
        .expect("mcp-bench runs");
    assert!(
        output.status.success(),
        "mcp-bench {options:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("one JSON line")
}

#[test]
fn the_driver_measures_the_catalog_over_stdio_and_http_and_tabulates() {
    let catalog = example_binary("catalog");
    let catalog = catalog.to_str().expect("a UTF-8 path");
    let runs = [
        bench(
            &["--server", "mcp-toolbelt", "--transport", "stdio"],
            &[catalog],
        ),
        bench(
            &[
                "--server",
                "mcp-toolbelt",
                "--transport",
                "stdio",
                "--era",
                "modern",
            ],
            &[catalog],
        ),
        bench(
            &[
                "--server",
                "mcp-toolbelt",
                "--transport",
                "http",
                "--url",
                "http://127.0.0.1:{port}/mcp",
            ],
            &[catalog, "--http", "127.0.0.1:{port}"],
        ),
        bench(
            &["--server", "floor", "--transport", "stdio"],
            &[env!("CARGO_BIN_EXE_floor-stdio")],
        ),
        bench(
            &[
                "--server",
                "floor",
                "--transport",
                "stdio",
                "--era",
                "modern",
            ],
            &[env!("CARGO_BIN_EXE_floor-stdio")],
        ),
        bench(
            &[
                "--server",
                "typed floor",
                "--transport",
                "stdio",
                "--era",
                "modern",
            ],
            &[env!("CARGO_BIN_EXE_floor-stdio"), "--typed"],
        ),
        bench(
            &[
                "--server",
                "floor",
                "--transport",
                "http",
                "--era",
                "modern",
                "--url",
                "http://127.0.0.1:{port}/mcp",
            ],
            &[env!("CARGO_BIN_EXE_floor-http"), "127.0.0.1:{port}"],
        ),
    ];
    for run in &runs {
        assert_eq!(run["calls"], 300, "{run}");
        assert!(
            run["calls_per_s"].as_f64().is_some_and(|rate| rate > 0.0),
            "{run}"
        );
        assert!(
            run["rss_mib"].as_f64().is_some_and(|rss| rss > 0.0),
            "{run}"
        );
    }
    let lines: Vec<String> = runs.iter().map(Value::to_string).collect();
    let table = mcp_toolbelt_benches::report::table(&lines.join("\n"));
    assert_eq!(table.lines().count(), 2 + runs.len(), "{table}");
    assert!(
        table.contains("| call | mcp-toolbelt | stdio | 2025-11-25 | 1 |"),
        "{table}"
    );
}

/// A `tools/call echo` request, with `meta` as its `_meta`.
fn call(meta: Option<Value>) -> Value {
    let mut params = json!({"name": "echo", "arguments": {"message": PAYLOAD}});
    if let Some(meta) = meta {
        params["_meta"] = meta;
    }
    json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params})
}

#[test]
fn the_floors_answer_a_call_in_the_era_it_speaks() {
    assert_eq!(
        answer(&call(None)),
        Some(json!({"jsonrpc": "2.0", "id": 7, "result": {
            "content": [{"type": "text", "text": PAYLOAD}],
            "isError": false,
        }}))
    );
    assert_eq!(
        answer(&call(Some(modern_meta()))),
        Some(json!({"jsonrpc": "2.0", "id": 7, "result": {
            "content": [{"type": "text", "text": PAYLOAD}],
            "isError": false,
            "resultType": "complete",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "floor", "version": "0"}},
        }}))
    );
}

/// Two wrong 2026-07-28 envelopes, each with the code that refuses it: a version the floors do
/// not speak, and no client capabilities.
fn wrong_envelopes() -> [(Value, i64); 2] {
    let mut unknown_version = modern_meta();
    unknown_version["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    let mut no_capabilities = modern_meta();
    no_capabilities
        .as_object_mut()
        .unwrap()
        .remove("io.modelcontextprotocol/clientCapabilities");
    [(unknown_version, -32022), (no_capabilities, -32602)]
}

#[test]
fn the_floors_refuse_a_wrong_envelope_and_leave_a_notification_unanswered() {
    for (meta, code) in wrong_envelopes() {
        let refused = answer(&call(Some(meta))).unwrap();
        assert_eq!(refused["error"]["code"], code, "{refused}");
    }
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(answer(&initialized), None);
}

#[test]
fn the_typed_floor_answers_what_the_value_floor_answers() {
    let [(unknown_version, _), (no_capabilities, _)] = wrong_envelopes();
    let initialize = json!({"jsonrpc": "2.0", "id": "i", "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}}});
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": modern_meta()}});
    let unknown = json!({"jsonrpc": "2.0", "id": 3, "method": "nope"});
    let escaped = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": {"name": "echo", "arguments": {"message": "a \"quoted\" line\n"}}});
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    for request in [
        call(None),
        call(Some(modern_meta())),
        call(Some(unknown_version)),
        call(Some(no_capabilities)),
        initialize,
        list,
        unknown,
        escaped,
        initialized,
    ] {
        let mut written = Vec::new();
        let typed = typed::answer(request.to_string().as_bytes(), &mut written).then(|| {
            serde_json::from_slice::<Value>(&written).expect("the typed floor writes JSON")
        });
        assert_eq!(typed, answer(&request), "{request}");
    }
}
