//! `#[resource]`: a `static`/`const` of text or bytes (`include_str!`, `include_bytes!`), or an
//! fn that reads the resource, whose parameters are the variables of its URI template (RFC 6570
//! level 1), and the `Context` and `State<T>` it may take as a tool does (the same rules,
//! `valid::each_param`). Generates, next to the item, an `inventory::submit!` of a
//! `ResourceRegistration`. Split as `#[tool]` is: `attr.rs` (the keys), `ast.rs` (the checked
//! model), `valid.rs` (the rules), `expand.rs` (the code generated).
//!
//! ```text
//! #[resource(uri = "ui://albums/view.html", app(prefers_border))]
//! static ALBUMS_VIEW: &str = include_str!("albums.html");
//! const _: () = {
//!     use ::mcp_toolbelt::__private as __resource_private;
//!     fn __resource_static() -> ResourceBody { static_resource(ALBUMS_VIEW) }
//!     __resource_private::inventory::submit! { ResourceRegistration { uri: "ui://…", … } }
//! };
//! ```

use darling::ast::NestedMeta;
use darling::{Error, FromMeta as _};
use proc_macro2::TokenStream;
use syn::Item;

use crate::fallback;
use ast::Source;

mod ast;
mod attr;
mod expand;
mod valid;

/// `#[resource(args)] item` → the item and its registration, or the item and every error.
pub(crate) fn resource(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Error::accumulator();
    let args = errors
        .handle(NestedMeta::parse_meta_list(args).map_err(Error::from))
        .and_then(|list| errors.handle(attr::ResourceArgs::from_list(&list)));
    let source = match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Static(item)) => Some(Source::Static(item.ident, *item.ty, item.attrs)),
        Ok(Item::Const(item)) => Some(Source::Static(item.ident, *item.ty, item.attrs)),
        Ok(Item::Fn(item)) => Some(Source::Fn(item)),
        _ => {
            errors.push(
                Error::custom(
                    "`#[resource]` goes on a `static`/`const` of text or bytes, or on an fn that reads the resource",
                )
                .with_span(&fallback::item_span(&item)),
            );
            None
        }
    };
    let (Some(args), Some(source)) = (args, source) else {
        return match errors.finish() {
            Err(errors) => fallback::with_errors(item, errors),
            Ok(()) => item,
        };
    };
    let model = valid::check(&mut errors, &args, &source);
    match errors.finish() {
        Ok(()) => expand::generate(&model, item),
        Err(errors) => fallback::with_errors(item, errors),
    }
}

#[cfg(test)]
mod tests {
    //! Expansion snapshots (`tests/expand/resource_*.rs`, refreshed like `#[tool]`'s with
    //! `UPDATE_EXPAND=1`), and the template rules.

    use quote::quote;

    use super::valid::template_variables;
    use crate::tests::snapshot_of;

    #[test]
    fn expand_static_view() {
        snapshot_of(
            "resource_view",
            super::resource(
                quote!(
                    uri = "ui://albums/view.html",
                    app(
                        csp(connect_domains = ["https://api.example.com"]),
                        permissions(clipboard_write),
                        prefers_border
                    )
                ),
                quote! {
                    /// The albums view
                    static ALBUMS_VIEW: &str = include_str!("albums.html");
                },
            ),
        );
    }

    #[test]
    fn expand_template_fn() {
        snapshot_of(
            "resource_template",
            super::resource(
                quote!(
                    uri = "docs://manual/{chapter}/{section}",
                    mime_type = "text/markdown",
                    icons(
                        data = include_bytes!("manual.svg"),
                        mime_type = "image/svg+xml",
                        sizes = ["any"]
                    )
                ),
                quote! {
                    /// One section of the manual
                    async fn section(
                        section: String,
                        manual: State<Manual>,
                        chapter: u32,
                        context: &Context,
                    ) -> String {
                        format!("{chapter}.{section}")
                    }
                },
            ),
        );
    }

    #[test]
    fn expand_scopes() {
        snapshot_of(
            "resource_scopes",
            super::resource(
                quote!(uri = "secured://notes", scopes("notes:read")),
                quote! {
                    /// Every note
                    static NOTES: &str = "";
                },
            ),
        );
    }

    #[test]
    fn expand_tool_with_view() {
        snapshot_of(
            "tool_with_view",
            crate::expand::tool(
                quote!(
                    name = "show-albums",
                    ui = "ui://albums/view.html",
                    visibility(model, app)
                ),
                quote! {
                    /// Show albums
                    async fn show_albums() -> String { String::new() }
                },
            ),
        );
    }

    #[test]
    fn an_app_view_takes_no_mime_type() {
        let output = super::resource(
            quote!(uri = "ui://v.html", mime_type = "text/html", app),
            quote!(
                static V: &str = "";
            ),
        )
        .to_string();
        assert!(
            output.contains("always `text/html;profile=mcp-app`"),
            "{output}"
        );
    }

    #[test]
    fn level_one_templates() {
        assert_eq!(
            template_variables("a://{x}/b/{y}"),
            Ok(vec!["x".into(), "y".into()])
        );
        assert_eq!(template_variables("a://plain"), Ok(vec![]));
        for bad in [
            "a://{x",
            "a://x}",
            "a://{}",
            "a://{x}{y}",
            "a://{x}/{x}",
            "a://{/x}",
        ] {
            assert!(template_variables(bad).is_err(), "{bad}");
        }
    }
}
