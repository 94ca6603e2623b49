//! The `icons(…)` key (SEP-973), shared by every attribute that takes it (`#[tool]`,
//! `#[resource]`; `#[prompt]` adds `#[darling(multiple, with = crate::icons::icon)]` and
//! [`registrations`]): one icon per `icons(…)`, the key repeated for several.
//!
//! ```text
//! icons(src = "https://example.com/paint.png", mime_type = "image/png", sizes = ["48x48"], theme = "dark")
//! icons(data = include_bytes!("paint.svg"), mime_type = "image/svg+xml", sizes = ["any"])
//! ```
//!
//! Values written as literals are checked here, each error at its literal, by the rules clients
//! apply (the spec's "Icons" security notes: they reject any source but `https:` and `data:`);
//! a value given as an expression (a `const`) is checked by the runtime's lint instead.

use darling::util::SpannedValue;
use darling::{Error, FromMeta};
use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::spanned::Spanned as _;
use syn::{Expr, ExprArray, ExprLit, Lit, LitStr, Meta};

/// The rules themselves, one file shared with the runtime's lint.
#[path = "icon_rules.rs"]
mod rules;

use self::rules::IMAGE_TYPES;

/// One `icons(…)`, checked: where its image is, and what the attribute says of it.
#[derive(Debug)]
pub(crate) struct Icon {
    source: Source,
    mime_type: Option<Text>,
    sizes: Vec<Text>,
    theme: Option<Theme>,
}

/// `src = "…"` or `data = <bytes>`.
#[derive(Debug)]
enum Source {
    Url(Text),
    Bytes(Expr),
}

/// A string value: a literal (checked) or an expression of type `&'static str` (checked by the
/// lint when served).
#[derive(Debug)]
enum Text {
    Literal(LitStr),
    Expr(Expr),
}

impl ToTokens for Text {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            Self::Literal(literal) => literal.to_tokens(tokens),
            Self::Expr(expr) => expr.to_tokens(tokens),
        }
    }
}

/// `theme = "light" | "dark"`.
#[derive(Debug, Clone, Copy)]
enum Theme {
    Light,
    Dark,
}

/// The keys of one `icons(…)` as darling reads them, each checked alone; [`icon`] checks them
/// together.
#[derive(Debug, FromMeta)]
struct Keys {
    #[darling(default, with = source_url)]
    src: Option<SpannedValue<Text>>,
    #[darling(default, with = source_bytes)]
    data: Option<SpannedValue<Expr>>,
    #[darling(default, with = mime_type_value)]
    mime_type: Option<Text>,
    #[darling(default, with = sizes_list)]
    sizes: Option<Vec<Text>>,
    #[darling(default, with = theme_value)]
    theme: Option<Theme>,
}

const USAGE: &str = "write `icons(src = \"https://…\", mime_type = \"image/png\", sizes = [\"48x48\"])`, or `icons(data = include_bytes!(\"icon.png\"), mime_type = \"image/png\")`";

/// One `icons(…)`: for `#[darling(multiple, with = crate::icons::icon)]`.
pub(crate) fn icon(meta: &Meta) -> darling::Result<Icon> {
    let Meta::List(list) = meta else {
        return Err(Error::custom(format!("an icon is a list of keys: {USAGE}")).with_span(meta));
    };
    let keys = Keys::from_meta(meta)?;
    let source = match (keys.src, keys.data) {
        (Some(_), Some(data)) => {
            return Err(Error::custom(
                "an icon has one image: keep `src = \"…\"` (a URL or `data:` URI) or `data = …` (bytes), not both",
            )
            .with_span(&data.span()));
        }
        (None, None) => {
            return Err(Error::custom(format!(
                "an icon needs its image, `src` or `data`: {USAGE}"
            ))
            .with_span(&list.path));
        }
        (Some(src), None) => Source::Url(src.into_inner()),
        (None, Some(data)) if keys.mime_type.is_none() => {
            return Err(Error::custom(
                "`data = …` needs the image's type, for its `data:` URI: add `mime_type = \"image/png\"` (or the type it is)",
            )
            .with_span(&data.span()));
        }
        (None, Some(data)) => Source::Bytes(data.into_inner()),
    };
    Ok(Icon {
        source,
        mime_type: keys.mime_type,
        sizes: keys.sizes.unwrap_or_default(),
        theme: keys.theme,
    })
}

/// The `&'static [IconRegistration]` of `icons`, through the `__private` alias `private`.
pub(crate) fn registrations(icons: &[Icon], private: &syn::Ident) -> TokenStream {
    let icons = icons.iter().map(|icon| {
        let src = match &icon.source {
            Source::Url(url) => quote!(#private::IconSource::Url(#url)),
            Source::Bytes(bytes) => quote!(#private::IconSource::Bytes(#bytes)),
        };
        let mime_type = icon.mime_type.as_ref().map_or_else(
            || quote!(::core::option::Option::None),
            |mime_type| quote!(::core::option::Option::Some(#mime_type)),
        );
        let sizes = &icon.sizes;
        let theme = match icon.theme {
            Some(Theme::Light) => quote!(::core::option::Option::Some(#private::IconTheme::Light)),
            Some(Theme::Dark) => quote!(::core::option::Option::Some(#private::IconTheme::Dark)),
            None => quote!(::core::option::Option::None),
        };
        quote! {
            #private::IconRegistration {
                src: #src,
                mime_type: #mime_type,
                sizes: &[#(#sizes),*],
                theme: #theme,
            }
        }
    });
    quote!(&[#(#icons),*])
}

/// The value of `key = value`, and the span errors about it point at.
fn value(meta: &Meta) -> darling::Result<&Expr> {
    if let Meta::NameValue(name_value) = meta {
        return Ok(&name_value.value);
    }
    let key = meta.path().get_ident().map(ToString::to_string);
    let key = key.as_deref().unwrap_or("key");
    Err(Error::custom(format!("write `{key} = …`")).with_span(meta))
}

/// A string literal, or another expression (left to the lint).
fn text(expr: &Expr) -> Text {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(literal),
            ..
        }) => Text::Literal(literal.clone()),
        expr => Text::Expr(expr.clone()),
    }
}

/// `src = "https://…"` or `src = "data:…"`.
fn source_url(meta: &Meta) -> darling::Result<Option<SpannedValue<Text>>> {
    let expr = value(meta)?;
    let src = text(expr);
    if let Text::Literal(literal) = &src {
        check_source(&literal.value())
            .map_err(|problem| Error::custom(problem).with_span(literal))?;
    }
    Ok(Some(SpannedValue::new(src, meta.path().span())))
}

/// `data = include_bytes!("icon.png")`: bytes, never a string.
fn source_bytes(meta: &Meta) -> darling::Result<Option<SpannedValue<Expr>>> {
    let expr = value(meta)?;
    if let Expr::Lit(ExprLit {
        lit: Lit::Str(literal),
        ..
    }) = expr
    {
        return Err(Error::custom(
            "`data` takes the image's bytes (`data = include_bytes!(\"icon.png\")`); a URL or a `data:` URI is `src = \"…\"`",
        )
        .with_span(literal));
    }
    Ok(Some(SpannedValue::new(expr.clone(), meta.path().span())))
}

/// `mime_type = "image/png"`: an image type hosts show.
fn mime_type_value(meta: &Meta) -> darling::Result<Option<Text>> {
    let mime_type = text(value(meta)?);
    if let Text::Literal(literal) = &mime_type {
        check_mime_type(&literal.value())
            .map_err(|problem| Error::custom(problem).with_span(literal))?;
    }
    Ok(Some(mime_type))
}

/// `sizes = ["48x48", "any"]`: each `WxH` or `any`.
fn sizes_list(meta: &Meta) -> darling::Result<Option<Vec<Text>>> {
    let expr = value(meta)?;
    let Expr::Array(ExprArray { elems, .. }) = expr else {
        return Err(Error::custom(
            "`sizes` is a list: write `sizes = [\"48x48\"]` (each `WxH`, or `any` for a scalable image)",
        )
        .with_span(expr));
    };
    if elems.is_empty() {
        return Err(Error::custom(
            "`sizes` cannot be empty: list the sizes (`[\"48x48\"]`, `[\"any\"]`), or leave the key out",
        )
        .with_span(expr));
    }
    let mut errors = Error::accumulator();
    let sizes = elems
        .iter()
        .map(|size| {
            let size = text(size);
            if let Text::Literal(literal) = &size
                && let Err(problem) = check_size(&literal.value())
            {
                errors.push(Error::custom(problem).with_span(literal));
            }
            size
        })
        .collect();
    errors.finish_with(Some(sizes))
}

/// `theme = "light"` or `theme = "dark"`.
fn theme_value(meta: &Meta) -> darling::Result<Option<Theme>> {
    let expr = value(meta)?;
    let theme = match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(literal),
            ..
        }) => match literal.value().as_str() {
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        },
        _ => None,
    };
    theme.map(Some).ok_or_else(|| {
        Error::custom(
            "`theme` is the background the icon is drawn for: write `theme = \"light\"` or `theme = \"dark\"`",
        )
        .with_span(expr)
    })
}

/// Why `src` is no source clients accept, if it is not.
fn check_source(src: &str) -> Result<(), String> {
    if !rules::is_source(src) {
        return Err(format!(
            "`{src}` is no icon source clients accept (they reject every scheme but `https:` and `data:`): write an `https://` URL, a `data:image/…;base64,…` URI, or `data = include_bytes!(\"icon.png\")`"
        ));
    }
    match rules::data_media_type(src) {
        Some(media_type) => {
            check_mime_type(media_type).map_err(|problem| format!("in this `data:` URI, {problem}"))
        }
        None => Ok(()),
    }
}

/// Why `mime_type` is no image type hosts show, if it is not.
fn check_mime_type(mime_type: &str) -> Result<(), String> {
    if rules::is_image_type(mime_type) {
        return Ok(());
    }
    Err(format!(
        "`{mime_type}` is not an image type hosts show: write one of {}",
        IMAGE_TYPES.join(", ")
    ))
}

/// Why `size` is neither `WxH` nor `any`, if it is not.
fn check_size(size: &str) -> Result<(), String> {
    if rules::is_size(size) {
        return Ok(());
    }
    Err(format!(
        "`{size}` is not an icon size: write `WxH` in pixels (`48x48`), or `any` for a scalable image"
    ))
}
