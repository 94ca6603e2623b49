//! An MCP Apps view as a resource declares it: its MIME type and the `_meta.ui` that tells the
//! host's sandbox what it may do. Resources read it; `apps.rs` (tools and their views) builds on
//! both.

use serde_json::{Map, Value, json};

/// The MIME type of an app view, on `resources/list` and `resources/read`.
pub const VIEW_MIME_TYPE: &str = "text/html;profile=mcp-app";

/// A view's `_meta.ui`: what the host's sandbox allows it. Not public API: `#[resource(app(…))]`
/// builds it.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, Default)]
pub struct AppView {
    /// Origins the view may fetch from (`csp.connectDomains`).
    pub connect_domains: &'static [&'static str],
    /// Origins of scripts, styles, images (`csp.resourceDomains`).
    pub resource_domains: &'static [&'static str],
    /// Origins of nested frames (`csp.frameDomains`).
    pub frame_domains: &'static [&'static str],
    /// Allowed `<base>` URIs (`csp.baseUriDomains`).
    pub base_uri_domains: &'static [&'static str],
    /// Browser permissions: `camera`, `microphone`, `geolocation`, `clipboardWrite`.
    pub permissions: &'static [&'static str],
    /// A dedicated origin for the view.
    pub domain: Option<&'static str>,
    /// Whether the host should draw a border around it.
    pub prefers_border: Option<bool>,
}

impl AppView {
    /// `{"ui": {…}}`, with only what was set.
    pub(crate) fn meta(&self) -> Map<String, Value> {
        let mut ui = Map::new();
        let mut csp = Map::new();
        for (key, domains) in [
            ("connectDomains", self.connect_domains),
            ("resourceDomains", self.resource_domains),
            ("frameDomains", self.frame_domains),
            ("baseUriDomains", self.base_uri_domains),
        ] {
            if !domains.is_empty() {
                csp.insert(key.into(), json!(domains));
            }
        }
        if !csp.is_empty() {
            ui.insert("csp".into(), Value::Object(csp));
        }
        if !self.permissions.is_empty() {
            let permissions: Map<String, Value> = self
                .permissions
                .iter()
                .map(|permission| ((*permission).to_owned(), json!({})))
                .collect();
            ui.insert("permissions".into(), Value::Object(permissions));
        }
        if let Some(domain) = self.domain {
            ui.insert("domain".into(), json!(domain));
        }
        if let Some(prefers_border) = self.prefers_border {
            ui.insert("prefersBorder".into(), json!(prefers_border));
        }
        let mut meta = Map::new();
        meta.insert("ui".into(), Value::Object(ui));
        meta
    }
}
