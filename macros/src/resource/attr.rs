//! `#[resource]`'s keys, as darling parses them, and the rules of the `app(…)` key.

use darling::error::Accumulator;
use darling::util::{Override, PathList};
use darling::{Error, FromMeta};
use syn::LitStr;

/// `#[resource(uri = "…", name = "…", title = "…", description = "…", mime_type = "…",
/// app(…), crate = path, icons(…)…, tags("…", …), scopes("…", …))]`
#[derive(Debug, FromMeta)]
pub(super) struct ResourceArgs {
    pub(super) uri: LitStr,
    pub(super) name: Option<String>,
    pub(super) title: Option<String>,
    pub(super) description: Option<String>,
    pub(super) mime_type: Option<String>,
    pub(super) app: Option<Override<AppArgs>>,
    /// `complete(var = path)`: the completer fn of each template variable named.
    #[darling(default, with = crate::complete::completers)]
    pub(super) complete: Option<Vec<(syn::Ident, syn::Path)>>,
    #[darling(rename = "crate")]
    pub(super) krate: Option<syn::Path>,
    /// `icons(src = "…", …)`, once per icon.
    #[darling(multiple, with = crate::icons::icon)]
    pub(super) icons: Vec<crate::icons::Icon>,
    /// `tags("admin", …)`: what a server's selection chooses the resource by.
    #[darling(default, with = crate::tags::list)]
    pub(super) tags: crate::tags::Tags,
    /// `scopes("…", …)`: the OAuth scopes a caller needs, all of them.
    #[darling(default, with = crate::scopes::scopes)]
    pub(super) scopes: Vec<LitStr>,
}

/// `app(csp(connect_domains = […], …), permissions(camera, …), domain = "…", prefers_border)`
#[derive(Debug, Default, FromMeta)]
pub(super) struct AppArgs {
    #[darling(default)]
    pub(super) csp: Csp,
    #[darling(default)]
    pub(super) permissions: PathList,
    pub(super) domain: Option<String>,
    pub(super) prefers_border: Option<bool>,
}

/// The view's content security policy: origins it may reach.
#[derive(Debug, Default, FromMeta)]
#[allow(
    clippy::struct_field_names,
    reason = "the keys are the extension's `connectDomains`, …"
)]
pub(super) struct Csp {
    #[darling(default)]
    pub(super) connect_domains: Vec<LitStr>,
    #[darling(default)]
    pub(super) resource_domains: Vec<LitStr>,
    #[darling(default)]
    pub(super) frame_domains: Vec<LitStr>,
    #[darling(default)]
    pub(super) base_uri_domains: Vec<LitStr>,
}

/// The permissions a view may ask for, as written and as the extension names them.
pub(super) const PERMISSIONS: [(&str, &str); 4] = [
    ("camera", "camera"),
    ("microphone", "microphone"),
    ("geolocation", "geolocation"),
    ("clipboard_write", "clipboardWrite"),
];

/// Every permission is one the extension knows.
pub(super) fn check_app(errors: &mut Accumulator, app: &Override<AppArgs>) {
    let Override::Explicit(app) = app else {
        return;
    };
    for permission in app.permissions.iter() {
        let known = PERMISSIONS
            .iter()
            .any(|(word, _)| permission.is_ident(word));
        if !known {
            errors.push(
                Error::custom(
                    "unknown permission: write `camera`, `microphone`, `geolocation` or `clipboard_write`",
                )
                .with_span(permission),
            );
        }
    }
}
