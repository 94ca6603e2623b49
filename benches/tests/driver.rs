//! The load driver works: a few hundred calls against the catalog example over stdio (both
//! eras) and HTTP, every answer checked, and the table built from their lines. No timing is
//! asserted: numbers are for `benches/run.sh`.

use std::process::Command;

use mcp_toolbelt_tests::example_binary;
use serde_json::Value;

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
