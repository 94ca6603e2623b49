//! The `#[tool]` attribute of [mcp-toolbelt](https://docs.rs/mcp-toolbelt). Depend on
//! `mcp-toolbelt` and use `mcp_toolbelt::tool`; its documentation describes the attribute.

mod ast;
mod attr;
mod docs;
mod expand;
mod fallback;
mod valid;

#[cfg(test)]
mod tests;

/// Turns an `async fn` into an MCP tool; see `mcp_toolbelt::tool` for the keys and rules.
#[proc_macro_attribute]
pub fn tool(
    args: proc_macro::TokenStream,
    item: proc_macro::TokenStream,
) -> proc_macro::TokenStream {
    expand::tool(args.into(), item.into()).into()
}
