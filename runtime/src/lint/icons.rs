//! The icon checks (SEP-973) over served icons: those the attributes could not check at compile
//! time (an [`Icon`] given to `Tool::icon` or `Server::icon`, a `const` in `icons(src = …)`).
//! The rules are the macro's (`macros/src/icons.rs`): the two crates cannot share code, so a
//! change to one is a change to both.

use super::profiles::Check;
use super::rules::Problem;
use crate::types::Icon;

/// The image types hosts show: PNG and JPEG (which clients MUST support), SVG and WebP (which
/// they SHOULD), and the other raster formats browsers render.
const IMAGE_TYPES: [&str; 9] = [
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

/// What `check` finds wrong with `icons` (a tool's, or the server's), pointers under `/icons`.
pub(super) fn check(check: &Check, icons: &[Icon]) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (index, icon) in icons.iter().enumerate() {
        let at = |field: &str| format!("/icons/{index}/{field}");
        match check {
            Check::IconSource => {
                if let Err(message) = source(&icon.src) {
                    problems.push(Problem::new(at("src"), message));
                }
            }
            Check::IconFormat => {
                let data_type = icon
                    .src
                    .get(..5)
                    .filter(|scheme| scheme.eq_ignore_ascii_case("data:"))
                    .map(|_| data_media_type(&icon.src));
                for (field, mime_type) in
                    [("src", data_type), ("mimeType", icon.mime_type.as_deref())]
                {
                    if let Some(mime_type) = mime_type
                        && !is_image_type(mime_type)
                    {
                        problems.push(Problem::new(
                            at(field),
                            format!("`{mime_type}` is not an image type hosts show"),
                        ));
                    }
                }
                for (position, size) in icon.sizes.iter().enumerate() {
                    if !is_size(size) {
                        problems.push(Problem::new(
                            at(&format!("sizes/{position}")),
                            format!("`{size}` is neither `WxH` nor `any`"),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    problems
}

/// Why `src` is no source clients accept: they reject every scheme but `https:` and `data:`.
fn source(src: &str) -> Result<(), String> {
    let scheme = src
        .split_once(':')
        .map(|(scheme, _)| scheme.to_ascii_lowercase());
    match scheme.as_deref() {
        Some("data") => Ok(()),
        Some("https")
            if src.len() > "https://".len() && src["https:".len()..].starts_with("//") =>
        {
            Ok(())
        }
        _ => Err(format!(
            "`{}` is neither an `https:` URL nor a `data:` URI",
            shortened(src)
        )),
    }
}

/// The media type a `data:` URI names (`image/png` of `data:image/png;base64,…`).
fn data_media_type(src: &str) -> &str {
    src["data:".len()..]
        .split([';', ','])
        .next()
        .unwrap_or_default()
}

fn is_image_type(mime_type: &str) -> bool {
    IMAGE_TYPES.contains(&mime_type.to_ascii_lowercase().as_str())
}

/// `WxH` in pixels (`48x48`), or `any`.
fn is_size(size: &str) -> bool {
    let number = |part: &str| {
        !part.is_empty() && !part.starts_with('0') && part.bytes().all(|b| b.is_ascii_digit())
    };
    size == "any"
        || size
            .split_once('x')
            .is_some_and(|(width, height)| number(width) && number(height))
}

/// `src` for a message: a long `data:` URI is cut.
fn shortened(src: &str) -> String {
    match src.char_indices().nth(60) {
        Some((end, _)) => format!("{}…", &src[..end]),
        None => src.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(check: &Check, icon: Icon) -> Vec<String> {
        super::check(check, &[icon])
            .into_iter()
            .map(|problem| format!("{} {}", problem.pointer, problem.message))
            .collect()
    }

    #[test]
    fn sources_other_than_https_and_data_are_refused() {
        for good in [
            "https://example.com/a.png",
            "HTTPS://example.com/a.png",
            "data:image/png;base64,AA==",
        ] {
            assert!(
                messages(&Check::IconSource, Icon::new(good)).is_empty(),
                "{good}"
            );
        }
        for bad in [
            "http://example.com/a.png",
            "javascript:alert(1)",
            "file:///a.png",
            "a.png",
            "https:a.png",
        ] {
            assert_eq!(
                messages(&Check::IconSource, Icon::new(bad)),
                [format!(
                    "/icons/0/src `{bad}` is neither an `https:` URL nor a `data:` URI"
                )]
            );
        }
    }

    #[test]
    fn types_and_sizes_are_checked() {
        let icon = Icon::new("data:text/html;base64,AA==")
            .mime_type("image/tiff")
            .sizes(["48x48", "any", "48", "0x1"]);
        assert_eq!(
            messages(&Check::IconFormat, icon),
            [
                "/icons/0/src `text/html` is not an image type hosts show",
                "/icons/0/mimeType `image/tiff` is not an image type hosts show",
                "/icons/0/sizes/2 `48` is neither `WxH` nor `any`",
                "/icons/0/sizes/3 `0x1` is neither `WxH` nor `any`",
            ]
        );
        let fine = Icon::data("image/svg+xml", b"<svg/>").sizes(["any"]);
        assert!(messages(&Check::IconFormat, fine).is_empty());
    }
}
