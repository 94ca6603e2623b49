//! The rules on a `#[tool]` or `#[prompt]` fn as a whole: one concrete, safe, free fn.

use darling::Error;
use darling::error::Accumulator;
use syn::{
    FnArg, GenericArgument, ItemFn, PathArguments, ReturnType, Safety, Type, TypeParamBound,
};

/// What the signature rules say of one attribute: its name and the words of its errors.
pub(crate) struct SignatureRules {
    /// `tool` or `prompt`.
    pub(crate) attribute: &'static str,
    /// Why it cannot be generic ("a tool has one input schema").
    pub(crate) why_concrete: &'static str,
    /// The return types to name instead of a nested `impl Trait`.
    pub(crate) return_examples: &'static str,
    /// The trait whose `impl` may be the whole return type.
    pub(crate) result_trait: &'static str,
}

/// The rules on the fn as a whole: one concrete, safe signature, shared by `#[tool]` and
/// `#[prompt]`.
pub(crate) fn check_signature(errors: &mut Accumulator, item: &ItemFn, rules: &SignatureRules) {
    let SignatureRules {
        attribute,
        why_concrete,
        return_examples,
        result_trait,
    } = rules;
    let sig = &item.sig;
    check_self_type(errors, sig, attribute);
    if let Some(param) = sig.generics.params.first() {
        errors.push(
            Error::custom(format!(
                "a `#[{attribute}]` fn cannot be generic: {why_concrete}; use concrete types"
            ))
            .with_span(param),
        );
    }
    if let Some(where_clause) = &sig.generics.where_clause {
        errors.push(
            Error::custom(format!("a `#[{attribute}]` fn cannot have a `where` clause: {why_concrete}; use concrete types"))
                .with_span(&where_clause.where_token),
        );
    }
    for input in &sig.inputs {
        if let FnArg::Typed(typed) = input
            && let Some(impl_trait) = find_impl_trait(&typed.ty)
        {
            errors.push(
                Error::custom(format!(
                    "a `#[{attribute}]` fn cannot be generic: `impl Trait` in a parameter is a type parameter; use a concrete type"
                ))
                .with_span(impl_trait),
            );
        }
    }
    if let ReturnType::Type(_, ty) = &sig.output
        && !matches!(**ty, Type::ImplTrait(_))
        && let Some(impl_trait) = find_impl_trait(ty)
    {
        errors.push(
            Error::custom(format!(
                "`impl Trait` can only be the whole return type of a `#[{attribute}]` fn: name the type here ({return_examples}), or return `impl {result_trait}` and put the `Result` inside"
            ))
            .with_span(impl_trait),
        );
    }
    if let Safety::Unsafe(unsafety) = &sig.safety {
        errors.push(
            Error::custom(format!(
                "a `#[{attribute}]` fn cannot be `unsafe`: the server calls it with whatever a client sends; make it safe and put `unsafe` blocks inside"
            ))
            .with_span(unsafety),
        );
    }
    if let Some(variadic) = &sig.variadic {
        errors.push(
            Error::custom(format!("a `#[{attribute}]` fn cannot be variadic")).with_span(variadic),
        );
    }
}

/// A fn without `self` inside an `impl` or `trait` block looks like a free fn to the macro; a
/// `Self` in its signature tells, and is reported here rather than as rustc's "`const` items in
/// this context need a name".
fn check_self_type(errors: &mut Accumulator, sig: &syn::Signature, attribute: &str) {
    let is_self = |ty: &Type| {
        matches!(ty, Type::Path(path) if path.qself.is_none()
            && path.path.segments.first().is_some_and(|first| first.ident == "Self"))
    };
    let params = sig.inputs.iter().filter_map(|input| match input {
        FnArg::Typed(typed) => Some(&*typed.ty),
        FnArg::Receiver(_) => None,
    });
    let output = match &sig.output {
        ReturnType::Type(_, ty) => Some(&**ty),
        ReturnType::Default => None,
    };
    if let Some(self_type) = params.chain(output).find_map(|ty| find_type(ty, &is_self)) {
        errors.push(
            Error::custom(format!(
                "`#[{attribute}]` cannot be used on an associated fn (`Self` is only known inside an `impl` or `trait` block): a {attribute} is a free fn; move it out of the block"
            ))
            .with_span(self_type),
        );
    }
}

/// The first `impl Trait` inside `ty`, if any.
fn find_impl_trait(ty: &Type) -> Option<&Type> {
    find_type(ty, &|ty| matches!(ty, Type::ImplTrait(_)))
}

/// The first type inside `ty` (itself included) that `wanted` accepts.
pub(super) fn find_type<'a>(ty: &'a Type, wanted: &dyn Fn(&Type) -> bool) -> Option<&'a Type> {
    if wanted(ty) {
        return Some(ty);
    }
    let in_args = |arguments: &'a PathArguments| match arguments {
        PathArguments::AngleBracketed(args) => args.args.iter().find_map(|arg| match arg {
            GenericArgument::Type(ty) => find_type(ty, wanted),
            _ => None,
        }),
        _ => None,
    };
    match ty {
        Type::Reference(reference) => find_type(&reference.elem, wanted),
        Type::Slice(slice) => find_type(&slice.elem, wanted),
        Type::Array(array) => find_type(&array.elem, wanted),
        Type::Paren(paren) => find_type(&paren.elem, wanted),
        Type::Group(group) => find_type(&group.elem, wanted),
        Type::Ptr(pointer) => find_type(&pointer.elem, wanted),
        Type::Tuple(tuple) => tuple.elems.iter().find_map(|ty| find_type(ty, wanted)),
        Type::Path(path) => path
            .path
            .segments
            .iter()
            .find_map(|segment| in_args(&segment.arguments)),
        Type::TraitObject(object) => object.bounds.iter().find_map(|bound| match bound {
            TypeParamBound::Trait(bound) => bound
                .path
                .segments
                .iter()
                .find_map(|segment| in_args(&segment.arguments)),
            _ => None,
        }),
        _ => None,
    }
}
