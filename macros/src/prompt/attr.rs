//! `#[prompt]`'s keys, as darling parses them; the rules of one key alone are checked here, so
//! darling reports them with unknown and duplicate keys.

use darling::FromMeta;
use darling::util::SpannedValue;
use syn::{Meta, Path};

use crate::{attr, icons};

/// `#[prompt(name = "…", title = "…", description = "…", complete(param = path, …), crate = path, icons(…)…, tags("…", …), scopes("…", …))]`
#[derive(Debug, Default, FromMeta)]
pub(super) struct PromptArgs {
    #[darling(default, with = prompt_name)]
    pub(super) name: Option<SpannedValue<String>>,
    #[darling(default, with = attr::text)]
    pub(super) title: Option<String>,
    #[darling(default, with = description_text)]
    pub(super) description: Option<String>,
    /// `complete(city = cities)`: the completer fn of each argument named.
    #[darling(default, with = crate::complete::completers)]
    pub(super) complete: Option<Vec<(syn::Ident, Path)>>,
    #[darling(rename = "crate")]
    pub(super) krate: Option<Path>,
    /// `icons(src = "…", …)`, once per icon.
    #[darling(multiple, with = icons::icon)]
    pub(super) icons: Vec<icons::Icon>,
    /// `tags("admin", …)`: what a server's selection chooses the prompt by.
    #[darling(default, with = crate::tags::list)]
    pub(super) tags: crate::tags::Tags,
    /// `scopes("…", …)`: the OAuth scopes a caller needs, all of them.
    #[darling(default, with = crate::scopes::scopes)]
    pub(super) scopes: Vec<syn::LitStr>,
}

/// `name = "…"`: the MCP rule `^[A-Za-z0-9_.-]{1,64}$`, as a tool's, at the literal.
fn prompt_name(meta: &Meta) -> darling::Result<Option<SpannedValue<String>>> {
    attr::name(meta, "prompt")
}

/// `description = "…"`, not empty.
fn description_text(meta: &Meta) -> darling::Result<Option<String>> {
    attr::description(meta, "say what the prompt is for")
}
