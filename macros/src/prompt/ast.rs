//! The validated model of a `#[prompt]` fn; its expansion reads only this.

use proc_macro2::TokenStream;
use syn::{ItemFn, Path, Type};

use crate::ast::Provided;

/// A checked `#[prompt]` fn.
pub(super) struct PromptFn<'a> {
    pub(super) item: &'a ItemFn,
    pub(super) name: String,
    pub(super) title: Option<String>,
    pub(super) description: TokenStream,
    /// `icons(…)`, in order.
    pub(super) icons: Vec<crate::icons::Icon>,
    /// `tags(…)`.
    pub(super) tags: crate::tags::Tags,
    /// `scopes(…)`: the OAuth scopes a caller needs.
    pub(super) scopes: Vec<syn::LitStr>,
    pub(super) krate: Path,
    pub(super) arguments: Vec<Argument<'a>>,
    pub(super) slots: Vec<Slot<'a>>,
}

/// One argument of the prompt: a parameter the client gives.
pub(super) struct Argument<'a> {
    /// The argument's name on the wire (`#[serde(rename)]`'s, or the parameter's without `r#`).
    pub(super) name: String,
    /// The parameter's name, without `r#`: `complete(param = path)` may name it or the argument.
    pub(super) param: String,
    /// The type its value is read as (the `T` of an `Option<T>`).
    pub(super) value_ty: &'a Type,
    /// The parameter's type as written.
    pub(super) ty: &'a Type,
    pub(super) docs: Option<TokenStream>,
    pub(super) how: Presence,
    /// `#[complete(path)]` or `complete(name = path)`.
    pub(super) completer: Option<Path>,
    /// The lone argument, of a type of the user's, required, its own name, without a completer:
    /// when its type's schema is an object (an argument struct), its fields are the prompt's
    /// arguments in its place (decided by the runtime, which sees the schema).
    pub(super) fields: bool,
}

/// What an absent argument means.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Presence {
    Required,
    /// `Option<T>`: `None`.
    Optional,
    /// `#[serde(default)]`: `T::default()`.
    Defaulted,
}

/// What each parameter of the fn receives, in order.
pub(super) enum Slot<'a> {
    Runtime(Provided<'a>),
    /// The index of the argument.
    Argument(usize),
}
