//! `#[prompt]`: an fn whose parameters are the prompt's arguments (strings on the wire, each
//! read into its parameter's type) and whose result is the prompt's messages. Generates, next
//! to the fn, an adapter and an `inventory::submit!` of a `PromptRegistration`. Shares with
//! `#[tool]` the doc comments (`docs.rs`), the rules of `Context` and `State<T>` parameters
//! (`valid.rs`), the string keys (`attr.rs`) and the fallback that re-emits the fn.
//!
//! ```text
//! /// Greet someone
//! #[prompt]
//! async fn greet(/// Who\n name: String) -> String { … }
//! const _: () = {
//!     use ::mcp_toolbelt::__private as __prompt_private;
//!     fn __prompt_greet_get(arguments, context) -> BoxFuture<Result<GetPromptResult, PromptError>> {
//!         Box::pin(async move { let __prompt_arg_0: String = …?; prompt_result(greet(__prompt_arg_0).await) })
//!     }
//!     __prompt_private::inventory::submit! { PromptRegistration { name: "greet", … } }
//! };
//! ```

use darling::ast::NestedMeta;
use darling::{Error, FromMeta as _};
use proc_macro2::TokenStream;
use syn::ItemFn;

use crate::fallback;

mod ast;
mod attr;
mod expand;
mod valid;

/// `#[prompt(args)] item` → the expansion, or the fn and every error.
pub(crate) fn prompt(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Error::accumulator();
    let list = errors.handle(NestedMeta::parse_meta_list(args).map_err(Error::from));
    let args = list
        .as_ref()
        .and_then(|list| errors.handle(attr::PromptArgs::from_list(list)));
    let Ok(item_fn) = syn::parse2::<ItemFn>(item.clone()) else {
        errors.push(
            Error::custom("`#[prompt]` goes on a fn: `#[prompt] async fn name(…) -> String { … }`")
                .with_span(&fallback::item_span(&item)),
        );
        return fallback::with_errors(item, errors.finish().expect_err("an error was just pushed"));
    };
    let model = valid::check(&mut errors, list.as_deref(), args, &item_fn);
    match errors.finish() {
        Ok(()) => expand::generate(&model),
        Err(errors) => fallback::with_errors(item, errors),
    }
}

#[cfg(test)]
mod tests {
    //! The expansion snapshot of `#[prompt]` (`tests/expand/prompt.rs`, refreshed as
    //! `#[tool]`'s with `UPDATE_EXPAND=1`), and what only the macro sees.

    use quote::quote;

    use crate::tests::snapshot_of;

    #[test]
    fn expand_every_style() {
        snapshot_of(
            "prompt",
            super::prompt(
                quote!(
                    name = "summarise",
                    title = "Summarise",
                    complete(title = titles)
                ),
                quote! {
                    /// Summarise a note
                    async fn summarise(
                        /// The note's title
                        title: String,
                        /// How to write it
                        tone: Option<Tone>,
                        /// At most this many words
                        #[serde(default)]
                        words: u32,
                        /// A tag
                        #[complete(tags)]
                        tag: Option<String>,
                        notes: State<Notes>,
                        context: &Context,
                    ) -> Result<GetPromptResult, NoteError> {
                        todo!()
                    }
                },
            ),
        );
    }

    #[test]
    fn expand_scopes() {
        snapshot_of(
            "prompt_scopes",
            super::prompt(
                quote!(scopes("notes:read")),
                quote! {
                    /// Summarise the notes
                    async fn summarise() -> String {
                        String::new()
                    }
                },
            ),
        );
    }

    #[test]
    fn a_completer_must_name_an_argument() {
        let output = super::prompt(
            quote!(complete(nme = names)),
            quote! {
                /// Greets
                async fn greet(/// Who
                name: String) -> String { name }
            },
        )
        .to_string();
        assert!(
            output.contains("`nme` is not an argument of this prompt (its arguments: name)"),
            "{output}"
        );
    }
}
