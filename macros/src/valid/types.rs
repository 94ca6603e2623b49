//! What a type is, read from how it is written: `Option<T>`, a standard type, a bare name; and a
//! parameter's name without `r#`.

use syn::{GenericArgument, PathArguments, Type};

/// `Option<Option<T>>`, as written (bare or with its path).
pub(crate) fn is_double_option(ty: &Type) -> bool {
    option_inner(ty).and_then(option_inner).is_some()
}

/// The `T` of `Option<T>`.
pub(crate) fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else {
        return None;
    };
    wrapped(path, "Option")
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
    wrapped(path, "Box")
}

/// The `T` of `wrapper<T>` (`Option`, `Box`), written bare or with its path.
fn wrapped<'a>(path: &'a syn::TypePath, wrapper: &str) -> Option<&'a Type> {
    let last = path.path.segments.last()?;
    match &last.arguments {
        PathArguments::AngleBracketed(args) if last.ident == wrapper && args.args.len() == 1 => {
            match &args.args[0] {
                GenericArgument::Type(inner) => Some(inner),
                _ => None,
            }
        }
        _ => None,
    }
}
