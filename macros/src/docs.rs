//! Doc comments (`#[doc = "…"]` attributes) as text.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// Whether `attr` is a doc comment.
pub(crate) fn is_doc(attr: &Attribute) -> bool {
    attr.path().is_ident("doc")
}

/// The text of the doc comments among `attrs`, roughly as rustdoc shows it, since that is what
/// the model reads: the soft-wrapped lines of a paragraph joined by a space, a blank line
/// between paragraphs, and list items, headings and fenced code blocks on their own lines.
pub(crate) fn text(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|attr| is_doc(attr))
        .filter_map(|attr| match &attr.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(text),
                    ..
                }) => Some(text.value()),
                _ => None,
            },
            _ => None,
        })
        // `split`, not `lines`: an empty `///` line is a paragraph break and must stay a line.
        .flat_map(|text| {
            text.split('\n')
                .map(|line| line.trim_end_matches('\r').to_owned())
                .collect::<Vec<_>>()
        })
        .collect();

    let mut out = String::new();
    let mut in_code = false;
    let mut paragraph_break = false;
    let mut after_block = false;
    for line in &lines {
        let line = line.strip_prefix(' ').unwrap_or(line).trim_end();
        let fence = line.trim_start().starts_with("```");
        if in_code {
            out.push('\n');
            out.push_str(line);
            in_code = !fence;
            after_block = fence;
            continue;
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
        in_code = fence;
        paragraph_break = false;
        after_block = heading;
    }
    let out = out.trim().to_owned();
    (!out.is_empty()).then_some(out)
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
