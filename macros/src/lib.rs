//! The `#[tool]`, `#[prompt]` and `#[resource]` attributes of [mcp-toolbelt](https://docs.rs/mcp-toolbelt). Depend on
//! `mcp-toolbelt` and use `mcp_toolbelt::tool`; its documentation describes the attribute.

mod apps;
mod ast;
mod attr;
mod complete;
mod docs;
mod expand;
mod fallback;
mod icons;
mod prompt;
mod rate_limit;
mod resource;
mod scopes;
mod string_list;
mod tags;
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

/// Turns an fn into an MCP prompt; see `mcp_toolbelt::prompt` for the keys and rules.
#[proc_macro_attribute]
pub fn prompt(
    args: proc_macro::TokenStream,
    item: proc_macro::TokenStream,
) -> proc_macro::TokenStream {
    prompt::prompt(args.into(), item.into()).into()
}

/// Serves a `static`/`const` (text or bytes) or an fn as an MCP resource; see
/// `mcp_toolbelt::resource` for the keys and rules.
#[proc_macro_attribute]
pub fn resource(
    args: proc_macro::TokenStream,
    item: proc_macro::TokenStream,
) -> proc_macro::TokenStream {
    resource::resource(args.into(), item.into()).into()
}
