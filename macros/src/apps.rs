//! The MCP Apps keys of `#[tool]`: `ui = "ui://…"` (the tool's view) and `visibility(model, app)`
//! (who may call it). They become a `ToolUiRegistration` submitted next to the tool's; the runtime
//! checks at start-up that the view is a registered app view.

use darling::util::SpannedValue;
use darling::{Error, FromMeta as _};
use proc_macro2::TokenStream;
use quote::quote;
use syn::Meta;
use syn::spanned::Spanned as _;

/// The callers the extension knows.
const CALLERS: [&str; 2] = ["model", "app"];

/// `ui = "ui://…"`: a plain `ui://` URI, checked at the literal.
pub(crate) fn ui_uri(meta: &Meta) -> darling::Result<Option<SpannedValue<String>>> {
    let uri = SpannedValue::<String>::from_meta(meta).map_err(|_| {
        Error::custom("`ui` takes the view's URI: write `ui = \"ui://…\"`").with_span(meta)
    })?;
    let rest = uri.strip_prefix("ui://").unwrap_or_default();
    if rest.is_empty() || uri.contains(['{', '}']) || uri.contains(char::is_whitespace) {
        return Err(Error::custom(format!(
            "`{}` is not a view's URI: write a `ui://` URI such as `ui://albums/view.html`",
            uri.as_str()
        ))
        .with_span(&uri.span()));
    }
    Ok(Some(uri))
}

/// `visibility(model, app)`: one or both callers, each once.
pub(crate) fn visibility_list(meta: &Meta) -> darling::Result<Option<Vec<String>>> {
    let Meta::List(list) = meta else {
        return Err(Error::custom(
            "write `visibility(model, app)`, `visibility(model)` or `visibility(app)`",
        )
        .with_span(meta));
    };
    let words = darling::util::PathList::from_meta(meta)?;
    if words.is_empty() {
        return Err(Error::custom(
            "`visibility` cannot be empty: say who may call the tool, `model`, `app` or both",
        )
        .with_span(&list.span()));
    }
    let mut callers = Vec::new();
    let mut errors = Error::accumulator();
    for word in words.iter() {
        match CALLERS.iter().find(|caller| word.is_ident(caller)) {
            Some(caller) if callers.contains(&(*caller).to_owned()) => {
                errors.push(Error::custom(format!("`{caller}` is given twice")).with_span(word));
            }
            Some(caller) => callers.push((*caller).to_owned()),
            None => errors.push(
                Error::custom("unknown caller: `visibility` takes `model` and `app`")
                    .with_span(word),
            ),
        }
    }
    errors.finish_with(Some(callers))
}

/// What `#[tool]` was told of its view and callers.
#[derive(Debug, Clone, Default)]
pub(crate) struct ToolUi {
    pub(crate) uri: Option<String>,
    pub(crate) visibility: Vec<String>,
}

impl ToolUi {
    /// `None` when the tool has neither key.
    pub(crate) fn of(
        uri: Option<&SpannedValue<String>>,
        visibility: Option<&Vec<String>>,
    ) -> Option<Self> {
        if uri.is_none() && visibility.is_none() {
            return None;
        }
        Some(Self {
            uri: uri.map(|uri| uri.as_str().to_owned()),
            visibility: visibility.cloned().unwrap_or_default(),
        })
    }

    /// The `inventory::submit!` of the tool's `ToolUiRegistration`.
    pub(crate) fn registration(&self, private: &syn::Ident, tool: &str) -> TokenStream {
        let uri = self.uri.as_ref().map_or_else(
            || quote!(::core::option::Option::None),
            |uri| quote!(::core::option::Option::Some(#uri)),
        );
        let visibility = &self.visibility;
        quote! {
            #private::inventory::submit! {
                #private::ToolUiRegistration {
                    tool: #tool,
                    resource_uri: #uri,
                    visibility: &[#(#visibility),*],
                }
            }
        }
    }
}
