//! What the runtime provides a parameter with rather than the client (the request's `Context`,
//! app state `State<T>`), recognised as written and checked the same way for every attribute.

use darling::Error;
use darling::error::Accumulator;
use syn::{FnArg, GenericArgument, ItemFn, Path, PathArguments, Type};

use super::markers::{is_context_marker, is_header_marker, is_property_marker};
use crate::ast::Provided;

/// A parameter of a `#[prompt]` or `#[resource]` fn.
pub(crate) enum FnParam<'a> {
    /// What the runtime provides (the `Context`, app state), checked as a tool's.
    Provided(Provided<'a>),
    /// One the client gives, for the attribute's own rules.
    Given(&'a syn::PatType),
}

/// Visits the parameters of a `#[prompt]` or `#[resource]` fn in order: `self` is refused (with
/// `method`, at it), and so is a provided one taken as it cannot be (not visited).
pub(crate) fn each_param<'a>(
    errors: &mut Accumulator,
    item: &'a ItemFn,
    krate: &Path,
    method: &str,
    mut visit: impl FnMut(&mut Accumulator, FnParam<'a>),
) {
    for input in &item.sig.inputs {
        let typed = match input {
            FnArg::Receiver(receiver) => {
                errors.push(Error::custom(method).with_span(receiver));
                continue;
            }
            FnArg::Typed(typed) => typed,
        };
        match ProvidedKind::of(typed, krate) {
            None => visit(errors, FnParam::Given(typed)),
            Some((provided, taken)) => {
                if let Some(provided) = provided_param(errors, typed, provided, taken) {
                    visit(errors, FnParam::Provided(provided));
                }
            }
        }
    }
}

/// A parameter the runtime provides rather than the client: it is no argument, so it takes no
/// `#[header]`, and it is shared, so it is not borrowed mutably.
pub(super) fn provided_param<'a>(
    errors: &mut Accumulator,
    typed: &syn::PatType,
    provided: ProvidedKind,
    taken: Taken<'a>,
) -> Option<Provided<'a>> {
    let what = match provided {
        ProvidedKind::State => "app state",
        ProvidedKind::Context => "the `Context`",
    };
    if let Some(header) = typed.attrs.iter().find(|attr| is_header_marker(attr)) {
        errors.push(
            Error::custom(format!(
                "`#[header]` mirrors an argument into an HTTP header; {what} is no argument"
            ))
            .with_span(header.path()),
        );
    }
    if let Some(property) = typed.attrs.iter().find(|attr| is_property_marker(attr)) {
        errors.push(
            Error::custom(format!(
                "`#[property]` makes an argument one property; {what} is no argument: remove it"
            ))
            .with_span(property.path()),
        );
    }
    let (by_ref, ty) = match taken {
        Taken::Owned(ty) => (false, ty),
        Taken::Borrowed(ty) => (true, ty),
        Taken::BorrowedMut(mutability) => {
            let refusal = match provided {
                ProvidedKind::State => {
                    "app state is shared by every call and cannot be borrowed mutably: take `State<T>` (it derefs to `&T`), and put a `Mutex` or an atomic inside what must change"
                }
                ProvidedKind::Context => {
                    "the `Context` cannot be borrowed mutably: take `&Context` or `Context`"
                }
            };
            errors.push(Error::custom(refusal).with_span(&mutability));
            return None;
        }
    };
    Some(match provided {
        ProvidedKind::State => Provided::State { by_ref, ty },
        ProvidedKind::Context => Provided::Context { by_ref, ty },
    })
}

/// What the runtime provides a parameter with, rather than the client.
#[derive(Clone, Copy)]
pub(super) enum ProvidedKind {
    /// The request's `Context`.
    Context,
    /// App state, `State<T>`.
    State,
}

impl ProvidedKind {
    /// What `typed` takes, if the runtime provides it, and how it takes it. App state is
    /// recognised first: `#[context]` on a `State<T>` does not make it the `Context`.
    pub(super) fn of<'a>(typed: &'a syn::PatType, krate: &Path) -> Option<(Self, Taken<'a>)> {
        if let Some(taken) = taken(&typed.ty, &|ty| is_state(ty, krate)) {
            return Some((Self::State, taken));
        }
        let marked = typed.attrs.iter().any(is_context_marker);
        taken(&typed.ty, &|ty| marked || is_context(ty, krate)).map(|taken| (Self::Context, taken))
    }
}

/// How a parameter takes what the runtime provides; the type as written without the `&`.
pub(super) enum Taken<'a> {
    /// `T`
    Owned(&'a Type),
    /// `&T`
    Borrowed(&'a Type),
    /// `&mut T`, which is an error (what the runtime provides is shared); holds the `mut`.
    BorrowedMut(syn::token::Mut),
}

/// Whether `ty` is, once parentheses and one `&` or `&mut` are looked through, a type `is_it`
/// accepts, and how it is taken.
fn taken<'a>(ty: &'a Type, is_it: &dyn Fn(&Type) -> bool) -> Option<Taken<'a>> {
    match ty {
        Type::Reference(reference) => match taken(&reference.elem, is_it)? {
            Taken::Owned(elem) => Some(match reference.mutability {
                Some(mutability) => Taken::BorrowedMut(mutability),
                None => Taken::Borrowed(elem),
            }),
            Taken::Borrowed(_) | Taken::BorrowedMut(_) => None,
        },
        Type::Paren(paren) => taken(&paren.elem, is_it),
        Type::Group(group) => taken(&group.elem, is_it),
        _ => is_it(ty).then_some(Taken::Owned(ty)),
    }
}

/// Whether `ty` is the request's `Context`, resolved as written: `Context`,
/// `mcp_toolbelt::Context`, `::mcp_toolbelt::Context` and `<crate path>::Context` are ours (the
/// generated code checks that a bare `Context` really is), any other path (`crate::Context`) is
/// the user's own type. `#[context]` makes any type the `Context` (an alias:
/// `use …::Context as Ctx`); [`ProvidedKind::of`] applies it.
fn is_context(ty: &Type, krate: &Path) -> bool {
    let Type::Path(path) = ty else { return false };
    path.qself.is_none()
        && path
            .path
            .segments
            .last()
            .is_some_and(|last| last.ident == "Context" && last.arguments.is_empty())
        && is_ours(&path.path, krate)
}

/// Whether `ty` is app state: `State<T>` written bare, as `mcp_toolbelt::State<T>` or
/// `<crate path>::State<T>`. A `State` without a type argument is not taken for ours (a user's
/// own `State` enum is a fine argument), so `State` alone is rustc's "missing generics for
/// struct `State`" at the user's token.
fn is_state(ty: &Type, krate: &Path) -> bool {
    let Type::Path(path) = ty else { return false };
    let Some(last) = path.path.segments.last() else {
        return false;
    };
    let generic = matches!(&last.arguments, PathArguments::AngleBracketed(args)
        if args.args.len() == 1 && matches!(args.args[0], GenericArgument::Type(_)));
    path.qself.is_none() && last.ident == "State" && generic && is_ours(&path.path, krate)
}

/// Whether the prefix of `path` (all but its last segment) names the runtime crate, or is
/// empty: `Context`, `mcp_toolbelt::Context`, `<crate path>::Context`.
fn is_ours(path: &Path, krate: &Path) -> bool {
    let idents = |path: &Path| -> Vec<String> {
        path.segments
            .iter()
            .map(|segment| segment.ident.to_string())
            .collect()
    };
    let written = idents(path);
    let prefix = &written[..written.len() - 1];
    (prefix.is_empty() && path.leading_colon.is_none())
        || prefix == ["mcp_toolbelt"]
        || prefix == idents(krate).as_slice()
}
