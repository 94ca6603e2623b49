//! Doc comments (`#[doc = "…"]` attributes) as text.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// Whether `attr` is a doc comment.
pub(crate) fn is_doc(attr: &Attribute) -> bool {
    attr.path().is_ident("doc")
}

/// The text of the doc comments among `attrs`, as rustdoc shows it: soft-wrapped lines of a
/// paragraph joined by a space, paragraphs, list items and code blocks kept on their own lines.
pub(crate) fn text(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|attr| is_doc(attr))
        .filter_map(|attr| match &attr.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(ExprLit { lit: Lit::Str(text), .. }) => Some(text.value()),
                _ => None,
            },
            _ => None,
        })
        .flat_map(|text| text.lines().map(str::to_owned).collect::<Vec<_>>())
        .collect();
    let mut out = String::new();
    let mut in_code = false;
    let mut previous_blank = true;
    for line in &lines {
        let line = line.strip_prefix(' ').unwrap_or(line).trim_end();
        let fence = line.trim_start().starts_with("```");
        if line.is_empty() {
            if !out.is_empty() && !previous_blank {
                out.push_str("\n\n");
            } else if in_code {
                out.push('\n');
            }
            previous_blank = true;
            continue;
        }
        let starts_block = in_code || fence || is_list_item(line);
        if !out.is_empty() && !previous_blank {
            out.push(if starts_block { '\n' } else { ' ' });
        }
        out.push_str(if in_code { line } else { line.trim_start() });
        if fence {
            in_code = !in_code;
        }
        previous_blank = false;
    }
    let out = out.trim().to_owned();
    (!out.is_empty()).then_some(out)
}

fn is_list_item(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with("- ")
        || line.starts_with("* ")
        || line.split_once(". ").is_some_and(|(number, _)| !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()))
}
