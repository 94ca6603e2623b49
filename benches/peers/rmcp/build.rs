//! Writes `tools.rs` into `OUT_DIR` for the `many-tools` binary: `MANY_TOOLS` (default 1,000)
//! tools for rmcp, the same names, fields, descriptions and bounds as mcp-toolbelt's
//! (benches/many-tools/build.rs), written as rmcp's README teaches.

use std::fmt::Write as _;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=MANY_TOOLS");
    let count: usize = std::env::var("MANY_TOOLS")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(1_000);
    let mut structs = String::new();
    let mut methods = String::new();
    for n in 0..count {
        write!(
            structs,
            r#"
#[derive(Deserialize, schemars::JsonSchema)]
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
"#
        )
        .expect("writing to a String");
        write!(
            methods,
            r#"
    /// Look up records in collection {n}
    #[tool(name = "collection-{n:04}", annotations(read_only_hint = true))]
    async fn collection_{n:04}(&self, Parameters(args): Parameters<Args{n:04}>) -> String {{
        format!("{{}} {{}} {{:?}} {{}}", args.id, args.limit.unwrap_or(10), args.since, args.archived)
    }}
"#
        )
        .expect("writing to a String");
    }
    let code = format!(
        "{structs}\n#[tool_router]\nimpl ManyTools {{\n    fn new() -> Self {{ Self {{ tool_router: Self::tool_router() }} }}\n{methods}\n    /// Echo the message back\n    #[tool]\n    async fn echo(&self, Parameters(args): Parameters<EchoArgs>) -> String {{ args.message }}\n}}\n"
    );
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(format!("{out}/tools.rs"), code).expect("OUT_DIR is writable");
}
