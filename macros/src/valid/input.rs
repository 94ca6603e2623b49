//! A `#[tool]` fn's input: its parameters sorted into what the runtime provides and what the
//! client sends, and the input's style (none, the argument struct, inline properties).

use darling::Error;
use darling::error::Accumulator;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{Attribute, FnArg, GenericArgument, ItemFn, LitStr, Pat, Path, PathArguments, Type};

use super::markers::{header_name, is_complete_marker, is_field_attr, property_marker};
use super::provided::{ProvidedKind, provided_param};
use super::signature::find_type;
use super::types::{is_bare_name, is_std_type, unraw};
use crate::ast::{CallArg, InlineParam, Input, Param};
use crate::docs;

/// A parameter that is not a `Context`: part of the tool's input.
struct Candidate<'a> {
    ident: Option<&'a syn::Ident>,
    ty: &'a Type,
    docs: Option<String>,
    /// `#[property]`: one property named after the parameter, whatever its type.
    property: bool,
    pat: &'a Pat,
    /// Its doc comments and `serde`, `schemars` and `cfg` attributes.
    attrs: Vec<&'a Attribute>,
    /// `#[header("Region")]`: the name of the `Mcp-Param-*` header it also travels in.
    header: Option<LitStr>,
}

/// `&self` on a tool: where the fn goes, and how it reaches what `self` held (app state, the
/// one line of a parameter, and the server given the value once).
const METHOD_REFUSAL: &str = "`#[tool]` cannot be used on a method: a tool is a free fn; move it out of the `impl` or `trait` block, and reach what `self` held as app state: in place of `&self` write `this: mcp_toolbelt::State<T>` (`T` the type `self` is; it derefs to `&T`), and give the server the value once, `Server::new(…).state(value)`";

/// Sorts the parameters into what the runtime provides (the `Context`, app state) and the input;
/// see `mcp_toolbelt::tool` for the rule: no parameters → no input; one parameter of a
/// non-standard type, not marked `#[property]` → the argument struct; otherwise every parameter
/// is one property (inline style).
pub(super) fn check_params<'a>(
    errors: &mut Accumulator,
    deferred: &mut Vec<TokenStream>,
    item: &'a ItemFn,
    krate: &Path,
) -> (Input<'a>, Vec<CallArg<'a>>) {
    let mut params = Vec::new();
    let mut candidates = Vec::new();
    for input in &item.sig.inputs {
        let typed = match input {
            FnArg::Receiver(receiver) => {
                errors.push(Error::custom(METHOD_REFUSAL).with_span(receiver));
                continue;
            }
            FnArg::Typed(typed) => typed,
        };
        if let Some(complete) = typed.attrs.iter().find(|attr| is_complete_marker(attr)) {
            errors.push(
                Error::custom(
                    "`#[complete]` completes a prompt's argument (`completion/complete`); a tool's arguments do not complete: remove it",
                )
                .with_span(complete.path()),
            );
        }
        let cfg: Vec<&Attribute> = typed
            .attrs
            .iter()
            .filter(|a| a.path().is_ident("cfg"))
            .collect();
        let param = match ProvidedKind::of(typed, krate) {
            Some((provided, taken)) => {
                provided_param(errors, typed, provided, taken).map(Param::Provided)
            }
            // A parameter left to rustc's check takes no part in the style.
            None => candidate(errors, deferred, typed, krate).map(|candidate| {
                candidates.push(candidate);
                Param::Struct // named by `name_inline_params` once the style is known
            }),
        };
        if let Some(param) = param {
            params.push(CallArg { cfg, param });
        }
    }
    let input = choose_input(errors, &candidates);
    name_inline_params(&input, &mut params);
    (input, params)
}

/// In the inline style, each input parameter is its own property: the `Param::Struct`s
/// `check_params` left, in order, become the inline parameters' names.
fn name_inline_params<'a>(input: &Input<'a>, params: &mut [CallArg<'a>]) {
    if let Input::Inline(inline) = input {
        let mut idents = inline.iter().map(|param| param.ident);
        for arg in params {
            if matches!(arg.param, Param::Struct) {
                arg.param = idents.next().map_or(Param::Struct, Param::Inline);
            }
        }
    }
}

/// One input parameter, checked on its own: it must own its value. A borrowed bare name
/// (`&Ctx`) may be the `Context` under another name, which only rustc can tell: its check is
/// deferred to rustc ([`aliased_context_check`]), and it is no candidate (`None`).
fn candidate<'a>(
    errors: &mut Accumulator,
    deferred: &mut Vec<TokenStream>,
    typed: &'a syn::PatType,
    krate: &Path,
) -> Option<Candidate<'a>> {
    if let Type::Reference(reference) = &*typed.ty
        && reference.mutability.is_none()
        && is_bare_name(&reference.elem)
        && !is_std_type(&reference.elem)
    {
        deferred.push(aliased_context_check(reference, krate));
        return None;
    }
    if let Some(Type::Reference(reference)) =
        find_type(&typed.ty, &|ty| matches!(ty, Type::Reference(_)))
    {
        errors.push(
            Error::custom(
                "a tool's input is deserialized from JSON into owned values: take `String` instead of `&str`, `Vec<T>` instead of `&[T]`, `T` instead of `&T`",
            )
            .with_span(&reference.and_token),
        );
    }
    if let Some(borrowing) = find_type(&typed.ty, &has_lifetime_argument) {
        errors.push(
            Error::custom(
                "a tool's input is deserialized from JSON into owned values, and this type borrows (it has a lifetime): give it owned fields (`String` instead of `&str`, `Vec<T>` instead of `&[T]`) and no lifetime",
            )
            .with_span(borrowing),
        );
    }
    let ident = match &*typed.pat {
        Pat::Ident(pat) if pat.subpat.is_none() => Some(&pat.ident),
        _ => None,
    };
    let attrs = typed
        .attrs
        .iter()
        .filter(|attr| docs::is_doc(attr) || is_field_attr(attr) || attr.path().is_ident("cfg"))
        .collect();
    Some(Candidate {
        ident,
        ty: &typed.ty,
        docs: docs::text(&typed.attrs).or_else(|| docs::has_macro(&typed.attrs).then(String::new)),
        property: property_marker(errors, &typed.attrs),
        pat: &typed.pat,
        attrs,
        header: header_name(errors, &typed.attrs),
    })
}

/// A type with a lifetime argument (`Borrowed<'a>`), which borrows from what it was read from;
/// not `Cow<'a, T>`, which serde always reads owned, nor `'static` (`Args<'static>` is owned).
fn has_lifetime_argument(ty: &Type) -> bool {
    let Type::Path(path) = ty else {
        return false;
    };
    path.path.segments.iter().any(|segment| {
        segment.ident != "Cow"
            && matches!(&segment.arguments, PathArguments::AngleBracketed(args)
                if args.args.iter().any(|arg| matches!(arg, GenericArgument::Lifetime(lifetime) if lifetime.ident != "static")))
    })
}

/// rustc's check of an unmarked `&Name`: the `Context` under another name is told to mark it
/// `#[context]` (at the name), anything else that the input cannot be borrowed (at the `&`).
fn aliased_context_check(reference: &syn::TypeReference, krate: &Path) -> TokenStream {
    let elem = &reference.elem;
    let private = quote!(__tool_private);
    let probe = quote_spanned!(elem.span()=> (&#private::TypeProbe::<#elem>::new()).kind());
    let not_context = quote_spanned!(elem.span()=> #private::not_an_aliased_context(#probe));
    let not_borrowed =
        quote_spanned!(reference.and_token.span()=> #private::not_borrowed_input(#probe));
    quote! {
        const _: () = {
            use #krate::__private as #private;
            use #private::{ProbeContext as _, ProbeOther as _};
            #[allow(dead_code)]
            fn __tool_parameter_check() {
                #not_context;
                #not_borrowed;
            }
        };
    }
}

/// The style of the tool's input, from its input parameters' types (never their doc comments,
/// so that documenting a parameter never changes the wire shape): a lone parameter of a type of
/// the user's is the argument struct (the runtime makes it one property when its schema is no
/// object), unless marked `#[property]`; any other parameters (a lone `message: String` too)
/// are properties named after them.
fn choose_input<'a>(errors: &mut Accumulator, candidates: &[Candidate<'a>]) -> Input<'a> {
    match candidates {
        [] => Input::None,
        [only] if !only.property && !is_std_type(only.ty) => {
            argument_struct_attrs(errors, only);
            Input::Struct {
                ty: only.ty,
                description: only.docs.clone().filter(|docs| !docs.is_empty()),
            }
        }
        _ => Input::Inline(inline_params(errors, candidates)),
    }
}

/// `serde` and `schemars` attributes shape a property; on the argument struct's parameter they
/// have nothing to shape.
fn argument_struct_attrs(errors: &mut Accumulator, only: &Candidate<'_>) {
    for attr in only.attrs.iter().filter(|attr| is_field_attr(attr)) {
        errors.push(
            Error::custom(
                "this attribute has no effect on the argument struct's parameter: put it on the struct or its fields, or mark the parameter `#[property]` to make it one property named after it",
            )
            .with_span(attr.path()),
        );
    }
    if let Some(header) = &only.header {
        errors.push(
            Error::custom(
                "`#[header]` marks a property, and the argument struct's parameter is the whole input: mark the struct's field, `#[schemars(extend(\"x-mcp-header\" = \"Region\"))]`, or mark the parameter `#[property]` to make it one property",
            )
            .with_span(header),
        );
    }
}

/// Every parameter as one property (inline style).
fn inline_params<'a>(
    errors: &mut Accumulator,
    candidates: &[Candidate<'a>],
) -> Vec<InlineParam<'a>> {
    let mut inline: Vec<InlineParam<'a>> = Vec::new();
    for candidate in candidates {
        if candidate.docs.is_none() && !candidate.property && !is_std_type(candidate.ty) {
            errors.push(
                Error::custom(
                    "an argument struct must be the tool's only parameter (besides `Context`): merge the parameters into one struct, or make each a property, documented with `///` or marked `#[property]` (the `Context` under another name, `use mcp_toolbelt::Context as Ctx`, is marked `#[context]`)",
                )
                .with_span(candidate.ty),
            );
        }
        if let Some(header) = &candidate.header
            && let Some(first) = inline.iter().find(|param| {
                param
                    .header
                    .as_ref()
                    .is_some_and(|first| first.value().eq_ignore_ascii_case(&header.value()))
            })
        {
            errors.push(
                Error::custom(format!(
                    "parameter `{}` already travels in this header (header names ignore case): give each its own name",
                    unraw(first.ident)
                ))
                .with_span(header),
            );
        }
        match candidate.ident {
            Some(ident) => inline.push(InlineParam {
                ident,
                ty: candidate.ty,
                attrs: candidate.attrs.clone(),
                header: candidate.header.clone(),
            }),
            None => errors.push(
                Error::custom(
                    "an inline tool parameter must be a plain name (`name: Type`): its name is the property's name",
                )
                .with_span(candidate.pat),
            ),
        }
    }
    inline
}
