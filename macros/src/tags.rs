//! The `tags(…)` key, shared by `#[tool]`, `#[resource]` and `#[prompt]`: the labels a server's
//! selection (`Server::only_tags`, `Server::without_tags`) chooses its items by.
//!
//! ```text
//! tags("admin", "beta")
//! ```
//!
//! Each tag is a string literal, checked here at the literal: not empty, no comma or white space
//! (`--only-tags a,b` splits on commas), not twice in one list.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{LitStr, Meta};

/// The tags of one item, in the order written.
#[derive(Debug, Default)]
pub(crate) struct Tags(Vec<LitStr>);

/// `tags("admin", "beta")`: one or more string literals.
pub(crate) fn list(meta: &Meta) -> darling::Result<Tags> {
    let usage = "`tags` lists the item's tags as strings: `tags(\"admin\", \"beta\")`";
    crate::string_list::parse(meta, usage, check, |tag| {
        format!("the tag {tag:?} is given twice")
    })
    .map(Tags)
}

/// Why `tag` cannot be one, if it cannot.
fn check(tag: &str) -> Result<(), String> {
    if tag.is_empty() {
        return Err("a tag cannot be empty: write its name, `tags(\"admin\")`".to_owned());
    }
    if tag.contains(',') || tag.chars().any(char::is_whitespace) {
        return Err(format!(
            "the tag {tag:?} holds a comma or white space: `--only-tags a,b` could not name it"
        ));
    }
    Ok(())
}

/// The registration's `tags: &[…]`.
pub(crate) fn registrations(tags: &Tags) -> TokenStream {
    let literals = &tags.0;
    quote!(&[#(#literals),*])
}
