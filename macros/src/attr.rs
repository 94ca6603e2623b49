//! The attribute's keys, as darling parses them.

use darling::FromMeta;
use darling::util::SpannedValue;

/// `#[tool(name = "…", title = "…", description = "…", annotations(…), crate = path)]`
#[derive(Debug, Default, FromMeta)]
pub(crate) struct ToolArgs {
    pub(crate) name: Option<SpannedValue<String>>,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) annotations: Option<Annotations>,
    #[darling(rename = "crate")]
    pub(crate) krate: Option<syn::Path>,
}

/// `annotations(read_only, destructive = false, idempotent, open_world)`: a bare word means
/// `true`; an absent hint is left out of the tool definition.
#[derive(Debug, Default, FromMeta)]
pub(crate) struct Annotations {
    pub(crate) read_only: Option<SpannedValue<bool>>,
    pub(crate) destructive: Option<SpannedValue<bool>>,
    pub(crate) idempotent: Option<bool>,
    pub(crate) open_world: Option<bool>,
}
