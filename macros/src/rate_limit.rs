//! The `rate_limit = "N/UNIT"` key of `#[tool]`: the tool's own limit per principal, on top of
//! the server's. The literal is checked here, at its span, by the rule the runtime reads it with
//! (`rate_rules.rs`, one file both crates compile), so a limit that compiles is one that is
//! served.

use darling::Error;
use proc_macro2::TokenStream;
use quote::quote;
use syn::{Expr, ExprLit, Lit, LitStr, Meta};

#[path = "rate_rules.rs"]
mod rules;

/// `rate_limit = "N/UNIT"`: a string literal the rule accepts.
pub(crate) fn rate_limit(meta: &Meta) -> darling::Result<Option<LitStr>> {
    let usage = || format!("`rate_limit = \"…\"`: {}", rules::EXPECTED);
    let Meta::NameValue(name_value) = meta else {
        return Err(Error::custom(usage()).with_span(meta));
    };
    let Expr::Lit(ExprLit {
        lit: Lit::Str(literal),
        ..
    }) = &name_value.value
    else {
        return Err(Error::custom(usage()).with_span(&name_value.value));
    };
    match rules::parse(&literal.value()) {
        Ok(_) => Ok(Some(literal.clone())),
        Err(problem) => {
            Err(Error::custom(format!("{problem}; {}", rules::EXPECTED)).with_span(literal))
        }
    }
}

/// The registration's `rate_limit: Option<&str>`.
pub(crate) fn registration(limit: Option<&LitStr>) -> TokenStream {
    limit.map_or_else(
        || quote!(::core::option::Option::None),
        |limit| quote!(::core::option::Option::Some(#limit)),
    )
}

#[cfg(test)]
mod tests {
    use super::rules::parse;

    #[test]
    fn limits_are_n_per_unit() {
        assert_eq!(parse("3/s"), Ok((3, 1)));
        assert_eq!(parse("600/min"), Ok((600, 60)));
        assert_eq!(parse("5000/h"), Ok((5000, 3600)));
        for bad in ["3", "0/s", "3/sec", "x/s", "3/ s", "+3/s", "/s", "3/"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
