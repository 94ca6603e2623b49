//! The rustdoc is the reference (issue 27): the key tables of `#[tool]` and `#[resource]` list
//! every key the macros parse (`macros/src/attr.rs`, `macros/src/resource/attr.rs`), and the limits
//! table on `HttpConfig` lists every limit it sets. A key or a limit added without its row fails
//! here, not in a user's hands.

use mcp_toolbelt_tests::repo_root;

fn read(path: &str) -> String {
    std::fs::read_to_string(repo_root().join(path))
        .unwrap_or_else(|error| panic!("cannot read {path}: {error}"))
}

/// The field names of `struct NAME { … }` in `source`, as the attribute spells them (`krate` is
/// `crate`).
fn fields(source: &str, name: &str) -> Vec<String> {
    let start = source
        .find(&format!("struct {name} {{"))
        .unwrap_or_else(|| panic!("no struct {name}"));
    let body = &source[start..];
    let body = &body[body.find('{').unwrap() + 1..body.find("\n}").unwrap()];
    body.lines()
        .map(str::trim)
        .filter(|line| !line.starts_with("//") && !line.starts_with('#'))
        .filter_map(|line| line.split_once(':'))
        .map(|(field, _)| {
            let field = field.trim_start_matches("pub(crate) ");
            field.trim_start_matches("pub(super) ").trim().to_owned()
        })
        .map(|field| {
            if field == "krate" {
                "crate".into()
            } else {
                field
            }
        })
        .collect()
}

/// The `///` lines right above `pub use mcp_toolbelt_macros::NAME;` in `runtime/src/lib.rs`.
fn macro_docs(name: &str) -> String {
    let lib = read("runtime/src/lib.rs");
    let end = lib
        .find(&format!("pub use mcp_toolbelt_macros::{name};"))
        .unwrap_or_else(|| panic!("no re-export of the {name} macro"));
    lib[..end]
        .lines()
        .rev()
        .take_while(|line| line.starts_with("///"))
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first cells of the table rows in `docs` that hold code (`| `name = "…"`, `title` |`).
fn table_keys(docs: &str) -> Vec<&str> {
    docs.lines()
        .map(|line| line.trim_start_matches("///").trim())
        .filter(|line| line.starts_with("| `"))
        .filter_map(|line| line.split(" | ").next())
        .collect()
}

/// Whether a first cell names `key`: a code span that starts with it.
fn names(cell: &str, key: &str) -> bool {
    cell.contains(&format!("`{key}"))
}

#[test]
fn the_tool_macro_docs_list_every_key_it_parses() {
    let keys = fields(&read("macros/src/attr.rs"), "ToolArgs");
    assert!(keys.len() >= 11, "ToolArgs read: {keys:?}");
    let docs = macro_docs("tool");
    let rows = table_keys(&docs);
    for key in &keys {
        assert!(
            rows.iter().any(|cell| names(cell, key)),
            "the #[tool] key `{key}` has no row in the key table on `tool` (runtime/src/lib.rs)"
        );
    }
    for attribute in ["#[header(", "#[context]"] {
        assert!(
            rows.iter().any(|cell| names(cell, attribute)),
            "the parameter attribute {attribute} has no row on `tool`"
        );
    }
}

#[test]
fn the_resource_macro_docs_list_every_key_it_parses() {
    let source = read("macros/src/resource/attr.rs");
    let docs = macro_docs("resource");
    let rows = table_keys(&docs);
    for key in fields(&source, "ResourceArgs") {
        assert!(
            rows.iter().any(|cell| names(cell, &key)),
            "the #[resource] key `{key}` has no row in the key table on `resource`"
        );
    }
    let app = rows
        .iter()
        .find(|cell| names(cell, "app"))
        .expect("an `app` row");
    for key in fields(&source, "AppArgs")
        .into_iter()
        .chain(fields(&source, "Csp"))
    {
        assert!(app.contains(&key), "app's `{key}` is not in the `app` row");
    }
}

#[test]
fn the_http_limits_table_lists_every_limit_httpconfig_sets() {
    let config = read("runtime/src/transport/http/config.rs");
    let docs_end = config.find("pub struct HttpConfig").unwrap();
    let table = &config[..docs_end];
    let table = &table[table
        .find("# Limits")
        .expect("HttpConfig has a Limits section")..];
    let setters = config
        .lines()
        .filter_map(|line| line.trim().strip_prefix("pub fn "))
        .filter_map(|rest| rest.split(['(', '<']).next())
        .filter(|name| {
            name.starts_with("max_")
                || name.ends_with("_timeout")
                || name.ends_with("_rate")
                || name.ends_with("_grace")
        })
        .collect::<Vec<_>>();
    assert!(setters.len() >= 6, "setters read: {setters:?}");
    for setter in setters {
        assert!(
            table.contains(&format!("`{setter}`")),
            "HttpConfig::{setter} is not in HttpConfig's limits table"
        );
    }
}

#[test]
fn the_prompt_macro_docs_list_every_key_it_parses() {
    let keys = fields(&read("macros/src/prompt/attr.rs"), "PromptArgs");
    assert!(keys.len() >= 5, "PromptArgs read: {keys:?}");
    let docs = macro_docs("prompt");
    let rows = table_keys(&docs);
    for key in &keys {
        assert!(
            rows.iter().any(|cell| names(cell, key)),
            "the #[prompt] key `{key}` has no row in the key table on `prompt` (runtime/src/lib.rs)"
        );
    }
    for attribute in ["#[complete(", "#[serde(default)]", "#[serde(rename"] {
        assert!(
            docs.contains(attribute),
            "the parameter attribute {attribute} is not described on `prompt`"
        );
    }
}
