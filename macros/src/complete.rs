//! `complete(name = path)` and `#[complete(path)]`, shared by `#[prompt]` (its arguments) and
//! `#[resource]` (its template's variables): the key as darling parses it, and the completers
//! a registration holds (a completer fn, or the known values of the value's type).

use darling::Error;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{Meta, Path, Type};

/// `complete(param = path, …)`: one or more `name = path` pairs.
pub(crate) fn completers(meta: &Meta) -> darling::Result<Option<Vec<(syn::Ident, Path)>>> {
    let usage = "`complete` names each argument's completer fn: `complete(city = cities)`";
    let Meta::List(list) = meta else {
        return Err(Error::custom(usage).with_span(meta));
    };
    let pairs = list
        .parse_args_with(
            syn::punctuated::Punctuated::<syn::MetaNameValue, syn::Token![,]>::parse_terminated,
        )
        .map_err(|error| Error::custom(usage).with_span(&error.span()))?;
    let mut out = Vec::new();
    let mut errors = Error::accumulator();
    for pair in pairs {
        let (Some(ident), syn::Expr::Path(path)) = (pair.path.get_ident(), &pair.value) else {
            errors.push(Error::custom(usage).with_span(&pair));
            continue;
        };
        out.push((ident.clone(), path.path.clone()));
    }
    if out.is_empty() {
        errors.push(Error::custom(usage).with_span(meta));
    }
    errors.finish_with(Some(out))
}

/// The completer of a value: its completer fn when one is named, else the known values of its
/// type.
pub(crate) fn completion(private: &syn::Ident, completer: Option<&Path>, ty: &Type) -> TokenStream {
    match completer {
        Some(path) => completer_fn(private, path),
        None => known_values(private, ty),
    }
}

/// The completer of a completer fn, `|| Some(completer(path))`: the runtime's one bound on
/// completers (`async fn(&str, &CompletionContext) -> impl IntoCompletion`, or a closure of the
/// same values owned), spanned at the path, so a fn of another shape is told the shape there.
fn completer_fn(private: &syn::Ident, path: &Path) -> TokenStream {
    let completer = quote_spanned!(path.span()=> #private::completer(#path));
    quote!(|| ::core::option::Option::Some(#completer))
}

/// The known values of `ty` (a unit enum deriving `JsonSchema`, `bool`), as a completer.
fn known_values(private: &syn::Ident, ty: &Type) -> TokenStream {
    quote! {
        || {
            #[allow(unused_imports)]
            use #private::{KnownFromSchema as _, NoKnownValues as _};
            (&&#private::ValuesProbe::<#ty>::new()).known()
        }
    }
}
