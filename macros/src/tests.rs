//! Unit tests of the macro's internals, which integration tests cannot reach in a proc-macro
//! crate: whole-expansion snapshots and the doc-comment joining.
//!
//! The snapshots are `tests/expand/<case>.rs`, the expansion formatted by prettyplease. After a
//! deliberate change to the generated code, refresh them with
//! `UPDATE_EXPAND=1 cargo test -p mcp-toolbelt-macros` and review the diff.

use std::path::PathBuf;

use proc_macro2::TokenStream;
use quote::quote;
use syn::Attribute;

use crate::{docs, expand};

/// Compares the expansion of `#[tool(args)] item` with `tests/expand/<case>.rs`.
fn snapshot(case: &str, args: TokenStream, item: TokenStream) -> String {
    snapshot_of(case, expand::tool(args, item))
}

/// Compares `output`, an attribute's expansion, with `tests/expand/<case>.rs`.
pub(crate) fn snapshot_of(case: &str, output: TokenStream) -> String {
    let file: syn::File = syn::parse2(output.clone()).unwrap_or_else(|error| {
        panic!("the expansion of {case} does not parse ({error}):\n{output}")
    });
    let pretty = prettyplease::unparse(&file);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/expand")
        .join(format!("{case}.rs"));
    if std::env::var_os("UPDATE_EXPAND").is_some() {
        std::fs::create_dir_all(path.parent().expect("the snapshot directory"))
            .expect("create tests/expand");
        std::fs::write(&path, &pretty).expect("write the snapshot");
        return pretty;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("no snapshot {}: run with UPDATE_EXPAND=1", path.display()));
    assert!(
        expected == pretty,
        "the expansion of {case} changed; if that is intended, run with UPDATE_EXPAND=1 and review the diff\n\
         --- expected ({})\n{expected}\n--- actual\n{pretty}",
        path.display()
    );
    pretty
}

#[test]
fn expand_struct_args() {
    snapshot(
        "struct_args",
        quote!(
            title = "Get Weather",
            annotations(read_only, open_world = false)
        ),
        quote! {
            /// Get current weather for a location
            async fn get_weather(args: WeatherArgs) -> Json<Weather> {
                Json(Weather { temperature_c: 22.0, summary: args.location })
            }
        },
    );
}

#[test]
fn expand_inline_args_with_context() {
    snapshot(
        "inline_args",
        quote!(),
        quote! {
            /// Add two numbers,
            /// reporting progress.
            pub async fn add(
                context: Context,
                /// Left operand
                left: i64,
                /// Right operand, zero
                /// when left out
                right: Option<i64>,
                progress: &mcp_toolbelt::Context,
            ) -> String {
                progress.progress(1.0, None, None);
                (left + right.unwrap_or_default()).to_string()
            }
        },
    );
}

#[test]
fn expand_no_args_with_annotations() {
    snapshot(
        "no_args",
        quote!(
            name = "clear-catalog",
            title = "Clear the catalog",
            annotations(read_only = false, destructive, idempotent)
        ),
        quote! {
            /// Remove every product from the catalog
            fn clear_catalog() -> &'static str {
                "Catalog cleared"
            }
        },
    );
}

#[test]
fn expand_task_required() {
    snapshot(
        "task_required",
        quote!(task = "required"),
        quote! {
            /// Build the quarterly report
            async fn build_report(ctx: Context, quarter: u8) -> String {
                format!("Q{quarter}")
            }
        },
    );
}

#[test]
fn expand_renamed_crate() {
    let expansion = snapshot(
        "renamed_crate",
        quote!(crate = rt, description = "Echo the message back"),
        quote! {
            async fn echo(args: EchoArgs, context: &rt::Context) -> String {
                args.message
            }
        },
    );
    assert!(
        !expansion.contains("mcp_toolbelt"),
        "a path escaped `crate = rt`:\n{expansion}"
    );
}

#[test]
fn expand_result_json() {
    snapshot(
        "result_json",
        quote!(name = "product-details"),
        quote! {
            /// Look up one product by its exact name
            async fn product_details(
                /// The product's exact name
                name: String,
            ) -> Result<Json<Product>, ToolError> {
                lookup(&name).map(Json).ok_or_else(|| ToolError::new("no such product"))
            }
        },
    );
}

/// `output_schema = false`: no output schema fn, and the result loses its structured content.
#[test]
fn expand_output_schema_off() {
    snapshot(
        "output_schema_off",
        quote!(name = "product-details", output_schema = false),
        quote! {
            /// Look up one product by its exact name
            async fn product_details(
                /// The product's exact name
                name: String,
            ) -> Result<Json<Product>, ToolError> {
                lookup(&name).map(Json).ok_or_else(|| ToolError::new("no such product"))
            }
        },
    );
}

/// `portable = false`: the argument type's schema as schemars generates it.
#[test]
fn expand_portable_off() {
    snapshot(
        "portable_off",
        quote!(portable = false),
        quote! {
            /// Book a seat
            async fn book(
                /// The row
                row: u8,
            ) -> String {
                row.to_string()
            }
        },
    );
}

/// `input_schema = path`, `output_schema = path`: the fns' schemas, through `IntoSchema`; the
/// argument struct is the whole arguments (no lone-parameter unwrapping).
#[test]
fn expand_hand_written_schemas() {
    snapshot(
        "hand_written_schemas",
        quote!(input_schema = schemas::sku, output_schema = schemas::item),
        quote! {
            /// Look up an item
            async fn lookup(args: Sku) -> Json<Item> {
                find(args)
            }
        },
    );
}

/// `asks(…)`: one start-up form check per type, spanned at the type.
#[test]
fn expand_asks() {
    snapshot(
        "asks",
        quote!(asks(ConfirmDelete, forms::Missing)),
        quote! {
            /// Delete everything, once the user confirms
            async fn wipe(context: Context) -> String {
                confirm(context).await
            }
        },
    );
}

#[test]
fn expand_errors() {
    let expansion = snapshot(
        "errors",
        quote!(
            name = "bad name",
            titel = "Search",
            annotations(read_only, destructive, opne_world)
        ),
        quote! {
            async fn search<T>(
                /// The query
                query: &str,
                more: More,
            ) -> String {
                query.to_owned()
            }
        },
    );
    assert!(
        !expansion.contains("inventory"),
        "no registration on error:\n{expansion}"
    );
}

/// `#[doc = "…"]` attributes, one per line, as `///` comments produce them.
fn doc(lines: &[&str]) -> Vec<Attribute> {
    lines
        .iter()
        .map(|line| syn::parse_quote!(#[doc = #line]))
        .collect()
}

#[test]
fn docs_join_soft_wrapped_lines() {
    let attrs = doc(&[" Get the current weather", " for a location."]);
    assert_eq!(
        docs::text(&attrs).as_deref(),
        Some("Get the current weather for a location.")
    );
}

#[test]
fn docs_keep_paragraphs() {
    let attrs = doc(&[
        " First paragraph,",
        " still first.",
        "",
        "",
        " Second paragraph.",
        "",
    ]);
    assert_eq!(
        docs::text(&attrs).as_deref(),
        Some("First paragraph, still first.\n\nSecond paragraph.")
    );
}

#[test]
fn docs_keep_list_items_on_their_own_lines() {
    let attrs = doc(&[
        " Modes:",
        " - fast, which",
        "   skips checks",
        " * safe",
        " + plain",
        " 1. first",
        " 2) second",
        " Trailing text.",
    ]);
    assert_eq!(
        docs::text(&attrs).as_deref(),
        Some(
            "Modes:\n- fast, which skips checks\n* safe\n+ plain\n1. first\n2) second Trailing text."
        )
    );
}

#[test]
fn docs_keep_code_blocks_verbatim() {
    let attrs = doc(&[
        " Example:",
        " ```json",
        " {",
        "   \"a\": 1,",
        "",
        "   \"b\": 2",
        " }",
        " ```",
        " After the block.",
    ]);
    assert_eq!(
        docs::text(&attrs).as_deref(),
        Some("Example:\n```json\n{\n  \"a\": 1,\n\n  \"b\": 2\n}\n```\nAfter the block.")
    );
}

#[test]
fn docs_keep_headings_on_their_own_lines() {
    let attrs = doc(&[" Summary.", " # Errors", " When it fails."]);
    assert_eq!(
        docs::text(&attrs).as_deref(),
        Some("Summary.\n# Errors\nWhen it fails.")
    );
}

#[test]
fn docs_read_block_comments_and_ignore_other_attributes() {
    let mut attrs = doc(&["\n Block comment\n continues here\n\n and ends.\n"]);
    attrs.push(syn::parse_quote!(#[allow(dead_code)]));
    assert_eq!(
        docs::text(&attrs).as_deref(),
        Some("Block comment continues here\n\nand ends.")
    );
    // Text right after `/**`: that first line has no star, the others still lose theirs.
    let attrs = doc(&[" Does X.\n * More about X.\n "]);
    assert_eq!(docs::text(&attrs).as_deref(), Some("Does X. More about X."));
}

#[test]
fn docs_without_text_are_none() {
    assert_eq!(docs::text(&doc(&["", "   "])), None);
    assert_eq!(docs::text(&[]), None);
}

#[test]
fn docs_drop_the_stars_of_block_comments() {
    // `/** … */` with a `*` starting each line, as rustdoc shows it.
    let attrs = doc(&["\n * Block comment\n * continues here\n *\n * and ends.\n "]);
    assert_eq!(
        docs::text(&attrs).as_deref(),
        Some("Block comment continues here\n\nand ends.")
    );
    // Text right after `/**`: that first line has no star, the others still lose theirs.
    let attrs = doc(&[" Does X.\n * More about X.\n "]);
    assert_eq!(docs::text(&attrs).as_deref(), Some("Does X. More about X."));
}

#[test]
fn docs_keep_indented_code_blocks_verbatim() {
    let attrs = doc(&[
        " Example:",
        "",
        "     let a = 1;",
        "     let b = 2;",
        "",
        "     a + b",
        "",
        " After the block.",
    ]);
    assert_eq!(
        docs::text(&attrs).as_deref(),
        Some("Example:\n\n    let a = 1;\n    let b = 2;\n\n    a + b\n\nAfter the block.")
    );
}

#[test]
fn docs_do_not_make_a_wrapped_indented_line_code() {
    // Four spaces inside a paragraph are a continuation, not a code block (CommonMark).
    let attrs = doc(&[" Summary that", "     continues."]);
    assert_eq!(
        docs::text(&attrs).as_deref(),
        Some("Summary that continues.")
    );
}

#[test]
fn expand_doc_macros() {
    snapshot(
        "doc_macros",
        quote!(),
        quote! {
            /// Short summary.
            #[doc = include_str!("desc.md")]
            /// Closing line,
            /// wrapped.
            #[doc = concat!("Version ", env!("CARGO_PKG_VERSION"))]
            async fn documented() {}
        },
    );
}

#[test]
fn expand_only_macro_docs_need_no_description() {
    let output = expand::tool(
        quote!(),
        quote! {
            #[doc = include_str!("desc.md")]
            async fn documented() {}
        },
    )
    .to_string();
    assert!(!output.contains("compile_error"), "{output}");
    assert!(output.contains("include_str"), "{output}");
}

#[test]
fn expand_param_attrs() {
    snapshot(
        "param_attrs",
        quote!(),
        quote! {
            /// Greet
            async fn greet(
                /// Who to greet,
                /// by name
                #[serde(rename = "who")]
                name: String,
                /// How many times
                #[serde(default)]
                #[schemars(range(min = 1, max = 5))]
                times: u8,
                #[cfg(feature = "loud")]
                /// Shout
                loud: bool,
                #[cfg(feature = "loud")] context: &Context,
                #[context] also: Ctx,
            ) -> String {
                name.repeat(times.into())
            }
        },
    );
}

#[test]
fn expand_header_params() {
    snapshot(
        "header_params",
        quote!(),
        quote! {
            /// Query
            async fn query(
                /// Where
                #[header("Region")]
                region: String,
                /// How many
                #[serde(default)]
                #[header("Limit")]
                limit: u32,
                #[context] context: &Ctx,
            ) -> String {
                format!("{region} {limit}")
            }
        },
    );
}

#[test]
fn expand_scopes() {
    snapshot(
        "scopes",
        quote!(scopes("notes:write", "notes:admin")),
        quote! {
            /// Delete every note
            async fn purge() -> String {
                String::new()
            }
        },
    );
}

#[test]
fn a_scope_is_one_oauth_scope_token() {
    let cases = [
        (quote!(scopes("")), "a scope is not empty"),
        (quote!(scopes("notes read")), "a scope has no space"),
        (quote!(scopes()), "write the scopes a caller's token needs"),
        (
            quote!(scopes = "notes:read"),
            "write the scopes a caller's token needs",
        ),
        (
            quote!(scopes("a", "a")),
            r#"the scope \"a\" is listed twice"#,
        ),
    ];
    for (args, message) in cases {
        let output = expand::tool(
            args,
            quote! {
                /// Purge
                async fn purge() -> String { String::new() }
            },
        )
        .to_string();
        assert!(output.contains(message), "{message}: {output}");
    }
}

#[test]
fn expand_rate_limit() {
    snapshot(
        "rate_limit",
        quote!(rate_limit = "10/min"),
        quote! {
            /// Search the web
            async fn search() -> String {
                String::new()
            }
        },
    );
}

#[test]
fn a_rate_limit_is_n_per_unit() {
    let cases = [
        (quote!(rate_limit = "10/sec"), "`sec` is not a unit"),
        (
            quote!(rate_limit = "0/s"),
            "`0` is not a whole number from 1",
        ),
        (quote!(rate_limit = "10"), "has no `/`"),
        (
            quote!(rate_limit = 10),
            "`rate_limit = \\\"…\\\"`: write N/UNIT",
        ),
        (quote!(rate_limit), "`rate_limit = \\\"…\\\"`: write N/UNIT"),
        (quote!(rate_lmit = "1/s"), "rate_limit"),
    ];
    for (args, message) in cases {
        let output = expand::tool(
            args,
            quote! {
                /// Search
                async fn search() -> String { String::new() }
            },
        )
        .to_string();
        assert!(output.contains(message), "{message}: {output}");
    }
}

#[test]
fn expand_icons() {
    snapshot(
        "icons",
        quote!(
            icons(
                src = "https://example.com/paint.png",
                mime_type = "image/png",
                sizes = ["48x48", "96x96"],
                theme = "light"
            ),
            icons(
                data = include_bytes!("paint-dark.svg"),
                mime_type = "image/svg+xml",
                theme = "dark"
            ),
            icons(src = PAINT_ICON_URL)
        ),
        quote! {
            /// Paint
            async fn paint() -> String {
                String::new()
            }
        },
    );
}

#[test]
fn expand_tags() {
    snapshot(
        "tags",
        quote!(tags("admin", "beta")),
        quote! {
            /// Purge the cache
            async fn purge() -> String {
                String::new()
            }
        },
    );
}

#[test]
fn expand_plain_fn_runs_blocking() {
    snapshot(
        "plain_fn",
        quote!(),
        quote! {
            /// Shout
            fn shout(
                /// The message
                message: String,
                context: mcp_toolbelt::Context,
            ) -> String {
                message.to_uppercase()
            }
        },
    );
}

#[test]
fn expand_context_resolved_as_written() {
    let output = expand::tool(
        quote!(),
        quote! {
            /// Search
            async fn search(args: crate::Context, #[context] ctx: &Ctx, other: other::Context) {}
        },
    )
    .to_string();
    // `crate::Context` is the argument struct; `other::Context` next to it is a second one.
    assert!(output.contains("compile_error"), "{output}");
    assert!(output.contains("an argument struct must be the tool's only parameter"));
    let output = expand::tool(
        quote!(),
        quote! {
            /// Search
            async fn search(args: crate::Context, #[context] ctx: &Ctx) {}
        },
    )
    .to_string();
    assert!(
        output.contains("__tool_argument_type :: < crate :: Context >"),
        "{output}"
    );
    assert!(
        output.contains("context_ref :: < Ctx > (& __tool_context)"),
        "{output}"
    );
    assert!(!output.contains("# [context]"), "{output}");
}
