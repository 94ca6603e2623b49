//! The rules a `#[tool]` fn must follow. Every violation is collected (never only the first),
//! each spanned at the user's token and saying what to write instead.

use darling::Error;
use darling::error::Accumulator;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{
    Attribute, FnArg, GenericArgument, ItemFn, LitStr, Pat, Path, PathArguments, ReturnType,
    Safety, Type, TypeParamBound, parse_quote,
};

use crate::ast::{CallArg, Hints, InlineParam, Input, InputSchema, Param, Provided, ToolFn};
use crate::attr::{self, Keys, OutputSchema, ToolArgs};
use crate::docs;

/// Checks `item` against the rules and builds its model, pushing every error found to `errors`.
///
/// `args` is `None` when the attribute itself had errors (already in `errors`): the signature and
/// the rules about absent keys (`keys`, read from the raw list; `None` if it did not parse) are
/// still checked, so that one compile shows every mistake, but no model is built.
///
/// A borrowed parameter that may be the `Context` under another name (`ctx: &Ctx`) is decided by
/// rustc: its check goes to `deferred`, and no model is built.
pub(crate) fn check<'a>(
    outer: &mut Accumulator,
    deferred: &mut Vec<TokenStream>,
    args: Option<ToolArgs>,
    keys: Option<Keys>,
    item: &'a ItemFn,
) -> Option<ToolFn<'a>> {
    let mut errors = Error::accumulator();
    check_signature(&mut errors, item, &TOOL_RULES);
    let krate: Path = args
        .as_ref()
        .and_then(|args| args.krate.clone())
        .unwrap_or_else(|| parse_quote!(::mcp_toolbelt));
    let (input, params) = check_params(&mut errors, deferred, item, &krate);

    let sig = &item.sig;
    let keys = keys.unwrap_or(Keys {
        name: true,
        description: true,
    });
    let name = tool_name(&mut errors, args.as_ref(), keys, &sig.ident);

    let docs = docs::description(&item.attrs);
    if !keys.description && docs.is_none() {
        errors.push(
            Error::custom(
                "`#[tool]` needs a description for the model: add a `///` doc comment to the fn or write `#[tool(description = \"…\")]`",
            )
            .with_span(&sig.ident),
        );
    }

    let Some(args) = args else {
        outer.handle(errors.finish());
        return None;
    };
    let description = args
        .description
        .as_ref()
        .map(|description| quote!(#description))
        .or(docs);

    let hints = hints(args.annotations.as_ref());
    let input_schema = schema_source(&mut errors, &args, &input);
    let (structured, output_schema) = output_schema(&mut errors, &args, &sig.output);
    let model = ToolFn {
        item,
        name,
        title: args.title,
        description: description.unwrap_or_default(),
        hints,
        krate,
        input,
        params,
        output: &sig.output,
        structured,
        input_schema,
        output_schema,
        asks: args.asks.unwrap_or_default(),
        icons: args.icons,
        task: args.task,
    };
    outer.handle(errors.finish_with(model))
}

/// The MCP hints of `annotations(…)`, each left out when not given.
fn hints(annotations: Option<&attr::Annotations>) -> Hints {
    annotations.map_or_else(Hints::default, |annotations| Hints {
        read_only: annotations.read_only.map(|hint| *hint),
        destructive: annotations.destructive.map(|hint| *hint),
        idempotent: annotations.idempotent.map(|hint| *hint),
        open_world: annotations.open_world.map(|hint| *hint),
    })
}

/// Whether the result has structured content (`output_schema = false` says no), and the
/// hand-written output schema's fn (`output_schema = path`), checked against the return type.
fn output_schema(
    errors: &mut Accumulator,
    args: &ToolArgs,
    output: &ReturnType,
) -> (bool, Option<Path>) {
    match &args.output_schema {
        None => (true, None),
        Some(OutputSchema::Derived(structured)) => (**structured, None),
        Some(OutputSchema::HandWritten(path)) => {
            check_structured_output(errors, output, path);
            (true, Some(path.clone()))
        }
    }
}

/// Where the input schema comes from: `portable = …` and `input_schema = …` exclude each other,
/// and both need arguments to describe; a hand-written schema carries its own header marks.
fn schema_source(errors: &mut Accumulator, args: &ToolArgs, input: &Input<'_>) -> InputSchema {
    let no_arguments = matches!(input, Input::None);
    if let Some(portable) = &args.portable {
        if args.input_schema.is_some() {
            errors.push(
                Error::custom(
                    "`portable` is about the derived input schema, which `input_schema` replaces: remove one of the two",
                )
                .with_span(&portable.span()),
            );
        } else if no_arguments {
            errors.push(
                Error::custom(
                    "this tool takes no arguments: its input schema has nothing to keep; remove `portable`",
                )
                .with_span(&portable.span()),
            );
        }
    }
    if let Some(path) = &args.input_schema {
        if no_arguments {
            errors.push(
                Error::custom(
                    "this tool takes no arguments: a hand-written input schema would describe arguments it never reads; add the parameters, or remove `input_schema`",
                )
                .with_span(path),
            );
        }
        if let Input::Inline(params) = input {
            for header in params.iter().filter_map(|param| param.header.as_ref()) {
                errors.push(
                    Error::custom(format!(
                        "with `input_schema`, the schema is hand-written: mark the property there (`\"x-mcp-header\": {:?}`) and remove this `#[header]`",
                        header.value()
                    ))
                    .with_span(header),
                );
            }
        }
        return InputSchema::HandWritten(path.clone());
    }
    match args.portable.as_ref().map(|portable| **portable) {
        Some(false) => InputSchema::Generated,
        _ => InputSchema::Portable,
    }
}

/// `output_schema = path` declares the shape of structured content: the fn must return some.
/// Which types do is checked by rustc (`StructuredOutput`); a return type rustc cannot name
/// (`impl …`) or none at all is refused here.
fn check_structured_output(errors: &mut Accumulator, output: &ReturnType, path: &Path) {
    let why = match output {
        ReturnType::Default => "this fn returns `()`, which has no structured content",
        ReturnType::Type(_, ty) if matches!(**ty, Type::ImplTrait(_)) => {
            "this fn returns `impl …`, whose structured content cannot be known"
        }
        ReturnType::Type(..) => return,
    };
    errors.push(
        Error::custom(format!(
            "{why}: a hand-written `output_schema` describes structured content; return `Json<T>` (or `CallToolResult`)"
        ))
        .with_span(path),
    );
}

/// The tool's name: `name = "…"`, or the fn's name, which must then be a valid tool name.
fn tool_name(
    errors: &mut Accumulator,
    args: Option<&ToolArgs>,
    keys: Keys,
    ident: &syn::Ident,
) -> String {
    if let Some(name) = args.and_then(|args| args.name.as_ref()) {
        return name.as_str().to_owned();
    }
    if keys.name {
        return unraw(ident);
    }
    fn_name(errors, ident, "tool")
}

/// The name of a `#[tool]` or `#[prompt]` fn without `name = "…"`: the fn's, which must then be
/// a valid name.
pub(crate) fn fn_name(errors: &mut Accumulator, ident: &syn::Ident, attribute: &str) -> String {
    let name = unraw(ident);
    if !attr::is_valid_name(&name) {
        errors.push(
            Error::custom(format!(
                "`{name}` is not a valid {attribute} name (1 to 64 characters from `A-Z a-z 0-9 _ . -`): set one with `#[{attribute}(name = \"…\")]`"
            ))
            .with_span(ident),
        );
    }
    name
}

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

/// `#[tool]`'s rules.
const TOOL_RULES: SignatureRules = SignatureRules {
    attribute: "tool",
    why_concrete: "a tool has one input schema",
    return_examples: "`Result<String, E>`, `Result<Json<T>, E>`",
    result_trait: "IntoToolResult",
};

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
fn find_type<'a>(ty: &'a Type, wanted: &dyn Fn(&Type) -> bool) -> Option<&'a Type> {
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

/// Whether `attr` is one of the derives' helper attributes, which `#[tool]` moves from an inline
/// parameter to the generated field.
pub(crate) fn is_field_attr(attr: &Attribute) -> bool {
    attr.path().is_ident("serde") || attr.path().is_ident("schemars")
}

/// Whether `attr` is `#[context]`, which makes a parameter the request's `Context` whatever its
/// type is called (`ctx: Ctx` after `use mcp_toolbelt::Context as Ctx`).
pub(crate) fn is_context_marker(attr: &Attribute) -> bool {
    attr.path().is_ident("context")
}

/// Whether `attr` is `#[complete(path)]`, which names a prompt parameter's completer fn.
pub(crate) fn is_complete_marker(attr: &Attribute) -> bool {
    attr.path().is_ident("complete")
}

/// Whether `attr` is `#[property]`, which makes a parameter one property named after it even
/// when it is a lone parameter of a type of the user's (otherwise the whole argument object).
pub(crate) fn is_property_marker(attr: &Attribute) -> bool {
    attr.path().is_ident("property")
}

/// Whether the parameter is marked `#[property]`, checked: the marker takes nothing.
fn property_marker(errors: &mut Accumulator, attrs: &[Attribute]) -> bool {
    let mut marked = false;
    for attr in attrs.iter().filter(|attr| is_property_marker(attr)) {
        if !matches!(attr.meta, syn::Meta::Path(_)) {
            errors.push(
                Error::custom("`#[property]` takes nothing: write `#[property]` alone")
                    .with_span(&attr.meta),
            );
        }
        marked = true;
    }
    marked
}

/// Whether `attr` is `#[header("Name")]`, which mirrors an inline parameter into the HTTP header
/// `Mcp-Param-Name` (its property's `x-mcp-header`).
pub(crate) fn is_header_marker(attr: &Attribute) -> bool {
    attr.path().is_ident("header")
}

/// The header name of a parameter's `#[header("Name")]`, checked: one attribute, one string
/// literal, an RFC 9110 token (what a header name is made of).
fn header_name(errors: &mut Accumulator, attrs: &[Attribute]) -> Option<LitStr> {
    let mut markers = attrs.iter().filter(|attr| is_header_marker(attr));
    let first = markers.next()?;
    for again in markers {
        errors.push(
            Error::custom("a parameter travels in one header: remove this `#[header]`")
                .with_span(again.path()),
        );
    }
    let Ok(name) = first.parse_args::<LitStr>() else {
        let error = Error::custom(
            "`#[header]` takes the header's name: `#[header(\"Region\")]` also sends the argument as `Mcp-Param-Region`",
        );
        errors.push(match &first.meta {
            syn::Meta::List(list) if !list.tokens.is_empty() => error.with_span(&list.tokens),
            _ => error.with_span(first.path()),
        });
        return None;
    };
    let text = name.value();
    let is_token = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
    if !is_token {
        errors.push(
            Error::custom(format!(
                "`{text}` cannot be a header name: use one or more letters, digits or ``!#$%&'*+-.^_`|~`` (an RFC 9110 token)"
            ))
            .with_span(&name),
        );
        return None;
    }
    Some(name)
}

/// `&self` on a tool: where the fn goes, and how it reaches what `self` held (app state, the
/// one line of a parameter, and the server given the value once).
const METHOD_REFUSAL: &str = "`#[tool]` cannot be used on a method: a tool is a free fn; move it out of the `impl` or `trait` block, and reach what `self` held as app state: in place of `&self` write `this: mcp_toolbelt::State<T>` (`T` the type `self` is; it derefs to `&T`), and give the server the value once, `Server::new(…).state(value)`";

/// Sorts the parameters into what the runtime provides (the `Context`, app state) and the input;
/// see `mcp_toolbelt::tool` for the rule: no parameters → no input; one parameter of a
/// non-standard type, not marked `#[property]` → the argument struct; otherwise every parameter
/// is one property (inline style).
fn check_params<'a>(
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
fn provided_param<'a>(
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

/// `Option<Option<T>>`, as written (bare or with its path).
pub(crate) fn is_double_option(ty: &Type) -> bool {
    option_inner(ty).and_then(option_inner).is_some()
}

/// The `T` of `Option<T>`.
pub(crate) fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    match &last.arguments {
        PathArguments::AngleBracketed(args) if last.ident == "Option" && args.args.len() == 1 => {
            match &args.args[0] {
                GenericArgument::Type(inner) => Some(inner),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A bare name without generics (`Ctx`): what a `use … as` alias of the `Context` looks like.
pub(crate) fn is_bare_name(ty: &Type) -> bool {
    match ty {
        Type::Path(path) => {
            path.qself.is_none()
                && path.path.leading_colon.is_none()
                && path.path.segments.len() == 1
                && path.path.segments[0].arguments.is_empty()
        }
        Type::Paren(paren) => is_bare_name(&paren.elem),
        Type::Group(group) => is_bare_name(&group.elem),
        _ => false,
    }
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

/// What the runtime provides a parameter with, rather than the client.
#[derive(Clone, Copy)]
enum ProvidedKind {
    /// The request's `Context`.
    Context,
    /// App state, `State<T>`.
    State,
}

impl ProvidedKind {
    /// What `typed` takes, if the runtime provides it, and how it takes it. App state is
    /// recognised first: `#[context]` on a `State<T>` does not make it the `Context`.
    fn of<'a>(typed: &'a syn::PatType, krate: &Path) -> Option<(Self, Taken<'a>)> {
        if let Some(taken) = taken(&typed.ty, &|ty| is_state(ty, krate)) {
            return Some((Self::State, taken));
        }
        let marked = typed.attrs.iter().any(is_context_marker);
        taken(&typed.ty, &|ty| marked || is_context(ty, krate)).map(|taken| (Self::Context, taken))
    }
}

/// How a parameter takes what the runtime provides; the type as written without the `&`.
enum Taken<'a> {
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

/// `ident` without its `r#`, as serde names the property.
pub(crate) fn unraw(ident: &syn::Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#")
        .map_or_else(|| name.clone(), ToOwned::to_owned)
}

/// Standard names a struct of the user's own could also have (`Duration`, `Path`), unlike
/// `String` or `u32`: `std::net`, `std::path`, `std::ffi`, `std::time`, `std::num` wrappers.
/// Written bare they are taken as the standard type (a struct of the user's own of such a name
/// is written with its path, `crate::Duration`).
const STD_NAMES_LIKE_A_STRUCT: &str = "
    IpAddr Ipv4Addr Ipv6Addr SocketAddr SocketAddrV4 SocketAddrV6
    PathBuf Path OsString OsStr Duration SystemTime Wrapping Saturating
";

/// Their schemas are a string, a number or an array, which cannot be a tool's whole input, or an
/// object nobody means as one (`Duration`'s `secs` and `nanos`, a map): a lone parameter of such
/// a type is a property named after it, never the argument struct.
pub(crate) fn is_std_type(ty: &Type) -> bool {
    // Whitespace-separated last path segments: scalars and text, `std::num`, wrappers and
    // collections; and the names of `STD_NAMES_LIKE_A_STRUCT`.
    const STD: &str = "
        String str bool char i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64
        NonZero NonZeroU8 NonZeroU16 NonZeroU32 NonZeroU64 NonZeroU128 NonZeroUsize
        NonZeroI8 NonZeroI16 NonZeroI32 NonZeroI64 NonZeroI128 NonZeroIsize
        Option Vec VecDeque LinkedList BinaryHeap HashMap BTreeMap HashSet BTreeSet Cow Value
    ";
    match ty {
        Type::Reference(reference) => is_std_type(&reference.elem),
        Type::Paren(paren) => is_std_type(&paren.elem),
        Type::Group(group) => is_std_type(&group.elem),
        // `crate::Duration`, `self::Path`: the user's own type, whatever its name.
        Type::Path(path)
            if path.path.segments.len() > 1
                && ["crate", "self", "super"]
                    .iter()
                    .any(|own| path.path.segments[0].ident == own) =>
        {
            false
        }
        // serde and schemars read a `Box<T>` as the `T` inside: so does the style rule.
        Type::Path(path) if boxed(path).is_some() => boxed(path).is_some_and(is_std_type),
        Type::Path(path) => path.path.segments.last().is_some_and(|last| {
            STD.split_ascii_whitespace()
                .chain(STD_NAMES_LIKE_A_STRUCT.split_ascii_whitespace())
                .any(|name| last.ident == name)
                && match &last.arguments {
                    PathArguments::AngleBracketed(args) => args
                        .args
                        .iter()
                        .all(|arg| matches!(arg, GenericArgument::Type(_))),
                    _ => true,
                }
        }),
        Type::Array(_) | Type::Slice(_) | Type::Tuple(_) => true,
        _ => false,
    }
}

/// The `T` of `Box<T>` (written bare or with its path, `std::boxed::Box<T>`).
fn boxed(path: &syn::TypePath) -> Option<&Type> {
    let last = path.path.segments.last()?;
    match &last.arguments {
        PathArguments::AngleBracketed(args) if last.ident == "Box" && args.args.len() == 1 => {
            match &args.args[0] {
                GenericArgument::Type(inner) => Some(inner),
                _ => None,
            }
        }
        _ => None,
    }
}
