//! Writes `tools.rs` into `OUT_DIR`: `MANY_TOOLS` tools, each a `#[tool]` fn with an argument
//! struct of its own, the shape benches/peers/rmcp's `many-tools` generates for rmcp (keep the
//! two alike: same names, fields, descriptions and bounds). By default 1,000 in a release build
//! (what `benches/tools.sh` measures) and 10 in a debug one: CI's lint, build and test runs
//! check the generated code's shape, which 10 tools show as well as 1,000, in seconds rather
//! than minutes.

use std::fmt::Write as _;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=MANY_TOOLS");
    let count: usize = std::env::var("MANY_TOOLS")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(if std::env::var("PROFILE").as_deref() == Ok("release") {
            1_000
        } else {
            10
        });
    let mut code = String::new();
    for n in 0..count {
        write!(
            code,
            r#"
#[derive(Deserialize, JsonSchema)]
struct Args{n:04} {{
    /// The record to look up in collection {n}
    id: String,
    /// Maximum number of records returned (default 10)
    #[schemars(range(min = 1, max = 100))]
    limit: Option<u32>,
    /// Only records changed since this instant (RFC 3339)
    since: Option<String>,
    /// Include archived records
    #[serde(default)]
    archived: bool,
}}

/// Look up records in collection {n}
#[tool(name = "collection-{n:04}", annotations(read_only))]
async fn collection_{n:04}(args: Args{n:04}) -> String {{
    format!("{{}} {{}} {{:?}} {{}}", args.id, args.limit.unwrap_or(10), args.since, args.archived)
}}
"#
        )
        .expect("writing to a String");
    }
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(format!("{out}/tools.rs"), code).expect("OUT_DIR is writable");
}
