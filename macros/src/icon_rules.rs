//! The icon rules clients apply (SEP-973; the spec's "Icons" security notes), in one file that
//! two crates compile: the `icons(…)` attribute key (`macros/src/icons.rs`, over literals, at
//! compile time) and the runtime's lint (`runtime/src/lint/icons.rs`, over served icons), each
//! with `#[path]`. So the two cannot drift apart; each words its own messages. It must use
//! nothing but `core` and `std`, the one dependency both crates have.

/// The image types hosts show: PNG and JPEG (which clients MUST support), SVG and WebP (which
/// they SHOULD), and the other raster formats browsers render.
pub(crate) const IMAGE_TYPES: [&str; 9] = [
    "image/png",
    "image/jpeg",
    "image/jpg",
    "image/svg+xml",
    "image/webp",
    "image/gif",
    "image/avif",
    "image/x-icon",
    "image/vnd.microsoft.icon",
];

/// Whether clients take `src` as an icon's source: an `https://` URL or a `data:` URI (they
/// reject every other scheme).
pub(crate) fn is_source(src: &str) -> bool {
    let scheme = src
        .split_once(':')
        .map(|(scheme, _)| scheme.to_ascii_lowercase());
    match scheme.as_deref() {
        Some("data") => true,
        Some("https") => src.len() > "https://".len() && src["https:".len()..].starts_with("//"),
        _ => false,
    }
}

/// The media type a `data:` URI names (`image/png` of `data:image/png;base64,…`); `None` when
/// `src` is no `data:` URI.
pub(crate) fn data_media_type(src: &str) -> Option<&str> {
    let scheme = src.get(..5)?;
    scheme
        .eq_ignore_ascii_case("data:")
        .then(|| src[5..].split([';', ',']).next().unwrap_or_default())
}

/// Whether hosts show images of `mime_type` (any case).
pub(crate) fn is_image_type(mime_type: &str) -> bool {
    IMAGE_TYPES.contains(&mime_type.to_ascii_lowercase().as_str())
}

/// Whether `size` is `WxH` in pixels (`48x48`, no leading zero) or `any`.
pub(crate) fn is_size(size: &str) -> bool {
    let number = |part: &str| {
        !part.is_empty() && !part.starts_with('0') && part.bytes().all(|b| b.is_ascii_digit())
    };
    size == "any"
        || size
            .split_once('x')
            .is_some_and(|(width, height)| number(width) && number(height))
}
