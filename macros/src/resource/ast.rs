//! The validated model of a `#[resource]` item; its expansion reads only this.

use syn::{ItemFn, Path, Type};

use super::attr::ResourceArgs;
use crate::ast::Provided;

/// A checked `#[resource]` item.
pub(super) struct ResourceItem<'a> {
    /// Its keys.
    pub(super) args: &'a ResourceArgs,
    /// The runtime crate (`::mcp_toolbelt` unless `crate = …`).
    pub(super) krate: Path,
    pub(super) source: &'a Source,
    /// The variables of its URI template, in order (none for a plain URI).
    pub(super) variables: Vec<String>,
    /// What each parameter of a reading fn receives, in order (none for a `static`).
    pub(super) slots: Vec<Slot<'a>>,
}

/// What the attribute is on.
pub(super) enum Source {
    /// A `static` or `const`, its type and attributes.
    Static(syn::Ident, Type, Vec<syn::Attribute>),
    /// A reading fn.
    Fn(ItemFn),
}

impl Source {
    pub(super) fn ident(&self) -> &syn::Ident {
        match self {
            Self::Static(ident, ..) => ident,
            Self::Fn(item) => &item.sig.ident,
        }
    }

    /// Its attributes, where its doc comment is.
    pub(super) fn attrs(&self) -> &[syn::Attribute] {
        match self {
            Self::Fn(item) => &item.attrs,
            Self::Static(_, _, attrs) => attrs,
        }
    }
}

/// A parameter of a resource fn that is a variable of its URI template: its value, named after
/// it.
pub(super) struct TemplateParam<'a> {
    /// The variable, the parameter's name without its `r#`.
    pub(super) variable: String,
    pub(super) ident: &'a syn::Ident,
    pub(super) ty: &'a Type,
}

/// What one parameter of a resource fn receives, in order.
pub(super) enum Slot<'a> {
    /// The `Context` or app state, as a tool's.
    Runtime(Provided<'a>),
    /// A variable of the URI template.
    Template(TemplateParam<'a>),
}
