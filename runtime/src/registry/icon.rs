//! [`IconRegistration`]: an icon as an attribute writes it, made an [`Icon`] when served.

use crate::types::{Icon, IconTheme};

/// One `icons(…)` of an attribute. Not public API: generated code builds it.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct IconRegistration {
    /// Where the image is.
    pub src: IconSource,
    /// `mime_type = "…"`.
    pub mime_type: Option<&'static str>,
    /// `sizes = […]`.
    pub sizes: &'static [&'static str],
    /// `theme = "light" | "dark"`.
    pub theme: Option<IconTheme>,
}

/// Where a registered icon's image is. Not public API.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub enum IconSource {
    /// `src = "https://…"` or `src = "data:…"`.
    Url(&'static str),
    /// `data = include_bytes!(…)`: sent as a base64 `data:` URI of the icon's MIME type.
    Bytes(&'static [u8]),
}

impl IconRegistration {
    /// The icon as served.
    #[must_use]
    pub fn icon(&self) -> Icon {
        let icon = match self.src {
            IconSource::Url(src) => Icon::new(src),
            IconSource::Bytes(bytes) => {
                Icon::data(self.mime_type.unwrap_or("application/octet-stream"), bytes)
            }
        };
        let icon = match self.mime_type {
            Some(mime_type) => icon.mime_type(mime_type),
            None => icon,
        };
        let icon = icon.sizes(self.sizes.iter().copied());
        match self.theme {
            Some(theme) => icon.theme(theme),
            None => icon,
        }
    }
}
