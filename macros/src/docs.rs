//! Doc comments (`#[doc = "…"]` attributes) as text.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// Whether `attr` is a doc comment.
pub(crate) fn is_doc(attr: &Attribute) -> bool {
    attr.path().is_ident("doc")
}

/// One `#[doc = …]`: its text, or the macro that gives it (`include_str!("…")`, `concat!(…)`).
enum Part<'a> {
    Text(String),
    Macro(&'a Expr),
}

/// The doc attributes among `attrs`, in order.
fn parts(attrs: &[Attribute]) -> Vec<Part<'_>> {
    attrs
        .iter()
        .filter(|attr| is_doc(attr))
        .filter_map(|attr| match &attr.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(text),
                    ..
                }) => Some(Part::Text(text.value())),
                Expr::Macro(_) => Some(Part::Macro(&nv.value)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// Whether some doc attribute among `attrs` is a macro whose text only rustc knows.
pub(crate) fn has_macro(attrs: &[Attribute]) -> bool {
    parts(attrs)
        .iter()
        .any(|part| matches!(part, Part::Macro(_)))
}

/// The doc comments as the tool's description: a string literal, or, when some doc attributes
/// are macros (`#[doc = include_str!("desc.md")]`), `::core::concat!` of the text before, the
/// macros and the text after, each joined by a line break as rustdoc joins doc fragments. The
/// text of a macro is used as it is; the text around it is joined as [`text`] joins it.
pub(crate) fn description(attrs: &[Attribute]) -> Option<TokenStream> {
    let mut pieces: Vec<TokenStream> = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    let flush = |texts: &mut Vec<String>, pieces: &mut Vec<TokenStream>| {
        if let Some(text) = join(texts.drain(..)) {
            pieces.push(quote!(#text));
        }
    };
    for part in parts(attrs) {
        match part {
            Part::Text(text) => texts.push(text),
            Part::Macro(expr) => {
                flush(&mut texts, &mut pieces);
                pieces.push(quote!(#expr));
            }
        }
    }
    flush(&mut texts, &mut pieces);
    match pieces.len() {
        0 => None,
        1 => pieces.pop(),
        _ => {
            let mut joined = Vec::new();
            for (i, piece) in pieces.into_iter().enumerate() {
                if i > 0 {
                    joined.push(quote!("\n"));
                }
                joined.push(piece);
            }
            Some(quote!(::core::concat!(#(#joined),*)))
        }
    }
}

/// The text of the literal doc comments among `attrs`, roughly as rustdoc shows it, since that
/// is what the model reads: the soft-wrapped lines of a paragraph joined by a space, a blank line
/// between paragraphs, and list items, headings and code blocks (fenced or indented) on their own
/// lines. Doc attributes that are macros are left out (see [`description`]).
pub(crate) fn text(attrs: &[Attribute]) -> Option<String> {
    join(parts(attrs).into_iter().filter_map(|part| match part {
        Part::Text(text) => Some(text),
        Part::Macro(_) => None,
    }))
}

/// Where a line of doc text is, while joining.
#[derive(Clone, Copy, PartialEq)]
enum Block {
    Prose,
    Fenced,
    Indented,
}

/// The doc attributes' texts, joined as [`text`] says.
fn join(texts: impl IntoIterator<Item = String>) -> Option<String> {
    let lines: Vec<String> = texts.into_iter().flat_map(|text| lines(&text)).collect();
    let mut out = String::new();
    let mut block = Block::Prose;
    let mut paragraph_break = false;
    let mut after_block = false;
    for line in &lines {
        let line = line.strip_prefix(' ').unwrap_or(line).trim_end();
        let fence = line.trim_start().starts_with("```");
        if block == Block::Fenced {
            out.push('\n');
            out.push_str(line);
            block = if fence { Block::Prose } else { Block::Fenced };
            after_block = fence;
            continue;
        }
        if indented_code(&mut out, line, block, paragraph_break) {
            block = Block::Indented;
            paragraph_break = false;
            continue;
        }
        if block == Block::Indented {
            // Its trailing blank lines are the paragraph break before what follows.
            block = Block::Prose;
            paragraph_break = out.ends_with('\n');
            after_block = !paragraph_break;
            out.truncate(out.trim_end_matches('\n').len());
        }
        let line = line.trim_start();
        if line.is_empty() {
            paragraph_break = !out.is_empty();
            continue;
        }
        let heading = line.starts_with('#');
        if !out.is_empty() {
            if paragraph_break {
                out.push_str("\n\n");
            } else if fence || heading || after_block || is_list_item(line) {
                out.push('\n');
            } else {
                out.push(' ');
            }
        }
        out.push_str(line);
        if fence {
            block = Block::Fenced;
        }
        paragraph_break = false;
        after_block = heading;
    }
    let out = out.trim().to_owned();
    (!out.is_empty()).then_some(out)
}

/// Adds `line` to `out` if it is part of an indented code block: four spaces after a blank line
/// (or a blank line inside the block), kept as written.
fn indented_code(out: &mut String, line: &str, block: Block, paragraph_break: bool) -> bool {
    let inside = block == Block::Indented;
    let starts = line.starts_with("    ") && (inside || paragraph_break || out.is_empty());
    if !(starts || (inside && line.is_empty())) {
        return false;
    }
    if !out.is_empty() {
        out.push_str(if inside { "\n" } else { "\n\n" });
    }
    out.push_str(line);
    true
}

/// The lines of one doc attribute. `split`, not `lines`: an empty `///` line is a paragraph
/// break and must stay a line. A block comment (`/** … */`) loses the `*` that starts each of
/// its lines, as rustdoc drops it, when every line has one.
fn lines(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    // The first line follows `/**` on the same line, so it has no star: as rustc does, it is
    // left out of the decision.
    let starred = lines.len() > 1
        && lines
            .iter()
            .skip(1)
            .filter(|line| !line.trim().is_empty())
            .all(|line| line.trim_start().starts_with('*'));
    lines
        .into_iter()
        .map(|line| {
            let trimmed = line.trim_start();
            match trimmed.strip_prefix('*') {
                Some(rest) if starred => rest.to_owned(),
                _ => line.to_owned(),
            }
        })
        .collect()
}

/// Whether `line` starts a Markdown list item (`- `, `* `, `+ `, `1. `, `1) `).
fn is_list_item(line: &str) -> bool {
    let numbered = |separator: &str| {
        line.split_once(separator).is_some_and(|(number, _)| {
            !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit())
        })
    };
    line.starts_with("- ")
        || line.starts_with("* ")
        || line.starts_with("+ ")
        || numbered(". ")
        || numbered(") ")
}
