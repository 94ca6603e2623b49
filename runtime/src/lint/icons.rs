//! The icon checks (SEP-973) over served icons: those the attributes could not check at compile
//! time (an [`Icon`] given to `Tool::icon` or `Server::icon`, a `const` in `icons(src = …)`).
//! The rules are the macro's: one file both crates compile (`macros/src/icon_rules.rs`).

use super::problem::Problem;
use super::profiles::Check;
use crate::types::Icon;

/// The rules themselves, one file shared with the `icons(…)` attribute key.
#[path = "../../../macros/src/icon_rules.rs"]
mod rules;

pub(super) use self::rules::IMAGE_TYPES;
use self::rules::{data_media_type, is_image_type, is_size};

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
                let data_type = data_media_type(&icon.src);
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
    if rules::is_source(src) {
        return Ok(());
    }
    Err(format!(
        "`{}` is neither an `https:` URL nor a `data:` URI",
        shortened(src)
    ))
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

    /// The fix names every type the rules (shared with the attribute key) accept, no fewer.
    #[test]
    fn the_fix_names_every_image_type_the_rules_accept() {
        let fix = crate::lint::rules::fix(&Check::IconFormat);
        for mime_type in IMAGE_TYPES {
            assert!(fix.contains(mime_type), "{mime_type} missing from: {fix}");
        }
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
