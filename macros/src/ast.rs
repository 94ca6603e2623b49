//! The validated model of a `#[tool]` fn (and the runtime-provided parameters every attribute
//! shares); code generation reads only this.

use proc_macro2::{Span, TokenStream};
use syn::{Attribute, Ident, ItemFn, Path, ReturnType, Type};

/// One `#[tool]` fn, checked.
pub(crate) struct ToolFn<'a> {
    /// The user's fn, for its name, signature and spans.
    pub(crate) item: &'a ItemFn,
    /// The MCP tool name.
    pub(crate) name: String,
    pub(crate) title: Option<String>,
    /// A string literal, or `concat!(…)` of the doc comment's parts when some are macros
    /// (`#[doc = include_str!("…")]`).
    pub(crate) description: TokenStream,
    pub(crate) hints: Hints,
    /// The runtime crate (`::mcp_toolbelt` unless `crate = …`).
    pub(crate) krate: Path,
    /// How the arguments arrive.
    pub(crate) input: Input<'a>,
    /// What the fn takes, in order.
    pub(crate) params: Vec<CallArg<'a>>,
    pub(crate) output: &'a ReturnType,
    /// `false` with `output_schema = false`: the result is its text alone, no `outputSchema`.
    pub(crate) structured: bool,
    /// Where the input schema comes from.
    pub(crate) input_schema: InputSchema,
    /// `output_schema = path`: the fn returning the hand-written output schema.
    pub(crate) output_schema: Option<Path>,
    /// `asks(…)`: the form types the tool elicits, checked at start-up.
    pub(crate) asks: Vec<Type>,
    /// `icons(…)`, in order.
    pub(crate) icons: Vec<crate::icons::Icon>,
    /// `task` / `task = "required"`; `None`: the tool never runs as a task.
    pub(crate) task: Option<crate::attr::TaskKey>,
    /// `tags(…)`.
    pub(crate) tags: crate::tags::Tags,
    /// `scopes(…)`: the OAuth scopes a caller needs.
    pub(crate) scopes: Vec<syn::LitStr>,
    /// `rate_limit = "N/UNIT"`, checked.
    pub(crate) rate_limit: Option<syn::LitStr>,
}

/// Where a tool's input schema comes from.
pub(crate) enum InputSchema {
    /// Derived, then made portable (the default).
    Portable,
    /// Derived, served as schemars generates it (`portable = false`).
    Generated,
    /// A fn's hand-written schema (`input_schema = path`).
    HandWritten(Path),
}

/// The four MCP hints; `None` is left out.
#[derive(Default)]
pub(crate) struct Hints {
    pub(crate) read_only: Option<bool>,
    pub(crate) destructive: Option<bool>,
    pub(crate) idempotent: Option<bool>,
    pub(crate) open_world: Option<bool>,
}

/// The tool's input.
pub(crate) enum Input<'a> {
    /// No parameters besides `Context`.
    None,
    /// The only parameter is an argument struct (or, when the runtime finds its schema is no
    /// object, one property named after it).
    Struct {
        ty: &'a Type,
        /// The parameter's doc comment: the property's description when it is one.
        description: Option<String>,
    },
    /// Each parameter is one property.
    Inline(Vec<InlineParam<'a>>),
}

/// An inline parameter: a property named after it.
pub(crate) struct InlineParam<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) ty: &'a Type,
    /// Its doc comments, `serde`, `schemars` and `cfg` attributes, for the generated field: the
    /// property is then described and shaped exactly as a struct field with them would be.
    pub(crate) attrs: Vec<&'a Attribute>,
    /// `#[header("Region")]`: the property's `x-mcp-header`.
    pub(crate) header: Option<syn::LitStr>,
}

/// One argument of the call of the user's fn.
pub(crate) struct CallArg<'a> {
    /// The parameter's `#[cfg(…)]` attributes, repeated on the argument.
    pub(crate) cfg: Vec<&'a Attribute>,
    pub(crate) param: Param<'a>,
}

/// What one parameter of the user's fn receives.
pub(crate) enum Param<'a> {
    /// What the runtime provides: the request's `Context` or app state.
    Provided(Provided<'a>),
    /// The whole argument struct.
    Struct,
    /// One inline property.
    Inline(&'a Ident),
}

/// A parameter the runtime provides rather than the client, taken the same way by `#[tool]`,
/// `#[prompt]` and `#[resource]` fns.
pub(crate) enum Provided<'a> {
    /// The request's `Context`, by value or by reference; `ty` is the type as written (without
    /// the `&`), checked at compile time to be the runtime's `Context`.
    Context { by_ref: bool, ty: &'a Type },
    /// App state, by value or by reference; `ty` is the `State<T>` as written (without the
    /// `&`), checked at compile time to be the runtime's `State`.
    State { by_ref: bool, ty: &'a Type },
}

impl ToolFn<'_> {
    /// Whether the user's fn is `async`.
    pub(crate) fn is_async(&self) -> bool {
        self.item.sig.asyncness.is_some()
    }

    /// Where errors about the fn as a whole point.
    pub(crate) fn ident_span(&self) -> Span {
        self.item.sig.ident.span()
    }
}
